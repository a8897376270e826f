import { SCOPES } from '../lib/actor.ts';
import { oauthUrls } from '../oauth/oauth-urls.ts';

/**
 * The MCP endpoint as an OAuth protected resource (RFC 9728; MCP specification "Authorization"):
 * where the metadata document lives, what it says, and the `WWW-Authenticate` challenge of a 401
 * that points a client at it (RFC 9728 §5.1, RFC 6750 §3). The addresses are the authorization
 * server's (oauth/oauth-urls.ts), so the two never disagree.
 */
export const METADATA_PATH = '/.well-known/oauth-protected-resource';

export function protectedResourceMetadata(base: string) {
  const urls = oauthUrls(base);
  return {
    resource: urls.mcp,
    authorization_servers: [urls.issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Headcount',
    resource_documentation: `${base}/docs`,
  };
}

/**
 * The challenge of a 401 at /mcp: where the metadata is, the scopes to ask for (the MCP
 * specification's scope selection reads them first), and `invalid_token` when a credential was
 * sent and refused (RFC 6750 §3.1).
 */
export function bearerChallenge(base: string, credentialRefused: boolean): string {
  return `Bearer resource_metadata="${oauthUrls(base).resourceMetadata}", scope="${SCOPES.join(' ')}"${credentialRefused ? ', error="invalid_token"' : ''}`;
}
