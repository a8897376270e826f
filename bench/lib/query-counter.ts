import type pg from 'pg';

/**
 * Counts SQL statements sent through a pg pool, without touching the app: every client the pool
 * opens gets its `query` wrapped. Install it right after openDatabase, before anything connects.
 * Kysely sends each statement (and BEGIN/COMMIT of a transaction) as one client.query call, so the
 * count is database round trips, the number that matters on the embedded database, where every
 * statement runs on the same thread as the HTTP server.
 */
export function countQueries(pool: pg.Pool): () => number {
  let count = 0;
  pool.on('connect', (client) => {
    const original = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      count += 1;
      return original(...args);
    };
  });
  return () => count;
}

/**
 * Counts statements on every `pg` client of the process by application_name, the other pools
 * included (the job queue keeps its own pool, the notifier its LISTEN connection), by wrapping
 * pg.Client.prototype.query once. Install before anything connects. pg-boss loads the same `pg`
 * (CommonJS) that the ESM import wraps, so its statements are counted too.
 */
export function countQueriesByApplication(pgModule: typeof pg): () => Record<string, number> {
  const counts: Record<string, number> = {};
  const proto = pgModule.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: { connectionParameters?: { application_name?: string } }, ...args: unknown[]) {
    const name = this.connectionParameters?.application_name ?? '';
    counts[name] = (counts[name] ?? 0) + 1;
    return original.apply(this, args);
  };
  return () => ({ ...counts });
}
