/**
 * Group commit: calls that arrive while a batch is being written wait, and go together in the
 * next batch (at most `maxBatch` of them), one batch at a time. A lone call is written at once, so
 * nothing waits when the service is idle; under load a batch is whatever arrived during the
 * previous batch's transaction (or in the same turn of the event loop), so the window adapts itself to the database's speed (a few ms on
 * PostgreSQL) instead of being a fixed timer every caller pays.
 *
 * `write` settles each item of a batch on its own (an item refused by a rule is answered alone,
 * while the others are written). When `write` throws, the whole batch failed (its transaction
 * rolled back, nothing was written); unless `failsAll` says the error would fail any batch (the
 * database is down), each item is then written alone, so one item that makes the statement fail
 * fails alone and the others still go in.
 *
 * Reads batch the same way (links.service.ts: the answers sent through links at one moment read
 * their questions in one statement), with `write` reading instead of writing.
 *
 * Written by hand: the npm batchers (dataloader, p-batch) batch reads by key and settle a batch
 * with one result list; none runs one batch at a time with this per-item fall-back.
 */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

interface Waiting<I, T> {
  item: I;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export interface GroupCommitOptions<I, T> {
  /** The most items in one batch. */
  maxBatch: number;
  /** Writes a batch in one transaction, settling each item; throws when the batch as a whole failed. */
  write(items: I[]): Promise<Array<Settled<T>>>;
  /** True for an error that would fail every batch (the database is unreachable): no retry one by one. */
  failsAll?(error: unknown): boolean;
}

export interface GroupCommit<I, T> {
  /** Queues `item` for the next batch; settles after that batch's transaction ends. */
  submit(item: I): Promise<T>;
}

export function createGroupCommit<I, T>(options: GroupCommitOptions<I, T>): GroupCommit<I, T> {
  const queue: Array<Waiting<I, T>> = [];
  let running = false;

  function settle(waiting: Waiting<I, T>, outcome: Settled<T> | undefined): void {
    if (!outcome) waiting.reject(new Error('group commit: the batch writer returned no outcome for an item'));
    else if (outcome.ok) waiting.resolve(outcome.value);
    else waiting.reject(outcome.error);
  }

  async function writeBatch(batch: Array<Waiting<I, T>>): Promise<void> {
    try {
      const outcomes = await options.write(batch.map((w) => w.item));
      batch.forEach((w, i) => settle(w, outcomes[i]));
      return;
    } catch (error) {
      if (batch.length === 1 || options.failsAll?.(error)) {
        for (const w of batch) w.reject(error);
        return;
      }
    }
    // The batch failed as a whole: each item alone, so only the one at fault fails.
    for (const w of batch) await writeBatch([w]);
  }

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) {
        await writeBatch(queue.splice(0, options.maxBatch));
        // Callers answered by that batch often call again at once: let this turn's calls join.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      running = false;
    }
  }

  return {
    submit(item: I): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (running) return;
        // Started on the next turn of the event loop, so the calls of this turn (requests read
        // from several sockets at once, a caller's Promise.all) go in the same first batch.
        running = true;
        setImmediate(() => void drain());
      });
    },
  };
}
