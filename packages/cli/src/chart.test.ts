import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { bar, percent, renderChart, statusLine, type ChartResult } from './chart.ts';

const plain = pc.createColors(false);
const coloured = pc.createColors(true);

/** 8 of 10 for Penny: the Wilson interval the service gives is [0.490, 0.943] (docs/results.md). */
function penny(overrides: Partial<ChartResult> = {}): ChartResult {
  return {
    questionId: 'q_1',
    status: 'complete',
    nRequested: 10,
    nAccepted: 10,
    distribution: [
      { option: 'Penny', count: 8, share: 0.8, low: 0.49, high: 0.943 },
      { option: 'Pocket', count: 2, share: 0.2, low: 0.057, high: 0.51 },
    ],
    mean: null,
    summary: {
      winner: 'Penny',
      margin: 0.6,
      confidence: 'medium',
      note: 'Penny leads with 8 of 10 answers (80%), 60 points ahead of Pocket; the lead is likely real (95% intervals apart).',
      suggestedFollowUp: null,
    },
    verificationLine: 'Answered by 10 verified heads of tier 1 or above.',
    creditsSpent: 120,
    refundCredits: 0,
    ...overrides,
  };
}

/** The length of a line's bar in eighths of a cell. */
const eighths = (line: string) => [...line].reduce((sum, ch) => sum + Math.max(0, ' ▏▎▍▌▋▊▉█'.indexOf(ch)), 0);

describe('the result as a terminal bar chart', () => {
  it('reads as a person reads it: question, one bar per option with share, count and interval, the summary, the status', () => {
    const lines = renderChart(penny(), { text: 'Which name is best for a savings app?' }, { width: 80, colors: plain });
    expect(lines).toEqual([
      'Which name is best for a savings app?',
      `  Penny   ${'█'.repeat(32)}${'·'.repeat(8)}  80%  8  (49–94%)`,
      `  Pocket  ${'█'.repeat(8)}${'·'.repeat(32)}  20%  2  (6–51%)`,
      '  (…) is the 95% interval of each share',
      'Penny leads with 8 of 10 answers (80%), 60 points ahead of Pocket; the lead is likely real (95% intervals apart).',
      'Complete · 10 of 10 answers · confidence medium · 120 credits spent',
      'Answered by 10 verified heads of tier 1 or above.',
    ]);
  });

  it('a question its rule stopped says so, and labels its intervals anytime-valid; one asked without a rule says where it would have settled', () => {
    const note = 'Stopped early at 8 of 50 answers: Penny is the favourite (evidence 28.44 to 1 against a tie, 20 needed), at 95% confidence.';
    const stopped = renderChart({ ...penny(), settlement: { asked: true, stopped: true, settledAt: 8, withdrawn: false, intervals: 'anytime_valid', note } }, null, { width: 80, colors: plain });
    expect(stopped).toContain(note);
    expect(stopped).toContain('  (…) is the anytime-valid interval of each share');
    const would = 'Asked for all 10 answers (no stopWhen). Under the leader rule at 95% it would have settled at 10 answers: Penny is the favourite.';
    expect(renderChart({ ...penny(), settlement: { asked: false, stopped: false, settledAt: 10, withdrawn: false, intervals: 'wilson', note: would } }, null, { width: 80, colors: plain })).toContain(would);
    // Asked without a rule and never met: nothing to say.
    const quiet = renderChart({ ...penny(), settlement: { asked: false, stopped: false, settledAt: null, withdrawn: false, intervals: 'wilson', note: 'not shown' } }, null, { width: 80, colors: plain });
    expect(quiet).not.toContain('not shown');
  });

  it('bars are proportional to the shares and fit a narrow terminal', () => {
    const lines = renderChart(penny(), null, { width: 50, colors: plain });
    const [pennyLine, pocketLine] = lines;
    // 80% against 20%: four times as long, to the eighth a rounding can cost each bar.
    expect(Math.abs(eighths(pennyLine!) - 4 * eighths(pocketLine!))).toBeLessThanOrEqual(4);
    expect(eighths(pennyLine!)).toBeGreaterThan(8 * 10);
    for (const line of lines.slice(0, 2)) expect([...line].length).toBeLessThanOrEqual(50);
  });

  it('draws partial cells to an eighth, and small shares with a decimal', () => {
    expect(bar(0.5, 10)).toBe('█████');
    expect(bar(0.05, 10)).toBe('▌');
    expect(bar(0.0625, 10)).toBe('▋');
    expect(bar(1.2, 4)).toBe('████');
    expect(percent(0.045)).toBe('4.5%');
    expect(percent(0.5)).toBe('50%');
    expect(percent(0)).toBe('0%');
  });

  it('colour on: the leader green, the others cyan, the interval dim; colour off: no escape codes at all', () => {
    const on = renderChart(penny(), { text: 'Which name?' }, { width: 80, colors: coloured }).join('\n');
    expect(on).toContain(`\u001b[32m${'█'.repeat(32)}\u001b[39m`);
    expect(on).toContain(`\u001b[36m${'█'.repeat(8)}\u001b[39m`);
    expect(on).toContain('\u001b[2m(49–94%)\u001b[22m');
    const off = renderChart(penny(), { text: 'Which name?' }, { width: 80, colors: plain }).join('\n');
    expect(off).not.toContain('\u001b[');
  });

  it('a live result says so, with the answers so far and no confidence before there is one', () => {
    const live = penny({ status: 'in_progress', nAccepted: 3, summary: { winner: null, margin: null, confidence: null, note: 'Too few answers to tell yet.', suggestedFollowUp: null } });
    expect(statusLine(live)).toBe('In progress · 3 of 10 answers · 120 credits spent');
    expect(statusLine(penny({ status: 'cancelled', refundCredits: 96, creditsSpent: 24 }))).toBe('Cancelled · 10 of 10 answers · confidence medium · 24 credits spent · 96 refunded');
  });

  it('ranking shows average ranks; pairwise the strengths; scale the mean', () => {
    const ranking = renderChart(
      penny({ distribution: [{ option: 'A', count: 6, share: 0.6, averageRank: 1.4, rank: 1 }, { option: 'B', count: 4, share: 0.4, averageRank: 1.6, rank: 2 }] }),
      null,
      { width: 80, colors: plain },
    );
    expect(ranking[0]).toMatch(/A .* 60% {2}6 {2}avg rank 1\.4$/);
    expect(ranking).toContain('  count = ranked first');
    const pairwise = renderChart(penny({ distribution: [{ option: 'A', count: 7, share: 0.7, appearances: 10, strength: 0.62 }, { option: 'B', count: 3, share: 0.3, appearances: 10, strength: 0.38 }] }), null, { width: 80, colors: plain });
    expect(pairwise[0]).toMatch(/strength 0\.62$/);
    const scale = renderChart(penny({ mean: 3.8, distribution: [1, 2, 3, 4, 5].map((v) => ({ option: String(v), count: v, share: v / 15 })) }), null, { width: 80, colors: plain });
    expect(scale).toContain('  Mean 3.80');
  });

  it('free text has no bars: the count and where to read the answers', () => {
    const lines = renderChart(penny({ distribution: [], summary: { winner: null, margin: null, confidence: null, note: '10 written answers.', suggestedFollowUp: null } }), { text: 'What is missing?' }, { width: 80, colors: plain });
    expect(lines).toEqual(['What is missing?', '10 written answers.', 'Complete · 10 of 10 answers · 120 credits spent', 'Answered by 10 verified heads of tier 1 or above.', 'See every answer: headcount answers q_1']);
  });

  it('a click test lists its hotspots', () => {
    const lines = renderChart(
      penny({ distribution: [], clicks: { taps: 12, hotspots: [{ x: 0.1, y: 0.2, w: 0.2, h: 0.1, count: 9, share: 0.75 }] }, summary: { winner: null, margin: null, confidence: null, note: '12 taps.', suggestedFollowUp: null } }),
      null,
      { width: 80, colors: plain },
    );
    expect(lines.slice(0, 2)).toEqual(['  12 taps', '  Hotspot 1: 75% of taps (9) around x 20%, y 25%']);
  });
});
