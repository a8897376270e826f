/**
 * hc.waitForResult: call GET /v2/questions/{id}/wait again and again until the service says
 * `done` (the question closed: complete, underfilled, cancelled, refused; or reached
 * `minAnswers`), reporting each snapshot on the way. "Done" is the service's to say
 * (docs/lifecycle.md): the loop does not guess from statuses, so a question that is scheduled,
 * or a follow-up waiting for its parent, is simply waited for.
 *
 * Each wait is held by the service for up to `seconds` and answers at once when the question
 * closes, so the result arrives as soon as it exists, with one request per `seconds` meanwhile.
 */
import { deadline } from './abort.ts';
import { HeadcountTimeoutError } from './errors.ts';
import type { Questions } from './resources/questions.ts';
import type { Schemas } from './types.ts';

/** What onProgress is told after each wait call. */
export interface WaitProgress {
  questionId: string;
  /** The result's status: `in_progress` until the question closes, then complete, underfilled or cancelled. */
  status: Schemas['Result']['status'];
  /** Answers accepted so far. */
  answered: number;
  /** Answers asked for. */
  n: number;
  /** True on the last snapshot: `result` is final. */
  done: boolean;
  /** The result so far (partial while live). */
  result: Schemas['Result'];
}

export interface WaitForResultOptions {
  /** Called with each snapshot (after every wait call, the last one with `done: true`). An error it throws stops the wait. */
  onProgress?: ((progress: WaitProgress) => void) | undefined;
  signal?: AbortSignal | undefined;
  /** Give up after this long with HeadcountTimeoutError (its `lastResult` is the last snapshot's result). Default: no limit. */
  timeoutMs?: number | undefined;
  /** How long each wait call is held, 1 to 25 (default 25): lower means more frequent onProgress snapshots, and more requests. */
  seconds?: number | undefined;
  /** Done as soon as this many heads have answered, completing the question early (refunding the rest): docs/lifecycle.md. */
  minAnswers?: number | undefined;
}

const MAX_WAIT_SECONDS = 25;

export async function waitForResult(questions: Questions, id: string, options: WaitForResultOptions = {}): Promise<Schemas['Result']> {
  const { onProgress, signal, timeoutMs = Infinity, minAnswers } = options;
  const seconds = Math.min(MAX_WAIT_SECONDS, Math.max(1, Math.round(options.seconds ?? MAX_WAIT_SECONDS)));
  const started = Date.now();
  // One deadline for the whole loop: it also aborts a wait call in flight when time runs out.
  const guard = deadline(timeoutMs, signal);
  let lastResult: Schemas['Result'] | undefined;
  try {
    for (;;) {
      const left = timeoutMs - (Date.now() - started);
      // Never hold a call past the deadline: the last one asks only for the seconds left.
      const callSeconds = Math.max(1, Math.min(seconds, Math.ceil(left / 1000)));
      const { result, done } = await questions.wait(id, minAnswers === undefined ? { seconds: callSeconds } : { seconds: callSeconds, minAnswers }, {
        signal: guard.signal,
      });
      lastResult = result;
      onProgress?.({ questionId: result.questionId, status: result.status, answered: result.nAccepted, n: result.nRequested, done, result });
      if (done) return result;
      if (guard.expired() || Date.now() - started >= timeoutMs) throw timedOut(id, timeoutMs, lastResult);
    }
  } catch (error) {
    if (guard.expired() && !signal?.aborted) throw timedOut(id, timeoutMs, lastResult, error);
    throw error;
  } finally {
    guard.release();
  }
}

function timedOut(id: string, timeoutMs: number, lastResult: Schemas['Result'] | undefined, cause?: unknown): HeadcountTimeoutError {
  const seen = lastResult ? ` (${lastResult.nAccepted} of ${lastResult.nRequested} answers so far)` : '';
  return new HeadcountTimeoutError(`waitForResult(${id}): not done within ${timeoutMs} ms${seen}`, {
    timeoutMs,
    operationId: 'waitForQuestion',
    ...(lastResult ? { lastResult } : {}),
    ...(cause !== undefined ? { cause } : {}),
  });
}
