import { wilson } from '../draft/confidence.ts';

/**
 * Small pure statistics of a result (docs/results.md): shares, 95% Wilson score intervals,
 * means, medians, average ranks and competition ranks. No I/O, no dates: unit-tested against
 * hand-computed fixtures in result-math.test.ts.
 */
export interface Interval {
  low: number;
  high: number;
}

/** z for a two-sided 95% interval. */
export const Z95 = 1.96;

/** count / n, and 0 for an empty base (never NaN in a response). */
export function share(count: number, n: number): number {
  return n > 0 ? count / n : 0;
}

/**
 * The 95% Wilson score interval of count/n (confidence.ts computes it). With no answers at all
 * nothing is known, so the honest interval is the whole range [0, 1].
 */
export function interval95(count: number, n: number): Interval {
  if (n <= 0) return { low: 0, high: 1 };
  return wilson(count, n, Z95);
}

/** Mean of a 1–5 scale from counts per value (counts[0] = answers of 1); null with no answers. */
export function scaleMean(counts: readonly number[]): number | null {
  let n = 0;
  let sum = 0;
  counts.forEach((count, i) => {
    n += count;
    sum += (i + 1) * count;
  });
  return n ? sum / n : null;
}

/** The median of the values (the mean of the middle two for an even count); null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Ranking answers: `orders[i]` lists option indexes most preferred first. The average rank of an
 * option is the mean of its 1-based positions over the answers that placed it; `firsts` counts
 * how often it was ranked first. An option no answer placed has averageRank null.
 */
export function averageRanks(orders: ReadonlyArray<readonly number[]>, k: number): { averageRank: Array<number | null>; firsts: number[] } {
  const sums = new Array<number>(k).fill(0);
  const counts = new Array<number>(k).fill(0);
  const firsts = new Array<number>(k).fill(0);
  for (const order of orders) {
    order.forEach((option, position) => {
      if (option < 0 || option >= k) return;
      sums[option] += position + 1;
      counts[option] += 1;
    });
    if (order.length && order[0] >= 0 && order[0] < k) firsts[order[0]] += 1;
  }
  return { averageRank: sums.map((sum, i) => (counts[i] ? sum / counts[i] : null)), firsts };
}

/**
 * Standard competition ranking ("1224"): rank 1 is the best value, equal values (within 1e-9)
 * share a rank and the next rank skips. `better` says whether lower (average rank) or higher
 * (strength) values are better. Null values rank last, together.
 */
export function competitionRanks(values: ReadonlyArray<number | null>, better: 'lower' | 'higher'): number[] {
  const key = (v: number | null) => (v === null ? Infinity : better === 'lower' ? v : -v);
  return values.map((v) => 1 + values.filter((w) => key(w) < key(v) - 1e-9).length);
}
