import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.ts';
import { inTransaction } from '../../src/db/transaction.ts';
import { compilable, inOneRoundTrip, withCommit } from '../../src/db/one-round-trip.ts';
import { openOneConnectionDatabase, type OneConnectionDatabase, type SocketCounts } from '../helpers/socket-writes.ts';

/**
 * Statements of a transaction sent together (src/db/one-round-trip.ts, docs/performance.md "Round
 * trips"), on both databases: one write with BEGIN, run in their order (each sees the ones before
 * it), and a failure fails the rest and the transaction. Counted where it happens: the writes on
 * the connection's socket.
 */
describe('statements in one round trip', () => {
  let probe: OneConnectionDatabase;
  let database: Database;
  let socket: SocketCounts;
  beforeAll(async () => {
    probe = await openOneConnectionDatabase(sql`CREATE TABLE trip_probe (id int PRIMARY KEY, note text)`);
    ({ database, socket } = probe);
  });
  afterAll(() => probe?.close());

  const insert = (id: number, note: string) => compilable(sql<{ id: number }>`INSERT INTO trip_probe (id, note) VALUES (${id}, ${note}) RETURNING id`, database.db);
  const all = () => compilable(sql<{ id: number; note: string }>`SELECT id, note FROM trip_probe ORDER BY id`, database.db);

  it('leave with BEGIN in one write, run in their order, and answer each with its own rows', async () => {
    const before = { writes: socket.writes, roundTrips: socket.roundTrips };
    const [first, nothing, second, seen] = await inTransaction(database.db, (tx) => inOneRoundTrip(tx, [insert(1, 'a'), null, insert(2, 'b'), all()]));
    // BEGIN with the four statements, then COMMIT.
    expect({ writes: socket.writes - before.writes, roundTrips: socket.roundTrips - before.roundTrips }).toEqual({ writes: 2, roundTrips: 2 });
    expect(first).toEqual([{ id: 1 }]);
    expect(nothing).toEqual([]);
    expect(second).toEqual([{ id: 2 }]);
    // The read ran after both inserts: it sees them.
    expect(seen).toEqual([
      { id: 1, note: 'a' },
      { id: 2, note: 'b' },
    ]);
  });

  it('a statement that fails is the error thrown; the ones after it do nothing, and the transaction rolls back', async () => {
    const failed = await inTransaction(database.db, (tx) => inOneRoundTrip(tx, [insert(3, 'c'), insert(1, 'again'), insert(4, 'd')])).catch((error: unknown) => error);
    expect((failed as { code?: string }).code).toBe('23505');
    const rows = await database.db.selectFrom('trip_probe' as never).select('id' as never).orderBy('id' as never).execute();
    expect(rows).toEqual([{ id: 1 }, { id: 2 }]);
    // The connection is fine after it.
    await inTransaction(database.db, (tx) => inOneRoundTrip(tx, [insert(5, 'e')]));
    expect((await database.db.selectFrom('trip_probe' as never).select('id' as never).execute()).length).toBe(3);
  });

  it('waits for a statement issued before it, as Kysely does', async () => {
    const rows = await inTransaction(database.db, async (tx) => {
      const earlier = sql`INSERT INTO trip_probe (id, note) VALUES (6, 'f')`.execute(tx);
      const [seen] = await inOneRoundTrip(tx, [all()]);
      await earlier;
      return seen;
    });
    expect(rows.map((r) => r.id)).toEqual([1, 2, 5, 6]);
  });

  it('the last statement with its COMMIT: one round trip for the whole transaction, committed when it returns', async () => {
    const trip = await socket.during(() => inTransaction(database.db, (tx) => withCommit(tx, insert(7, 'g'))));
    // BEGIN, the insert and the COMMIT in one write; Kysely's own COMMIT after the work is answered by it.
    expect(trip).toEqual({ writes: 1, roundTrips: 1 });
    const later = await socket.during(() =>
      inTransaction(database.db, async (tx) => {
        await sql`INSERT INTO trip_probe (id, note) VALUES (8, 'h')`.execute(tx);
        return withCommit(tx, insert(9, 'i'));
      }),
    );
    expect(later).toEqual({ writes: 3, roundTrips: 2 });
    const rows = await database.db.selectFrom('trip_probe' as never).select('id' as never).orderBy('id' as never).execute();
    expect(rows.map((r) => (r as { id: number }).id)).toEqual([1, 2, 5, 6, 7, 8, 9]);
  });

  it('a last statement that fails takes its COMMIT with it: nothing of the transaction is kept, and the connection is fine', async () => {
    const failed = await inTransaction(database.db, async (tx) => {
      await sql`INSERT INTO trip_probe (id, note) VALUES (10, 'j')`.execute(tx);
      return withCommit(tx, insert(1, 'again'));
    }).catch((error: unknown) => error);
    expect((failed as { code?: string }).code).toBe('23505');
    const ids = async () => (await database.db.selectFrom('trip_probe' as never).select('id' as never).orderBy('id' as never).execute()).map((r) => (r as { id: number }).id);
    expect(await ids()).toEqual([1, 2, 5, 6, 7, 8, 9]);
    // A plain transaction after it commits as ever, with its own COMMIT.
    await inTransaction(database.db, (tx) => sql`INSERT INTO trip_probe (id, note) VALUES (11, 'k')`.execute(tx));
    const rolledBack = await inTransaction(database.db, async (tx) => {
      await sql`INSERT INTO trip_probe (id, note) VALUES (12, 'l')`.execute(tx);
      throw new Error('changed my mind');
    }).catch((error: unknown) => error);
    expect((rolledBack as Error).message).toBe('changed my mind');
    expect(await ids()).toEqual([1, 2, 5, 6, 7, 8, 9, 11]);
  });
});
