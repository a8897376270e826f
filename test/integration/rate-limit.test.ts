import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Rate limits (spec "Limits", "Errors"; ARCHITECTURE §4; docs/api.md; R6.3) with small limits set
 * through the environment. Windows are one real minute (the limiter does not use the fake clock),
 * so every test uses its own client address or its own key to start from a fresh window. The
 * in-memory store is used: createTestApp never reads REDIS_URL from the real environment.
 */
const PER_IP = 4;
const PER_KEY = 3;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_PER_IP: String(PER_IP), RATE_LIMIT_PER_KEY: String(PER_KEY) } });
});
afterAll(async () => {
  await t?.close();
});

let addresses = 0;
/** A client address no other test has used. */
const newClient = () => `198.51.100.${++addresses}`;

const from = (remoteAddress: string, request: InjectOptions): Promise<LightMyRequestResponse> => t.inject({ ...request, remoteAddress });
const config = (ip: string, headers: Record<string, string> = {}) => from(ip, { method: 'GET', url: '/v1/config', headers });
const estimate = (ip: string) =>
  from(ip, { method: 'POST', url: '/v1/billing/estimate', payload: { draft: { type: 'yes_mostly_no', text: 'Would you use it?' } } });

function expectLimited(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(429);
  const { error } = response.json();
  expect(error.code).toBe('rate_limited');
  expect(error.message.length).toBeGreaterThan(0);
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe('per IP, without a credential', () => {
  it(`allows ${PER_IP} requests a minute, then answers 429 rate_limited with Retry-After`, async () => {
    const ip = newClient();
    for (let i = 1; i <= PER_IP; i++) {
      const response = await config(ip);
      expect(response.statusCode, `request ${i}`).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe(String(PER_IP));
      expect(response.headers['x-ratelimit-remaining']).toBe(String(PER_IP - i));
    }
    expectLimited(await config(ip));
    // Every public route shares the one budget.
    expectLimited(await from(ip, { method: 'GET', url: '/v1/tags' }));
    expectLimited(await estimate(ip));
  });

  it('keeps clients apart', async () => {
    const busy = newClient();
    for (let i = 0; i < PER_IP; i++) await config(busy);
    expectLimited(await config(busy));
    expect((await config(newClient())).statusCode).toBe(200);
  });

  it(`counts an estimate as half a request: ${2 * PER_IP} estimates pass, the next is 429`, async () => {
    const ip = newClient();
    for (let i = 1; i <= 2 * PER_IP; i++) expect((await estimate(ip)).statusCode, `estimate ${i}`).toBe(200);
    expectLimited(await estimate(ip));
  });

  it('mixes estimates and whole requests in one budget', async () => {
    const ip = newClient();
    // 2 whole requests + 4 estimates = 4 requests' worth.
    expect((await config(ip)).statusCode).toBe(200);
    expect((await config(ip)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await estimate(ip)).statusCode).toBe(200);
    expectLimited(await estimate(ip));
  });

  it('a bad credential does not escape the per-IP limit', async () => {
    const ip = newClient();
    for (let i = 0; i < PER_IP; i++) expect((await config(ip, { authorization: 'Bearer nonsense' })).statusCode).toBe(200);
    expectLimited(await config(ip, { authorization: 'Bearer nonsense' }));
  });

  it('never limits /healthz and /readyz', async () => {
    const ip = newClient();
    for (let i = 0; i < PER_IP; i++) await config(ip);
    expectLimited(await config(ip));
    for (let i = 0; i < 3 * PER_IP; i++) {
      expect((await from(ip, { method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    }
    expect((await from(ip, { method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});

describe('per key', () => {
  it(`allows ${PER_KEY} requests a minute per key, then 429, while another key still passes`, async () => {
    const ip = newClient();
    const first = await t.makeKey(['account:read', 'questions:read']);
    const second = await t.makeKey(['account:read']);
    for (let i = 1; i <= PER_KEY; i++) {
      const response = await from(ip, { method: 'GET', url: '/v1/billing/balance', headers: first.auth });
      expect(response.statusCode, `request ${i}`).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe(String(PER_KEY));
    }
    expectLimited(await from(ip, { method: 'GET', url: '/v1/billing/balance', headers: first.auth }));
    expectLimited(await from(ip, { method: 'GET', url: '/v1/drafts', headers: first.auth }));
    // Same address, another key: its own budget.
    expect((await from(ip, { method: 'GET', url: '/v1/billing/balance', headers: second.auth })).statusCode).toBe(200);
    // The same key from another address is still limited: the budget is the key's.
    expectLimited(await from(newClient(), { method: 'GET', url: '/v1/billing/balance', headers: first.auth }));
  });

  it("a key's requests do not use up its address's anonymous budget", async () => {
    const ip = newClient();
    const key = await t.makeKey(['account:read']);
    for (let i = 0; i < PER_KEY; i++) await from(ip, { method: 'GET', url: '/v1/billing/balance', headers: key.auth });
    for (let i = 0; i < PER_IP; i++) expect((await config(ip)).statusCode).toBe(200);
  });
});
