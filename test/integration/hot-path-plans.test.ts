import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { SCOPES, type Actor } from '../../src/lib/actor.ts';
import { answer, ask, choiceDraft, fundedKey, seedHeads, type Head } from '../helpers/questions.ts';

/**
 * The statements of the hot paths (an ask, answers through the recorder and through a link, the
 * result, a wait, the answer that completes a question) find their rows through indexes, however
 * large the tables grow. Every statement those paths send is captured as the app sends it and
 * EXPLAINed with its own parameters, sequential scans priced out: a plan that still reads a whole
 * table (a Seq Scan) or a whole index (an index scan with no Index Cond, its rows filtered) has no
 * other way to run, and would read every row of that table on every request. Functional tests
 * pass either way; the eleventh session found one such statement (the answer batch's question
 * locks) only because a full bench run slowed down once the database held more questions.
 *
 * An index can be used and still read too much: the link answers' nonce checks found their rows
 * by question and filtered the nonces, reading every answer of the question each time (found in
 * the twelfth session, in the database's own statement log). So the question already holds
 * hundreds of answers when the statements are captured, and each read (a SELECT) is also run with
 * EXPLAIN ANALYZE: a scan of a growing table that throws away more than a few rows per loop after
 * reading them reads more as the table grows. The statistics are taken before those answers
 * (after 3,000 panel answers of another question), since a plan chosen on stale statistics is
 * how both slips happened: the embedded database analyzes between bursts, a server's autovacuum
 * after a tenth of a table has changed. Pricing sequential scans out hides the planner's own
 * choice, so every statement is also EXPLAINed as the planner would run it: no table holding
 * 1,000 rows or more (the answers and the heads, here) may be read whole.
 */
let t: TestApp;
let heads: Head[];

/** The tables that grow with use: a scan of any of them on a hot path costs more every day. */
const GROWING = ['questions', 'answers', 'heads', 'ledger_entries', 'outbox_events', 'idempotency_keys', 'credit_lots', 'lot_uses', 'link_starts', 'audience_members', 'answer_flags', 'key_cap_charges', 'key_daily_spend', 'webhook_deliveries', 'insights', 'job'];

/** The simulated panel: more than 1,000 heads, so the planner's own choice must not read it whole either. */
const PANEL = 1200;

interface Sent {
  text: string;
  values: unknown[];
}

beforeAll(async () => {
  t = await createTestApp();
  heads = (await seedHeads(t, PANEL)).filter((h) => h.tier === 1);
});
afterAll(async () => {
  await t?.close();
});

/** Runs `work` and returns every statement the app's pool was sent meanwhile, as sent. */
async function statementsOf(work: () => Promise<void>): Promise<Sent[]> {
  const sent: Sent[] = [];
  let on = true;
  const pool = t.database.pool as unknown as pg.Pool;
  const wrapped = new WeakSet<object>();
  const capture = (client: pg.PoolClient) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const [first, second] = args;
      const text = typeof first === 'string' ? first : (first as { text?: unknown } | null)?.text;
      const values = typeof first === 'string' ? second : (first as { values?: unknown } | null)?.values;
      if (on && typeof text === 'string') sent.push({ text, values: Array.isArray(values) ? values : [] });
      return query(...args);
    };
  };
  pool.on('acquire', capture);
  try {
    await work();
  } finally {
    on = false;
    pool.off('acquire', capture);
  }
  return sent;
}

const DML = /^\s*(select|insert|update|delete|with)\b/i;
/** The DML statements sent, each text once (with the parameters it was first sent with). */
function distinctStatements(sent: Sent[]): Sent[] {
  return [...new Map(sent.filter((s) => DML.test(s.text)).map((s) => [s.text, s])).values()];
}
/** A read: also run with EXPLAIN ANALYZE, for the rows its scans threw away. */
const READ = /^\s*select\b/i;
/** Answers the question holds before the statements are captured. */
const EARLIER_ANSWERS = 300;
/** Answers of another question the statistics were taken on. */
const IMPORTED_ANSWERS = 3000;
/** Rows a scan of a growing table may throw away per loop (a removed answer, another status). */
const DISCARDED_AT_MOST = 20;

class RolledBack extends Error {}

/**
 * The statement's plan with its own parameters: sequential scans priced out unless `chosen` (the
 * planner's own choice), run when `analyze` (always in a transaction rolled back, so a write or a
 * lock it takes is undone). `generic`: planned without its values instead (see genericWholeReads).
 */
async function planOf({ text, values }: Sent, options: { chosen?: boolean; analyze?: boolean; generic?: boolean } = {}): Promise<string> {
  // A generic plan's placeholders have no values: sent as a simple query (no values at all).
  const explain = options.generic ? 'EXPLAIN (GENERIC_PLAN) ' : options.analyze ? 'EXPLAIN (ANALYZE, TIMING OFF) ' : 'EXPLAIN ';
  let plan = '';
  await t.db
    .transaction()
    .execute(async (tx) => {
      await sql`SET LOCAL enable_seqscan = ${sql.raw(options.chosen ? 'on' : 'off')}`.execute(tx);
      const { rows } = await tx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`${explain}${text}`, options.generic ? [] : values));
      plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return plan;
}

/** Whether the database shows generic plans (EXPLAIN (GENERIC_PLAN): PostgreSQL 16 and later; the embedded database is). */
async function genericPlansShown(): Promise<boolean> {
  return Number((await sql<{ v: string }>`SELECT current_setting('server_version_num') AS v`.execute(t.db)).rows[0].v) >= 160000;
}

/**
 * The growing tables a statement's generic plan must read whole, and the plan. The generic plan is
 * the one PostgreSQL keeps for a prepared statement after five runs when it costs no more: planned
 * without the values (EXPLAIN (GENERIC_PLAN), PostgreSQL 16 and later), sequential scans priced
 * out. The app prepares its repeated statements (docs/performance.md "Prepared statements"), so a
 * statement whose rows only a value can lead to (a partial index whose predicate a parameter must prove) reads a table whole there.
 * Only a Seq Scan counts against it: with sequential scans priced out, that means no index can
 * serve the statement without its values. An index read whole in a generic plan is the planner
 * averaging over the few questions a test database holds (`question_id = $1` matching a third of
 * the answers), and PostgreSQL keeps a generic plan only while it costs no more than the plans
 * made with the values.
 */
async function genericWholeReads(statement: Sent, tables: readonly string[] = GROWING): Promise<[string[], string]> {
  if (statement.values.length === 0) return [[], ''];
  const plan = await planOf(statement, { generic: true });
  return [wholeReads(plan, tables).filter((read) => read.endsWith('Seq Scan')).map((read) => `${read} (the generic plan)`), plan];
}

/** A problem found in a statement's plan, as the failure shows it: what, the statement, the plan. */
function problem(read: string, statement: Sent, plan: string): string {
  return `${read}\n  ${statement.text.replace(/\s+/g, ' ').slice(0, 300)}\n${plan}`;
}

/** Each scan of a growing table in a plan, with the detail lines under it (conditions, filters, rows removed). */
function scansOf(plan: string): Array<{ kind: string; table: string; details: string[] }> {
  const lines = plan.split('\n');
  const scans: Array<{ kind: string; table: string; details: string[] }> = [];
  lines.forEach((line, i) => {
    const scan = /(Seq Scan|Index Scan|Index Only Scan|Bitmap Heap Scan)(?: Backward)?(?: using \S+)? on (?:\w+\.)?(\w+)/.exec(line);
    if (!scan || !GROWING.includes(scan[2])) return;
    const depth = line.search(/\S/);
    const details = [];
    for (let j = i + 1; j < lines.length && lines[j].search(/\S/) > depth && !lines[j].includes('->'); j++) details.push(lines[j]);
    scans.push({ kind: scan[1], table: scan[2], details });
  });
  return scans;
}

/** The growing tables (of `tables`) a plan reads whole: a Seq Scan, or an index scan with no condition on the index. */
function wholeReads(plan: string, tables: readonly string[] = GROWING): string[] {
  return scansOf(plan)
    .filter((s) => tables.includes(s.table) && s.kind !== 'Bitmap Heap Scan')
    .filter((s) => s.kind === 'Seq Scan' || !s.details.some((d) => d.includes('Index Cond')))
    .map((s) => (s.kind === 'Seq Scan' ? `${s.table}: Seq Scan` : `${s.table}: ${s.kind} with no Index Cond`));
}

/** The scans of growing tables that threw away more than DISCARDED_AT_MOST rows per loop (EXPLAIN ANALYZE). */
function wastefulReads(plan: string): string[] {
  return scansOf(plan).flatMap((s) =>
    s.details.flatMap((d) => {
      const removed = /Rows Removed by (?:Filter|Index Recheck): (\d+)/.exec(d);
      return removed && Number(removed[1]) > DISCARDED_AT_MOST ? [`${s.table}: ${s.kind} threw away ${removed[1]} rows per loop`] : [];
    }),
  );
}

describe('the hot paths\' statements find their rows through indexes', () => {
  it('an ask, panel and link answers, the result, a wait and the completing answer', async () => {
    const key = await fundedKey(t, 200_000);
    // Statistics taken while the table held many answers and no link answers (as a database whose
    // last ANALYZE came before its links were shared), so a plan that trusts them to say the
    // partial nonce index is tiny reads it whole. The answers go straight into the table, as an
    // import would: this test reads plans, not money.
    const imported = await ask(t, key, choiceDraft({ n: 5000 }));
    await sql`INSERT INTO answers (id, question_id, source, tier, answer, option_label, credits, attestation_ref, answered_at)
      SELECT 'a_imported' || i, ${imported.id}, 'panel', 1, '{"option":0}'::jsonb, 'Penny', 1, 'att_imported' || i, now() FROM generate_series(1, ${IMPORTED_ANSWERS}) AS i`.execute(t.db);
    await sql`ANALYZE answers, heads`.execute(t.db);
    // Hundreds of earlier answers (through the link: no heads needed), so a read that filters the
    // question's answers shows it.
    const question: Record<string, any> = await ask(t, key, choiceDraft({ n: EARLIER_ANSWERS + 12 }));
    const anonymous = { headId: null, source: 'link' as const, tier: 1 };
    const earlier = await Promise.all(Array.from({ length: EARLIER_ANSWERS }, (_, i) => t.container.answers.record(question.id, anonymous, { option: i % 2 }, { nonce: randomUUID() })));
    expect(earlier.every((o) => o.accepted)).toBe(true);
    const sent = await statementsOf(async () => {
      await ask(t, key, choiceDraft({ n: 12 }));
      await Promise.all(heads.slice(0, 6).map((h, i) => answer(t, question.id, h, { option: i % 2 })));
      const link = (option: number) => t.inject({ method: 'POST', url: `/v1/public/link/${question.linkCode}/answers`, payload: { answer: { option }, nonce: randomUUID(), dwellMs: 3000, interrupted: false, locale: 'en-GB' }, remoteAddress: `198.51.100.${option + 1}` });
      for (const response of await Promise.all([link(0), link(1), link(0)])) expect(response.statusCode, response.body).toBe(200);
      expect((await t.inject({ method: 'GET', url: `/v2/questions/${question.id}/result`, headers: key.auth })).statusCode).toBe(200);
      const waiting = t.inject({ method: 'GET', url: `/v2/questions/${question.id}/wait?seconds=5`, headers: key.auth });
      await Promise.all(heads.slice(6, 9).map((h) => answer(t, question.id, h)));
      expect((await waiting).json().done).toBe(true);
      // The webhook dispatcher's poll, which runs every few hundred milliseconds in every worker.
      await t.container.webhookDelivery.claim(10);
    });

    const statements = distinctStatements(sent);
    expect(statements.length).toBeGreaterThan(10);
    // Tables big enough that the planner's own choice, nothing priced out, must not read them whole.
    const big = (await sql<{ relname: string }>`SELECT relname FROM pg_class WHERE relkind = 'r' AND reltuples >= 1000`.execute(t.db)).rows.map((r) => r.relname).filter((name) => GROWING.includes(name));
    expect(big).toEqual(expect.arrayContaining(['answers', 'heads']));
    const generic = await genericPlansShown();
    const problems: string[] = [];
    for (const statement of statements) {
      const report = (found: string[], plan: string) => {
        for (const read of found) problems.push(problem(read, statement, plan));
      };
      const plan = await planOf(statement);
      report(wholeReads(plan), plan);
      const chosen = await planOf(statement, { chosen: true });
      report(wholeReads(chosen, big).map((read) => `${read} (as the planner chose it)`), chosen);
      if (generic) report(...(await genericWholeReads(statement)));
      if (!READ.test(statement.text)) continue;
      const analyzed = await planOf(statement, { analyze: true });
      report(wastefulReads(analyzed), analyzed);
    }
    expect(problems, problems.join('\n\n')).toEqual([]);
  });

  it("the sweeps' statements, prepared, still find their rows through their partial indexes", async (context) => {
    // A sweep runs every few seconds or minutes in every worker, so its statements are prepared
    // too; each looks for the few rows a partial index holds (lots with credits left, checkouts
    // still awaited, uploads never finished, deliveries due).
    if (!(await genericPlansShown())) context.skip();
    // A delivery due, so the dispatcher's poll finds one and runs its claim too.
    const key = await fundedKey(t, 1_000);
    const owner: Actor = { accountId: key.accountId, keyId: null, scopes: SCOPES, dailyCapCredits: null, session: { id: 'ses_plans', personId: 'per_plans', role: 'owner' } };
    await t.container.webhooks.create(owner, { url: 'http://127.0.0.1:9/hook', events: ['question.reserved'] });
    await ask(t, key, choiceDraft({ n: 10 }));
    const sent = await statementsOf(async () => {
      await t.container.credits.expireDue(200);
      await t.container.paymentEvents.expireOverdue(50);
      await t.container.uploads.sweep();
      expect((await t.container.webhookDelivery.claim(10)).length).toBeGreaterThan(0);
    });
    const statements = distinctStatements(sent);
    const swept = ['credit_lots', 'checkouts', 'uploads', 'webhook_deliveries'];
    for (const table of swept) expect(statements.some((s) => s.text.includes(table)), table).toBe(true);
    expect(statements.some((s) => s.text.includes('UPDATE webhook_deliveries')), 'the claim').toBe(true);
    const problems: string[] = [];
    for (const statement of statements) {
      const [found, plan] = await genericWholeReads(statement, swept);
      for (const read of found) problems.push(problem(read, statement, plan));
    }
    expect(problems, problems.join('\n\n')).toEqual([]);
  });
});
