import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { freePort } from '../helpers/service-process.ts';
import { NO_RATE_LIMITS } from '../helpers/questions.ts';
import { shot } from '../helpers/results-pages.ts';
import { chromiumMissing, launchBrowser, openPhone, type Phone } from './browser.ts';

/**
 * Connecting an agent with OAuth in Debian's Chromium (issue 11 point 2), as a person does it on a
 * 390-px phone, with the app's side played over HTTP and by a tiny callback server on 127.0.0.1:
 * - authorization code with PKCE: the authorize URL leads to the portal's sign-in (code read on the
 *   dev mailbox page), then to the consent page (the app's name, the "unverified" note, the asked
 *   scopes ticked, the account, the cap and auto-approve fields); Connect with a cap of 500 takes
 *   the BROWSER on to the app's callback with `code` and `state`. That proves the consent page's
 *   CSP `form-action` names the app's origin: Chromium enforces form-action along the redirect
 *   chain that follows a form submission, so without it the browser would stop on our page.
 *   The code is traded for a token that works on the REST API within the cap;
 * - "Do not connect": the callback receives error=access_denied and nothing is connected;
 * - the device grant, both ways a person uses it: the complete verification URI (its auto-posting
 *   form runs in the browser) and the plain one with the code typed in; confirm, sign in, consent,
 *   "connected", and the terminal's poll gets a token;
 * - Connected apps lists the app with its cap; Disconnect removes it and its token gets 401.
 * Every page of ours: no sideways scroll at 390 px, no CSP refusal, no console error, nothing
 * requested from another host. ANSWER_PAGE_SCREENSHOTS=/dir keeps screenshots.
 */
const missing = chromiumMissing();
if (missing) console.warn(`\n*** SKIPPED: ${missing}\n`);

const SCOPE = 'questions:read questions:write account:read offline_access';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** The app's side of the redirect: records every query that reaches /callback and answers a small page. */
interface CallbackServer {
  origin: string;
  uri: string;
  received: URLSearchParams[];
  close(): Promise<void>;
}

async function startCallbackServer(): Promise<CallbackServer> {
  const received: URLSearchParams[] = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      // The browser's favicon and the like: nothing, and no 404 in the console.
      response.writeHead(204).end();
      return;
    }
    received.push(url.searchParams);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><html lang="en"><meta name="viewport" content="width=device-width"><title>Test app</title><h1>Back in the app</h1>');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    uri: `${origin}/callback`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

describe.skipIf(Boolean(missing))('connecting an app with OAuth, in a browser', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let app: CallbackServer;
  const phones: Phone[] = [];
  /**
   * CSP refusals of every document the phones loaded, the ones the browser leaves at once too (the
   * device flow's self-posting form): reported from the page as they happen.
   */
  const violations: string[] = [];
  /** What the first test connected, for the Connected apps test. */
  let connected: { email: string; clientName: string; access: string } | null = null;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ env: { ...NO_RATE_LIMITS, PORT: String(port), PUBLIC_BASE_URL: base } });
    await t.app.listen({ port, host: '127.0.0.1' });
    app = await startCallbackServer();
    browser = await launchBrowser();
  });

  afterEach(async () => {
    for (const phone of phones.splice(0)) await phone.context.close();
    violations.splice(0);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await t?.close();
  });

  // ---- the app's side, over HTTP -------------------------------------------------------------

  async function register(metadata: Record<string, unknown>): Promise<{ client_id: string }> {
    const response = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [app.uri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], ...metadata }),
    });
    expect(response.status).toBe(201);
    return response.json();
  }

  async function token(params: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> {
    const response = await fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params) });
    return { status: response.status, body: await response.json() };
  }

  function authorizeUrl(clientId: string, challenge: string, state: string): string {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: app.uri,
      scope: SCOPE,
      resource: `${base}/mcp`,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    return `${base}/oauth/authorize?${query}`;
  }

  const balance = (access: string) => fetch(`${base}/v1/billing/balance`, { headers: { authorization: `Bearer ${access}` } });

  // ---- the person's side, in the browser -----------------------------------------------------

  /** A 390-px phone with CSP refusals recorded in every document it loads. */
  async function open(): Promise<Phone> {
    const phone = await openPhone(browser, base);
    phones.push(phone);
    await phone.context.exposeBinding('__reportViolation', ({ frame }, text: string) => violations.push(`${frame.url()}: ${text}`));
    await phone.page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const w = window as unknown as { __violations?: string[]; __reportViolation?: (text: string) => void };
        const text = `${event.effectiveDirective} ${event.blockedURI}`;
        (w.__violations ??= []).push(text);
        w.__reportViolation?.(text);
      });
    });
    return phone;
  }

  /** What every page of ours must be: no horizontal scroll at its width, no CSP refusal. */
  async function expectTidy(page: Page, name: string) {
    const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    expect(scroll, `${name}: page wider than the screen`).toBeLessThanOrEqual(width);
    expect(await page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? []), name).toEqual([]);
    await shot(page, `oauth-${name}`);
  }

  /**
   * Signs in on the sign-in page the browser was sent to, reading the code on the dev mailbox page
   * as a developer would, and waits to be taken back to `then`.
   */
  async function signInHere(page: Page, email: string, then: RegExp) {
    await expect.poll(() => new URL(page.url()).pathname).toBe('/app/sign-in');
    await expectTidy(page, 'sign-in');
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.waitForURL(/\/app\/sign-in\/code/);
    const codePage = page.url();
    await page.getByRole('link', { name: 'Dev mailbox' }).click();
    await page.locator('li.row', { hasText: email }).first().getByRole('link').click();
    const code = /\d{6}/.exec(await page.locator('h1').innerText())![0];
    await page.goto(codePage);
    await page.getByLabel('The code').fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(then);
  }

  /** Waits for the browser to land on the app's callback, and returns what the app received. */
  async function arrivedAtApp(page: Page, before: number): Promise<URLSearchParams> {
    await page.waitForURL((url) => url.origin === app.origin && url.pathname === '/callback');
    await expect.poll(() => page.locator('h1').innerText()).toBe('Back in the app');
    expect(app.received.length).toBe(before + 1);
    return app.received[before];
  }

  it('authorization code: sign in, consent with a cap of 500, the browser arrives at the app with a code; the token works within the cap', async () => {
    const clientName = `Research helper ${randomUUID().slice(0, 4)}`;
    const client = await register({ client_name: clientName });
    const { verifier, challenge } = pkce();
    const phone = await open();
    const { page } = phone;
    const email = `ada-${randomUUID().slice(0, 8)}@example.org`;

    // The app sends the person's browser to authorize: signed out, they land on the portal's sign-in.
    await page.goto(authorizeUrl(client.client_id, challenge, 'state-allow'));
    await expect.poll(() => new URL(page.url()).pathname).toBe('/app/sign-in');
    expect(new URL(page.url()).searchParams.get('next')).toMatch(/^\/app\/oauth\/[\w-]+$/);
    await signInHere(page, email, /\/app\/oauth\/[\w-]+$/);

    // The consent page: who asks, that nobody vouches for it, what it may do, for which account, within what.
    await expect.poll(() => page.locator('h1').innerText()).toBe(`Connect ${clientName}?`);
    await expect.poll(() => page.getByTestId('unverified').isVisible()).toBe(true);
    expect(await page.getByTestId('unverified').innerText()).toContain('Unverified app');
    const scopes = await page.locator('input[type="checkbox"][name="scopes"]').evaluateAll((boxes) => boxes.map((b) => [(b as HTMLInputElement).value, (b as HTMLInputElement).checked]));
    expect(scopes).toEqual([['questions:read', true], ['questions:write', true], ['account:read', true]]);
    for (const label of ['questions:read: read questions, results and answers', 'questions:write: ask and spend credits', 'account:read: read the balance and ledger']) {
      expect(await page.getByRole('checkbox', { name: label }).isChecked(), label).toBe(true);
    }
    const account = page.getByLabel('Account it acts for');
    expect(await account.inputValue()).not.toBe('');
    expect(await account.locator('option:checked').innerText()).toMatch(/^Personal · /);
    const cap = page.getByLabel('Daily spend cap for this app (credits)');
    expect(await cap.inputValue()).toBe('1000');
    expect(await page.getByLabel('Asks it may make without confirming, up to (credits)').inputValue()).toBe('0');
    expect(await page.getByText(`Afterwards you go back to ${new URL(app.origin).host}.`).count()).toBe(1);
    await expectTidy(page, 'consent');

    // A cap of 500, and Connect: the browser goes on to the app itself (form-action allows its origin).
    await cap.fill('500');
    const before = app.received.length;
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    const back = await arrivedAtApp(page, before);
    expect(back.get('state')).toBe('state-allow');
    expect(back.get('iss')).toBe(`${base}/oauth`);
    const code = back.get('code');
    expect(code).toBeTruthy();

    // The app trades the code (with its PKCE verifier) for tokens; the token acts within the cap.
    const issued = await token({ grant_type: 'authorization_code', code: code!, code_verifier: verifier, redirect_uri: app.uri, client_id: client.client_id });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.body.refresh_token).toBeTruthy();
    const answer = await balance(issued.body.access_token);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ capRemaining: 500 });
    connected = { email, clientName, access: issued.body.access_token };

    expect(phone.problems).toEqual([]);
    expect(phone.external).toEqual([]);
    expect(violations).toEqual([]);
  });

  it('"Do not connect": the browser arrives at the app with access_denied, and nothing is connected', async () => {
    const client = await register({ client_name: 'Unwanted helper' });
    const phone = await open();
    const { page } = phone;
    await page.goto(authorizeUrl(client.client_id, pkce().challenge, 'state-deny'));
    await signInHere(page, `bea-${randomUUID().slice(0, 8)}@example.org`, /\/app\/oauth\/[\w-]+$/);
    await expect.poll(() => page.locator('h1').innerText()).toBe('Connect Unwanted helper?');
    const before = app.received.length;
    await page.getByRole('button', { name: 'Do not connect' }).click();
    const back = await arrivedAtApp(page, before);
    expect(back.get('error')).toBe('access_denied');
    expect(back.get('state')).toBe('state-deny');
    expect(back.get('code')).toBeNull();

    await page.goto('/app/connections');
    await expect.poll(() => page.locator('h1').innerText()).toBe('Connected apps');
    expect(await page.getByTestId('connection').count()).toBe(0);
    expect(await page.getByText('No app is connected.').count()).toBe(1);
    expect(phone.problems).toEqual([]);
    expect(phone.external).toEqual([]);
    expect(violations).toEqual([]);
  });

  it('the device grant: by the complete link (its form posts itself) and by typing the code; confirm, consent, "connected", and the terminal gets a token', async () => {
    const client = await register({ client_name: 'Headless agent', grant_types: [DEVICE_GRANT, 'refresh_token'], response_types: [], redirect_uris: [] });
    type Device = { device_code: string; user_code: string; verification_uri: string; verification_uri_complete: string };
    const start = async (): Promise<Device> => {
      const response = await fetch(`${base}/oauth/device/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: client.client_id, scope: SCOPE, resource: `${base}/mcp` }),
      });
      expect(response.status).toBe(200);
      return response.json();
    };
    const poll = (device: Device) => token({ grant_type: DEVICE_GRANT, device_code: device.device_code, client_id: client.client_id });

    const phone = await open();
    const { page } = phone;
    // The headers of the page behind the complete link (oidc-provider's own self-posting form).
    const autoPostHeaders: Array<Record<string, string>> = [];
    page.on('response', (response) => {
      if (response.request().method() === 'GET' && /\/oauth\/device\?user_code=/.test(response.url())) autoPostHeaders.push(response.headers());
    });

    // 1. The terminal shows the complete link; the person opens it. Its form posts itself at once
    // (an inline script the provider allows by its hash), and the confirmation page shows the code.
    const first = await start();
    expect(first.verification_uri).toBe(`${base}/oauth/device`);
    expect(await poll(first)).toMatchObject({ status: 400, body: { error: 'authorization_pending' } });
    await page.goto(first.verification_uri_complete);
    await expect.poll(() => page.getByTestId('user-code').innerText().catch(() => '')).toBe(first.user_code);
    expect(new URL(page.url()).pathname).toBe('/oauth/device');
    expect(await page.locator('h1').innerText()).toBe('Is this the code on your device?');
    expect(await page.getByText('Continue only if Headless agent shows this code').count()).toBe(1);
    await expectTidy(page, 'device-confirm');
    // That page has the portal's headers, and its one inline script is allowed by its hash alone
    // (it ran: the browser got here, with no refusal recorded on the way).
    expect(autoPostHeaders).toHaveLength(1);
    expect(autoPostHeaders[0]).toMatchObject({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' });
    expect(autoPostHeaders[0]['content-security-policy']).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]{44}';/);
    expect(autoPostHeaders[0]['content-security-policy']).not.toContain('unsafe-inline');
    expect(violations).toEqual([]);

    await page.getByRole('button', { name: 'Continue' }).click();
    const email = `cy-${randomUUID().slice(0, 8)}@example.org`;
    await signInHere(page, email, /\/app\/oauth\/[\w-]+$/);
    await expect.poll(() => page.locator('h1').innerText()).toBe('Connect Headless agent?');
    expect(await page.getByText('Afterwards you go back to').count()).toBe(0);
    await expectTidy(page, 'device-consent');
    await page.getByLabel('Daily spend cap for this app (credits)').fill('300');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect.poll(() => page.getByTestId('device-done').isVisible().catch(() => false)).toBe(true);
    expect(await page.getByTestId('device-done').innerText()).toBe('Headless agent is connected. You can close this page and go back to it.');
    await expectTidy(page, 'device-done');
    const firstToken = await poll(first);
    expect(firstToken.status, JSON.stringify(firstToken.body)).toBe(200);
    const firstBalance = await balance(firstToken.body.access_token);
    expect(firstBalance.status).toBe(200);
    expect(await firstBalance.json()).toMatchObject({ capRemaining: 300 });

    // 2. Another terminal shows only the address and the code; the person types the code.
    const second = await start();
    await page.goto(second.verification_uri);
    await expect.poll(() => page.locator('h1').innerText()).toBe('Connect a device');
    expect(await page.getByText('Enter the code that your app or terminal shows.').count()).toBe(1);
    await expectTidy(page, 'device-input');
    await page.getByRole('textbox', { name: 'Connect a device' }).fill(second.user_code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.getByTestId('user-code').innerText().catch(() => '')).toBe(second.user_code);
    await page.getByRole('button', { name: 'Continue' }).click();
    // Already signed in: straight to consent.
    await page.waitForURL(/\/app\/oauth\/[\w-]+$/);
    await expect.poll(() => page.locator('h1').innerText()).toBe('Connect Headless agent?');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect.poll(() => page.getByTestId('device-done').isVisible().catch(() => false)).toBe(true);
    const secondToken = await poll(second);
    expect(secondToken.status, JSON.stringify(secondToken.body)).toBe(200);
    expect((await balance(secondToken.body.access_token)).status).toBe(200);

    expect(phone.problems).toEqual([]);
    expect(phone.external).toEqual([]);
    expect(violations).toEqual([]);
  });

  it('Connected apps lists the app with its cap; Disconnect removes it, and its token is refused at once', async () => {
    expect(connected, 'the authorization code test connected an app').not.toBeNull();
    const { email, clientName, access } = connected!;
    expect((await balance(access)).status).toBe(200);

    const phone = await open();
    const { page } = phone;
    await page.goto('/app/connections');
    await signInHere(page, email, /\/app\/connections$/);
    await expect.poll(() => page.locator('h1').innerText()).toBe('Connected apps');
    const row = page.getByTestId('connection').filter({ hasText: clientName });
    await expect.poll(() => row.count()).toBe(1);
    const text = await row.innerText();
    expect(text).toContain('Daily cap (credits): 500');
    expect(text).toContain('questions:read, questions:write, account:read');
    expect(text).toContain('confirms every ask');
    await expectTidy(page, 'connections');

    await row.getByRole('button', { name: 'Disconnect' }).click();
    await page.waitForURL(/\/app\/connections\?done=revoked$/);
    await expect.poll(() => page.getByText('Done.').count()).toBe(1);
    expect(await page.getByTestId('connection').filter({ hasText: clientName }).count()).toBe(0);
    expect(await page.getByText('No app is connected.').count()).toBe(1);
    await expectTidy(page, 'connections-after');

    const refused = await balance(access);
    expect(refused.status).toBe(401);
    expect(phone.problems).toEqual([]);
    expect(phone.external).toEqual([]);
    expect(violations).toEqual([]);
  });
});
