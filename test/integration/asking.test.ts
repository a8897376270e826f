import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { answer, answerAll, ask, askRaw, balanceOf, choiceDraft, DAY, errorOf, estimate, eventsOf, expectReconciled, getQuestion, grant, ledgerRowsOf, money, seedHeads, type Head, type Json, fundedKey, NO_RATE_LIMITS } from '../helpers/questions.ts';

/**
 * Asking (spec "POST /v2/questions", "Errors", "Limits"; docs/asking.md; RELIABILITY R1, R3):
 * the reservation equals the estimate, idempotency keys, errors that spend nothing, and what
 * templateId, fromDraftId, variantOf, then, privateDeclaration and projectId do.
 */
let t: TestApp;
let heads: Head[];
beforeAll(async () => {
  t = await createTestApp({ env: NO_RATE_LIMITS });
  heads = await seedHeads(t, 60);
});
afterAll(async () => {
  await t?.close();
});

/** A new account with credits and one key. */
const funded = (credits = 10_000, cap: number | null = null): Promise<TestKey> => fundedKey(t, credits, cap);

/** Balance and ledger, for "nothing was spent" comparisons. */
async function snapshot(key: TestKey) {
  return { balance: await balanceOf(t, key), money: await money(t, key) };
}

async function questionCount(accountId: string): Promise<number> {
  const row = await t.db.selectFrom('questions').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('the ask', () => {
  it('creates a live api question reserving exactly the estimate, with an ask row and a question.reserved event', async () => {
    const key = await funded(10_000);
    const draft = choiceDraft({ n: 40, tier: 2, reason: 'optional', targeting: { countries: ['GB', 'DE'], tags: [], ageBands: ['25-34'] } });
    const quoted = await estimate(t, draft);

    const response = await askRaw(t, key, { draft, labels: ['naming'] });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers['idempotent-replayed']).toBeUndefined();
    const question = response.json().question;
    expect(question).toMatchObject({
      status: 'live',
      source: 'api',
      type: 'single_choice',
      text: draft.text,
      options: draft.options,
      n: 40,
      tier: 2,
      reason: 'optional',
      targeting: draft.targeting,
      answered: 0,
      creditsSpent: 0,
      creditsPerAnswer: quoted.creditsPerAnswer,
      creditsReserved: quoted.creditsTotal,
      labels: ['naming'],
      liveAt: t.clock.now().toISOString(),
      createdAt: t.clock.now().toISOString(),
      closedAt: null,
      archived: false,
      bookmarked: false,
      askedBy: { id: key.keyId, name: expect.any(String) },
    });
    expect(question.id).toMatch(/^q_/);
    expect(await getQuestion(t, key, question.id)).toEqual(question);

    const after = await money(t, key);
    expect(after).toMatchObject({ credits: 10_000, reserved: quoted.creditsTotal, available: 10_000 - quoted.creditsTotal });
    expect(after.ledger[0]).toMatchObject({ kind: 'ask', amount: -quoted.creditsTotal, ref: question.id, state: 'paid' });
    expect(after.ledger).toHaveLength(2);
    expect((await eventsOf(t, question.id)).map((e) => e.type)).toEqual(['question.reserved']);
    await expectReconciled(t);
  });

  it('reserves the follow-ups with the question: the ask row is the sum of their estimates', async () => {
    const key = await funded(10_000);
    const draft = choiceDraft();
    const then = [
      { text: 'Why did you pick that name?' },
      { type: 'single_choice', text: 'Would you download an app with that name?', options: [{ label: 'Yes' }, { label: 'No' }], n: 30, tier: 1, minConfidence: 'medium' },
    ];
    // A follow-up defaults to free_text, n 20, tier 2 (docs/asking.md).
    const prices = [await estimate(t, draft), await estimate(t, { type: 'free_text', text: then[0].text, n: 20, tier: 2 }), await estimate(t, { type: 'single_choice', text: then[1].text, options: then[1].options, n: 30, tier: 1 })];
    const total = prices.reduce((sum, p) => sum + p.creditsTotal, 0);

    const question = await ask(t, key, { draft, then });
    expect(question.creditsReserved).toBe(prices[0].creditsTotal);
    const after = await money(t, key);
    expect(after.reserved).toBe(total);
    expect(after.ledger[0]).toMatchObject({ kind: 'ask', amount: -total, ref: question.id });

    // The follow-ups are listed as drafts, each holding its own price.
    const list = (await t.inject({ method: 'GET', url: '/v2/questions?status=draft', headers: key.auth })).json().questions;
    expect(list.map((q: Json) => [q.type, q.text, q.n, q.tier, q.creditsReserved]).sort()).toEqual(
      [
        ['free_text', then[0].text, 20, 2, prices[1].creditsTotal],
        ['single_choice', then[1].text, 30, 1, prices[2].creditsTotal],
      ].sort(),
    );
    await expectReconciled(t);
  });

  it('writes credits.low when an ask takes available credits below 1,000', async () => {
    const key = await funded(1_100);
    const first = await ask(t, key, choiceDraft()); // 980 left
    const second = await ask(t, key, choiceDraft()); // already below: no second warning
    const types = async (id: string) => (await t.db.selectFrom('outbox_events').select('type').where((eb) => eb.or([eb('unique_ref', 'like', `${id}:%`), eb('unique_ref', 'like', `credits.low:${id}:%`)])).orderBy('seq').execute()).map((r) => r.type);
    expect(await types(first.id)).toEqual(['question.reserved', 'credits.low']);
    expect(await types(second.id)).toEqual(['question.reserved']);
  });

  it('refuses unknown properties, at the top and inside the draft, with 400 and spends nothing', async () => {
    const key = await funded(1_000);
    const before = await snapshot(key);
    for (const body of [{ draft: choiceDraft(), colour: 'red' }, { draft: choiceDraft({ colour: 'red' }) }, { draft: choiceDraft(), then: [{ text: 'Why did you pick it?', colour: 'red' }] }]) {
      const response = await askRaw(t, key, body);
      expect(response.statusCode, response.body).toBe(400);
      expect(errorOf(response).code).toBe('validation_failed');
    }
    // status, owner and price are not client-writable either (R5.5).
    for (const extra of [{ status: 'complete' }, { creditsReserved: 1 }, { accountId: 'acc_other' }]) {
      expect((await askRaw(t, key, { draft: choiceDraft(), ...extra })).statusCode).toBe(400);
    }
    expect(await snapshot(key)).toEqual(before);
    expect(await questionCount(key.accountId)).toBe(0);
  });

  it('refuses a draft that breaks a rule with 400 listing every problem, spending nothing', async () => {
    const key = await funded(1_000);
    const before = await snapshot(key);
    const response = await askRaw(t, key, { draft: choiceDraft({ options: [{ label: 'Only one' }], stimulus: { text: 'Look at this' }, targeting: { countries: ['XX'], tags: [] } }) });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).details.validation).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'draft.options', code: 'too_few' }),
        expect.objectContaining({ field: 'draft.stimulus', code: 'not_allowed' }),
        expect.objectContaining({ field: 'draft.targeting.countries[0]', code: 'unknown_value' }),
      ]),
    );
    const outOfRange = await askRaw(t, key, { draft: choiceDraft({ n: 5 }) });
    expect(outOfRange.statusCode).toBe(400);
    expect(errorOf(outOfRange).details.validation).toEqual([expect.objectContaining({ field: 'draft.n', code: 'out_of_range' })]);
    expect(await snapshot(key)).toEqual(before);
  });
});

describe('Idempotency-Key (R1)', () => {
  it.each([
    ['missing', null],
    ['empty', ''],
    ['201 characters long', 'k'.repeat(201)],
  ])('is required: %s → 400 and nothing spent', async (_label, idempotencyKey) => {
    const key = await funded(1_000);
    const before = await snapshot(key);
    const response = await askRaw(t, key, { draft: choiceDraft() }, { idempotencyKey });
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response)).toMatchObject({ code: 'validation_failed', details: { validation: [{ field: 'idempotency-key' }] } });
    expect(await snapshot(key)).toEqual(before);
    expect(await questionCount(key.accountId)).toBe(0);
  });

  it('accepts a key of exactly 200 characters', async () => {
    const key = await funded(1_000);
    await ask(t, key, choiceDraft(), { idempotencyKey: 'k'.repeat(200) });
  });

  it('the same key and body replays the stored 201 with Idempotent-Replayed and charges once (R1.3)', async () => {
    const key = await funded(1_000);
    const idempotencyKey = randomUUID();
    const body = { draft: choiceDraft(), labels: ['a', 'b'], externalRef: 'order-1' };
    const first = await askRaw(t, key, body, { idempotencyKey });
    expect(first.statusCode).toBe(201);
    const afterFirst = await money(t, key);

    t.clock.advance(60_000);
    // The same JSON with its keys in another order is the same request.
    const reordered = { externalRef: 'order-1', labels: ['a', 'b'], draft: { n: 10, options: body.draft.options, text: body.draft.text, type: 'single_choice' } };
    for (const again of [body, reordered]) {
      const replay = await askRaw(t, key, again, { idempotencyKey });
      expect(replay.statusCode).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json()).toEqual(first.json());
    }
    expect(await money(t, key)).toEqual(afterFirst);
    expect((await ledgerRowsOf(t, key, first.json().question.id)).map((r) => r.kind)).toEqual(['ask']);
    expect(await questionCount(key.accountId)).toBe(1);
    await expectReconciled(t);
  });

  it('the stored body is the question as created; GET shows it now', async () => {
    const key = await funded(1_000);
    const idempotencyKey = randomUUID();
    const created = await ask(t, key, choiceDraft(), { idempotencyKey });
    await answer(t, created.id, heads[0]);
    const replay = await askRaw(t, key, { draft: choiceDraft() }, { idempotencyKey });
    expect(replay.json().question).toEqual(created);
    expect((await getQuestion(t, key, created.id)).answered).toBe(1);
  });

  it('the same key with another body is 409 idempotency_conflict and spends nothing (R1.4)', async () => {
    const key = await funded(1_000);
    const idempotencyKey = randomUUID();
    await ask(t, key, choiceDraft(), { idempotencyKey });
    const before = await snapshot(key);
    for (const other of [{ draft: choiceDraft({ n: 11 }) }, { draft: choiceDraft(), labels: ['x'] }]) {
      const response = await askRaw(t, key, other, { idempotencyKey });
      expect(response.statusCode).toBe(409);
      expect(errorOf(response).code).toBe('idempotency_conflict');
    }
    expect(await snapshot(key)).toEqual(before);
    expect(await questionCount(key.accountId)).toBe(1);
  });

  it('a 400 is not stored: the same key with a good body then creates the question (R1.3)', async () => {
    const key = await funded(1_000);
    const idempotencyKey = randomUUID();
    expect((await askRaw(t, key, { draft: choiceDraft({ options: [] }) }, { idempotencyKey })).statusCode).toBe(400);
    const question = await ask(t, key, choiceDraft(), { idempotencyKey });
    expect(question.status).toBe('live');
  });

  it('a 402 is not stored: after a top-up the same key creates the question', async () => {
    const key = await funded(100);
    const idempotencyKey = randomUUID();
    const body = { draft: choiceDraft() };
    const refused = await askRaw(t, key, body, { idempotencyKey });
    expect(refused.statusCode).toBe(402);
    expect(errorOf(refused).code).toBe('insufficient_credits');
    await grant(t, key.accountId, 100);
    const created = await askRaw(t, key, body, { idempotencyKey });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers['idempotent-replayed']).toBeUndefined();
    expect((await money(t, key)).reserved).toBe(120);
    await expectReconciled(t);
  });

  it('keys belong to the account: two accounts using one key get two questions (R1.1)', async () => {
    const a = await funded(1_000);
    const b = await funded(1_000);
    const idempotencyKey = 'shared-key-1';
    const qa = await ask(t, a, choiceDraft(), { idempotencyKey });
    const qb = await ask(t, b, choiceDraft(), { idempotencyKey });
    expect(qa.id).not.toBe(qb.id);
    expect((await money(t, a)).reserved).toBe(120);
    expect((await money(t, b)).reserved).toBe(120);
    // And each account still replays its own.
    const replayB = await askRaw(t, b, { draft: choiceDraft() }, { idempotencyKey });
    expect(replayB.json().question.id).toBe(qb.id);
  });

  it('concurrent asks with one key make one question and one reservation (R1.2)', async () => {
    const key = await funded(1_000);
    const idempotencyKey = randomUUID();
    const responses = await Promise.all(Array.from({ length: 8 }, () => askRaw(t, key, { draft: choiceDraft() }, { idempotencyKey })));
    const ids = new Set<string>();
    for (const response of responses) {
      if (response.statusCode === 201) ids.add(response.json().question.id);
      else {
        expect(response.statusCode).toBe(409);
        expect(errorOf(response).code).toBe('idempotency_in_progress');
        expect(response.headers['retry-after']).toBe('1');
      }
    }
    expect(ids.size).toBe(1);
    expect(await questionCount(key.accountId)).toBe(1);
    expect((await money(t, key)).reserved).toBe(120);
    await expectReconciled(t);
  });

  it('keys live 24 hours, then the same key makes a new question, and the reaper deletes them (R1.5)', async () => {
    const key = await funded(1_000);
    const kept = randomUUID();
    const reaped = randomUUID();
    const first = await ask(t, key, choiceDraft(), { idempotencyKey: kept });
    await ask(t, key, choiceDraft(), { idempotencyKey: reaped });
    const rowsOf = () => t.db.selectFrom('idempotency_keys').select('key').where('account_id', '=', key.accountId).orderBy('key').execute();

    t.clock.advance(DAY - 1_000);
    const inWindow = await askRaw(t, key, { draft: choiceDraft() }, { idempotencyKey: kept });
    expect(inWindow.headers['idempotent-replayed']).toBe('true');
    expect(inWindow.json().question.id).toBe(first.id);
    await t.container.asks.reapIdempotencyKeys(); // older keys of other tests may go; these stay
    expect((await rowsOf()).map((r) => r.key)).toEqual([kept, reaped].sort());

    t.clock.advance(2_000); // 24 h + 1 s after the asks
    expect(await t.container.asks.reapIdempotencyKeys()).toBeGreaterThanOrEqual(2);
    expect(await rowsOf()).toEqual([]);

    const again = await askRaw(t, key, { draft: choiceDraft() }, { idempotencyKey: kept });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.json().question.id).not.toBe(first.id);
    expect((await money(t, key)).reserved).toBe(3 * 120);
    expect(await rowsOf()).toEqual([{ key: kept }]);
  });

  it('an expired key that was never reaped also makes a new question', async () => {
    const key = await funded(1_000);
    const idempotencyKey = randomUUID();
    const first = await ask(t, key, choiceDraft(), { idempotencyKey });
    t.clock.advance(DAY + 1_000);
    const again = await ask(t, key, choiceDraft(), { idempotencyKey });
    expect(again.id).not.toBe(first.id);
    expect((await money(t, key)).reserved).toBe(240);
  });

  it('a retry of a scheduled ask after its scheduledFor has passed still replays the stored 201 (R1.3)', async () => {
    const key = await funded(1_000);
    const idempotencyKey = randomUUID();
    const body = { draft: choiceDraft({ scheduledFor: new Date(t.clock.now().getTime() + 60 * 60_000).toISOString() }) };
    const first = await ask(t, key, body, { idempotencyKey });
    t.clock.advance(2 * 60 * 60_000); // still inside the 24-hour window
    const retry = await askRaw(t, key, body, { idempotencyKey });
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().question.id).toBe(first.id);
  });
});

describe('errors that spend nothing', () => {
  it('insufficient_credits: 402 with needed and available; balance and ledger unchanged', async () => {
    const key = await funded(119);
    const before = await snapshot(key);
    const response = await askRaw(t, key, { draft: choiceDraft() });
    expect(response.statusCode).toBe(402);
    expect(errorOf(response)).toMatchObject({ code: 'insufficient_credits', details: { needed: 120, available: 119 } });
    expect(await snapshot(key)).toEqual(before);
    expect(await questionCount(key.accountId)).toBe(0);
    await expectReconciled(t);
  });

  it('insufficient_credits counts reserved credits as spent: available = credits − reserved', async () => {
    const key = await funded(200);
    await ask(t, key, choiceDraft());
    const response = await askRaw(t, key, { draft: choiceDraft() });
    expect(response.statusCode).toBe(402);
    expect(errorOf(response).details).toMatchObject({ needed: 120, available: 80 });
  });

  it('spend_cap_exceeded: 402 with details.reason spend_cap_reached; nothing spent, the cap not used up', async () => {
    const key = await funded(10_000, 250);
    await ask(t, key, choiceDraft());
    expect((await balanceOf(t, key)).capRemaining).toBe(130);
    const before = await snapshot(key);
    const response = await askRaw(t, key, { draft: choiceDraft({ n: 11 }) }); // 132 credits
    expect(response.statusCode).toBe(402);
    expect(errorOf(response)).toMatchObject({ code: 'spend_cap_exceeded', details: { reason: 'spend_cap_reached', capRemaining: 130 } });
    expect(await snapshot(key)).toEqual(before);
    expect(await questionCount(key.accountId)).toBe(1);
    // What is left under the cap can still be spent.
    await ask(t, key, choiceDraft({ n: 10 }));
    expect(await balanceOf(t, key)).toMatchObject({ capRemaining: 10, reserved: 240 });
    await expectReconciled(t);
  });

  it('content_refused: 422 with the category, for the question or a follow-up; nothing spent', async () => {
    const key = await funded(10_000);
    const before = await snapshot(key);
    const cases: Array<[Json, string, string]> = [
      [{ draft: choiceDraft({ text: 'What is your password?' }) }, 'credentials', 'draft.text'],
      [{ draft: choiceDraft({ options: [{ label: 'Penny' }, { label: 'Text me on WhatsApp' }] }) }, 'personal_data', 'draft.options[1].label'],
      [{ draft: choiceDraft(), then: [{ text: 'What is your home address?' }] }, 'personal_data', 'then[0].text'],
    ];
    for (const [body, category, field] of cases) {
      const response = await askRaw(t, key, body);
      expect(response.statusCode, response.body).toBe(422);
      expect(errorOf(response)).toMatchObject({ code: 'content_refused', details: { category, field } });
    }
    expect(await snapshot(key)).toEqual(before);
    expect(await questionCount(key.accountId)).toBe(0);
  });

  it('the estimate reports what the content check would refuse, as a validation item on the field; a clean estimate is a promise the ask keeps', async () => {
    const key = await funded(10_000);
    const refusedDrafts: Array<[Json, string]> = [
      [choiceDraft({ text: 'What is your password?' }), 'draft.text'],
      [choiceDraft({ context: 'Then email me your answer' }), 'draft.context'],
      [choiceDraft({ options: [{ label: 'Penny' }, { label: 'Text me on WhatsApp' }] }), 'draft.options[1].label'],
    ];
    for (const [draft, field] of refusedDrafts) {
      const estimated = await t.inject({ method: 'POST', url: '/v1/billing/estimate', payload: { draft } });
      expect(estimated.statusCode).toBe(200);
      expect(estimated.json().validation).toEqual([{ field, code: 'not_allowed', message: expect.stringContaining('content_refused') }]);
      const asked = await askRaw(t, key, { draft });
      expect(asked.statusCode).toBe(422);
      expect(errorOf(asked).details.field).toBe(field);
    }
    const clean = choiceDraft({ text: 'Which name would you trust with your savings?' });
    const quote = await t.inject({ method: 'POST', url: '/v1/billing/estimate', payload: { draft: clean } });
    expect(quote.json().validation).toEqual([]);
    const asked = await askRaw(t, key, { draft: clean });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json().question.creditsReserved).toBe(quote.json().creditsTotal);
  });

  it('a projectId of another account is 404 and spends nothing; its own project files the question', async () => {
    const key = await funded(1_000);
    const other = await funded(0);
    const foreign = await t.inject({ method: 'POST', url: '/v1/projects', headers: other.auth, payload: { name: 'Theirs' } });
    const mine = await t.inject({ method: 'POST', url: '/v1/projects', headers: key.auth, payload: { name: 'Mine' } });
    const before = await snapshot(key);
    const response = await askRaw(t, key, { draft: choiceDraft(), projectId: foreign.json().project.id });
    expect(response.statusCode).toBe(404);
    expect(errorOf(response).code).toBe('not_found');
    expect(await snapshot(key)).toEqual(before);
    // An empty id names no project either (it once reached the database's foreign key: a 500).
    const empty = await askRaw(t, key, { draft: choiceDraft(), projectId: '' });
    expect(empty.statusCode).toBe(404);
    expect(errorOf(empty).code).toBe('not_found');
    expect(await snapshot(key)).toEqual(before);
    const question = await ask(t, key, { draft: choiceDraft(), projectId: mine.json().project.id });
    expect(question.projectId).toBe(mine.json().project.id);
  });
});

describe('scheduledFor', () => {
  it('makes a scheduled question with liveAt null, reserving the full price', async () => {
    const key = await funded(1_000);
    const at = new Date(t.clock.now().getTime() + 3 * 60 * 60_000).toISOString();
    const question = await ask(t, key, choiceDraft({ scheduledFor: at }));
    expect(question).toMatchObject({ status: 'scheduled', liveAt: null, scheduledFor: at, creditsReserved: 120 });
    expect((await money(t, key)).reserved).toBe(120);
  });

  it('refuses a time in the past with 400', async () => {
    const key = await funded(1_000);
    const response = await askRaw(t, key, { draft: choiceDraft({ scheduledFor: new Date(t.clock.now().getTime() - 1000).toISOString().replace(/\.\d+Z$/, 'Z') }) });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).details.validation).toEqual([expect.objectContaining({ field: 'draft.scheduledFor', code: 'in_past' })]);
  });
});

describe('templateId', () => {
  it('uses a template as the base draft; the fields given override it', async () => {
    const key = await funded(10_000);
    const { templates } = (await t.inject({ method: 'GET', url: '/v1/templates' })).json();
    const template = templates.find((x: Json) => x.id === 'tpl_name_pick');
    expect(template).toBeDefined();
    const overrides = { type: 'single_choice', text: 'Which name would you pick for a savings app?', n: 20 };
    const merged = { ...template.draft, ...overrides };
    const quoted = await estimate(t, merged);

    const question = await ask(t, key, { draft: overrides, templateId: template.id });
    expect(question).toMatchObject({
      text: overrides.text,
      n: 20,
      options: template.draft.options,
      neither: template.draft.neither,
      reason: template.draft.reason,
      creditsPerAnswer: quoted.creditsPerAnswer,
      creditsReserved: quoted.creditsTotal,
    });
    expect((await money(t, key)).reserved).toBe(quoted.creditsTotal);
  });

  it('an unknown templateId is 400 and spends nothing', async () => {
    const key = await funded(1_000);
    const before = await snapshot(key);
    const response = await askRaw(t, key, { draft: choiceDraft(), templateId: 'tpl_nope' });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).details.validation).toEqual([expect.objectContaining({ field: 'templateId' })]);
    expect(await snapshot(key)).toEqual(before);
  });
});

describe('fromDraftId', () => {
  it('uses a saved draft as the base; openForDays 1 makes the question close after a day', async () => {
    const key = await funded(1_000);
    const saved = await t.inject({
      method: 'POST',
      url: '/v1/drafts',
      headers: key.auth,
      payload: { type: 'single_choice', text: 'Saved wording', options: [{ label: 'Red' }, { label: 'Blue' }, { label: 'Green' }], n: 15, openForDays: 1 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const question = await ask(t, key, { fromDraftId: saved.json().id, draft: { type: 'single_choice', text: 'Which colour should the button be?' } });
    expect(question).toMatchObject({ text: 'Which colour should the button be?', n: 15, options: [{ label: 'Red' }, { label: 'Blue' }, { label: 'Green' }], creditsReserved: 15 * 12 });

    t.clock.advance(DAY + 1_000);
    await t.container.lifecycle.sweep();
    const closed = await getQuestion(t, key, question.id);
    expect(closed.status).toBe('underfilled');
    expect((await money(t, key)).reserved).toBe(0);
    await expectReconciled(t);
  });

  it("another account's draft is 404 and spends nothing", async () => {
    const key = await funded(1_000);
    const other = await funded(0);
    const theirs = await t.inject({ method: 'POST', url: '/v1/drafts', headers: other.auth, payload: choiceDraft() });
    const before = await snapshot(key);
    const response = await askRaw(t, key, { fromDraftId: theirs.json().id, draft: choiceDraft() });
    expect(response.statusCode).toBe(404);
    expect(await snapshot(key)).toEqual(before);
  });
});

describe('variantOf', () => {
  it('asks the same options and targeting to a disjoint set of heads', async () => {
    const key = await funded(10_000);
    const original = await ask(t, key, choiceDraft({ n: 12, targeting: { countries: ['GB'], tags: [] }, reason: 'optional' }));
    const variant = await ask(t, key, { variantOf: original.id, draft: { type: 'single_choice', text: 'Which name sounds most trustworthy for a savings app?' } });
    expect(variant).toMatchObject({ status: 'live', text: 'Which name sounds most trustworthy for a savings app?', options: original.options, targeting: original.targeting, n: 12, reason: 'optional', creditsPerAnswer: original.creditsPerAnswer });

    // The recorder checks targeting: these heads are in GB.
    const [a, b, c, outside] = [...heads.filter((h) => h.country === 'GB').slice(0, 3), heads.find((h) => h.country !== 'GB')!];
    expect(await answer(t, original.id, outside)).toMatchObject({ accepted: false, reason: 'not_eligible' });
    expect(await answer(t, original.id, a)).toMatchObject({ accepted: true });
    expect(await answer(t, variant.id, a)).toEqual({ accepted: false, state: 'live', reason: 'not_eligible' });
    expect(await answer(t, variant.id, b)).toMatchObject({ accepted: true });
    expect(await answer(t, original.id, b)).toEqual({ accepted: false, state: 'live', reason: 'not_eligible' });

    // A variant of the variant joins the same group.
    const third = await ask(t, key, { variantOf: variant.id, draft: { type: 'single_choice', text: 'Which name would you trust with your savings?' } });
    expect(await answer(t, third.id, a)).toMatchObject({ accepted: false, reason: 'not_eligible' });
    expect(await answer(t, third.id, b)).toMatchObject({ accepted: false, reason: 'not_eligible' });
    expect(await answer(t, third.id, c)).toMatchObject({ accepted: true });

    expect((await getQuestion(t, key, variant.id)).answered).toBe(1);
    await expectReconciled(t);
  });

  it("a question of another account is 404", async () => {
    const key = await funded(1_000);
    const other = await funded(1_000);
    const theirs = await ask(t, other, choiceDraft());
    const response = await askRaw(t, key, { variantOf: theirs.id, draft: choiceDraft() });
    expect(response.statusCode).toBe(404);
    expect((await money(t, key)).reserved).toBe(0);
  });
});

describe('then (follow-ups)', () => {
  const followUps = [
    { text: 'Why did you pick that name?' },
    { text: 'What would you call it instead?', minConfidence: 'high' },
  ];

  async function askWithFollowUps(key: TestKey) {
    const parent = await ask(t, key, { draft: choiceDraft(), then: followUps });
    const children = (await t.db.selectFrom('questions').select('id').where('parent_id', '=', parent.id).orderBy('seq').execute()).map((r) => r.id);
    expect(children).toHaveLength(2);
    return { parent, children };
  }

  it('wait as drafts; after a clear result they go live to the heads who answered the parent only', async () => {
    const key = await funded(10_000);
    const { parent, children } = await askWithFollowUps(key);
    for (const id of children) expect(await getQuestion(t, key, id)).toMatchObject({ status: 'draft', liveAt: null, creditsReserved: 20 * 48 });
    expect(await answer(t, children[0], heads[0], { text: 'Too early' })).toMatchObject({ accepted: false, reason: 'not_live' });

    // 10 of 10 for Penny: a clear leader (confidence high).
    await answerAll(t, parent.id, heads.slice(0, 10));
    expect(await getQuestion(t, key, parent.id)).toMatchObject({ status: 'complete', answered: 10 });
    for (const id of children) expect(await getQuestion(t, key, id)).toMatchObject({ status: 'live', liveAt: t.clock.now().toISOString() });

    expect(await answer(t, children[0], heads[20], { text: 'I never saw the question' })).toEqual({ accepted: false, state: 'live', reason: 'not_eligible' });
    expect(await answer(t, children[0], heads[3], { text: 'It sounds friendly' })).toMatchObject({ accepted: true });
    expect(await answer(t, children[1], heads[4], { text: 'Jar' })).toMatchObject({ accepted: true });

    const after = await money(t, key);
    // Parent fully spent (no refund); each follow-up has spent one answer.
    expect(after.reserved).toBe(2 * (20 * 48) - 2 * 48);
    expect(after.credits).toBe(10_000 - 120 - 2 * 48);
    await expectReconciled(t);
  });

  it('a follow-up whose minConfidence is not met is cancelled and refunded; the others go live', async () => {
    const key = await funded(10_000);
    const { parent, children } = await askWithFollowUps(key);
    // 5 and 5: a tie, confidence low.
    await answerAll(t, parent.id, heads.slice(30, 40), (i) => ({ option: i % 2 }));
    expect(await getQuestion(t, key, parent.id)).toMatchObject({ status: 'complete' });
    expect(await getQuestion(t, key, children[0])).toMatchObject({ status: 'live' });
    const cancelled = await getQuestion(t, key, children[1]);
    expect(cancelled).toMatchObject({ status: 'cancelled', closedAt: t.clock.now().toISOString(), creditsSpent: 0 });
    expect(await answer(t, children[1], heads[30], { text: 'Jar' })).toMatchObject({ accepted: false, reason: 'not_live' });

    const refunds = await ledgerRowsOf(t, key, children[1]);
    expect(refunds).toEqual([expect.objectContaining({ kind: 'refund', amount: 20 * 48 })]);
    const after = await money(t, key);
    expect(after.reserved).toBe(20 * 48);
    expect(after.credits).toBe(10_000 - 120);
    await expectReconciled(t);
  });

  it('cancelling the parent cancels and refunds every follow-up', async () => {
    const key = await funded(10_000);
    const { parent, children } = await askWithFollowUps(key);
    const response = await t.inject({ method: 'POST', url: `/v2/questions/${parent.id}/cancel`, headers: key.auth });
    expect(response.statusCode).toBe(200);
    for (const id of children) expect((await getQuestion(t, key, id)).status).toBe('cancelled');
    const after = await money(t, key);
    expect(after).toMatchObject({ credits: 10_000, reserved: 0, available: 10_000 });
    await expectReconciled(t);
  });

  it('a parent that closes with no answers cancels and refunds its follow-ups', async () => {
    const key = await funded(10_000);
    const { parent, children } = await askWithFollowUps(key);
    t.clock.advance(7 * DAY + 1_000);
    await t.container.lifecycle.sweep();
    expect((await getQuestion(t, key, parent.id)).status).toBe('underfilled');
    for (const id of children) expect((await getQuestion(t, key, id)).status).toBe('cancelled');
    expect(await money(t, key)).toMatchObject({ credits: 10_000, reserved: 0 });
    await expectReconciled(t);
  });

  it('a private question cannot have follow-ups (400)', async () => {
    const key = await funded(10_000);
    const response = await askRaw(t, key, { draft: choiceDraft(), privateDeclaration: { recipients: 5 }, then: [{ text: 'Why did you pick it?' }] });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).details.validation).toEqual([expect.objectContaining({ field: 'then' })]);
  });

  it('recipients is a whole number from 1 to 1,000,000 (400 otherwise, nothing reserved)', async () => {
    const key = await funded(10_000);
    for (const recipients of [0, 1e20, 1_000_001, 2.5]) {
      const response = await askRaw(t, key, { draft: choiceDraft(), privateDeclaration: { recipients } });
      expect(response.statusCode, String(recipients)).toBe(400);
      expect(errorOf(response).details.validation[0].field, String(recipients)).toMatch(/privateDeclaration/);
    }
    expect((await balanceOf(t, key)).reserved).toBe(0);
  });
});

describe('privateDeclaration', () => {
  it('the first private question of the UTC day is free; the next costs the estimate; a new day is free again', async () => {
    const key = await funded(1_000);
    expect((await balanceOf(t, key)).freeQuestionToday).toBe(true);
    const draft = choiceDraft({ n: 25 });
    const quoted = await estimate(t, draft);

    const free = await ask(t, key, { draft, privateDeclaration: { recipients: 5 } });
    expect(free).toMatchObject({ status: 'live', creditsReserved: 0, creditsPerAnswer: 0 });
    const afterFree = await balanceOf(t, key);
    expect(afterFree).toMatchObject({ credits: 1_000, reserved: 0, freeQuestionToday: false, privateDeclaredAt: t.clock.now().toISOString() });
    expect((await ledgerRowsOf(t, key, free.id)).filter((r) => r.amount !== 0)).toEqual([]);

    const paid = await ask(t, key, { draft, privateDeclaration: { recipients: 5 } });
    expect(paid).toMatchObject({ creditsReserved: quoted.creditsTotal, creditsPerAnswer: quoted.creditsPerAnswer });
    expect(await money(t, key)).toMatchObject({ credits: 1_000, reserved: quoted.creditsTotal });

    // Another account's private question does not use this account's free one.
    const other = await funded(0);
    expect((await balanceOf(t, other)).freeQuestionToday).toBe(true);

    const now = t.clock.now();
    t.clock.set(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 0, 1)));
    expect((await balanceOf(t, key)).freeQuestionToday).toBe(true);
    const nextDay = await ask(t, key, { draft, privateDeclaration: { recipients: 5 } });
    expect(nextDay.creditsReserved).toBe(0);
    await expectReconciled(t);
  });

  it('three private asks at the same moment: only one of them is free', async () => {
    const key = await funded(1_000);
    const draft = choiceDraft();
    const all = await Promise.all([1, 2, 3].map(() => askRaw(t, key, { draft, privateDeclaration: { recipients: 3 } })));
    expect(all.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    const reserved = all.map((r) => r.json().question.creditsReserved).sort((a: number, b: number) => a - b);
    expect(reserved).toEqual([0, 120, 120]);
    expect((await money(t, key)).reserved).toBe(240);
    await expectReconciled(t);
  });
});
