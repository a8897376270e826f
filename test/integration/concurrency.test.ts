import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { isServerRun } from '../helpers/test-database.ts';
import { balanceRow, ledgerRows, outcome, panelHeads, pricePerAnswer, questionRow, questionRows, refundRowsOf, smallAsk } from '../helpers/money.ts';
import type { AskBody } from '../../src/modules/questions/ask.schemas.ts';
import type { Actor } from '../../src/lib/actor.ts';

/**
 * R7.2 (and R1.2, R3.2–R3.4): the money core under real parallelism. Requests are fired together
 * with Promise.all, through the real app (t.inject) or the container's services, on a pool of 20
 * connections.
 *
 * Real parallelism needs PostgreSQL (TEST_DATABASE_URL): the embedded database serves one
 * transaction at a time, so there only a light version runs, to show that piling requests on it
 * produces no errors and the same end state. (It does not yet: the embedded socket server
 * interleaves the extended-protocol messages of concurrent connections outside transactions, so
 * statements run with another connection's parse or portal — electric-sql/pglite#1046 — and
 * the light version fails with 500s and spurious 401s until src/db/embedded.ts keeps each
 * connection's Parse…Sync batch together.)
 */
type Json = Record<string, any>;
const SERVER = isServerRun();
const N10 = smallAsk(10);
const PRICE = pricePerAnswer(N10.draft) * 10;

let t: TestApp;
let heads: string[];
let headTier: Map<string, number>;
let headCursor = 0;

beforeAll(async () => {
  t = await createTestApp({ env: { DATABASE_POOL_SIZE: '20', RATE_LIMIT_PER_KEY: '1000000', RATE_LIMIT_PER_IP: '1000000' } });
  heads = await panelHeads(t.db, t.clock, 400);
  headTier = new Map((await t.db.selectFrom('heads').select(['id', 'tier']).execute()).map((h) => [h.id, h.tier]));
});
afterAll(async () => {
  await t?.close();
});

/** Fresh tier-1 heads, none of them used before in this file. */
function freshHeads(count: number): string[] {
  const out: string[] = [];
  while (out.length < count) out.push(heads[headCursor++ % heads.length]);
  return out;
}

async function account(credits: number, cap: number | null = null): Promise<{ key: TestKey; actor: Actor }> {
  const key = await t.makeKey(undefined, cap);
  if (credits > 0) await t.container.credits.grant({ accountId: key.accountId, amount: credits, reason: 'Credits for the race' });
  return { key, actor: await t.container.accounts.authenticate(key.secret) };
}

function postAsk(key: TestKey, body: AskBody, idempotencyKey: string): Promise<LightMyRequestResponse> {
  return t.inject({ method: 'POST', url: '/v2/questions', headers: { ...key.auth, 'idempotency-key': idempotencyKey, 'content-type': 'application/json' }, payload: body });
}

const codeOf = (response: LightMyRequestResponse): string | null => (response.statusCode >= 400 ? (response.json() as Json).error.code : null);

async function expectReconciled(): Promise<void> {
  expect(await t.container.credits.reconcile()).toEqual([]);
}

/** Every question of the account has exactly one `ask` row of its price, and the balance is what the rows say. */
async function expectOneAskRowPerQuestion(accountId: string): Promise<void> {
  const rows = await ledgerRows(t.db, accountId);
  const questions = await questionRows(t.db, accountId);
  for (const q of questions.filter((q) => q.parent_id === null)) {
    const asks = rows.filter((r) => r.kind === 'ask' && r.ref === q.id);
    expect(asks, `ask rows of ${q.id}`).toHaveLength(q.credits_reserved > 0 ? 1 : 0);
  }
}

// ---------------------------------------------------------------------------------------------
// Scenarios, each runnable at any size
// ---------------------------------------------------------------------------------------------

/** (a) R1.2: many identical asks with one Idempotency-Key at once. */
async function identicalAsks(count: number) {
  const { key } = await account(PRICE * 3);
  const body = smallAsk(10);
  const responses = await Promise.all(Array.from({ length: count }, () => postAsk(key, body, 'one-key-for-all')));
  const created = responses.filter((r) => r.statusCode === 201);
  const busy = responses.filter((r) => r.statusCode === 409);
  expect(created.length + busy.length, responses.map((r) => `${r.statusCode} ${r.body.slice(0, 120)}`).join('\n')).toBe(count);
  expect(created.length).toBeGreaterThanOrEqual(1);
  for (const r of busy) {
    expect(codeOf(r)).toBe('idempotency_in_progress');
    expect(r.headers['retry-after']).toBe('1');
  }
  const ids = new Set(created.map((r) => r.json().question.id));
  expect(ids.size).toBe(1);
  expect(created.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
  const [id] = ids;
  // The 409s retried afterwards get the same question.
  for (let i = 0; i < busy.length; i++) {
    const again = await postAsk(key, body, 'one-key-for-all');
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().question.id).toBe(id);
  }
  const questions = await questionRows(t.db, key.accountId);
  expect(questions.map((q) => q.id)).toEqual([id]);
  expect((await ledgerRows(t.db, key.accountId)).filter((r) => r.kind === 'ask')).toHaveLength(1);
  expect(await balanceRow(t.db, key.accountId)).toEqual({ available: PRICE * 2, reserved: PRICE });
  await expectReconciled();
  return { created: created.length, busy: busy.length };
}

/** (b) R3.3: `count` asks with distinct keys on credits for exactly `fits` of them. */
async function asksOnScarceCredits(count: number, fits: number) {
  const { key } = await account(PRICE * fits);
  const responses = await Promise.all(Array.from({ length: count }, (_, i) => postAsk(key, smallAsk(10), `scarce-${i}`)));
  const codes = responses.map((r) => (r.statusCode === 201 ? 'created' : `${r.statusCode} ${codeOf(r)}`));
  expect(codes.filter((c) => c === 'created'), codes.join(', ')).toHaveLength(fits);
  expect(codes.filter((c) => c === '402 insufficient_credits')).toHaveLength(count - fits);
  expect(await balanceRow(t.db, key.accountId)).toEqual({ available: 0, reserved: PRICE * fits });
  expect(await questionRows(t.db, key.accountId)).toHaveLength(fits);
  await expectOneAskRowPerQuestion(key.accountId);
  await expectReconciled();
}

/** (c) R3.4: `count` asks on a key whose daily cap covers `fits` of them, with plenty of credits. */
async function asksCrossingTheCap(count: number, fits: number) {
  const { key } = await account(PRICE * count * 2, PRICE * fits);
  const responses = await Promise.all(Array.from({ length: count }, (_, i) => postAsk(key, smallAsk(10), `cap-${i}`)));
  const codes = responses.map((r) => (r.statusCode === 201 ? 'created' : `${r.statusCode} ${codeOf(r)}`));
  expect(codes.filter((c) => c === 'created'), codes.join(', ')).toHaveLength(fits);
  expect(codes.filter((c) => c === '402 spend_cap_exceeded')).toHaveLength(count - fits);
  for (const r of responses.filter((r) => r.statusCode === 402)) expect(r.json().error.details.reason).toBe('spend_cap_reached');
  const spend = await t.db.selectFrom('key_daily_spend').select('spent').where('key_id', '=', key.keyId).execute();
  expect(spend.map((s) => Number(s.spent))).toEqual([PRICE * fits]);
  expect(await balanceRow(t.db, key.accountId)).toEqual({ available: PRICE * count * 2 - PRICE * fits, reserved: PRICE * fits });
  const balance = await t.inject({ method: 'GET', url: '/v1/billing/balance', headers: key.auth });
  expect(balance.json().capRemaining).toBe(0);
  await expectOneAskRowPerQuestion(key.accountId);
  await expectReconciled();
}

async function askQuestion(actor: Actor, n: number, idempotencyKey: string, extra: Partial<AskBody> = {}): Promise<Json> {
  return (await t.container.asks.ask(actor, smallAsk(n, extra), idempotencyKey)).body.question as Json;
}

async function answerAll(questionId: string, headIds: string[]) {
  return Promise.all(headIds.map((headId, i) => t.container.answers.record(questionId, { headId, source: 'panel', tier: headTier.get(headId)! }, { option: i % 2 })));
}

/** spent + refunded = reserved, one refund row at most and equal to what the question says it refunded. */
async function expectSettled(questionId: string): Promise<void> {
  const q = await questionRow(t.db, questionId);
  expect(q.credits_spent + q.credits_refunded, `money of ${questionId}`).toBe(q.credits_reserved);
  expect(q.credits_spent).toBe(q.answered * q.credits_per_answer);
  const refunds = await refundRowsOf(t.db, questionId);
  expect(refunds.length).toBeLessThanOrEqual(1);
  expect(refunds.reduce((s, r) => s + Number(r.amount), 0)).toBe(q.credits_refunded);
}

/** (d) R3.2: a close racing the last answer of a question one answer from complete. */
async function closeRacingLastAnswer(rounds: number, close: 'cancel' | 'closeEarly') {
  const { actor, key } = await account(PRICE * rounds);
  const seen = { answerFirst: 0, closeFirst: 0 };
  for (let round = 0; round < rounds; round++) {
    const q = await askQuestion(actor, 10, `race-${close}-${round}`);
    const [last, ...first] = freshHeads(10);
    for (const outcomeOf of await answerAll(q.id, first)) expect(outcomeOf.accepted).toBe(true);
    const closing = close === 'cancel' ? outcome(t.container.lifecycle.cancel(actor, q.id)) : outcome(t.container.lifecycle.closeEarly(key.accountId, q.id, 9));
    const [answer, closed] = await Promise.all([t.container.answers.record(q.id, { headId: last, source: 'panel', tier: headTier.get(last)! }, { option: 0 }), closing]);
    const row = await questionRow(t.db, q.id);
    if (answer.accepted) {
      // The answer went first: complete, nothing left to refund; the cancel is a conflict (closeEarly: already closed).
      expect(answer).toMatchObject({ completed: true, state: 'full' });
      expect(row).toMatchObject({ status: 'complete', answered: 10, credits_refunded: 0 });
      if (close === 'cancel') expect(closed).toMatchObject({ ok: false, code: 'conflict' });
      else expect(closed).toMatchObject({ ok: true, value: true });
      seen.answerFirst++;
    } else {
      expect(answer).toMatchObject({ accepted: false, reason: 'not_live' });
      expect(row).toMatchObject({ status: close === 'cancel' ? 'cancelled' : 'complete', answered: 9, credits_refunded: row.credits_per_answer });
      if (close === 'cancel') expect(closed).toMatchObject({ ok: true, value: { refundCredits: row.credits_per_answer } });
      else expect(closed).toMatchObject({ ok: true, value: true });
      seen.closeFirst++;
    }
    await expectSettled(q.id);
  }
  expect(await balanceRow(t.db, key.accountId)).toEqual({ available: seen.closeFirst * (PRICE / 10), reserved: 0 });
  await expectReconciled();
  return seen;
}

/** (e) more heads than places: exactly n answers are taken. */
async function moreHeadsThanPlaces(n: number, headCount: number) {
  const { actor, key } = await account(PRICE * 3);
  const q = await askQuestion(actor, n, 'crowd');
  const outcomes = await answerAll(q.id, freshHeads(headCount));
  expect(outcomes.filter((o) => o.accepted)).toHaveLength(n);
  expect(outcomes.filter((o) => o.completed)).toHaveLength(1);
  for (const o of outcomes.filter((o) => !o.accepted)) expect(o).toMatchObject({ accepted: false, state: 'full' });
  const row = await questionRow(t.db, q.id);
  expect(row).toMatchObject({ status: 'complete', answered: n, credits_spent: n * row.credits_per_answer, credits_refunded: 0 });
  expect(await refundRowsOf(t.db, q.id)).toEqual([]);
  expect((await t.db.selectFrom('answers').select('id').where('question_id', '=', q.id).execute()).length).toBe(n);
  expect(await balanceRow(t.db, key.accountId)).toEqual({ available: PRICE * 3 - row.credits_reserved, reserved: 0 });
  await expectSettled(q.id);
  await expectReconciled();
}

// ---------------------------------------------------------------------------------------------

describe.skipIf(!SERVER)('on PostgreSQL, in parallel (R7.2)', () => {
  it('(a) 50 identical asks with one Idempotency-Key: one question, one ask row; every answer the 201 or 409 idempotency_in_progress', async () => {
    const seen = await identicalAsks(50);
    console.info(`identical asks: ${seen.created} × 201, ${seen.busy} × 409 in progress`);
  });

  it('(b) 100 asks on credits for exactly 10: 10 succeed, 90 get 402 insufficient_credits, available ends at 0', async () => {
    await asksOnScarceCredits(100, 10);
  });

  it('(c) 30 asks on a key capped at 5 asks a day: 5 succeed, 25 get 402 spend_cap_exceeded, spend never above the cap', async () => {
    await asksCrossingTheCap(30, 5);
  });

  it('(d) cancel racing the last answer, 20 times: spent + refunded = reserved, at most one refund row', async () => {
    const seen = await closeRacingLastAnswer(20, 'cancel');
    console.info(`cancel vs last answer: ${JSON.stringify(seen)}`);
  });

  it('(d′) an early close (minAnswers 9) racing the 10th answer, 20 times: the same', async () => {
    const seen = await closeRacingLastAnswer(20, 'closeEarly');
    console.info(`closeEarly vs last answer: ${JSON.stringify(seen)}`);
  });

  it('(e) 30 heads answering an n=20 question at once: exactly 20 accepted, complete, nothing refunded beyond the hold', async () => {
    await moreHeadsThanPlaces(20, 30);
  });

  it('asks, answers, cancels and grants on one account at once: the balance is what the ledger and the holds say', async () => {
    const { actor, key } = await account(PRICE * 12);
    const live = [];
    for (let i = 0; i < 6; i++) live.push(await askQuestion(actor, 10, `mix-live-${i}`));
    const work: Array<Promise<unknown>> = [];
    for (let i = 0; i < 10; i++) work.push(outcome(t.container.asks.ask(actor, smallAsk(10), `mix-new-${i}`)));
    for (const q of live.slice(0, 3)) work.push(outcome(t.container.lifecycle.cancel(actor, q.id)));
    for (const q of live.slice(3)) work.push(answerAll(q.id, freshHeads(12)));
    work.push(t.container.credits.grant({ accountId: key.accountId, amount: PRICE, reason: 'Top up in the middle' }));
    const results = await Promise.all(work);
    const asked = (results.slice(0, 10) as Array<{ ok: boolean; code?: string }>).map((r) => (r.ok ? 'created' : r.code));
    expect(asked.filter((a) => a !== 'created' && a !== 'insufficient_credits')).toEqual([]);
    const questions = await questionRows(t.db, key.accountId);
    for (const q of questions) {
      if (q.status !== 'live') await expectSettled(q.id);
      else expect(q.credits_spent + q.credits_refunded).toBeLessThanOrEqual(q.credits_reserved);
    }
    const balance = await balanceRow(t.db, key.accountId);
    expect(balance.reserved).toBe(questions.reduce((s, q) => s + q.credits_reserved - q.credits_spent - q.credits_refunded, 0));
    await expectOneAskRowPerQuestion(key.accountId);
    await expectReconciled();
  });

  // The reservation is one statement (credits-reserve.repository.ts): its snapshot is taken before
  // it waits for the balance row, so a lot added meanwhile is missing from its first read of the
  // lots. It sees that the lots do not add up to the balance and reads them again, under the lock.
  it('an ask waiting for the balance row while a grant adds sooner-expiring credits spends those first', async () => {
    const { actor, key } = await account(PRICE * 5);
    const at = t.clock.now();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let granted!: () => void;
    const holding = new Promise<void>((resolve) => (granted = resolve));
    // A grant of credits that expire in two days, held open: the balance row stays locked until released.
    const grant = t.db.transaction().execute(async (tx) => {
      await sql`UPDATE balances SET available = available + ${PRICE} WHERE account_id = ${key.accountId}`.execute(tx);
      await sql`INSERT INTO ledger_entries (id, account_id, kind, state, amount, title, unique_ref, at)
        VALUES ('led_staleLotsGrant00000', ${key.accountId}, 'bonus', 'available', ${PRICE}, 'Bonus: expiring soon', 'grant:stale-lots', ${at})`.execute(tx);
      await sql`INSERT INTO credit_lots (id, account_id, entry_id, amount, remaining, expires_at)
        VALUES ('lot_staleLotsGrant00000', ${key.accountId}, 'led_staleLotsGrant00000', ${PRICE}, ${PRICE}, ${new Date(at.getTime() + 2 * 86_400_000)})`.execute(tx);
      granted();
      await released;
    });
    await holding;
    const asking = t.container.asks.ask(actor, smallAsk(10), 'while-granting');
    // Until the ask's reservation waits for the balance row.
    for (let i = 0; i < 200; i++) {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(t.db);
      if (rows[0].n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    release();
    await grant;
    const question = (await asking).body.question;
    expect(await t.db.selectFrom('lot_uses').select(['lot_id', 'amount']).where('question_id', '=', question.id).execute()).toEqual([{ lot_id: 'lot_staleLotsGrant00000', amount: PRICE }]);
    expect(await balanceRow(t.db, key.accountId)).toEqual({ available: PRICE * 5, reserved: PRICE });
    await expectReconciled();
  });

  it('10 add-heads requests (distinct keys) on one complete question: one reopens it, the others get 409 conflict', async () => {
    const { actor, key } = await account(PRICE * 10);
    const q = await askQuestion(actor, 10, 'to-reopen');
    await answerAll(q.id, freshHeads(10));
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => outcome(t.container.addHeads.addHeads(actor, q.id, { n: 2 }, `heads-${i}`))));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const r of results.filter((r) => !r.ok)) expect(r).toMatchObject({ ok: false, code: 'conflict' });
    const row = await questionRow(t.db, q.id);
    expect(row).toMatchObject({ status: 'live', n: 12, credits_reserved: PRICE + 2 * row.credits_per_answer });
    expect((await ledgerRows(t.db, key.accountId)).filter((r) => r.kind === 'ask')).toHaveLength(2);
    await expectReconciled();
  });

  it('the first private question of the day is free once, also when several are asked at the same moment', async () => {
    const { actor, key } = await account(PRICE * 20);
    const body = (i: number): AskBody => smallAsk(10, { privateDeclaration: { recipients: 10 + i } });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => t.container.asks.ask(actor, body(i), `private-${i}`)));
    const free = results.filter((r) => r.body.question.creditsPerAnswer === 0);
    expect(free.map((r) => r.body.question.id), 'questions that were free').toHaveLength(1);
    expect(await balanceRow(t.db, key.accountId)).toEqual({ available: PRICE * 20 - 9 * PRICE, reserved: 9 * PRICE });
    await expectReconciled();
  });

  // The parent's n-th answer locks the parent, spends (locks the balances row), closes, then locks
  // its follow-ups (questions.children … FOR UPDATE, live ones included); an answer on a follow-up
  // locks the follow-up, then spends (balances row): a lock-order cycle PostgreSQL breaks by
  // aborting one of them with "deadlock detected" (a 500 for the head or the caller).
  it('answers on a launched follow-up racing the close of its reopened parent never fail (no deadlock)', async () => {
    const rounds = 12;
    const { actor } = await account(PRICE * rounds * 4);
    const failures: string[] = [];
    for (let round = 0; round < rounds; round++) {
      const parent = await askQuestion(actor, 10, `parent-${round}`, {
        then: [{ type: 'single_choice', text: 'Would you download it this week?', options: [{ label: 'Yes' }, { label: 'No' }], n: 10, tier: 1 }],
      });
      const parentHeads = freshHeads(10);
      await answerAll(parent.id, parentHeads);
      const [child] = await t.db.selectFrom('questions').select(['id', 'status']).where('parent_id', '=', parent.id).execute();
      expect(child.status).toBe('live');
      // Reopen the parent for one more head, then race its last answer against answers on the follow-up.
      await t.container.addHeads.addHeads(actor, parent.id, { n: 1 }, `reopen-${round}`);
      const [extra] = freshHeads(1);
      const race = await Promise.allSettled([
        t.container.answers.record(parent.id, { headId: extra, source: 'panel', tier: headTier.get(extra)! }, { option: 0 }),
        ...parentHeads.slice(0, 5).map((h) => t.container.answers.record(child.id, { headId: h, source: 'panel', tier: headTier.get(h)! }, { option: 1 })),
      ]);
      for (const r of race) if (r.status === 'rejected') failures.push(`round ${round}: ${(r.reason as Error).message}`);
    }
    expect(failures).toEqual([]);
    await expectReconciled();
  }, 60_000);
});

describe.skipIf(!SERVER)('on PostgreSQL, follow-ups and their parent at once', () => {
  // The same cycle with a follow-up still waiting (draft): question:refuse locks it, then refunds
  // (balances row) while the parent's last answer holds the balances row and wants the follow-up.
  it('refusing a waiting follow-up while its parent takes its last answer never fails (no deadlock)', async () => {
    const rounds = 8;
    const { actor } = await account(PRICE * rounds * 2);
    const failures: string[] = [];
    for (let round = 0; round < rounds; round++) {
      const parent = await askQuestion(actor, 10, `refuse-parent-${round}`, {
        then: [{ type: 'single_choice', text: 'Would you download it this week?', options: [{ label: 'Yes' }, { label: 'No' }], n: 10, tier: 1 }],
      });
      const [child] = await t.db.selectFrom('questions').select(['id']).where('parent_id', '=', parent.id).execute();
      const [last, ...first] = freshHeads(10);
      await answerAll(parent.id, first);
      const race = await Promise.allSettled([
        t.container.answers.record(parent.id, { headId: last, source: 'panel', tier: headTier.get(last)! }, { option: 0 }),
        t.container.lifecycle.refuse(child.id, 'hate'),
      ]);
      for (const r of race) if (r.status === 'rejected') failures.push(`round ${round}: ${(r.reason as Error).message}`);
      for (const id of [parent.id, child.id]) if (!['live', 'draft'].includes((await questionRow(t.db, id)).status)) await expectSettled(id);
    }
    expect(failures).toEqual([]);
    await expectReconciled();
  }, 60_000);
});

describe('on any database, a light version', () => {
  it('(a) 20 identical asks with one Idempotency-Key make one question and one ask row, and no error', async () => {
    await identicalAsks(20);
  });

  it('(b) 20 asks on credits for 4: 4 succeed, 16 get insufficient_credits', async () => {
    await asksOnScarceCredits(20, 4);
  });

  it('(c) 12 asks on a key capped at 3 asks: 3 succeed, 9 get spend_cap_exceeded', async () => {
    await asksCrossingTheCap(12, 3);
  });

  it('(d) cancel racing the last answer, 4 times', async () => {
    await closeRacingLastAnswer(4, 'cancel');
  });

  it('(e) 14 heads on an n=10 question: exactly 10 accepted', async () => {
    await moreHeadsThanPlaces(10, 14);
  });
});
