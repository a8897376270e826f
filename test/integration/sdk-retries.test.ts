import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { listen } from '../helpers/real-http.ts';
import { fundedKey, ledgerRowsOf, NO_RATE_LIMITS, sleep } from '../helpers/questions.ts';
import { Headcount, HeadcountConnectionError, HeadcountError, type Schemas } from '../../packages/sdk/src/index.ts';

/**
 * The SDK's retries over real sockets: a local HTTP stand-in answers 429 and 503 with
 * Retry-After (seconds, and an HTTP date) and the retry comes no sooner; a stand-in proxy in
 * front of the real service answers 502 after the service handled the request, so an ask (which
 * carries an Idempotency-Key) is retried and gets its stored answer, charged once, while a cancel
 * (no key) is not retried; a refused connection is retried even for a POST; an attempt that gets
 * no answer within timeoutMs is abandoned and retried.
 */
interface Seen {
  method: string;
  url: string;
  at: number;
  headers: http.IncomingHttpHeaders;
}

type Handler = (request: http.IncomingMessage, response: http.ServerResponse, index: number) => void | Promise<void>;

async function standIn(handler: Handler): Promise<{ base: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', at: Date.now(), headers: request.headers });
    void handler(request, response, seen.length - 1);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function json(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}
const envelope = (code: string) => ({ error: { code, message: `${code} (stand-in)`, requestId: 'stand-in' } });
const BALANCE = { credits: 500, reserved: 0, expiring: [], currency: 'GBP', capRemaining: null, freeQuestionToday: true };

let t: TestApp;
let serviceBase: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ...NO_RATE_LIMITS } });
  serviceBase = await listen(t.app);
}, 120_000);
afterAll(async () => {
  await Promise.race([t?.close(), sleep(5_000)]);
});

describe('Retry-After', () => {
  it('a 429 with Retry-After: 1 is retried no sooner than a second later', async () => {
    const server = await standIn((_, response, index) =>
      index === 0 ? json(response, 429, envelope('rate_limited'), { 'retry-after': '1' }) : json(response, 200, BALANCE),
    );
    try {
      const hc = new Headcount({ apiKey: 'hc_test_x', baseUrl: server.base });
      expect(await hc.billing.balance()).toEqual(BALANCE);
      expect(server.seen).toHaveLength(2);
      expect(server.seen[1]!.at - server.seen[0]!.at).toBeGreaterThanOrEqual(1000);
      expect(server.seen[1]!.at - server.seen[0]!.at).toBeLessThan(3000);
    } finally {
      await server.close();
    }
  });

  it('a 503 with an HTTP-date Retry-After waits until that date; a POST too (503 means nothing was done)', async () => {
    const server = await standIn((_, response, index) => {
      if (index === 0) return json(response, 503, envelope('service_unavailable'), { 'retry-after': new Date(Date.now() + 2000).toUTCString() });
      json(response, 200, { question: { id: 'q_1' }, refundCredits: 0 });
    });
    try {
      const hc = new Headcount({ apiKey: 'hc_test_x', baseUrl: server.base });
      expect(await hc.questions.cancel('q_1')).toEqual({ question: { id: 'q_1' }, refundCredits: 0 });
      expect(server.seen.map((s) => s.method)).toEqual(['POST', 'POST']);
      // An HTTP date has whole seconds: at least one of the two seconds is certain.
      expect(server.seen[1]!.at - server.seen[0]!.at).toBeGreaterThanOrEqual(1000);
    } finally {
      await server.close();
    }
  });

  it('after maxRetries the last 503 is thrown with its code and retryAfter', async () => {
    const server = await standIn((_, response) => json(response, 503, envelope('service_unavailable'), { 'retry-after': '0' }));
    try {
      const hc = new Headcount({ apiKey: 'hc_test_x', baseUrl: server.base, maxRetries: 3 });
      await expect(hc.billing.balance()).rejects.toMatchObject({ status: 503, code: 'service_unavailable', retryAfter: 0, requestId: 'stand-in' });
      expect(server.seen).toHaveLength(4);
    } finally {
      await server.close();
    }
  });
});

describe('a 502 from a proxy after the service acted', () => {
  /** A proxy to the real service that answers 502 instead of the service's first answer to `match`. */
  async function lossyProxy(match: (method: string, url: string) => boolean) {
    let failed = 0;
    return standIn(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)) as Array<[string, string]>);
      const upstream = await fetch(`${serviceBase}${request.url}`, { method: request.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      const body = Buffer.from(await upstream.arrayBuffer());
      if (match(request.method ?? '', request.url ?? '') && failed++ === 0) {
        response.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>');
        return;
      }
      response.writeHead(upstream.status, Object.fromEntries([...upstream.headers].filter(([name]) => !['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name))));
      response.end(body);
    });
  }

  it('an ask is retried with the same key and gets its stored answer: one question, charged once', async () => {
    const proxy = await lossyProxy((method, url) => method === 'POST' && url === '/v2/questions');
    try {
      const key = await fundedKey(t, 10_000);
      const hc = new Headcount({ apiKey: key.secret, baseUrl: proxy.base });
      const draft: Schemas['QuestionDraft'] = { type: 'single_choice', text: 'Which name is best?', options: [{ label: 'Penny' }, { label: 'Pocket' }], n: 10 };
      const response = await hc.requestWithResponse('askQuestion', { body: { draft } });
      const asks = proxy.seen.filter((s) => s.method === 'POST');
      expect(asks).toHaveLength(2);
      expect(asks[1]!.headers['idempotency-key']).toBe(asks[0]!.headers['idempotency-key']);
      expect(response.headers.get('idempotent-replayed')).toBe('true');
      const question = response.data.question;
      expect((await hc.questions.listPage()).questions.map((q) => q.id)).toEqual([question.id]);
      expect((await ledgerRowsOf(t, key, question.id)).map((row) => row.kind)).toEqual(['ask']);
      expect((await hc.billing.balance()).reserved).toBe(question.creditsReserved);
    } finally {
      await proxy.close();
    }
  });

  it('a cancel (no key) is not retried: the 502 is thrown, and the cancel did happen', async () => {
    const proxy = await lossyProxy((method, url) => method === 'POST' && url.endsWith('/cancel'));
    try {
      const key = await fundedKey(t, 10_000);
      const hc = new Headcount({ apiKey: key.secret, baseUrl: proxy.base });
      const question = await hc.questions.ask({ draft: { type: 'free_text', text: 'What would you call it?', n: 10 } });
      const error = (await hc.questions.cancel(question.id).catch((e: unknown) => e)) as HeadcountError;
      expect(error).toBeInstanceOf(HeadcountError);
      expect(error).toMatchObject({ status: 502, code: 'http_error' });
      expect(proxy.seen.filter((s) => s.url.endsWith('/cancel'))).toHaveLength(1);
      // A retry would have been told 409 conflict (already closed) for a cancel that worked.
      expect(await hc.questions.get(question.id)).toMatchObject({ status: 'cancelled' });
    } finally {
      await proxy.close();
    }
  });
});

describe('no answer at all', () => {
  it('a refused connection is retried even for a POST without a key, as it never reached the service', async () => {
    // A port that was free a moment ago: the first attempt is refused, the retry finds a server there.
    const probe = await standIn(() => {});
    const port = Number(new URL(probe.base).port);
    await probe.close();
    const hc = new Headcount({ apiKey: 'hc_test_x', baseUrl: `http://127.0.0.1:${port}` });
    const cancelling = hc.questions.cancel('q_1');
    const seen: string[] = [];
    const server = http.createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      json(response, 200, { question: { id: 'q_1' }, refundCredits: 3 });
    });
    await sleep(50);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      expect(await cancelling).toEqual({ question: { id: 'q_1' }, refundCredits: 3 });
      expect(seen).toEqual(['POST /v2/questions/q_1/cancel']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('with nothing listening, the call ends in HeadcountConnectionError after its retries', async () => {
    const probe = await standIn(() => {});
    const base = probe.base;
    await probe.close();
    const hc = new Headcount({ apiKey: 'hc_test_x', baseUrl: base, maxRetries: 1 });
    const error = await hc.billing.balance().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HeadcountConnectionError);
    expect((error as Error).message).toMatch(/getBalance: could not reach http:\/\/127\.0\.0\.1:\d+/);
  });

  it('an attempt with no answer within timeoutMs is abandoned (its connection closed) and a read is retried', async () => {
    let abandoned = false;
    const server = await standIn((request, response, index) => {
      if (index === 0) {
        request.socket.on('close', () => (abandoned = true));
        return; // never answers
      }
      json(response, 200, BALANCE);
    });
    try {
      const hc = new Headcount({ apiKey: 'hc_test_x', baseUrl: server.base, timeoutMs: 500 });
      const started = Date.now();
      expect(await hc.billing.balance()).toEqual(BALANCE);
      expect(Date.now() - started).toBeGreaterThanOrEqual(500);
      expect(server.seen).toHaveLength(2);
      await expect.poll(() => abandoned).toBe(true);
    } finally {
      await server.close();
    }
  });
});
