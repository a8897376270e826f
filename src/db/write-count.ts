import type pg from 'pg';

/**
 * Counts the statements this process's pool has finished that may have changed data: every
 * statement but a plain SELECT (INSERT, UPDATE, DELETE, a writable WITH, and COMMIT/ROLLBACK,
 * which is when a transaction's changes become visible), counted when its answer arrives. A
 * cache of what the database said may keep an answer only if this count did not move while it
 * was read, and only until it moves (results.service.ts `forAccount`): coarse (any write of this
 * process drops every kept answer) but exact for this process's own changes, whichever path made
 * them. Other processes' changes reach it through the notifier.
 *
 * Installed last, so it sees the statement as Kysely sent it (db/database.ts); a query given a
 * callback is counted when its callback is called.
 */
const READ_ONLY = /^\s*select\b/i;

type QueryFn = (...args: unknown[]) => unknown;

export function countWrites(pool: pg.Pool): () => number {
  let writes = 0;
  const counted = () => void (writes += 1);
  pool.on('connect', (client) => {
    const inner = client.query.bind(client) as QueryFn;
    (client as unknown as { query: QueryFn }).query = (...args: unknown[]) => {
      const first = args[0];
      const text = typeof first === 'string' ? first : (first as { text?: unknown } | null)?.text;
      if (typeof text === 'string' && READ_ONLY.test(text)) return inner(...args);
      const last = args[args.length - 1];
      if (typeof last === 'function') {
        args[args.length - 1] = (...results: unknown[]) => {
          counted();
          return (last as QueryFn)(...results);
        };
        return inner(...args);
      }
      const result = inner(...args);
      if (result && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then(counted, counted);
      else counted();
      return result;
    };
  });
  return () => writes;
}
