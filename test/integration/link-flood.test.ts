import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { ask, choiceDraft, grant, sleep } from '../helpers/questions.ts';
import { randomBase62 } from '../../src/lib/base62.ts';
import { call, listen } from '../helpers/real-http.ts';

/**
 * The answer link under a flood of codes (issue 8, point 4; docs/answer-link.md "Limits"): one
 * address sending answers to random codes used to get a 404 each, without end, because the
 * route's own limiter (keyed by address and code) replaced the per-IP limit, and every one cost a
 * database query and two rate-limit keys. Now every link request counts against the address's
 * per-IP budget (RATE_LIMIT_PER_IP) whatever the code, and a code that cannot be one (link codes
 * are 10 base62 characters) is a 404 before any database or rate-limit work.
 */
const PER_IP = 12;

let t: TestApp;
let base: string;
let owner: TestKey;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_PER_IP: String(PER_IP), RATE_LIMIT_PER_KEY: '100000' } });
  base = await listen(t.app);
  owner = await t.makeKey();
  await grant(t, owner.accountId, 100_000);
});
afterAll(async () => {
  await Promise.race([t?.close(), sleep(5_000)]);
});

const answerBody = () => ({ answer: { option: 0 }, nonce: randomUUID() });
const randomCode = () => randomBase62(10);

describe('random codes from one address', () => {
  it(`over real HTTP, a flood of answers to random codes gets ${PER_IP} 404s, then 429 for the rest`, async () => {
    const from = '127.0.0.41';
    const replies = await Promise.all(Array.from({ length: 3 * PER_IP }, () => call(base, `/v1/public/link/${randomCode()}/answers`, { method: 'POST', from, json: answerBody() })));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 404)).toHaveLength(PER_IP);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2 * PER_IP);
    for (const reply of replies.filter((r) => r.status === 429)) {
      expect(JSON.parse(reply.body).error.code).toBe('rate_limited');
      expect(Number(reply.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('reads, starts and answers share the one budget, and a real link from that address is limited too', async () => {
    const question = await ask(t, owner, choiceDraft({ n: 20 }));
    const ip = '198.51.100.61';
    const requests = [
      () => t.inject({ method: 'GET', url: `/v1/public/link/${randomCode()}`, remoteAddress: ip }),
      () => t.inject({ method: 'POST', url: `/v1/public/link/${randomCode()}/started`, headers: { 'idempotency-key': randomUUID() }, payload: { nonce: randomUUID() }, remoteAddress: ip }),
      () => t.inject({ method: 'POST', url: `/v1/public/link/${randomCode()}/answers`, payload: answerBody(), remoteAddress: ip }),
    ];
    for (let i = 0; i < PER_IP; i++) expect((await requests[i % 3]()).statusCode).toBe(404);
    for (const request of requests) expect((await request()).statusCode).toBe(429);
    const real = await t.inject({ method: 'POST', url: `/v1/public/link/${question.linkCode}/answers`, payload: answerBody(), remoteAddress: ip });
    expect(real.statusCode).toBe(429);
    // Another address still answers.
    const other = await t.inject({ method: 'POST', url: `/v1/public/link/${question.linkCode}/answers`, payload: answerBody(), remoteAddress: '198.51.100.62' });
    expect(other.json()).toMatchObject({ accepted: true });
  });
});

describe('a code that cannot be one', () => {
  // Each case has its own address: the last check reads that address's untouched budget.
  it.each([
    ['too short', 'abc123', '198.51.100.71'],
    ['one character short', 'A'.repeat(9), '198.51.100.72'],
    ['one character long', 'A'.repeat(11), '198.51.100.73'],
    ['a dash', 'abcde-ghij', '198.51.100.74'],
    ['32 characters', 'B'.repeat(32), '198.51.100.75'],
  ])('(%s) is 404 not_found on every link route, with no database query and no rate-limit count', async (_label, code, ip) => {
    const connect = vi.spyOn(t.database.pool, 'connect');
    try {
      const replies = [];
      for (let i = 0; i < 2 * PER_IP; i++) {
        replies.push(await t.inject({ method: 'GET', url: `/v1/public/link/${code}`, remoteAddress: ip }));
        replies.push(await t.inject({ method: 'POST', url: `/v1/public/link/${code}/answers`, payload: answerBody(), remoteAddress: ip }));
        replies.push(await t.inject({ method: 'POST', url: `/v1/public/link/${code}/started`, headers: { 'idempotency-key': randomUUID() }, payload: { nonce: randomUUID() }, remoteAddress: ip }));
      }
      for (const reply of replies) {
        expect(reply.statusCode, reply.body).toBe(404);
        expect(reply.json().error).toMatchObject({ code: 'not_found', message: 'There is no question at this link.' });
        expect(reply.headers['x-ratelimit-remaining']).toBeUndefined();
      }
      expect(connect).not.toHaveBeenCalled();
    } finally {
      connect.mockRestore();
    }
    // None of them was counted: the address still has its whole budget.
    const after = await t.inject({ method: 'GET', url: `/v1/public/link/${randomCode()}`, remoteAddress: ip });
    expect(after.statusCode).toBe(404);
    expect(after.headers['x-ratelimit-remaining']).toBe(String(PER_IP - 1));
  });
});
