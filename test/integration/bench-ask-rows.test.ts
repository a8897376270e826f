import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { createContainer, type Container } from '../../src/container.ts';
import { createJobRunner, type JobRunner } from '../../src/jobs/job-runner.ts';
import { jobDefinitions } from '../../src/jobs/jobs.ts';
import { SCOPES, type Actor } from '../../src/lib/actor.ts';
import { readAskRows, writeAskRows } from '../../bench/servers/ask-rows.ts';
import { ASK_DRAFT } from '../../bench/scenarios/asks.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.ts';
import { testConfig } from '../helpers/test-app.ts';

/**
 * The bench's second limit for the asks rows (bench/servers/ask-rows.ts): the rows one ask
 * writes, copied from a real ask and written in one statement. It is a limit only if a copy is
 * the same work as an ask: the same rows in the same tables with the same values, for the copy's
 * own account, with its money moved as an ask moves it, so the ledger still reconciles.
 */
describe("the bench's copy of an ask's rows", () => {
  let target: TestDatabase;
  let database: Database;
  let jobs: JobRunner;
  let container: Container;
  const accounts: Array<{ actor: Actor; lotId: string }> = [];

  beforeAll(async () => {
    target = await createTestDatabase();
    const config = testConfig(target.env);
    database = await openDatabase(config);
    jobs = createJobRunner(database.connection);
    container = createContainer(config, database, undefined, { queue: jobs });
    // The close timer is one of the ask's rows: pg-boss's queue must be there to take it.
    await jobs.start(jobDefinitions(container), { work: false, log: { info() {}, error() {} } });
    for (const name of ['Template', 'Copy']) {
      const account = await container.accounts.createAccount({ name });
      const { secret } = await container.accounts.createKey({ accountId: account.id, scopes: [...SCOPES], name });
      await container.credits.grant({ accountId: account.id, amount: 10_000, reason: 'Credits for the test' });
      const lot = await database.db.selectFrom('credit_lots').select('id').where('account_id', '=', account.id).executeTakeFirstOrThrow();
      accounts.push({ actor: await container.accounts.authenticate(secret), lotId: lot.id });
    }
  });
  afterAll(async () => {
    await jobs?.stop();
    await database?.close();
    await target?.dispose();
  });

  const count = async (text: string, values: unknown[]) => Number((await database.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${text}`, values)).rows[0].n);

  it("copies every row of a real ask to another account, with new ids, and moves that account's credits as the ask did", async () => {
    const [template, copy] = accounts;
    const asked = await container.asks.ask(template.actor, { draft: { ...ASK_DRAFT, options: ASK_DRAFT.options.map((o) => ({ ...o })) } } as never, randomUUID());
    const rows = await readAskRows(database.pool, asked.body.question.id);
    expect(rows.tables.map((t) => [t.table, t.rows.length])).toEqual([
      ['"public"."questions"', 1],
      ['"public"."idempotency_keys"', 1],
      ['"public"."ledger_entries"', 1],
      ['"public"."outbox_events"', 1],
      ['"public"."lot_uses"', 1],
      ['"pgboss"."job"', 1],
    ]);
    expect(rows.amount).toBe(120);

    await writeAskRows(database.pool, rows, { accountId: copy.actor.accountId, lotId: copy.lotId });
    await writeAskRows(database.pool, rows, { accountId: copy.actor.accountId, lotId: copy.lotId });

    const account = copy.actor.accountId;
    const questions = (await database.pool.query('SELECT * FROM questions WHERE account_id = $1 ORDER BY seq', [account])).rows;
    expect(questions).toHaveLength(2);
    const original = (await database.pool.query('SELECT * FROM questions WHERE id = $1', [asked.body.question.id])).rows[0];
    for (const q of questions) {
      expect(q.id).not.toBe(original.id);
      expect(q.link_code).not.toBe(original.link_code);
      // Everything that is not an id, a code, the account or a serial number is the template's.
      for (const column of ['draft', 'type', 'status', 'n', 'credits_per_answer', 'credits_reserved', 'closes_at', 'source']) expect(q[column], column).toEqual(original[column]);
    }
    const ids = questions.map((q) => q.id as string);
    expect(await count('idempotency_keys WHERE account_id = $1', [account])).toBe(2);
    expect(await count("ledger_entries WHERE account_id = $1 AND unique_ref = ANY($2::text[])", [account, ids.map((id) => `${id}:ask`)])).toBe(2);
    expect(await count('outbox_events WHERE unique_ref = ANY($1::text[])', [ids.map((id) => `${id}:question.reserved`)])).toBe(2);
    expect(await count('lot_uses WHERE lot_id = $1 AND question_id = ANY($2::text[])', [copy.lotId, ids])).toBe(2);
    expect(await count("pgboss.job WHERE data->>'id' = ANY($1::text[])", [ids])).toBe(2);

    // The money, as two asks of 120 would leave it, and still reconciled: available = Σ open lots.
    const balance = (await database.pool.query('SELECT available, reserved FROM balances WHERE account_id = $1', [account])).rows[0];
    expect({ available: Number(balance.available), reserved: Number(balance.reserved) }).toEqual({ available: 10_000 - 240, reserved: 240 });
    const lots = (await database.pool.query('SELECT sum(remaining) AS held FROM credit_lots WHERE account_id = $1', [account])).rows[0];
    expect(Number(lots.held)).toBe(10_000 - 240);
    // The template's account is untouched by the copies.
    const theirs = (await database.pool.query('SELECT available FROM balances WHERE account_id = $1', [template.actor.accountId])).rows[0];
    expect(Number(theirs.available)).toBe(10_000 - 120);
  });
});
