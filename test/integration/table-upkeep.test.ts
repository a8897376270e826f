import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { AUTOVACUUM_DEFAULTS, createTableUpkeep, tablesDue, upkeepTables, type AutovacuumLimits } from '../../src/db/table-upkeep.ts';
import { testConfig } from '../helpers/test-app.ts';
import { until } from '../helpers/poll.ts';
import { ServiceProcess, freePort, serviceEnv } from '../helpers/service-process.ts';
import { createTestDatabase, isServerRun, type TestDatabase } from '../helpers/test-database.ts';

/**
 * The embedded database's stand-in for autovacuum (src/db/table-upkeep.ts). PGlite never analyzes
 * or vacuums on its own, so a statement planned while its tables were small kept that plan for the
 * life of the process: the recorder's heads check scanned all of `questions` for every answer
 * once a few thousand questions existed (docs/performance.md). The same functions run on a
 * PostgreSQL server here (where autovacuum is left to do it in production, and is switched off
 * for the probe table so it cannot act during the test).
 */
describe('table upkeep: what autovacuum would do, where PGlite does not', () => {
  let testDatabase: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await openDatabase(testConfig(testDatabase.env));
    await database.pool.query('CREATE TABLE upkeep_probe (id int PRIMARY KEY, grp int NOT NULL, note text) WITH (autovacuum_enabled = false)');
    await database.pool.query('CREATE INDEX upkeep_probe_grp ON upkeep_probe (grp)');
  });

  afterAll(async () => {
    await database?.close();
    await testDatabase?.dispose();
  });

  /** PostgreSQL publishes a session's table counters about a second after its transaction; later statements flush them. */
  async function whenDue(table: string, due: boolean): Promise<boolean> {
    return until(async () => {
      await database.pool.query('SELECT 1');
      const listed = (await tablesDue(database.pool)).some((t) => t.schema === 'public' && t.table === table);
      return listed === due;
    }, 15_000);
  }

  it('a statement planned while its table was small is planned again, for the table as it is now, after the upkeep', async () => {
    await database.pool.query('INSERT INTO upkeep_probe SELECT g, g, NULL FROM generate_series(1, 10) g');
    await database.pool.query('ANALYZE upkeep_probe');
    const client = await database.pool.connect();
    const plan = async () => (await client.query<{ 'QUERY PLAN': string }>('EXPLAIN EXECUTE probe(7)')).rows.map((r) => r['QUERY PLAN']).join('\n');
    try {
      // A generic plan, as db/prepared-statements.ts's named statements get after five runs.
      await client.query('SET plan_cache_mode = force_generic_plan');
      await client.query('PREPARE probe(int) AS SELECT id, note FROM upkeep_probe WHERE grp = $1');
      expect(await plan()).toMatch(/Seq Scan on upkeep_probe/);

      await database.pool.query('INSERT INTO upkeep_probe SELECT g, g, repeat(\'x\', 40) FROM generate_series(11, 20000) g');
      // Nothing told the planner: the cached plan still reads every row for one group.
      expect(await plan()).toMatch(/Seq Scan on upkeep_probe/);

      expect(await whenDue('upkeep_probe', true), 'the table is due once its counters are published').toBe(true);
      const done = await upkeepTables(database.pool);
      expect([...done.analyzed, ...done.vacuumed]).toContain('"public"."upkeep_probe"');
      expect(await plan()).toMatch(/Index Scan|Bitmap Index Scan/);
      expect(await plan()).not.toMatch(/Seq Scan on upkeep_probe/);
    } finally {
      await client.query('DEALLOCATE ALL').catch(() => undefined);
      await client.query('RESET plan_cache_mode').catch(() => undefined);
      client.release();
    }
    const { rows } = await database.pool.query<{ reltuples: number }>(`SELECT reltuples FROM pg_class WHERE relname = 'upkeep_probe'`);
    expect(Number(rows[0].reltuples)).toBe(20_000);
  });

  it('dead rows are vacuumed away, and a table with nothing to do is left alone', async () => {
    // 5,000 of 20,000 rows deleted and 5,000 updated: past autovacuum's 50 + 20% for a vacuum.
    await database.pool.query('DELETE FROM upkeep_probe WHERE id % 4 = 0');
    await database.pool.query('UPDATE upkeep_probe SET note = \'y\' WHERE id % 4 = 1');
    expect(await whenDue('upkeep_probe', true)).toBe(true);
    expect((await tablesDue(database.pool)).find((t) => t.table === 'upkeep_probe')?.vacuum).toBe(true);

    const done = await upkeepTables(database.pool);
    expect(done.vacuumed).toContain('"public"."upkeep_probe"');
    const dead = async () => Number((await database.pool.query<{ n: string }>(`SELECT n_dead_tup AS n FROM pg_stat_user_tables WHERE relname = 'upkeep_probe'`)).rows[0].n);
    expect(await until(async () => (await database.pool.query('SELECT 1'), (await dead()) === 0), 15_000)).toBe(true);
    // Done: the next round finds nothing to do for it.
    expect(await whenDue('upkeep_probe', false)).toBe(true);
    const again = await upkeepTables(database.pool);
    expect([...again.analyzed, ...again.vacuumed]).not.toContain('"public"."upkeep_probe"');
  });

  it('a table whose oldest unfrozen transaction passes the freeze age is vacuumed, whatever its counters say', async () => {
    await database.pool.query('INSERT INTO upkeep_probe VALUES (-1, -1, NULL)');
    const countersNever = { ...AUTOVACUUM_DEFAULTS, analyzeThreshold: 1e12, vacuumThreshold: 1e12, insertThreshold: 1e12 };
    const listed = async (limits: AutovacuumLimits) => (await tablesDue(database.pool, limits)).find((t) => t.table === 'upkeep_probe');
    // Its transactions are far younger than 200 million: not due.
    expect(await listed(countersNever)).toBeUndefined();
    // Any unfrozen transaction older than the limit makes it due for a vacuum.
    expect(await listed({ ...countersNever, freezeMaxAge: 0 })).toEqual({ schema: 'public', table: 'upkeep_probe', vacuum: true });
  });

  it('the upkeep loop: a pass every interval, a failed pass logged and tried again, stop waits for the pass under way', async () => {
    await database.pool.query('INSERT INTO upkeep_probe SELECT g, g, NULL FROM generate_series(100001, 140000) g');
    expect(await whenDue('upkeep_probe', true)).toBe(true);
    const errors: unknown[] = [];
    let failOnce = true;
    let passes = 0;
    const client = {
      query: async <R>(text: string, values?: unknown[]) => {
        if (text.startsWith('SELECT')) passes += 1;
        if (failOnce && text.startsWith('SELECT')) {
          failOnce = false;
          throw Object.assign(new Error('the database went away for a moment'), { code: '57P01' });
        }
        return database.pool.query(text, values) as unknown as Promise<{ rows: R[] }>;
      },
    };
    const upkeep = createTableUpkeep({ client, everyMs: 50, log: { debug() {}, error: (obj) => void errors.push(obj) } });
    upkeep.start();
    const reltuples = async () => Number((await database.pool.query<{ n: string }>(`SELECT reltuples AS n FROM pg_class WHERE relname = 'upkeep_probe'`)).rows[0].n);
    expect(await until(async () => (await reltuples()) > 50_000, 15_000), 'the second pass upkept the table').toBe(true);
    await upkeep.stop();
    expect(errors).toHaveLength(1);
    const after = passes;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(passes, 'no pass after stop').toBe(after);
  });

  it.skipIf(isServerRun())('the service upkeeps its embedded database: the seeded panel is analyzed within seconds of start', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-upkeep-'));
    const port = await freePort();
    const service = new ServiceProcess(serviceEnv({ NODE_ENV: 'development', HOST: '127.0.0.1', PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, LOG_LEVEL: 'warn', SIM_HEADS: '2000', SIM_ANSWERS_PER_MINUTE: '0' }));
    // Another program on the database's socket in DATA_DIR, as psql would be (docs/operations.md).
    const outside = new pg.Client({ host: dataDir, port: 5432, user: 'postgres', database: 'postgres', application_name: 'psql' });
    try {
      await service.ready();
      await outside.connect();
      const analyzed = async () => (await outside.query<{ relname: string }>(`SELECT relname FROM pg_stat_user_tables WHERE last_analyze IS NOT NULL OR last_vacuum IS NOT NULL`)).rows.map((r) => r.relname);
      expect(await until(async () => (await analyzed()).includes('heads'), 30_000), service.tail()).toBe(true);
      const { rows } = await outside.query<{ n: string }>(`SELECT reltuples AS n FROM pg_class WHERE relname = 'heads'`);
      expect(Number(rows[0].n)).toBe(2000);
    } finally {
      await outside.end().catch(() => undefined);
      await service.kill();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
