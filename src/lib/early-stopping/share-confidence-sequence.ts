import { logBeta } from './log-gamma.ts';

/**
 * Anytime-valid bounds for one share (the fraction of answers that pick an option), and the margin
 * rule built on them.
 *
 * The confidence sequence: Robbins' beta-binomial mixture. H. Robbins, "Statistical methods related
 * to the law of the iterated logarithm", Ann. Math. Statist. 41 (1970) 1397–1409; in the modern
 * form of S. R. Howard, A. Ramdas, J. McAuliffe, J. Sekhon, "Time-uniform, nonparametric,
 * nonasymptotic confidence sequences", Ann. Statist. 49 (2021) 1055–1080. For a candidate share p,
 * after s of n answers picked the option (f = n − s did not), mix the likelihood ratio of θ against
 * p over a Beta(a, b) prior on θ:
 *
 *     M_n(p) = ∫ θ^s (1−θ)^f dBeta(θ; a, b) / (p^s (1−p)^f) = B(a+s, b+f) / (B(a, b) p^s (1−p)^f).
 *
 * Under the true p this is a nonnegative martingale with mean 1, so by Ville's inequality it ever
 * reaches 1/δ with probability ≤ δ: the set {p : M_n(p) < 1/δ} holds the true share at every n at
 * once with probability ≥ 1 − δ, however often it is looked at. The default prior is the uniform
 * Beta(1, 1) (parameter-free; with it the set is the PPR set of Waudby-Smith & Ramdas 2020). ln M_n
 * is convex in p with its minimum ≤ 0 at p = s/n, so the set is an interval around s/n, found by
 * bisection in log space.
 *
 * K shares at once: each at δ = α/K (union bound), so all K intervals hold together with
 * probability ≥ 1 − α. A caller may also intersect each interval with its earlier ones (keep the
 * largest lower and the smallest upper bound seen): still valid, never wider.
 */

export type Interval = { lower: number; upper: number };
export type BetaPrior = { a: number; b: number };

const UNIFORM: BetaPrior = { a: 1, b: 1 };
const BISECTION_STEPS = 60; // halves [0, 1] to below 1e-18: past a double's resolution near p̂

/** ln M_n(p): the log evidence against "the share is p" after `hits` of `n` answers. */
export function logShareEvidence(hits: number, n: number, p: number, prior: BetaPrior = UNIFORM): number {
  const misses = n - hits;
  const logLikelihoodAtP = (hits > 0 ? hits * Math.log(p) : 0) + (misses > 0 ? misses * Math.log1p(-p) : 0);
  return logBeta(prior.a + hits, prior.b + misses) - logBeta(prior.a, prior.b) - logLikelihoodAtP;
}

/**
 * The anytime-valid interval for one share at level δ (the set of p with M_n(p) < 1/δ).
 * `hits` may be fractional (the width calculator uses n·p), n ≥ 0.
 */
export function shareConfidenceInterval(hits: number, n: number, delta: number, prior: BetaPrior = UNIFORM): Interval {
  return { lower: shareBound(hits, n, delta, 'lower', prior), upper: shareBound(hits, n, delta, 'upper', prior) };
}

/**
 * One end of that interval, by bisection in log space (60 steps). The mixture term of ln M_n(p)
 * does not depend on p, so it is computed once: each step costs two logarithms.
 */
export function shareBound(hits: number, n: number, delta: number, end: 'lower' | 'upper', prior: BetaPrior = UNIFORM): number {
  if (!(delta > 0 && delta < 1)) throw new RangeError(`delta must be in (0, 1), got ${delta}`);
  if (!(n >= 0 && hits >= 0 && hits <= n)) throw new RangeError(`need 0 ≤ hits ≤ n, got ${hits} of ${n}`);
  if (n === 0) return end === 'lower' ? 0 : 1;
  const misses = n - hits;
  if (end === 'lower' ? hits === 0 : misses === 0) return end === 'lower' ? 0 : 1;
  const logLevel = Math.log(1 / delta);
  const mixture = logBeta(prior.a + hits, prior.b + misses) - logBeta(prior.a, prior.b);
  const outside = (p: number) => mixture - ((hits > 0 ? hits * Math.log(p) : 0) + (misses > 0 ? misses * Math.log1p(-p) : 0)) >= logLevel;
  // outside at the far end (ln M = +∞ there), inside at the centre
  let inside = hits / n;
  let out = end === 'lower' ? 0 : 1;
  for (let i = 0; i < BISECTION_STEPS; i++) {
    const mid = (out + inside) / 2;
    if (outside(mid)) out = mid;
    else inside = mid;
  }
  return out; // the outside end: the reported interval errs on the wide side
}

/**
 * All K shares at once, each at α/K, so all hold together with probability ≥ 1 − α. `total` is the
 * number of answers each share is out of: by default the sum of the counts (one option per answer);
 * a multiple choice passes its answerers (each option is then a yes/no of its own).
 */
export function shareConfidenceIntervals(counts: readonly number[], alpha: number, prior: BetaPrior = UNIFORM, total?: number): Interval[] {
  const n = total ?? counts.reduce((s, c) => s + c, 0);
  return counts.map((c) => shareConfidenceInterval(c, n, alpha / counts.length, prior));
}

export type ShareMarginResult = {
  settled: boolean;
  /** The option with strictly the most answers; null with no answers or a tie for first. */
  leader: number | null;
  /**
   * The leader's lower bound minus the largest upper bound among the others, in shares (0.12 = 12
   * points); negative while the race is open. NaN without a leader.
   */
  provenMargin: number;
  /** points / 100: the margin the rule waits for. */
  requiredMargin: number;
};

/**
 * The margin rule for shares, `{rule: 'margin', points, confidence}`:
 *
 *   settled ⇔ lower(leader) − max over other options c of upper(c) ≥ points / 100, and > 0,
 *
 * with every interval as shareConfidenceIntervals gives it at α = 1 − confidence (each share at
 * α/K). Meaning, when it settles: "the leader's true share is ahead of every other option's true
 * share by at least `points` percentage points", wrong with probability ≤ α however many answers it
 * took (on the event, of probability ≥ 1 − α, that every interval holds at every n,
 * p_leader ≥ lower(leader) and p_c ≤ upper(c)). points = 0 asks only that the leader be truly ahead.
 * The upper bound grows with the count (same n), so the largest among the others is the runner-up's:
 * two bisections, whatever K (the engine reads this after every answer). `total`: see
 * shareConfidenceIntervals.
 */
export function shareMarginRule(
  counts: readonly number[],
  points: number,
  alpha: number,
  prior: BetaPrior = UNIFORM,
  total?: number,
): ShareMarginResult {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(points >= 0 && points < 100)) throw new RangeError(`points must be in [0, 100), got ${points}`);
  if (counts.length < 2) throw new RangeError('the margin rule needs at least two options');
  const requiredMargin = points / 100;
  const n = total ?? counts.reduce((s, c) => s + c, 0);
  let leader = 0;
  let tied = false;
  for (let i = 1; i < counts.length; i++) {
    if (counts[i] > counts[leader]) {
      leader = i;
      tied = false;
    } else if (counts[i] === counts[leader]) tied = true;
  }
  if (tied) return { settled: false, leader: null, provenMargin: NaN, requiredMargin };
  let runnerUp = -1;
  for (let c = 0; c < counts.length; c++) if (c !== leader && (runnerUp < 0 || counts[c] > counts[runnerUp])) runnerUp = c;
  const delta = alpha / counts.length;
  const provenMargin = shareBound(counts[leader], n, delta, 'lower', prior) - shareBound(counts[runnerUp], n, delta, 'upper', prior);
  return { settled: provenMargin > 0 && provenMargin >= requiredMargin, leader, provenMargin, requiredMargin };
}
