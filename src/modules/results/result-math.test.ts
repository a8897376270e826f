import { describe, expect, it } from 'vitest';
import { averageRanks, competitionRanks, interval95, median, scaleMean, share } from './result-math.ts';

describe('share', () => {
  it('is count / n, and 0 on an empty base', () => {
    expect(share(3, 4)).toBe(0.75);
    expect(share(0, 0)).toBe(0);
  });
});

describe('95% Wilson interval', () => {
  // Wilson: (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n), z = 1.96, z² = 3.8416.
  it('8/10 → [0.490, 0.943]', () => {
    // p = 0.8; z²/n = 0.38416; denominator 1.38416; centre 0.8 + 0.19208 = 0.99208;
    // spread = 1.96 · √(0.016 + 0.009604) = 1.96 · 0.160012 = 0.313624;
    // low = 0.678456 / 1.38416 = 0.49016; high = 1.305704 / 1.38416 = 0.94332.
    const { low, high } = interval95(8, 10);
    expect(low).toBeCloseTo(0.4902, 4);
    expect(high).toBeCloseTo(0.9433, 4);
  });

  it('5/10 → [0.237, 0.763], symmetric about 1/2', () => {
    // centre 0.69208; spread 1.96 · √(0.025 + 0.009604) = 0.364601;
    // low = 0.327479 / 1.38416 = 0.23659; high = 1.056681 / 1.38416 = 0.76341.
    const { low, high } = interval95(5, 10);
    expect(low).toBeCloseTo(0.2366, 4);
    expect(high).toBeCloseTo(0.7634, 4);
    expect(low + high).toBeCloseTo(1, 12);
  });

  it('0/10 → [0, 0.278]: the interval of a zero count is not zero-width', () => {
    // p = 0: centre = spread = 0.19208; high = 0.38416 / 1.38416 = 0.27754.
    const { low, high } = interval95(0, 10);
    expect(low).toBe(0);
    expect(high).toBeCloseTo(0.2775, 4);
  });

  it('with no answers the interval is everything, [0, 1]', () => {
    expect(interval95(0, 0)).toEqual({ low: 0, high: 1 });
  });
});

describe('scale mean and median', () => {
  it('mean of a 1–5 scale from counts per value', () => {
    // one 1, two 3s, one 5: (1 + 3 + 3 + 5) / 4 = 3
    expect(scaleMean([1, 0, 2, 0, 1])).toBe(3);
    // 1, 3, 4, 5, 5 = 18 / 5 = 3.6
    expect(scaleMean([1, 0, 1, 1, 2])).toBeCloseTo(3.6, 12);
    expect(scaleMean([0, 0, 0, 0, 0])).toBeNull();
  });

  it('median: middle value, or the mean of the middle two', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });
});

describe('ranking', () => {
  it('average ranks and first choices', () => {
    // Orders (most preferred first): A B C · B A C · A C B.
    // A at positions 1, 2, 1 → 4/3; B at 2, 1, 3 → 2; C at 3, 3, 2 → 8/3. Firsts: A 2, B 1, C 0.
    const { averageRank, firsts } = averageRanks([[0, 1, 2], [1, 0, 2], [0, 2, 1]], 3);
    expect(averageRank[0]).toBeCloseTo(4 / 3, 12);
    expect(averageRank[1]).toBe(2);
    expect(averageRank[2]).toBeCloseTo(8 / 3, 12);
    expect(firsts).toEqual([2, 1, 0]);
    expect(competitionRanks(averageRank, 'lower')).toEqual([1, 2, 3]);
  });

  it('an option nobody placed has no average rank', () => {
    expect(averageRanks([], 2).averageRank).toEqual([null, null]);
  });

  it('competition ranks: ties share a rank, the next one skips; nulls last', () => {
    expect(competitionRanks([2, 1, 1, 3], 'lower')).toEqual([3, 1, 1, 4]);
    expect(competitionRanks([0.5, 0.2, 0.5], 'higher')).toEqual([1, 3, 1]);
    expect(competitionRanks([null, 1], 'lower')).toEqual([2, 1]);
  });
});
