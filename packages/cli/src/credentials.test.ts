import { mkdtemp, readFile, rm, stat, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configDir, CredentialStore, maskKey, normalizeBaseUrl, type OauthCredential } from './credentials.ts';
import { UsageError } from './exit-codes.ts';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'headcount-cli-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const oauth = (accessToken: string): OauthCredential => ({
  type: 'oauth',
  clientId: 'client_1',
  accessToken,
  refreshToken: 'refresh_1',
  expiresAt: '2026-11-24T11:00:00.000Z',
  scope: 'questions:read',
  tokenEndpoint: 'http://x/oauth/token',
  revocationEndpoint: null,
  resource: 'http://x',
  savedAt: '2026-11-24T10:00:00.000Z',
});

describe('where credentials live', () => {
  it('$XDG_CONFIG_HOME/headcount, else ~/.config/headcount (a relative XDG_CONFIG_HOME is ignored)', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/etc/xdg-home', HOME: '/home/a' })).toBe('/etc/xdg-home/headcount');
    expect(configDir({ HOME: '/home/a' })).toBe('/home/a/.config/headcount');
    expect(configDir({ XDG_CONFIG_HOME: 'relative', HOME: '/home/a' })).toBe('/home/a/.config/headcount');
  });

  it('base URLs are compared without a trailing slash, query or fragment', () => {
    expect(normalizeBaseUrl('https://Headcount.example/')).toBe('https://headcount.example');
    expect(normalizeBaseUrl('http://127.0.0.1:8080/api//?x=1#y')).toBe('http://127.0.0.1:8080/api');
    expect(() => normalizeBaseUrl('ftp://x')).toThrow(UsageError);
    expect(() => normalizeBaseUrl('not a url')).toThrow(UsageError);
  });
});

describe('the credentials file', () => {
  it('is written 0600 in a 0700 directory, one credential per base URL', async () => {
    const store = new CredentialStore({ XDG_CONFIG_HOME: home });
    await store.save('https://a.example', { type: 'api_key', apiKey: 'hc_live_aaa', savedAt: 'now' });
    await store.save('https://b.example', oauth('token_b'));
    expect((await stat(store.file)).mode & 0o777).toBe(0o600);
    expect((await stat(store.dir)).mode & 0o777).toBe(0o700);
    expect(await store.get('https://a.example')).toMatchObject({ type: 'api_key', apiKey: 'hc_live_aaa' });
    expect(await store.get('https://b.example')).toMatchObject({ type: 'oauth', accessToken: 'token_b' });
    expect(await store.get('https://c.example')).toBeNull();
    // The OAuth client is remembered apart, and stays after logout (no new registration next time).
    expect(await store.remove('https://b.example')).toMatchObject({ accessToken: 'token_b' });
    expect(await store.get('https://b.example')).toBeNull();
    expect(await store.client('https://b.example')).toMatchObject({ clientId: 'client_1' });
    expect(JSON.parse(await readFile(store.file, 'utf8')).credentials).toEqual({ 'https://a.example': expect.any(Object) });
  });

  it('a file someone made readable by others is put back to 0600 when read', async () => {
    const store = new CredentialStore({ XDG_CONFIG_HOME: home });
    await store.save('https://a.example', { type: 'api_key', apiKey: 'hc_live_aaa', savedAt: 'now' });
    await chmod(store.file, 0o644);
    await store.read();
    expect((await stat(store.file)).mode & 0o777).toBe(0o600);
  });

  it('updates from many processes at once all land (a lock around read-change-write)', async () => {
    const stores = Array.from({ length: 8 }, () => new CredentialStore({ XDG_CONFIG_HOME: home }));
    await Promise.all(stores.map((store, i) => store.save(`https://s${i}.example`, { type: 'api_key', apiKey: `hc_live_${i}`, savedAt: 'now' })));
    const file = await stores[0]!.read();
    expect(Object.keys(file.credentials).sort()).toEqual(stores.map((_, i) => `https://s${i}.example`).sort());
  });

  it('keys are shown masked', () => {
    expect(maskKey('hc_live_XWNC9zabcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPZGvh')).toBe('hc_live_XWNC9z…ZGvh');
    expect(maskKey('hc_test_short')).toBe('hc_test_…');
  });
});
