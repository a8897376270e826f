import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeChatApi, userPayload, type FakeChatApi } from '../../../test/helpers/fake-chat-api.ts';
import { createRemoteEngine } from './remote-engine.ts';
import { createLocalEngine, LOCAL_ENGINE } from './local-engine.ts';
import { createApiTranslator } from '../text/translate.ts';
import { translateSummary } from './summary-translation.ts';
import { checkSummary, writtenOf } from './insights.engine.ts';
import { SAVINGS_APP } from './fixtures/savings-app.ts';

const silent = { warn: () => {} };
const answers = writtenOf(SAVINGS_APP.answers);

/** A good answer of the model for SAVINGS_APP: answer ids are 1-based. */
function goodReply(): Record<string, unknown> {
  return {
    themes: [
      { label: 'Short and friendly', answerIds: [1, 2, 4, 5, 10], sentiment: 'positive', quotes: [answers[0].reason, answers[1].reason] },
      { label: 'Worried about hidden fees', answerIds: [25, 26, 27], sentiment: 'negative', quotes: [answers[24].reason] },
    ],
    sentiment: { positive: 20, neutral: 6, negative: 4 },
    takeaway: 'Penny wins on being short and friendly; 3 of 30 worry about hidden fees.',
  };
}

describe('OpenAI-compatible insights engine', () => {
  let api: FakeChatApi;
  beforeAll(async () => {
    api = await startFakeChatApi();
  });
  afterAll(() => api.close());
  const engine = () => createRemoteEngine({ url: api.url, key: 'sk-test', model: 'test-model' }, createLocalEngine(), silent);

  it('takes a valid answer, computing counts and options itself, and sends no identities', async () => {
    api.reply = () => ({ content: JSON.stringify(goodReply()) });
    api.requests.length = 0;
    const summary = await engine().summarize(SAVINGS_APP);
    expect(summary.engine).toBe('openai-compatible:test-model');
    expect(summary.themes.map((t) => [t.label, t.count, t.option])).toEqual([
      ['Short and friendly', 5, 'Penny'],
      ['Worried about hidden fees', 3, null],
    ]);
    expect(summary.themes[0].share).toBeCloseTo(5 / 30, 12);
    expect(checkSummary(summary, answers)).toEqual([]);

    const request = api.requests[0];
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.body.model).toBe('test-model');
    const sent = JSON.stringify(request.body);
    for (const secret of ['head_SECRET', 'att_SECRET', 'ZQ', 'non_binary', '45-54', 'tier']) expect(sent).not.toContain(secret);
    const payload = userPayload(request.body);
    expect(payload.answers).toHaveLength(30);
    expect(Object.keys(payload.answers[0]).sort()).toEqual(['id', 'option', 'reason', 'text']);
  });

  it.each([
    ['an invented quote', (r: any) => (r.themes[0].quotes = ['Short and friendly!!'])],
    ['a quote of another theme', (r: any) => (r.themes[1].quotes = [answers[0].reason])],
    ['sentiment that does not add up', (r: any) => (r.sentiment.neutral = 7)],
    ['an answer id that does not exist', (r: any) => r.themes[0].answerIds.push(31)],
    ['nine themes', (r: any) => (r.themes = Array.from({ length: 9 }, () => r.themes[0]))],
    ['four quotes', (r: any) => (r.themes[0].quotes = answers.slice(0, 4).map((a) => a.reason))],
    ['an empty takeaway', (r: any) => (r.takeaway = ' ')],
    ['a bad sentiment', (r: any) => (r.themes[0].sentiment = 'happy')],
  ])('falls back to the local engine on %s', async (_name, spoil) => {
    const reply = goodReply();
    spoil(reply);
    api.reply = () => ({ content: JSON.stringify(reply) });
    const summary = await engine().summarize(SAVINGS_APP);
    expect(summary.engine).toBe(LOCAL_ENGINE);
    expect(summary).toEqual(await createLocalEngine().summarize(SAVINGS_APP));
  });

  it('falls back on an HTTP error, bad JSON or an unreachable server', async () => {
    api.reply = () => ({ status: 500 });
    expect((await engine().summarize(SAVINGS_APP)).engine).toBe(LOCAL_ENGINE);
    api.reply = () => ({ content: 'Sure! Here are the themes: …' });
    expect((await engine().summarize(SAVINGS_APP)).engine).toBe(LOCAL_ENGINE);
    api.reply = () => ({ raw: '{"choices": []}' });
    expect((await engine().summarize(SAVINGS_APP)).engine).toBe(LOCAL_ENGINE);
    const closed = createRemoteEngine({ url: 'http://127.0.0.1:9/v1', key: null, model: 'm' }, createLocalEngine(), silent);
    expect((await closed.summarize(SAVINGS_APP)).engine).toBe(LOCAL_ENGINE);
  });

  it('accepts JSON wrapped in a code fence', async () => {
    api.reply = () => ({ content: '```json\n' + JSON.stringify(goodReply()) + '\n```' });
    expect((await engine().summarize(SAVINGS_APP)).engine).toBe('openai-compatible:test-model');
  });
});

describe('translation', () => {
  let api: FakeChatApi;
  beforeAll(async () => {
    api = await startFakeChatApi();
  });
  afterAll(() => api.close());

  it('translates takeaway, labels and quotes, keeping the verbatim original', async () => {
    api.reply = (body) => ({ content: JSON.stringify({ translations: userPayload(body).texts.map((t: string) => `[fr] ${t}`) }) });
    const summary = await createLocalEngine().summarize(SAVINGS_APP);
    const out = await translateSummary(summary, 'en', 'fr', createApiTranslator({ url: api.url, key: null, model: 'mt' }, silent));
    expect(out.takeaway).toBe(`[fr] ${summary.takeaway}`);
    expect(out.themes[0].label).toBe(`[fr] ${summary.themes[0].label}`);
    expect(out.themes[0].quotes).toEqual(summary.themes[0].quotes.map((q) => `[fr] ${q}`));
    expect(out.themes[0].count).toBe(summary.themes[0].count);
    expect(out.original).toEqual({ takeaway: summary.takeaway, themes: summary.themes.map((t) => ({ label: t.label, quotes: t.quotes })) });
  });

  it('leaves the summary as it is when the languages match or the answer is wrong', async () => {
    const summary = await createLocalEngine().summarize(SAVINGS_APP);
    const translator = createApiTranslator({ url: api.url, key: null, model: 'mt' }, silent);
    api.requests.length = 0;
    expect((await translateSummary(summary, 'en', 'en', translator)).original).toBeNull();
    expect(api.requests).toHaveLength(0);
    api.reply = () => ({ content: JSON.stringify({ translations: ['only one'] }) });
    const out = await translateSummary(summary, 'en', 'de', translator);
    expect(out).toEqual({ takeaway: summary.takeaway, themes: summary.themes, original: null });
  });
});
