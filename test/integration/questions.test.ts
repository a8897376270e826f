import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { answerAll, ask, choiceDraft, errorOf, eventsOf, expectReconciled, getQuestion, ledgerRowsOf, money, seedHeads, type Head, type Json, fundedKey, NO_RATE_LIMITS } from '../helpers/questions.ts';

/**
 * Reading and organising questions (spec "GET/PATCH /v2/questions", "GET /v2/questions/labels",
 * Limits; docs/asking.md "Reading questions"; RELIABILITY R5.4): get, list with its cursor and
 * every filter, labels, PATCH, and minAnswers closing a question early with a refund.
 */
let t: TestApp;
let heads: Head[];
beforeAll(async () => {
  t = await createTestApp({ env: NO_RATE_LIMITS });
  heads = await seedHeads(t, 20);
});
afterAll(async () => {
  await t?.close();
});

const funded = (credits = 100_000): Promise<TestKey> => fundedKey(t, credits);

async function list(key: TestKey, query = ''): Promise<{ questions: Json[]; nextCursor: string | null }> {
  const response = await t.inject({ method: 'GET', url: `/v2/questions${query}`, headers: key.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const ids = (questions: Json[]) => questions.map((q) => q.id);

async function patch(key: TestKey, id: string, body: Json) {
  return t.inject({ method: 'PATCH', url: `/v2/questions/${id}`, headers: key.auth, payload: body });
}

async function patched(key: TestKey, id: string, body: Json): Promise<Json> {
  const response = await patch(key, id, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().question;
}

async function createProject(key: TestKey, name: string): Promise<string> {
  const response = await t.inject({ method: 'POST', url: '/v1/projects', headers: key.auth, payload: { name } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().project.id;
}

describe('GET /v2/questions/{id}', () => {
  it('returns the question as asked', async () => {
    const key = await funded();
    const asked = await ask(t, key, { draft: choiceDraft(), labels: ['one'], externalRef: 'crm:42' });
    expect(await getQuestion(t, key, asked.id)).toEqual(asked);
  });

  it("answers 404 for another account's question on every id route (R5.4), and for an unknown id", async () => {
    const owner = await funded();
    const stranger = await funded();
    const question = await ask(t, owner, choiceDraft());
    for (const id of [question.id, 'q_doesnotexist']) {
      const requests = [
        { method: 'GET' as const, url: `/v2/questions/${id}` },
        { method: 'PATCH' as const, url: `/v2/questions/${id}`, payload: { bookmarked: true } },
        { method: 'PATCH' as const, url: `/v2/questions/${id}`, payload: { minAnswers: 1 } },
        { method: 'POST' as const, url: `/v2/questions/${id}/cancel` },
        { method: 'POST' as const, url: `/v2/questions/${id}/heads`, payload: { n: 5, dryRun: true } },
        { method: 'POST' as const, url: `/v2/questions/${id}/heads`, payload: { n: 5 }, headers: { 'idempotency-key': 'k-404' } },
        { method: 'GET' as const, url: `/v2/questions/${id}/wait?seconds=1` },
      ];
      for (const request of requests) {
        const response = await t.inject({ ...request, headers: { ...stranger.auth, ...request.headers } });
        expect(response.statusCode, `${request.method} ${request.url}: ${response.body}`).toBe(404);
        expect(errorOf(response).code).toBe('not_found');
      }
    }
    // Nothing the stranger did changed the owner's question or money.
    expect(await getQuestion(t, owner, question.id)).toEqual(question);
    expect(await money(t, owner)).toMatchObject({ reserved: 120 });
    await expectReconciled(t);
  });
});

describe('GET /v2/questions', () => {
  let key: TestKey;
  let created: Json[];
  beforeAll(async () => {
    key = await funded();
    created = [];
    for (let i = 0; i < 25; i++) {
      created.push(await ask(t, key, choiceDraft({ text: `Question number ${i + 1}: which name is best?` })));
      t.clock.advance(1_000);
    }
  });

  it('lists newest first, 20 by default', async () => {
    const page = await list(key);
    expect(ids(page.questions)).toEqual(ids(created).reverse().slice(0, 20));
    expect(page.nextCursor).toEqual(expect.any(String));
  });

  it('pages with a cursor: 10, 10, 5, no duplicates, stable while new questions arrive', async () => {
    const first = await list(key, '?limit=10');
    // A question asked between pages shows on a new first page, not in the pages already being read.
    const newer = await ask(t, key, choiceDraft({ text: 'A newer question: which name is best?' }));
    const second = await list(key, `?limit=10&cursor=${encodeURIComponent(first.nextCursor!)}`);
    const third = await list(key, `?limit=10&cursor=${encodeURIComponent(second.nextCursor!)}`);
    expect([first.questions.length, second.questions.length, third.questions.length]).toEqual([10, 10, 5]);
    expect(third.nextCursor).toBeNull();
    const all = [...ids(first.questions), ...ids(second.questions), ...ids(third.questions)];
    expect(new Set(all).size).toBe(25);
    expect(all).toEqual(ids(created).reverse());
    expect(ids((await list(key, '?limit=1')).questions)).toEqual([newer.id]);
    await t.inject({ method: 'POST', url: `/v2/questions/${newer.id}/cancel`, headers: key.auth });
    await patched(key, newer.id, { archived: true });
  });

  it('only lists questions of the calling account', async () => {
    const other = await funded();
    expect((await list(other)).questions).toEqual([]);
  });

  it.each(['?limit=0', '?limit=101', '?limit=abc', '?status=open', '?archived=maybe', '?bookmarked=perhaps', '?colour=red'])('refuses %s with 400', async (query) => {
    const response = await t.inject({ method: 'GET', url: `/v2/questions${query}`, headers: key.auth });
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response).code).toBe('validation_failed');
  });

  it('accepts limit 1 and 100', async () => {
    expect((await list(key, '?limit=1')).questions).toHaveLength(1);
    expect((await list(key, '?limit=100')).questions).toHaveLength(25);
  });
});

describe('filters', () => {
  let key: TestKey;
  let second: TestKey;
  const q: Record<string, Json> = {};
  let project: string;
  let start: Date;
  beforeAll(async () => {
    key = await funded();
    second = await t.makeKey(undefined, null, { accountId: key.accountId });
    project = await createProject(key, 'Naming');
    start = t.clock.now();
    q.live = await ask(t, key, { draft: choiceDraft(), labels: ['naming', 'q1'], projectId: project, externalRef: 'ext-1' });
    t.clock.advance(60_000);
    q.cancelled = await ask(t, key, { draft: choiceDraft(), labels: ['naming'] });
    await t.inject({ method: 'POST', url: `/v2/questions/${q.cancelled.id}/cancel`, headers: key.auth });
    t.clock.advance(60_000);
    q.scheduled = await ask(t, key, { draft: choiceDraft({ scheduledFor: new Date(t.clock.now().getTime() + 3_600_000).toISOString() }), labels: ['q1'] });
    t.clock.advance(60_000);
    q.archived = await ask(t, key, { draft: choiceDraft(), externalRef: 'ext-2' });
    await patched(key, q.archived.id, { archived: true });
    t.clock.advance(60_000);
    q.bookmarked = await ask(t, key, { draft: choiceDraft() });
    await patched(key, q.bookmarked.id, { bookmarked: true });
    t.clock.advance(60_000);
    q.bySecondKey = await ask(t, second, { draft: choiceDraft(), projectId: project });
  });

  it('status', async () => {
    expect(ids((await list(key, '?status=cancelled')).questions)).toEqual([q.cancelled.id]);
    expect(ids((await list(key, '?status=scheduled')).questions)).toEqual([q.scheduled.id]);
    expect(ids((await list(key, '?status=live')).questions)).toEqual([q.bySecondKey.id, q.bookmarked.id, q.live.id]);
    expect((await list(key, '?status=complete')).questions).toEqual([]);
  });

  it('since: created at or after an ISO 8601 instant', async () => {
    const at = (ms: number) => new Date(start.getTime() + ms).toISOString();
    expect(ids((await list(key, `?since=${at(120_000)}`)).questions)).toEqual([q.bySecondKey.id, q.bookmarked.id, q.scheduled.id]);
    expect(ids((await list(key, `?since=${at(300_000)}`)).questions)).toEqual([q.bySecondKey.id]);
    expect((await list(key, `?since=${at(300_001)}`)).questions).toEqual([]);
    // Without fractional seconds, and with an offset (the same instant as 2 minutes after start).
    expect(ids((await list(key, `?since=${at(120_000).replace('.000Z', 'Z')}`)).questions)).toHaveLength(3);
    const offset = new Date(start.getTime() + 120_000 + 3_600_000).toISOString().replace('.000Z', '+01:00');
    expect(ids((await list(key, `?since=${encodeURIComponent(offset)}`)).questions)).toHaveLength(3);
  });

  it.each(['yesterday', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '1700000000'])('since=%s is 400', async (since) => {
    const response = await t.inject({ method: 'GET', url: `/v2/questions?since=${encodeURIComponent(since)}`, headers: key.auth });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).details.validation).toEqual([expect.objectContaining({ field: 'since' })]);
  });

  it('projectId, label, externalRef', async () => {
    expect(ids((await list(key, `?projectId=${project}`)).questions)).toEqual([q.bySecondKey.id, q.live.id]);
    expect(ids((await list(key, '?label=naming')).questions)).toEqual([q.cancelled.id, q.live.id]);
    expect(ids((await list(key, '?label=q1')).questions)).toEqual([q.scheduled.id, q.live.id]);
    expect((await list(key, '?label=nam')).questions).toEqual([]);
    expect(ids((await list(key, '?externalRef=ext-1')).questions)).toEqual([q.live.id]);
    // Filters combine.
    expect(ids((await list(key, `?projectId=${project}&label=naming`)).questions)).toEqual([q.live.id]);
  });

  it('archived: excluded by default, only, include', async () => {
    const everything = [q.bySecondKey, q.bookmarked, q.archived, q.scheduled, q.cancelled, q.live].map((x) => x.id);
    expect(ids((await list(key)).questions)).toEqual(everything.filter((id) => id !== q.archived.id));
    expect(ids((await list(key, '?archived=exclude')).questions)).toEqual(everything.filter((id) => id !== q.archived.id));
    expect(ids((await list(key, '?archived=only')).questions)).toEqual([q.archived.id]);
    expect(ids((await list(key, '?archived=include')).questions)).toEqual(everything);
    // An archived question is still found by its externalRef when archived ones are included.
    expect((await list(key, '?externalRef=ext-2')).questions).toEqual([]);
    expect(ids((await list(key, '?externalRef=ext-2&archived=include')).questions)).toEqual([q.archived.id]);
  });

  it('bookmarked', async () => {
    expect(ids((await list(key, '?bookmarked=true')).questions)).toEqual([q.bookmarked.id]);
    expect(ids((await list(key, '?bookmarked=false')).questions)).toEqual([q.bySecondKey.id, q.scheduled.id, q.cancelled.id, q.live.id]);
  });

  it('mine: only questions asked with the calling key', async () => {
    expect(ids((await list(second, '?mine=true')).questions)).toEqual([q.bySecondKey.id]);
    expect(ids((await list(key, '?mine=true')).questions)).toEqual([q.bookmarked.id, q.scheduled.id, q.cancelled.id, q.live.id]);
    expect((await list(second, '?mine=false')).questions).toHaveLength(5);
    expect((await list(second)).questions).toHaveLength(5);
  });
});

describe('labels', () => {
  it('GET /v2/questions/labels counts them, most used first (ties by name)', async () => {
    const key = await funded();
    expect((await t.inject({ method: 'GET', url: '/v2/questions/labels', headers: key.auth })).json()).toEqual({ labels: [] });
    await ask(t, key, { draft: choiceDraft(), labels: ['b', 'common'] });
    await ask(t, key, { draft: choiceDraft(), labels: ['common', 'a', 'rare'] });
    const third = await ask(t, key, { draft: choiceDraft(), labels: ['common', 'a', 'a'] });
    const other = await funded();
    await ask(t, other, { draft: choiceDraft(), labels: ['common', 'theirs'] });

    const read = async () => (await t.inject({ method: 'GET', url: '/v2/questions/labels', headers: key.auth })).json().labels;
    expect(await read()).toEqual([
      { label: 'common', count: 3 },
      { label: 'a', count: 2 },
      { label: 'b', count: 1 },
      { label: 'rare', count: 1 },
    ]);
    // PATCH replaces the labels of a question.
    await patched(key, third.id, { labels: ['b'] });
    expect(await read()).toEqual([
      { label: 'b', count: 2 },
      { label: 'common', count: 2 },
      { label: 'a', count: 1 },
      { label: 'rare', count: 1 },
    ]);
  });

  it('an ask with 11 labels or an empty label is 400', async () => {
    const key = await funded();
    for (const labels of [Array.from({ length: 11 }, (_, i) => `l${i}`), [''], ['x'.repeat(41)]]) {
      const response = await t.inject({ method: 'POST', url: '/v2/questions', headers: { ...key.auth, 'idempotency-key': crypto.randomUUID() }, payload: { draft: choiceDraft(), labels } });
      expect(response.statusCode).toBe(400);
    }
    expect((await money(t, key)).reserved).toBe(0);
  });
});

describe('PATCH /v2/questions/{id}', () => {
  let key: TestKey;
  let question: Json;
  beforeAll(async () => {
    key = await funded();
    question = await ask(t, key, choiceDraft());
  });

  it('labels: up to 10, replaced and de-duplicated; 11 is 400', async () => {
    const ten = Array.from({ length: 10 }, (_, i) => `label-${i}`);
    expect((await patched(key, question.id, { labels: ten })).labels).toEqual(ten);
    expect((await patched(key, question.id, { labels: ['x', 'x', 'y'] })).labels).toEqual(['x', 'y']);
    const eleven = await patch(key, question.id, { labels: [...ten, 'label-10'] });
    expect(eleven.statusCode).toBe(400);
    expect((await getQuestion(t, key, question.id)).labels).toEqual(['x', 'y']);
    expect((await patched(key, question.id, { labels: [] })).labels).toEqual([]);
  });

  it('archived and bookmarked', async () => {
    expect(await patched(key, question.id, { archived: true, bookmarked: true })).toMatchObject({ archived: true, bookmarked: true });
    expect(await getQuestion(t, key, question.id)).toMatchObject({ archived: true, bookmarked: true });
    expect(await patched(key, question.id, { archived: false })).toMatchObject({ archived: false, bookmarked: true });
    expect(await patched(key, question.id, { bookmarked: false })).toMatchObject({ archived: false, bookmarked: false });
  });

  it("projectId: set, moved, cleared with null; another account's project is 404", async () => {
    const a = await createProject(key, 'A');
    const b = await createProject(key, 'B');
    expect((await patched(key, question.id, { projectId: a })).projectId).toBe(a);
    expect((await patched(key, question.id, { projectId: b })).projectId).toBe(b);
    expect((await patched(key, question.id, { projectId: null })).projectId).toBeNull();
    const other = await funded();
    const theirs = await createProject(other, 'Theirs');
    const response = await patch(key, question.id, { projectId: theirs });
    expect(response.statusCode).toBe(404);
    expect((await getQuestion(t, key, question.id)).projectId).toBeNull();
    // An empty id names no project either (it once reached the database's foreign key: a 500).
    const empty = await patch(key, question.id, { projectId: '' });
    expect(empty.statusCode).toBe(404);
    expect(errorOf(empty).code).toBe('not_found');
  });

  it('externalRef can be set once: the same value again is fine, another is 409 external_ref_set', async () => {
    expect((await patched(key, question.id, { externalRef: 'jira:HC-1' })).externalRef).toBe('jira:HC-1');
    expect((await patched(key, question.id, { externalRef: 'jira:HC-1' })).externalRef).toBe('jira:HC-1');
    const response = await patch(key, question.id, { externalRef: 'jira:HC-2' });
    expect(response.statusCode).toBe(409);
    expect(errorOf(response).code).toBe('external_ref_set');
    expect((await getQuestion(t, key, question.id)).externalRef).toBe('jira:HC-1');

    // Set at ask time, it is just as fixed.
    const fromAsk = await ask(t, key, { draft: choiceDraft(), externalRef: 'order-7' });
    expect((await patch(key, fromAsk.id, { externalRef: 'order-8' })).statusCode).toBe(409);
  });

  it.each([
    ['an empty body', {}],
    ['an unknown field', { colour: 'red' }],
    ['status (not client-writable)', { status: 'complete' }],
    ['an externalRef with spaces', { externalRef: 'has spaces' }],
    ['minAnswers 0', { minAnswers: 0 }],
  ])('refuses %s with 400', async (_label, body) => {
    const before = await getQuestion(t, key, question.id);
    const response = await patch(key, question.id, body);
    expect(response.statusCode, response.body).toBe(400);
    expect(await getQuestion(t, key, question.id)).toEqual(before);
  });
});

describe('PATCH minAnswers', () => {
  it('completes at once when that many have answered, refunding the answers not given', async () => {
    const key = await funded(10_000);
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 3));
    const closed = await patched(key, question.id, { minAnswers: 3 });
    expect(closed).toMatchObject({ status: 'complete', answered: 3, creditsSpent: 36, closedAt: t.clock.now().toISOString() });
    expect(await ledgerRowsOf(t, key, question.id)).toEqual([expect.objectContaining({ kind: 'ask', amount: -120 }), expect.objectContaining({ kind: 'refund', amount: 84 })]);
    expect(await money(t, key)).toMatchObject({ credits: 10_000 - 36, reserved: 0 });
    expect((await eventsOf(t, question.id)).map((e) => e.type)).toEqual(['question.reserved', 'question.completed']);
    await expectReconciled(t);
  });

  it('not yet reached: stays live, then completes when the k-th answer arrives', async () => {
    const key = await funded(10_000);
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 2));
    expect(await patched(key, question.id, { minAnswers: 4 })).toMatchObject({ status: 'live', answered: 2 });
    await answerAll(t, question.id, heads.slice(2, 3));
    expect((await getQuestion(t, key, question.id)).status).toBe('live');
    const [fourth] = await answerAll(t, question.id, heads.slice(3, 4));
    expect(fourth).toMatchObject({ accepted: true, completed: true });
    expect(await getQuestion(t, key, question.id)).toMatchObject({ status: 'complete', answered: 4, creditsSpent: 48 });
    expect(await ledgerRowsOf(t, key, question.id)).toEqual([expect.objectContaining({ kind: 'ask', amount: -120 }), expect.objectContaining({ kind: 'refund', amount: 72 })]);
    expect(await money(t, key)).toMatchObject({ credits: 10_000 - 48, reserved: 0 });
    await expectReconciled(t);
  });

  it('more than n is 400', async () => {
    const key = await funded(10_000);
    const question = await ask(t, key, choiceDraft());
    const response = await patch(key, question.id, { minAnswers: 11 });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).details.validation).toEqual([expect.objectContaining({ field: 'minAnswers' })]);
    expect((await getQuestion(t, key, question.id)).status).toBe('live');
  });
});
