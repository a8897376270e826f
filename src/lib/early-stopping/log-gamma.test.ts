import { describe, expect, it } from 'vitest';
import { logBeta, logFactorial, logGamma } from './log-gamma.ts';

// Reference values from Python 3's math.lgamma (itself checked against the C library's lgamma).
const REFERENCE: Array<[number, number]> = [
  [0.001, 6.907178885383854],
  [0.5, 0.5723649429247004],
  [1, 0],
  [2, 0],
  [2.5, 0.2846828704729196],
  [10, 12.801827480081469],
  [100, 359.1342053695754],
  [5001, 37591.14350887677],
];

describe('logGamma', () => {
  it.each(REFERENCE)('ln Γ(%d) matches the reference to 1e-13 relative', (x, expected) => {
    expect(Math.abs(logGamma(x) - expected)).toBeLessThanOrEqual(1e-13 * Math.max(1, Math.abs(expected)));
  });

  it('agrees with ln((k−1)!) summed exactly for small integers', () => {
    let sum = 0;
    for (let k = 2; k <= 30; k++) {
      sum += Math.log(k - 1);
      expect(logGamma(k)).toBeCloseTo(sum, 12);
    }
  });

  it('uses the reflection formula below 1/2: Γ(−0.5) = −2√π', () => {
    expect(logGamma(-0.5)).toBeCloseTo(Math.log(2 * Math.sqrt(Math.PI)), 13);
    expect(logGamma(0)).toBe(Infinity);
    expect(logGamma(-3)).toBe(Infinity);
  });
});

describe('logFactorial and logBeta', () => {
  it('the table matches logGamma and the closed forms', () => {
    expect(logFactorial(0)).toBe(0);
    expect(logFactorial(5)).toBeCloseTo(Math.log(120), 13);
    expect(logFactorial(5000)).toBeCloseTo(37591.14350887677, 9);
    // B(1, 1) = 1; B(9, 1) = 1/9; B(a, b) = (a−1)!(b−1)!/(a+b−1)!
    expect(logBeta(1, 1)).toBe(0);
    expect(logBeta(9, 1)).toBeCloseTo(-Math.log(9), 13);
    expect(logBeta(3, 4)).toBeCloseTo(Math.log((2 * 6) / 720), 13);
    // non-integers go through logGamma: B(1/2, 1/2) = π
    expect(logBeta(0.5, 0.5)).toBeCloseTo(Math.log(Math.PI), 13);
  });

  it('is finite and symmetric at n = 5,000', () => {
    for (const [a, b] of [[1, 5000], [2500, 2501], [4999, 2]]) {
      const v = logBeta(a, b);
      expect(Number.isFinite(v)).toBe(true);
      expect(v).toBe(logBeta(b, a));
      expect(v).toBeCloseTo(logGamma(a) + logGamma(b) - logGamma(a + b), 8);
    }
  });
});
