import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { answer, answerAll, ask, choiceDraft, errorOf, grant, seedHeads, sleep, type Head, type Json, fundedKey, NO_RATE_LIMITS } from '../helpers/questions.ts';
import { startFakeChatApi, userPayload, type FakeChatApi } from '../helpers/fake-chat-api.ts';
import { jobDefinitions } from '../../src/jobs/jobs.ts';
import { JOB_INSIGHTS_FINAL } from '../../src/modules/insights/insights.jobs.ts';

/**
 * GET/POST /v2/questions/{id}/insights and the final summary made when a question closes (spec
 * "Insights", "Insights kind", Errors 409 too_few_answers and 429 rate_limited; docs/insights.md).
 * Every response is checked against /openapi.json by t.inject.
 */
let t: TestApp;
let heads: Head[];
let next = 0;
beforeAll(async () => {
  t = await createTestApp({ env: NO_RATE_LIMITS });
  heads = await seedHeads(t, 60);
});
afterAll(async () => {
  await Promise.race([t?.close(), sleep(5_000)]);
});

const REASONS = [
  'Short and friendly, easy to remember.',
  'It is short and friendly.',
  'Sounds safe and familiar.',
  'I worry about hidden fees.',
  'Short and friendly, I like it.',
  'Feels safe.',
  'Hidden fees would put me off.',
  'Easy to remember.',
  'Cute name.',
  'Safe and simple.',
];

/** A live single-choice question with optional reasons, n answers wanted. */
async function liveQuestion(key: TestKey, n = 10): Promise<Json> {
  return ask(t, key, choiceDraft({ reason: 'optional', n }));
}

/** Answers with fresh heads: option i % 2, and a reason when `written`. */
async function answerSome(questionId: string, count: number, written = true): Promise<void> {
  const some = heads.slice(next, next + count);
  next += count;
  await answerAll(t, questionId, some, (i) => (written ? { option: i % 2, reason: REASONS[i % REASONS.length] } : { option: i % 2 }));
}

const funded = (): Promise<TestKey> => fundedKey(t);

const get = (key: TestKey, id: string) => t.inject({ method: 'GET', url: `/v2/questions/${id}/insights`, headers: key.auth });
const post = (key: TestKey, id: string) => t.inject({ method: 'POST', url: `/v2/questions/${id}/insights`, headers: key.auth });
const runFinalJob = () => jobDefinitions(t.container).find((j) => j.name === JOB_INSIGHTS_FINAL)!.handler({});

describe('insights while live', () => {
  it('is null at first, refuses fewer than three written answers, then makes an interim summary', async () => {
    const key = await funded();
    const q = await liveQuestion(key);
    expect((await get(key, q.id)).json()).toEqual({ insights: null });

    await answerSome(q.id, 2);
    await answerSome(q.id, 2, false);
    const few = await post(key, q.id);
    expect(few.statusCode).toBe(409);
    expect(errorOf(few).code).toBe('too_few_answers');

    await answerSome(q.id, 1);
    const made = await post(key, q.id);
    expect(made.statusCode, made.body).toBe(200);
    const insights = made.json().insights;
    const now = t.clock.now();
    expect(insights).toMatchObject({
      questionId: q.id,
      kind: 'interim',
      basedOn: 3,
      answersAtTime: 5,
      language: 'en',
      sourceLanguage: 'en',
      original: null,
      engine: 'wink-nlp-local/1',
      generatedAt: now.toISOString(),
      refreshAfter: new Date(now.getTime() + 600_000).toISOString(),
    });
    const { positive, neutral, negative } = insights.sentiment;
    expect(positive + neutral + negative).toBe(3);
    const written = new Set(REASONS);
    for (const theme of insights.themes) for (const quote of theme.quotes) expect(written.has(quote)).toBe(true);
    expect((await get(key, q.id)).json()).toEqual({ insights });
  });

  it('refreshes at most once every 10 minutes: 429 with retryAfterMs and Retry-After, then OK', async () => {
    const key = await funded();
    const q = await liveQuestion(key, 20);
    await answerSome(q.id, 4);
    expect((await post(key, q.id)).statusCode).toBe(200);

    const again = await post(key, q.id);
    expect(again.statusCode).toBe(429);
    expect(errorOf(again)).toMatchObject({ code: 'rate_limited', details: { retryAfterMs: 600_000 } });
    expect(again.headers['retry-after']).toBe('600');

    await answerSome(q.id, 3);
    t.clock.advance(9 * 60_000 + 30_000);
    const later = await post(key, q.id);
    expect(later.statusCode).toBe(429);
    expect(errorOf(later).details.retryAfterMs).toBe(30_000);
    expect(later.headers['retry-after']).toBe('30');
    // The summary that stands is still the first one.
    expect((await get(key, q.id)).json().insights.basedOn).toBe(4);

    t.clock.advance(30_000);
    const fresh = await post(key, q.id);
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json().insights).toMatchObject({ kind: 'interim', basedOn: 7, answersAtTime: 7 });
  });

  it('lets only one of two simultaneous refreshes through', async () => {
    const key = await funded();
    const q = await liveQuestion(key);
    await answerSome(q.id, 3);
    const statuses = (await Promise.all([post(key, q.id), post(key, q.id), post(key, q.id)])).map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 429, 429]);
  });

  it('answers 404 for another account and 403 without questions:read', async () => {
    const owner = await funded();
    const q = await liveQuestion(owner);
    await answerSome(q.id, 3);
    const stranger = await t.makeKey();
    for (const response of [await get(stranger, q.id), await post(stranger, q.id)]) {
      expect(response.statusCode).toBe(404);
      expect(errorOf(response).code).toBe('not_found');
    }
    const writeOnly = await t.makeKey(['questions:write'], null, { accountId: owner.accountId });
    expect((await get(writeOnly, q.id)).statusCode).toBe(403);
    expect((await post(writeOnly, q.id)).statusCode).toBe(403);
    expect((await t.inject({ method: 'GET', url: `/v2/questions/${q.id}/insights` })).statusCode).toBe(401);
    const readOnly = await t.makeKey(['questions:read'], null, { accountId: owner.accountId });
    expect((await post(readOnly, q.id)).statusCode).toBe(200);
    expect((await get(owner, 'q_doesnotexist')).statusCode).toBe(404);
  });
});

describe('after an answer is removed after review (an upheld flag)', () => {
  /** Flags the answer whose reason is `reason` and upholds the flag, as an operator would. */
  async function removeAnswer(key: TestKey, questionId: string, reason: string): Promise<void> {
    const answers = (await t.inject({ method: 'GET', url: `/v2/questions/${questionId}/answers?limit=200`, headers: key.auth })).json().answers as Json[];
    const target = answers.find((a) => a.reason === reason)!;
    const flagged = await t.inject({ method: 'POST', url: `/v2/questions/${questionId}/answers/${target.attestationRef}/flag`, headers: key.auth, payload: { reason: 'abusive' } });
    expect(flagged.statusCode, flagged.body).toBe(201);
    await t.container.moderation.decideFlag(flagged.json().flag.id, 'uphold');
  }
  const quotesOf = (insights: Json): string[] => insights.themes.flatMap((theme: Json) => theme.quotes);

  it('the final summary is made again from the answers in view: basedOn counts them and no quote is the removed one', async () => {
    const key = await funded();
    const q = await liveQuestion(key, 10);
    await answerSome(q.id, 10);
    await runFinalJob();
    const before = (await get(key, q.id)).json().insights;
    expect(before).toMatchObject({ kind: 'final', basedOn: 10 });
    const removed = 'Short and friendly, easy to remember.';
    expect(quotesOf(before)).toContain(removed);

    t.clock.advance(60_000);
    await removeAnswer(key, q.id, removed);
    const after = (await get(key, q.id)).json().insights;
    expect(after).toMatchObject({ kind: 'final', basedOn: 9, answersAtTime: 9, generatedAt: t.clock.now().toISOString() });
    expect(quotesOf(after)).not.toContain(removed);
    const result = (await t.inject({ method: 'GET', url: `/v2/questions/${q.id}/result`, headers: key.auth })).json().result;
    expect({ nAccepted: result.nAccepted, basedOn: result.insights.basedOn }).toEqual({ nAccepted: 9, basedOn: 9 });
    // Done at once; the final pass has nothing left to do.
    expect(await t.container.insights.finalPass()).toBe(0);
  });

  it('a removal that leaves fewer than three written answers leaves no summary standing', async () => {
    const key = await funded();
    const q = await liveQuestion(key, 10);
    await answerSome(q.id, 3);
    await answerSome(q.id, 7, false);
    await runFinalJob();
    expect((await get(key, q.id)).json().insights).toMatchObject({ kind: 'final', basedOn: 3 });
    await removeAnswer(key, q.id, REASONS[1]);
    expect((await get(key, q.id)).json()).toEqual({ insights: null });
  });

  it('a live question with an interim summary gets a fresh interim at once, outside the 10-minute refresh limit', async () => {
    const key = await funded();
    const q = await liveQuestion(key, 20);
    await answerSome(q.id, 5);
    expect((await post(key, q.id)).json().insights).toMatchObject({ kind: 'interim', basedOn: 5 });
    await removeAnswer(key, q.id, REASONS[0]);
    expect((await get(key, q.id)).json().insights).toMatchObject({ kind: 'interim', basedOn: 4, answersAtTime: 4 });
  });

  it('if the process stops before the summary is remade, the final pass remakes it (the removal marked it stale in its own transaction)', async () => {
    const key = await funded();
    const q = await liveQuestion(key, 10);
    await answerSome(q.id, 10);
    await runFinalJob();
    await t.db.transaction().execute((tx) => t.container.insights.markStale(q.id, tx));
    expect(await t.container.insights.finalPass()).toBe(1);
    expect((await get(key, q.id)).json().insights).toMatchObject({ kind: 'final', basedOn: 10 });
  });
});

describe('final insights', () => {
  it('are made by the job when the question closes, and POST returns them after close', async () => {
    const key = await funded();
    const q = await liveQuestion(key, 10);
    await answerSome(q.id, 4);
    expect((await post(key, q.id)).statusCode).toBe(200);
    t.clock.advance(60_000);
    await answerSome(q.id, 6); // the 10th answer completes the question
    expect((await get(key, q.id)).json().insights.kind).toBe('interim');

    await runFinalJob();
    const final = (await get(key, q.id)).json().insights;
    expect(final).toMatchObject({ kind: 'final', refreshAfter: null, basedOn: 10, answersAtTime: 10, generatedAt: t.clock.now().toISOString() });

    // After close POST gives the final one back (no 429, not made again).
    t.clock.advance(60_000);
    const posted = await post(key, q.id);
    expect(posted.statusCode).toBe(200);
    expect(posted.json().insights).toEqual(final);
    // The job does not make it twice.
    await runFinalJob();
    expect((await get(key, q.id)).json().insights).toEqual(final);
  });

  it('are made for cancelled questions, and not for ones with too few written answers', async () => {
    const key = await funded();
    const cancelled = await liveQuestion(key);
    await answerSome(cancelled.id, 3);
    const sparse = await liveQuestion(key);
    await answerSome(sparse.id, 2);
    await answerSome(sparse.id, 3, false);
    for (const id of [cancelled.id, sparse.id]) {
      expect((await t.inject({ method: 'POST', url: `/v2/questions/${id}/cancel`, headers: key.auth })).statusCode).toBe(200);
    }
    await runFinalJob();
    expect((await get(key, cancelled.id)).json().insights).toMatchObject({ kind: 'final', basedOn: 3 });
    expect((await get(key, sparse.id)).json()).toEqual({ insights: null });
    const refused = await post(key, sparse.id);
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).code).toBe('too_few_answers');
    // The sparse close was handled once: the pass finds nothing more to do.
    expect(await t.container.insights.finalPass()).toBe(0);
  });

  it('POST after close makes the final summary when the job has not yet', async () => {
    const key = await funded();
    const q = await liveQuestion(key);
    await answerSome(q.id, 10);
    const posted = await post(key, q.id);
    expect(posted.statusCode).toBe(200);
    expect(posted.json().insights).toMatchObject({ kind: 'final', basedOn: 10, refreshAfter: null });
    expect(await t.container.insights.finalPass()).toBe(0);
  });

  it('a question reopened with more heads is live again and gets a new final summary at its next close', async () => {
    const key = await funded();
    const q = await liveQuestion(key);
    await answerSome(q.id, 10);
    await runFinalJob();
    const first = (await get(key, q.id)).json().insights;
    expect(first).toMatchObject({ kind: 'final', basedOn: 10 });
    // Add one head: a dry run first leaves the pool count cached (see lifecycle.test.ts on why).
    const addHeads = (payload: Json, headers: Json = {}) => t.inject({ method: 'POST', url: `/v2/questions/${q.id}/heads`, headers: { ...key.auth, ...headers }, payload });
    expect((await addHeads({ n: 1, dryRun: true })).statusCode).toBe(201);
    expect((await addHeads({ n: 1 }, { 'idempotency-key': randomUUID() })).statusCode).toBe(201);
    t.clock.advance(60_000);
    const interim = await post(key, q.id);
    expect(interim.statusCode).toBe(200);
    expect(interim.json().insights.kind).toBe('interim');
    await answer(t, q.id, heads[next++], { option: 1, reason: 'Short and friendly.' });
    await runFinalJob();
    expect((await get(key, q.id)).json().insights).toMatchObject({ kind: 'final', basedOn: 11 });
  });
});

describe('with the optional APIs (a fake server on 127.0.0.1)', () => {
  let api: FakeChatApi;
  let t2: TestApp;
  beforeAll(async () => {
    api = await startFakeChatApi((body) => {
      const payload = userPayload(body);
      if (payload.texts) return { content: JSON.stringify({ translations: payload.texts.map((s: string) => `(fr) ${s}`) }) };
      const quote = payload.answers[0].reason;
      return {
        content: JSON.stringify({
          themes: [{ label: 'Brevity', answerIds: [1, 2, 3], sentiment: 'positive', quotes: [quote] }],
          sentiment: { positive: 3, neutral: 0, negative: 0 },
          takeaway: 'All three like how short it is.',
        }),
      };
    });
    t2 = await createTestApp({
      env: { INSIGHTS_API_URL: api.url, INSIGHTS_MODEL: 'fake-model', TRANSLATE_API_URL: api.url, TRANSLATE_MODEL: 'fake-mt', RATE_LIMIT_PER_KEY: '100000' },
    });
  });
  afterAll(async () => {
    await Promise.race([t2?.close(), sleep(5_000)]);
    await api?.close();
  });

  it('uses the API engine, sends no identities, and translates into the account language', async () => {
    const pool = await seedHeads(t2, 3);
    const key = await t2.makeKey();
    await grant(t2, key.accountId, 10_000);
    await t2.db.updateTable('accounts').set({ language: 'fr' }).where('id', '=', key.accountId).execute();
    const q = await ask(t2, key, choiceDraft({ reason: 'optional' }));
    await answerAll(t2, q.id, pool.slice(0, 3), (i) => ({ option: 0, reason: REASONS[i] }));
    const response = await t2.inject({ method: 'POST', url: `/v2/questions/${q.id}/insights`, headers: key.auth });
    expect(response.statusCode, response.body).toBe(200);
    const insights = response.json().insights;
    expect(insights).toMatchObject({
      engine: 'openai-compatible:fake-model',
      language: 'fr',
      sourceLanguage: 'en',
      takeaway: '(fr) All three like how short it is.',
      themes: [{ label: '(fr) Brevity', count: 3, share: 1, option: 'Penny', quotes: [`(fr) ${REASONS[0]}`] }],
      original: { takeaway: 'All three like how short it is.', themes: [{ label: 'Brevity', quotes: [REASONS[0]] }] },
    });
    const sent = JSON.stringify(api.requests.map((r) => r.body));
    for (const head of pool.slice(0, 3)) expect(sent).not.toContain(head.id);
    expect(sent).not.toMatch(/"(country|tier|headId|attestationRef)"/);
  });
});
