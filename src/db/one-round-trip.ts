import { CompiledQuery, type Compilable } from 'kysely';
import type { Db } from './database.ts';
import { COMMIT_WITH_LAST_STATEMENT } from './pipelined-begin.ts';

/** A statement built and not yet run (a Kysely query builder, or `compilable(sql...)`). */
export type Statement<R> = Compilable<R>;

/** The rows of each statement of a list, in its order (none for a null). */
export type RowsOf<T extends readonly (Statement<unknown> | null)[]> = { -readonly [K in keyof T]: NonNullable<T[K]> extends Statement<infer R> ? R[] : never[] };

/** A raw `sql` template as a Statement: compiled against `db` (compiling runs nothing). */
export function compilable<R>(raw: { compile(db: Db): ReturnType<Statement<R>['compile']> }, db: Db): Statement<R> {
  return { compile: () => raw.compile(db) };
}

/**
 * Runs statements of one transaction in one round trip: all are sent before the first is
 * answered, and the database runs them one after the other in that order, so each sees what the
 * ones before it did and holds what they locked, exactly as if each were awaited in turn (issue
 * 15, docs/performance.md "Round trips"). When one fails, those after it fail too (the
 * transaction is aborted) and the first failure is thrown, as the first awaited would have.
 *
 * Written by hand: Kysely runs a transaction's statements strictly one at a time (its
 * connection provider waits for each answer before it hands the connection on), though
 * node-postgres's pipeline mode, which the pool runs in (pipelined-begin.ts), sends a query
 * without waiting for the one before. Here the connection is taken once and the statements are
 * handed to it together. Issued in the transaction's first turn of the event loop, they leave in
 * the same write as its BEGIN. A null in the list is a statement with nothing to do: no rows,
 * nothing sent.
 */
export async function inOneRoundTrip<const T extends readonly (Statement<unknown> | null)[]>(tx: Db, statements: T): Promise<RowsOf<T>> {
  const compiled = statements.map((statement) => statement?.compile() ?? null);
  return tx
    .getExecutor()
    .provideConnection((connection) => Promise.all(compiled.map(async (query) => (query ? (await connection.executeQuery(query)).rows : [])))) as Promise<RowsOf<T>>;
}

/**
 * The transaction's last statement with its COMMIT, in one round trip: the COMMIT is sent
 * before the statement is answered (pipelined-begin.ts answers Kysely's own COMMIT with it), so
 * the transaction is committed when this returns. It must be the last thing the transaction's
 * work does, and nothing after it may throw: there is nothing left to roll back. When the
 * statement fails, the database turns the COMMIT into a ROLLBACK and the statement's error is
 * thrown; when the COMMIT fails, its error is, and nothing was committed. So a check on the
 * statement's outcome that must be able to undo it belongs in the statement (an error the SQL
 * raises), not after it.
 */
export async function withCommit<R>(tx: Db, statement: Statement<R>): Promise<R[]> {
  const compiled = statement.compile();
  return tx.getExecutor().provideConnection(async (connection) => {
    const [result] = await Promise.all([connection.executeQuery<R>(compiled), connection.executeQuery(CompiledQuery.raw(COMMIT_WITH_LAST_STATEMENT))]);
    return result.rows;
  });
}

/** One statement alone: the rows of `statement` run in `tx`. */
export async function rowsOf<R>(tx: Db, statement: Statement<R>): Promise<R[]> {
  return (await tx.executeQuery(statement.compile())).rows;
}
