import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * Named (prepared) statements for the statements the app sends again and again, on a PostgreSQL
 * server (issue 15, docs/performance.md "Prepared statements"). Kysely sends every statement as
 * an unnamed one, so the server parses and plans it afresh each time: for the ask's two CTE
 * statements that was 0.5–0.7 ms of planning each, more than running them. A named statement is
 * parsed once per connection and, after five runs, PostgreSQL may keep a generic plan.
 *
 * How: every client the pool opens gets its `query(text, values)` (the form Kysely uses) turned
 * into `query({ name, text, values })` once the same text has been sent `AFTER` times in this
 * process; the name is a hash of the text, so one text is one name on every connection. Texts
 * sent fewer times (one-off statements, lists whose length varies) stay unnamed, and a
 * connection keeps at most `PER_CONNECTION` names, so neither side's memory grows without bound.
 * A query in another form (pg-boss's scripts, pool.query with a callback) and transaction control
 * (BEGIN, COMMIT) are left as they are.
 *
 * A migration that changes a table a prepared `SELECT *` reads (another process's rolling
 * deploy) makes the server refuse that statement ("cached plan must not change result type",
 * 0A000): the text gets a new name on that connection, so the next run prepares it again. Outside
 * a transaction the statement is simply sent again (it did nothing); inside one, the transaction
 * is aborted, and `isStalePreparedStatement` lets db/transaction.ts run it again from the start.
 *
 * Not for the embedded database: its socket server multiplexes every connection into PGlite's one
 * session, where a name prepared by one connection would already exist for the next.
 *
 * Written by hand: node-postgres prepares only statements given a name, Kysely never names them,
 * and no maintained package adds automatic preparation to either.
 */
const AFTER = 3;
const PER_CONNECTION = 500;
/** Distinct texts counted at most (the rest stay unnamed): dynamic SQL must not grow this forever. */
const TRACKED_TEXTS = 5_000;

const TRANSACTION_START = /^\s*(begin|start\s+transaction)\b/i;
const TRANSACTION_END = /^\s*(commit|end|abort|rollback(?!\s+to\b))\b/i;

interface Tracked {
  seen: number;
  name: string;
}

type QueryFn = (...args: unknown[]) => unknown;

export function prepareRepeatedStatements(pool: pg.Pool): void {
  const texts = new Map<string, Tracked>();

  function tracked(text: string): Tracked | null {
    let entry = texts.get(text);
    if (!entry) {
      if (texts.size >= TRACKED_TEXTS) return null;
      entry = { seen: 0, name: `hc_${createHash('sha1').update(text).digest('base64url').slice(0, 20)}` };
      texts.set(text, entry);
    }
    entry.seen += 1;
    return entry;
  }

  pool.on('connect', (client) => {
    const original = client.query.bind(client) as QueryFn;
    /** Names this connection has prepared, by text; a stale one gets a generation suffix. */
    const names = new Map<string, string>();
    let renamed = 0;
    /** Whether a transaction is open on this connection (Kysely opens and ends them with plain statements). */
    let inTransaction = false;
    (client as unknown as { query: QueryFn }).query = (...args: unknown[]) => {
      const [text, values] = args;
      if (typeof text !== 'string' || !Array.isArray(values) || args.length !== 2) return original(...args);
      // Kysely opens and ends transactions with (text, []): noted, and not worth a name.
      if (TRANSACTION_START.test(text) || TRANSACTION_END.test(text)) {
        inTransaction = TRANSACTION_START.test(text);
        return original(text, values);
      }
      let name = names.get(text);
      if (name === undefined) {
        const entry = tracked(text);
        if (!entry || entry.seen < AFTER || names.size >= PER_CONNECTION) return original(text, values);
        name = entry.name;
        names.set(text, name);
      }
      const alone = !inTransaction;
      return (original({ name, text, values }) as Promise<unknown>).catch((error: unknown) => {
        if (!isStalePreparedStatement(error)) throw error;
        // The server no longer accepts this prepared statement: it is prepared afresh under another name.
        const fresh = `${name}_${++renamed}`;
        names.set(text, fresh);
        if (!alone) throw error;
        return original({ name: fresh, text, values });
      });
    };
  });
}

/** "cached plan must not change result type": a prepared statement outlived a change to its tables. */
export function isStalePreparedStatement(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '0A000' && typeof message === 'string' && message.includes('cached plan');
}
