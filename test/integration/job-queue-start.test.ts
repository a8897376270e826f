import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { createContainer } from '../../src/container.ts';
import { createJobRunner } from '../../src/jobs/job-runner.ts';
import { jobDefinitions } from '../../src/jobs/jobs.ts';
import type { JobDefinition } from '../../src/lib/job.ts';
import { testConfig } from '../helpers/test-app.ts';
import { createTestDatabase, isServerRun, type TestDatabase } from '../helpers/test-database.ts';

/**
 * Processes starting together on a database whose job queues do not exist yet (a new deployment,
 * or a release that adds a job): every process's job runner creates the queues it declares.
 * pg-boss's create_queue() inserts the queue's row and then, in the same transaction, adds a
 * foreign key to that table and attaches a partition, so two processes creating queues at the
 * same moment each hold a lock the other waits for: PostgreSQL aborts one with "deadlock
 * detected", and that process failed to start ("Headcount failed to start: error: deadlock
 * detected", seen when test/integration/multi-process.test.ts started two API processes at once).
 * On a server the runner now sets the queue up under an advisory lock (src/db/session-lock.ts),
 * one process at a time; without it (`exclusiveStart: false`) this test fails in its first round
 * with three of the four runners refused.
 *
 * A PostgreSQL server only: the embedded database belongs to one process.
 */
const SERVER = isServerRun();
const RUNNERS = 4;
const ROUNDS = 3;
const silent = { info() {}, error() {} };

describe.skipIf(!SERVER)('job runners starting together on one PostgreSQL database', () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let jobs: JobDefinition[];

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    const config = testConfig(testDatabase.env);
    database = await openDatabase(config);
    jobs = jobDefinitions(createContainer(config, database));
  });

  afterAll(async () => {
    await database?.close();
    await testDatabase?.dispose();
  });

  it(`${RUNNERS} runners at once, on a database without pg-boss's schema or queues: all start, and every queue is made once (${ROUNDS} rounds)`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      await database.pool.query('DROP SCHEMA IF EXISTS pgboss CASCADE');
      const runners = Array.from({ length: RUNNERS }, () => createJobRunner(database.connection, { exclusiveStart: true }));
      try {
        const started = await Promise.allSettled(runners.map((runner, i) => runner.start(jobs, { work: i === 0, log: silent })));
        const failed = started.flatMap((s) => (s.status === 'rejected' ? [String((s.reason as Error)?.message ?? s.reason)] : []));
        expect(failed, `round ${round}`).toEqual([]);
        const queues = (await database.pool.query<{ name: string }>('SELECT name FROM pgboss.queue ORDER BY name')).rows.map((r) => r.name);
        // Ours, and pg-boss's own queue for cron jobs (its timekeeper makes it at start, ignoring a failure).
        expect(queues, `round ${round}`).toEqual([...jobs.map((j) => j.name), '__pgboss__send-it'].sort());
      } finally {
        await Promise.all(runners.map((runner) => runner.stop()));
      }
    }
  }, 90_000);

  const queueRows = async () => (await database.pool.query('SELECT name, created_on FROM pgboss.queue ORDER BY name')).rows;
  const scheduleRows = async () => (await database.pool.query('SELECT name, cron, timezone, data, options, updated_on FROM pgboss.schedule ORDER BY name')).rows;
  const startAndStop = async (definitions: JobDefinition[]) => {
    const runner = createJobRunner(database.connection, { exclusiveStart: true });
    try {
      await runner.start(definitions, { work: false, log: silent });
    } finally {
      await runner.stop();
    }
  };

  it('a runner started again on the same database creates nothing, rewrites no schedule, and starts', async () => {
    const [queues, schedules] = [await queueRows(), await scheduleRows()];
    expect(schedules.map((row) => row.name).sort()).toEqual(jobs.filter((job) => job.cron).map((job) => job.name).sort());
    await startAndStop(jobs);
    expect(await queueRows()).toEqual(queues);
    // pg-boss's schedule() sets updated_on on every call: unchanged means not sent at all.
    expect(await scheduleRows()).toEqual(schedules);
  });

  it('a release with a new job, or a cron changed, writes what differs: the new queue and schedule, the cron back; the job dropped again, its schedule goes', async () => {
    const periodic = jobs.find((job) => job.cron)!;
    await database.pool.query(`UPDATE pgboss.schedule SET cron = '0 0 1 1 *' WHERE name = $1`, [periodic.name]);
    const added: JobDefinition = { name: 'release-test-new-job', cron: '13 2 * * *', accepts: () => true, handler: async () => undefined };
    const before = await scheduleRows();
    await startAndStop([...jobs, added]);
    expect((await queueRows()).map((row) => row.name)).toContain(added.name);
    const after = await scheduleRows();
    expect(after.find((row) => row.name === periodic.name)).toMatchObject({ cron: periodic.cron, timezone: 'UTC', data: {}, options: { tz: 'UTC' } });
    expect(after.find((row) => row.name === added.name)).toMatchObject({ cron: '13 2 * * *', timezone: 'UTC' });
    // The others were left alone.
    const untouched = (rows: typeof before) => rows.filter((row) => row.name !== periodic.name && row.name !== added.name);
    expect(untouched(after)).toEqual(untouched(before));

    // The release after drops the job again: its schedule goes, nobody else's is rewritten.
    await startAndStop(jobs);
    const dropped = await scheduleRows();
    expect(dropped.map((row) => row.name)).not.toContain(added.name);
    expect(dropped).toEqual(after.filter((row) => row.name !== added.name));
  });
});
