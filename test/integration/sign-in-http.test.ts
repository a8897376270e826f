import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { call, listen, type Reply } from '../helpers/real-http.ts';
import { newEmail, signInMailOf } from '../helpers/people.ts';

/**
 * Signing in and sessions over a real socket, as an attacker would try them (issue 10 point 8;
 * RELIABILITY R7.5, R8.1–R8.3): the same bytes for a known and an unknown address, a client-set
 * X-Forwarded-For that changes no limit, codes that cannot be guessed within the limits, a session
 * that works as a bearer and never as a cookie on the API, and the portal's cookie attributes as a
 * browser receives them. Each test comes from its own loopback address (127.x.y.z).
 */
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t.app);
});
afterAll(async () => {
  await t?.close();
});

const json = (reply: Reply) => JSON.parse(reply.body);
const signInFrom = (from: string, email: string, headers: Record<string, string> = {}) => call(base, '/v1/auth/sign-in', { method: 'POST', json: { email }, from, headers });

describe('no enumeration over the wire', () => {
  it('a known and an unknown address get byte-for-byte the same answer, apart from its request id and date', async () => {
    const known = newEmail();
    await signInFrom('127.0.20.1', known);
    const code = signInMailOf(t, known).code;
    expect((await call(base, '/v1/auth/sign-in/verify', { method: 'POST', json: { email: known, code }, from: '127.0.20.1' })).status).toBe(200);
    const strip = (reply: Reply) => {
      const { date, 'x-request-id': _id, 'x-ratelimit-remaining': _r, 'x-ratelimit-reset': _s, ...headers } = reply.headers;
      return { status: reply.status, headers, body: reply.body };
    };
    const a = await signInFrom('127.0.20.2', known);
    const b = await signInFrom('127.0.20.3', newEmail());
    expect(strip(a)).toEqual(strip(b));
    expect(a.status).toBe(202);
  });
});

describe('limits cannot be escaped with a header', () => {
  it('a new X-Forwarded-For on every request is the same client: the 21st code from one address is refused', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await signInFrom('127.0.21.1', newEmail(), { 'x-forwarded-for': `203.0.113.${i}` })).status);
    expect(statuses.slice(0, 20).every((s) => s === 202)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('guessing codes: five wrong tries end a code, and typing is limited per address, whatever X-Forwarded-For says', async () => {
    const email = newEmail();
    await signInFrom('127.0.22.1', email);
    const { code } = signInMailOf(t, email);
    const guesses: Reply[] = [];
    for (let i = 0; i < 22; i++) {
      const guess = String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
      guesses.push(await call(base, '/v1/auth/sign-in/verify', { method: 'POST', json: { email, code: guess }, from: '127.0.22.2', headers: { 'x-forwarded-for': `198.51.100.${i}` } }));
    }
    expect(guesses.slice(0, 5).map((g) => json(g).error.code)).toEqual(Array(5).fill('sign_in_failed'));
    expect(json(guesses[5]).error.details).toEqual({ reason: 'too_many_attempts' });
    expect(guesses[20].status).toBe(429);
    expect(Number(guesses[20].headers['retry-after'])).toBeGreaterThan(0);
    // The right code is dead too, from anywhere.
    const late = await call(base, '/v1/auth/sign-in/verify', { method: 'POST', json: { email, code }, from: '127.0.22.3' });
    expect(json(late).error.code).toBe('sign_in_failed');
  });
});

describe('the session on the wire', () => {
  it('works as a bearer credential, never as a cookie on the API, and ends at sign-out', async () => {
    const email = newEmail();
    await signInFrom('127.0.23.1', email);
    const verified = json(await call(base, '/v1/auth/sign-in/verify', { method: 'POST', json: { email, code: signInMailOf(t, email).code }, from: '127.0.23.1' }));
    const bearer = { authorization: `Bearer ${verified.token}` };
    expect((await call(base, '/v1/me', { headers: bearer, from: '127.0.23.1' })).status).toBe(200);
    expect((await call(base, '/v1/me', { headers: { cookie: `hc_session=${verified.token}` }, from: '127.0.23.1' })).status).toBe(401);
    expect((await call(base, '/v1/auth/sign-out', { method: 'POST', headers: bearer, from: '127.0.23.1' })).status).toBe(200);
    const after = await call(base, '/v1/me', { headers: bearer, from: '127.0.23.1' });
    expect(after.status).toBe(401);
    expect(json(after).error.code).toBe('unauthorized');
  });

  it('the portal\'s cookies arrive HttpOnly, SameSite=Lax and scoped to /app', async () => {
    const page = await call(base, '/app/sign-in', { from: '127.0.23.2' });
    expect(page.status).toBe(200);
    const cookies = ([] as string[]).concat(page.headers['set-cookie'] ?? []);
    const csrf = cookies.find((c) => c.startsWith('hc_csrf='))!;
    expect(csrf).toMatch(/; Path=\/app(;|$)/);
    expect(csrf).toMatch(/; HttpOnly/);
    expect(csrf).toMatch(/; SameSite=Lax/);
    expect(page.headers['referrer-policy']).toBe('same-origin');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});
