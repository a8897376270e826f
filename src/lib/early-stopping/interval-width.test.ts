import { describe, expect, it } from 'vitest';
import { anytimeWidthRatio, wilsonInterval } from './interval-width.ts';
import { normalQuantile } from './normal-quantile.ts';
import { minimumBeforeStop, floorReached } from './stopping-floor.ts';

describe('normalQuantile and the Wilson interval', () => {
  it('matches known quantiles', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 8);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 12);
    expect(normalQuantile(0.005)).toBeCloseTo(-2.5758293035489, 8);
    expect(normalQuantile(0.99875)).toBeCloseTo(3.0233414397, 7);
  });
  it('Wilson: 50 of 100 at 95% is 0.5 ± 0.0962', () => {
    const { lower, upper } = wilsonInterval(50, 100, 0.05);
    expect((upper - lower) / 2).toBeCloseTo(0.0962, 4);
  });
});

describe('anytimeWidthRatio: how much wider the anytime-valid interval is', () => {
  // Measured, α = 0.05, one share (shares = 4 in brackets):
  //   p = 0.5: n = 50 1.56 (1.75), 100 1.62 (1.81), 200 1.67 (1.87), 1,000 1.80 (1.99), 5,000 1.91 (2.09)
  //   p = 0.2: n = 200 1.70; p = 0.05: n = 200 1.78.
  // "About 1.6×" is right near n = 100; the estimate should quote the number for its own n.
  it.each([
    [50, 0.5, 1.56],
    [100, 0.5, 1.62],
    [200, 0.5, 1.67],
    [1000, 0.5, 1.8],
    [5000, 0.5, 1.91],
    [200, 0.2, 1.7],
    [200, 0.05, 1.78],
  ])('n = %d, p = %d: about %d×', (n, p, expected) => {
    expect(anytimeWidthRatio(n, p).ratio).toBeCloseTo(expected, 2);
  });

  it('grows with n and with the number of shares reported together', () => {
    expect(anytimeWidthRatio(1000, 0.5).ratio).toBeGreaterThan(anytimeWidthRatio(100, 0.5).ratio);
    expect(anytimeWidthRatio(200, 0.5, 0.05, 4).ratio).toBeGreaterThan(anytimeWidthRatio(200, 0.5).ratio);
    const r = anytimeWidthRatio(200, 0.5);
    expect(r.ratio).toBeCloseTo(r.anytimeWidth / r.oneTimeWidth, 12);
  });
});

describe('minimumBeforeStop', () => {
  it.each([
    [0, 10],
    [5, 10],
    [100, 10],
    [101, 11],
    [200, 20],
    [30, 10],
    [310, 31],
    [5000, 500],
  ])('n = %d: %d', (n, expected) => {
    expect(minimumBeforeStop(n)).toBe(expected);
  });
  it('is exact where 0.1·n is not (0.1 × 30 = 3.0000000000000004)', () => {
    expect(minimumBeforeStop(130)).toBe(13);
    expect(floorReached(19, 200)).toBe(false);
    expect(floorReached(20, 200)).toBe(true);
    expect(() => minimumBeforeStop(-1)).toThrow(RangeError);
  });
});
