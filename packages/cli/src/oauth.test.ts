import { describe, expect, it } from 'vitest';
import { AuthError } from './exit-codes.ts';
import { pollForTokens, refreshTokens, type DeviceAuthorization, type ServerMetadata } from './oauth.ts';
import type { OauthCredential } from './credentials.ts';

const metadata: ServerMetadata = { issuer: 'http://hc/oauth', token_endpoint: 'http://hc/oauth/token', device_authorization_endpoint: 'http://hc/oauth/device/auth' };
const device: DeviceAuthorization = { device_code: 'dc', user_code: 'BCDF-GHJK', verification_uri: 'http://hc/oauth/device', expires_in: 600, interval: 5 };

/** A token endpoint that answers from a script, recording each form it was sent. */
function tokenEndpoint(answers: Array<[number, Record<string, unknown>]>) {
  const forms: Array<Record<string, string>> = [];
  const fetchFn = (async (_url: string, init: RequestInit) => {
    forms.push(Object.fromEntries(new URLSearchParams(String(init.body))));
    const [status, body] = answers.shift()!;
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  return { fetchFn, forms };
}

describe('the device grant poll (RFC 8628)', () => {
  it("waits the server's interval before each poll, 5 s more after each slow_down, until the tokens come", async () => {
    const { fetchFn, forms } = tokenEndpoint([
      [400, { error: 'authorization_pending' }],
      [400, { error: 'slow_down' }],
      [400, { error: 'authorization_pending' }],
      [400, { error: 'slow_down' }],
      [200, { access_token: 'at', refresh_token: 'rt', expires_in: 3600, token_type: 'Bearer' }],
    ]);
    const pauses: number[] = [];
    const slowed: number[] = [];
    const tokens = await pollForTokens(metadata, 'client_1', device, fetchFn, { sleep: async (ms) => void pauses.push(ms), onSlowDown: (s) => slowed.push(s) });
    expect(tokens).toMatchObject({ access_token: 'at', refresh_token: 'rt' });
    expect(pauses).toEqual([5000, 5000, 10_000, 10_000, 15_000]);
    expect(slowed).toEqual([10, 15]);
    expect(forms[0]).toEqual({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: 'dc', client_id: 'client_1' });
  });

  it('a refusal, or a code that expires, ends it with an auth error (exit 3)', async () => {
    const denied = tokenEndpoint([[400, { error: 'access_denied' }]]);
    await expect(pollForTokens(metadata, 'c', device, denied.fetchFn, { sleep: async () => {} })).rejects.toMatchObject({ code: 'access_denied', constructor: AuthError });
    const expired = tokenEndpoint([[400, { error: 'expired_token' }]]);
    await expect(pollForTokens(metadata, 'c', device, expired.fetchFn, { sleep: async () => {} })).rejects.toThrow(/expired/);
    // Our own clock: still pending when the code's life is over.
    let now = 0;
    const pending = tokenEndpoint(Array.from({ length: 5 }, () => [400, { error: 'authorization_pending' }] as [number, Record<string, unknown>]));
    await expect(
      pollForTokens(metadata, 'c', { ...device, expires_in: 12 }, pending.fetchFn, {
        now: () => now,
        sleep: async (ms) => {
          now += ms;
        },
      }),
    ).rejects.toMatchObject({ code: 'expired_token' });
    expect(pending.forms.length).toBe(2);
  });

  it('no interval given: 5 s', async () => {
    const { fetchFn } = tokenEndpoint([[200, { access_token: 'at' }]]);
    const pauses: number[] = [];
    await pollForTokens(metadata, 'c', { ...device, interval: undefined }, fetchFn, { sleep: async (ms) => void pauses.push(ms) });
    expect(pauses).toEqual([5000]);
  });
});

describe('refresh', () => {
  const saved: OauthCredential = {
    type: 'oauth',
    clientId: 'client_1',
    accessToken: 'old',
    refreshToken: 'r1',
    expiresAt: null,
    scope: 'questions:read',
    tokenEndpoint: 'http://hc/oauth/token',
    revocationEndpoint: null,
    resource: 'http://hc',
    savedAt: '',
  };

  it('keeps the rotated refresh token and the new expiry', async () => {
    const { fetchFn, forms } = tokenEndpoint([[200, { access_token: 'new', refresh_token: 'r2', expires_in: 3600 }]]);
    const renewed = await refreshTokens(saved, fetchFn, Date.parse('2026-11-24T10:00:00Z'));
    expect(renewed).toMatchObject({ accessToken: 'new', refreshToken: 'r2', expiresAt: '2026-11-24T11:00:00.000Z' });
    expect(forms[0]).toEqual({ grant_type: 'refresh_token', refresh_token: 'r1', client_id: 'client_1' });
  });

  it('a refused refresh token means signing in again', async () => {
    const { fetchFn } = tokenEndpoint([[400, { error: 'invalid_grant' }]]);
    await expect(refreshTokens(saved, fetchFn, 0)).rejects.toThrow(/headcount login/);
  });
});
