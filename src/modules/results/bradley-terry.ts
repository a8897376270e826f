/**
 * Bradley–Terry strengths of pairwise answers (docs/results.md): option i beats option j with
 * probability p_i / (p_i + p_j). Fitted by maximum likelihood with the MM algorithm of Hunter
 * (2004, "MM algorithms for generalized Bradley–Terry models", Ann. Statist. 32(1), eq. 3):
 *
 *     p_i ← W_i / Σ_{j≠i} N_ij / (p_i + p_j),   then p ← p / Σ p
 *
 * where W_i is i's wins and N_ij the comparisons of i and j. The maximum likelihood estimate
 * does not exist when an option never wins (p_i → 0), never loses (p_i → ∞), or the comparison
 * graph is not connected. A tiny prior makes it always exist: every pair of options gets `prior`
 * virtual comparisons split evenly (prior/2 wins each way), i.e. a tenth of a drawn game by
 * default, which moves real data very little and keeps every strength positive and finite.
 */
export interface Comparison {
  winner: number;
  loser: number;
}

export interface BradleyTerryOptions {
  /** Virtual comparisons added to every pair, half won by each side. 0 = plain maximum likelihood. */
  prior?: number;
  /** Stop when no strength moves by more than this (relative to the sum, which is 1). */
  tolerance?: number;
  maxIterations?: number;
}

export const DEFAULT_PRIOR = 0.1;

export interface PairCounts {
  wins: number[];
  /** comparisons[i][j] = N_ij, symmetric. */
  comparisons: number[][];
}

export function pairCounts(k: number, data: readonly Comparison[], prior = 0): PairCounts {
  const wins = new Array<number>(k).fill(prior * (k - 1) * 0.5);
  const comparisons = Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => (i === j ? 0 : prior)));
  for (const { winner, loser } of data) {
    if (winner === loser || winner < 0 || loser < 0 || winner >= k || loser >= k) continue;
    wins[winner] += 1;
    comparisons[winner][loser] += 1;
    comparisons[loser][winner] += 1;
  }
  return { wins, comparisons };
}

/** One MM step (Hunter 2004), normalised to sum 1. Exported so tests can check the fixed point. */
export function mmStep(p: readonly number[], counts: PairCounts): number[] {
  const k = p.length;
  const next = new Array<number>(k);
  for (let i = 0; i < k; i++) {
    let denominator = 0;
    for (let j = 0; j < k; j++) {
      const n = counts.comparisons[i][j];
      if (j !== i && n > 0) denominator += n / (p[i] + p[j]);
    }
    // An option never compared keeps its strength (only possible with prior 0).
    next[i] = denominator > 0 ? counts.wins[i] / denominator : p[i];
  }
  const sum = next.reduce((a, b) => a + b, 0);
  return sum > 0 ? next.map((v) => v / sum) : p.slice();
}

/** The log-likelihood of strengths p: Σ_i W_i log p_i − Σ_{i<j} N_ij log(p_i + p_j). */
export function logLikelihood(p: readonly number[], counts: PairCounts): number {
  const k = p.length;
  let sum = 0;
  for (let i = 0; i < k; i++) {
    if (counts.wins[i] > 0) sum += counts.wins[i] * Math.log(p[i]);
    for (let j = i + 1; j < k; j++) if (counts.comparisons[i][j] > 0) sum -= counts.comparisons[i][j] * Math.log(p[i] + p[j]);
  }
  return Number.isNaN(sum) ? -Infinity : sum;
}

const maxMove = (a: readonly number[], b: readonly number[]) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);

/**
 * Strengths summing to 1, in option order; k options and no data: all equal.
 *
 * Plain MM converges linearly, and slowly when the data are sparse (a small breakdown segment
 * where most pairs never met and only the prior links them: thousands of steps). Each cycle is
 * therefore accelerated with SQUAREM (Varadhan & Roland 2008, scheme S3): from two MM steps
 * r = F(p) − p and v = F(F(p)) − 2F(p) + p, jump to p − 2αr + α²v with α = −‖r‖/‖v‖, then take
 * one MM step from there. A jump that leaves the simplex or lowers the likelihood is replaced by
 * the plain two steps, so every cycle still increases the likelihood (the MM property) and the
 * limit is the same fixed point of the MM map: the maximum likelihood estimate.
 */
export function bradleyTerry(k: number, data: readonly Comparison[], options: BradleyTerryOptions = {}): number[] {
  if (k === 0) return [];
  const { prior = DEFAULT_PRIOR, tolerance = 1e-10, maxIterations = 1000 } = options;
  const counts = pairCounts(k, data, prior);
  let p = new Array<number>(k).fill(1 / k);
  let likelihood = logLikelihood(p, counts);
  for (let cycle = 0; cycle < maxIterations; cycle++) {
    const p1 = mmStep(p, counts);
    const p2 = mmStep(p1, counts);
    let next = p2;
    const r = p1.map((v, i) => v - p[i]);
    const v = p2.map((x, i) => x - 2 * p1[i] + p[i]);
    const rNorm = Math.hypot(...r);
    const vNorm = Math.hypot(...v);
    if (vNorm > 0 && rNorm > 0) {
      const alpha = Math.min(-1, -rNorm / vNorm);
      const jump = p.map((x, i) => x - 2 * alpha * r[i] + alpha * alpha * v[i]);
      if (jump.every((x) => x > 0)) {
        const sum = jump.reduce((a, b) => a + b, 0);
        const stabilised = mmStep(jump.map((x) => x / sum), counts);
        if (logLikelihood(stabilised, counts) >= logLikelihood(p2, counts)) next = stabilised;
      }
    }
    const moved = maxMove(next, p);
    const nextLikelihood = logLikelihood(next, counts);
    p = next;
    if (moved < tolerance || (nextLikelihood - likelihood < 1e-15 && moved < tolerance * 1e3)) break;
    likelihood = nextLikelihood;
  }
  return p;
}
