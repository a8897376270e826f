import { Headcount } from '@headcount/sdk';
import { AuthError } from './exit-codes.ts';
import { CredentialStore, maskKey, type OauthCredential } from './credentials.ts';
import { refreshTokens } from './oauth.ts';
import type { Io } from './ui.ts';

export const CLI_VERSION = '0.1.0';
export const USER_AGENT = `headcount-cli/${CLI_VERSION} node/${process.versions.node}`;

/** Renew an access token this long before the service says it ends. */
const EXPIRY_MARGIN_MS = 60_000;

/** Where the credential of a run comes from. */
export type Credential =
  | { kind: 'api_key'; apiKey: string; source: 'env' | 'file' }
  | { kind: 'oauth'; oauth: OauthCredential; source: 'file' };

export interface Context {
  io: Io;
  baseUrl: string;
  store: CredentialStore;
  /** Aborted by Ctrl-C. */
  signal: AbortSignal;
  fetch: typeof fetch;
}

/** HEADCOUNT_API_KEY first, then what `login` saved for this base URL. */
export async function resolveCredential(ctx: Context): Promise<Credential | null> {
  const fromEnv = ctx.io.env.HEADCOUNT_API_KEY?.trim();
  if (fromEnv) return { kind: 'api_key', apiKey: fromEnv, source: 'env' };
  const saved = await ctx.store.get(ctx.baseUrl);
  if (!saved) return null;
  if (saved.type === 'api_key') return { kind: 'api_key', apiKey: saved.apiKey, source: 'file' };
  return { kind: 'oauth', oauth: saved, source: 'file' };
}

export function describeCredential(credential: Credential): string {
  if (credential.kind === 'api_key') return `API key ${maskKey(credential.apiKey)} (${credential.source === 'env' ? 'from HEADCOUNT_API_KEY' : 'saved by headcount login --key'})`;
  return 'OAuth sign-in (saved by headcount login)';
}

export function notSignedIn(ctx: Context): AuthError {
  return new AuthError(`Not signed in to ${ctx.baseUrl}: run \`headcount login\` (or \`headcount login --key hc_live_…\`, or set HEADCOUNT_API_KEY).`, 'unauthorized');
}

function expiring(credential: OauthCredential, now: number): boolean {
  if (!credential.expiresAt) return false;
  return Date.parse(credential.expiresAt) - EXPIRY_MARGIN_MS <= now;
}

/**
 * Renews a saved OAuth credential under the store's lock. Another process may have renewed it
 * meanwhile (refresh tokens rotate: the old one used again would end the connection), so the file
 * is read again under the lock and its token used when it is newer than the one that failed.
 */
export async function renew(ctx: Context, stale: OauthCredential): Promise<OauthCredential> {
  return ctx.store.update(async (file) => {
    const current = file.credentials[ctx.baseUrl];
    if (current?.type === 'oauth' && current.accessToken !== stale.accessToken && !expiring(current, ctx.io.now())) return current;
    const base = current?.type === 'oauth' ? current : stale;
    try {
      const renewed = await refreshTokens(base, ctx.fetch, ctx.io.now(), ctx.signal);
      file.credentials[ctx.baseUrl] = renewed;
      return renewed;
    } catch (error) {
      // A refresh token the service refused is of no more use: forget it, so the next run says "log in".
      if (error instanceof AuthError && current?.type === 'oauth' && current.accessToken === base.accessToken) delete file.credentials[ctx.baseUrl];
      throw error;
    }
  });
}

/**
 * The SDK client of a run. With OAuth, its fetch renews the access token before it expires and,
 * once, when the service answers 401 (a token ended early), then sends the request again.
 */
export function clientFor(ctx: Context, credential: Credential | null): Headcount {
  const common = { baseUrl: ctx.baseUrl, userAgent: USER_AGENT, maxRetries: retriesFrom(ctx.io.env) };
  if (!credential) return new Headcount({ ...common, fetch: ctx.fetch });
  if (credential.kind === 'api_key') return new Headcount({ ...common, apiKey: credential.apiKey, fetch: ctx.fetch });

  let current = credential.oauth;
  const withToken = (init: RequestInit | undefined, token: string): RequestInit => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return { ...init, headers };
  };
  const oauthFetch: typeof fetch = async (input, init) => {
    if (expiring(current, ctx.io.now()) && current.refreshToken) current = await renew(ctx, current);
    const used = current;
    const response = await ctx.fetch(input, withToken(init, used.accessToken));
    if (response.status !== 401 || !used.refreshToken) return response;
    await response.arrayBuffer().catch(() => undefined);
    current = await renew(ctx, used);
    return ctx.fetch(input, withToken(init, current.accessToken));
  };
  return new Headcount({ ...common, accessToken: current.accessToken, fetch: oauthFetch });
}

/** HEADCOUNT_MAX_RETRIES (0–10) for scripts that would rather fail fast; the SDK's default otherwise. */
function retriesFrom(env: NodeJS.ProcessEnv): number | undefined {
  const value = env.HEADCOUNT_MAX_RETRIES;
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Math.min(10, Number(value));
}

/** The client for commands that need a credential (every one but estimate). */
export async function signedInClient(ctx: Context): Promise<{ hc: Headcount; credential: Credential }> {
  const credential = await resolveCredential(ctx);
  if (!credential) throw notSignedIn(ctx);
  return { hc: clientFor(ctx, credential), credential };
}
