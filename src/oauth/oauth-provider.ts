import type { Configuration, KoaContextWithOIDC, Provider as ProviderInstance } from 'oidc-provider';
import { loadOidcProvider, type LazyProvider } from './oidc-provider-module.ts';
import type { Config } from '../config.ts';
import { SCOPES } from '../lib/actor.ts';
import type { OauthStoreRepository } from '../modules/connections/oauth-store.repository.ts';
import type { ConnectionsService } from '../modules/connections/connections.service.ts';
import { oauthAdapterFor } from './oauth-adapter.ts';
import { oauthKeys } from './oauth-keys.ts';
import { oauthUrls, type OauthUrls } from './oauth-urls.ts';
import { OPAQUE_TOKEN_BITS } from './oauth-tokens.ts';
import { webRedirectUriProblem } from './redirect-uri-rule.ts';

/** The pages oidc-provider renders itself (device flow, errors), drawn by web/ and handed in. */
export interface OauthPages {
  /** The response headers of these pages (no-store, CSP and the rest of the portal's). */
  readonly headers: Readonly<Record<string, string>>;
  /** The device page's code form; `problem` says why the last code was not taken. */
  deviceInput(context: PageContext, form: string, problem: 'wrong_code' | 'aborted' | 'failed' | null): string;
  /** "Is this the code on your device?" with the client's name. */
  deviceConfirm(context: PageContext, form: string, client: ClientDisplay, userCode: string): string;
  deviceDone(context: PageContext, client: ClientDisplay): string;
  error(context: PageContext, error: string, description: string | undefined): string;
}

/** What a page needs to speak the visitor's language. */
export interface PageContext {
  acceptLanguage: string | undefined;
}

/** How a client is named to a person (docs/agents.md "Consent"). */
export interface ClientDisplay {
  name: string;
  /** The domain that vouches for the client (a client ID metadata document's host), or null: self-described, unverified. */
  verifiedDomain: string | null;
}

/** A registered client's display, from its metadata. */
export function clientDisplay(client: { clientId: string; clientName?: string }): ClientDisplay {
  const byUrl = /^https:\/\//.test(client.clientId) ? new URL(client.clientId).host : null;
  return { name: client.clientName?.slice(0, 80) || byUrl || 'An unnamed app', verifiedDomain: byUrl };
}

/** The fetch oidc-provider makes its outbound requests with (client ID metadata documents). */
export type OauthFetch = NonNullable<Configuration['fetch']>;

export interface OauthProviderDeps {
  /** The outbound fetch (oauth-fetch.ts in the service); default: the global fetch behind oidc-provider's own address guard. */
  fetch?: OauthFetch;
  config: Config;
  /** Where the provider's failures and notices go (the service's JSON log). */
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  store: OauthStoreRepository;
  connections: ConnectionsService;
  pages: OauthPages;
}

const ACCESS_TOKEN_TTL_S = 60 * 60;
const REFRESH_TOKEN_TTL_S = 30 * 24 * 60 * 60;
const GRANT_TTL_S = 365 * 24 * 60 * 60;

/**
 * The authorization server (issue 11 point 1; docs/agents.md "OAuth"), oidc-provider configured
 * as OAuth 2.1 for agents: authorization code with PKCE S256 only (oidc-provider has no `plain`),
 * refresh tokens rotated on every use with reuse revoking the grant, dynamic client registration
 * (RFC 7591), client ID metadata documents, the device grant (RFC 8628), resource indicators
 * (RFC 8707) with two resources, {mcp_url} and the REST API, revocation (RFC 7009) and metadata
 * (RFC 8414). No OpenID Connect: no userinfo, no logout. Access tokens are opaque and stored, so a
 * revoked connection stops at the next call. Consent (and sign-in) happen in the portal at
 * `/app/oauth/{uid}`, which chooses the account, scopes and caps.
 *
 * The provider is made on first use (and by main.ts just after the service is ready), so start-up
 * does not load oidc-provider and Koa; every request that needs it awaits the same one.
 */
export function createOauthProvider(deps: OauthProviderDeps): { provider: LazyProvider; urls: OauthUrls } {
  const urls = oauthUrls(deps.config.publicBaseUrl);
  let building: Promise<ProviderInstance> | null = null;
  // A failed build is tried again by the next request rather than kept.
  const provider: LazyProvider = () => (building ??= buildProvider(deps, urls).catch((error: unknown) => {
    building = null;
    throw error;
  }));
  return { provider, urls };
}

async function buildProvider(deps: OauthProviderDeps, urls: OauthUrls): Promise<ProviderInstance> {
  const { Provider, errors, importNotices } = await loadOidcProvider();
  const { config, store, connections, pages, log } = deps;
  const keys = oauthKeys(config.sessions.secret);
  const context = (ctx: KoaContextWithOIDC): PageContext => ({ acceptLanguage: ctx.get('accept-language') || undefined });
  const html = (ctx: KoaContextWithOIDC, body: string) => {
    ctx.type = 'html';
    ctx.set({ ...pages.headers });
    ctx.body = body;
  };
  const resourceServer = { scope: SCOPES.join(' '), accessTokenTTL: ACCESS_TOKEN_TTL_S, accessTokenFormat: 'opaque' as const };

  const configuration: Configuration = {
    adapter: oauthAdapterFor(store),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    jwks: keys.jwks as Configuration['jwks'],
    cookies: {
      keys: keys.cookieKeys,
      long: { signed: true, secure: config.sessions.secureCookies, sameSite: 'lax' },
      short: { signed: true, secure: config.sessions.secureCookies, sameSite: 'lax' },
    },
    // The person is found by the portal; oidc-provider only needs their id as the subject.
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    // The API's four scopes are the resource servers' (getResourceServerInfo) and also listed here,
    // because clients may name them in their registration's `scope`, which oidc-provider checks
    // against this list; the consent page grants them both ways (oauth-interactions.ts).
    scopes: ['offline_access', ...SCOPES],
    responseTypes: ['code'],
    formats: { bitsOfOpaqueRandomness: OPAQUE_TOKEN_BITS },
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'EdDSA',
    },
    enabledJWA: { idTokenSigningAlgValues: ['EdDSA'] },
    // RFC 7591's `software_id`, kept as a client sends it. Its validator is also where a web
    // client's redirect URIs meet redirect-uri-rule.ts: oidc-provider has no hook for its standard
    // metadata, but calls this once per listed property, on registration, on a client ID metadata
    // document and on every stored client it loads, with the whole metadata at hand.
    extraClientMetadata: {
      properties: ['software_id'],
      validator: (_ctx, key, _value, metadata) => {
        if (key !== 'software_id' || metadata.application_type === 'native' || !Array.isArray(metadata.redirect_uris)) return;
        for (const uri of metadata.redirect_uris) {
          const problem = typeof uri === 'string' ? webRedirectUriProblem(uri) : null;
          if (problem) throw new errors.InvalidClientMetadata(problem);
        }
      },
    },
    // Browser-based MCP clients call the token and registration endpoints from their own origin:
    // a public client only from the origin of one of its redirect URIs (the provider's default
    // rule, written out: the default prints a plain-text notice each time it runs).
    clientBasedCORS: (_ctx, origin, client) =>
      origin !== 'null' && (client.clientAuthMethod !== 'none' || (client.redirectUris ?? []).some((uri) => URL.canParse(uri) && new URL(uri).origin === origin)),
    routes: {
      authorization: '/authorize',
      token: '/token',
      registration: '/register',
      revocation: '/revoke',
      device_authorization: '/device/auth',
      code_verification: '/device',
      jwks: '/jwks',
    },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_S,
      AuthorizationCode: 60,
      DeviceCode: 10 * 60,
      // A connection lasts a year of use; a refresh token unused for 30 days expires before that.
      Grant: GRANT_TTL_S,
      Interaction: 60 * 60,
      RefreshToken: REFRESH_TOKEN_TTL_S,
      Session: 24 * 60 * 60,
    },
    // Every refresh gives a new refresh token; the old one used again revokes the grant (R4.5).
    rotateRefreshToken: true,
    // Tokens belong to the connection, not to the browser that consented: by default the provider
    // ties them to its sign-in session (a day here) unless offline_access was granted, so an
    // agent's tokens would die with a cookie it never sees.
    expiresWithSession: async () => false,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Consent is asked every time (the person picks the account, scopes and cap for this app); a
    // grant is only ever the one the consent page just made.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    interactions: { url: async (_ctx, interaction) => `/app/oauth/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      registration: { enabled: true },
      // A client revokes only its own tokens (the provider's default rule, written out: the
      // default prints a plain-text notice each time it runs).
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      clientIdMetadataDocument: {
        enabled: true,
        // The draft oidc-provider implements (experimental there): acknowledged, so an update that
        // changes it warns at start-up instead of changing behaviour silently.
        ack: 'draft-02',
        // Only https documents on the public internet: the fetch is the provider's own (it
        // refuses non-https URLs); ours to refuse are addresses that name this machine's network.
        allowFetch: async (_ctx, clientId) => isPublicHttpsUrl(clientId),
      },
      deviceFlow: {
        enabled: true,
        charset: 'base-20',
        mask: '****-****',
        userCodeInputSource: async (ctx, form, _out, err) => {
          const problem = !err ? null : (err as { userCode?: unknown }).userCode || err.name === 'NoCodeError' ? 'wrong_code' : err.name === 'AbortedError' ? 'aborted' : 'failed';
          html(ctx, pages.deviceInput(context(ctx), form, problem));
        },
        userCodeConfirmSource: async (ctx, form, client, _deviceInfo, userCode) => html(ctx, pages.deviceConfirm(context(ctx), form, clientDisplay(client), userCode)),
        successSource: async (ctx) => html(ctx, pages.deviceDone(context(ctx), clientDisplay(ctx.oidc.client!))),
      },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets {mcp_url}, the one the spec names.
        defaultResource: async (_ctx, _client, oneOf) => oneOf ?? urls.mcp,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (resource === urls.mcp || resource === urls.api) return { ...resourceServer, audience: resource };
          throw new errors.InvalidTarget(`unknown resource; use ${urls.mcp} (MCP and the REST API) or ${urls.api} (the REST API only)`);
        },
      },
    },
    renderError: async (ctx, out) => html(ctx, pages.error(context(ctx), String(out.error), out.error_description ? String(out.error_description) : undefined)),
  };

  const provider = new Provider(urls.issuer, configuration);
  // Behind a TLS-terminating proxy the service trusts (TRUSTED_PROXIES), as Fastify does.
  provider.proxy = config.trustedProxies !== false;
  // A client that asks for no scope is asked for all of them; the person picks on the consent page.
  // The provider finds where it is mounted (/oauth) by finding the request's url in its
  // originalUrl, so the original gets the same new query; otherwise the address the consent page
  // sends the browser back to (the interaction's resume URL) would lose the /oauth prefix.
  provider.use(async (ctx, next) => {
    if (ctx.path === '/authorize' && ctx.method === 'GET' && !ctx.query.scope) {
      const req = ctx.req as typeof ctx.req & { originalUrl?: string };
      const before = ctx.url;
      const at = req.originalUrl?.indexOf(before) ?? -1;
      ctx.query = { ...ctx.query, scope: SCOPES.join(' ') };
      if (req.originalUrl !== undefined && at >= 0) req.originalUrl = req.originalUrl.slice(0, at) + ctx.url;
    }
    await next();
  });
  // The device page opened with its code (verification_uri_complete) is the provider's own
  // self-posting form, drawn without `pages`: give it the pages' headers first (no-store, CSP and
  // the rest); the provider then adds its inline script's hash to that CSP's script-src.
  provider.use(async (ctx, next) => {
    if (ctx.path === '/device' && ctx.method === 'GET') ctx.set({ ...pages.headers });
    await next();
  });
  // The provider ended a grant (a rotated refresh token used again, RFC 7009 revocation): the
  // connection in the portal ends with it, before the request that ended it is answered. The
  // provider tells through an event it does not await, so the ending is kept by request and the
  // middleware below waits for it once the provider's own handlers (errors included) are done;
  // a client that reads its connections after the answer never sees the ended one.
  const endingConnections = new WeakMap<object, Promise<void>[]>();
  provider.use(async (ctx, next) => {
    await next();
    const pending = endingConnections.get(ctx);
    if (pending) await Promise.all(pending);
  });
  provider.on('grant.revoked', (ctx: object, grantId: string) => {
    const ending = connections.grantRevoked(grantId).catch((error: unknown) => log.error({ err: error, grantId }, 'could not end the connection of a revoked grant'));
    const pending = endingConnections.get(ctx);
    if (pending) pending.push(ending);
    else endingConnections.set(ctx, [ending]);
  });
  // Exceptions inside the provider (its storage, our callbacks) answer 500 there; they are logged here.
  provider.on('server_error', (_ctx: unknown, error: Error) => log.error({ err: error }, 'OAuth server error'));
  for (const notice of importNotices) log.warn({}, notice);
  return provider;
}

/** An https URL whose host is a name or a public address (client ID metadata documents). */
function isPublicHttpsUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal') || host.endsWith('.local')) return false;
  // IP literals: this check is coarse on purpose (names are resolved by the provider's fetch).
  return !/^(\d+\.){3}\d+$/.test(host) && !host.includes(':');
}
