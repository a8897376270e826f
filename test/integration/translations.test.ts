import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { ask, choiceDraft, fundedKey, NO_RATE_LIMITS, seedHeads, type Head, type Json } from '../helpers/questions.ts';
import { startFakeChatApi, userPayload, type FakeChatApi } from '../helpers/fake-chat-api.ts';
import { jobDefinitions } from '../../src/jobs/jobs.ts';
import { JOB_TRANSLATE_ANSWERS } from '../../src/modules/answers/answers.jobs.ts';
import { MAX_ATTEMPTS } from '../../src/modules/answers/answer-translations.ts';

/**
 * Translations of written answers (docs/results.md "Translations"): with a translation engine (a
 * fake OpenAI-compatible server on 127.0.0.1), the background pass translates the written
 * answers of a question asked in another language than the account's; results, the answers list
 * and the `q` filter then carry them. Without an engine nothing is translated and no job runs.
 */
let api: FakeChatApi;
let t: TestApp;
let heads: Head[];
let failing = false;

beforeAll(async () => {
  api = await startFakeChatApi((body) => {
    if (failing) return { status: 503 };
    const payload = userPayload(body);
    return { content: JSON.stringify({ translations: payload.texts.map((s: string) => `[en] ${s}`) }) };
  });
  t = await createTestApp({ env: { ...NO_RATE_LIMITS, TRANSLATE_API_URL: api.url, TRANSLATE_MODEL: 'fake-mt' } });
  heads = await seedHeads(t, 20);
});
afterAll(async () => {
  await t?.close();
  await api?.close();
});

let next = 0;
async function answer(id: string, body: Json): Promise<void> {
  const head = heads[next++];
  const outcome = await t.container.answers.record(id, { headId: head.id, source: 'panel', tier: head.tier }, body);
  expect(outcome.accepted).toBe(true);
}

async function result(key: TestKey, id: string, query = ''): Promise<Json> {
  const response = await t.inject({ method: 'GET', url: `/v2/questions/${id}/result${query}`, headers: key.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().result;
}

const runJob = () => jobDefinitions(t.container).find((j) => j.name === JOB_TRANSLATE_ANSWERS)!.handler({});

describe('with a translation engine', () => {
  it('translates a Spanish question’s written answers into the English account’s language; results, answers and q carry them', async () => {
    const key = await fundedKey(t);
    const q = await ask(t, key, choiceDraft({ text: '¿Qué nombre es mejor?', language: 'es', reason: 'optional', n: 10 }));
    await answer(q.id, { option: 0, reason: 'Es corto y amable' });
    await answer(q.id, { option: 1 }); // no words: nothing to translate
    const before = await result(key, q.id);
    expect(before.translationLanguage).toBeNull();
    expect(before.answers.map((a: Json) => a.translatedReason)).toEqual([null, null]);

    api.requests.length = 0;
    await runJob();
    // One engine call for the question, with its written words only, from es to en.
    expect(api.requests).toHaveLength(1);
    const sent = userPayload(api.requests[0].body);
    expect(sent.texts).toEqual(['Es corto y amable']);
    expect(api.requests[0].body.messages[0].content).toContain('"es"');

    // The pass announced the change: the cached result shows the translation at once.
    const after = await result(key, q.id);
    expect(after.translationLanguage).toBe('en');
    expect(after.answers.find((a: Json) => a.reason)).toMatchObject({ reason: 'Es corto y amable', translatedReason: '[en] Es corto y amable', translatedText: null });
    expect((await result(key, q.id, '?q=%5Ben%5D')).nAccepted).toBe(1); // q searches translations
    const page = await t.inject({ method: 'GET', url: `/v2/questions/${q.id}/answers`, headers: key.auth });
    expect(page.json()).toMatchObject({ translationLanguage: 'en' });
    expect(page.json().answers.find((a: Json) => a.reason).translatedReason).toBe('[en] Es corto y amable');

    // Translated once: the next pass sends nothing.
    api.requests.length = 0;
    await runJob();
    expect(api.requests).toHaveLength(0);
  });

  it('free-text answers get translatedText; a question in the account’s own language is never sent', async () => {
    const key = await fundedKey(t);
    const german = await ask(t, key, { type: 'free_text', text: 'Was stört Sie an Ihrer Bank?', language: 'de', n: 10 });
    const english = await ask(t, key, { type: 'free_text', text: 'What bothers you about your bank?', language: 'en-GB', n: 10 });
    await answer(german.id, { text: 'Die Gebühren' });
    await answer(english.id, { text: 'The fees' });
    api.requests.length = 0;
    await runJob();
    expect(api.requests.map((r) => userPayload(r.body).texts)).toEqual([['Die Gebühren']]);
    expect((await result(key, german.id)).answers[0]).toMatchObject({ text: 'Die Gebühren', translatedText: '[en] Die Gebühren' });
    const own = await result(key, english.id);
    expect(own.translationLanguage).toBeNull();
    expect(own.answers[0].translatedText).toBeNull();
  });

  it('an engine that fails leaves answers untranslated, retried on later passes up to the limit', async () => {
    const key = await fundedKey(t);
    const q = await ask(t, key, { type: 'free_text', text: 'Qu’est-ce qui vous gêne ?', language: 'fr', n: 10 });
    await answer(q.id, { text: 'Les frais cachés' });
    failing = true;
    try {
      for (let i = 0; i < MAX_ATTEMPTS + 2; i++) await runJob();
    } finally {
      failing = false;
    }
    const stored = await t.db.selectFrom('answers').select(['translated_to', 'translation_attempts']).where('question_id', '=', q.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ translated_to: null, translation_attempts: MAX_ATTEMPTS });
    const r = await result(key, q.id);
    expect(r.translationLanguage).toBeNull();
    expect(r.answers[0].translatedText).toBeNull();
    // Given up on: a working engine later does not get it again.
    api.requests.length = 0;
    await runJob();
    expect(api.requests).toHaveLength(0);
  });
});

describe('without a translation engine', () => {
  it('registers no translation job and leaves translations null', async () => {
    const plain = await createTestApp({ env: NO_RATE_LIMITS });
    try {
      expect(jobDefinitions(plain.container).map((j) => j.name)).not.toContain(JOB_TRANSLATE_ANSWERS);
      expect(await plain.container.answerTranslations.pass()).toEqual({ taken: 0, translated: 0 });
    } finally {
      await plain.close();
    }
  });
});
