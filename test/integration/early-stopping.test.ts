import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { askRaw, choiceDraft, errorOf, eventsOf, expectReconciled, fundedKey, getQuestion, ledgerRowsOf, money, NO_RATE_LIMITS, sleep, type Json } from '../helpers/questions.ts';

/**
 * Early stopping (issue 17; docs/early-stopping.md) as a requester meets it: a question asked with
 * `stopWhen`, answered through the answer link in a controlled order, stops exactly where the rule
 * says (8–0 settles, 7–0 does not, a tie runs to n), refunds the places not answered with a ledger
 * line a person can read, and its result says what was settled and why. Removals after review
 * re-read the rule on the answers left and withdraw a claim that no longer holds. Every response
 * goes through t.inject, so it is checked against the served /openapi.json too.
 */

let t: TestApp;
let key: TestKey;

beforeAll(async () => {
  t = await createTestApp({ env: { ...NO_RATE_LIMITS } });
  key = await fundedKey(t, 1_000_000);
});
afterAll(async () => {
  await Promise.race([t?.close(), sleep(5_000)]);
});

let clients = 0;
/** One person answering through the link: a fresh address and nonce each time. */
function linkAnswer(code: string, answer: Json): Promise<LightMyRequestResponse> {
  return t.inject({
    method: 'POST',
    url: `/v1/public/link/${code}/answers`,
    payload: { answer, nonce: randomUUID(), dwellMs: 3000, interrupted: false, locale: 'en-GB' },
    remoteAddress: `198.51.100.${(++clients % 250) + 1}`,
  });
}

/** Answers through the link in the given order, each expected to be taken; returns the last body. */
async function answerInOrder(code: string, answers: Json[]): Promise<Json> {
  let last: Json = {};
  for (const answer of answers) {
    const response = await linkAnswer(code, answer);
    expect(response.statusCode, response.body).toBe(200);
    last = response.json();
    expect(last.accepted, response.body).toBe(true);
  }
  return last;
}

async function askWith(draft: Json): Promise<Json> {
  const response = await askRaw(t, key, { draft });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().question;
}

async function resultOf(id: string): Promise<Json> {
  const response = await t.inject({ method: 'GET', url: `/v2/questions/${id}/result`, headers: key.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().result;
}

const times = (k: number, answer: Json) => Array.from({ length: k }, () => answer);
const A = { option: 0 };
const B = { option: 1 };

describe('stopWhen: leader', () => {
  it('an 8–0 start settles at the 8th answer, refunds the rest with a ledger line, and the result says why', async () => {
    const question = await askWith(choiceDraft({ n: 50, stopWhen: { rule: 'leader', confidence: 0.95, floor: 1 } }));
    expect(question.stopWhen).toEqual({ rule: 'leader', confidence: 0.95, floor: 1 });
    const per = question.creditsPerAnswer;
    const before = await money(t, key);

    await answerInOrder(question.linkCode, times(7, A));
    expect((await getQuestion(t, key, question.id)).status).toBe('live'); // 7–0: 2^7/8 = 16 < 20
    const eighth = await answerInOrder(question.linkCode, [A]);
    expect(eighth.state).toBe('closed');

    const closed = await getQuestion(t, key, question.id);
    expect(closed.status).toBe('complete');
    // The next person finds it closed, and pays nothing.
    const late = await linkAnswer(question.linkCode, A);
    expect(late.json()).toMatchObject({ accepted: false, state: 'closed' });

    const refund = (50 - 8) * per;
    const rows = await ledgerRowsOf(t, key, question.id);
    const refundRow = rows.find((row) => row.kind === 'refund');
    expect(refundRow).toMatchObject({ amount: refund, title: `Refund: settled after 8 of 50 answers; 42 × ${per} credits refunded` });
    // Measured after the ask: the hold of 50 answers is released, 8 were paid for.
    const after = await money(t, key);
    expect(after.reserved).toBe(before.reserved - 50 * per);
    expect(after.available).toBe(before.available + refund);
    expect(after.credits).toBe(before.credits - 8 * per);

    const result = await resultOf(question.id);
    expect(result.status).toBe('complete');
    expect(result.nAccepted).toBe(8);
    // The webhook event says it stopped early, with the Result's settlement.
    const completed = (await eventsOf(t, question.id)).filter((e) => e.type === 'question.completed');
    expect(completed).toHaveLength(1);
    expect(completed[0].data.refundCredits).toBe(refund);
    expect(completed[0].data.settlement).toEqual(result.settlement);
    expect(result.refundCredits).toBe(refund);
    const s = result.settlement;
    expect(s).toMatchObject({
      rule: 'leader', method: 'ppr_1v1', asked: true, confidence: 0.95, alpha: 0.05, points: null, floor: 1,
      stopped: true, settledAt: 8, nRequested: 50, leader: 'Penny', threshold: 20, refundedCredits: refund, withdrawn: false, intervals: 'anytime_valid',
    });
    expect(s.evidence).toBeCloseTo(256 / 9, 4); // B(9, 1)·2^8 = 2^8/9 ≈ 28.4
    expect(s.note).toMatch(/^Stopped early at 8 of 50 answers: Penny is the favourite/);
    // The summary does not speak of one-time intervals the result no longer shows.
    expect(result.summary.note).toBe('Penny leads with 8 of 8 answers (100%), 100 points ahead of Pocket; the lead is clear (settled by its stopping rule at 95%, valid however often it was checked).');
    // Anytime-valid intervals, all options together at 95%: wider than the Wilson interval of the same counts.
    const penny = result.distribution.find((d: Json) => d.option === 'Penny');
    expect(penny).toMatchObject({ count: 8, share: 1 });
    expect(penny.high).toBe(1);
    expect(penny.low).toBeLessThan(0.676); // Wilson 95% of 8/8 is [0.676, 1]
    expect(penny.low).toBeGreaterThan(0.3);
    await expectReconciled(t);
  });

  it('40 people answering at once: exactly 8 are taken and paid, the rest find it closed, the refund is exact', async () => {
    const question = await askWith(choiceDraft({ n: 50, stopWhen: { rule: 'leader', floor: 1 } }));
    const per = question.creditsPerAnswer;
    const responses = await Promise.all(Array.from({ length: 40 }, () => linkAnswer(question.linkCode, A)));
    expect(responses.every((r) => r.statusCode === 200)).toBe(true);
    const bodies = responses.map((r) => r.json());
    expect(bodies.filter((b) => b.accepted)).toHaveLength(8);
    expect(bodies.filter((b) => !b.accepted).every((b) => b.state === 'closed')).toBe(true);
    const result = await resultOf(question.id);
    expect(result).toMatchObject({ status: 'complete', nAccepted: 8, creditsSpent: 8 * per, refundCredits: 42 * per });
    expect(result.settlement).toMatchObject({ stopped: true, settledAt: 8, refundedCredits: 42 * per });
    const refunds = (await ledgerRowsOf(t, key, question.id)).filter((row) => row.kind === 'refund');
    expect(refunds).toEqual([expect.objectContaining({ amount: 42 * per, title: `Refund: settled after 8 of 50 answers; 42 × ${per} credits refunded` })]);
    await expectReconciled(t);
  });

  it('heads added after an early stop run to the new target: the rule is not read again, the settlement stays', async () => {
    const question = await askWith(choiceDraft({ n: 50, stopWhen: { rule: 'leader', floor: 1 } }));
    const per = question.creditsPerAnswer;
    await answerInOrder(question.linkCode, times(8, A));
    const added = await t.inject({ method: 'POST', url: `/v2/questions/${question.id}/heads`, headers: { ...key.auth, 'idempotency-key': randomUUID() }, payload: { n: 10 } });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().question).toMatchObject({ status: 'live', n: 18 });
    // Every one of the 10 is taken, though 9–0, 10–0… would each meet the rule again.
    await answerInOrder(question.linkCode, times(9, A));
    expect((await getQuestion(t, key, question.id)).status).toBe('live');
    await answerInOrder(question.linkCode, [B]);
    const result = await resultOf(question.id);
    expect(result).toMatchObject({ status: 'complete', nAccepted: 18, creditsSpent: 18 * per });
    expect(result.settlement).toMatchObject({ stopped: true, settledAt: 8, nRequested: 50, refundedCredits: 42 * per });
    const refunds = (await ledgerRowsOf(t, key, question.id)).filter((row) => row.kind === 'refund');
    expect(refunds.map((r) => r.title)).toEqual([`Refund: settled after 8 of 50 answers; 42 × ${per} credits refunded`]);
    await expectReconciled(t);
  });

  it('a 7–0 start does not settle; nor does a race that stays tied: it uses every answer', async () => {
    const question = await askWith(choiceDraft({ n: 20, stopWhen: { rule: 'leader', floor: 1 } }));
    await answerInOrder(question.linkCode, times(7, A));
    expect((await getQuestion(t, key, question.id)).status).toBe('live');
    // then B catches up and the race stays level to the end
    await answerInOrder(question.linkCode, [...times(7, B), ...Array.from({ length: 6 }, (_, i) => (i % 2 ? A : B))]);
    const closed = await getQuestion(t, key, question.id);
    expect(closed).toMatchObject({ status: 'complete', answered: 20 });
    const result = await resultOf(question.id);
    expect(result.settlement).toMatchObject({ asked: true, stopped: false, settledAt: null, refundedCredits: 0, intervals: 'wilson' });
    expect(result.settlement.note).toBe('Never settled: the race stayed close, so every answer was used.');
    expect((await ledgerRowsOf(t, key, question.id)).filter((r) => r.kind === 'refund')).toEqual([]);
  });

  it('waits for the floor: max(10, ⌈n/10⌉) by default', async () => {
    const question = await askWith(choiceDraft({ n: 100, stopWhen: { rule: 'leader' } }));
    await answerInOrder(question.linkCode, times(9, A)); // 9–0 would settle, but the floor is 10
    expect((await getQuestion(t, key, question.id)).status).toBe('live');
    await answerInOrder(question.linkCode, [A]);
    const result = await resultOf(question.id);
    expect(result.settlement).toMatchObject({ stopped: true, settledAt: 10, floor: 10, nRequested: 100, refundedCredits: 90 * question.creditsPerAnswer });
  });

  it('a question asked without stopWhen takes every answer, and its result says where it would have settled', async () => {
    const question = await askWith(choiceDraft({ n: 30 }));
    await answerInOrder(question.linkCode, [...times(20, A), ...times(10, B)]);
    const result = await resultOf(question.id);
    expect(result.status).toBe('complete');
    expect(result.settlement).toMatchObject({ asked: false, stopped: false, rule: 'leader', settledAt: 10, floor: 10, leader: 'Penny', refundedCredits: 0 });
    expect(result.settlement.note).toBe('Asked for all 30 answers (no stopWhen). Under the leader rule at 95% it would have settled at 10 answers: Penny is the favourite (evidence 93.09 to 1 against a tie, 20 needed).');
  });
});

describe('stopWhen: margin', () => {
  it('shares: stops once the leader is ahead of every other option by the points asked', async () => {
    const question = await askWith(
      choiceDraft({ n: 200, options: [{ label: 'Penny' }, { label: 'Pocket' }, { label: 'Purse' }], stopWhen: { rule: 'margin', points: 20, floor: 10 } }),
    );
    const order = Array.from({ length: 200 }, (_, i) => (i % 5 === 4 ? B : A)); // 80% Penny
    let i = 0;
    while ((await getQuestion(t, key, question.id)).status === 'live') await answerInOrder(question.linkCode, [order[i++]]);
    const result = await resultOf(question.id);
    const s = result.settlement;
    expect(s).toMatchObject({ rule: 'margin', method: 'beta_binomial_mixture', points: 20, stopped: true, leader: 'Penny', threshold: 20 });
    expect(s.settledAt).toBe(i);
    expect(s.settledAt).toBeLessThan(200);
    expect(s.evidence).toBeGreaterThanOrEqual(20);
    expect(result.refundCredits).toBe((200 - i) * question.creditsPerAnswer);
  });

  it('the 1–5 mean: stops when the mean is known to ± points stars', async () => {
    const question = await askWith({ type: 'scale_1_5', text: 'How easy was sign-up?', n: 300, stopWhen: { rule: 'margin', points: 0.5 } });
    let i = 0;
    while ((await getQuestion(t, key, question.id)).status === 'live') await answerInOrder(question.linkCode, [{ option: 3 + (i++ % 2) }]); // 4s and 5s
    const result = await resultOf(question.id);
    const s = result.settlement;
    expect(s).toMatchObject({ rule: 'margin', method: 'betting_dkelly', points: 0.5, stopped: true, leader: null });
    expect(s.settledAt).toBe(i);
    expect(s.evidence).toBeLessThanOrEqual(0.5);
    expect(s.interval.lower).toBeLessThanOrEqual(4.5);
    expect(s.interval.upper).toBeGreaterThanOrEqual(4.5);
    expect(result.mean).toBeGreaterThan(s.interval.lower);
  });
});

describe('saved drafts, templates and variants carry stopWhen', () => {
  it('a draft saved with stopWhen asks with it; a template takes one from `draft`; a variant keeps the original\'s', async () => {
    const stopWhen = { rule: 'margin', points: 10, confidence: 0.99 };
    const saved = await t.inject({ method: 'POST', url: '/v1/drafts', headers: key.auth, payload: choiceDraft({ stopWhen }) });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().draft.stopWhen).toEqual(stopWhen);
    // The ask's `draft` is a whole QuestionDraft (the spec), laid over the saved one: without stopWhen, the saved one's stays.
    const fromDraft = await askRaw(t, key, { fromDraftId: saved.json().id, draft: choiceDraft() });
    expect(fromDraft.statusCode, fromDraft.body).toBe(201);
    expect(fromDraft.json().question.stopWhen).toEqual(stopWhen);

    const fromTemplate = await askRaw(t, key, { templateId: 'tpl_name_pick', draft: choiceDraft({ stopWhen: { rule: 'leader' } }) });
    expect(fromTemplate.statusCode, fromTemplate.body).toBe(201);
    expect(fromTemplate.json().question.stopWhen).toEqual({ rule: 'leader' });

    const variant = await askRaw(t, key, { variantOf: fromDraft.json().question.id, draft: choiceDraft({ text: 'Which name is best for a budgeting app?' }) });
    expect(variant.statusCode, variant.body).toBe(201);
    expect(variant.json().question.stopWhen).toEqual(stopWhen);
  });
});

describe('the estimate', () => {
  it('says what the rule may save and what it costs; without stopWhen it says nothing of it', async () => {
    const draft = choiceDraft({ n: 200, stopWhen: { rule: 'leader' } });
    const response = await t.inject({ method: 'POST', url: '/v1/billing/estimate', payload: { draft } });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.validation).toEqual([]);
    const per = body.creditsPerAnswer;
    expect(body.creditsTotal).toBe(200 * per); // the whole n is reserved
    const stopping = body.earlyStopping;
    expect(stopping).toMatchObject({ rule: 'leader', confidence: 0.95, points: null, floor: 20 });
    const byLabel = Object.fromEntries(stopping.scenarios.map((s: Json) => [s.label, s]));
    expect(byLabel['90% for the leader']).toEqual({ label: '90% for the leader', stopsAt: 20, creditsSaved: 180 * per });
    expect(byLabel['70% for the leader'].stopsAt).toBe(55);
    expect(byLabel['a tie']).toEqual({ label: 'a tie', stopsAt: null, creditsSaved: 0 });
    expect(stopping.widthRatio).toBeGreaterThan(1.5);
    expect(stopping.note).toContain('a close race uses every answer');

    const plain = await t.inject({ method: 'POST', url: '/v1/billing/estimate', payload: { draft: choiceDraft({ n: 200 }) } });
    expect(plain.json().earlyStopping).toBeUndefined();
    // A rule the type cannot use is a validation item of the estimate, not a 400.
    const wrong = await t.inject({ method: 'POST', url: '/v1/billing/estimate', payload: { draft: { type: 'free_text', text: 'Why?', stopWhen: { rule: 'margin', points: 5 } } } });
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json().validation).toEqual([expect.objectContaining({ field: 'draft.stopWhen.rule', code: 'not_allowed' })]);
    expect(wrong.json().earlyStopping).toBeUndefined();
  });
});

describe('stopWhen: bad input is a 400 that changes nothing', () => {
  const cases: Array<[string, Json, string, string]> = [
    ['a rule the type has no use for', { type: 'free_text', text: 'Why?', stopWhen: { rule: 'leader' } }, 'draft.stopWhen.rule', 'not_allowed'],
    ['margin without points', choiceDraft({ stopWhen: { rule: 'margin' } }), 'draft.stopWhen.points', 'required'],
    ['points on the leader rule', choiceDraft({ stopWhen: { rule: 'leader', points: 5 } }), 'draft.stopWhen.points', 'not_allowed'],
    ['a floor above n', choiceDraft({ n: 20, stopWhen: { rule: 'leader', floor: 21 } }), 'draft.stopWhen.floor', 'out_of_range'],
    ['a 1–5 half-width above 1 star (± 2 is the whole scale, met before any answer)', { type: 'scale_1_5', text: 'Rate it', stopWhen: { rule: 'margin', points: 2 } }, 'draft.stopWhen.points', 'out_of_range'],
  ];
  for (const [what, draft, field, code] of cases) {
    it(what, async () => {
      const before = await money(t, key);
      const response = await askRaw(t, key, { draft });
      expect(response.statusCode, response.body).toBe(400);
      const error = errorOf(response);
      expect(error.code).toBe('validation_failed');
      expect(error.details.validation).toEqual(expect.arrayContaining([expect.objectContaining({ field, code })]));
      expect((await money(t, key)).available).toBe(before.available);
    });
  }

  it('a confidence outside 0.8 to 0.999, or an unknown rule, fails the schema', async () => {
    for (const stopWhen of [{ rule: 'leader', confidence: 0.5 }, { rule: 'soon' }, 'sometimes', { rule: 'leader', extra: 1 }]) {
      const response = await askRaw(t, key, { draft: choiceDraft({ stopWhen }) });
      expect(response.statusCode, `${JSON.stringify(stopWhen)} ${response.body}`).toBe(400);
      expect(errorOf(response).details.validation[0].field).toMatch(/^draft\.stopWhen/);
    }
    // An object hears about what is wrong inside it, not that it is not the string "never".
    const inside = await askRaw(t, key, { draft: choiceDraft({ stopWhen: { rule: 'leader', confidence: 1 } }) });
    expect(errorOf(inside).details.validation).toEqual([expect.objectContaining({ field: 'draft.stopWhen.confidence', code: 'out_of_range' })]);
    const neither = await askRaw(t, key, { draft: choiceDraft({ stopWhen: 5 }) });
    expect(errorOf(neither).details.validation).toEqual([{ field: 'draft.stopWhen', code: 'invalid_format', message: 'draft.stopWhen must be a string or an object.' }]);
  });
});

describe('removals after review re-read the rule', () => {
  it('a claim that no longer holds on the answers left is withdrawn, and says so; the refund stands', async () => {
    const question = await askWith(choiceDraft({ n: 40, stopWhen: { rule: 'leader', floor: 1 } }));
    await answerInOrder(question.linkCode, times(8, A));
    const settled = await resultOf(question.id);
    expect(settled.settlement).toMatchObject({ stopped: true, settledAt: 8 });
    const refund = settled.refundCredits;

    // Two answers removed in review: already the first leaves 7–0, which never meets the rule.
    const refs = settled.answers.slice(0, 2).map((a: Json) => a.attestationRef);
    for (const ref of refs) {
      const flagged = await t.inject({ method: 'POST', url: `/v2/questions/${question.id}/answers/${ref}/flag`, headers: key.auth, payload: { reason: 'automated' } });
      expect(flagged.statusCode, flagged.body).toBe(201);
      await t.container.moderation.decideFlag(flagged.json().flag.id, 'uphold');
    }
    const result = await resultOf(question.id);
    expect(result.nAccepted).toBe(6);
    expect(result.settlement).toMatchObject({ stopped: true, withdrawn: true, settledAt: 8, refundedCredits: refund, intervals: 'anytime_valid' });
    expect(result.summary.note).not.toContain('stopping rule');
    expect(result.settlement.note).toMatch(/^Withdrawn: after answers were removed in review, the 7 answers left never meet the rule, so the claim made at 8 answers no longer holds/);
    expect(result.settlement.note).toContain(`The refund of ${refund} credits stands.`);
    await expectReconciled(t);
  });

  it('a claim that still holds moves to where the answers left meet it', async () => {
    const question = await askWith(choiceDraft({ n: 40, stopWhen: { rule: 'leader', floor: 1 } }));
    // After one B, the A's need 11: 10–1 gives 2^11/132 ≈ 15.5, 11–1 gives 2^12/156 ≈ 26.3 ≥ 20.
    await answerInOrder(question.linkCode, [B, ...times(11, A)]);
    const settled = await resultOf(question.id);
    expect(settled.settlement).toMatchObject({ stopped: true, settledAt: 12 });
    const bRef = settled.answers.find((a: Json) => a.option === 'Pocket').attestationRef;
    const flagged = await t.inject({ method: 'POST', url: `/v2/questions/${question.id}/answers/${bRef}/flag`, headers: key.auth, payload: { reason: 'off_topic' } });
    await t.container.moderation.decideFlag(flagged.json().flag.id, 'uphold');
    const result = await resultOf(question.id);
    // Without the B, the A's alone met the rule at their 8th: the claim stands, earlier.
    expect(result.settlement).toMatchObject({ stopped: true, withdrawn: false, settledAt: 8 });
  });
});
