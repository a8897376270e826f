import { setTimeout as sleep } from 'node:timers/promises';
import { AuthError, HttpError } from './exit-codes.ts';
import type { OauthCredential } from './credentials.ts';

/**
 * OAuth for a terminal (docs/agents.md "The device flow"): the authorization server's metadata
 * (RFC 8414), dynamic client registration of a public client (RFC 7591), the device grant
 * (RFC 8628) polled at the server's `interval` (5 s more after each `slow_down`), refresh with
 * rotation, and revocation (RFC 7009) at logout.
 */
export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
export const CLI_SCOPES = 'questions:read questions:write templates:read account:read';

export interface ServerMetadata {
  issuer: string;
  token_endpoint: string;
  device_authorization_endpoint?: string;
  registration_endpoint?: string;
  revocation_endpoint?: string;
  grant_types_supported?: string[];
}

export interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete?: string;
  expires_in: number;
  interval?: number;
}

export interface TokenResponse {
  access_token: string;
  token_type?: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
}

type Fetch = typeof fetch;

async function readJson(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function httpFailure(what: string, response: Response, body: Record<string, unknown>): HttpError {
  const code = typeof body.error === 'string' ? body.error : typeof (body.error as { code?: unknown })?.code === 'string' ? (body.error as { code: string }).code : `http_${response.status}`;
  const description = typeof body.error_description === 'string' ? body.error_description : typeof (body.error as { message?: unknown })?.message === 'string' ? (body.error as { message: string }).message : `HTTP ${response.status}`;
  const retry = Number(response.headers.get('retry-after'));
  return new HttpError(response.status, code, `${what}: ${description}${Number.isFinite(retry) && retry > 0 ? ` (try again in ${retry} s)` : ''}`, response.headers.get('x-request-id'));
}

/** The authorization server's metadata, at the service's well-known address (or the issuer-path one). */
export async function discover(baseUrl: string, fetchFn: Fetch, signal?: AbortSignal): Promise<ServerMetadata> {
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-authorization-server/oauth']) {
    const response = await fetchFn(`${baseUrl}${path}`, { headers: { accept: 'application/json' }, signal });
    if (response.status === 404) continue;
    const body = await readJson(response);
    if (!response.ok) throw httpFailure('Reading the sign-in metadata', response, body);
    if (typeof body.token_endpoint !== 'string' || typeof body.issuer !== 'string') throw new HttpError(502, 'invalid_response', `${baseUrl}${path} is not OAuth metadata.`, null);
    return body as unknown as ServerMetadata;
  }
  throw new AuthError(`${baseUrl} offers no OAuth sign-in; log in with an API key instead: headcount login --key hc_live_…`, 'oauth_unavailable');
}

/** The REST API as an OAuth resource (RFC 8707): the issuer is `{base_url}/oauth`, the API `{base_url}`. */
export function apiResource(metadata: ServerMetadata, baseUrl: string): string {
  return metadata.issuer.endsWith('/oauth') ? metadata.issuer.slice(0, -'/oauth'.length) : baseUrl;
}

/** Registers this tool as a public client that uses the device grant; returns its client_id. */
export async function registerClient(metadata: ServerMetadata, clientName: string, fetchFn: Fetch, signal?: AbortSignal): Promise<string> {
  if (!metadata.registration_endpoint) {
    throw new AuthError('This service does not let clients register themselves; pass a client id it gave you (headcount login --client-id …) or use an API key (headcount login --key …).', 'registration_unavailable');
  }
  const response = await fetchFn(metadata.registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ client_name: clientName, token_endpoint_auth_method: 'none', grant_types: [DEVICE_GRANT, 'refresh_token'], response_types: [], redirect_uris: [] }),
    signal,
  });
  const body = await readJson(response);
  if (!response.ok || typeof body.client_id !== 'string') throw httpFailure('Registering the headcount command with the service', response, body);
  return body.client_id;
}

function form(values: Record<string, string | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== undefined) params.set(key, value);
  return params;
}

export async function startDeviceAuthorization(metadata: ServerMetadata, clientId: string, resource: string, fetchFn: Fetch, signal?: AbortSignal): Promise<DeviceAuthorization> {
  if (!metadata.device_authorization_endpoint) throw new AuthError('This service has no device sign-in; log in with an API key instead: headcount login --key hc_live_…', 'device_flow_unavailable');
  const response = await fetchFn(metadata.device_authorization_endpoint, {
    method: 'POST',
    headers: { accept: 'application/json' },
    body: form({ client_id: clientId, scope: CLI_SCOPES, resource }),
    signal,
  });
  const body = await readJson(response);
  if (!response.ok) {
    if (response.status === 400 || response.status === 401) {
      const error = httpFailure('Starting the sign-in', response, body);
      throw new AuthError(error.message, error.code);
    }
    throw httpFailure('Starting the sign-in', response, body);
  }
  if (typeof body.device_code !== 'string' || typeof body.user_code !== 'string' || typeof body.verification_uri !== 'string') {
    throw new HttpError(502, 'invalid_response', 'The service answered the sign-in without a device code.', response.headers.get('x-request-id'));
  }
  return body as unknown as DeviceAuthorization;
}

export interface PollOptions {
  signal?: AbortSignal;
  now?: () => number;
  /** Told the new interval (seconds) after each slow_down. */
  onSlowDown?: (interval: number) => void;
  /** How a pause is taken (tests record them instead). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<unknown>;
}

/**
 * Polls the token endpoint until the person approves (tokens), refuses (access_denied) or the code
 * expires; waits `interval` seconds (default 5) before each poll, 5 s more after each slow_down.
 */
export async function pollForTokens(metadata: ServerMetadata, clientId: string, device: DeviceAuthorization, fetchFn: Fetch, options: PollOptions = {}): Promise<TokenResponse> {
  const now = options.now ?? Date.now;
  let interval = Math.max(1, device.interval ?? 5);
  const expiresAt = now() + Math.max(1, device.expires_in) * 1000;
  const pause = options.sleep ?? ((ms: number, signal?: AbortSignal) => sleep(ms, undefined, { signal }));
  for (;;) {
    await pause(interval * 1000, options.signal);
    const response = await fetchFn(metadata.token_endpoint, {
      method: 'POST',
      headers: { accept: 'application/json' },
      body: form({ grant_type: DEVICE_GRANT, device_code: device.device_code, client_id: clientId }),
      signal: options.signal,
    });
    const body = await readJson(response);
    if (response.ok && typeof body.access_token === 'string') return body as unknown as TokenResponse;
    const error = typeof body.error === 'string' ? body.error : '';
    if (error === 'authorization_pending') {
      // keep polling
    } else if (error === 'slow_down') {
      interval += 5;
      options.onSlowDown?.(interval);
    } else if (error === 'access_denied') {
      throw new AuthError('The sign-in was refused in the browser; nothing was saved.', 'access_denied');
    } else if (error === 'expired_token') {
      throw new AuthError('The code expired before it was approved; run `headcount login` again.', 'expired_token');
    } else if (response.status >= 500 || response.status === 429) {
      throw httpFailure('Waiting for the sign-in', response, body);
    } else {
      const failure = httpFailure('Waiting for the sign-in', response, body);
      throw new AuthError(failure.message, failure.code);
    }
    if (now() + interval * 1000 > expiresAt) throw new AuthError('The code expired before it was approved; run `headcount login` again.', 'expired_token');
  }
}

/** The saved form of a token answer. */
export function credentialFromTokens(tokens: TokenResponse, context: { clientId: string; metadata: ServerMetadata; resource: string; now: number; previousRefreshToken?: string | null }): OauthCredential {
  return {
    type: 'oauth',
    clientId: context.clientId,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token ?? context.previousRefreshToken ?? null,
    expiresAt: typeof tokens.expires_in === 'number' ? new Date(context.now + tokens.expires_in * 1000).toISOString() : null,
    scope: tokens.scope ?? null,
    tokenEndpoint: context.metadata.token_endpoint,
    revocationEndpoint: context.metadata.revocation_endpoint ?? null,
    resource: context.resource,
    savedAt: new Date(context.now).toISOString(),
  };
}

/** A new access token (and, the service rotating them, a new refresh token) for a saved one. */
export async function refreshTokens(credential: OauthCredential, fetchFn: Fetch, now: number, signal?: AbortSignal): Promise<OauthCredential> {
  if (!credential.refreshToken) throw new AuthError('The saved sign-in has expired and cannot be renewed; run `headcount login` again.', 'unauthorized');
  const response = await fetchFn(credential.tokenEndpoint, {
    method: 'POST',
    headers: { accept: 'application/json' },
    body: form({ grant_type: 'refresh_token', refresh_token: credential.refreshToken, client_id: credential.clientId }),
    signal,
  });
  const body = await readJson(response);
  if (response.ok && typeof body.access_token === 'string') {
    const tokens = body as unknown as TokenResponse;
    return {
      ...credential,
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token ?? credential.refreshToken,
      expiresAt: typeof tokens.expires_in === 'number' ? new Date(now + tokens.expires_in * 1000).toISOString() : null,
      scope: tokens.scope ?? credential.scope,
      savedAt: new Date(now).toISOString(),
    };
  }
  if (response.status >= 500 || response.status === 429) throw httpFailure('Renewing the sign-in', response, body);
  throw new AuthError('The saved sign-in has ended (disconnected, expired or revoked); run `headcount login` again.', typeof body.error === 'string' ? body.error : 'unauthorized');
}

/** Revokes the refresh token (and with it the connection) at logout; false when the service could not be told. */
export async function revokeTokens(credential: OauthCredential, fetchFn: Fetch, signal?: AbortSignal): Promise<boolean> {
  if (!credential.revocationEndpoint) return false;
  const token = credential.refreshToken ?? credential.accessToken;
  try {
    const response = await fetchFn(credential.revocationEndpoint, {
      method: 'POST',
      headers: { accept: 'application/json' },
      body: form({ token, token_type_hint: credential.refreshToken ? 'refresh_token' : 'access_token', client_id: credential.clientId }),
      signal,
    });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}
