import { notFound } from '../../lib/errors.ts';
import type { Notifier } from '../../lib/notifier.ts';
import type { Actor } from '../../lib/actor.ts';
import type { LifecycleService } from './lifecycle.service.ts';
import type { QuestionsRepository } from './questions.repository.ts';
import type { Result } from '../results/results.schemas.ts';
import type { ResultService } from '../results/results.service.ts';
import { createParking, type Snapshot, type Verdict } from './wait-parking.ts';

/**
 * GET /v2/questions/{id}/wait: long-polling until the question closes or reaches `minAnswers`.
 * Calls park on their question (wait-parking.ts: one read per change for all its waiters, one
 * re-check statement every 5 s for all questions). What they get is shared too: the waiters of a
 * question that wake together get one Result, built once, and the waiters that reach one
 * minAnswers together complete the question once.
 */
export const DEFAULT_WAIT_SECONDS = 25;

/** A question in one of these has its final result. */
const CLOSED = new Set(['complete', 'underfilled', 'cancelled', 'refused']);

export function createWaitService(deps: {
  questions: Pick<QuestionsRepository, 'progress' | 'progressMany' | 'progressOf'>;
  notifier: Pick<Notifier, 'subscribe'>;
  lifecycle: Pick<LifecycleService, 'closeEarly'>;
  results: Pick<ResultService, 'forAccount'>;
  /** The parked waits' safety re-check (default SAFETY_RECHECK_MS). */
  recheckMs?: number;
}) {
  const { questions, lifecycle, results } = deps;
  const parking = createParking(deps);
  /** Results being built, shared by every waiter of a question that wakes at the same moment. */
  const building = new Map<string, Promise<Result>>();
  /** Early closes in flight, shared by the waiters of a question that reach one minAnswers together. */
  const closing = new Map<string, Promise<boolean>>();

  /** One in-flight promise per key. */
  function shared<T>(map: Map<string, Promise<T>>, key: string, start: () => Promise<T>): Promise<T> {
    let pending = map.get(key);
    if (!pending) {
      pending = start();
      map.set(key, pending);
      void pending.finally(() => map.delete(key)).catch(() => undefined);
    }
    return pending;
  }

  // Keyed with `done`: a waiter that saw the question close only shares a build started after it
  // did, never an older one that could still say in_progress.
  const resultFor = (accountId: string, id: string, done: boolean): Promise<Result> => shared(building, `${id}:${done}`, () => results.forAccount(accountId, id));

  /** Done when closed, or when minAnswers is reached (which completes a live question early). */
  function settled(accountId: string, id: string, minAnswers: number | null, snapshot: Snapshot): Verdict {
    if (CLOSED.has(snapshot.status)) return true;
    if (minAnswers === null || snapshot.answered < minAnswers) return false;
    if (snapshot.status !== 'live') return true;
    return shared(closing, `${id}:${minAnswers}`, () => lifecycle.closeEarly(accountId, id, minAnswers)).then(() => true);
  }

  async function snapshotOf(actor: Actor, id: string): Promise<Snapshot> {
    const snapshot = await questions.progressOf(actor.accountId, id);
    if (!snapshot) throw notFound('No such question on this account.');
    return snapshot;
  }

  return {
    /** `signal`: aborted when the caller is gone (its connection closed), which ends the parking at once. */
    async wait(actor: Actor, id: string, seconds = DEFAULT_WAIT_SECONDS, minAnswers: number | null = null, signal?: AbortSignal): Promise<{ result: Result; done: boolean }> {
      const done = await parking.until(id, () => snapshotOf(actor, id), seconds, (snapshot) => settled(actor.accountId, id, minAnswers, snapshot), signal);
      return { result: await resultFor(actor.accountId, id, done), done };
    },

    /**
     * Until the question has more than `answeredBefore` answers or closes, at most `seconds`
     * (MCP's wait_for_result reports each step as progress). Unlike `wait` with minAnswers it never
     * closes the question. `answered` is the count it saw, to pass back as `answeredBefore`.
     */
    async waitForProgress(actor: Actor, id: string, seconds: number, answeredBefore: number): Promise<{ result: Result; done: boolean; answered: number }> {
      await parking.until(id, () => snapshotOf(actor, id), seconds, (snapshot) => CLOSED.has(snapshot.status) || snapshot.answered > answeredBefore);
      // Read after the wake, and built for this call (not shared with a build that may have started
      // before the answer that woke it): the count and the result are at least as new as the wake.
      const now = await snapshotOf(actor, id);
      return { result: await results.forAccount(actor.accountId, id), done: CLOSED.has(now.status), answered: now.answered };
    },

    /**
     * On stop (the HTTP server's preClose): every parked call answers at once with its current
     * result and done false, which tells a client to call again (and reach a node that is not
     * stopping), and later calls answer the same way without parking. Without this a stop waits
     * up to 25 s for the waits to time out, past the shutdown grace. Returns how many were parked.
     */
    release: parking.release,

    /** How many requests are waiting now (for the benchmark and operators). */
    waiting: parking.waiting,
  };
}
export type WaitService = ReturnType<typeof createWaitService>;
