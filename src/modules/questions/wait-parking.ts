import { EVERY_QUESTION, type Notifier } from '../../lib/notifier.ts';
import type { QuestionsRepository } from './questions.repository.ts';

/**
 * Where waiting calls park (wait.service.ts): each on its question, offered every new state of
 * it until one is enough, its time runs out or the service stops. A parked call holds no database
 * connection, and the state is read once per change for all the question's waiters, so thousands
 * of waiters on one question cost one query per change, not thousands:
 * - a change (the notifier) starts one read of the question; a change that comes while that read
 *   is in flight starts one more after it (the read in flight may have missed it), never one each;
 * - a call notes the question's changes before its own first read, and reads again when it parks
 *   if any came in between (it was not parked yet to be offered them);
 * - the safety re-check (every 5 s by default, WAIT_RECHECK_SECONDS, for changes no notification
 *   told of: the admin CLI on the embedded database, a NOTIFY that failed) reads every question
 *   with waiters in one statement.
 * Without the first two, a close that came while a read was running, or while a call was parking,
 * was seen only at the next re-check, up to 5 s late.
 */
export const SAFETY_RECHECK_MS = 5_000;

export interface Snapshot {
  status: string;
  answered: number;
}

/** true: ready; false: not yet; a promise when deciding needs the database (closing early). */
export type Verdict = boolean | Promise<boolean>;

interface Waiter {
  ready(snapshot: Snapshot): Verdict;
  /** Ends the parking (once): true when ready, false on timeout or stop. */
  finish(ready: boolean): void;
  /** A verdict still being decided, and the newest snapshot offered meanwhile (decided after it). */
  deciding: boolean;
  next: Snapshot | null;
}

/** A question that calls are waiting on (or reading on their way to parking). */
interface Watched {
  id: string;
  /** Calls in progress on it, parked or not. */
  calls: number;
  waiters: Set<Waiter>;
  /** Changes announced while watched. */
  changes: number;
  /** One read at a time; `stale`: a change came during it, so read again when it ends. */
  reading: boolean;
  stale: boolean;
}

/** Offers a waiter a state of its question; one verdict at a time, the newest state offered meanwhile next. */
function offer(waiter: Waiter, snapshot: Snapshot): void {
  if (waiter.deciding) {
    waiter.next = snapshot;
    return;
  }
  let verdict: Verdict;
  try {
    verdict = waiter.ready(snapshot);
  } catch {
    return;
  }
  if (verdict === true) return waiter.finish(true);
  if (verdict === false) return;
  waiter.deciding = true;
  // A failure (closing early failed) leaves it parked, as a verdict of false does.
  void verdict
    .catch(() => false)
    .then((ok) => {
      waiter.deciding = false;
      if (ok) return waiter.finish(true);
      const next = waiter.next;
      waiter.next = null;
      if (next) offer(waiter, next);
    });
}

function offerAll(question: Watched, snapshot: Snapshot): void {
  for (const waiter of question.waiters) offer(waiter, snapshot);
}

export function createParking(deps: { questions: Pick<QuestionsRepository, 'progress' | 'progressMany'>; notifier: Pick<Notifier, 'subscribe'>; recheckMs?: number }) {
  const { questions } = deps;
  const watched = new Map<string, Watched>();
  let parked = 0;
  /** One safety re-check for every question with waiters, running while any wait. */
  let recheck: NodeJS.Timeout | null = null;
  /** Set once the process stops: no call parks any more (see release). */
  let releasing = false;

  /** Reads the question for its waiters: one read at a time, and one more if it changed meanwhile. */
  function refresh(question: Watched): void {
    if (question.reading) {
      question.stale = true;
      return;
    }
    question.reading = true;
    question.stale = false;
    questions
      .progress(question.id)
      .then((snapshot) => snapshot && offerAll(question, snapshot))
      // A failed read leaves the waiters parked: the next change or the re-check reads again.
      .catch(() => undefined)
      .finally(() => {
        question.reading = false;
        if (question.stale && question.waiters.size > 0) refresh(question);
      });
  }

  /** Every question with waiters, in one statement. */
  function recheckAll(): void {
    const ids: string[] = [];
    for (const question of watched.values()) if (question.waiters.size > 0) ids.push(question.id);
    if (ids.length === 0) return;
    questions.progressMany(ids).then(
      (rows) => {
        for (const row of rows) {
          const question = watched.get(row.id);
          if (question) offerAll(question, row);
        }
      },
      () => undefined,
    );
  }

  deps.notifier.subscribe((id) => {
    if (id === EVERY_QUESTION) {
      // Changes may have been missed (the LISTEN connection was lost): check every question.
      for (const question of watched.values()) question.changes += 1;
      recheckAll();
      return;
    }
    const question = watched.get(id);
    if (!question) return;
    question.changes += 1;
    if (question.waiters.size > 0) refresh(question);
  });

  /**
   * Parks a call on its question until `ready` holds for a state of it, `seconds` pass, or the
   * service stops; true when it became ready. `seen`: the question's changes when the call read it.
   */
  function park(question: Watched, seconds: number, ready: Waiter['ready'], seen: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        ready,
        deciding: false,
        next: null,
        finish(value) {
          if (!question.waiters.delete(waiter)) return;
          clearTimeout(timeout);
          signal?.removeEventListener('abort', gone);
          parked -= 1;
          if (parked === 0 && recheck) {
            clearInterval(recheck);
            recheck = null;
          }
          resolve(value);
        },
      };
      question.waiters.add(waiter);
      parked += 1;
      const timeout = setTimeout(() => waiter.finish(false), seconds * 1000);
      // The caller went away (its connection closed): nobody is left to answer, so leave now.
      const gone = () => waiter.finish(false);
      if (signal?.aborted) return gone();
      signal?.addEventListener('abort', gone, { once: true });
      if (!recheck) {
        recheck = setInterval(recheckAll, deps.recheckMs ?? SAFETY_RECHECK_MS);
        recheck.unref();
      }
      // It changed after this call read it: that change was offered to the waiters parked then.
      if (question.changes !== seen) refresh(question);
    });
  }

  return {
    /**
     * The call's own first read of question `id` (`read`, which checks who may see it), then, if
     * `ready` does not hold for it, parked until it does; true when it holds, false when `seconds`
     * ran out, the service is stopping or `signal` aborted (the client disconnected).
     */
    async until(id: string, read: () => Promise<Snapshot>, seconds: number, ready: Waiter['ready'], signal?: AbortSignal): Promise<boolean> {
      let question = watched.get(id);
      if (!question) {
        question = { id, calls: 0, waiters: new Set(), changes: 0, reading: false, stale: false };
        watched.set(id, question);
      }
      question.calls += 1;
      try {
        const seen = question.changes;
        if (await ready(await read())) return true;
        return releasing ? false : await park(question, seconds, ready, seen, signal);
      } finally {
        question.calls -= 1;
        if (question.calls === 0 && watched.get(id) === question) watched.delete(id);
      }
    },

    /** Answers every parked call (false) and parks none from now on; how many were parked. */
    release(): number {
      releasing = true;
      let released = 0;
      for (const question of [...watched.values()]) {
        for (const waiter of [...question.waiters]) {
          waiter.finish(false);
          released += 1;
        }
      }
      return released;
    },

    /** How many calls are parked now. */
    waiting: (): number => parked,
  };
}
