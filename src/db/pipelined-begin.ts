import type pg from 'pg';

/**
 * A transaction's BEGIN goes out with its first statement, in one write and one round trip
 * (issue 15, docs/performance.md "Round trips"): Kysely sends BEGIN and waits for its answer
 * before the transaction's first statement, a round trip that carries nothing. Here BEGIN is
 * answered at once and written together with what follows it: the pool's clients run in
 * node-postgres's pipeline mode (they send a query without waiting for the one before to be
 * answered; answers still come in order), and the socket is corked from BEGIN to the end of the
 * current turn of the event loop, so BEGIN and the statements issued in that turn leave in one
 * write.
 *
 * BEGIN cannot fail on a working connection; on a broken one, the statement after it fails the
 * same way, and the transaction with it, so nothing is lost by not waiting for its answer.
 * Everything else keeps waiting for its answer: Kysely awaits each statement.
 *
 * Written by hand: Kysely has no hook between BEGIN and the first statement, and node-postgres's
 * pipeline mode sends each query in its own write.
 */
const BEGIN = /^\s*begin\s*$/i;

type QueryFn = (...args: unknown[]) => unknown;
type WithStream = { connection?: { stream?: { cork?(): void; uncork?(): void } } };

const STARTED: Pick<pg.QueryResult, 'command' | 'rowCount' | 'rows' | 'fields'> = { command: 'BEGIN', rowCount: null, rows: [], fields: [] };

/** For a pool made with `pipeline: true`. */
export function sendBeginWithFirstStatement(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const original = client.query.bind(client) as QueryFn;
    const stream = (client as unknown as WithStream).connection?.stream;
    (client as unknown as { query: QueryFn }).query = (...args: unknown[]) => {
      const [text, values] = args;
      if (args.length !== 2 || typeof text !== 'string' || !Array.isArray(values) || values.length > 0 || !BEGIN.test(text)) return original(...args);
      if (stream?.cork && stream.uncork) {
        stream.cork();
        setImmediate(() => stream.uncork!());
      }
      // Its failure is the next statement's (the same connection): nothing waits for this one.
      (original(text, values) as Promise<unknown>).catch(() => {});
      return Promise.resolve(STARTED);
    };
  });
}
