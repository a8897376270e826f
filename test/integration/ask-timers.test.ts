import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { createContainer, type Container } from '../../src/container.ts';
import { createJobRunner, type JobRunner } from '../../src/jobs/job-runner.ts';
import { jobDefinitions } from '../../src/jobs/jobs.ts';
import { FakeClock } from '../../src/lib/clock.ts';
import { SCOPES, type Actor } from '../../src/lib/actor.ts';
import { JOB_EXPIRE, JOB_GO_LIVE } from '../../src/modules/questions/questions.jobs.ts';
import { AppError } from '../../src/lib/errors.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.ts';
import { testConfig } from '../helpers/test-app.ts';

/**
 * A question's timers (go live at scheduledFor, close when its window ends) are written in the
 * ask's own transaction (docs/lifecycle.md "Timers"): a question that exists always has them,
 * even if the process dies right after the commit, and an ask that is refused or replayed writes
 * none. Checked in pg-boss's own table, with the real job queue the service runs.
 */
const NOW = new Date('2026-06-01T09:00:00Z');
const DRAFT = { type: 'single_choice', text: 'Which name is best?', options: [{ label: 'Penny' }, { label: 'Pocket' }], n: 10 };

describe('the timers of an ask', () => {
  let target: TestDatabase;
  let database: Database;
  let jobs: JobRunner;
  let container: Container;
  let actor: Actor;

  beforeAll(async () => {
    target = await createTestDatabase();
    const config = testConfig(target.env);
    database = await openDatabase(config);
    jobs = createJobRunner(database.connection);
    container = createContainer(config, database, new FakeClock(NOW), { queue: jobs });
    // The queue is there to be written to; nothing runs the jobs here (an API-only process).
    await jobs.start(jobDefinitions(container), { work: false, log: { info() {}, error() {} } });
    const account = await container.accounts.createAccount({ name: 'Timers' });
    const { secret } = await container.accounts.createKey({ accountId: account.id, scopes: [...SCOPES], name: 'timers' });
    await container.credits.grant({ accountId: account.id, amount: 500, reason: 'Credits for the test' });
    actor = await container.accounts.authenticate(secret);
  });
  afterAll(async () => {
    await jobs?.stop();
    await database?.close();
    await target?.dispose();
  });

  let accounts = 0;
  const accountWith = async (credits: number): Promise<Actor> => {
    const account = await container.accounts.createAccount({ name: `Timers ${++accounts}` });
    const { secret } = await container.accounts.createKey({ accountId: account.id, scopes: [...SCOPES], name: 'timers' });
    await container.credits.grant({ accountId: account.id, amount: credits, reason: 'Credits for the test' });
    return container.accounts.authenticate(secret);
  };
  const jobsOf = async (questionId: string) =>
    (await sql<{ name: string; start_after: Date }>`SELECT name, start_after FROM pgboss.job WHERE data->>'id' = ${questionId} ORDER BY start_after`.execute(database.db)).rows;
  const closesAt = async (questionId: string) => (await database.db.selectFrom('questions').select('closes_at').where('id', '=', questionId).executeTakeFirstOrThrow()).closes_at;
  const allJobs = async () => Number((await sql<{ count: number }>`SELECT count(*)::int AS count FROM pgboss.job WHERE name IN (${JOB_GO_LIVE}, ${JOB_EXPIRE})`.execute(database.db)).rows[0].count);

  it('a live question gets its close timer at closesAt; a replay of the same ask writes no second one', async () => {
    const key = randomUUID();
    const asked = await container.asks.ask(actor, { draft: DRAFT } as never, key);
    const question = asked.body.question;
    expect(question.status).toBe('live');
    expect(await jobsOf(question.id)).toEqual([{ name: JOB_EXPIRE, start_after: await closesAt(question.id) }]);

    const replayed = await container.asks.ask(actor, { draft: DRAFT } as never, key);
    expect(replayed.replayed).toBe(true);
    expect(replayed.body.question.id).toBe(question.id);
    expect(await jobsOf(question.id)).toHaveLength(1);
  });

  it('a scheduled question gets its go-live timer at scheduledFor and its close timer', async () => {
    const scheduledFor = new Date(NOW.getTime() + 3_600_000).toISOString();
    const asked = await container.asks.ask(actor, { draft: { ...DRAFT, scheduledFor } } as never, randomUUID());
    const question = asked.body.question;
    expect(question.status).toBe('scheduled');
    expect(await jobsOf(question.id)).toEqual([
      { name: JOB_GO_LIVE, start_after: new Date(scheduledFor) },
      { name: JOB_EXPIRE, start_after: await closesAt(question.id) },
    ]);
  });

  it('the timers ride in the reservation\'s statement: a live ask is BEGIN, its question, its reservation and COMMIT', async () => {
    const rich = await accountWith(100_000);
    await container.asks.ask(rich, { draft: DRAFT } as never, randomUUID());
    const before = database.writes();
    const asked = await container.asks.ask(rich, { draft: DRAFT } as never, randomUUID());
    expect(database.writes() - before).toBe(4);
    expect(await jobsOf(asked.body.question.id)).toEqual([{ name: JOB_EXPIRE, start_after: await closesAt(asked.body.question.id) }]);
  });

  it('the close timer an ask writes is the job the queue\'s own send writes (a pg-boss update that changes its insert shows here)', async () => {
    const asked = await container.asks.ask(actor, { draft: DRAFT } as never, randomUUID());
    const id = asked.body.question.id;
    await jobs.send(JOB_EXPIRE, { id: `${id}-sent` }, { startAfter: (await closesAt(id)) ?? undefined });
    const rows = (
      await sql<{ job: Record<string, unknown> }>`SELECT to_jsonb(j) - 'id' - 'created_on' AS job FROM pgboss.job j WHERE data->>'id' IN (${id}, ${`${id}-sent`}) ORDER BY data->>'id'`.execute(database.db)
    ).rows.map((row) => row.job);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({ ...rows[1], data: { id } });
    expect(rows[0]).toMatchObject({ name: JOB_EXPIRE, state: 'created', retry_limit: expect.any(Number), policy: expect.any(String) });
  });

  it('today\'s free private question reserves nothing, and still gets its close timer', async () => {
    const own = await accountWith(500);
    const asked = await container.asks.ask(own, { draft: DRAFT, privateDeclaration: { recipients: 5 } } as never, randomUUID());
    expect(asked.body.question).toMatchObject({ status: 'live', creditsReserved: 0 });
    expect(await jobsOf(asked.body.question.id)).toEqual([{ name: JOB_EXPIRE, start_after: await closesAt(asked.body.question.id) }]);
  });

  it('an ask refused for want of credits leaves no timer behind (they roll back with it)', async () => {
    const before = await allJobs();
    const refused = await container.asks.ask(actor, { draft: { ...DRAFT, n: 1000 } } as never, randomUUID()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('insufficient_credits');
    expect(await allJobs()).toBe(before);
  });
});
