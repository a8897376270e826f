import { AppError } from '../lib/errors.ts';
import type { Actor } from '../lib/actor.ts';
import type { ConnectionsService } from '../modules/connections/connections.service.ts';
import type { OauthUrls } from './oauth-urls.ts';
import type { LazyProvider } from './oidc-provider-module.ts';

/** Opaque tokens are 256 random bits in base64url (oidc-provider's bitsOfOpaqueRandomness, pinned in oauth-provider.ts). */
export const OPAQUE_TOKEN_BITS = 256;
const ACCESS_TOKEN_SHAPE = new RegExp(`^[A-Za-z0-9_-]{${Math.ceil(OPAQUE_TOKEN_BITS / 6)}}$`);

/** True for text shaped like one of our access tokens (API keys and sessions have prefixes with their own shapes). */
export function isAccessTokenShaped(text: string): boolean {
  return ACCESS_TOKEN_SHAPE.test(text);
}

/**
 * An OAuth access token → the actor it acts as (issue 11 point 3): a bearer credential with the
 * scopes the person granted and the connection's cap, like a key. The token must be for the
 * resource it is used on (RFC 8707): a token for {mcp_url} works on MCP and the REST API (the spec
 * names {mcp_url} as the resource of its tokens), a token for the REST API only there.
 */
export function createOauthTokenAuthenticator(deps: { provider: LazyProvider; urls: OauthUrls; connections: ConnectionsService }) {
  const { provider, urls, connections } = deps;
  return async (value: string, context: { audience: 'api' | 'mcp'; account: string | null }): Promise<Actor> => {
    const { audience } = context;
    const token = await (await provider()).AccessToken.find(value);
    if (!token || !token.grantId) throw new AppError('unauthorized', 'The access token is not known, has expired or was revoked: refresh it, or connect the app again.');
    const allowed = audience === 'mcp' ? [urls.mcp] : [urls.mcp, urls.api];
    const aud = token.aud;
    if (typeof aud !== 'string' || !allowed.includes(aud)) {
      throw new AppError('unauthorized', `This access token is for another resource; ask for one with resource=${allowed[0]}.`);
    }
    return connections.actorFor(token.grantId, (token.scope ?? '').split(' ').filter(Boolean), context.account);
  };
}
