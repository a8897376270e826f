import { normalQuantile } from './normal-quantile.ts';
import { shareConfidenceInterval, type BetaPrior } from './share-confidence-sequence.ts';

/**
 * What early stopping costs in precision, for the estimate to quote truthfully (issue 17 point 1:
 * "intervals about 1.6× wider than a one-time interval").
 *
 * The anytime-valid interval must hold at every n at once, so at any one n it is wider than an
 * interval that only has to hold at a fixed n. This computes the ratio of the two widths for a
 * share p after n answers, at the counts one expects (n·p of n):
 *   - anytime-valid: the beta-binomial mixture interval of share-confidence-sequence.ts at α/shares
 *     (what a settled result shows when `shares` options are reported together);
 *   - one-time: the Wilson score interval at α (two-sided, z = Φ⁻¹(1 − α/2)), what a result shows today.
 * The ratio grows slowly with n (the mixture pays about ½·ln n in the exponent): for α = 0.05 and
 * p = 0.5 it is about 1.6 at n = 100, 1.7 at n = 200, 1.9 at n = 1,000 (interval-width.test.ts has
 * the exact numbers), and more with more shares. Quote the number for the question's own n.
 */
export type WidthComparison = { anytimeWidth: number; oneTimeWidth: number; ratio: number };

export function wilsonInterval(hits: number, n: number, alpha: number): { lower: number; upper: number } {
  const z = normalQuantile(1 - alpha / 2);
  const p = hits / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  return { lower: Math.max(0, centre - half), upper: Math.min(1, centre + half) };
}

export function anytimeWidthRatio(
  n: number,
  p: number,
  alpha = 0.05,
  shares = 1,
  prior?: BetaPrior,
): WidthComparison {
  if (!(n >= 1)) throw new RangeError(`n must be at least 1, got ${n}`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`p must be in [0, 1], got ${p}`);
  if (!(shares >= 1 && Number.isInteger(shares))) throw new RangeError(`shares must be a positive integer, got ${shares}`);
  const anytime = shareConfidenceInterval(n * p, n, alpha / shares, prior);
  const oneTime = wilsonInterval(n * p, n, alpha);
  const anytimeWidth = anytime.upper - anytime.lower;
  const oneTimeWidth = oneTime.upper - oneTime.lower;
  return { anytimeWidth, oneTimeWidth, ratio: anytimeWidth / oneTimeWidth };
}
