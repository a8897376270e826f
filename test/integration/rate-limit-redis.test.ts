import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createResponseValidator, type ResponseValidator } from '../helpers/openapi-validator.ts';
import { askRaw, balanceOf, choiceDraft, errorOf, fundedKey, seedHeads } from '../helpers/questions.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { createContainer } from '../../src/container.ts';
import { buildApp } from '../../src/app.ts';
import { REDIS_COMMAND_TIMEOUT_MS, connectRateLimitRedis, createWeightedStore } from '../../src/http/rate-limit-store.ts';

/**
 * R6.3 with Redis: "with Redis configured [rate limits] hold across processes; money limits never
 * depend on Redis".
 *
 * - With TEST_REDIS_URL (e.g. redis://127.0.0.1:6379; CI sets it, `npm test` does not): two
 *   independent apps on one database, each with its own Redis connection, share the per-IP and
 *   per-key budgets and the "an estimate counts half" rule. Every run uses its own key prefix
 *   (RATE_LIMIT_REDIS_PREFIX), so parallel runs and leftovers of earlier ones cannot meet, and
 *   deletes its keys at the end.
 * - Always (no Redis server needed): with REDIS_URL pointing at nothing, requests pass (rate
 *   limiting fails open, with a warning in the log) and the daily spend cap and the balance, kept
 *   in PostgreSQL, still refuse an ask that would exceed them.
 *
 * Windows are one real minute (the limiter does not use the fake clock): every test uses its own
 * client address or key.
 */
const TEST_REDIS_URL = process.env.TEST_REDIS_URL?.trim() || undefined;
const PER_IP = 4;
const PER_KEY = 3;
const LIMITS = { RATE_LIMIT_PER_IP: String(PER_IP), RATE_LIMIT_PER_KEY: String(PER_KEY) };

let addresses = 0;
/** A client address no other test of this file has used. */
const newClient = () => `203.0.113.${++addresses}`;

const estimateRequest: InjectOptions = { method: 'POST', url: '/v1/billing/estimate', payload: { draft: { type: 'yes_mostly_no', text: 'Would you use it?' } } };

function expectLimited(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(429);
  const { error } = response.json();
  expect(error.code).toBe('rate_limited');
  expect(error.message).toMatch(/Retry-After/);
  expect(error.requestId).toBe(response.headers['x-request-id']);
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe.skipIf(!TEST_REDIS_URL)('with Redis: two apps share one budget (R6.3)', () => {
  const prefix = `hc:test:${randomBytes(8).toString('hex')}:`;
  let t: TestApp;
  let other: { app: FastifyInstance; database: Database; check: ResponseValidator } | null = null;
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(TEST_REDIS_URL!, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 3_000, retryStrategy: () => null });
    let cause: Error | null = null;
    redis.on('error', (error: Error) => (cause = error));
    try {
      await redis.connect();
      await redis.ping();
    } catch (error) {
      const why = (cause ?? (error as Error)).message;
      throw new Error(`TEST_REDIS_URL is set but Redis at ${TEST_REDIS_URL} cannot be reached (${why}). Start Redis, or unset TEST_REDIS_URL to skip this suite.`);
    }
    t = await createTestApp({ env: { ...LIMITS, REDIS_URL: TEST_REDIS_URL!, RATE_LIMIT_REDIS_PREFIX: prefix } });
    // The second app: its own database pool (joining the first's embedded instance, or its own
    // pool on a PostgreSQL server), its own container, its own Redis connection. Two processes in
    // all but the process.
    const database = await openDatabase(t.config, { joinRunningInstance: true, poolSize: 2 });
    const app = await buildApp(createContainer(t.config, database, t.clock), { logger: false });
    other = { app, database, check: createResponseValidator((await app.inject({ method: 'GET', url: '/openapi.json' })).json()) };
  });

  afterAll(async () => {
    await other?.app.close();
    await other?.database.close();
    await t?.close();
    if (redis?.status === 'ready') {
      const keys: string[] = [];
      for await (const batch of redis.scanStream({ match: `${prefix}*`, count: 100 })) keys.push(...(batch as string[]));
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    } else redis?.disconnect();
  });

  /** Request `i` (from 0) goes to the first app when even, to the second when odd. */
  async function alternate(i: number, remoteAddress: string, request: InjectOptions): Promise<LightMyRequestResponse> {
    if (i % 2 === 0) return t.inject({ ...request, remoteAddress });
    const response = await other!.app.inject({ ...request, remoteAddress });
    other!.check.check({
      method: request.method ?? 'GET',
      url: String(request.url),
      statusCode: response.statusCode,
      headers: response.headers,
      body: response.body,
    });
    return response;
  }
  const config = (i: number, ip: string, headers: Record<string, string> = {}) => alternate(i, ip, { method: 'GET', url: '/v1/config', headers });
  const estimate = (i: number, ip: string) => alternate(i, ip, estimateRequest);
  const units = async (name: string) => Number(await redis.get(prefix + name));

  it('the counters live in Redis under this run\'s prefix, with the window as their expiry', async () => {
    const ip = newClient();
    expect((await config(0, ip)).statusCode).toBe(200);
    expect((await config(1, ip)).statusCode).toBe(200);
    // Half-units: a whole request adds 2 (see src/http/rate-limit-store.ts).
    expect(await units(`ip:${ip}`)).toBe(4);
    const ttl = await redis.pttl(`${prefix}ip:${ip}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it(`per IP: ${PER_IP} requests alternating between the apps pass, then both answer 429 with Retry-After; a fresh address passes`, async () => {
    const ip = newClient();
    for (let i = 0; i < PER_IP; i++) {
      const response = await config(i, ip);
      expect(response.statusCode, `request ${i + 1}`).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe(String(PER_IP));
      // The remaining count is the shared one, whichever app answers.
      expect(response.headers['x-ratelimit-remaining']).toBe(String(PER_IP - i - 1));
    }
    expectLimited(await config(0, ip));
    expectLimited(await config(1, ip));
    // Every public route shares the one budget, on both apps.
    expectLimited(await alternate(1, ip, { method: 'GET', url: '/v1/tags' }));
    expectLimited(await estimate(0, ip));
    expect((await config(1, newClient())).statusCode).toBe(200);
    expect((await config(0, newClient())).statusCode).toBe(200);
  });

  it(`per IP, at once: ${3 * PER_IP} parallel requests split over the two apps, exactly ${PER_IP} pass`, async () => {
    const ip = newClient();
    const responses = await Promise.all(Array.from({ length: 3 * PER_IP }, (_, i) => config(i, ip)));
    const passed = responses.filter((r) => r.statusCode === 200).length;
    expect(passed).toBe(PER_IP);
    for (const response of responses.filter((r) => r.statusCode !== 200)) expectLimited(response);
  });

  it(`per key: ${PER_KEY} requests alternating between the apps pass, then 429 on both; another key still passes`, async () => {
    const ip = newClient();
    const first = await t.makeKey(['account:read']);
    const second = await t.makeKey(['account:read']);
    const balance = (i: number, key: { auth: { authorization: string } }, from = ip) => alternate(i, from, { method: 'GET', url: '/v1/billing/balance', headers: key.auth });
    for (let i = 0; i < PER_KEY; i++) {
      const response = await balance(i, first);
      expect(response.statusCode, `request ${i + 1}`).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe(String(PER_KEY));
      expect(response.headers['x-ratelimit-remaining']).toBe(String(PER_KEY - i - 1));
    }
    expectLimited(await balance(0, first));
    expectLimited(await balance(1, first));
    // The budget is the key's: another address does not help, another key has its own.
    expectLimited(await balance(1, first, newClient()));
    expect((await balance(0, second)).statusCode).toBe(200);
    expect((await balance(1, second)).statusCode).toBe(200);
    // The key's requests did not use up the address's anonymous budget.
    expect((await config(0, ip)).statusCode).toBe(200);
  });

  it(`an estimate counts half across the apps: ${2 * PER_IP} estimates pass, the next is 429 on either`, async () => {
    const ip = newClient();
    for (let i = 0; i < 2 * PER_IP; i++) expect((await estimate(i, ip)).statusCode, `estimate ${i + 1}`).toBe(200);
    expect(await units(`ip:${ip}`)).toBe(2 * PER_IP);
    expectLimited(await estimate(0, ip));
    expectLimited(await estimate(1, ip));
  });

  it('a reply that arrives while the process is busy past the timeout still counts (a loaded machine does not fail open)', async () => {
    // The service's own client and store, as the app builds them.
    const connection = connectRateLimitRedis(TEST_REDIS_URL!, { warn: () => {}, info: () => {} });
    try {
      await connection.redis.ping();
      const Store = createWeightedStore(connection.redis, { namespace: prefix });
      const store = new Store();
      const outcome = new Promise<{ error: Error | null; current?: number }>((resolve) =>
        store.incr('busy', (error, result) => resolve({ error, current: result?.current }), 60_000),
      );
      // The command is on the wire; hold the event loop past the timeout while Redis replies.
      const until = performance.now() + REDIS_COMMAND_TIMEOUT_MS + 300;
      while (performance.now() < until);
      expect(await outcome).toEqual({ error: null, current: 1 });
      expect(await units('busy')).toBe(2);
    } finally {
      await connection.close();
    }
  });

  it('estimates and whole requests from both apps fill one budget', async () => {
    const ip = newClient();
    // 2 whole requests (one on each app) + 4 estimates (two on each) = 4 requests' worth.
    expect((await config(0, ip)).statusCode).toBe(200);
    expect((await config(1, ip)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await estimate(i, ip)).statusCode).toBe(200);
    expectLimited(await estimate(1, ip));
    expectLimited(await config(0, ip));
  });
});

describe('with REDIS_URL pointing at no Redis: rate limits fail open, money limits hold (R6.3)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Port 1 on loopback: connection refused at once, again on every reconnect.
    t = await createTestApp({ env: { ...LIMITS, REDIS_URL: 'redis://127.0.0.1:1' } });
    await seedHeads(t, 10);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('requests over the limit pass (no 500, no 429), promptly, and the app logs a warning', async () => {
    const warn = vi.spyOn(t.app.log, 'warn');
    try {
      const ip = newClient();
      for (let i = 0; i < 3 * PER_IP; i++) {
        const started = performance.now();
        const response = await t.inject({ method: 'GET', url: '/v1/config', remoteAddress: ip });
        const ms = performance.now() - started;
        expect(response.statusCode, response.body).toBe(200);
        expect(response.headers['retry-after']).toBeUndefined();
        expect(ms, `request ${i + 1} took ${Math.round(ms)} ms`).toBeLessThan(1_500);
      }
      const key = await t.makeKey(['account:read']);
      for (let i = 0; i < 3 * PER_KEY; i++) expect((await t.inject({ method: 'GET', url: '/v1/billing/balance', headers: key.auth })).statusCode).toBe(200);
      expect(warn.mock.calls.some((call) => JSON.stringify(call).includes('rate limits are not enforced'))).toBe(true);
    } finally {
      warn.mockRestore();
    }
  });

  it("the key's daily spend cap still refuses an ask over it (402 spend_cap_exceeded)", async () => {
    const key = await fundedKey(t, 10_000, 250);
    const first = await askRaw(t, key, { draft: choiceDraft() }); // 120 credits
    expect(first.statusCode, first.body).toBe(201);
    const refused = await askRaw(t, key, { draft: choiceDraft({ n: 11 }) }); // 132 > 130 left
    expect(refused.statusCode, refused.body).toBe(402);
    expect(errorOf(refused)).toMatchObject({ code: 'spend_cap_exceeded', details: { reason: 'spend_cap_reached', capRemaining: 130 } });
    expect(await balanceOf(t, key)).toMatchObject({ capRemaining: 130, reserved: 120 });
  });

  it('the balance still refuses an ask over it (402 insufficient_credits)', async () => {
    const key = await fundedKey(t, 119);
    const refused = await askRaw(t, key, { draft: choiceDraft() }); // 120 credits
    expect(refused.statusCode, refused.body).toBe(402);
    expect(errorOf(refused)).toMatchObject({ code: 'insufficient_credits', details: { needed: 120, available: 119 } });
    expect(await balanceOf(t, key)).toMatchObject({ credits: 119, reserved: 0 });
  });
});

describe('with REDIS_URL pointing at a server that accepts connections and never answers', () => {
  let t: TestApp;
  let server: net.Server;
  const sockets = new Set<net.Socket>();

  beforeAll(async () => {
    server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    t = await createTestApp({ env: { RATE_LIMIT_PER_IP: '1', REDIS_URL: `redis://127.0.0.1:${port}` } });
  });
  afterAll(async () => {
    await t?.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server?.close(resolve));
  });

  it(`requests pass after at most about ${REDIS_COMMAND_TIMEOUT_MS} ms (the client's command timeout), never a 500`, async () => {
    const ip = newClient();
    for (let i = 0; i < 2; i++) {
      const started = performance.now();
      const response = await t.inject({ method: 'GET', url: '/v1/config', remoteAddress: ip });
      const ms = performance.now() - started;
      expect(response.statusCode, response.body).toBe(200);
      expect(ms).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS + 1_500);
    }
  });
});
