/**
 * When a failed attempt is tried again, and after how long. Pure functions, so the rules are
 * unit-tested without a network (retry.test.ts).
 *
 * What may be retried depends on whether doing the request twice could do something twice:
 * - Safe to repeat: GET, HEAD, OPTIONS, PUT and DELETE (the same state however often they run),
 *   and any request carrying an Idempotency-Key (the service answers a repeat with the stored
 *   response and charges once: docs/asking.md). Asks and added heads always carry one.
 * - Not safe to repeat: other POSTs and PATCHes (cancel, dispute, share, create a key or a
 *   webhook, …). Once such a request may have reached the service, a second copy could act again
 *   (or answer 409 for what the first did), so it is retried only when it provably never arrived.
 *
 * Status codes (docs/api.md "Errors"):
 * - 429 rate_limited and 503 service_unavailable say nothing was done ("nothing changed; retry
 *   after Retry-After seconds"), and 408 request_timeout means the request never fully arrived:
 *   retried for every request.
 * - 502 and 504 come from a proxy in front of the service; the service may have handled the
 *   request before the proxy gave up: retried only when safe to repeat.
 * - 409 idempotency_in_progress: the same key's first request (say, an attempt we timed out) is
 *   still running; the retry then gets its stored response.
 * - Anything else (400, 402, 404, 409 conflict, 500, …) is an answer, not a hiccup: not retried.
 *
 * Network failures: a timed-out or broken attempt is retried when safe to repeat. A request
 * that is not is retried only when the connection was never made (refused, name not resolved,
 * host unreachable, connect timeout): then the service cannot have seen it. Runtimes that hide
 * the cause (browsers say only "Failed to fetch") are taken as "may have arrived".
 */

export const RETRYABLE_ALWAYS = new Set([408, 429, 503]);
export const RETRYABLE_WHEN_SAFE = new Set([502, 504]);

/** Retry-After longer than this is not slept through inside a call: the error is thrown with `retryAfter` for the caller to plan. */
export const MAX_RETRY_AFTER_SECONDS = 60;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** True when sending the request twice does no more than sending it once. */
export function safeToRepeat(method: string, hasIdempotencyKey: boolean): boolean {
  return hasIdempotencyKey || SAFE_METHODS.has(method.toUpperCase());
}

/** Should an answered attempt with this status (and error code) be tried again? */
export function retryableStatus(status: number, code: string | undefined, safe: boolean): boolean {
  if (RETRYABLE_ALWAYS.has(status)) return true;
  if (RETRYABLE_WHEN_SAFE.has(status)) return safe;
  return status === 409 && code === 'idempotency_in_progress';
}

/**
 * Error codes of a connection that was never made, as Node (undici, net, dns) and Deno report
 * them on the error or its `cause`. A request that failed with one of these never left this machine.
 */
const NEVER_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ConnectionRefused',
]);

/** True when the failure provably happened before a connection to the service existed. */
export function neverReachedServer(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === null || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const { code, name, cause, errors } = current as { code?: unknown; name?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && NEVER_CONNECTED.has(code)) return true;
    // Deno: `TypeError: error sending request … ConnectionRefused` carries the kind as a cause's name.
    if (typeof name === 'string' && NEVER_CONNECTED.has(name)) return true;
    queue.push(cause);
    // Node tries every address of a name (happy eyeballs) and reports an AggregateError of them.
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return false;
}

/**
 * Retry-After as seconds from `now`: delta-seconds ("3") or an HTTP date; null when absent or
 * unreadable. A date in the past is 0.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  // Anything else numeric ("-1", "1.5") is not a valid Retry-After, though Date.parse would take it for a year.
  if (/^[-+.\d]+$/.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * How long to sleep before retry number `retry` (0 for the first): the service's Retry-After when
 * it gave one (plus up to 10% so many clients told the same second do not return together),
 * else exponential backoff from 0.5 s doubling to at most 8 s, with "equal jitter" (a random point
 * in the upper half) so clients that failed together spread out.
 */
export function retryDelayMs(retry: number, retryAfterSeconds: number | null, random: () => number = Math.random): number {
  if (retryAfterSeconds !== null) return Math.round(retryAfterSeconds * 1000 * (1 + 0.1 * random()));
  const ceiling = Math.min(8000, 500 * 2 ** retry);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
