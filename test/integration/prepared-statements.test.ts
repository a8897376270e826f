import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { inTransaction } from '../../src/db/transaction.ts';
import { createTestDatabase, isServerRun, type TestDatabase } from '../helpers/test-database.ts';

/**
 * Statements the app sends again and again are prepared once per connection on a PostgreSQL
 * server (src/db/prepared-statements.ts, docs/performance.md "Prepared statements"). What a user
 * of the service would notice if this went wrong: a statement failing after a migration, a
 * connection filling up with one-off statements, or the embedded database refusing names that
 * another connection of its one session prepared. Checked through the server's own view of the
 * session (pg_prepared_statements).
 */
type Prepared = { name: string; statement: string };

/** The statements the connection running this query has prepared (one pool connection: max 1). */
async function preparedHere(database: Database): Promise<Prepared[]> {
  const { rows } = await sql<Prepared>`SELECT name, statement FROM pg_prepared_statements ORDER BY name`.execute(database.db);
  return rows;
}

describe.runIf(isServerRun())('prepared statements on a PostgreSQL server', () => {
  let target: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    target = await createTestDatabase();
    // One connection, so every statement of the test runs on the session it inspects.
    database = await openDatabase({ ...target.settings, databasePoolSize: 1 });
  });
  afterAll(async () => {
    await database?.close();
    await target?.dispose();
  });

  it('prepares a statement from its third run on, under a name that is a hash of its text, and runs it right every time', async () => {
    const read = (id: string) => database.db.selectFrom('accounts').select(['id']).where('id', '=', id).execute();
    await read('acc_none');
    await read('acc_none');
    expect((await preparedHere(database)).filter((p) => p.statement.includes('from "accounts"'))).toEqual([]);
    await read('acc_none');
    const named = (await preparedHere(database)).filter((p) => p.statement.includes('from "accounts"'));
    expect(named).toHaveLength(1);
    expect(named[0].name).toMatch(/^hc_[\w-]{20}$/);
    // The same text on later runs, with other values, uses that one statement.
    await database.db.insertInto('accounts').values({ id: 'acc_prepared', name: 'Prepared', kind: 'person', currency: 'GBP', language: 'en' }).execute();
    expect(await read('acc_prepared')).toEqual([{ id: 'acc_prepared' }]);
    expect(await read('acc_other')).toEqual([]);
    expect((await preparedHere(database)).filter((p) => p.statement.includes('from "accounts"'))).toHaveLength(1);
  });

  it('leaves one-off statements, and statements without values (BEGIN, COMMIT, scripts), unnamed', async () => {
    for (let i = 0; i < 5; i++) await sql.raw(`SELECT ${i} AS one_off_${i}`).execute(database.db);
    await database.pool.query('SELECT 42 AS no_values');
    await database.pool.query('SELECT 42 AS no_values');
    await database.pool.query('SELECT 42 AS no_values');
    const statements = (await preparedHere(database)).map((p) => p.statement);
    expect(statements.some((s) => s.includes('one_off_') || s.includes('no_values'))).toBe(false);
  });

  it('survives a migration that changes a table under a prepared SELECT *: the next transaction prepares it again', async () => {
    await sql`CREATE TABLE prepared_probe (id int PRIMARY KEY)`.execute(database.db);
    await sql`INSERT INTO prepared_probe VALUES (1)`.execute(database.db);
    const readAll = (db: typeof database.db) => db.selectFrom('prepared_probe' as never).selectAll().where('id' as never, '=', 1 as never).execute();
    for (let i = 0; i < 4; i++) await readAll(database.db);
    expect((await preparedHere(database)).some((p) => p.statement.includes('"prepared_probe"'))).toBe(true);

    // Another process's migration: a column more, so the prepared plan's result type is stale.
    const other = new pg.Client(target.env.DATABASE_URL);
    await other.connect();
    await other.query('ALTER TABLE prepared_probe ADD COLUMN label text');
    await other.end();

    // A transaction meets the stale statement, and runs again from the start with a fresh one.
    let attempts = 0;
    const rows = await inTransaction(database.db, async (tx) => {
      attempts += 1;
      return readAll(tx);
    });
    expect(attempts).toBe(2);
    expect(rows).toEqual([{ id: 1, label: null }]);
    // Outside a transaction, a statement that went stale is sent again at once: the caller never sees it.
    const again = new pg.Client(target.env.DATABASE_URL);
    await again.connect();
    await again.query('ALTER TABLE prepared_probe ADD COLUMN weight int');
    await again.end();
    expect(await readAll(database.db)).toEqual([{ id: 1, label: null, weight: null }]);
    expect(await readAll(database.db)).toEqual([{ id: 1, label: null, weight: null }]);
  });
});

describe.skipIf(isServerRun())('prepared statements on the embedded database', () => {
  let target: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    target = await createTestDatabase();
    database = await openDatabase({ ...target.settings, databasePoolSize: 4 });
  });
  afterAll(async () => {
    await database?.close();
    await target?.dispose();
  });

  it("are prepared once in PGlite's one session, and every connection of the pool uses that one", async () => {
    await database.db.insertInto('accounts').values({ id: 'acc_prepared', name: 'Prepared', kind: 'person', currency: 'GBP', language: 'en' }).execute();
    const read = (id: string) => database.db.selectFrom('accounts').select('id').where('id', '=', id).execute();
    // Many runs from four connections at once: none may parse a name another has parsed (it would fail).
    for (let round = 0; round < 3; round++) {
      const rows = await Promise.all(Array.from({ length: 40 }, (_, i) => read(i % 2 ? 'acc_prepared' : 'acc_none')));
      rows.forEach((r, i) => expect(r).toEqual(i % 2 ? [{ id: 'acc_prepared' }] : []));
    }
    const named = (await preparedHere(database)).filter((p) => p.statement.includes('from "accounts"'));
    expect(named).toHaveLength(1);
    expect(named[0].name).toMatch(/^hc_[\w-]{20}$/);
  });
});
