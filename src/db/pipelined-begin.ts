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
 *
 * The same wrapper lets a transaction's COMMIT leave with its last statement (one-round-trip.ts
 * `withCommit`, COMMIT_WITH_LAST_STATEMENT below): Kysely sends COMMIT only after the work has
 * returned, a round trip after the last statement's answer.
 */
const BEGIN = /^\s*begin\s*$/i;
/** Kysely's own COMMIT and ROLLBACK (its PostgreSQL driver sends them in lower case). */
const COMMIT = /^\s*commit\s*$/i;
const ROLLBACK = /^\s*rollback\s*$/i;

/**
 * A COMMIT sent behind the transaction's last statement, before that statement is answered
 * (one-round-trip.ts `withCommit`): this text marks it. The transaction's own COMMIT, which Kysely
 * sends once the work returns, is then answered with this one's outcome instead of being sent.
 * If the statement before it failed, the database answers this COMMIT as a ROLLBACK (an aborted
 * transaction cannot commit), and the statement's error is what the work throws.
 */
export const COMMIT_WITH_LAST_STATEMENT = 'COMMIT -- sent with the last statement';

type QueryFn = (...args: unknown[]) => unknown;
type WithStream = { connection?: { stream?: { cork?(): void; uncork?(): void } } };

const STARTED: Pick<pg.QueryResult, 'command' | 'rowCount' | 'rows' | 'fields'> = { command: 'BEGIN', rowCount: null, rows: [], fields: [] };

/** For a pool made with `pipeline: true`. */
export function sendBeginWithFirstStatement(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const original = client.query.bind(client) as QueryFn;
    const stream = (client as unknown as WithStream).connection?.stream;
    /** The COMMIT already sent for the open transaction (COMMIT_WITH_LAST_STATEMENT), if any. */
    let committed: Promise<unknown> | null = null;
    (client as unknown as { query: QueryFn }).query = (...args: unknown[]) => {
      const [text, values] = args;
      if (args.length !== 2 || typeof text !== 'string' || !Array.isArray(values) || values.length > 0) return original(...args);
      if (text === COMMIT_WITH_LAST_STATEMENT) return (committed = original(text, values) as Promise<unknown>);
      if (committed && (COMMIT.test(text) || ROLLBACK.test(text))) {
        const sent = committed;
        committed = null;
        // Kysely's COMMIT: the one sent already answers it. Its ROLLBACK, after the work threw: the
        // early COMMIT was answered first (as a ROLLBACK when the statement before it failed, or
        // with the error that failed it), so there is nothing left to roll back, and it goes out
        // only to keep the connection's state plain (the database just warns).
        return COMMIT.test(text) ? sent : original(...args);
      }
      if (!BEGIN.test(text)) return original(...args);
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
