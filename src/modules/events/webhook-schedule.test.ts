import { describe, expect, it } from 'vitest';
import { DISABLE_AFTER_MS, nextDelayMs, retryAfterMs, RETRY_DELAYS_MS } from './webhook-schedule.ts';

describe('webhook retry schedule', () => {
  it('follows the documented delays within ±10%, then stops after ten attempts', () => {
    const seconds = [5, 300, 1800, 7200, 18_000, 36_000, 36_000, 86_400, 86_400];
    seconds.forEach((s, i) => {
      expect(nextDelayMs(i + 1, () => 0)).toBe(Math.round(s * 1000 * 0.9));
      expect(nextDelayMs(i + 1, () => 1)).toBe(Math.round(s * 1000 * 1.1));
    });
    expect(nextDelayMs(10, () => 0.5)).toBeNull();
    expect(RETRY_DELAYS_MS).toHaveLength(9);
    // About three days from the first failure to the last attempt.
    expect(DISABLE_AFTER_MS / 3_600_000).toBeCloseTo(75.6, 1);
  });

  it('honours Retry-After when it asks for later, up to a day', () => {
    expect(nextDelayMs(1, () => 0.5, 60_000)).toBe(60_000);
    expect(nextDelayMs(3, () => 0.5, 60_000)).toBe(1_800_000);
    expect(nextDelayMs(1, () => 0.5, 7 * 86_400_000)).toBe(86_400_000);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = new Date('2026-11-24T12:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Tue, 24 Nov 2026 12:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });
});
