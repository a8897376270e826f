import { performance } from 'node:perf_hooks';
import type { Result } from '../modules/results/results.schemas.ts';
import type { ToolContext } from './mcp-deps.ts';

/**
 * wait_for_result's loop. An MCP call must come back within the client's timeout (60 s is common),
 * so it waits at most `timeoutSeconds` (≤ 55), in slices on the wait service (the REST long-poll's
 * own service, which wakes when the question closes). After each slice the answers so far are
 * reported as MCP progress (progress only ever grows, as the protocol requires), so a client
 * shows "7 of 20 answers" while it waits.
 *
 * Time here is elapsed real time (performance.now), not the injected clock: it measures how long
 * this request has been held, like the wait service's own timers.
 */
export const WAIT_SLICE_SECONDS = 5;
export const MAX_WAIT_SECONDS = 55;
export const DEFAULT_TOOL_WAIT_SECONDS = 50;

export type Progress = (answered: number, wanted: number) => Promise<void>;

export interface Waited {
  result: Result;
  done: boolean;
}

export async function waitWithProgress(ctx: ToolContext, questionId: string, timeoutSeconds: number, progress: Progress, signal: AbortSignal): Promise<Waited> {
  const { actor, deps } = ctx;
  const sliceMs = WAIT_SLICE_SECONDS * 1000;
  const started = performance.now();
  let reported = -1;
  const report = async (result: Result) => {
    if (result.nAccepted <= reported) return;
    reported = result.nAccepted;
    await progress(result.nAccepted, result.nRequested);
  };

  // The answers so far, at once (this also answers 404 for another account's question).
  let result = await deps.results.forAccount(actor.accountId, questionId);
  await report(result);
  for (;;) {
    const left = timeoutSeconds * 1000 - (performance.now() - started);
    const sliceStart = performance.now();
    const slice = Math.max(0, Math.min(sliceMs, left));
    const waited = await deps.waits.wait(actor, questionId, slice / 1000, null);
    result = waited.result;
    await report(result);
    if (waited.done) return { result, done: true };
    if (signal.aborted || left - slice <= 50) return { result, done: false };
    // A slice that ends early without the question being done means the wait service was
    // released: the process is stopping, so answer now and let the client call again elsewhere.
    if (performance.now() - sliceStart < slice - 250) return { result, done: false };
  }
}
