import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type RawBuilder } from 'kysely';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { answer, ask, choiceDraft, expectReconciled, fundedKey, money, seedHeads, type Head, type Json } from '../helpers/questions.ts';
import { isServerRun } from '../helpers/test-database.ts';
import { countSocketWrites } from '../helpers/socket-writes.ts';
import type { RecordOutcome } from '../../src/modules/answers/answer-recording.service.ts';

/**
 * Group commit of answers (issue 15, answer-recording.service.ts): answers that arrive together
 * are written in one transaction, and each is still judged exactly as if it had come alone, in
 * arrival order: the places left, a head's earlier answers and variants, a nonce's first outcome,
 * the answer's own validity. What a batch shares is visible in the database: the rows one
 * transaction inserted carry its transaction id (`xmin`).
 */
let t: TestApp;
let heads: Head[];
let next = 0;
const fresh = (count: number) => heads.slice(next, (next += count));

beforeAll(async () => {
  t = await createTestApp({ env: { DATABASE_POOL_SIZE: '10' } });
  heads = (await seedHeads(t, 300)).filter((h) => h.tier === 1);
});
afterAll(async () => {
  await t?.close();
});

type Settled = { ok: true; value: RecordOutcome } | { ok: false; code: string };
const settle = (p: Promise<RecordOutcome>): Promise<Settled> => p.then((value) => ({ ok: true as const, value }), (error: { code?: string }) => ({ ok: false as const, code: error.code ?? String(error) }));

async function transactionsOf(questionIds: string[]): Promise<number> {
  const rows = await sql<{ n: number }>`SELECT count(DISTINCT xmin::text)::int AS n FROM answers WHERE question_id = any(${questionIds}::text[])`.execute(t.db);
  return rows.rows[0].n;
}

/** Holds the row lock `lock` takes (a SELECT … FOR UPDATE) in a transaction of its own until `release`. */
async function holdLock(lock: RawBuilder<unknown>): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const holding = new Promise<void>((resolve) => (locked = resolve));
  const holder = t.db.transaction().execute(async (tx) => {
    await lock.execute(tx);
    locked();
    await released;
  });
  await holding;
  return {
    async release() {
      release();
      await holder;
    },
  };
}

/** The database's backends waiting for a lock, once there is one (up to 3 s, or until `stop()`). */
async function lockWaiters(stop: () => boolean = () => false): Promise<number> {
  let waiting = 0;
  for (let i = 0; i < 300 && waiting === 0 && !stop(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    waiting = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(t.db)).rows[0].n;
  }
  return waiting;
}

describe('answers arriving together', () => {
  it('share a transaction; places, repeated heads, bad answers and unknown questions are judged one by one', async () => {
    const key = await fundedKey(t, 10_000);
    const small = await ask(t, key, choiceDraft({ n: 10 }));
    const roomy = await ask(t, key, choiceDraft({ n: 20 }));
    const before = await money(t, key);
    const crowd = fresh(16);
    const others = fresh(6);
    const calls = [
      ...crowd.map((h, i) => answer(t, small.id, h, { option: i % 2 })),
      ...others.map((h) => answer(t, roomy.id, h, { option: 1 })),
      answer(t, roomy.id, others[0], { option: 0 }), // the same head again
      answer(t, roomy.id, fresh(1)[0], { option: 7 }), // no such option
      answer(t, 'q_doesnotexist000000000000', fresh(1)[0]),
    ];
    const outcomes = await Promise.all(calls.map(settle));

    const onSmall = outcomes.slice(0, 16);
    expect(onSmall.filter((o) => o.ok && o.value.accepted)).toHaveLength(10);
    expect(onSmall.filter((o) => o.ok && o.value.completed)).toHaveLength(1);
    // After the 10th, as one at a time would: the question is complete, full.
    for (const o of onSmall.filter((o) => o.ok && !o.value.accepted)) expect(o).toEqual({ ok: true, value: { accepted: false, state: 'full', reason: 'not_live' } });
    expect(outcomes.slice(16, 22).every((o) => o.ok && o.value.accepted && o.value.state === 'live')).toBe(true);
    expect(outcomes[22]).toEqual({ ok: true, value: { accepted: false, state: 'live', reason: 'already_answered' } });
    expect(outcomes[23]).toEqual({ ok: false, code: 'validation_failed' });
    expect(outcomes[24]).toEqual({ ok: false, code: 'not_found' });

    const rows = await t.db.selectFrom('questions').select(['id', 'status', 'answered', 'credits_spent', 'credits_per_answer', 'tally']).where('id', 'in', [small.id, roomy.id]).orderBy('n').execute();
    expect(rows[0]).toMatchObject({ status: 'complete', answered: 10, credits_spent: 10 * rows[0].credits_per_answer });
    expect(rows[1]).toMatchObject({ status: 'live', answered: 6, credits_spent: 6 * rows[1].credits_per_answer, tally: { Pocket: 6 } });
    const stored = await t.db.selectFrom('answers').select(['question_id', 'option_label']).where('question_id', 'in', [small.id, roomy.id]).execute();
    expect(stored).toHaveLength(16);
    // The tally is the stored answers, counted.
    const smallTally: Json = {};
    for (const s of stored.filter((s) => s.question_id === small.id)) smallTally[s.option_label!] = (smallTally[s.option_label!] ?? 0) + 1;
    expect(rows[0].tally).toEqual(smallTally);
    // 25 calls, far fewer transactions (the first call of the event loop's turn may go alone).
    expect(await transactionsOf([small.id, roomy.id])).toBeLessThanOrEqual(3);

    // 16 answers' credits left the holds; nothing came back to available (the n-th answer leaves nothing to refund).
    const after = await money(t, key);
    expect(after.reserved).toBe(before.reserved - 16 * small.creditsPerAnswer);
    expect(after.available).toBe(before.available);
    await expectReconciled(t);
  });

  it('a nonce sent twice in one batch is recorded once; both calls get its attestation', async () => {
    const key = await fundedKey(t, 10_000);
    const q = await ask(t, key, choiceDraft({ n: 10 }));
    const nonce = randomUUID();
    const link = { headId: null, source: 'link' as const, tier: 1 };
    const [first, again, other] = await Promise.all([
      t.container.answers.record(q.id, link, { option: 0 }, { nonce, withQuestion: true }),
      t.container.answers.record(q.id, link, { option: 1 }, { nonce: nonce.toUpperCase(), withQuestion: true }),
      t.container.answers.record(q.id, link, { option: 1 }, { nonce: randomUUID(), withQuestion: true }),
    ]);
    expect(first).toMatchObject({ accepted: true, state: 'live', question: { answered: 1 } });
    expect(again).toMatchObject({ accepted: true, replayed: true, attestationRef: first.attestationRef, question: { answered: 1 } });
    expect(other).toMatchObject({ accepted: true, question: { answered: 2 } });
    const stored = await t.db.selectFrom('answers').select(['option_label', 'attestation_ref']).where('question_id', '=', q.id).orderBy('seq').execute();
    expect(stored).toEqual([
      { option_label: 'Penny', attestation_ref: first.attestationRef },
      { option_label: 'Pocket', attestation_ref: other.attestationRef },
    ]);
  });

  it('one head answering two variants of a question at once gets only the first', async () => {
    const key = await fundedKey(t, 10_000);
    const original = await ask(t, key, choiceDraft({ n: 10 }));
    const variant = await ask(t, key, { variantOf: original.id, draft: { type: 'single_choice', text: 'Which name sounds most trustworthy for a savings app?' } });
    const [head] = fresh(1);
    const [a, b] = await Promise.all([answer(t, original.id, head), answer(t, variant.id, head)]);
    expect(a).toMatchObject({ accepted: true });
    expect(b).toEqual({ accepted: false, state: 'live', reason: 'not_eligible' });
    await expectReconciled(t);
  });

  it('an answer whose row the database refuses fails alone: the rest of its batch is written', async () => {
    const key = await fundedKey(t, 10_000);
    const q = await ask(t, key, choiceDraft({ n: 10 }));
    // A stand-in for any statement error one answer can cause: the database refuses this one row.
    await sql`CREATE FUNCTION refuse_4242() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.dwell_ms = 4242 THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`.execute(t.db);
    await sql`CREATE TRIGGER refuse_4242 BEFORE INSERT ON answers FOR EACH ROW EXECUTE FUNCTION refuse_4242()`.execute(t.db);
    try {
      const link = { headId: null, source: 'link' as const, tier: 1 };
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) => settle(t.container.answers.record(q.id, link, { option: i % 2 }, { nonce: randomUUID(), dwellMs: i === 3 ? 4242 : 1000 + i }))),
      );
      expect(outcomes[3].ok).toBe(false);
      expect(outcomes.filter((o) => o.ok && o.value.accepted)).toHaveLength(7);
      const row = await t.db.selectFrom('questions').select(['answered']).where('id', '=', q.id).executeTakeFirstOrThrow();
      expect(row.answered).toBe(7);
      const stored = await t.db.selectFrom('answers').select('dwell_ms').where('question_id', '=', q.id).execute();
      expect(stored.map((s) => s.dwell_ms).sort()).toEqual([1000, 1001, 1002, 1004, 1005, 1006, 1007]);
    } finally {
      await sql`DROP TRIGGER refuse_4242 ON answers`.execute(t.db);
      await sql`DROP FUNCTION refuse_4242()`.execute(t.db);
    }
    await expectReconciled(t);
  });

  it('answers to questions of several accounts move each balance by its own answers only', async () => {
    const keys = await Promise.all([fundedKey(t, 5_000), fundedKey(t, 5_000), fundedKey(t, 5_000)]);
    const questions = [];
    for (const key of keys) questions.push(await ask(t, key, choiceDraft({ n: 10 })));
    const before = await Promise.all(keys.map((k) => money(t, k)));
    const counts = [3, 5, 7];
    await Promise.all(questions.flatMap((q, i) => fresh(counts[i]).map((h) => answer(t, q.id, h))));
    for (const [i, key] of keys.entries()) {
      const now = await money(t, key);
      expect(now.reserved).toBe(before[i].reserved - counts[i] * questions[i].creditsPerAnswer);
      expect(now.available).toBe(before[i].available);
    }
    expect(await transactionsOf(questions.map((q) => q.id))).toBeLessThanOrEqual(2);
    await expectReconciled(t);
  });

  it('a batch that completes no question writes in one statement: BEGIN, the insert carrying its counts and spends, with COMMIT', async () => {
    const keys = [await fundedKey(t, 5_000), await fundedKey(t, 5_000)];
    const questions = [await ask(t, keys[0], choiceDraft({ n: 20 })), await ask(t, keys[1], choiceDraft({ n: 20 }))];
    const before = await Promise.all(keys.map((k) => money(t, k)));
    const writes = t.database.writes();
    const outcomes = await Promise.all(questions.flatMap((q) => fresh(4).map((h, i) => answer(t, q.id, h, { option: i % 2 }))));
    expect(outcomes.every((o) => o.accepted)).toBe(true);
    const transactions = await transactionsOf(questions.map((q) => q.id));
    // Four writes a transaction (the question locks and the heads' checks are reads): BEGIN, the
    // insert, the COMMIT sent with it, and Kysely's COMMIT that one answers (db/pipelined-begin.ts);
    // six before the counts and the spends rode in the insert.
    expect(t.database.writes() - writes).toBe(4 * transactions);
    const rows = await t.db.selectFrom('questions').select(['answered', 'credits_spent', 'tally']).where('id', 'in', questions.map((q) => q.id)).execute();
    for (const row of rows) expect(row).toMatchObject({ answered: 4, credits_spent: 4 * questions[0].creditsPerAnswer, tally: { Penny: 2, Pocket: 2 } });
    for (const [i, key] of keys.entries()) expect(await money(t, key)).toMatchObject({ reserved: before[i].reserved - 4 * questions[i].creditsPerAnswer, available: before[i].available });
    await expectReconciled(t);
  });

  // The insert sends one array per column (answers.repository.ts insertStatement): each row must
  // still get its own values, its profile's tags among them (slices of one flat array), in order.
  it('a batch stores each answer as given, in arrival order: its head\'s tags, its words, its nulls', async () => {
    const key = await fundedKey(t, 10_000);
    const q = await ask(t, key, choiceDraft({ n: 20, reason: 'optional' }));
    const [plain, tagged, quoted] = fresh(3);
    const tagsOf = { [plain.id]: [] as string[], [tagged.id]: ['cyclist', 'parent'], [quoted.id]: ['a,b', 'say "hi"', 'back\\slash', '{braces}'] };
    for (const [id, tags] of Object.entries(tagsOf)) await sql`UPDATE heads SET tags = ${tags}::text[] WHERE id = ${id}`.execute(t.db);
    const link = { headId: null, source: 'link' as const, tier: 1 };
    const nonce = randomUUID();
    const outcomes = await Promise.all([
      answer(t, q.id, tagged, { option: 1, reason: 'Short, "easy" to say, and it\'s a pun' }),
      t.container.answers.record(q.id, link, { option: 0 }, { nonce, dwellMs: 2500, locale: 'de-DE', interrupted: true }),
      answer(t, q.id, plain),
      answer(t, q.id, quoted, { option: 0, reason: '' }),
    ]);
    expect(outcomes.every((o) => o.accepted)).toBe(true);
    expect(await transactionsOf([q.id])).toBeLessThanOrEqual(2);
    const rows = await t.db.selectFrom('answers')
      .select(['head_id', 'source', 'tags', 'option_label', 'reason', 'nonce', 'dwell_ms', 'locale', 'interrupted', 'attestation_ref', 'credits'])
      .where('question_id', '=', q.id).orderBy('seq').execute();
    expect(rows).toEqual([
      { head_id: tagged.id, source: 'panel', tags: ['cyclist', 'parent'], option_label: 'Pocket', reason: 'Short, "easy" to say, and it\'s a pun', nonce: null, dwell_ms: null, locale: null, interrupted: false, attestation_ref: outcomes[0].attestationRef, credits: q.creditsPerAnswer },
      { head_id: null, source: 'link', tags: [], option_label: 'Penny', reason: null, nonce, dwell_ms: 2500, locale: 'de-DE', interrupted: true, attestation_ref: outcomes[1].attestationRef, credits: q.creditsPerAnswer },
      { head_id: plain.id, source: 'panel', tags: [], option_label: 'Penny', reason: null, nonce: null, dwell_ms: null, locale: null, interrupted: false, attestation_ref: outcomes[2].attestationRef, credits: q.creditsPerAnswer },
      { head_id: quoted.id, source: 'panel', tags: ['a,b', 'say "hi"', 'back\\slash', '{braces}'], option_label: 'Penny', reason: null, nonce: null, dwell_ms: null, locale: null, interrupted: false, attestation_ref: outcomes[3].attestationRef, credits: q.creditsPerAnswer },
    ]);
    await expectReconciled(t);
  });

  // The spends ride in the insert's statement (credits-balances.repository.ts spendReservedRider):
  // the balances are still locked in account order, the order every writer of several keeps. Held
  // on the lower account, the batch must wait for it before it takes the higher one.
  it.skipIf(!isServerRun())('on PostgreSQL: a batch spending from several accounts takes their balance locks in account order', async () => {
    const keys = [await fundedKey(t, 5_000), await fundedKey(t, 5_000)].sort((a, b) => (a.accountId < b.accountId ? -1 : 1));
    const [low, high] = [await ask(t, keys[0], choiceDraft({ n: 20 })), await ask(t, keys[1], choiceDraft({ n: 20 }))];
    const holder = await holdLock(sql`SELECT 1 FROM balances WHERE account_id = ${keys[0].accountId} FOR UPDATE`);
    // The higher account's answer first: should it go alone, it commits at once, and the next batch holds both accounts.
    const answering = Promise.all([answer(t, high.id, fresh(1)[0]), ...fresh(3).map((h) => answer(t, low.id, h)), ...fresh(3).map((h) => answer(t, high.id, h))]);
    expect(await lockWaiters(), 'the batch waits for the lower balance').toBe(1);
    // The higher balance is free while the batch waits for the lower one (NOWAIT fails at once if it is held).
    await t.db.transaction().execute((tx) => sql`SELECT 1 FROM balances WHERE account_id = ${keys[1].accountId} FOR UPDATE NOWAIT`.execute(tx));
    await holder.release();
    expect((await answering).every((o) => o.accepted)).toBe(true);
    const answered = await t.db.selectFrom('questions').select(['id', 'answered']).where('id', 'in', [low.id, high.id]).execute();
    expect(Object.fromEntries(answered.map((q) => [q.id, q.answered]))).toEqual({ [low.id]: 3, [high.id]: 4 });
    await expectReconciled(t);
  });

  // "One answer per head in a variant group" spans rows (each variant is a question of its own):
  // another process could be writing the same head's answer to another variant. The group's first
  // question is its lock (questions.repository.ts lockForAnswers), so the two are written one after
  // the other and the second's check sees the first.
  it.skipIf(!isServerRun())('on PostgreSQL: an answer to a variant waits for the lock of its group\'s first question', async () => {
    const key = await fundedKey(t, 10_000);
    const original = await ask(t, key, choiceDraft({ n: 10 }));
    const variant = await ask(t, key, { variantOf: original.id, draft: { type: 'single_choice', text: 'Which name sounds calmest for a savings app?' } });
    const holder = await holdLock(sql`SELECT 1 FROM questions WHERE id = ${original.id} FOR UPDATE`);
    let settled = false;
    const answering = answer(t, variant.id, fresh(1)[0]).finally(() => (settled = true));
    const waiting = await lockWaiters(() => settled);
    expect({ settled, waiting }, 'the variant\'s answer waits for the group\'s first question').toEqual({ settled: false, waiting: 1 });
    await holder.release();
    expect(await answering).toMatchObject({ accepted: true });
    await expectReconciled(t);
  });
});

// A batch reads under its questions' locks: the nonces seen before and the heads' checks. For a
// question the recorder has locked before, whose reach (targeting, tier, audience) it keeps, the
// checks leave with the lock in one round trip (db/one-round-trip.ts); its first batch checks
// after the lock has told the reach. A batch that closes nothing sends its COMMIT with its
// insert. Counted on the socket of an app with one connection.
describe("a batch's reads under its locks", () => {
  let one: TestApp;
  let panel: Head[];
  beforeAll(async () => {
    one = await createTestApp({ env: { DATABASE_POOL_SIZE: '1' } });
    panel = (await seedHeads(one, 300)).filter((h) => h.tier === 1);
  });
  afterAll(async () => {
    await one?.close();
  });

  it('go with the lock once the question is known, and judge every head as before', async () => {
    const key = await fundedKey(one, 5_000);
    const question = await ask(one, key, choiceDraft({ n: 10, targeting: { countries: ['GB'], tags: [] } }));
    const british = panel.filter((h) => h.country === 'GB');
    const foreign = panel.find((h) => h.country !== 'GB')!;
    const socket = await countSocketWrites(one.database.pool);
    // The first answer: BEGIN with the lock, the heads' checks, the insert with COMMIT (two writes, one round trip).
    expect(await socket.during(() => answer(one, question.id, british[0]).then((o) => expect(o).toMatchObject({ accepted: true })))).toEqual({ writes: 4, roundTrips: 3 });
    // Known now: BEGIN with the lock and the checks, the insert with COMMIT.
    expect(await socket.during(() => answer(one, question.id, british[1]).then((o) => expect(o).toMatchObject({ accepted: true })))).toEqual({ writes: 3, roundTrips: 2 });
    // Checked with the lock, still judged exactly: a head the targeting leaves out, a head again.
    expect(await answer(one, question.id, foreign)).toEqual({ accepted: false, state: 'live', reason: 'not_eligible' });
    expect(await answer(one, question.id, british[1])).toEqual({ accepted: false, state: 'live', reason: 'already_answered' });
    const row = await one.db.selectFrom('questions').select(['answered', 'tally']).where('id', '=', question.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ answered: 2, tally: { Penny: 2 } });
    await expectReconciled(one);
  });
});
