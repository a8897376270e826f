import { describe, expect, it } from 'vitest';
import { distributionOf } from './distribution.ts';

const picks = (...options: number[]) => options.map((option) => ({ option }));

describe('distribution per type', () => {
  it('single choice: count and share of answers, with the 95% Wilson interval', () => {
    // 10 answers: Penny 5, Pocket 3, Neither 2 → shares 0.5, 0.3, 0.2.
    const { items, mean } = distributionOf('single_choice', ['Penny', 'Pocket', 'Neither'], picks(0, 0, 0, 0, 0, 1, 1, 1, 2, 2));
    expect(items.map((d) => [d.option, d.count, d.share])).toEqual([['Penny', 5, 0.5], ['Pocket', 3, 0.3], ['Neither', 2, 0.2]]);
    // 5/10 → [0.2366, 0.7634] (see result-math.test.ts)
    expect(items[0].low).toBeCloseTo(0.2366, 4);
    expect(items[0].high).toBeCloseTo(0.7634, 4);
    expect(mean).toBeNull();
  });

  it('no answers: zero counts and shares, intervals [0, 1]', () => {
    const { items } = distributionOf('yes_mostly_no', ['yes', 'mostly', 'no'], []);
    expect(items).toEqual([
      { option: 'yes', count: 0, share: 0, low: 0, high: 1 },
      { option: 'mostly', count: 0, share: 0, low: 0, high: 1 },
      { option: 'no', count: 0, share: 0, low: 0, high: 1 },
    ]);
  });

  it('multi choice: share of answerers who ticked it (shares may add up past 1)', () => {
    // 4 answerers: {A,B}, {A}, {B,C}, {A} → A 3/4, B 2/4, C 1/4.
    const { items } = distributionOf('multi_choice', ['A', 'B', 'C'], [{ options: [0, 1] }, { options: [0] }, { options: [1, 2] }, { options: [0] }]);
    expect(items.map((d) => [d.count, d.share])).toEqual([[3, 0.75], [2, 0.5], [1, 0.25]]);
  });

  it('scale: distribution over 1–5 and the mean', () => {
    // option index 0–4 means 1–5: answers 1, 5, 5, 4, 3 → mean 18 / 5 = 3.6
    const { items, mean } = distributionOf('scale_1_5', ['1', '2', '3', '4', '5'], picks(0, 4, 4, 3, 2));
    expect(items.map((d) => d.count)).toEqual([1, 0, 1, 1, 2]);
    expect(mean).toBeCloseTo(3.6, 12);
  });

  it('ranking: count and share of first places, average rank and rank', () => {
    // A B C · B A C · A C B → averages 4/3, 2, 8/3; first places 2, 1, 0 of 3.
    const { items } = distributionOf('ranking', ['A', 'B', 'C'], [{ order: [0, 1, 2] }, { order: [1, 0, 2] }, { order: [0, 2, 1] }]);
    expect(items.map((d) => [d.option, d.count, d.rank])).toEqual([['A', 2, 1], ['B', 1, 2], ['C', 0, 3]]);
    expect(items[0].share).toBeCloseTo(2 / 3, 12);
    expect(items[0].averageRank).toBeCloseTo(4 / 3, 12);
    expect(items[1].averageRank).toBe(2);
    expect(items[2].averageRank).toBeCloseTo(8 / 3, 12);
  });

  it('pairwise: appearances, wins, win rate, Bradley–Terry strength and rank', () => {
    // The tournament of bradley-terry.test.ts: A–B 2:1, B–C 2:1, A–C 4:1.
    // A: 8 appearances, 6 wins (0.75); B: 6, 3 (0.5); C: 8, 2 (0.25). Strengths near (4, 2, 1)/7 (the prior moves them slightly).
    const game = (a: number, b: number, winner: number, times: number) => Array.from({ length: times }, () => ({ pair: [a, b], option: winner }));
    const answers = [...game(0, 1, 0, 2), ...game(0, 1, 1, 1), ...game(1, 2, 1, 2), ...game(2, 1, 2, 1), ...game(2, 0, 0, 4), ...game(0, 2, 2, 1)];
    const { items } = distributionOf('pairwise', ['A', 'B', 'C'], answers);
    expect(items.map((d) => [d.appearances, d.count, d.share, d.rank])).toEqual([[8, 6, 0.75, 1], [6, 3, 0.5, 2], [8, 2, 0.25, 3]]);
    // The prior (0.1 virtual game per pair, 0.3 in all against 11 real) pulls them a little toward 1/3 each.
    const [a, b, c] = items.map((d) => d.strength as number);
    expect(Math.abs(a - 4 / 7)).toBeLessThan(0.01);
    expect(Math.abs(b - 2 / 7)).toBeLessThan(0.01);
    expect(Math.abs(c - 1 / 7)).toBeLessThan(0.01);
    expect(a).toBeLessThan(4 / 7);
    expect(c).toBeGreaterThan(1 / 7);
    expect(items.reduce((s, d) => s + (d.strength ?? 0), 0)).toBeCloseTo(1, 12);
  });

  it('free text and click tests have no distribution', () => {
    expect(distributionOf('free_text', [], [{}, {}]).items).toEqual([]);
    expect(distributionOf('click_test', [], [{}]).items).toEqual([]);
  });
});
