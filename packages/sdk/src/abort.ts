/**
 * Timers and signals that never outlive their call: every setTimeout is cleared and every
 * 'abort' listener removed when the thing it guards ends, so a finished call leaves nothing
 * pending (a Node process exits as soon as its work is done, and a long-lived signal does not
 * collect listeners). AbortSignal.any and AbortSignal.timeout are not used: Node 20.0 lacks
 * the first, and the second's timer cannot be cleared.
 */

/** The reason to reject with when `signal` aborted (the signal's own reason, as fetch does). */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts; clears its timer either way. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Marks an abort made by `deadline` (rather than by the caller's signal). */
export class DeadlineReached extends Error {
  override readonly name = 'DeadlineReached';
}

/**
 * A signal that aborts when `parent` aborts or after `ms` (with a DeadlineReached reason),
 * and `release()` to clear the timer and the listener once the guarded work is over.
 */
export function deadline(ms: number, parent?: AbortSignal): { signal: AbortSignal; expired: () => boolean; release: () => void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort(abortReason(parent!));
  if (parent?.aborted) onAbort();
  else parent?.addEventListener('abort', onAbort, { once: true });
  let fired = false;
  // setTimeout takes at most 2^31 - 1 ms (24.8 days) and fires at once beyond it: longer is "no deadline".
  const timer = ms <= 2_147_483_647
    ? setTimeout(() => {
        fired = true;
        controller.abort(new DeadlineReached(`no answer within ${ms} ms`));
      }, Math.max(0, ms))
    : undefined;
  return {
    signal: controller.signal,
    expired: () => fired,
    release: () => {
      if (timer !== undefined) clearTimeout(timer);
      parent?.removeEventListener('abort', onAbort);
    },
  };
}
