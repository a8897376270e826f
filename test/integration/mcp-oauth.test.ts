import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { TestApp } from '../helpers/test-app.ts';
import { createListeningApp, csrfIn, HttpBrowser, signInThere } from '../helpers/http-browser.ts';
import { newEmail } from '../helpers/people.ts';
import { answerAll, choiceDraft, grant, NO_RATE_LIMITS, seedHeads, sleep, type Head } from '../helpers/questions.ts';

/**
 * Issue 11 point 6: the official MCP SDK client, pointed only at {mcp_url}, runs the whole flow
 * against a running server. It discovers the authorization server from the 401 (RFC 9728),
 * registers itself (RFC 7591), gets a code with PKCE through the portal's sign-in and consent
 * pages (driven here over real HTTP as a browser would), trades it for tokens, calls tools
 * (estimate → ask → wait with progress → result), refreshes a rotated token, and is stopped by a
 * disconnect in the portal. The device grant runs from a terminal (curl), and its token works for
 * the same client.
 */
const run = promisify(execFile);
let t: TestApp & { baseUrl: string };
let heads: Head[];
const REDIRECT = 'http://127.0.0.1:9/mcp-client/callback';

beforeAll(async () => {
  t = await createListeningApp({ env: { ...NO_RATE_LIMITS } });
  heads = await seedHeads(t, 40);
});
afterAll(async () => {
  await t?.close();
});

/** What an MCP client keeps between runs (registration, tokens, the PKCE verifier), in memory. */
class RememberingProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl: URL | null = null;
  readonly tokenHistory: OAuthTokens[] = [];
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'SDK test agent', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
    this.tokenHistory.push(tokens);
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  /** What a client forgets when the server refuses it (the SDK calls this on invalid_grant and the like). */
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
  }
}

const mcpUrl = () => new URL(`${t.baseUrl}/mcp`);

async function connectWith(provider: OAuthClientProvider): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
  const client = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** The person's part: sign in on the page the browser lands on, consent with a cap, and return the code. */
async function consentInBrowser(authorizationUrl: URL, email: string, fields: { cap: string; autoApprove?: string }): Promise<string> {
  const browser = new HttpBrowser(t.baseUrl);
  const consent = await signInThere(t, browser, await browser.open(authorizationUrl.toString()), email);
  expect(consent.body).toContain('Connect SDK test agent?');
  const uid = /action="\/app\/oauth\/([^"]+)"/.exec(consent.body)![1];
  const back = await browser.post(`/app/oauth/${uid}`, {
    _csrf: csrfIn(consent.body),
    decision: 'allow',
    account: /<option value="([^"]+)" selected/.exec(consent.body)![1],
    scopes: [...consent.body.matchAll(/name="scopes" value="([^"]+)" checked/g)].map((m) => m[1]),
    cap: fields.cap,
    autoApprove: fields.autoApprove ?? '0',
  });
  expect(back.status).toBe(303);
  const redirect = new URL(back.location!);
  expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT);
  return redirect.searchParams.get('code')!;
}

const text = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');

describe('the official MCP SDK client with OAuth (issue 11 point 6)', () => {
  const provider = new RememberingProvider();
  const email = newEmail('sdk');
  let client: Client;

  it('discovers the authorization server from the 401, registers, and is sent to the portal to sign in and consent', async () => {
    await expect(connectWith(provider)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.client?.client_id).toBeTruthy();
    const url = provider.authorizationUrl!;
    expect(`${url.origin}${url.pathname}`).toBe(`${t.baseUrl}/oauth/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(mcpUrl().toString());
    expect(url.searchParams.get('scope')).toContain('questions:write');
  });

  it('finishes with the code, connects, and asks: estimate → ask → wait with progress → result, within a cap of 500', async () => {
    const code = await consentInBrowser(provider.authorizationUrl!, email, { cap: '500' });
    const first = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    await first.finishAuth(code);
    expect(provider.saved?.access_token).toBeTruthy();
    expect(provider.saved?.refresh_token).toBeTruthy();
    ({ client } = await connectWith(provider));
    const account = await t.db.selectFrom('api_keys').select('account_id').where('kind', '=', 'oauth').where('client_id', '=', provider.client!.client_id).executeTakeFirstOrThrow();
    await grant(t, account.account_id, 5_000);

    const estimate = await client.callTool({ name: 'estimate', arguments: { draft: choiceDraft() } });
    expect(estimate.isError).toBeFalsy();
    const price = (estimate.structuredContent as { creditsTotal: number }).creditsTotal;
    expect(price).toBeGreaterThan(0);
    expect(price).toBeLessThanOrEqual(500);

    // Without confirm: the exact price, nothing spent.
    const priced = await client.callTool({ name: 'ask', arguments: { draft: choiceDraft() } });
    expect(priced.isError).toBeFalsy();
    expect(text(priced)).toContain(`${price} credits`);
    expect(text(priced)).toMatch(/confirm: true/);
    const asked = await client.callTool({ name: 'ask', arguments: { draft: choiceDraft(), confirm: true } });
    expect(asked.isError, text(asked)).toBeFalsy();
    const question = (asked.structuredContent as { question: { id: string; source: string } }).question;
    expect(question.source).toBe('mcp');
    expect(text(asked)).toContain(`${price} credits`);

    await answerAll(t, question.id, heads.slice(0, 2), { option: 0 });
    const progress: string[] = [];
    const waiting = client.callTool({ name: 'wait_for_result', arguments: { questionId: question.id, timeoutSeconds: 3 } }, undefined, { onprogress: (p) => progress.push(p.message ?? '') });
    await sleep(500);
    await answerAll(t, question.id, heads.slice(2, 4), { option: 1 });
    const waited = await waiting;
    expect(waited.isError).toBeFalsy();
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.at(-1)).toMatch(/^4 of \d+ answers$/);
    const result = await client.callTool({ name: 'get_result', arguments: { questionId: question.id } });
    expect(text(result)).toContain('simulated heads');

    // The cap of 500: with `price` spent, an ask over what is left is refused as a tool result the agent can act on.
    const over = await client.callTool({ name: 'ask', arguments: { draft: choiceDraft({ n: 40 }), confirm: true } });
    expect(over.isError).toBe(true);
    expect(text(over)).toMatch(/cap/i);
  });

  it('refreshes with rotation when the access token has expired, and goes on', async () => {
    const before = provider.saved!;
    await t.db.updateTable('oauth_store').set({ expires_at: new Date(Date.now() - 1000) }).where('model', '=', 'AccessToken').where('id', '=', before.access_token).execute();
    const balance = await client.callTool({ name: 'get_balance', arguments: {} });
    expect(balance.isError, text(balance)).toBeFalsy();
    expect(provider.saved!.access_token).not.toBe(before.access_token);
    expect(provider.saved!.refresh_token).toBeTruthy();
    expect(provider.saved!.refresh_token).not.toBe(before.refresh_token);
  });

  it('a disconnect in the portal stops the next tool call', async () => {
    const browser = new HttpBrowser(t.baseUrl);
    const list = await signInThere(t, browser, await browser.open('/app/connections'), email);
    expect(list.body).toContain('SDK test agent');
    const id = /action="\/app\/connections\/([^/]+)\/revoke"/.exec(list.body)![1];
    await browser.post(`/app/connections/${id}/revoke`, { _csrf: csrfIn(list.body) });
    provider.authorizationUrl = null;
    // The next call: the access token is refused, the refresh token too (the grant is gone), the
    // client forgets them, and its only way on is to send its person to authorize again.
    await expect(client.callTool({ name: 'get_balance', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.saved).toBeUndefined();
    expect((provider.authorizationUrl as URL | null)?.pathname).toBe('/oauth/authorize');
    await client.close().catch(() => {});
  });
});

/** A terminal's device grant (curl, as docs/agents.md shows it) with its person's consent in the browser: the access token. */
async function deviceToken(clientName: string, consent: { cap: string; autoApprove: string }): Promise<string> {
  const curl = async (path: string, form: Record<string, string>) => {
    const args = ['-s', '-X', 'POST', `${t.baseUrl}${path}`];
    for (const [k, v] of Object.entries(form)) args.push('--data-urlencode', `${k}=${v}`);
    return JSON.parse((await run('curl', args)).stdout) as Record<string, string>;
  };
  const registration = JSON.parse(
    (await run('curl', ['-s', '-X', 'POST', `${t.baseUrl}/oauth/register`, '-H', 'content-type: application/json', '-d', JSON.stringify({ client_name: clientName, grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'], response_types: [], redirect_uris: [], token_endpoint_auth_method: 'none' })])).stdout,
  ) as { client_id: string };
  const device = await curl('/oauth/device/auth', { client_id: registration.client_id, scope: 'questions:read questions:write account:read', resource: mcpUrl().toString() });
  expect(device.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
  const poll = () => curl('/oauth/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: device.device_code, client_id: registration.client_id });
  expect(await poll()).toMatchObject({ error: 'authorization_pending' });

  const browser = new HttpBrowser(t.baseUrl);
  // The complete URI answers with a form that a browser's script posts at once (it carries the
  // page's anti-forgery token); this browser posts it as the script would.
  const autoPost = await browser.open(device.verification_uri_complete);
  const fields = Object.fromEntries([...autoPost.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [m[1], m[2]]));
  expect(fields).toMatchObject({ user_code: device.user_code });
  const confirm = await browser.post(new URL(device.verification_uri).pathname, fields);
  expect(confirm.body).toContain(clientName);
  expect(confirm.body).toContain(device.user_code);
  const landing = await browser.post(new URL(device.verification_uri).pathname, { xsrf: /name="xsrf" value="([^"]+)"/.exec(confirm.body)![1], user_code: device.user_code, confirm: 'yes' });
  const page = await signInThere(t, browser, landing, newEmail('terminal'));
  const uid = /action="\/app\/oauth\/([^"]+)"/.exec(page.body)![1];
  const account = /<option value="([^"]+)" selected/.exec(page.body)![1];
  const done = await browser.post(`/app/oauth/${uid}`, { _csrf: csrfIn(page.body), decision: 'allow', account, scopes: ['questions:read', 'questions:write', 'account:read'], ...consent });
  expect(done.body).toContain('data-testid="device-done"');
  await grant(t, account, 5_000);
  const issued = await poll();
  expect(issued.access_token).toBeTruthy();
  return issued.access_token;
}

async function bearerClient(token: string): Promise<Client> {
  const client = new Client({ name: 'terminal', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

describe('the device grant from a terminal (RFC 8628)', () => {
  it('curl gets a code, the person enters it in the browser and consents, curl polls the token, and the MCP client uses it', async () => {
    const client = await bearerClient(await deviceToken('Terminal agent', { cap: '200', autoApprove: '0' }));
    const balance = await client.callTool({ name: 'get_balance', arguments: {} });
    expect(balance.isError, text(balance)).toBeFalsy();
    expect((balance.structuredContent as { capRemaining: number }).capRemaining).toBe(200);
    await client.close();
  });

  it('the auto-approve amount the person chose: an ask at or under it goes ahead at once, one over it is priced first', async () => {
    const client = await bearerClient(await deviceToken('Auto agent', { cap: '3000', autoApprove: '1000' }));
    const price = async (n: number) => ((await client.callTool({ name: 'estimate', arguments: { draft: choiceDraft({ n }) } })).structuredContent as { creditsTotal: number }).creditsTotal;
    expect(await price(10)).toBeLessThanOrEqual(1000);
    const small = await client.callTool({ name: 'ask', arguments: { draft: choiceDraft({ n: 10 }) } });
    expect(small.isError, text(small)).toBeFalsy();
    expect((small.structuredContent as { question?: { source: string } }).question?.source).toBe('mcp');
    let n = 10;
    while ((await price(n)) <= 1000) n += 10;
    const big = await client.callTool({ name: 'ask', arguments: { draft: choiceDraft({ n }) } });
    expect(big.isError).toBeFalsy();
    expect((big.structuredContent as { confirmationRequired: boolean }).confirmationRequired).toBe(true);
    expect((big.structuredContent as { question?: unknown }).question).toBeUndefined();
    await client.close();
  });
});
