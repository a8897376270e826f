import { CompiledQuery, sql, type RawBuilder } from 'kysely';
import type { Db } from './database.ts';
import type { CapturedStatement, SqlExecutor } from '../lib/job.ts';
import type { StatementRider } from '../lib/statement-rider.ts';
import { isRetryableConflict, TransactionConflictError, TRANSACTION_ATTEMPTS } from '../lib/database-errors.ts';
import { isStalePreparedStatement } from './prepared-statements.ts';

/**
 * Every service transaction goes through here. PostgreSQL may abort a transaction that did
 * nothing wrong: a deadlock (40P01) picks a victim, and a serialization failure (40001) tells the
 * loser of a race to try again. Both are safe to run again from the start, because the aborted
 * attempt changed nothing; so they are retried here a few times with a short random pause, and a
 * caller (an ask, an answer, a close) never sees them as a 500.
 *
 * The lock order that keeps deadlocks rare is documented in docs/credits.md ("Lock order"):
 * question → its follow-ups → balance → the key's cap charges and daily spend → credit lots.
 *
 * `work` must be safe to run more than once: keep anything it collects for after the commit
 * (ids to wake, timers to start) inside the callback's own scope, or reset it at its start.
 */
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** attempt));

export async function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    // Each attempt has its own list: what an aborted attempt registered never runs.
    const committed: Array<() => void> = [];
    try {
      const result = await db.transaction().execute((tx) => {
        onCommit.set(tx, committed);
        return work(tx);
      });
      for (const run of committed) run();
      return result;
    } catch (error) {
      // A prepared statement that outlived a migration is prepared again on the next attempt (prepared-statements.ts).
      if (!isRetryableConflict(error) && !isStalePreparedStatement(error)) throw error;
      if (attempt >= TRANSACTION_ATTEMPTS) throw new TransactionConflictError(error);
      await pause(attempt);
    }
  }
}

/** The transactions inTransaction has open, each with what to run once it commits. */
const onCommit = new WeakMap<Db, Array<() => void>>();

/**
 * Runs `run` once `tx` commits: later when `tx` is a transaction of inTransaction (never, if that
 * attempt aborts), at once otherwise (no transaction, or one opened elsewhere). For in-memory
 * bookkeeping that must not count a change twice when a transaction is retried (the operators'
 * counters, docs/operations.md "Metrics"); `run` must not throw.
 */
export function afterCommit(tx: Db, run: () => void): void {
  const list = onCommit.get(tx);
  if (list) list.push(run);
  else run();
}

/**
 * One statement of someone else's SQL (the job queue's) in this open transaction
 * (lib/job.ts SqlExecutor): a job written with the change that needs it commits with it.
 */
export function sqlExecutor(tx: Db): SqlExecutor {
  return {
    async executeSql(text, values) {
      const result = await tx.executeQuery(CompiledQuery.raw(text, values));
      return { rows: result.rows as unknown[] };
    },
  };
}

/**
 * Someone else's statement (the job queue's insert of a timer: lib/job.ts `sendStatement`) as a
 * rider of one of ours (lib/statement-rider.ts): written in the host's statement when it runs,
 * alone in `tx` when it does not. Its `$n` placeholders become the host's parameters; the text must
 * hold no `$` but those (pg-boss's insert holds none: its literals are plain quoted strings).
 */
export function statementRider(tx: Db, statement: CapturedStatement): StatementRider & { writeAlone(): Promise<void> } {
  const parts = statement.text.split(/\$(\d+)/);
  const pieces: RawBuilder<unknown>[] = [];
  parts.forEach((part, i) => pieces.push(i % 2 === 0 ? sql.raw(part) : sql.val(statement.values[Number(part) - 1])));
  const body = sql.join(pieces, sql.raw(''));
  return {
    carried: false,
    ctes: (prefix) => [sql`${sql.id(`${prefix}statement`)} AS (${body})`],
    async writeAlone() {
      await sqlExecutor(tx).executeSql(statement.text, statement.values);
    },
  };
}
