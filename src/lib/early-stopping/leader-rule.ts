import { logBeta } from './log-gamma.ts';

/**
 * The leader rule: "stop when the option in front is, with confidence 1 − α, the true favourite".
 *
 * Source: S. A. Jain, R. Shah, S. Gupta, D. Mehta, I. J. Nair, J. Vora, S. Khyalia, S. Das,
 * V. J. Ribeiro, S. Kalyanakrishnan, "PAC Mode Estimation using PPR Martingale Confidence
 * Sequences", AISTATS 2022 (PMLR 151), arXiv:2109.05047. Their stopping rule PPR-1v1 is used as is.
 * (Issue 17 cites it as "Jain et al., AISTATS 2022"; note that "Anytime-Valid Inference for
 * Multinomial Count Data" is a different paper, Lindon & Malek, NeurIPS 2022, which is not used here.)
 *
 * The statistic. Take the leader a (most answers so far) and any other option c, and look only at the
 * answers that went to a or c: each is "a" with probability q = p_a / (p_a + p_c), independently.
 * The prior-posterior ratio (PPR) martingale of Waudby-Smith & Ramdas ("Confidence sequences for
 * sampling without replacement", NeurIPS 2020; the PPR construction of their §3) with a uniform
 * Beta(1, 1) prior, evaluated at the tie q = 1/2, is
 *
 *     prior(1/2) / posterior(1/2) = B(a+1, c+1) / (1/2)^(a+c) = B(a+1, c+1) · 2^(a+c),
 *
 * a nonnegative martingale with mean 1 when q = 1/2, so by Ville's inequality it ever reaches 1/δ
 * with probability ≤ δ. When c is truly better (q < 1/2) the same holds for the event "a leads and
 * the ratio at 1/2 reaches 1/δ": the PPR confidence sequence {q' : posterior(q') > δ} is an interval
 * around the posterior mode a/(a+c) > 1/2 (the posterior is log-concave), so leaving out 1/2 while a
 * leads leaves out every q' ≤ 1/2, the true q among them, which happens with probability ≤ δ.
 * PPR-1v1 asks it to reach (K − 1)/α against EVERY other option: a false winner needs the
 * comparison with a true favourite m to cross, and there are K − 1 comparisons involving m, each
 * allowed α/(K − 1) (union bound), so the chance of ever naming a wrong or tied winner is ≤ α,
 * whenever the rule is checked, after every answer, forever.
 *
 * Golden values at K = 2, α = 0.05 (threshold 20): 8–0 gives 2^8/9 ≈ 28.4 (settles), 7–0 gives
 * 2^7/8 = 16 (does not), 124–76 settles, 123–77 does not (leader-rule.test.ts).
 *
 * Cost: O(K) per evaluation, three table look-ups per rival (log-gamma.ts). The evidence against a
 * rival falls as the rival's count rises towards a's (B(a+1,c+2)·2/B(a+1,c+1) = 2(c+1)/(a+c+2) ≤ 1
 * for c ≤ a), so the minimum is always against the runner-up; we still take the minimum over all,
 * which is as cheap and does not lean on that argument.
 */

export type LeaderRuleResult = {
  /** True when the leader's evidence reaches the threshold against every other option. */
  settled: boolean;
  /** Index of the option with strictly the most answers; null with no answers or a tie for first. */
  leader: number | null;
  /**
   * ln of the smallest evidence B(a+1, c+1)·2^(a+c) of the leader against any rival; 0 when there is
   * no strict leader (evidence 1: nothing learned); +Infinity with a single option.
   */
  logEvidence: number;
  /** ln((K − 1)/α), the level logEvidence must reach. */
  logThreshold: number;
  /** (K − 1)/α, the same level, for people. */
  threshold: number;
};

/** ln(B(a+1, c+1)·2^(a+c)): the PPR evidence for "a beats c" from a answers for a and c for c. */
export function logPairEvidence(a: number, c: number): number {
  return logBeta(a + 1, c + 1) + (a + c) * Math.LN2;
}

/**
 * Evaluates the leader rule on the current counts (one count per option, in any order).
 * `alpha` is the error the requester accepts: 1 − confidence (0.05 for 95%).
 */
export function leaderRule(counts: readonly number[], alpha: number): LeaderRuleResult {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  const k = counts.length;
  if (k < 2) throw new RangeError('the leader rule needs at least two options');
  for (const count of counts) {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`counts must be non-negative integers, got ${count}`);
  }
  const threshold = (k - 1) / alpha;
  const logThreshold = Math.log(threshold);

  let leader = 0;
  let tiedForFirst = false;
  for (let i = 1; i < k; i++) {
    if (counts[i] > counts[leader]) {
      leader = i;
      tiedForFirst = false;
    } else if (counts[i] === counts[leader]) {
      tiedForFirst = true;
    }
  }
  if (tiedForFirst) return { settled: false, leader: null, logEvidence: 0, logThreshold, threshold };

  let logEvidence = Infinity;
  for (let c = 0; c < k; c++) {
    if (c === leader) continue;
    const e = logPairEvidence(counts[leader], counts[c]);
    if (e < logEvidence) logEvidence = e;
  }
  return { settled: logEvidence >= logThreshold, leader, logEvidence, logThreshold, threshold };
}
