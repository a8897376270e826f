import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/test-app.ts';
import { createListeningApp, csrfIn, HttpBrowser, signInThere } from '../helpers/http-browser.ts';
import { newEmail } from '../helpers/people.ts';
import { grant, NO_RATE_LIMITS } from '../helpers/questions.ts';
import { cliHome, ensureBuilt, runCli, startCli, type CliHome, type RunningCli } from './headcount-cli-helpers.ts';

/**
 * `headcount login` without a key: the OAuth device grant end to end (docs/agents.md "The device
 * flow"). The command registers itself, shows the address and the code, and polls; the test is
 * the person, who opens the address in a browser (HttpBrowser over real HTTP, as in
 * mcp-oauth.test.ts), signs in with the emailed code and consents. Then the saved tokens work,
 * are renewed when the access token ends (rotation), and logout revokes them.
 */
let t: TestApp & { baseUrl: string };
let home: CliHome;
const email = newEmail('cli');

beforeAll(async () => {
  await ensureBuilt();
  t = await createListeningApp({ env: { ...NO_RATE_LIMITS } });
  home = await cliHome(t.baseUrl);
});
afterAll(async () => {
  await home?.dispose();
  await t?.close();
});

const credentialsFile = () => path.join(home.configHome, 'headcount/credentials.json');
const saved = async () => JSON.parse(await readFile(credentialsFile(), 'utf8')) as { credentials: Record<string, any>; clients: Record<string, any> };

/** What the command shows the person: the address to open and the code to check. */
async function shown(running: RunningCli): Promise<{ url: string; code: string }> {
  const [, url] = await running.waitFor(/open this address in a browser:\s+(\S+)/, 'stderr');
  const [, code] = await running.waitFor(/shows the code ([A-Z]{4}-[A-Z]{4})/, 'stderr');
  return { url: url!, code: code! };
}

/** The person's part: open the address, check the code and the app, sign in, and allow (or not). */
async function approve(url: string, code: string, decision: 'allow' | 'deny'): Promise<string> {
  const browser = new HttpBrowser(t.baseUrl);
  // The complete address answers with a form the page's script posts at once; posted here as the script would.
  const autoPost = await browser.open(url);
  const fields = Object.fromEntries([...autoPost.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [m[1]!, m[2]!]));
  expect(fields.user_code).toBe(code);
  const confirm = await browser.post(new URL(url).pathname, fields);
  expect(confirm.body).toContain('headcount CLI on');
  expect(confirm.body).toContain(code);
  const landing = await browser.post(new URL(url).pathname, { xsrf: /name="xsrf" value="([^"]+)"/.exec(confirm.body)![1]!, user_code: code, confirm: 'yes' });
  const consent = await signInThere(t, browser, landing, email);
  const uid = /action="\/app\/oauth\/([^"]+)"/.exec(consent.body)![1]!;
  const account = /<option value="([^"]+)" selected/.exec(consent.body)![1]!;
  const scopes = [...consent.body.matchAll(/name="scopes" value="([^"]+)" checked/g)].map((m) => m[1]!);
  expect(scopes).toEqual(expect.arrayContaining(['questions:read', 'questions:write', 'account:read']));
  const done = await browser.post(`/app/oauth/${uid}`, { _csrf: csrfIn(consent.body), decision, account, scopes, cap: '', autoApprove: '0' });
  if (decision === 'allow') expect(done.body).toContain('data-testid="device-done"');
  return account;
}

describe('headcount login: the OAuth device grant', () => {
  let account: string;

  it('shows the address and the code, the person approves in the browser, and the tokens are saved 0600', async () => {
    const running = startCli(['login'], home.env());
    const { url, code } = await shown(running);
    expect(url).toBe(`${t.baseUrl}/oauth/device?user_code=${code}`);
    await running.waitFor(/Waiting for you to approve/, 'stderr'); // written just after the code: wait for it, do not read once
    account = await approve(url, code, 'allow');
    const done = await running.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^Signed in to http:\/\/127\.0\.0\.1:\d+ with .*questions:write/m);
    const file = await saved();
    expect(file.credentials[t.baseUrl]).toMatchObject({ type: 'oauth', clientId: expect.any(String), accessToken: expect.any(String), refreshToken: expect.any(String), resource: t.baseUrl });
    expect(file.clients[t.baseUrl].clientId).toBe(file.credentials[t.baseUrl].clientId);
    expect((await stat(credentialsFile())).mode & 0o777).toBe(0o600);
  }, 60_000);

  it('the saved sign-in works: whoami, balance, ask', async () => {
    await grant(t, account, 5_000);
    const who = JSON.parse((await runCli(['whoami', '--json'], home.env())).stdout);
    expect(who).toMatchObject({ baseUrl: t.baseUrl, credential: 'oauth', renewable: true, balance: { credits: 5_000 } });
    const asked = await runCli(['ask', '--type', 'scale_1_5', '--text', 'How clear is this pricing page?', '--n', '10', '--json'], home.env());
    expect(asked.code, asked.stderr).toBe(0);
    expect(JSON.parse(asked.stdout).question).toMatchObject({ status: 'live', source: 'api' });
  });

  it('an access token the service ended is renewed with the refresh token (rotated), and the call goes through', async () => {
    const before = (await saved()).credentials[t.baseUrl];
    await t.db.updateTable('oauth_store').set({ expires_at: new Date(Date.now() - 1000) }).where('model', '=', 'AccessToken').where('id', '=', before.accessToken).execute();
    const balance = await runCli(['balance', '--json'], home.env());
    expect(balance.code, balance.stderr).toBe(0);
    const after = (await saved()).credentials[t.baseUrl];
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
  });

  it('one that has passed its saved expiry is renewed before the call', async () => {
    const file = await saved();
    const before = file.credentials[t.baseUrl];
    file.credentials[t.baseUrl] = { ...before, expiresAt: new Date(Date.now() - 60_000).toISOString() };
    await writeFile(credentialsFile(), JSON.stringify(file), { mode: 0o600 });
    const list = await runCli(['list', '--json'], home.env());
    expect(list.code, list.stderr).toBe(0);
    const after = (await saved()).credentials[t.baseUrl];
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(Date.parse(after.expiresAt)).toBeGreaterThan(Date.now());
  });

  it('logout revokes the sign-in at the service and forgets it', async () => {
    const token = (await saved()).credentials[t.baseUrl].accessToken as string;
    const out = await runCli(['logout'], home.env());
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`Signed out of ${t.baseUrl}; the sign-in is revoked at the service.`);
    expect((await saved()).credentials[t.baseUrl]).toBeUndefined();
    const refused = await t.inject({ method: 'GET', url: '/v1/billing/balance', headers: { authorization: `Bearer ${token}` } });
    expect(refused.statusCode).toBe(401);
    expect((await runCli(['balance'], home.env())).code).toBe(3);
  });

  it('signing in again reuses the registered client; a person who says no ends it with exit 3', async () => {
    const clientId = (await saved()).clients[t.baseUrl].clientId;
    const running = startCli(['login'], home.env());
    const { url, code } = await shown(running);
    await approve(url, code, 'deny');
    const done = await running.done;
    expect(done.code).toBe(3);
    expect(done.stderr).toMatch(/^Error: access_denied: The sign-in was refused in the browser; nothing was saved\.$/m);
    expect((await saved()).clients[t.baseUrl].clientId).toBe(clientId);
    expect((await saved()).credentials[t.baseUrl]).toBeUndefined();
  }, 60_000);
});
