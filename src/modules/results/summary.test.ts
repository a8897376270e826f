import { describe, expect, it } from 'vitest';
import { distributionOf } from './distribution.ts';
import { summarize, type SummaryInput } from './summary.ts';

const picks = (counts: number[]) => counts.flatMap((count, option) => Array.from({ length: count }, () => ({ option })));

function choice(counts: number[], live = false): ReturnType<typeof summarize> {
  const labels = counts.map((_, i) => `Option ${String.fromCharCode(65 + i)}`);
  const answers = picks(counts);
  const { items, mean } = distributionOf('single_choice', labels, answers);
  return summarize({ type: 'single_choice', n: answers.length, distribution: items, mean, live, suppressed: false });
}

describe('summary: a winner only when the lead passes the Wilson test (docs/lifecycle.md)', () => {
  it('40 vs 10 of 50: apart at 99% → high, winner named', () => {
    // 0.8 at 99% (z 2.576): centre 0.866358, spread 0.160118 / 1.132716 → low 0.6235;
    // 0.2's high is 1 − 0.6235 = 0.3765 < 0.6235.
    expect(choice([40, 10])).toMatchObject({ winner: 'Option A', confidence: 'high', suggestedFollowUp: 'Why did people choose Option A?' });
    expect(choice([40, 10]).margin).toBeCloseTo(0.6, 12);
  });

  it('33 vs 17 of 50: apart at 95% but not at 99% → medium, winner named', () => {
    // 0.66 at 95%: low (0.698416 − 0.136810) / 1.076832 = 0.5215 > 0.4785 (0.34's high);
    // at 99%: low (0.726358 − 0.184893) / 1.132716 = 0.4780 < 0.5220 → overlap.
    expect(choice([33, 17])).toMatchObject({ winner: 'Option A', confidence: 'medium' });
  });

  it('8 vs 2 of 10: the intervals overlap (0.490 < 0.510) → low, no winner', () => {
    // 8/10 → [0.490, 0.943]; 2/10 → [0.057, 0.510].
    const summary = choice([8, 2]);
    expect(summary).toMatchObject({ winner: null, confidence: 'low' });
    expect(summary.note).toMatch(/No clear leader/);
    expect(summary.suggestedFollowUp).toMatch(/Add more heads/);
    expect(choice([8, 2], true).suggestedFollowUp).toBeNull();
  });

  it('no answers, suppressed, free text and click tests name no winner', () => {
    const base: SummaryInput = { type: 'single_choice', n: 0, distribution: [], mean: null, live: true, suppressed: false };
    expect(summarize(base)).toEqual({ winner: null, margin: null, confidence: null, note: 'No answers yet.', suggestedFollowUp: null });
    expect(summarize({ ...base, suppressed: true }).note).toMatch(/Too few answers/);
    expect(summarize({ ...base, type: 'free_text', n: 3 }).note).toBe('3 written answers so far.');
    const clicks = { imageUrl: null, taps: 4, points: [], grid: [], gridSize: 10, hotspots: [{ x: 0, y: 0, w: 0.1, h: 0.1, count: 3, share: 0.75 }], heatmapUrl: null };
    expect(summarize({ ...base, type: 'click_test', n: 2, clicks, live: false }).note).toBe('4 taps from 2 people. The busiest area holds 75% of taps.');
  });

  it('ranking: no winner when the most-often-first option is not the best on average', () => {
    // A first 3 times but last 2 times; B always first or second:
    // A B C ×3 → A 1, B 2;  B C A ×2 → B 1, A 3. A average (3 + 6)/5 = 1.8, B (6 + 2)/5 = 1.6.
    const answers = [...Array.from({ length: 3 }, () => ({ order: [0, 1, 2] })), ...Array.from({ length: 2 }, () => ({ order: [1, 2, 0] }))];
    const { items } = distributionOf('ranking', ['A', 'B', 'C'], answers);
    const summary = summarize({ type: 'ranking', n: 5, distribution: items, mean: null, live: false, suppressed: false });
    expect(items.find((d) => d.option === 'B')?.rank).toBe(1);
    expect(summary.winner).toBeNull();
  });

  it('pairwise: the strongest option wins when its win rate clears the runner-up’s', () => {
    // A beats B 30 times of 30; B beats C 30 of 30: A's rate 30/30, B's 30/60.
    const game = (a: number, b: number, winner: number, times: number) => Array.from({ length: times }, () => ({ pair: [a, b], option: winner }));
    const { items } = distributionOf('pairwise', ['A', 'B', 'C'], [...game(0, 1, 0, 30), ...game(1, 2, 1, 30)]);
    const summary = summarize({ type: 'pairwise', n: 60, distribution: items, mean: null, live: false, suppressed: false });
    expect(summary).toMatchObject({ winner: 'A', confidence: 'high' });
  });

  it('scale: the note leads with the mean', () => {
    const { items, mean } = distributionOf('scale_1_5', ['1', '2', '3', '4', '5'], picks([0, 0, 2, 6, 2]));
    // mean = (3·2 + 4·6 + 5·2) / 10 = 40 / 10 = 4.0
    expect(summarize({ type: 'scale_1_5', n: 10, distribution: items, mean, live: false, suppressed: false }).note).toMatch(/^Average 4\.0 out of 5\./);
  });
});
