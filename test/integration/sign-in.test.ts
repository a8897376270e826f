import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { lastMailTo, newEmail, newIp, requestCode, signIn, signInMailOf } from '../helpers/people.ts';

/**
 * Signing in with an emailed code (issue 10 points 1 and 8; RELIABILITY R8.1, R8.2) over the API:
 * the first sign-in makes the person and their personal account; codes are single-use,
 * short-lived, attempt-limited and limited per address and per IP; the answer never tells a known
 * address from an unknown one; sessions list, revoke, sign out and expire.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const verify = (email: string, code: string, ip = newIp()) => t.inject({ method: 'POST', url: '/v1/auth/sign-in/verify', payload: { email, code }, remoteAddress: ip });
const errorOf = (response: LightMyRequestResponse) => response.json().error;
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('the first sign-in', () => {
  it('emails a code and a link, and trading the code makes the person, their personal account and a session', async () => {
    const email = newEmail('ada');
    const started = await requestCode(t, email, newIp(), { 'accept-language': 'en-US,en;q=0.8' });
    expect(started.statusCode).toBe(202);
    expect(started.json()).toEqual({ ok: true, expiresInSeconds: 600 });
    expect(started.headers['cache-control']).toBe('no-store');

    const mail = lastMailTo(t, email);
    const { code, link } = signInMailOf(t, email);
    expect(mail.subject).toContain(code);
    expect(mail.text).toContain(code);
    expect(link.startsWith(`${t.config.publicBaseUrl}/app/sign-in/link?token=`)).toBe(true);
    expect(mail.html).toContain(code);

    const verified = await t.inject({ method: 'POST', url: '/v1/auth/sign-in/verify', payload: { email: email.toUpperCase(), code: `${code.slice(0, 3)} ${code.slice(3)}` }, headers: { 'accept-language': 'en-US' } });
    expect(verified.statusCode, verified.body).toBe(200);
    const body = verified.json();
    expect(body.token).toMatch(/^hc_ses_[0-9A-Za-z]{49}$/);
    expect(body.created).toBe(true);
    expect(body.person).toMatchObject({ email, name: null, language: 'en' });
    expect(body.accounts).toEqual([{ accountId: body.person.personalAccountId, name: email, kind: 'person', currency: 'USD', role: 'owner', personal: true }]);
    expect(body.session).toMatchObject({ current: true });

    // The session is a bearer credential on the API, for the personal account.
    const balance = await t.inject({ url: '/v1/billing/balance', headers: { authorization: `Bearer ${body.token}` } });
    expect(balance.statusCode).toBe(200);
    expect(balance.json()).toMatchObject({ credits: 0, currency: 'USD', capRemaining: null });
    const me = await t.inject({ url: '/v1/me', headers: { authorization: `Bearer ${body.token}` } });
    expect(me.json()).toMatchObject({ person: { id: body.person.id }, actingAccountId: body.person.personalAccountId });
  });

  it('a later sign-in finds the same person and makes no second account', async () => {
    const first = await signIn(t);
    const again = await signIn(t, first.email);
    expect(again.personId).toBe(first.personId);
    expect(again.personalAccountId).toBe(first.personalAccountId);
    expect(again.token).not.toBe(first.token);
    const me = (await t.inject({ url: '/v1/me', headers: again.auth })).json();
    expect(me.accounts).toHaveLength(1);
  });
});

describe('the same answer for every address (no enumeration)', () => {
  it('a known and an unknown address get the same status, body and headers', async () => {
    const known = await signIn(t);
    const unknown = newEmail('stranger');
    const strip = (response: LightMyRequestResponse) => {
      const { date, 'x-request-id': _id, ...headers } = response.headers;
      return { status: response.statusCode, body: response.body, headers };
    };
    expect(strip(await requestCode(t, known.email))).toEqual(strip(await requestCode(t, unknown)));
    // A wrong code is refused in the same words for both.
    const a = await verify(known.email, '000000');
    const b = await verify(unknown, '000000');
    expect(a.statusCode).toBe(400);
    expect(errorOf(a).message).toBe(errorOf(b).message);
    expect(errorOf(a).code).toBe('sign_in_failed');
    // And so is a code for an address that never asked for one.
    const never = await verify(newEmail('never'), '123456');
    expect(errorOf(never)).toMatchObject({ code: 'sign_in_failed', message: errorOf(a).message });
  });
});

describe('codes', () => {
  it('work once', async () => {
    const email = newEmail();
    await requestCode(t, email);
    const { code } = signInMailOf(t, email);
    expect((await verify(email, code)).statusCode).toBe(200);
    const second = await verify(email, code);
    expect(second.statusCode).toBe(400);
    expect(errorOf(second).code).toBe('sign_in_failed');
  });

  it('stop working after 10 minutes', async () => {
    const email = newEmail();
    await requestCode(t, email);
    const { code } = signInMailOf(t, email);
    t.clock.advance(10 * 60_000 + 1);
    expect(errorOf(await verify(email, code)).code).toBe('sign_in_failed');
  });

  it('allow five wrong tries; after them even the right code fails', async () => {
    const email = newEmail();
    await requestCode(t, email);
    const { code } = signInMailOf(t, email);
    for (let i = 1; i <= 4; i++) expect(errorOf(await verify(email, wrong(code))).code).toBe('sign_in_failed');
    const fifth = errorOf(await verify(email, wrong(code)));
    expect(fifth.details).toEqual({ reason: 'too_many_attempts' });
    expect(errorOf(await verify(email, code)).details).toEqual({ reason: 'too_many_attempts' });
    // A new code starts again.
    await requestCode(t, email);
    expect((await verify(email, signInMailOf(t, email).code)).statusCode).toBe(200);
  });

  it('a new code ends the older one', async () => {
    const email = newEmail();
    await requestCode(t, email);
    const older = signInMailOf(t, email).code;
    await requestCode(t, email);
    const newer = signInMailOf(t, email).code;
    if (older !== newer) expect(errorOf(await verify(email, older)).code).toBe('sign_in_failed');
    expect((await verify(email, newer)).statusCode).toBe(200);
  });

  it('refuse anything that is not six digits without using a try', async () => {
    const email = newEmail();
    await requestCode(t, email);
    const { code } = signInMailOf(t, email);
    for (const bad of ['abcdef', '1234567', '12 34 5']) expect((await verify(email, bad)).statusCode).toBe(400);
    expect((await verify(email, code)).statusCode).toBe(200);
  });

  it('the link in the email signs in once, and ends the code', async () => {
    const email = newEmail();
    await requestCode(t, email);
    const { code, linkToken } = signInMailOf(t, email);
    expect(await t.container.signIn.linkAddress(linkToken)).toBe(email);
    const client = { ip: '10.9.9.9', userAgent: 'test', language: 'en' as const, currency: 'GBP' as const };
    const signedIn = await t.container.signIn.verifyLink(linkToken, client);
    expect(signedIn.person.email).toBe(email);
    await expect(t.container.signIn.verifyLink(linkToken, client)).rejects.toMatchObject({ code: 'sign_in_failed' });
    expect(await t.container.signIn.linkAddress(linkToken)).toBeNull();
    expect(errorOf(await verify(email, code)).code).toBe('sign_in_failed');
  });
});

describe('limits', () => {
  it('five codes an hour to one address, whatever the IP; then 429 with Retry-After', async () => {
    const email = newEmail();
    for (let i = 0; i < 5; i++) expect((await requestCode(t, email)).statusCode).toBe(202);
    const refused = await requestCode(t, email);
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused).code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
    t.clock.advance(3600_000 + 1000);
    expect((await requestCode(t, email)).statusCode).toBe(202);
  });

  it('requests at once cannot flood an inbox: twelve parallel requests for one address send five codes', async () => {
    const email = newEmail();
    const statuses = await Promise.all(Array.from({ length: 12 }, () => requestCode(t, email).then((r) => r.statusCode)));
    expect(statuses.filter((s) => s === 202)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
    expect(t.container.mailer.mailbox()!.list().filter((m) => m.to === email)).toHaveLength(5);
  });

  it('twenty codes an hour from one IP address, whatever the address', async () => {
    const ip = newIp();
    for (let i = 0; i < 20; i++) expect((await requestCode(t, newEmail(), ip)).statusCode).toBe(202);
    const refused = await requestCode(t, newEmail(), ip);
    expect(refused.statusCode).toBe(429);
    expect((await requestCode(t, newEmail(), newIp())).statusCode).toBe(202);
  });

  it('typing codes is limited per IP address too', async () => {
    const ip = newIp();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await verify(newEmail(), '000000', ip)).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('a malformed address is a 400 and sends nothing', async () => {
    const before = t.container.mailer.mailbox()!.list().length;
    for (const email of ['not-an-address', 'a@b', 'two@example.org, three@example.org']) {
      expect((await requestCode(t, email)).statusCode).toBe(400);
    }
    expect(t.container.mailer.mailbox()!.list().length).toBe(before);
  });
});

describe('sessions', () => {
  it('are listed, revoked one by one, and end at sign-out', async () => {
    const phone = await signIn(t);
    t.clock.advance(1000);
    const laptop = await signIn(t, phone.email, { headers: { 'user-agent': 'Laptop browser' } });
    const list = (await t.inject({ url: '/v1/auth/sessions', headers: laptop.auth })).json().sessions;
    expect(list.map((s: { id: string }) => s.id)).toEqual([laptop.sessionId, phone.sessionId]);
    expect(list[0]).toMatchObject({ current: true, userAgent: 'Laptop browser' });
    expect(list[1].current).toBe(false);

    expect((await t.inject({ method: 'DELETE', url: `/v1/auth/sessions/${phone.sessionId}`, headers: laptop.auth })).statusCode).toBe(200);
    const ended = await t.inject({ url: '/v1/me', headers: phone.auth });
    expect(ended.statusCode).toBe(401);
    expect(errorOf(ended).message).toMatch(/ended/);
    // Another person's session id is nothing to this person.
    const other = await signIn(t);
    expect((await t.inject({ method: 'DELETE', url: `/v1/auth/sessions/${other.sessionId}`, headers: laptop.auth })).statusCode).toBe(404);
    expect((await t.inject({ url: '/v1/me', headers: other.auth })).statusCode).toBe(200);

    expect((await t.inject({ method: 'POST', url: '/v1/auth/sign-out', headers: laptop.auth })).statusCode).toBe(200);
    expect((await t.inject({ url: '/v1/me', headers: laptop.auth })).statusCode).toBe(401);
  });

  it('end after a week unused, and after 30 days however much they are used', async () => {
    const idle = await signIn(t);
    t.clock.advance(7 * 24 * 3600_000 - 60_000);
    expect((await t.inject({ url: '/v1/me', headers: idle.auth })).statusCode).toBe(200);
    t.clock.advance(7 * 24 * 3600_000 - 60_000);
    expect((await t.inject({ url: '/v1/me', headers: idle.auth })).statusCode).toBe(200);
    t.clock.advance(7 * 24 * 3600_000 + 60_000);
    const expired = await t.inject({ url: '/v1/me', headers: idle.auth });
    expect(expired.statusCode).toBe(401);
    expect(errorOf(expired).message).toMatch(/expired/);

    const busy = await signIn(t);
    for (let day = 1; day < 30; day++) {
      t.clock.advance(24 * 3600_000);
      expect((await t.inject({ url: '/v1/me', headers: busy.auth })).statusCode, `day ${day}`).toBe(200);
    }
    t.clock.advance(24 * 3600_000);
    expect((await t.inject({ url: '/v1/me', headers: busy.auth })).statusCode).toBe(401);
  });

  it('a token of the wrong shape is refused before any lookup, a made-up one is unknown', async () => {
    const person = await signIn(t);
    const mangled = person.token.slice(0, -1) + (person.token.endsWith('a') ? 'b' : 'a');
    expect(errorOf(await t.inject({ url: '/v1/me', headers: { authorization: `Bearer ${mangled}` } })).message).toMatch(/malformed/);
  });
});

describe('which account a session acts for', () => {
  it('the personal account by default; Headcount-Account must name an account the person belongs to', async () => {
    const ada = await signIn(t);
    const bob = await signIn(t);
    const asBob = await t.inject({ url: '/v1/billing/balance', headers: ada.as(bob.personalAccountId) });
    expect(asBob.statusCode).toBe(403);
    expect(errorOf(asBob).code).toBe('insufficient_scope');
    const madeUp = await t.inject({ url: '/v1/billing/balance', headers: ada.as('acc_00000000000000000000') });
    expect(errorOf(madeUp).message.replace('acc_00000000000000000000', '…')).toBe(errorOf(asBob).message.replace(bob.personalAccountId, '…'));
    expect((await t.inject({ url: '/v1/billing/balance', headers: ada.as(ada.personalAccountId) })).statusCode).toBe(200);
  });

  it('a key acts for its own account and refuses to name another', async () => {
    const key = await t.makeKey();
    const other = await t.makeKey();
    expect((await t.inject({ url: '/v1/billing/balance', headers: { ...key.auth, 'headcount-account': key.accountId } })).statusCode).toBe(200);
    const refused = await t.inject({ url: '/v1/billing/balance', headers: { ...key.auth, 'headcount-account': other.accountId } });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).message).toMatch(/another account/);
  });
});

describe('portal session only', () => {
  it('API keys are refused with 403 insufficient_scope and a message that says so', async () => {
    const key = await t.makeKey();
    for (const [method, url] of [['GET', '/v1/keys'], ['GET', '/v1/me'], ['GET', '/v1/auth/sessions'], ['POST', '/v1/auth/sign-out']] as const) {
      const response = await t.inject({ method, url, headers: key.auth });
      expect(response.statusCode, url).toBe(403);
      expect(errorOf(response)).toMatchObject({ code: 'insufficient_scope', details: { credential: 'portal_session' } });
      expect(errorOf(response).message).toMatch(/portal session/);
    }
  });
});
