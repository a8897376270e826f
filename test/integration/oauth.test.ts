import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/test-app.ts';
import { createListeningApp, csrfIn, HttpBrowser, signInThere, type Page } from '../helpers/http-browser.ts';
import { newEmail, signIn } from '../helpers/people.ts';
import { choiceDraft, grant, NO_RATE_LIMITS, seedHeads } from '../helpers/questions.ts';
import { isServerRun } from '../helpers/test-database.ts';
import { SCOPES } from '../../src/lib/actor.ts';

/**
 * The authorization server as an agent and a person meet it (issue 11 points 1-3, RELIABILITY R4),
 * over real HTTP: registration (RFC 7591), authorization code with PKCE through the portal's
 * sign-in and consent pages, tokens on the REST API with the consent's scopes and cap, refresh
 * rotation and reuse detection, resource indicators (RFC 8707), revocation (RFC 7009 and the
 * portal's Connected apps) and the device grant (RFC 8628). The MCP side is test/integration/mcp*.
 */
let t: TestApp & { baseUrl: string };
const REDIRECT = 'http://127.0.0.1:9/callback';
/** Client ID metadata documents (an agent's own https page), served by a local stand-in. */
const DOCUMENT_HOST = 'agent.example';
const documents = new Map<string, unknown>();
const fetched: string[] = [];
let documentServer: http.Server;
const REGISTRATIONS_PER_HOUR = 40;

beforeAll(async () => {
  documentServer = http.createServer((request, response) => {
    const document = documents.get(request.url ?? '');
    response.writeHead(document ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(document ?? { error: 'not found' }));
  });
  await new Promise<void>((resolve) => documentServer.listen(0, '127.0.0.1', resolve));
  const documentPort = (documentServer.address() as AddressInfo).port;
  // The provider's outbound fetch, pointed at the stand-in for https://agent.example/… (real HTTP;
  // the provider's guard against special-use addresses would refuse 127.0.0.1, so it is left out).
  const oauthFetch = async (input: string | URL | Request, init?: RequestInit) => {
    const target = new URL(input instanceof Request ? input.url : input);
    fetched.push(target.toString());
    if (target.host !== DOCUMENT_HOST) throw new Error(`the test fetches only ${DOCUMENT_HOST}`);
    const { dispatcher: _guard, ...rest } = (init ?? {}) as RequestInit & { dispatcher?: unknown };
    return fetch(`http://127.0.0.1:${documentPort}${target.pathname}`, rest);
  };
  t = await createListeningApp({ env: { ...NO_RATE_LIMITS, OAUTH_REGISTRATIONS_PER_HOUR: String(REGISTRATIONS_PER_HOUR) }, oauthFetch });
  await seedHeads(t, 40);
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => documentServer?.close(resolve));
});

const url = (path: string) => `${t.baseUrl}${path}`;
const mcpResource = () => url('/mcp');

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

async function register(metadata: Record<string, unknown> = {}): Promise<{ client_id: string; client_name?: string }> {
  const response = await fetch(url('/oauth/register'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test agent', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], ...metadata }),
  });
  expect(response.status).toBe(201);
  return response.json();
}

async function token(params: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> {
  const response = await fetch(url('/oauth/token'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params) });
  return { status: response.status, body: await response.json() };
}

function authorizeUrl(clientId: string, challenge: string | null, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'questions:read questions:write account:read offline_access',
    resource: mcpResource(),
    state: 'state-1',
    ...(challenge ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
    ...extra,
  });
  return `/oauth/authorize?${query}`;
}

/** From the consent page: answer, and return where the browser is sent (the app's redirect URI with a code). */
async function answer(browser: HttpBrowser, consent: Page, fields: Record<string, string | string[]>): Promise<URL> {
  const uid = /action="\/app\/oauth\/([^"]+)"/.exec(consent.body)?.[1];
  expect(uid, consent.body.slice(0, 400)).toBeTruthy();
  const done = await browser.post(`/app/oauth/${uid}`, { _csrf: csrfIn(consent.body), ...fields });
  expect(done.status, done.body.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").slice(0, 600)).toBe(303);
  return new URL(done.location!);
}

interface Connected {
  browser: HttpBrowser;
  email: string;
  clientId: string;
  access: string;
  refresh: string;
}

/** The whole authorization code flow, as an agent and its person go through it. */
async function connect(options: { cap?: string; scopes?: string[]; resource?: string; autoApprove?: string } = {}): Promise<Connected> {
  const client = await register();
  const { verifier, challenge } = pkce();
  const browser = new HttpBrowser(t.baseUrl);
  const email = newEmail('agent-owner');
  const signInPage = await browser.open(authorizeUrl(client.client_id, challenge, options.resource ? { resource: options.resource } : {}));
  const consent = await signInThere(t, browser, signInPage, email);
  expect(consent.status).toBe(200);
  const back = await answer(browser, consent, {
    decision: 'allow',
    account: /<option value="([^"]+)" selected/.exec(consent.body)![1],
    scopes: options.scopes ?? ['questions:read', 'questions:write', 'account:read'],
    cap: options.cap ?? '500',
    autoApprove: options.autoApprove ?? '0',
  });
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  expect(back.searchParams.get('state')).toBe('state-1');
  const issued = await token({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT, client_id: client.client_id });
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  return { browser, email, clientId: client.client_id, access: issued.body.access_token, refresh: issued.body.refresh_token };
}

const api = (path: string, access: string, init: RequestInit = {}) =>
  fetch(url(path), { ...init, headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });

describe('metadata (RFC 8414, R4.2)', () => {
  it('names the issuer exactly, S256 only, the three grants and the registration endpoint, at both well-known addresses', async () => {
    const byPath = await (await fetch(url('/.well-known/oauth-authorization-server/oauth'))).json();
    const atRoot = await (await fetch(url('/.well-known/oauth-authorization-server'))).json();
    expect(atRoot).toEqual(byPath);
    expect(byPath).toMatchObject({
      issuer: url('/oauth'),
      authorization_endpoint: url('/oauth/authorize'),
      token_endpoint: url('/oauth/token'),
      registration_endpoint: url('/oauth/register'),
      revocation_endpoint: url('/oauth/revoke'),
      device_authorization_endpoint: url('/oauth/device/auth'),
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
    });
    expect(byPath.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code']));
    expect(byPath.scopes_supported).toEqual(expect.arrayContaining(['questions:read', 'questions:write', 'templates:read', 'account:read']));
  });
});

describe('authorization code with PKCE, through the portal (R4.3)', () => {
  it('a signed-out person signs in, sees who asks for what, picks the account and a cap; the token works on the REST API within it', async () => {
    const client = await register({ client_name: 'Research helper' });
    const { verifier, challenge } = pkce();
    const browser = new HttpBrowser(t.baseUrl);
    const email = newEmail('consent');
    const signInPage = await browser.open(authorizeUrl(client.client_id, challenge));
    expect(signInPage.status).toBe(200);
    const consent = await signInThere(t, browser, signInPage, email);
    expect(consent.status).toBe(200);
    expect(consent.body).toContain('Connect Research helper?');
    expect(consent.body).toContain('data-testid="unverified"');
    for (const scope of ['questions:read', 'questions:write', 'account:read']) expect(consent.body).toContain(`value="${scope}" checked`);
    expect(consent.body).not.toContain('value="templates:read"');
    expect(consent.body).toMatch(/name="cap"/);
    expect(consent.body).toMatch(/name="autoApprove"/);
    // The form's answer redirects on to the app: the page's CSP allows exactly that origin.
    expect(consent.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:9");

    const back = await answer(browser, consent, { decision: 'allow', account: /<option value="([^"]+)" selected/.exec(consent.body)![1], scopes: ['questions:read', 'questions:write', 'account:read'], cap: '500', autoApprove: '0' });
    const code = back.searchParams.get('code')!;
    expect(back.searchParams.get('iss')).toBe(url('/oauth'));
    const issued = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: client.client_id });
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({ token_type: 'Bearer', scope: expect.stringContaining('questions:write') });
    expect(issued.body.refresh_token).toBeTruthy();

    const balance = await api('/v1/billing/balance', issued.body.access_token);
    expect(balance.status).toBe(200);
    expect(await balance.json()).toMatchObject({ capRemaining: 500 });
  });

  it('asks made with the token are the person\'s (askedBy), source api, and the cap of 500 refuses 501', async () => {
    const c = await connect({ cap: '500' });
    const balance = await (await api('/v1/billing/balance', c.access)).json();
    const account = (await t.db.selectFrom('api_keys').select(['account_id', 'created_by']).where('kind', '=', 'oauth').where('client_id', '=', c.clientId).executeTakeFirstOrThrow());
    await grant(t, account.account_id, 5_000);
    expect(balance.capRemaining).toBe(500);
    // 10 heads of single choice: within the cap.
    const ask = async (n: number) =>
      api('/v2/questions', c.access, { method: 'POST', headers: { 'idempotency-key': randomUUID() }, body: JSON.stringify({ draft: choiceDraft({ n }) }) });
    const estimate = await (await fetch(url('/v1/billing/estimate'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ draft: choiceDraft({ n: 10 }) }) })).json();
    const first = await ask(10);
    expect(first.status, await first.clone().text()).toBe(201);
    const { question } = await first.json();
    expect(question).toMatchObject({ source: 'api', askedBy: { id: account.created_by } });
    const left = 500 - estimate.creditsTotal;
    // Find an n whose price is above what is left under the cap: it is refused with nothing spent.
    let n = 10;
    let price = estimate.creditsTotal;
    while (price <= left) {
      n += 1;
      price = (await (await fetch(url('/v1/billing/estimate'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ draft: choiceDraft({ n }) }) })).json()).creditsTotal;
    }
    const refused = await ask(n);
    expect(refused.status).toBe(402);
    expect((await refused.json()).error).toMatchObject({ code: 'spend_cap_exceeded', details: { capRemaining: left } });
  });

  it('without PKCE, or with plain, the authorization is refused; a wrong verifier and a reused code get invalid_grant', async () => {
    const client = await register();
    const browser = new HttpBrowser(t.baseUrl);
    const none = await browser.open(authorizeUrl(client.client_id, null));
    expect(none.location).toContain('error=invalid_request');
    const plain = await browser.open(authorizeUrl(client.client_id, 'x'.repeat(43), { code_challenge_method: 'plain' }));
    expect(plain.location).toMatch(/error=invalid_request/);

    const c = await register();
    const { verifier, challenge } = pkce();
    const person = new HttpBrowser(t.baseUrl);
    const consent = await signInThere(t, person, await person.open(authorizeUrl(c.client_id, challenge)), newEmail());
    const back = await answer(person, consent, { decision: 'allow', account: /<option value="([^"]+)" selected/.exec(consent.body)![1], scopes: ['questions:read'], cap: '100', autoApprove: '0' });
    const code = back.searchParams.get('code')!;
    const wrong = await token({ grant_type: 'authorization_code', code, code_verifier: pkce().verifier, redirect_uri: REDIRECT, client_id: c.client_id });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // A wrong verifier does not spend the code (the genuine client may still use it) …
    const right = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: c.client_id });
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect((await api('/v2/questions', right.body.access_token)).status).toBe(200);
    // … but a code works once: used again, it is refused and what it issued is revoked (RFC 9700 §4.5).
    const again = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: c.client_id });
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await api('/v2/questions', right.body.access_token)).status).toBe(401);
  });

  it('an app that asks for no scope is offered all four; one that asks for openid gets an ID token; both get their code', async () => {
    // (No scope sent the browser to a 404 after consent; openid made the consent page ask again forever.)
    const browser = new HttpBrowser(t.baseUrl);
    const consentFor = async (clientId: string, challenge: string, scope: string | null, first: boolean) => {
      const query = new URLSearchParams(authorizeUrl(clientId, challenge).split('?')[1]);
      if (scope === null) query.delete('scope');
      else query.set('scope', scope);
      const page = await browser.open(`/oauth/authorize?${query}`);
      return first ? signInThere(t, browser, page, newEmail()) : page;
    };
    const codeFor = async (scope: string | null, first: boolean, check: (consent: Page) => void) => {
      const client = await register();
      const { verifier, challenge } = pkce();
      const consent = await consentFor(client.client_id, challenge, scope, first);
      check(consent);
      const back = await answer(browser, consent, { decision: 'allow', account: /<option value="([^"]+)" selected/.exec(consent.body)![1], scopes: ['questions:read', 'account:read'], cap: '500', autoApprove: '0' });
      expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
      const issued = await token({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT, client_id: client.client_id });
      expect(issued.status, JSON.stringify(issued.body)).toBe(200);
      return issued.body;
    };
    const none = await codeFor(null, true, (consent) => expect([...consent.body.matchAll(/name="scopes" value="([^"]+)"/g)].map((m) => m[1])).toEqual([...SCOPES]));
    expect(none.scope.split(' ').sort()).toEqual(['account:read', 'questions:read']);
    const openid = await codeFor('openid questions:read account:read', false, (consent) => expect(consent.status).toBe(200));
    expect(openid.id_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(openid.access_token).toBeTruthy();
  });

  it('saying no sends the app access_denied and connects nothing', async () => {
    const client = await register();
    const browser = new HttpBrowser(t.baseUrl);
    const consent = await signInThere(t, browser, await browser.open(authorizeUrl(client.client_id, pkce().challenge)), newEmail());
    const back = await answer(browser, consent, { decision: 'deny' });
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(await t.db.selectFrom('api_keys').select('id').where('client_id', '=', client.client_id).execute()).toEqual([]);
  });

  it('a scope the person did not grant: 403 insufficient_scope on the REST API', async () => {
    const c = await connect({ scopes: ['questions:read'] });
    const response = await api('/v1/billing/balance', c.access);
    expect(response.status).toBe(403);
    expect((await response.json()).error).toMatchObject({ code: 'insufficient_scope', details: { scope: 'account:read' } });
  });
});

describe('accounts (issue 11 point 3; R5.4)', () => {
  it('a connection acts for the account chosen at consent: another in Headcount-Account is refused, another account\'s question is 404', async () => {
    const c = await connect();
    const other = await connect();
    const otherAccount = (await t.db.selectFrom('api_keys').select('account_id').where('client_id', '=', other.clientId).executeTakeFirstOrThrow()).account_id;
    const named = await api('/v1/billing/balance', c.access, { headers: { 'headcount-account': otherAccount } });
    expect(named.status).toBe(403);
    expect((await named.json()).error.code).toBe('insufficient_scope');
    await grant(t, otherAccount, 2_000);
    const asked = await api('/v2/questions', other.access, { method: 'POST', headers: { 'idempotency-key': randomUUID() }, body: JSON.stringify({ draft: choiceDraft() }) });
    expect(asked.status).toBe(201);
    const { question } = await asked.json();
    expect((await api(`/v2/questions/${question.id}`, c.access)).status).toBe(404);
    expect((await api(`/v2/questions/${question.id}`, other.access)).status).toBe(200);
  });

  it('on a team: asks carry teamId and the person; when the person leaves the team, the agent is refused at once', async () => {
    const owner = await signIn(t, newEmail('team-owner'));
    const team = { id: (await t.inject({ method: 'POST', url: '/v1/teams', headers: owner.auth, payload: { name: 'Agents team', currency: 'GBP' } })).json().account.accountId as string };
    await grant(t, team.id, 3_000);
    const memberEmail = newEmail('team-member');
    expect((await t.inject({ method: 'POST', url: `/v1/accounts/${team.id}/invitations`, headers: owner.as(team.id), payload: { email: memberEmail, role: 'member' } })).statusCode).toBe(201);
    const member = await signIn(t, memberEmail);
    const invitation = (await t.inject({ url: '/v1/invitations', headers: member.auth })).json().invitations[0];
    expect((await t.inject({ method: 'POST', url: `/v1/invitations/${invitation.id}/accept`, headers: member.auth })).statusCode).toBe(200);

    const client = await register({ client_name: 'Team agent' });
    const { verifier, challenge } = pkce();
    const browser = new HttpBrowser(t.baseUrl);
    const consent = await signInThere(t, browser, await browser.open(authorizeUrl(client.client_id, challenge)), memberEmail);
    expect(consent.body).toContain('Agents team');
    const back = await answer(browser, consent, { decision: 'allow', account: team.id, scopes: ['questions:read', 'questions:write', 'account:read'], cap: '1000', autoApprove: '0' });
    const issued = await token({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT, client_id: client.client_id });
    const asked = await api('/v2/questions', issued.body.access_token, { method: 'POST', headers: { 'idempotency-key': randomUUID() }, body: JSON.stringify({ draft: choiceDraft() }) });
    expect(asked.status).toBe(201);
    expect((await asked.json()).question).toMatchObject({ teamId: team.id, askedBy: { id: member.personId } });

    expect((await t.inject({ method: 'DELETE', url: `/v1/accounts/${team.id}/members/${member.personId}`, headers: owner.as(team.id) })).statusCode).toBe(200);
    const refused = await api('/v1/billing/balance', issued.body.access_token);
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.message).toMatch(/left the account/);
  });
});

describe('refresh tokens (R4.5)', () => {
  it('rotate on every use; the old one used again revokes the grant, its tokens and the connection', async () => {
    const c = await connect();
    const first = await token({ grant_type: 'refresh_token', refresh_token: c.refresh, client_id: c.clientId });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.refresh_token).toBeTruthy();
    expect(first.body.refresh_token).not.toBe(c.refresh);
    expect((await api('/v1/billing/balance', first.body.access_token)).status).toBe(200);

    const reused = await token({ grant_type: 'refresh_token', refresh_token: c.refresh, client_id: c.clientId });
    expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await api('/v1/billing/balance', first.body.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: c.clientId })).status).toBe(400);
    const list = await c.browser.open('/app/connections');
    expect(list.body).not.toContain('data-testid="connection"');
  });

  // The provider ends a grant's tokens itself and tells of it by an event it does not wait for; the
  // connection must still have ended when the refused refresh is answered (CI once listed it
  // after the answer). The connection's row is held locked by another transaction, so its ending
  // waits: the answer must wait with it. PostgreSQL only: the embedded database is one session,
  // where a row lock holds nothing back.
  it.runIf(isServerRun())('the refused reuse is answered only once the connection has ended', async () => {
    const c = await connect();
    const first = await token({ grant_type: 'refresh_token', refresh_token: c.refresh, client_id: c.clientId });
    expect(first.status).toBe(200);
    const connection = await t.db.selectFrom('api_keys').select('id').where('kind', '=', 'oauth').where('client_id', '=', c.clientId).executeTakeFirstOrThrow();

    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.db.transaction().execute(async (tx) => {
      await tx.selectFrom('api_keys').select('id').where('id', '=', connection.id).forUpdate().execute();
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await isLocked;
    let answered = false;
    const reused = token({ grant_type: 'refresh_token', refresh_token: c.refresh, client_id: c.clientId }).finally(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answered, 'answered while its connection was still live').toBe(false);
    release();
    await holder;
    expect(await reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const row = await t.db.selectFrom('api_keys').select('revoked_at').where('id', '=', connection.id).executeTakeFirstOrThrow();
    expect(row.revoked_at).not.toBeNull();
  });

  it('belong to the connection, not to the browser that consented: its sign-in session ending changes nothing', async () => {
    const c = await connect();
    await t.db.deleteFrom('oauth_store').where('model', '=', 'Session').execute();
    expect((await api('/v1/billing/balance', c.access)).status).toBe(200);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: c.refresh, client_id: c.clientId });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect((await api('/v1/billing/balance', refreshed.body.access_token)).status).toBe(200);
  });

  it('survive a restart: they live in PostgreSQL', async () => {
    const c = await connect();
    expect(await t.db.selectFrom('oauth_store').select('model').where('model', '=', 'RefreshToken').execute()).not.toHaveLength(0);
    // A second provider on the same database (another process, or this one restarted) honours the token.
    const { createOauthProvider } = await import('../../src/oauth/oauth-provider.ts');
    const { createOauthPages } = await import('../../src/web/portal/oauth-pages.ts');
    const other = createOauthProvider({ config: t.config, log: { warn: () => {}, error: () => {} }, store: t.container.oauthStore, connections: t.container.connections, pages: createOauthPages(t.container.assets, t.config) });
    const found = await (await other.provider()).RefreshToken.find(c.refresh);
    expect(found?.clientId).toBe(c.clientId);
  });
});

describe('registration (RFC 7591)', () => {
  it(`one address may register ${REGISTRATIONS_PER_HOUR} clients an hour; the next is 429 with Retry-After, and another address still may`, async () => {
    const body = { client_name: 'Spam', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' };
    const from = (remoteAddress: string) => t.app.inject({ method: 'POST', url: '/oauth/register', payload: body, remoteAddress });
    for (let i = 0; i < REGISTRATIONS_PER_HOUR; i++) expect((await from('198.51.100.7')).statusCode).toBe(201);
    const refused = await from('198.51.100.7');
    expect(refused.statusCode).toBe(429);
    // OAuth's error shape, as every answer at /oauth is, so OAuth libraries read it.
    expect(refused.json()).toEqual({ error: 'rate_limited', error_description: expect.stringMatching(/^Too many client registrations from this address; retry after \d+ s\.$/) });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('198.51.100.8')).statusCode).toBe(201);
  });

  it('refuses what it cannot honour: a redirect URI with a fragment, an unknown grant type', async () => {
    const bad = async (metadata: Record<string, unknown>) => {
      const response = await fetch(url('/oauth/register'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...metadata }) });
      return { status: response.status, body: (await response.json()) as { error: string } };
    };
    expect(await bad({ redirect_uris: ['https://app.example/cb#frag'] })).toMatchObject({ status: 400, body: { error: 'invalid_redirect_uri' } });
    expect(await bad({ grant_types: ['password'] })).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });
  });

  it('sends codes only over https or to the loopback: a web client with an http redirect elsewhere is refused, a native app keeps its own scheme', async () => {
    const register = async (metadata: Record<string, unknown>) => {
      const response = await fetch(url('/oauth/register'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token_endpoint_auth_method: 'none', ...metadata }) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    for (const uri of ['http://app.example/cb', 'http://192.168.1.10:3000/cb']) {
      const refused = await register({ redirect_uris: ['https://app.example/ok', uri] });
      expect(refused, uri).toMatchObject({ status: 400, body: { error: 'invalid_redirect_uri' } });
      expect(String(refused.body.error_description)).toContain('loopback');
    }
    for (const uri of ['https://app.example/cb', 'http://localhost:33418/cb', 'http://[::1]:33418/cb']) {
      expect((await register({ redirect_uris: [uri] })).status, uri).toBe(201);
    }
    const native = await register({ application_type: 'native', redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback'], software_id: 'cursor' });
    expect(native).toMatchObject({ status: 201, body: { software_id: 'cursor' } });
  });
});

describe('client ID metadata documents', () => {
  it('an agent named by its own https document: fetched, shown as vouched for by its domain, and connected like any other', async () => {
    const clientId = `https://${DOCUMENT_HOST}/headcount-client.json`;
    documents.set('/headcount-client.json', {
      client_id: clientId, client_name: 'Documented agent', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'],
    });
    const { verifier, challenge } = pkce();
    const browser = new HttpBrowser(t.baseUrl);
    const consent = await signInThere(t, browser, await browser.open(authorizeUrl(clientId, challenge)), newEmail('documented'));
    expect(fetched).toContain(clientId);
    expect(consent.body).toContain('Connect Documented agent?');
    expect(consent.body).not.toContain('data-testid="unverified"');
    expect(consent.body).toContain(DOCUMENT_HOST);
    const back = await answer(browser, consent, { decision: 'allow', account: /<option value="([^"]+)" selected/.exec(consent.body)![1], scopes: ['questions:read', 'account:read'], cap: '100', autoApprove: '0' });
    const issued = await token({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect((await api('/v1/billing/balance', issued.body.access_token)).status).toBe(200);
  });


  it('an https client_id naming this machine or a private address is not fetched: the person sees why, nothing is asked', async () => {
    for (const clientId of ['https://localhost/client.json', 'https://127.0.0.1/client.json', 'https://10.0.0.5/client.json', 'https://metadata.internal/client.json']) {
      const page = await new HttpBrowser(t.baseUrl).open(authorizeUrl(clientId, pkce().challenge));
      expect(page.status, clientId).toBe(400);
      expect(page.body, clientId).toContain('invalid_client');
      expect(page.body).toContain('This connection request did not work');
      expect(fetched, clientId).not.toContain(clientId);
    }
  });
});

describe('storage upkeep', () => {
  it('the hourly sweep deletes what has expired and keeps what can still be used', async () => {
    const c = await connect();
    await t.db.updateTable('oauth_store').set({ expires_at: new Date(Date.now() - 1000) }).where('model', '=', 'AccessToken').where('id', '=', c.access).execute();
    const { jobDefinitions } = await import('../../src/jobs/jobs.ts');
    const sweep = jobDefinitions(t.container).find((job) => job.name === 'oauth-store-sweep')!;
    await sweep.handler({});
    expect(await t.db.selectFrom('oauth_store').select('id').where('model', '=', 'AccessToken').where('id', '=', c.access).execute()).toEqual([]);
    expect((await token({ grant_type: 'refresh_token', refresh_token: c.refresh, client_id: c.clientId })).status).toBe(200);
  });
});

describe('resources (RFC 8707, R4.4)', () => {
  it('an unknown resource is refused at authorization; a token for the REST API is not one for MCP', async () => {
    const client = await register();
    const browser = new HttpBrowser(t.baseUrl);
    const unknown = await browser.open(authorizeUrl(client.client_id, pkce().challenge, { resource: 'https://elsewhere.example/api' }));
    expect(unknown.location).toContain('error=invalid_target');

    const c = await connect({ resource: t.baseUrl });
    expect((await api('/v1/billing/balance', c.access)).status).toBe(200);
    const mcp = await fetch(url('/mcp'), {
      method: 'POST',
      headers: { authorization: `Bearer ${c.access}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toContain('resource_metadata=');
  });
});

describe('revocation', () => {
  it('disconnecting in the portal stops the very next call', async () => {
    const c = await connect();
    expect((await api('/v1/billing/balance', c.access)).status).toBe(200);
    const list = await c.browser.open('/app/connections');
    expect(list.body).toContain('Test agent');
    const id = /action="\/app\/connections\/([^/]+)\/revoke"/.exec(list.body)![1];
    const done = await c.browser.post(`/app/connections/${id}/revoke`, { _csrf: csrfIn(list.body) });
    expect(done.status).toBe(200);
    expect(done.body).not.toContain('data-testid="connection"');
    const after = await api('/v1/billing/balance', c.access);
    expect(after.status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: c.refresh, client_id: c.clientId })).status).toBe(400);
  });

  it('over the API (portal session only): the person lists their connected apps and disconnects one; a key cannot, a stranger gets 404', async () => {
    const c = await connect({ cap: '500' });
    const person = await signIn(t, c.email);
    const listed = await t.inject({ url: '/v1/connections', headers: person.auth });
    expect(listed.statusCode).toBe(200);
    const [connection] = listed.json().connections;
    expect(listed.json().connections).toHaveLength(1);
    expect(connection).toMatchObject({ clientId: c.clientId, clientName: 'Test agent', account: { kind: 'person' }, scopes: ['questions:read', 'questions:write', 'account:read'], dailyCapCredits: 500, autoApproveCredits: 0 });
    expect(connection.lastUsedAt).toBeNull();

    const key = await t.makeKey();
    const byKey = await t.inject({ url: '/v1/connections', headers: key.auth });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error.message).toContain('an API key cannot use it');
    // The refusal names the credential that was used.
    const byApp = await api('/v1/connections', c.access);
    expect(byApp.status).toBe(403);
    expect((await byApp.json()).error.message).toContain("an app connection's (OAuth) access token cannot use it");
    const stranger = await signIn(t);
    expect((await t.inject({ method: 'DELETE', url: `/v1/connections/${connection.id}`, headers: stranger.auth })).statusCode).toBe(404);
    expect((await api('/v1/billing/balance', c.access)).status).toBe(200);

    const gone = await t.inject({ method: 'DELETE', url: `/v1/connections/${connection.id}`, headers: person.auth });
    expect(gone.statusCode).toBe(200);
    expect((await api('/v1/billing/balance', c.access)).status).toBe(401);
    expect((await t.inject({ method: 'DELETE', url: `/v1/connections/${connection.id}`, headers: person.auth })).statusCode).toBe(404);
    expect((await t.inject({ url: '/v1/connections', headers: person.auth })).json().connections).toEqual([]);
  });

  it('RFC 7009: revoking the refresh token ends the grant; an expired access token is refused', async () => {
    const c = await connect();
    await t.db.updateTable('oauth_store').set({ expires_at: new Date(Date.now() - 1000) }).where('model', '=', 'AccessToken').where('id', '=', c.access).execute();
    expect((await api('/v1/billing/balance', c.access)).status).toBe(401);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: c.refresh, client_id: c.clientId });
    expect(refreshed.status).toBe(200);
    const revoked = await fetch(url('/oauth/revoke'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: refreshed.body.refresh_token, client_id: c.clientId }) });
    expect(revoked.status).toBe(200);
    expect((await api('/v1/billing/balance', refreshed.body.access_token)).status).toBe(401);
  });
});

describe('the device grant (RFC 8628)', () => {
  it('a terminal gets a code, the person confirms it in the browser and consents, the terminal polls a token', async () => {
    const client = await register({ client_name: 'Headless agent', grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'], response_types: [], redirect_uris: [] });
    const started = await fetch(url('/oauth/device/auth'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: client.client_id, scope: 'questions:read questions:write account:read offline_access', resource: mcpResource() }),
    });
    expect(started.status).toBe(200);
    const device = (await started.json()) as { device_code: string; user_code: string; verification_uri: string; verification_uri_complete: string; interval: number };
    expect(device.verification_uri).toBe(url('/oauth/device'));
    const poll = () => token({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: device.device_code, client_id: client.client_id });
    expect(await poll()).toMatchObject({ status: 400, body: { error: 'authorization_pending' } });

    const browser = new HttpBrowser(t.baseUrl);
    const input = await browser.open('/oauth/device');
    expect(input.status).toBe(200);
    expect(input.body).toContain('Connect a device');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(input.body)![1];
    const confirm = await browser.post('/oauth/device', { xsrf, user_code: device.user_code });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain('Headless agent');
    const confirmXsrf = /name="xsrf" value="([^"]+)"/.exec(confirm.body)![1];
    const signInPage = await browser.post('/oauth/device', { xsrf: confirmXsrf, user_code: device.user_code, confirm: 'yes' });
    const consent = await signInThere(t, browser, signInPage, newEmail('device'));
    expect(consent.body).toContain('Connect Headless agent?');
    const uid = /action="\/app\/oauth\/([^"]+)"/.exec(consent.body)![1];
    const done = await browser.post(`/app/oauth/${uid}`, { _csrf: csrfIn(consent.body), decision: 'allow', account: /<option value="([^"]+)" selected/.exec(consent.body)![1], scopes: ['questions:read', 'account:read'], cap: '300', autoApprove: '0' });
    expect(done.status).toBe(200);
    expect(done.body).toContain('data-testid="device-done"');
    const issued = await poll();
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const balance = await api('/v1/billing/balance', issued.body.access_token);
    expect(balance.status).toBe(200);
    expect(await balance.json()).toMatchObject({ capRemaining: 300 });
  });
});
