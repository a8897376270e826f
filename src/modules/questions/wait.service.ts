import { notFound } from '../../lib/errors.ts';
import { EVERY_QUESTION, type Notifier } from '../../lib/notifier.ts';
import type { Actor } from '../../lib/actor.ts';
import type { LifecycleService } from './lifecycle.service.ts';
import type { QuestionsRepository } from './questions.repository.ts';
import type { Result } from '../results/results.schemas.ts';
import type { ResultService } from '../results/results.service.ts';

/**
 * GET /v2/questions/{id}/wait: long-polling until the question closes or reaches `minAnswers`.
 * A waiter holds no database connection: it sleeps on a timer and the notifier. When a question
 * changes, its state is read once and shared by all its waiters, so thousands of waiters on one
 * question cost one query per change, not thousands.
 */
export const DEFAULT_WAIT_SECONDS = 25;
const SAFETY_RECHECK_MS = 5_000;

/** A question in one of these has its final result. */
const CLOSED = new Set(['complete', 'underfilled', 'cancelled', 'refused']);

interface Waiter {
  accountId: string;
  wake: () => void;
  /** Answers now with done false (the service is stopping). */
  release: () => void;
}

interface Snapshot {
  status: string;
  answered: number;
}

export function createWaitService(deps: { questions: Pick<QuestionsRepository, 'progress' | 'progressOf'>; notifier: Notifier; lifecycle: LifecycleService; results: ResultService }) {
  const { questions, notifier, lifecycle, results } = deps;
  const waiters = new Map<string, Set<Waiter>>();
  const reads = new Map<string, Promise<Snapshot | undefined>>();
  /** Results being built, shared by every waiter of a question that wakes at the same moment. */
  const building = new Map<string, Promise<Result>>();
  /** One safety re-check per question with waiters, not one per waiter. */
  const rechecks = new Map<string, NodeJS.Timeout>();
  /** Set once the process stops: no call parks any more (see release). */
  let releasing = false;

  // Keyed with `done`: a waiter that saw the question close only shares a build started after it
  // did, never an older one that could still say in_progress.
  const resultFor = (accountId: string, id: string, done: boolean): Promise<Result> => {
    const key = `${id}:${done}`;
    let pending = building.get(key);
    if (!pending) {
      pending = results.forAccount(accountId, id);
      building.set(key, pending);
      void pending.finally(() => building.delete(key)).catch(() => undefined);
    }
    return pending;
  };

  const read = (id: string) => {
    let pending = reads.get(id);
    if (!pending) {
      pending = questions.progress(id);
      reads.set(id, pending);
      void pending.finally(() => reads.delete(id));
    }
    return pending;
  };

  notifier.subscribe((id) => {
    // EVERY_QUESTION: changes may have been missed, so every waiter checks its question.
    const sets = id === EVERY_QUESTION ? [...waiters.values()] : [waiters.get(id) ?? []];
    for (const set of sets) for (const waiter of set) waiter.wake();
  });

  /** Done when closed, or when minAnswers is reached (which completes a live question early). */
  async function settled(accountId: string, id: string, minAnswers: number | null, snapshot: Snapshot): Promise<boolean> {
    if (CLOSED.has(snapshot.status)) return true;
    if (minAnswers !== null && snapshot.answered >= minAnswers) {
      if (snapshot.status === 'live') await lifecycle.closeEarly(accountId, id, minAnswers);
      return true;
    }
    return false;
  }

  /**
   * Parks a request until `ready` holds for the question (checked on each of its changes, and by
   * the safety re-check), `seconds` pass, or the service stops; true when it became ready.
   */
  function hold(accountId: string, id: string, seconds: number, ready: (snapshot: Snapshot) => Promise<boolean>): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      let checking = false;
      const waiter: Waiter = {
        accountId,
        wake: () => {
          if (checking) return;
          checking = true;
          read(id)
            .then(async (snapshot) => (snapshot ? ready(snapshot) : false))
            .then((ok) => (ok ? finish(true) : undefined))
            .catch(() => undefined)
            .finally(() => (checking = false));
        },
        release: () => finish(false),
      };
      const set = waiters.get(id) ?? new Set<Waiter>();
      set.add(waiter);
      waiters.set(id, set);
      if (!rechecks.has(id)) {
        const timer = setInterval(() => {
          for (const w of waiters.get(id) ?? []) w.wake();
        }, SAFETY_RECHECK_MS);
        timer.unref();
        rechecks.set(id, timer);
      }
      const timeout = setTimeout(() => finish(false), seconds * 1000);
      function finish(value: boolean) {
        clearTimeout(timeout);
        set.delete(waiter);
        if (set.size === 0) {
          waiters.delete(id);
          clearInterval(rechecks.get(id));
          rechecks.delete(id);
        }
        resolve(value);
      }
    });
  }

  async function snapshotOf(actor: Actor, id: string): Promise<Snapshot> {
    const snapshot = await questions.progressOf(actor.accountId, id);
    if (!snapshot) throw notFound('No such question on this account.');
    return snapshot;
  }

  return {
    async wait(actor: Actor, id: string, seconds = DEFAULT_WAIT_SECONDS, minAnswers: number | null = null): Promise<{ result: Result; done: boolean }> {
      const isSettled = (snapshot: Snapshot) => settled(actor.accountId, id, minAnswers, snapshot);
      let done = await isSettled(await snapshotOf(actor, id));
      if (!done && !releasing) done = await hold(actor.accountId, id, seconds, isSettled);
      return { result: await resultFor(actor.accountId, id, done), done };
    },

    /**
     * Until the question has more than `answeredBefore` answers or closes, at most `seconds`
     * (MCP's wait_for_result reports each step as progress). Unlike `wait` with minAnswers it never
     * closes the question. `answered` is the count it saw, to pass back as `answeredBefore`.
     */
    async waitForProgress(actor: Actor, id: string, seconds: number, answeredBefore: number): Promise<{ result: Result; done: boolean; answered: number }> {
      const moved = async (snapshot: Snapshot) => CLOSED.has(snapshot.status) || snapshot.answered > answeredBefore;
      if (!(await moved(await snapshotOf(actor, id))) && !releasing) await hold(actor.accountId, id, seconds, moved);
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
    release(): number {
      releasing = true;
      let released = 0;
      for (const set of [...waiters.values()]) {
        for (const waiter of [...set]) {
          waiter.release();
          released += 1;
        }
      }
      return released;
    },

    /** How many requests are waiting now (for the benchmark and operators). */
    waiting(): number {
      let count = 0;
      for (const set of waiters.values()) count += set.size;
      return count;
    },
  };
}
export type WaitService = ReturnType<typeof createWaitService>;
