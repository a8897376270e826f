import type { Rng } from '../../lib/random.ts';

/**
 * When a failed delivery is tried again (docs/webhooks.md "Retries"): after the first attempt
 * fails, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 24 h and 24 h later (Svix's schedule,
 * stretched by two daily attempts to about three days), each ±10% at random so deliveries that
 * failed together do not all come back at the same instant. Ten attempts in all, then the
 * delivery has failed.
 */
export const RETRY_DELAYS_MS: readonly number[] = [5, 300, 1800, 7200, 18_000, 36_000, 36_000, 86_400, 86_400].map((s) => s * 1000);

/** An endpoint failing without a break for this long is turned off (the schedule's length). */
export const DISABLE_AFTER_MS = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);

/** A receiver's Retry-After is honoured (429, 503) up to this. */
const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;

/**
 * The delay before the next attempt after `made` failed attempts of the current schedule, or null
 * when the schedule has run out. A Retry-After the receiver sent moves the attempt later, never
 * earlier.
 */
export function nextDelayMs(made: number, rng: Rng, retryAfterMs: number | null = null): number | null {
  const base = RETRY_DELAYS_MS[made - 1];
  if (base === undefined) return null;
  const jittered = Math.round(base * (0.9 + 0.2 * rng()));
  return retryAfterMs === null ? jittered : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/** Retry-After as milliseconds: seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now: Date): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
