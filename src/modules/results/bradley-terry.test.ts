import { describe, expect, it } from 'vitest';
import { bradleyTerry, mmStep, pairCounts, type Comparison } from './bradley-terry.ts';

const games = (winner: number, loser: number, times: number): Comparison[] => Array.from({ length: times }, () => ({ winner, loser }));

describe('Bradley–Terry (MM, Hunter 2004)', () => {
  it('two options: p_A / (p_A + p_B) is A’s win rate', () => {
    // A beat B 3 times, lost once: the maximum likelihood has p_A/(p_A+p_B) = 3/4.
    const p = bradleyTerry(2, [...games(0, 1, 3), ...games(1, 0, 1)], { prior: 0 });
    expect(p[0]).toBeCloseTo(0.75, 9);
    expect(p[1]).toBeCloseTo(0.25, 9);
  });

  it('the prior adds a tenth of a drawn game per pair', () => {
    // W_A = 3 + 0.05, W_B = 1 + 0.05, N_AB = 4.1 → p_A = 3.05 / 4.1 = 0.743902…
    const p = bradleyTerry(2, [...games(0, 1, 3), ...games(1, 0, 1)]);
    expect(p[0]).toBeCloseTo(3.05 / 4.1, 9);
  });

  it('a three-option tournament with a known solution (4, 2, 1) / 7', () => {
    // Built so that p = (4/7, 2/7, 1/7) satisfies the likelihood equations W_i = Σ_j N_ij p_i/(p_i+p_j):
    //   A–B 3 games (A wins 2 = 3·4/6), B–C 3 games (B wins 2 = 3·2/3), A–C 5 games (A wins 4 = 5·4/5).
    //   W_A = 2 + 4 = 6 = 3·(2/3) + 5·(4/5);  W_B = 1 + 2 = 3 = 3·(1/3) + 3·(2/3);  W_C = 1 + 1 = 2 = 3·(1/3) + 5·(1/5).
    // The comparison graph is connected both ways, so the maximum likelihood estimate is unique.
    const data = [...games(0, 1, 2), ...games(1, 0, 1), ...games(1, 2, 2), ...games(2, 1, 1), ...games(0, 2, 4), ...games(2, 0, 1)];
    const p = bradleyTerry(3, data, { prior: 0 });
    expect(p[0]).toBeCloseTo(4 / 7, 8);
    expect(p[1]).toBeCloseTo(2 / 7, 8);
    expect(p[2]).toBeCloseTo(1 / 7, 8);
  });

  it('a cycle (A>B, B>C, C>A) gives equal strengths', () => {
    const p = bradleyTerry(3, [{ winner: 0, loser: 1 }, { winner: 1, loser: 2 }, { winner: 2, loser: 0 }], { prior: 0 });
    for (const v of p) expect(v).toBeCloseTo(1 / 3, 9);
  });

  it('an option that never loses and one that never wins stay finite thanks to the prior, at the MM fixed point', () => {
    // A beat B 3 times, B beat C 3 times; A never lost, C never won, A and C never met.
    const data = [...games(0, 1, 3), ...games(1, 2, 3)];
    const p = bradleyTerry(3, data);
    expect(p.every((v) => v > 0 && Number.isFinite(v))).toBe(true);
    expect(p[0]).toBeGreaterThan(p[1]);
    expect(p[1]).toBeGreaterThan(p[2]);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    // Fixed point: one more MM step changes nothing, i.e. the (prior-augmented) likelihood equations hold.
    const counts = pairCounts(3, data, 0.1);
    const again = mmStep(p, counts);
    again.forEach((v, i) => expect(v).toBeCloseTo(p[i], 8));
    for (let i = 0; i < 3; i++) {
      let expected = 0;
      for (let j = 0; j < 3; j++) if (j !== i) expected += (counts.comparisons[i][j] * p[i]) / (p[i] + p[j]);
      expect(expected).toBeCloseTo(counts.wins[i], 6);
    }
    // B sits in the middle by symmetry of the data: p_B² = p_A · p_C.
    expect(p[1] * p[1]).toBeCloseTo(p[0] * p[2], 6);
  });

  it('no data: all equal', () => {
    expect(bradleyTerry(4, [])).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(bradleyTerry(0, [])).toEqual([]);
  });
});
