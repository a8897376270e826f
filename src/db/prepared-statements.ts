import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * Named (prepared) statements for the statements the app sends again and again (issue 15,
 * docs/performance.md "Prepared statements"). Kysely sends every statement unnamed, so the
 * database parses and plans it afresh each time: for the ask's two CTE statements that was
 * 0.5–0.7 ms of planning each, more than running them. A named statement is parsed once per
 * session and, after five runs, PostgreSQL may keep a generic plan.
 *
 * How: every client the pool opens gets its `query(text, values)` (the form Kysely uses) turned
 * into `query({ name, text, values })` once the same text has been sent `AFTER` times in this
 * process; the name is a hash of the text, so one text is one name everywhere. Texts sent fewer
 * times (one-off statements, lists whose length varies) stay unnamed, and a connection keeps at
 * most `PER_CONNECTION` names, so neither side's memory grows without bound. Other forms of query
 * (pg-boss's scripts, `pool.query` with a callback) and transaction control are left as they are.
 *
 * A migration that changes a table a prepared `SELECT *` reads (another process's rolling
 * deploy) makes the server refuse that statement ("cached plan must not change result type",
 * 0A000): the text gets a new name on that connection, so the next run prepares it again. Outside
 * a transaction the statement is simply sent again (it did nothing); inside one, the transaction
 * is aborted, and `isStalePreparedStatement` lets db/transaction.ts run it again from the start.
 *
 * On the embedded database (`sharedSession`) every connection of the pool is multiplexed into
 * PGlite's one session, where a name one connection prepared exists for all of them: a second
 * Parse of it would fail. There the pool keeps one book of names: a name is parsed by one
 * connection at a time (the others send the text unnamed meanwhile), and once it exists, the
 * others mark it as parsed (node-postgres keeps that mark per connection, in
 * `connection.parsedStatements`) and only bind it. Only the process serving PGlite does this;
 * the admin CLI, joining through the socket, names nothing.
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

type QueryFn = (...args: unknown[]) => unknown;
/** node-postgres's own record of the names a connection has parsed (pg/lib/query.js `hasBeenParsed`). */
type WithParsed = { connection?: { parsedStatements?: Record<string, string> } };

export function prepareRepeatedStatements(pool: pg.Pool, options: { sharedSession?: boolean } = {}): void {
  /** How often each text was sent, and its name. */
  const texts = new Map<string, { seen: number; name: string }>();
  /** On a shared session: the names being parsed now, and those that exist. */
  const session = options.sharedSession ? new Map<string, 'parsing' | 'ready'>() : null;

  /** The name of a text sent often enough to be worth one, else null. */
  function nameFor(text: string): string | null {
    let entry = texts.get(text);
    if (!entry) {
      if (texts.size >= TRACKED_TEXTS) return null;
      entry = { seen: 0, name: `hc_${createHash('sha1').update(text).digest('base64url').slice(0, 20)}` };
      texts.set(text, entry);
    }
    entry.seen += 1;
    return entry.seen >= AFTER ? entry.name : null;
  }

  pool.on('connect', (client) => {
    const original = client.query.bind(client) as QueryFn;
    const parsed = (client as unknown as WithParsed).connection?.parsedStatements;
    if (session && !parsed) return; // not the node-postgres this was written for: name nothing
    /** The name each text goes by on this connection (a stale one is renamed). */
    const names = new Map<string, string>();
    let renamed = 0;
    /** Whether a transaction is open on this connection (Kysely opens and ends them with plain statements). */
    let inTransaction = false;

    /** Sends a named statement; on a shared session, only when no other connection is parsing that name. */
    function named(name: string, text: string, values: unknown[]): Promise<unknown> {
      if (!session) return original({ name, text, values }) as Promise<unknown>;
      const state = session.get(name);
      if (state === 'parsing') return original(text, values) as Promise<unknown>;
      if (state === 'ready') parsed![name] = text;
      else session.set(name, 'parsing');
      return (original({ name, text, values }) as Promise<unknown>).finally(() => {
        // It exists once node-postgres saw its ParseComplete, whether or not the statement then succeeded.
        if (session.get(name) === 'parsing') {
          if (parsed![name] !== undefined) session.set(name, 'ready');
          else session.delete(name);
        }
      });
    }

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
        const fresh = names.size < PER_CONNECTION ? nameFor(text) : null;
        if (fresh === null) return original(text, values);
        name = fresh;
        names.set(text, name);
      }
      const alone = !inTransaction;
      const stale = name;
      return named(name, text, values).catch((error: unknown) => {
        if (!isStalePreparedStatement(error)) throw error;
        // The server no longer accepts this prepared statement: it is prepared afresh under another name.
        const fresh = `${stale}_${++renamed}`;
        names.set(text, fresh);
        if (!alone) throw error;
        return named(fresh, text, values);
      });
    };
  });
}

/** "cached plan must not change result type": a prepared statement outlived a change to its tables. */
export function isStalePreparedStatement(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '0A000' && typeof message === 'string' && message.includes('cached plan');
}
