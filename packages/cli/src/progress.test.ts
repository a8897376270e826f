import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { advanceProgress, estimateRemaining, etaText, formatDuration, progressLine, progressText, ProgressView, startProgress } from './progress.ts';

const plain = pc.createColors(false);
const T0 = Date.parse('2026-11-24T10:00:00Z');
const sec = (s: number) => T0 + s * 1000;

describe('time left while waiting', () => {
  it("the service's estimate first: etaMinutes counted from when the question went live", () => {
    const state = startProgress(0, 50, sec(0), { etaMinutes: 4, liveAt: new Date(sec(-60)).toISOString() });
    expect(estimateRemaining(state, sec(0))).toEqual({ seconds: 180, source: 'service' });
    expect(progressText(state, sec(0))).toBe('0 of 50 answers (0%), about 3 min left');
  });

  it('never more than the whole estimate, even when the service clock is ahead of ours', () => {
    const state = startProgress(0, 50, sec(0), { etaMinutes: 2, liveAt: new Date(sec(3600)).toISOString() });
    expect(estimateRemaining(state, sec(0))).toEqual({ seconds: 120, source: 'service' });
  });

  it("past the service's estimate, the rate answers have been arriving at", () => {
    let state = startProgress(10, 50, sec(0), { etaMinutes: 1, liveAt: new Date(sec(-120)).toISOString() });
    state = advanceProgress(state, 20, 50, sec(20)); // 10 answers in 20 s: 0.5 a second, 30 to go
    expect(estimateRemaining(state, sec(20))).toEqual({ seconds: 60, source: 'rate' });
    expect(estimateRemaining(state, sec(30))).toEqual({ seconds: 50, source: 'rate' });
    expect(etaText(state, sec(20))).toBe('about 1 min left');
  });

  it('no estimate and no answers yet: it says it is waiting for them', () => {
    const state = startProgress(0, 10, sec(0));
    expect(estimateRemaining(state, sec(5))).toEqual({ seconds: null, source: null });
    expect(progressText(state, sec(5))).toBe('0 of 10 answers (0%), waiting for the first answers');
  });

  it('durations read as people say them', () => {
    expect(formatDuration(3)).toBe('about 5 s');
    expect(formatDuration(42)).toBe('about 40 s');
    expect(formatDuration(200)).toBe('about 3 min');
    expect(formatDuration(4000)).toBe('about 1 h 7 min');
    expect(formatDuration(7200)).toBe('about 2 h');
  });
});

describe('the progress line', () => {
  it('a bar of answers so far out of n, the counts, the percentage and the time left', () => {
    const state = startProgress(12, 50, sec(0), { etaMinutes: 3, liveAt: new Date(sec(0)).toISOString() });
    const line = progressLine(state, sec(0), { width: 80, colors: plain });
    const match = /^(█+)(░+) 12\/50 answers {3}24% {2}about 3 min left$/.exec(line);
    expect(match, line).not.toBeNull();
    const [filled, empty] = [match![1]!.length, match![2]!.length];
    expect(Math.abs(filled - 0.24 * (filled + empty))).toBeLessThanOrEqual(1);
    expect([...line].length).toBeLessThanOrEqual(80);
  });

  it('full at n, and "done"', () => {
    const state = advanceProgress(startProgress(9, 10, sec(0)), 10, 10, sec(4));
    expect(progressLine(state, sec(4), { width: 70, colors: plain })).toMatch(/^█+ 10\/10 answers {2}100% {2}done$/);
  });

  it('plain lines (not a terminal): one each time the count changes, none for the clock alone', () => {
    const written: string[] = [];
    let now = sec(0);
    const view = new ProgressView({ write: (chunk) => (written.push(String(chunk)), true), isTTY: false }, { live: false, colors: plain, now: () => now, width: () => 80 });
    view.update(0, 10, { etaMinutes: 2, liveAt: new Date(sec(0)).toISOString() });
    now = sec(10);
    view.update(0, 10);
    view.update(4, 10);
    now = sec(20);
    view.update(4, 10);
    view.update(10, 10);
    view.stop();
    expect(written).toEqual(['0 of 10 answers (0%), about 2 min left\n', '4 of 10 answers (40%), about 2 min left\n', '10 of 10 answers (100%), done\n']);
  });

  it('on a terminal, the bar is drawn in place (carriage return, no new lines) and left on its line at the end', () => {
    const written: string[] = [];
    const stream = { write: (chunk: string | Uint8Array) => (written.push(String(chunk)), true), isTTY: true, columns: 80, cursorTo: (x: number) => (written.push(`<col ${x}>`), true), clearLine: () => true, moveCursor: () => true };
    const view = new ProgressView(stream, { live: true, colors: plain, now: () => sec(0), width: () => 80 });
    view.update(2, 10);
    view.update(5, 10);
    view.stop();
    const drawn = written.join('');
    expect(drawn).toContain('2/10 answers');
    expect(drawn).toContain('5/10 answers');
    expect(drawn.split('\n').length).toBeLessThanOrEqual(2);
  });
});
