import { performance } from 'node:perf_hooks';
import type { Result } from '../modules/results/results.schemas.ts';
import type { ToolContext } from './mcp-deps.ts';

/**
 * wait_for_result's loop. An MCP call must come back within the client's timeout (60 s is common),
 * so it waits at most `timeoutSeconds` (≤ 55) on the wait service (the REST long-poll's own
 * service), which wakes on every change of the question: each new answer is reported as MCP
 * progress when it arrives (progress only ever grows, as the protocol requires), so a client
 * shows "7 of 20 answers" while it waits.
 *
 * Time here is elapsed real time (performance.now), not the injected clock: it measures how long
 * this request has been held, like the wait service's own timers.
 */
export const MAX_WAIT_SECONDS = 55;
export const DEFAULT_TOOL_WAIT_SECONDS = 50;

export type Progress = (answered: number, wanted: number) => Promise<void>;

export interface Waited {
  result: Result;
  done: boolean;
}

export async function waitWithProgress(ctx: ToolContext, questionId: string, timeoutSeconds: number, progress: Progress, signal: AbortSignal): Promise<Waited> {
  const { actor, deps } = ctx;
  const deadline = performance.now() + timeoutSeconds * 1000;
  let reported = -1;
  const report = async (result: Result) => {
    if (result.nAccepted <= reported) return;
    reported = result.nAccepted;
    await progress(result.nAccepted, result.nRequested);
  };

  // The answers so far, at once (this also answers 404 for another account's question), then
  // each new answer as it arrives: the wait service wakes on every change of the question.
  let seen = -1;
  for (;;) {
    const left = (deadline - performance.now()) / 1000;
    const waited = await deps.waits.waitForProgress(actor, questionId, Math.max(0, left), seen);
    await report(waited.result);
    if (waited.done) return { result: waited.result, done: true };
    if (signal.aborted || deadline - performance.now() <= 50) return { result: waited.result, done: false };
    // Back early with nothing new: the wait service was released (the process is stopping), so
    // answer now and let the client call again elsewhere.
    if (waited.answered === seen) return { result: waited.result, done: false };
    seen = waited.answered;
  }
}
