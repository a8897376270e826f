import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { answer, answerAll, ask, choiceDraft, DAY, errorOf, eventsOf, expectReconciled, failure, getQuestion, ledgerRowsOf, money, seedHeads, sleep, type Head, type Json, fundedKey, NO_RATE_LIMITS } from '../helpers/questions.ts';

/**
 * The life of a question (docs/lifecycle.md; spec "States and transitions"; RELIABILITY R3):
 * answers spend the hold, the n-th answer completes, cancel, scheduled → live, the open window
 * running out, refusal in review, adding heads; every close refunds what is left exactly once and
 * writes its event to the outbox.
 */
let t: TestApp;
let heads: Head[];
beforeAll(async () => {
  t = await createTestApp({ env: NO_RATE_LIMITS });
  heads = await seedHeads(t, 40);
});
afterAll(async () => {
  // Bounded: a request that deadlocked the embedded database would keep close() waiting forever.
  await Promise.race([t?.close(), sleep(5_000)]);
});

const START = 10_000;
const funded = (credits = START): Promise<TestKey> => fundedKey(t, credits);

const cancel = (key: TestKey, id: string) => t.inject({ method: 'POST', url: `/v2/questions/${id}/cancel`, headers: key.auth });

function rawAddHeads(key: TestKey, id: string, body: Json, idempotencyKey?: string) {
  return t.inject({ method: 'POST', url: `/v2/questions/${id}/heads`, headers: { ...key.auth, ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }) }, payload: body });
}

/**
 * POST /heads. A real request is preceded by a dry run at the same (fake) time, which leaves the
 * pool count in its 30-second cache: on the embedded database a real request that has to count
 * the pool deadlocks (the count runs on a second connection while the add-heads transaction holds
 * the only one; see the last test of this file), and that would hang every test after it.
 */
async function addHeads(key: TestKey, id: string, body: Json, idempotencyKey?: string) {
  if (body.dryRun !== true) await rawAddHeads(key, id, { ...body, dryRun: true });
  return rawAddHeads(key, id, body, idempotencyKey);
}

const refundRows = async (key: TestKey, id: string) => (await ledgerRowsOf(t, key, id)).filter((row) => row.kind === 'refund');

describe('answers', () => {
  it('each answer moves the counts and spends its share of the hold; available credits do not change', async () => {
    const key = await funded();
    const question = await ask(t, key, choiceDraft());
    for (let i = 1; i <= 3; i++) {
      const outcome = await answer(t, question.id, heads[i], { option: i % 2 });
      expect(outcome).toMatchObject({ accepted: true, state: 'live', attestationRef: expect.stringMatching(/^att_/) });
      expect(await getQuestion(t, key, question.id)).toMatchObject({ status: 'live', answered: i, creditsSpent: 12 * i });
      expect(await money(t, key)).toMatchObject({ credits: START - 12 * i, reserved: 120 - 12 * i, available: START - 120 });
    }
    expect((await getQuestion(t, key, question.id)).leaderLine).toBe('Pocket leads with 2 of 3 answers (67%)');
    await expectReconciled(t);
  });

  it('the n-th answer completes the question: closedAt, a question.completed event, nothing left to refund', async () => {
    const key = await funded();
    const question = await ask(t, key, choiceDraft());
    const outcomes = await answerAll(t, question.id, heads.slice(0, 10));
    expect(outcomes.slice(0, 9).every((o) => o.state === 'live' && !o.completed)).toBe(true);
    expect(outcomes[9]).toMatchObject({ accepted: true, completed: true, state: 'full' });
    expect(await getQuestion(t, key, question.id)).toMatchObject({ status: 'complete', answered: 10, creditsSpent: 120, closedAt: t.clock.now().toISOString() });

    const events = await eventsOf(t, question.id);
    expect(events.map((e) => e.type)).toEqual(['question.reserved', 'question.completed']);
    expect(events[1].data).toEqual({ question: await getQuestion(t, key, question.id), refundCredits: 0 });
    expect(events[1].data.question).toMatchObject({ status: 'complete', answered: 10, n: 10, creditsSpent: 120 });
    expect(await refundRows(key, question.id)).toEqual([]);
    expect(await money(t, key)).toMatchObject({ credits: START - 120, reserved: 0, available: START - 120 });

    // Nothing more is accepted or charged.
    expect(await answer(t, question.id, heads[20])).toEqual({ accepted: false, state: 'full', reason: 'not_live' });
    expect((await getQuestion(t, key, question.id)).answered).toBe(10);
    expect(await money(t, key)).toMatchObject({ credits: START - 120 });
    await expectReconciled(t);
  });

  it('a head answering twice is refused with already_answered and charged once', async () => {
    const key = await funded();
    const question = await ask(t, key, choiceDraft());
    expect(await answer(t, question.id, heads[5], { option: 0 })).toMatchObject({ accepted: true });
    expect(await answer(t, question.id, heads[5], { option: 1 })).toEqual({ accepted: false, state: 'live', reason: 'already_answered' });
    expect(await getQuestion(t, key, question.id)).toMatchObject({ answered: 1, creditsSpent: 12, leaderLine: 'Penny leads with 1 of 1 answers (100%)' });
    expect(await money(t, key)).toMatchObject({ credits: START - 12, reserved: 108 });
    await expectReconciled(t);
  });

  it.each([
    ['no option', {}],
    ['an option out of range', { option: 2 }],
    ['a field of another type', { option: 0, text: 'Hello' }],
    ['a reason the question does not ask for', { option: 0, reason: 'Because' }],
  ])('an answer with %s is a 400 validation error and nothing is recorded', async (_label, answerObject) => {
    const key = await funded();
    const question = await ask(t, key, choiceDraft());
    const error = await failure(answer(t, question.id, heads[1], answerObject as Json));
    expect(error).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(error.details!.validation).toEqual([expect.objectContaining({ field: expect.stringMatching(/^answer\./) })]);
    expect(await getQuestion(t, key, question.id)).toMatchObject({ answered: 0, creditsSpent: 0 });
    const stored = await t.db.selectFrom('answers').select('id').where('question_id', '=', question.id).execute();
    expect(stored).toEqual([]);
    // The head can still answer properly.
    expect(await answer(t, question.id, heads[1], { option: 1 })).toMatchObject({ accepted: true });
  });

  it('an unknown question is a not_found error', async () => {
    expect(await failure(answer(t, 'q_nope', heads[0]))).toMatchObject({ code: 'not_found' });
  });
});

describe('cancel', () => {
  it('refunds reserved − spent once, with a question.cancelled event; a second cancel is 409', async () => {
    const key = await funded();
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 3));
    t.clock.advance(5 * 60_000);

    const response = await cancel(key, question.id);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.refundCredits).toBe(120 - 36);
    expect(body.question).toMatchObject({ status: 'cancelled', answered: 3, creditsSpent: 36, closedAt: t.clock.now().toISOString() });
    expect(await getQuestion(t, key, question.id)).toEqual(body.question);

    expect(await refundRows(key, question.id)).toEqual([expect.objectContaining({ amount: 84, state: 'available' })]);
    expect(await money(t, key)).toMatchObject({ credits: START - 36, reserved: 0, available: START - 36 });
    const events = await eventsOf(t, question.id);
    expect(events.map((e) => e.type)).toEqual(['question.reserved', 'question.cancelled']);
    expect(events[1].data).toEqual({ question: body.question, refundCredits: 84 });

    const again = await cancel(key, question.id);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).code).toBe('conflict');
    expect(await answer(t, question.id, heads[10])).toMatchObject({ accepted: false, reason: 'not_live', state: 'closed' });
    expect(await refundRows(key, question.id)).toHaveLength(1);
    expect(await money(t, key)).toMatchObject({ credits: START - 36, reserved: 0 });
    await expectReconciled(t);
  });

  it('a complete question cannot be cancelled (409) and keeps its money', async () => {
    const key = await funded();
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 10));
    const response = await cancel(key, question.id);
    expect(response.statusCode).toBe(409);
    expect(await money(t, key)).toMatchObject({ credits: START - 120, reserved: 0 });
  });

  it('a scheduled question can be cancelled before it goes live: full refund, question.cancelled, and it never goes live', async () => {
    const key = await funded();
    const at = new Date(t.clock.now().getTime() + 3_600_000);
    const question = await ask(t, key, choiceDraft({ scheduledFor: at.toISOString() }));
    expect(await money(t, key)).toMatchObject({ reserved: 120 });
    const response = await cancel(key, question.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ refundCredits: 120, question: { status: 'cancelled', liveAt: null, creditsSpent: 0 } });
    expect(await money(t, key)).toMatchObject({ credits: START, reserved: 0, available: START });
    expect((await eventsOf(t, question.id)).map((e) => e.type)).toEqual(['question.reserved', 'question.cancelled']);

    t.clock.set(new Date(at.getTime() + 1_000));
    await t.container.lifecycle.sweep();
    expect(await t.container.lifecycle.goLive(question.id)).toBe(false);
    expect((await getQuestion(t, key, question.id)).status).toBe('cancelled');
    expect(await answer(t, question.id, heads[0])).toMatchObject({ accepted: false, reason: 'not_live' });
    await expectReconciled(t);
  });

  it('a follow-up waiting for its parent can be cancelled on its own: its credits come back, the parent goes on', async () => {
    const key = await funded();
    const parent = await ask(t, key, { draft: choiceDraft(), then: [{ text: 'Why did you pick that one?', n: 10 }] });
    // A client finds the follow-up through the list's parentId filter; it names its parent.
    const listed = await t.inject({ method: 'GET', url: `/v2/questions?parentId=${parent.id}`, headers: key.auth });
    expect(listed.statusCode, listed.body).toBe(200);
    const [child, ...more] = listed.json().questions;
    expect(more).toEqual([]);
    expect(child).toMatchObject({ parentId: parent.id, status: 'draft', text: 'Why did you pick that one?' });
    expect(parent).not.toHaveProperty('parentId');
    const before = await money(t, key);
    const response = await cancel(key, child.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ refundCredits: child.creditsReserved, question: { status: 'cancelled', parentId: parent.id } });
    expect(await money(t, key)).toMatchObject({ credits: before.credits, reserved: before.reserved - child.creditsReserved });
    expect((await getQuestion(t, key, parent.id)).status).toBe('live');
    await answerAll(t, parent.id, heads.slice(0, 10));
    expect((await getQuestion(t, key, parent.id)).status).toBe('complete');
    expect((await getQuestion(t, key, child.id)).status).toBe('cancelled');
    await expectReconciled(t);
  });

  it('a key without questions:write gets 403', async () => {
    const key = await funded();
    const question = await ask(t, key, choiceDraft());
    const reader = await t.makeKey(['questions:read'], null, { accountId: key.accountId });
    const response = await cancel(reader, question.id);
    expect(response.statusCode).toBe(403);
    expect((await getQuestion(t, key, question.id)).status).toBe('live');
  });
});

describe('timers: scheduled and open window', () => {
  it('a scheduled question goes live at its time (sweep), not before', async () => {
    const key = await funded();
    const at = new Date(t.clock.now().getTime() + 2 * 3_600_000);
    const question = await ask(t, key, choiceDraft({ scheduledFor: at.toISOString() }));
    expect(await answer(t, question.id, heads[0])).toEqual({ accepted: false, state: 'scheduled', reason: 'not_live' });

    t.clock.advance(3_600_000);
    await t.container.lifecycle.sweep();
    expect(await getQuestion(t, key, question.id)).toMatchObject({ status: 'scheduled', liveAt: null });

    t.clock.set(new Date(at.getTime() + 1_000));
    expect(await t.container.lifecycle.sweep()).toBeGreaterThanOrEqual(1);
    expect(await getQuestion(t, key, question.id)).toMatchObject({ status: 'live', liveAt: t.clock.now().toISOString() });
    expect(await answer(t, question.id, heads[0])).toMatchObject({ accepted: true });
    // Its 7-day window starts when it goes live, not when it was asked.
    t.clock.advance(7 * DAY - 60_000);
    await t.container.lifecycle.sweep();
    expect((await getQuestion(t, key, question.id)).status).toBe('live');
    t.clock.advance(120_000);
    await t.container.lifecycle.sweep();
    expect((await getQuestion(t, key, question.id)).status).toBe('underfilled');
    await expectReconciled(t);
  });

  it('after 7 days a live question closes underfilled, refunding the rest exactly once', async () => {
    const key = await funded();
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 4));
    t.clock.advance(7 * DAY - 1_000);
    await t.container.lifecycle.sweep();
    expect((await getQuestion(t, key, question.id)).status).toBe('live');

    t.clock.advance(2_000);
    await t.container.lifecycle.sweep();
    expect(await getQuestion(t, key, question.id)).toMatchObject({ status: 'underfilled', answered: 4, closedAt: t.clock.now().toISOString() });
    expect(await refundRows(key, question.id)).toEqual([expect.objectContaining({ amount: 72 })]);
    expect((await eventsOf(t, question.id)).map((e) => e.type)).toEqual(['question.reserved', 'question.underfilled']);

    // Timers and the sweep may both fire: still one refund, one event.
    await t.container.lifecycle.sweep();
    expect(await t.container.lifecycle.expire(question.id)).toBe(false);
    expect(await t.container.lifecycle.expire(question.id)).toBe(false);
    expect(await refundRows(key, question.id)).toHaveLength(1);
    expect((await eventsOf(t, question.id)).map((e) => e.type)).toEqual(['question.reserved', 'question.underfilled']);
    expect(await money(t, key)).toMatchObject({ credits: START - 48, reserved: 0 });
    expect(await answer(t, question.id, heads[30])).toMatchObject({ accepted: false, reason: 'not_live' });
    await expectReconciled(t);
  });

  it('expire before the window ends does nothing', async () => {
    const key = await funded();
    const question = await ask(t, key, choiceDraft());
    expect(await t.container.lifecycle.expire(question.id)).toBe(false);
    expect((await getQuestion(t, key, question.id)).status).toBe('live');
  });
});

describe('refuse (review)', () => {
  it('closes as refused with the category and refunds everything not yet spent', async () => {
    const key = await funded();
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 2));
    const refused = await t.container.lifecycle.refuse(question.id, 'personal_data');
    expect(refused).toMatchObject({ status: 'refused', refusedCategory: 'personal_data', closedAt: t.clock.now().toISOString() });
    expect(await getQuestion(t, key, question.id)).toMatchObject({ status: 'refused', refusedCategory: 'personal_data', creditsSpent: 24 });
    expect(await refundRows(key, question.id)).toEqual([expect.objectContaining({ amount: 96 })]);
    expect((await eventsOf(t, question.id)).map((e) => e.type)).toEqual(['question.reserved', 'question.refused']);
    expect(await money(t, key)).toMatchObject({ credits: START - 24, reserved: 0 });

    expect(await failure(t.container.lifecycle.refuse(question.id, 'hate'))).toMatchObject({ code: 'conflict' });
    expect(await refundRows(key, question.id)).toHaveLength(1);
    expect(await answer(t, question.id, heads[5])).toMatchObject({ accepted: false, reason: 'not_live' });
    await expectReconciled(t);
  });

  it('the result of a refused question has status cancelled (the Result enum has no refused): the answers given stay, the rest is refunded, wait is done (docs/results.md)', async () => {
    const key = await funded();
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 3), (i) => ({ option: i % 2 }));
    await t.container.lifecycle.refuse(question.id, 'personal_data');
    const read = await t.inject({ method: 'GET', url: `/v2/questions/${question.id}/result`, headers: key.auth });
    expect(read.statusCode, read.body).toBe(200);
    const { result } = read.json();
    expect(result).toMatchObject({ status: 'cancelled', nRequested: 10, nAccepted: 3, creditsSpent: 36, refundCredits: 84 });
    expect(result.answers).toHaveLength(3);
    expect(result.distribution.map((d: Json) => [d.option, d.count])).toEqual([['Penny', 2], ['Pocket', 1]]);
    // Where the refusal shows: the question's status and category.
    expect(await getQuestion(t, key, question.id)).toMatchObject({ status: 'refused', refusedCategory: 'personal_data' });
    const waited = await t.inject({ method: 'GET', url: `/v2/questions/${question.id}/wait?seconds=5`, headers: key.auth });
    expect(waited.json()).toMatchObject({ done: true, result: { status: 'cancelled' } });
    // A refused scheduled question: no answers, everything refunded.
    const scheduled = await ask(t, key, choiceDraft({ scheduledFor: new Date(t.clock.now().getTime() + 3_600_000).toISOString() }));
    await t.container.lifecycle.refuse(scheduled.id, 'hate');
    const empty = (await t.inject({ method: 'GET', url: `/v2/questions/${scheduled.id}/result`, headers: key.auth })).json().result;
    expect(empty).toMatchObject({ status: 'cancelled', nAccepted: 0, creditsSpent: 0, refundCredits: 120 });
  });

  it('a scheduled question can be refused, with a full refund', async () => {
    const key = await funded();
    const question = await ask(t, key, choiceDraft({ scheduledFor: new Date(t.clock.now().getTime() + 3_600_000).toISOString() }));
    await t.container.lifecycle.refuse(question.id, 'illegal');
    expect(await refundRows(key, question.id)).toEqual([expect.objectContaining({ amount: 120 })]);
    expect(await money(t, key)).toMatchObject({ credits: START, reserved: 0 });
    // And it does not go live later.
    t.clock.advance(2 * 3_600_000);
    await t.container.lifecycle.sweep();
    expect((await getQuestion(t, key, question.id)).status).toBe('refused');
    await expectReconciled(t);
  });
});

describe('POST /v2/questions/{id}/heads', () => {
  /** A question that closed underfilled with the first `answered` heads. */
  async function underfilled(key: TestKey, answered: number): Promise<Json> {
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, answered));
    t.clock.advance(7 * DAY + 1_000);
    await t.container.lifecycle.sweep();
    expect((await getQuestion(t, key, question.id)).status).toBe('underfilled');
    return question;
  }

  it('a dry run quotes and reserves nothing', async () => {
    const key = await funded();
    const question = await underfilled(key, 6);
    const before = await money(t, key);
    const response = await addHeads(key, question.id, { n: 5, dryRun: true });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body.quote).toMatchObject({ n: 5, creditsPerAnswer: 12, creditsTotal: 60, newTarget: 11 /* answered 6 + 5 more heads */, etaMinutes: expect.any(Number), line: expect.any(String) });
    expect(body.question).toBeUndefined();
    expect(body.creditsReserved).toBeUndefined();
    expect(await money(t, key)).toEqual(before);
    expect((await getQuestion(t, key, question.id)).status).toBe('underfilled');
  });

  it('without an Idempotency-Key a real request is 400 and reserves nothing', async () => {
    const key = await funded();
    const question = await underfilled(key, 6);
    const before = await money(t, key);
    for (const idempotencyKey of [undefined, '', 'k'.repeat(201)]) {
      const response = await addHeads(key, question.id, { n: 5 }, idempotencyKey);
      expect(response.statusCode, response.body).toBe(400);
      // One code for one mistake: the same error as the ask's (issue 8, point 15).
      expect(errorOf(response)).toMatchObject({ code: 'validation_failed', details: { validation: [{ field: 'idempotency-key' }] } });
    }
    expect(await money(t, key)).toEqual(before);
  });

  it("heads added to the day's free private question cost what a private question of its draft costs", async () => {
    const key = await funded();
    const body = { draft: choiceDraft(), privateDeclaration: { recipients: 5 } };
    const asked = await t.inject({ method: 'POST', url: '/v2/questions', headers: { ...key.auth, 'idempotency-key': randomUUID() }, payload: body });
    expect(asked.statusCode, asked.body).toBe(201);
    const question = asked.json().question;
    expect(question).toMatchObject({ creditsPerAnswer: 0, creditsReserved: 0 });
    // What the estimate says a private question of this draft costs (the day's free one is used now).
    const estimate = (await t.inject({ method: 'POST', url: '/v1/billing/estimate', payload: { draft: body.draft } })).json();
    const price = estimate.creditsPerAnswer as number;
    expect(price).toBeGreaterThan(0);
    t.clock.advance(7 * DAY + 1_000);
    await t.container.lifecycle.sweep();
    expect((await getQuestion(t, key, question.id)).status).toBe('underfilled');

    const quote = (await addHeads(key, question.id, { n: 500, dryRun: true })).json().quote;
    expect(quote).toMatchObject({ n: 500, creditsPerAnswer: price, creditsTotal: 500 * price });
    const added = await addHeads(key, question.id, { n: 5 }, randomUUID());
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ creditsReserved: 5 * price, question: { status: 'live', creditsPerAnswer: price, creditsReserved: 5 * price } });
    expect(await money(t, key)).toMatchObject({ credits: START, reserved: 5 * price });
    await expectReconciled(t);
  });

  it('reopens the question for n more; new answers merge, earlier heads are refused; the next close refunds once', async () => {
    const key = await funded();
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 10));
    const idempotencyKey = randomUUID();

    const response = await addHeads(key, question.id, { n: 5 }, idempotencyKey);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers['idempotent-replayed']).toBeUndefined();
    const body = response.json();
    expect(body.creditsReserved).toBe(60);
    expect(body.quote).toMatchObject({ n: 5, creditsPerAnswer: 12, creditsTotal: 60, newTarget: 15 });
    expect(body.question).toMatchObject({ status: 'live', n: 15, answered: 10, creditsReserved: 120 + 60, creditsSpent: 120, closedAt: null, text: question.text, options: question.options, targeting: question.targeting });
    expect(await getQuestion(t, key, question.id)).toEqual(body.question);
    expect(await money(t, key)).toMatchObject({ credits: START - 120, reserved: 60 });
    expect((await ledgerRowsOf(t, key, question.id)).map((r) => [r.kind, r.amount])).toEqual([['ask', -120], ['ask', -60]]);
    expect((await eventsOf(t, question.id)).map((e) => e.type)).toEqual(['question.reserved', 'question.completed', 'question.reserved']);

    // Heads who answered before cannot answer again; new heads' answers continue the count.
    expect(await answer(t, question.id, heads[0])).toMatchObject({ accepted: false, reason: 'already_answered' });
    await answerAll(t, question.id, heads.slice(10, 13));
    expect(await getQuestion(t, key, question.id)).toMatchObject({ status: 'live', answered: 13, creditsSpent: 156 });

    // Adding heads to a live question is a conflict.
    const live = await rawAddHeads(key, question.id, { n: 5 }, randomUUID());
    expect(live.statusCode).toBe(409);
    expect(errorOf(live).code).toBe('conflict');
    expect((await rawAddHeads(key, question.id, { n: 5, dryRun: true })).statusCode).toBe(409);

    // The reopened question closes after its new window: the rest of the new hold comes back, once.
    t.clock.advance(7 * DAY + 1_000);
    await t.container.lifecycle.sweep();
    await t.container.lifecycle.sweep();
    expect(await getQuestion(t, key, question.id)).toMatchObject({ status: 'underfilled', answered: 13 });
    expect((await refundRows(key, question.id)).map((r) => r.amount)).toEqual([24]);
    expect(await money(t, key)).toMatchObject({ credits: START - 156, reserved: 0 });
    await expectReconciled(t);
  });

  it('a complete question reopened for 2 more completes again with 2 new answers', async () => {
    const key = await funded();
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 10));
    const response = await addHeads(key, question.id, { n: 2 }, randomUUID());
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().question).toMatchObject({ status: 'live', n: 12, answered: 10 });
    await answerAll(t, question.id, heads.slice(20, 22));
    expect(await getQuestion(t, key, question.id)).toMatchObject({ status: 'complete', answered: 12, n: 12, creditsSpent: 144 });
    expect(await refundRows(key, question.id)).toEqual([]);
    expect((await eventsOf(t, question.id)).map((e) => e.type)).toEqual(['question.reserved', 'question.completed', 'question.reserved', 'question.completed']);
    expect(await money(t, key)).toMatchObject({ credits: START - 144, reserved: 0 });
    await expectReconciled(t);
  });

  it('an underfilled question reopened for n more heads holds exactly what its open answers cost, and fills without errors', async () => {
    const key = await funded();
    const question = await underfilled(key, 6); // 6 of 10 answered, 4 × 12 refunded
    const response = await addHeads(key, question.id, { n: 5 }, randomUUID());
    expect(response.statusCode, response.body).toBe(201);
    const reopened = response.json().question;
    expect(response.json().quote.newTarget).toBe(reopened.n);

    // What a user can check: the hold left (reserved − spent − refunded) pays for every answer still wanted.
    const refunded = (await refundRows(key, question.id)).reduce((sum, r) => sum + r.amount, 0);
    const hold = reopened.creditsReserved - reopened.creditsSpent - refunded;
    expect(hold).toBe((reopened.n - reopened.answered) * reopened.creditsPerAnswer);
    expect((await money(t, key)).reserved).toBe(hold);

    // New heads answer until the question is full; none of them gets an error.
    for (const head of heads.slice(10, 10 + reopened.n - reopened.answered)) {
      expect(await answer(t, question.id, head)).toMatchObject({ accepted: true });
    }
    expect(await getQuestion(t, key, question.id)).toMatchObject({ status: 'complete', answered: reopened.n });
    expect((await money(t, key)).reserved).toBe(0);
    await expectReconciled(t);
  });

  it('a replay with the same Idempotency-Key returns the same response and reserves once', async () => {
    const key = await funded();
    const question = await underfilled(key, 6);
    const idempotencyKey = randomUUID();
    const first = await addHeads(key, question.id, { n: 5 }, idempotencyKey);
    expect(first.statusCode).toBe(201);
    const afterFirst = await money(t, key);

    const replay = await addHeads(key, question.id, { n: 5 }, idempotencyKey);
    expect(replay.statusCode, replay.body).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    expect(await money(t, key)).toEqual(afterFirst);
  });

  it('is refused when the credits do not cover it (402), reserving nothing', async () => {
    const key = await funded(130);
    const question = await underfilled(key, 6);
    const before = await money(t, key);
    expect(before.available).toBe(130 - 72);
    const response = await addHeads(key, question.id, { n: 5 }, randomUUID());
    expect(response.statusCode).toBe(402);
    expect(errorOf(response).code).toBe('insufficient_credits');
    expect(await money(t, key)).toEqual(before);
    expect((await getQuestion(t, key, question.id)).status).toBe('underfilled');
  });

  it.each([0, 5001])('n=%s is 400', async (n) => {
    const key = await funded();
    const question = await underfilled(key, 6);
    expect((await addHeads(key, question.id, { n, dryRun: true })).statusCode).toBe(400);
  });

  // Last in the file on purpose: on the embedded database this request never answers and keeps the
  // only connection, so nothing after it could run.
  it('answers a real request whose pool count is not cached (no dry run just before)', async () => {
    const key = await funded();
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 10));
    t.clock.advance(60_000); // past the 30-second pool cache
    const outcome = await Promise.race([rawAddHeads(key, question.id, { n: 5 }, randomUUID()), sleep(5_000).then(() => 'no answer within 5 s' as const)]);
    expect(outcome === 'no answer within 5 s' ? outcome : outcome.statusCode).toBe(201);
  });
});
