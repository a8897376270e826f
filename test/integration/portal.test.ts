import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { newEmail, newIp, signIn, signInMailOf } from '../helpers/people.ts';
import { csrfOf, parseSetCookies, PortalBrowser } from '../helpers/portal-browser.ts';
import { grant, NO_RATE_LIMITS, seedHeads } from '../helpers/questions.ts';
import { settlementCases, settlementLineOf } from '../helpers/results-pages.ts';

/**
 * The portal's pages over HTTP (issue 10 points 2, 7 and 8; RELIABILITY R8.2): the session cookie's
 * attributes, CSRF on every form that changes something (including the sign-in forms), no session
 * fixation, a session never in a URL or in the log, the same answer for every address, and each
 * page doing what it says. The browser tests (test/e2e/portal.test.ts) walk the same pages in
 * Chromium.
 */
let t: TestApp;
const log = new PassThrough();
let logText = '';
beforeAll(async () => {
  log.on('data', (chunk: Buffer) => (logText += chunk.toString('utf8')));
  t = await createTestApp({ env: { ...NO_RATE_LIMITS, LOG_LEVEL: 'info' }, logStream: log });
});
afterAll(async () => {
  await t?.close();
});

const browser = (headers: Record<string, string> = {}) => new PortalBrowser(t, newIp(), headers);

describe('signing in through the pages', () => {
  it('sends a signed-out visitor to sign in, and back where they were going afterwards', async () => {
    const b = browser();
    const first = await b.get('/app/ledger');
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('/app/sign-in?next=%2Fapp%2Fledger');
    const email = newEmail();
    const asked = await b.submit('/app/sign-in?next=%2Fapp%2Fledger', '/app/sign-in', { email, next: '/app/ledger' });
    expect(asked.headers.location).toBe('/app/sign-in/code?next=%2Fapp%2Fledger');
    const codePage = await b.get('/app/sign-in/code?next=%2Fapp%2Fledger');
    expect(codePage.body).toContain(email);
    const signedIn = await b.post('/app/sign-in/code', { _csrf: csrfOf(codePage.body), code: signInMailOf(t, email).code, next: '/app/ledger' });
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/app/ledger');
    const ledger = await b.get('/app/ledger');
    expect(ledger.statusCode).toBe(200);
    expect(ledger.body).toContain('<h1>Ledger</h1>');
  });

  it('never follows a next address outside the portal', async () => {
    const b = browser();
    const email = newEmail();
    await b.submit('/app/sign-in', '/app/sign-in', { email, next: 'https://evil.example/app' });
    const signedIn = await b.submit('/app/sign-in/code', '/app/sign-in/code', { code: signInMailOf(t, email).code, next: '//evil.example/app' });
    expect(signedIn.headers.location).toBe('/app');
  });

  it('a known and an unknown address get the same pages', async () => {
    const known = newEmail();
    await browser().signIn(known);
    const a = await browser().submit('/app/sign-in', '/app/sign-in', { email: known, next: '/app' });
    const b = await browser().submit('/app/sign-in', '/app/sign-in', { email: newEmail(), next: '/app' });
    expect([a.statusCode, a.headers.location]).toEqual([b.statusCode, b.headers.location]);
  });

  it('a wrong code shows the form again with the reason; the sign-in link asks before it signs in, and works once', async () => {
    const b = browser();
    const email = newEmail();
    await b.submit('/app/sign-in', '/app/sign-in', { email, next: '/app' });
    const wrong = await b.submit('/app/sign-in/code', '/app/sign-in/code', { code: '000000' === signInMailOf(t, email).code ? '111111' : '000000', next: '/app' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toMatch(/wrong or no longer works/);

    const { link, linkToken } = signInMailOf(t, email);
    const other = browser();
    const confirm = await other.get(new URL(link).pathname + new URL(link).search);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain(email);
    // Opening the link (a mail scanner does) used nothing: the code still works elsewhere… until one of them is used.
    const signedIn = await other.post('/app/sign-in/link', { _csrf: csrfOf(confirm.body), token: linkToken });
    expect(signedIn.statusCode).toBe(303);
    expect((await other.get('/app')).statusCode).toBe(200);
    const again = await browser().get(`/app/sign-in/link?token=${linkToken}`);
    expect(again.statusCode).toBe(410);
  });
});

describe('the session cookie (R8.2)', () => {
  it('is HttpOnly, SameSite=Lax, scoped to /app, lives as long as the session, and is new at every sign-in', async () => {
    const b = browser();
    const email = newEmail();
    const signedIn = await b.signIn(email);
    const session = parseSetCookies(signedIn).find((c) => c.name === 'hc_session')!;
    expect(session.value).toMatch(/^hc_ses_/);
    expect(session.attributes).toMatchObject({ path: '/app', httponly: true, samesite: 'Lax' });
    expect(session.attributes.secure).toBeUndefined(); // plain http in tests; see the next test
    expect(new Date(String(session.attributes.expires)).getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);
    const csrf = parseSetCookies(await browser().get('/app/sign-in')).find((c) => c.name === 'hc_csrf')!;
    expect(csrf.attributes).toMatchObject({ path: '/app', httponly: true, samesite: 'Lax' });
  });

  it('carries Secure when the service is reached over https', async () => {
    const secure = await createTestApp({ env: { PUBLIC_BASE_URL: 'https://hc.example.org' } });
    try {
      const b = new PortalBrowser(secure, newIp());
      const email = newEmail();
      await b.submit('/app/sign-in', '/app/sign-in', { email, next: '/app' });
      const signedIn = await b.submit('/app/sign-in/code', '/app/sign-in/code', { code: signInMailOf(secure, email).code, next: '/app' });
      expect(parseSetCookies(signedIn).find((c) => c.name === 'hc_session')!.attributes.secure).toBe(true);
    } finally {
      await secure.close();
    }
  });

  it('a session cookie planted before sign-in is never adopted (no fixation)', async () => {
    const planted = `hc_ses_${'A'.repeat(49)}`;
    const b = browser();
    b.jar.set('hc_session', { value: planted, path: '/app' });
    expect((await b.get('/app')).statusCode).toBe(303); // not a session
    await b.signIn(newEmail());
    expect(b.jar.get('hc_session')!.value).not.toBe(planted);
    expect((await b.get('/app')).statusCode).toBe(200);
  });

  it('signing out ends the session everywhere it is used', async () => {
    const b = browser();
    await b.signIn(newEmail());
    const token = b.jar.get('hc_session')!.value;
    expect((await t.inject({ url: '/v1/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    const out = await b.submit('/app', '/app/sign-out', {});
    expect(out.headers.location).toBe('/app/sign-in');
    expect(b.jar.has('hc_session')).toBe(false);
    expect((await t.inject({ url: '/v1/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
    // The old cookie, sent again by hand, is nobody.
    b.jar.set('hc_session', { value: token, path: '/app' });
    expect((await b.get('/app')).statusCode).toBe(303);
  });

  it('never appears in a URL, a page or the log', async () => {
    const b = browser();
    const email = newEmail();
    const locations: string[] = [];
    const pages: string[] = [];
    const asked = await b.submit('/app/sign-in', '/app/sign-in', { email, next: '/app' });
    locations.push(String(asked.headers.location));
    const { linkToken } = signInMailOf(t, email);
    const confirm = await b.get(`/app/sign-in/link?token=${linkToken}`);
    const signedIn = await b.post('/app/sign-in/link', { _csrf: csrfOf(confirm.body), token: linkToken });
    locations.push(String(signedIn.headers.location));
    const token = b.jar.get('hc_session')!.value;
    for (const path of ['/app', '/app/credits', '/app/ledger', '/app/developers', '/app/team', '/app/support', '/app/account']) pages.push((await b.get(path)).body);
    // The API's sign-in: the token is in its response body only.
    const api = await t.inject({ method: 'POST', url: '/v1/auth/sign-in', payload: { email }, remoteAddress: newIp() });
    expect(api.statusCode).toBe(202);
    const verified = (await t.inject({ method: 'POST', url: '/v1/auth/sign-in/verify', payload: { email, code: signInMailOf(t, email).code } })).json();
    await t.inject({ url: '/v1/me', headers: { authorization: `Bearer ${verified.token}` } });

    for (const location of locations) expect(location).not.toMatch(/hc_ses_/);
    for (const page of pages) expect(page).not.toContain(token);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logText).toContain('/app/sign-in/link?token=[redacted]');
    expect(logText).not.toContain(linkToken);
    expect(logText).not.toContain(token);
    expect(logText).not.toContain(verified.token);
    expect(logText).not.toContain(verified.token.slice(7, 30));
  });
});

describe('CSRF: every form that changes something needs the page\'s token (R8.2)', () => {
  it('a post without the token, with another person\'s, or with one from before signing in changes nothing', async () => {
    const victim = browser();
    const beforeToken = csrfOf((await victim.get('/app/sign-in')).body);
    await victim.signIn(newEmail());
    const keysBefore = (await victim.get('/app/developers')).body.match(/class="row/g)?.length ?? 0;
    const attacker = browser();
    await attacker.signIn(newEmail());
    const attackerToken = csrfOf((await attacker.get('/app/developers')).body);
    const fields = { name: 'stolen', scopes: 'account:read', cap: '' };
    const tokens: Array<Record<string, string>> = [{}, { _csrf: attackerToken }, { _csrf: beforeToken }, { _csrf: 'x'.repeat(40) }];
    for (const extra of tokens) {
      const response = await victim.post('/app/developers', { ...fields, ...extra });
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('This form has expired');
    }
    expect((await victim.get('/app/developers')).body.match(/class="row/g)?.length ?? 0).toBe(keysBefore);
  });

  it('a post from another site is refused even with a token', async () => {
    const b = browser();
    await b.signIn(newEmail());
    const token = csrfOf((await b.get('/app/team')).body);
    expect((await b.post('/app/teams', { _csrf: token, name: 'Evil', currency: 'GBP' }, { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await b.post('/app/teams', { _csrf: token, name: 'Evil', currency: 'GBP' }, { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await b.post('/app/teams', { _csrf: token, name: 'Mine', currency: 'GBP' }, { 'sec-fetch-site': 'same-origin' })).statusCode).toBe(303);
  });

  it('the sign-in forms need a token too (no login CSRF)', async () => {
    const b = browser();
    await b.get('/app/sign-in');
    expect((await b.post('/app/sign-in', { email: newEmail(), next: '/app' })).statusCode).toBe(403);
    expect((await b.post('/app/sign-in/code', { code: '123456', next: '/app' })).statusCode).toBe(403);
    expect((await b.post('/app/sign-out', {})).statusCode).toBe(403);
  });
});

describe('the pages', () => {
  it('every page of the navigation answers for a signed-in person, with the API untouched by the cookie', async () => {
    const b = browser();
    await b.signIn(newEmail());
    for (const path of ['/app', '/app/credits', '/app/ledger', '/app/developers', '/app/team', '/app/support', '/app/account', '/app/invitations']) {
      const page = await b.get(path);
      expect(page.statusCode, path).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.body).toContain('aria-current="page"');
    }
    // The cookie is not a credential for the API (it is never even sent there: Path=/app).
    const viaCookie = await t.app.inject({ url: '/v1/me', headers: { cookie: `hc_session=${b.jar.get('hc_session')!.value}` } });
    expect(viaCookie.statusCode).toBe(401);
  });

  it('Developers: a key is made with its scopes and cap, its secret shown once, used with the API, and revoked', async () => {
    const b = browser();
    await b.signIn(newEmail());
    const page = (await b.get('/app/developers')).body;
    const nonce = /name="nonce" value="([^"]+)"/.exec(page)![1];
    const made = await b.post('/app/developers', { _csrf: csrfOf(page), nonce, name: 'CI', scopes: ['questions:read', 'account:read'], cap: '2500' });
    expect(made.statusCode).toBe(201);
    const secret = /hc_live_[0-9A-Za-z]{49}/.exec(made.body)![0];
    expect(made.body).toContain(`Authorization: Bearer ${secret}`);
    const balance = await t.inject({ url: '/v1/billing/balance', headers: { authorization: `Bearer ${secret}` } });
    expect(balance.json()).toMatchObject({ capRemaining: 2500 });
    // The same form sent again makes no second key; the list never shows the secret.
    const again = await b.post('/app/developers', { _csrf: csrfOf(page), nonce, name: 'CI', scopes: ['account:read'], cap: '' });
    expect(again.statusCode).toBe(409);
    // It says what happened and how to make another (not "reload", which would send it once more), with a fresh form.
    expect(again.body).toContain('no key was made now. To make another, fill in the form below.');
    expect(again.body).not.toContain(nonce);
    expect(again.body).toMatch(/name="nonce" value="[0-9a-f-]{36}"/);
    const list = (await b.get('/app/developers')).body;
    expect(list).not.toContain(secret);
    expect(list).toContain(`${secret.slice(0, 14)}…${secret.slice(-4)}`);
    expect(list).toContain('questions:read, account:read');
    const keyId = /action="\/app\/developers\/(key_[0-9A-Za-z]{20})\/revoke"/.exec(list)![1];
    const revoked = await b.submit('/app/developers', `/app/developers/${keyId}/revoke`, {});
    expect(revoked.headers.location).toBe('/app/developers?done=revoked');
    expect((await t.inject({ url: '/v1/billing/balance', headers: { authorization: `Bearer ${secret}` } })).statusCode).toBe(401);
  });

  it('Team: make a team, invite, accept, switch accounts', async () => {
    const owner = browser();
    await owner.signIn(newEmail());
    const made = await owner.submit('/app/team', '/app/teams', { name: 'Pocket Research', currency: 'EUR' });
    expect(made.headers.location).toBe('/app/team?done=1');
    const team = (await owner.get('/app/team')).body;
    expect(team).toContain('Team: Pocket Research');
    const guest = newEmail('guest');
    expect((await owner.submit('/app/team', '/app/team/invite', { email: guest, role: 'admin' })).statusCode).toBe(303);
    expect((await owner.get('/app/team')).body).toContain(guest);

    const invited = browser();
    await invited.signIn(guest);
    const overview = (await invited.get('/app')).body;
    expect(overview).toContain('You are invited to join Pocket Research.');
    const invitations = (await invited.get('/app/invitations')).body;
    const accept = /action="(\/app\/invitations\/inv_[0-9A-Za-z]{20}\/accept)"/.exec(invitations)![1];
    expect((await invited.post(accept, { _csrf: csrfOf(invitations) })).headers.location).toBe('/app/team');
    const now = (await invited.get('/app/team')).body;
    expect(now).toContain('Team: Pocket Research');
    expect(now).toContain(guest);
    // Back to the personal account with the switcher.
    const personal = /<option value="(acc_[0-9A-Za-z]{20})"[^>]*>Personal/.exec(now)![1];
    expect((await invited.post('/app/switch', { _csrf: csrfOf(now), account: personal })).headers.location).toBe('/app');
    expect((await invited.get('/app')).body).toContain(`Overview: ${guest}`);
  });

  it('Support: a ticket written on the page is listed with its reply', async () => {
    const b = browser();
    const email = newEmail();
    await b.signIn(email);
    const page = (await b.get('/app/support')).body;
    t.clock.advance(10_000); // a person takes a few seconds to write; a bot that posts at once is dropped
    const sent = await b.post('/app/support', { _csrf: csrfOf(page), openedAt: /name="openedAt" value="(\d+)"/.exec(page)![1], subject: 'Invoice please', category: 'billing', body: 'Could I have an invoice for my last pack?', website: '' });
    expect(sent.headers.location).toBe('/app/support?sent=1');
    const listed = (await b.get('/app/support?sent=1')).body;
    expect(listed).toContain('Sent. We will answer by email.');
    const ticketId = /href="\/app\/support\/(tkt_[0-9A-Za-z]{20})"/.exec(listed)![1];
    await t.container.support.reply(ticketId, 'Here it is.');
    const ticket = (await b.get(`/app/support/${ticketId}`)).body;
    expect(ticket).toContain('Could I have an invoice for my last pack?');
    expect(ticket).toContain('Here it is.');
    expect((await browser().get(`/app/support/${ticketId}`)).statusCode).toBe(303);
  });

  it('crafted forms (fields repeated, missing, huge, not url-encoded) get a page, never a 500', async () => {
    const b = browser();
    await b.signIn(newEmail());
    const token = csrfOf((await b.get('/app/support')).body);
    const statuses: number[] = [];
    const crafted: Array<Record<string, string | string[]>> = [
      { _csrf: token, subject: ['a', 'b'], body: ['x'.repeat(20), 'y'], category: ['billing', 'api'] },
      { _csrf: token },
      { _csrf: token, name: ['CI', 'again'], scopes: ['nope', 'questions:read'], cap: ['1', '2'], nonce: ['x', 'y'] },
      { _csrf: token, email: ['a@example.org', 'b@example.org'], role: ['owner', 'member'] },
      { _csrf: token, account: ['acc_x', 'acc_y'] },
    ];
    for (const fields of crafted) {
      for (const path of ['/app/support', '/app/developers', '/app/team/invite', '/app/switch', '/app/teams', '/app/account', '/app/credits/checkout']) {
        statuses.push((await b.post(path, fields)).statusCode);
      }
    }
    statuses.push((await b.post('/app/support', { _csrf: token, body: 'z'.repeat(70_000) })).statusCode);
    const json = await t.app.inject({ method: 'POST', url: '/app/support', remoteAddress: b.ip, headers: { 'content-type': 'application/json', cookie: [...b.jar].map(([k, v]) => `${k}=${v.value}`).join('; ') }, payload: '{"_csrf":"x"}' });
    statuses.push(json.statusCode);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
  });

  it('a question\'s page says what early stopping did, with what the stop refunded in credits (the account\'s own view)', async () => {
    const email = newEmail();
    const { personalAccountId } = await signIn(t, email);
    const key = await t.makeKey(undefined, null, { accountId: personalAccountId });
    await grant(t, personalAccountId, 10_000);
    const cases = await settlementCases(t, key, await seedHeads(t, 10));
    const b = browser();
    await b.signIn(email);
    const html = async (question: Record<string, any>) => {
      const response = await b.get(`/app/questions/${question.id}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body).toContain('Back to the overview');
      return response.body;
    };

    const stopped = await html(cases.stopped);
    expect(stopped).toContain('<p class="settlement stopped" data-testid="settlement">');
    expect(settlementLineOf(stopped)).toBe(`Stopped early at 8 of 50 answers: Penny is the favourite at 95% confidence. ${42 * cases.stopped.creditsPerAnswer} credits refunded.`);
    expect(stopped).toContain('Intervals: anytime-valid at 95%, valid however often the result was checked.');
    expect(stopped).toMatch(/<span class="bar-interval">interval \d+% to 100%<\/span>/);

    const withdrawn = await html(cases.withdrawn);
    expect(withdrawn).toContain('<p class="settlement withdrawn" data-testid="settlement">');
    expect(settlementLineOf(withdrawn)).toBe(
      'Stopped early at 8 of 40 answers, but the claim is withdrawn: after answers were removed in review, the answers left no longer settle it. ' +
        `The refund of ${32 * cases.withdrawn.creditsPerAnswer} credits stands.`,
    );

    expect(settlementLineOf(await html(cases.live))).toBe('Stops early when settled: leader rule at 95%, not before 10 answers.');
    expect(settlementLineOf(await html(cases.plain))).toBe('With early stopping this question would have settled at 10 answers.');
  });

  it('an unknown page is a 404 page, not JSON', async () => {
    const page = await browser().get('/app/nowhere');
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });
});
