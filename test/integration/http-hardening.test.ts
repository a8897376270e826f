import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { ask, choiceDraft, grant, sleep } from '../helpers/questions.ts';
import { call, listen, rawExchange, type RawReply } from '../helpers/real-http.ts';

/**
 * What a hostile or broken client meets over a real socket (RELIABILITY R7.5: spoofed headers,
 * slow clients, malformed and deeply nested bodies): every answer is the JSON error envelope
 * `{error:{code,message,details?,requestId}}`, never a 500, and no connection lives forever.
 * The app listens on 127.0.0.1 with short timeouts (2 s for a request, 1 s for its headers) and a
 * 3 MB body limit, so a body nested a million levels deep fits in it.
 */
const REQUEST_S = 2;
const HEADERS_S = 1;

let t: TestApp;
let base: string;
let key: TestKey;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      REQUEST_TIMEOUT_SECONDS: String(REQUEST_S),
      HEADERS_TIMEOUT_SECONDS: String(HEADERS_S),
      KEEP_ALIVE_TIMEOUT_SECONDS: '5',
      BODY_LIMIT_BYTES: String(3 * 1024 * 1024),
      RATE_LIMIT_PER_IP: '100000',
      RATE_LIMIT_PER_KEY: '100000',
    },
  });
  base = await listen(t.app);
  key = await t.makeKey();
  await grant(t, key.accountId, 100_000);
});
afterAll(async () => {
  await Promise.race([t?.close(), sleep(5_000)]);
});

/** The body of a response as the error envelope, checked for its shape. */
function envelope(body: string, headers: Record<string, string | string[] | undefined>): { code: string; message: string; details?: any; requestId: string } {
  const parsed = JSON.parse(body);
  expect(Object.keys(parsed)).toEqual(['error']);
  const { error } = parsed;
  expect(typeof error.code).toBe('string');
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  expect(typeof error.requestId).toBe('string');
  expect(headers['x-request-id']).toBe(error.requestId);
  expect(headers['content-type']).toMatch(/^application\/json/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  return error;
}

function expectRawError(reply: RawReply, status: number, code: string) {
  expect(reply.status, reply.raw.slice(0, 300)).toBe(status);
  const error = envelope(reply.body, reply.headers);
  expect(error.code).toBe(code);
  expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.body));
  expect(reply.headers.connection).toBe('close');
  expect(reply.closed, 'the server closes the connection').toBe(true);
  return error;
}

// ---------------------------------------------------------------------------------------------

describe('deeply nested JSON (point 5): a 400 naming the body, never a 500', () => {
  const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}1${close.repeat(depth)}`;

  it.each([
    ['65 arrays', nested(65)],
    ['4,000 arrays', nested(4_000)],
    ['100,000 arrays', nested(100_000)],
    ['1,000,000 arrays', nested(1_000_000)],
    ['100,000 objects', nested(100_000, '{"a":', '}')],
    ['400,000 objects and arrays', nested(200_000, '{"a":[', ']}')],
    ['deep inside a real draft', JSON.stringify({ draft: { type: 'single_choice', text: 'Deep?' } }).replace('"Deep?"', nested(10_000))],
  ])('%s → 400 validation_failed on the body', async (_label, body) => {
    const routes = [
      ['/v1/billing/estimate', {}],
      ['/v2/questions', { ...key.auth, 'idempotency-key': `deep-${body.length}` }],
      ['/v1/drafts', {}],
    ] as const;
    // Megabyte bodies on one route only: the point is the depth, not the upload time.
    for (const [path, headers] of body.length > 1_000_000 ? routes.slice(0, 1) : routes) {
      const reply = await call(base, path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
      expect(reply.status, `${path}: ${reply.body.slice(0, 200)}`).toBe(400);
      const error = envelope(reply.body, reply.headers);
      expect(error.code).toBe('validation_failed');
      expect(error.details.validation).toEqual([{ field: 'body', code: 'too_many', message: 'The body is nested more than 64 levels deep.' }]);
    }
  }, 60_000);

  it('64 levels still reach validation, which names the field', async () => {
    const reply = await call(base, '/v1/billing/estimate', { method: 'POST', json: { draft: JSON.parse(nested(63)) } });
    expect(reply.status).toBe(400);
    expect(envelope(reply.body, reply.headers).details.validation[0].field).toMatch(/^draft/);
  });
});

// ---------------------------------------------------------------------------------------------

describe("what Node's parser refuses (point 6): the envelope on a minimal HTTP/1.1 response, then close", () => {
  const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

  it.each([
    ['an obs-fold continuation line', head(['GET /healthz HTTP/1.1', 'Host: x', 'X-Folded: a', ' b'])],
    ['a NUL in a header value', head(['GET /healthz HTTP/1.1', 'Host: x', 'X-Nul: a\u0000b'])],
    ['a NUL in a header name', head(['GET /healthz HTTP/1.1', 'Host: x', 'X-N\u0000ul: a'])],
    ['a malformed request line', head(['GET /healthz HTTP/9.z', 'Host: x'])],
    ['a method with a space in it', head(['G T /healthz HTTP/1.1', 'Host: x'])],
    ['Content-Length and Transfer-Encoding together', head(['POST /v1/billing/estimate HTTP/1.1', 'Host: x', 'Content-Length: 2', 'Transfer-Encoding: chunked'])],
    ['a Content-Length that is not a number', head(['POST /v1/billing/estimate HTTP/1.1', 'Host: x', 'Content-Length: two'])],
  ])('%s → 400 validation_failed', async (_label, bytes) => {
    const error = expectRawError(await rawExchange(base, [bytes]), 400, 'validation_failed');
    expect(error.details.validation).toHaveLength(1);
    expect(error.details.validation[0].code).toBe('invalid_format');
  });

  it('oversized headers → 431 headers_too_large', async () => {
    const reply = await rawExchange(base, [head(['GET /healthz HTTP/1.1', 'Host: x', `X-Big: ${'a'.repeat(20_000)}`])]);
    expectRawError(reply, 431, 'headers_too_large');
  });

  it('the service keeps answering others meanwhile', async () => {
    expect((await call(base, '/healthz')).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------

describe('slow and silent clients (point 7)', () => {
  const post = (length: number) => `POST /v1/billing/estimate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it(`a body sent a byte a second is cut after REQUEST_TIMEOUT_SECONDS (${REQUEST_S} s) with 408 request_timeout`, async () => {
    const drip = Array.from({ length: 20 }, () => [1000, ' ']).flat();
    const reply = await rawExchange(base, [post(100), '{', ...drip], { timeoutMs: 15_000 });
    expectRawError(reply, 408, 'request_timeout');
    expect(reply.ms).toBeGreaterThanOrEqual(REQUEST_S * 1000 - 100);
    expect(reply.ms).toBeLessThan(REQUEST_S * 1000 + 2500);
  });

  it(`headers sent a byte at a time are cut after HEADERS_TIMEOUT_SECONDS (${HEADERS_S} s) with 408`, async () => {
    const drip = Array.from({ length: 20 }, () => [300, 'a']).flat();
    const reply = await rawExchange(base, ['GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ', ...drip], { timeoutMs: 10_000 });
    expectRawError(reply, 408, 'request_timeout');
    expect(reply.ms).toBeLessThan(HEADERS_S * 1000 + 2500);
  });

  it('a connection that never sends anything is closed too', async () => {
    const reply = await rawExchange(base, [], { timeoutMs: 10_000 });
    expect(reply.closed).toBe(true);
    expect(reply.ms).toBeLessThan(HEADERS_S * 1000 + 2500);
    if (reply.status !== null) expectRawError(reply, 408, 'request_timeout');
  });

  it('fifty slow bodies at once: /healthz still answers, and they are all gone after the timeout', async () => {
    const sockets = await Promise.all(
      Array.from({ length: 50 }, () => new Promise<net.Socket>((resolve) => {
        const socket = net.connect({ port: Number(new URL(base).port), host: '127.0.0.1' }, () => {
          socket.write(`${post(1000)}{`);
          resolve(socket);
        });
        socket.on('error', () => {});
        socket.resume(); // read what comes back, so the server's close is seen
      })),
    );
    const closed = sockets.map((socket) => new Promise<void>((resolve) => socket.once('close', () => resolve())));
    const health = await call(base, '/healthz');
    expect(health.status).toBe(200);
    const started = Date.now();
    await Promise.race([Promise.all(closed), sleep(REQUEST_S * 1000 + 4000)]);
    expect(sockets.filter((socket) => !socket.destroyed && !socket.closed)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(REQUEST_S * 1000 + 4000);
  });

  it('a slow response is not cut by the request timeout (it covers receiving the request only)', async () => {
    const question = await ask(t, key, choiceDraft({ n: 20 }));
    const started = Date.now();
    const reply = await call(base, `/v2/questions/${question.id}/wait?seconds=${REQUEST_S + 1}`, { headers: key.auth });
    expect(reply.status, reply.body.slice(0, 200)).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual((REQUEST_S + 1) * 1000 - 100);
  });

  it('keep-alive connections are told the keep-alive timeout', async () => {
    const reply = await call(base, '/healthz', { headers: { connection: 'keep-alive' } });
    expect(reply.headers['keep-alive']).toBe('timeout=5');
  });
});

// ---------------------------------------------------------------------------------------------

describe('X-Content-Type-Options: nosniff on every response (point 11)', () => {
  it('JSON, errors of every kind, the PNG heatmap, pages and the description', async () => {
    const click = await ask(t, key, { type: 'click_test', text: 'Where would you tap to pay?', stimulus: { imageUrl: 'https://img.example.com/pay.png' }, clickTest: { maxTaps: 1 }, n: 10 });
    const responses = {
      json: await call(base, '/v1/config'),
      notFound: await call(base, '/v2/nothing-here'),
      unauthorized: await call(base, '/v2/questions'),
      badJson: await call(base, '/v1/billing/estimate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
      badUrl: await call(base, '/v2/questions/%E0%A4%A'),
      png: await call(base, `/v2/questions/${click.id}/heatmap.png`, { headers: key.auth }),
      page: await call(base, `/a/${click.linkCode}`),
      openapi: await call(base, '/openapi.json'),
      healthz: await call(base, '/healthz'),
    };
    expect(responses.png.headers['content-type']).toBe('image/png');
    for (const [name, reply] of Object.entries(responses)) expect(reply.headers['x-content-type-options'], name).toBe('nosniff');
  });
});

// ---------------------------------------------------------------------------------------------

describe('while the server closes (point 6): 503 service_unavailable in the envelope', () => {
  it('a request arriving on an open keep-alive connection gets 503 with Retry-After and Connection: close', async () => {
    const closing = await createTestApp({ env: { RATE_LIMIT_PER_KEY: '100000' } });
    try {
      const url = await listen(closing.app);
      const owner = await closing.makeKey();
      await grant(closing, owner.accountId, 10_000);
      const question = await ask(closing, owner, choiceDraft({ n: 20 }));
      // A long-poll holds the connection (and the close) open; a second request follows on the
      // same connection once the close has begun.
      const waitRequest = `GET /v2/questions/${question.id}/wait?seconds=3 HTTP/1.1\r\nHost: x\r\nAuthorization: ${owner.auth.authorization}\r\n\r\n`;
      const exchange = rawExchange(url, [waitRequest, 500, 'GET /v1/config HTTP/1.1\r\nHost: x\r\n\r\n'], { timeoutMs: 15_000 });
      await sleep(250);
      const closed = closing.app.close();
      const reply = await exchange;
      await closed;
      // Two responses on one connection: the wait's, then the 503.
      const second = reply.raw.lastIndexOf('HTTP/1.1 ');
      expect(second, reply.raw.slice(0, 400)).toBeGreaterThan(0);
      const last = await parseLast(reply.raw.slice(second));
      expect(last.status).toBe(503);
      expect(last.headers['retry-after']).toBe('5');
      expect(last.headers.connection).toBe('close');
      expect(envelope(last.body, last.headers).code).toBe('service_unavailable');
    } finally {
      await Promise.race([closing.close(), sleep(5_000)]);
    }
  });
});

/** Status, headers and body of one raw HTTP/1.1 response (Content-Length framed). */
async function parseLast(raw: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const end = raw.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.slice(end + 4, end + 4 + Number(headers['content-length'])) };
}
