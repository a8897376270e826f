import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { answerAll, ask, choiceDraft, DAY, errorOf, eventsOf, expectReconciled, failure, getQuestion, ledgerRowsOf, money, seedHeads, sleep, type Head, type Json, fundedKey, NO_RATE_LIMITS } from '../helpers/questions.ts';
import { adminCommands, serviceCommand } from '../../src/cli/admin-commands.ts';

/**
 * Flags, pins and disputes (docs/moderation.md; spec "Answer flag", POST …/flag, …/pin,
 * …/dispute; RELIABILITY R3.5 and R5.4): an upheld flag removes the answer from results and
 * refunds it through the ledger once, reconciliation stays clean, disputes only within 7 days of
 * closing (fake clock), and a decided dispute is in the outbox as dispute.resolved.
 */
let t: TestApp;
let heads: Head[];
beforeAll(async () => {
  t = await createTestApp({ env: NO_RATE_LIMITS });
  heads = await seedHeads(t, 40);
});
afterAll(async () => {
  await Promise.race([t?.close(), sleep(5_000)]);
});

const START = 10_000;
const funded = (credits = START): Promise<TestKey> => fundedKey(t, credits);

/** A question of n = 10 answered by `count` heads (reasons on, so answers are written); `per` is what one answer costs. */
async function answered(key: TestKey, count: number): Promise<{ question: Json; refs: string[]; per: number }> {
  const question = await ask(t, key, choiceDraft({ reason: 'optional' }));
  const outcomes = await answerAll(t, question.id, heads.slice(0, count), (i) => ({ option: i % 3 === 0 ? 1 : 0, reason: `Reason number ${i}` }));
  return { question, refs: outcomes.map((o) => o.attestationRef!), per: question.creditsPerAnswer };
}

const flag = (key: TestKey, id: string, ref: string, payload: Json = { reason: 'off_topic' }) =>
  t.inject({ method: 'POST', url: `/v2/questions/${id}/answers/${ref}/flag`, headers: key.auth, payload });
const pin = (key: TestKey, id: string, ref: string, payload: Json) => t.inject({ method: 'POST', url: `/v2/questions/${id}/answers/${ref}/pin`, headers: key.auth, payload });
const dispute = (key: TestKey, id: string, payload: Json = { reason: 'The answers look automated to me.' }) =>
  t.inject({ method: 'POST', url: `/v2/questions/${id}/dispute`, headers: key.auth, payload });
const readDispute = (key: TestKey, id: string) => t.inject({ method: 'GET', url: `/v2/questions/${id}/dispute`, headers: key.auth });
const resultOf = (key: TestKey, id: string) => t.container.results.forAccount(key.accountId, id);
const admin = (name: string, values: Record<string, string | boolean | undefined>) => serviceCommand(adminCommands[name]).run(t.container, values) as Promise<Json>;

describe('POST …/answers/{ref}/flag', () => {
  it('201 with an open flag whose refundCredits is what the answer cost; results carry it on that answer only', async () => {
    const key = await funded();
    const { question, refs, per } = await answered(key, 3);
    const response = await flag(key, question.id, refs[1], { reason: 'low_effort', note: 'One word.' });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json().flag;
    expect(created).toEqual({
      id: expect.stringMatching(/^flg_[0-9A-Za-z]{20}$/),
      attestationRef: refs[1],
      reason: 'low_effort',
      status: 'open',
      refundCredits: per,
      createdAt: t.clock.now().toISOString(),
      decidedAt: null,
    });
    const result = await resultOf(key, question.id);
    const byRef = new Map(result.answers.map((a) => [a.attestationRef, a]));
    expect(byRef.get(refs[1])!.flag).toEqual({ reason: 'low_effort', status: 'open', refundCredits: per, createdAt: created.createdAt, decidedAt: null });
    expect(byRef.get(refs[0])!.flag).toBeNull();
    // An open flag changes nothing else.
    expect(result.nAccepted).toBe(3);
    expect(await getQuestion(t, key, question.id)).toMatchObject({ answered: 3, creditsSpent: 3 * per });
  });

  it('a second flag while one is open is 409 conflict naming the open flag', async () => {
    const key = await funded();
    const { question, refs } = await answered(key, 2);
    const first = (await flag(key, question.id, refs[0])).json().flag;
    const second = await flag(key, question.id, refs[0], { reason: 'automated' });
    expect(second.statusCode).toBe(409);
    expect(errorOf(second)).toMatchObject({ code: 'conflict', details: { flagId: first.id } });
    expect(await t.container.moderation.listFlags({ questionId: question.id })).toHaveLength(1);
  });

  it.each([
    ['no reason', {}],
    ['an unknown reason', { reason: 'rude' }],
    ['a note over 500 characters', { reason: 'abusive', note: 'x'.repeat(501) }],
    ['an unknown property', { reason: 'abusive', status: 'upheld' }],
  ])('%s is a 400', async (_label, payload) => {
    const key = await funded();
    const { question, refs } = await answered(key, 1);
    const response = await flag(key, question.id, refs[0], payload as Json);
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response).code).toBe('validation_failed');
  });

  it("another account's question or answer, an unknown ref or another question's ref is 404 (R5.4)", async () => {
    const owner = await funded();
    const other = await funded();
    const { question, refs } = await answered(owner, 2);
    const { question: otherQuestion, refs: otherRefs } = await answered(other, 1);
    for (const [key, id, ref] of [
      [other, question.id, refs[0]],
      [owner, otherQuestion.id, otherRefs[0]],
      [owner, question.id, otherRefs[0]],
      [owner, question.id, 'att_doesnotexist00'],
      [owner, 'q_nope', refs[0]],
    ] as const) {
      const response = await flag(key, id, ref);
      expect(response.statusCode, `${id} ${ref}`).toBe(404);
      expect(errorOf(response).code).toBe('not_found');
    }
    for (const [key, id, ref] of [[other, question.id, refs[0]], [owner, question.id, otherRefs[0]]] as const) {
      expect((await pin(key, id, ref, { pinned: true })).statusCode).toBe(404);
    }
    expect(await t.container.moderation.listFlags({ questionId: question.id })).toEqual([]);
  });

  it('needs questions:write (403 insufficient_scope)', async () => {
    const key = await funded();
    const { question, refs } = await answered(key, 1);
    const reader = await t.makeKey(['questions:read'], null, { accountId: key.accountId });
    const response = await flag(reader, question.id, refs[0]);
    expect(response.statusCode).toBe(403);
    expect(errorOf(response).code).toBe('insufficient_scope');
  });
});

describe('flag review (flag:decide)', () => {
  it('upheld: the answer leaves results and counts, its credits come back once through the ledger, reconcile stays clean', async () => {
    const key = await funded();
    const { question, refs, per } = await answered(key, 10);
    expect(await getQuestion(t, key, question.id)).toMatchObject({ status: 'complete', answered: 10, creditsSpent: 10 * per });
    const before = await money(t, key);
    const removedRef = refs[0]; // option 1 ("Pocket")
    const { flag: created } = (await flag(key, question.id, removedRef, { reason: 'automated' })).json();

    t.clock.advance(60_000);
    const decided = await admin('flag:decide', { id: created.id, uphold: true });
    expect(decided).toMatchObject({ refundCredits: per, flag: { id: created.id, status: 'upheld', refundCredits: per, decidedAt: t.clock.now().toISOString() } });

    // Results: gone from answers, counts and distribution; `answered` keeps answers received.
    const result = await resultOf(key, question.id);
    expect(result.answers.map((a) => a.attestationRef)).not.toContain(removedRef);
    expect(result.answers).toHaveLength(9);
    expect(result.nAccepted).toBe(9);
    expect(result.distribution.reduce((sum, d) => sum + d.count, 0)).toBe(9);
    expect(result.distribution.find((d) => d.option === 'Pocket')!.count).toBe(3);
    expect(result.distribution.reduce((sum, d) => sum + d.share, 0)).toBeCloseTo(1, 10);
    expect(result.creditsSpent).toBe(9 * per);
    const q = await getQuestion(t, key, question.id);
    expect(q).toMatchObject({ answered: 10, creditsSpent: 9 * per });
    // The leader line counts the answers the result is about: 9, not the 10 received.
    expect(q.leaderLine).toBe('Penny leads with 6 of 9 answers (67%)');

    // Money: one refund row keyed by the flag; available grows by the answer's credits.
    const refunds = (await ledgerRowsOf(t, key, question.id)).filter((row) => row.kind === 'refund');
    expect(refunds).toEqual([expect.objectContaining({ kind: 'refund', state: 'available', amount: per, ref: question.id })]);
    const after = await money(t, key);
    expect(after).toMatchObject({ available: before.available + per, reserved: 0 });
    await expectReconciled(t);
    const entries = await t.db.selectFrom('ledger_entries').select('unique_ref').where('unique_ref', '=', `flag:${created.id}`).execute();
    expect(entries).toHaveLength(1);

    // Decided once: again is 409 and nothing moves; the removed answer can be neither flagged nor pinned.
    expect(await failure(admin('flag:decide', { id: created.id, dismiss: true }))).toMatchObject({ code: 'conflict', status: 409 });
    expect(await failure(admin('flag:decide', { id: created.id, uphold: true }))).toMatchObject({ code: 'conflict', status: 409 });
    expect((await flag(key, question.id, removedRef)).statusCode).toBe(409);
    expect((await pin(key, question.id, removedRef, { pinned: true })).statusCode).toBe(409);
    expect((await money(t, key)).available).toBe(after.available);
    await expectReconciled(t);

    // Through HTTP (validated against /openapi.json): the wait endpoint returns the same result.
    const waited = await t.inject({ method: 'GET', url: `/v2/questions/${question.id}/wait?seconds=1`, headers: key.auth });
    expect(waited.statusCode, waited.body).toBe(200);
    expect(waited.json()).toMatchObject({ done: true, result: { nAccepted: 9 } });
  });

  it('upheld while the question is live: the hold is untouched and the close refunds the rest as usual', async () => {
    const key = await funded();
    const { question, refs, per } = await answered(key, 4);
    const { flag: created } = (await flag(key, question.id, refs[2], { reason: 'abusive' })).json();
    await admin('flag:decide', { id: created.id, uphold: true });
    expect(await money(t, key)).toMatchObject({ reserved: 6 * per, available: START - 10 * per + per });
    await expectReconciled(t);

    const cancelled = await t.inject({ method: 'POST', url: `/v2/questions/${question.id}/cancel`, headers: key.auth });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().refundCredits).toBe(6 * per);
    // 4 answers were paid for, one was refunded: the account paid for 3.
    expect(await money(t, key)).toMatchObject({ reserved: 0, available: START - 3 * per });
    expect(await getQuestion(t, key, question.id)).toMatchObject({ answered: 4, creditsSpent: 3 * per });
    const result = await resultOf(key, question.id);
    expect(result).toMatchObject({ nAccepted: 3, creditsSpent: 3 * per, refundCredits: 7 * per });
    await expectReconciled(t);
  });

  it('dismissed: nothing moves; the answer stays with its dismissed flag and can be flagged again', async () => {
    const key = await funded();
    const { question, refs } = await answered(key, 3);
    const { flag: created } = (await flag(key, question.id, refs[0])).json();
    const before = await money(t, key);
    const decided = await admin('flag:decide', { id: created.id, dismiss: true });
    expect(decided).toMatchObject({ refundCredits: 0, flag: { status: 'dismissed', refundCredits: 0 } });
    expect(await money(t, key)).toEqual(before);
    const result = await resultOf(key, question.id);
    expect(result.nAccepted).toBe(3);
    expect(result.answers.find((a) => a.attestationRef === refs[0])!.flag).toMatchObject({ status: 'dismissed', refundCredits: 0, decidedAt: expect.any(String) });
    expect((await flag(key, question.id, refs[0], { reason: 'automated' })).statusCode).toBe(201);
    await expectReconciled(t);
  });

  // On the embedded database the requests queue up; on PostgreSQL they really run in parallel.
  it('concurrent flags of one answer: one 201, the rest 409; concurrent decisions: one wins, the refund is posted once (R3.5)', async () => {
    const key = await funded();
    const { question, refs, per } = await answered(key, 3);
    const statuses = (await Promise.all([0, 1, 2, 3].map(() => flag(key, question.id, refs[0])))).map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    const [open] = await t.container.moderation.listFlags({ questionId: question.id, status: 'open' });
    const before = await money(t, key);
    const outcomes = await Promise.allSettled([0, 1, 2].map(() => t.container.moderation.decideFlag(open.id, 'uphold')));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason.code)).toEqual(['conflict', 'conflict']);
    expect((await money(t, key)).available).toBe(before.available + per);
    await expectReconciled(t);
  });

  it('flag:decide needs exactly one of --uphold and --dismiss; an unknown flag is not_found; flag:list filters by status', async () => {
    expect(await failure(admin('flag:decide', { id: 'flg_x' }))).toMatchObject({ code: 'validation_failed' });
    expect(await failure(admin('flag:decide', { id: 'flg_x', uphold: true, dismiss: true }))).toMatchObject({ code: 'validation_failed' });
    expect(await failure(admin('flag:decide', { id: 'flg_nope', uphold: true }))).toMatchObject({ code: 'not_found' });
    const open = (await admin('flag:list', { status: 'open' })).flags as Json[];
    expect(open.length).toBeGreaterThan(0);
    expect(open.every((f) => f.status === 'open')).toBe(true);
    expect(await failure(admin('flag:list', { status: 'maybe' }))).toMatchObject({ code: 'validation_failed' });
  });
});

describe('POST …/answers/{ref}/pin', () => {
  it('pins and unpins; pinned answers come first in results', async () => {
    const key = await funded();
    const { question, refs } = await answered(key, 4);
    const response = await pin(key, question.id, refs[0], { pinned: true });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ pinned: true });
    let result = await resultOf(key, question.id);
    expect(result.answers[0]).toMatchObject({ attestationRef: refs[0], pinned: true });
    expect(result.answers.slice(1).every((a) => a.pinned === false)).toBe(true);

    expect((await pin(key, question.id, refs[0], { pinned: false })).json()).toEqual({ pinned: false });
    result = await resultOf(key, question.id);
    expect(result.answers[0].attestationRef).toBe(refs[3]); // newest first again
  });

  it('a body without pinned, with a non-boolean or with extra properties is a 400', async () => {
    const key = await funded();
    const { question, refs } = await answered(key, 1);
    for (const payload of [{}, { pinned: 'yes' }, { pinned: true, note: 'x' }]) {
      expect((await pin(key, question.id, refs[0], payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});

describe('POST /v2/questions/{id}/dispute', () => {
  it('409 while the question is open; 200 once closed; a second open dispute is 409', async () => {
    const key = await funded();
    const { question } = await answered(key, 2);
    const open = await dispute(key, question.id);
    expect(open.statusCode).toBe(409);
    expect(errorOf(open)).toMatchObject({ code: 'conflict', message: expect.stringContaining('still open') });

    expect((await t.inject({ method: 'POST', url: `/v2/questions/${question.id}/cancel`, headers: key.auth })).statusCode).toBe(200);
    expect((await readDispute(key, question.id)).json()).toEqual({ dispute: null, disputeBy: expect.any(String) });
    const ok = await dispute(key, question.id);
    expect(ok.statusCode, ok.body).toBe(200);
    const created = { id: expect.stringMatching(/^dsp_/), questionId: question.id, status: 'open', reason: 'The answers look automated to me.', createdAt: t.clock.now().toISOString(), decidedAt: null, decision: null, refundCredits: 0 };
    expect(ok.json()).toEqual({ ok: true, dispute: created });
    expect((await readDispute(key, question.id)).json().dispute).toEqual(ok.json().dispute);
    const again = await dispute(key, question.id, { reason: 'And another thing went wrong.' });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).message).toContain('already open');
    const stored = await t.container.moderation.listDisputes({ accountId: key.accountId });
    expect(stored).toEqual([expect.objectContaining({ questionId: question.id, status: 'open', reason: 'The answers look automated to me.' })]);
  });

  it('allowed up to 7 days after closing, 409 after (fake clock)', async () => {
    const key = await funded();
    const { question: early } = await answered(key, 10);
    const { question: late } = await answered(key, 10);
    const closedAt = new Date((await getQuestion(t, key, late.id)).closedAt).getTime();
    t.clock.set(new Date(closedAt + 7 * DAY));
    expect((await dispute(key, early.id)).statusCode).toBe(200);
    t.clock.advance(1);
    const tooLate = await dispute(key, late.id);
    expect(tooLate.statusCode).toBe(409);
    expect(errorOf(tooLate)).toMatchObject({ code: 'conflict', message: expect.stringContaining('more than 7 days after closing') });
    expect(errorOf(tooLate).details).toEqual({ closedAt: new Date(closedAt).toISOString(), disputeBy: new Date(closedAt + 7 * DAY).toISOString() });
  });

  it('a reason under 10 characters (spaces around it do not count), over 2000, or missing is a 400', async () => {
    const key = await funded();
    const { question } = await answered(key, 10);
    for (const payload of [{}, { reason: 'Too short' }, { reason: ' '.repeat(12) }, { reason: `  short   ` }, { reason: 'x'.repeat(2001) }, { reason: 'A long enough reason', extra: 1 }]) {
      const response = await dispute(key, question.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it("another account's question is 404 (R5.4); questions:read is not enough (403)", async () => {
    const owner = await funded();
    const other = await funded();
    const { question } = await answered(owner, 10);
    expect((await dispute(other, question.id)).statusCode).toBe(404);
    const reader = await t.makeKey(['questions:read'], null, { accountId: owner.accountId });
    expect((await dispute(reader, question.id)).statusCode).toBe(403);
  });

  it('GET …/dispute: questions:read reads it; another account gets 404; disputeBy is null while the question is open', async () => {
    const owner = await funded();
    const question = await ask(t, owner, choiceDraft());
    const reader = await t.makeKey(['questions:read'], null, { accountId: owner.accountId });
    expect((await readDispute(reader, question.id)).json()).toEqual({ dispute: null, disputeBy: null });
    expect((await readDispute(await funded(), question.id)).statusCode).toBe(404);
    const accountOnly = await t.makeKey(['account:read'], null, { accountId: owner.accountId });
    expect((await readDispute(accountOnly, question.id)).statusCode).toBe(403);
  });
});

describe('dispute review (dispute:decide, dispute:list)', () => {
  async function disputed(): Promise<{ key: TestKey; question: Json; disputeId: string }> {
    const key = await funded();
    const { question } = await answered(key, 10);
    expect((await dispute(key, question.id)).statusCode).toBe(200);
    const [stored] = await t.container.moderation.listDisputes({ accountId: key.accountId, status: 'open' });
    return { key, question, disputeId: stored.id };
  }

  it('upheld with --refund: one refund row, dispute.resolved in the outbox, reconcile clean; decided once', async () => {
    const { key, question, disputeId } = await disputed();
    const before = await money(t, key);
    const decided = await admin('dispute:decide', { id: disputeId, uphold: true, refund: '50', note: 'Several answers were off topic.' });
    expect(decided).toMatchObject({ refundCredits: 50, dispute: { id: disputeId, status: 'upheld', refundCredits: 50, decisionNote: 'Several answers were off topic.' } });
    expect((await money(t, key)).available).toBe(before.available + 50);
    const refunds = (await ledgerRowsOf(t, key, question.id)).filter((row) => row.kind === 'refund');
    expect(refunds).toEqual([expect.objectContaining({ amount: 50, title: 'Refund: dispute upheld' })]);
    expect(await getQuestion(t, key, question.id)).toMatchObject({ creditsSpent: 10 * question.creditsPerAnswer - 50 });
    await expectReconciled(t);

    // Read back without webhooks (extension: GET /v2/questions/{id}/dispute).
    const readBack = await readDispute(key, question.id);
    expect(readBack.statusCode).toBe(200);
    expect(readBack.json().dispute).toMatchObject({ id: disputeId, status: 'upheld', decision: 'Several answers were off topic.', refundCredits: 50, decidedAt: t.clock.now().toISOString() });
    // The event's data: the Dispute as that endpoint returns it, the question and the refund.
    const events = (await eventsOf(t, question.id)).filter((e) => e.type === 'dispute.resolved');
    expect(events).toEqual([{ type: 'dispute.resolved', data: { dispute: readBack.json().dispute, questionId: question.id, refundCredits: 50 } }]);

    expect(await failure(admin('dispute:decide', { id: disputeId, reject: true, note: 'Changed my mind.' }))).toMatchObject({ code: 'conflict', status: 409 });
    expect((await eventsOf(t, question.id)).filter((e) => e.type === 'dispute.resolved')).toHaveLength(1);
    const listed = (await admin('dispute:list', { status: 'upheld' })).disputes as Json[];
    expect(listed.map((d) => d.id)).toContain(disputeId);
  });

  it('a refund is capped at what the question still counts as spent (after an upheld flag too)', async () => {
    const key = await funded();
    const { question, refs, per } = await answered(key, 10);
    const { flag: created } = (await flag(key, question.id, refs[4])).json();
    await admin('flag:decide', { id: created.id, uphold: true });
    expect((await dispute(key, question.id)).statusCode).toBe(200);
    const [stored] = await t.container.moderation.listDisputes({ accountId: key.accountId, status: 'open' });
    const decided = await admin('dispute:decide', { id: stored.id, uphold: true, refund: '100000', note: 'Full refund.' });
    expect(decided).toMatchObject({ refundCredits: 9 * per, requestedRefund: 100000 });
    expect(await money(t, key)).toMatchObject({ available: START, reserved: 0 });
    expect(await getQuestion(t, key, question.id)).toMatchObject({ creditsSpent: 0 });
    await expectReconciled(t);
  });

  it('rejected: no money moves, dispute.resolved says so; --refund with --reject and a missing note are refused', async () => {
    const { key, question, disputeId } = await disputed();
    expect(await failure(admin('dispute:decide', { id: disputeId, reject: true, refund: '10', note: 'No.' }))).toMatchObject({ code: 'validation_failed' });
    expect(await failure(admin('dispute:decide', { id: disputeId, reject: true }))).toMatchObject({ code: 'validation_failed' });
    expect(await failure(admin('dispute:decide', { id: disputeId, note: 'Which one?' }))).toMatchObject({ code: 'validation_failed' });
    const before = await money(t, key);
    await admin('dispute:decide', { id: disputeId, reject: true, note: 'The answers meet our standards.' });
    expect(await money(t, key)).toEqual(before);
    const events = (await eventsOf(t, question.id)).filter((e) => e.type === 'dispute.resolved');
    expect(events.map((e) => e.data)).toEqual([{ dispute: (await readDispute(key, question.id)).json().dispute, questionId: question.id, refundCredits: 0 }]);
    expect(events[0].data.dispute).toMatchObject({ id: disputeId, status: 'rejected', decision: 'The answers meet our standards.', refundCredits: 0 });
    // Decided: a new dispute can be raised within the window.
    expect((await dispute(key, question.id, { reason: 'There is new evidence now.' })).statusCode).toBe(200);
    await expectReconciled(t);
  });
});
