/**
 * The client's behaviour on the wire, against a scripted fetch (no network, fake timers where
 * time matters): what it sends, which failures it retries and after how long, its errors, its
 * timeouts and aborts, and that a finished call leaves no timer behind.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, refused, reset, standInFetch, type Scripted } from '../test/stand-in-fetch.ts';
import { Headcount, type HeadcountOptions } from './client.ts';
import { HeadcountConnectionError, HeadcountError, HeadcountTimeoutError } from './errors.ts';
import type { Schemas } from './types.ts';
import { SDK_VERSION } from './version.ts';

const API_KEY = 'hc_test_0123456789';
const DRAFT: Schemas['QuestionDraft'] = { type: 'single_choice', text: 'Which name is best?', options: [{ label: 'Penny' }, { label: 'Pocket' }] };
const QUESTION = { id: 'q_1', status: 'live' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function client(script: Scripted[], options: Partial<HeadcountOptions> = {}) {
  const stand = standInFetch(script);
  const hc = new Headcount({ apiKey: API_KEY, baseUrl: 'http://hc.test/', fetch: stand.fetch, ...options });
  return { hc, calls: stand.calls, stand };
}

/** Settles a promise that is expected to reject, so fake-timer advances do not leave it unhandled. */
function outcome<T>(promise: Promise<T>) {
  const settled = promise.then(
    (value) => ({ value, error: undefined as unknown }),
    (error: unknown) => ({ value: undefined, error }),
  );
  return settled;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('what a call sends', () => {
  it('the bearer credential, the client header, JSON, and a fresh Idempotency-Key on an ask, the same key again on its retry', async () => {
    const { hc, calls } = client([
      { status: 503, json: envelope('service_unavailable'), headers: { 'retry-after': '0' } },
      { status: 201, json: { question: QUESTION } },
    ]);
    const question = await hc.questions.ask({ draft: DRAFT, labels: ['naming'] });
    expect(question).toEqual(QUESTION);
    expect(calls).toHaveLength(2);
    const [first, second] = calls;
    expect(first!.method).toBe('POST');
    expect(first!.url).toBe('http://hc.test/v2/questions');
    expect(first!.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(first!.headers.get('x-headcount-client')).toBe(`sdk-ts/${SDK_VERSION}`);
    expect(first!.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(first!.body!)).toEqual({ draft: DRAFT, labels: ['naming'] });
    expect(first!.headers.get('idempotency-key')).toMatch(UUID);
    expect(second!.headers.get('idempotency-key')).toBe(first!.headers.get('idempotency-key'));
    expect(second!.body).toBe(first!.body);
  });

  it('a fresh key for each ask; a given key as given; none on reads', async () => {
    const { hc, calls } = client([
      { status: 201, json: { question: QUESTION } },
      { status: 201, json: { question: QUESTION } },
      { status: 201, json: { question: QUESTION } },
      { status: 200, json: { question: QUESTION } },
    ]);
    await hc.questions.ask({ draft: DRAFT });
    await hc.questions.ask({ draft: DRAFT });
    await hc.questions.ask({ draft: DRAFT }, { idempotencyKey: 'my-key-1' });
    await hc.questions.get('q_1');
    const keys = calls.map((c) => c.headers.get('idempotency-key'));
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBe('my-key-1');
    expect(keys[3]).toBeNull();
  });

  it('addHeads carries a key too; the user agent, Headcount-Account and extra headers when configured', async () => {
    const { hc, calls } = client([{ status: 201, json: { quote: {} } }], { userAgent: 'my-app/1.2', account: 'acc_team', headers: { 'x-trace': 't1' } });
    await hc.questions.addHeads('q_1', { n: 5 }, { headers: { 'x-call': 'c1' } });
    const sent = calls[0]!;
    expect(sent.url).toBe('http://hc.test/v2/questions/q_1/heads');
    expect(sent.headers.get('idempotency-key')).toMatch(UUID);
    expect(sent.headers.get('user-agent')).toBe('my-app/1.2');
    expect(sent.headers.get('headcount-account')).toBe('acc_team');
    expect(sent.headers.get('x-trace')).toBe('t1');
    expect(sent.headers.get('x-call')).toBe('c1');
  });

  it('sends no Authorization without a credential (public calls), refuses a blank one; an API key wins over an access token', async () => {
    const anonymous = client([{ status: 200, json: { estimate: {} } }], { apiKey: undefined });
    await anonymous.hc.request('estimateQuestion', { body: { draft: { type: 'free_text', text: 'Why?' } } } as never);
    expect(anonymous.calls[0]!.headers.get('authorization')).toBeNull();
    expect(() => new Headcount({ apiKey: ' ' })).toThrow(/empty API key/);
    expect(() => new Headcount({ accessToken: '' })).toThrow(TypeError);
    const { hc, calls } = client([{ status: 200, json: { credits: 1 } }], { accessToken: 'hc_ses_x' });
    return hc.billing.balance().then(() => expect(calls[0]!.headers.get('authorization')).toBe(`Bearer ${API_KEY}`));
  });

  it('an access token alone is sent as the bearer', async () => {
    const stand = standInFetch([{ status: 200, json: { credits: 1 } }]);
    await new Headcount({ accessToken: 'oauth-token', fetch: stand.fetch }).billing.balance();
    expect(stand.calls[0]!.url).toBe('http://localhost:8080/v1/billing/balance');
    expect(stand.calls[0]!.headers.get('authorization')).toBe('Bearer oauth-token');
  });
});

describe('retries', () => {
  it("honour Retry-After: the retry goes that many seconds later, not before", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const { hc, calls } = client([
      { status: 429, json: envelope('rate_limited'), headers: { 'retry-after': '2' } },
      { status: 200, json: { credits: 5 } },
    ]);
    const balance = outcome(hc.billing.balance());
    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await balance).value).toEqual({ credits: 5 });
    expect(calls).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('back off exponentially without Retry-After, then give up after maxRetries with the last error', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const { hc, calls } = client([
      { status: 503, json: envelope('service_unavailable', 'down 1') },
      { status: 502, body: '<html>bad gateway</html>', headers: { 'content-type': 'text/html' } },
      { status: 503, json: envelope('service_unavailable', 'down 3') },
    ]);
    const balance = outcome(hc.billing.balance());
    await vi.advanceTimersByTimeAsync(499);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    const { error } = await balance;
    expect(calls).toHaveLength(3);
    expect(error).toBeInstanceOf(HeadcountError);
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable', message: 'down 3' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('do not sleep through a Retry-After over a minute: the error says when to come back', async () => {
    const { hc, calls } = client([{ status: 429, json: envelope('rate_limited'), headers: { 'retry-after': '120' } }]);
    const error = await hc.billing.balance().catch((e: unknown) => e);
    expect(calls).toHaveLength(1);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 120 });
  });

  it('do not repeat answers: 400, 402, 404, 409 conflict, 500', async () => {
    for (const [status, code] of [[400, 'validation_failed'], [402, 'insufficient_credits'], [404, 'not_found'], [409, 'conflict'], [500, 'internal']] as const) {
      const { hc, calls } = client([{ status, json: envelope(code) }]);
      await expect(hc.questions.get('q_1')).rejects.toMatchObject({ status, code });
      expect(calls).toHaveLength(1);
    }
  });

  it('an ask told its key is still in progress (409) asks again with the same key and gets the stored answer', async () => {
    const { hc, calls } = client([
      { status: 409, json: envelope('idempotency_in_progress'), headers: { 'retry-after': '0' } },
      { status: 201, json: { question: QUESTION }, headers: { 'idempotent-replayed': 'true' } },
    ]);
    expect(await hc.questions.ask({ draft: DRAFT })).toEqual(QUESTION);
    expect(calls[1]!.headers.get('idempotency-key')).toBe(calls[0]!.headers.get('idempotency-key'));
  });

  it('502 and 504 are retried for a GET, not for a POST without a key (the service may have acted)', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const get = client([{ status: 504, body: '' }, { status: 200, json: { question: QUESTION } }], {});
    expect(await get.hc.questions.get('q_1')).toEqual(QUESTION);
    expect(get.calls).toHaveLength(2);
    const post = client([{ status: 502, body: 'Bad Gateway', headers: { 'content-type': 'text/plain' } }]);
    const error = await post.hc.questions.cancel('q_1').catch((e: unknown) => e);
    expect(post.calls).toHaveLength(1);
    expect(error).toMatchObject({ status: 502, code: 'http_error' });
    expect((error as Error).message).toContain('Bad Gateway');
  });

  it('network failures: a POST without a key is retried only when the connection was refused; one with a key also after a reset', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const broken = client([{ throw: reset() }]);
    const error = await broken.hc.questions.cancel('q_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HeadcountConnectionError);
    expect((error as Error).message).toMatch(/cancelQuestion: could not reach http:\/\/hc\.test \(fetch failed: other side closed\)/);
    expect(broken.calls).toHaveLength(1);

    const refusedFirst = client([{ throw: refused() }, { status: 200, json: { question: QUESTION, refundCredits: 0 } }]);
    expect(await refusedFirst.hc.questions.cancel('q_1')).toEqual({ question: QUESTION, refundCredits: 0 });
    expect(refusedFirst.calls).toHaveLength(2);

    const ask = client([{ throw: reset() }, { status: 201, json: { question: QUESTION } }]);
    expect(await ask.hc.questions.ask({ draft: DRAFT })).toEqual(QUESTION);
    expect(ask.calls[1]!.headers.get('idempotency-key')).toBe(ask.calls[0]!.headers.get('idempotency-key'));
  });

  it('per call: maxRetries 0 turns them off', async () => {
    const { hc, calls } = client([{ status: 503, json: envelope('service_unavailable'), headers: { 'retry-after': '0' } }]);
    await expect(hc.billing.balance({ maxRetries: 0 })).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(calls).toHaveLength(1);
  });
});

describe('errors', () => {
  it('carry status, code, message, details and requestId from the envelope, and retryAfter from the header', async () => {
    const details = { needed: 240, available: 10 };
    const { hc } = client([{ status: 402, json: envelope('insufficient_credits', 'Not enough credits', details, 'req-42'), headers: { 'x-request-id': 'req-42' } }]);
    const error = await hc.questions.ask({ draft: DRAFT }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HeadcountError);
    expect(error).toMatchObject({ name: 'HeadcountError', status: 402, code: 'insufficient_credits', message: 'Not enough credits', details, requestId: 'req-42', retryAfter: null, operationId: 'askQuestion' });
  });

  it('take the request id from X-Request-Id when the envelope has none, and list validation items', async () => {
    const validation = [{ field: 'draft.text', code: 'required', message: 'draft.text is required.' }];
    const { hc } = client([{ status: 400, json: { error: { code: 'validation_failed', message: 'Invalid body', details: { validation } } }, headers: { 'x-request-id': 'hdr-1' } }]);
    const error = (await hc.billing.balance().catch((e: unknown) => e)) as HeadcountError;
    expect(error.requestId).toBe('hdr-1');
    expect(error.validation).toEqual(validation);
  });

  it('a 2xx whose JSON is broken is invalid_response', async () => {
    const { hc } = client([{ status: 200, body: '{"credits":', headers: { 'content-type': 'application/json' } }]);
    await expect(hc.billing.balance()).rejects.toMatchObject({ status: 200, code: 'invalid_response' });
  });
});

describe('timeouts', () => {
  it('an attempt past timeoutMs is a HeadcountTimeoutError, and leaves no timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { hc } = client(['hang'], { timeoutMs: 1000, maxRetries: 0 });
    const call = outcome(hc.questions.get('q_1'));
    await vi.advanceTimersByTimeAsync(999);
    await vi.advanceTimersByTimeAsync(1);
    const { error } = await call;
    expect(error).toBeInstanceOf(HeadcountTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 1000, operationId: 'getQuestion' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a read that timed out is tried again; a POST without a key is not', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const read = client(['hang', { status: 200, json: { question: QUESTION } }], { timeoutMs: 1000 });
    const got = outcome(read.hc.questions.get('q_1'));
    await vi.advanceTimersByTimeAsync(1000 + 250);
    expect((await got).value).toEqual(QUESTION);
    const post = client(['hang'], { timeoutMs: 1000 });
    const cancelled = outcome(post.hc.questions.cancel('q_1'));
    await vi.advanceTimersByTimeAsync(1000);
    expect((await cancelled).error).toBeInstanceOf(HeadcountTimeoutError);
    expect(post.calls).toHaveLength(1);
  });

  it("a wait's attempt gets its seconds + 15 s, whatever timeoutMs says", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { hc, calls } = client(['hang'], { timeoutMs: 1000, maxRetries: 0 });
    const waited = outcome(hc.questions.wait('q_1', { seconds: 2 }));
    await vi.advanceTimersByTimeAsync(16_999);
    expect(calls[0]!.url).toBe('http://hc.test/v2/questions/q_1/wait?seconds=2');
    await vi.advanceTimersByTimeAsync(1);
    expect((await waited).error).toMatchObject({ name: 'HeadcountTimeoutError', timeoutMs: 17_000 });
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('abort', () => {
  it('rejects with the signal\'s reason before, during an attempt and during a backoff, and leaves no timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const before = client([]);
    const reason = new Error('stop');
    await expect(before.hc.billing.balance({ signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(before.calls).toHaveLength(0);

    const during = client(['hang']);
    const controller = new AbortController();
    const call = outcome(during.hc.billing.balance({ signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    expect((await call).error).toMatchObject({ name: 'AbortError' });

    const backoff = client([{ status: 503, json: envelope('service_unavailable'), headers: { 'retry-after': '30' } }]);
    const second = new AbortController();
    const waiting = outcome(backoff.hc.billing.balance({ signal: second.signal }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(vi.getTimerCount()).toBe(1);
    second.abort(reason);
    expect((await waiting).error).toBe(reason);
    expect(backoff.calls).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('request', () => {
  it('answers JSON parsed and other content as bytes', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.7 …');
    const { hc, calls } = client([
      { status: 200, body: pdf, headers: { 'content-type': 'application/pdf' } },
      { status: 200, json: { questions: [], nextCursor: null } },
    ]);
    const bytes = await hc.request('exportPdf', { path: { id: 'q_1' } });
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(bytes)).toBe('%PDF-1.7 …');
    const page = await hc.request('listQuestions', { query: { limit: 5, archived: 'include' } });
    expect(page).toEqual({ questions: [], nextCursor: null });
    expect(calls[1]!.url).toBe('http://hc.test/v2/questions?limit=5&archived=include');
  });

  it('refuses an operationId the document does not have', async () => {
    const { hc } = client([]);
    // @ts-expect-error not an operation
    await expect(hc.request('dropTables')).rejects.toThrow(/Unknown operationId "dropTables"/);
  });
});
