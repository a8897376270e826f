import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.ts';
import { inTransaction } from '../../src/db/transaction.ts';
import { openOneConnectionDatabase, type OneConnectionDatabase, type SocketCounts } from '../helpers/socket-writes.ts';

/**
 * A transaction's BEGIN leaves with its first statement, in one write (src/db/pipelined-begin.ts,
 * docs/performance.md "Round trips"), on both databases. Counted where it happens: the writes on
 * the connection's socket.
 */
describe('BEGIN with the first statement', () => {
  let probe: OneConnectionDatabase;
  let database: Database;
  let socket: SocketCounts;
  beforeAll(async () => {
    probe = await openOneConnectionDatabase(sql`CREATE TABLE pipelined_probe (id int PRIMARY KEY)`);
    ({ database, socket } = probe);
  });
  afterAll(() => probe?.close());

  const counted = async (work: () => Promise<unknown>) => (await socket.during(work)).writes;

  it('a transaction of one statement is two writes: BEGIN with the statement, then COMMIT', async () => {
    expect(await counted(() => inTransaction(database.db, (tx) => tx.insertInto('pipelined_probe' as never).values({ id: 1 } as never).execute()))).toBe(2);
    expect(await counted(() => inTransaction(database.db, async (tx) => {
      await tx.insertInto('pipelined_probe' as never).values({ id: 2 } as never).execute();
      await tx.insertInto('pipelined_probe' as never).values({ id: 3 } as never).execute();
    }))).toBe(3);
    const rows = await database.db.selectFrom('pipelined_probe' as never).select('id' as never).orderBy('id' as never).execute();
    expect(rows).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  it('a statement that fails rolls the whole transaction back, and the connection is fine after it', async () => {
    const failed = await inTransaction(database.db, async (tx) => {
      await tx.insertInto('pipelined_probe' as never).values({ id: 4 } as never).execute();
      await tx.insertInto('pipelined_probe' as never).values({ id: 1 } as never).execute(); // duplicate key
    }).catch((error: unknown) => error);
    expect((failed as { code?: string }).code).toBe('23505');
    const rows = await database.db.selectFrom('pipelined_probe' as never).select('id' as never).orderBy('id' as never).execute();
    expect(rows).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    // The next transaction on the same connection starts clean.
    await inTransaction(database.db, (tx) => tx.insertInto('pipelined_probe' as never).values({ id: 5 } as never).execute());
    expect((await database.db.selectFrom('pipelined_probe' as never).select('id' as never).execute()).length).toBe(4);
  });

  it('a statement outside a transaction is one write, as before', async () => {
    expect(await counted(() => database.db.selectFrom('pipelined_probe' as never).select('id' as never).execute())).toBe(1);
  });
});
