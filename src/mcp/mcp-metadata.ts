import { SCOPES } from '../lib/actor.ts';

/**
 * The MCP endpoint as an OAuth protected resource (RFC 9728; MCP specification "Authorization"):
 * where the metadata document lives, what it says, and the `WWW-Authenticate` challenge of a 401
 * that points a client at it (RFC 9728 §5.1, RFC 6750 §3).
 */
export const METADATA_PATH = '/.well-known/oauth-protected-resource';

export function mcpResourceUrl(base: string): string {
  return `${base}/mcp`;
}

/** RFC 9728 §3.1: the metadata URL of a resource is the well-known prefix plus the resource's path. */
export function metadataUrl(base: string): string {
  return `${base}${METADATA_PATH}/mcp`;
}

export function protectedResourceMetadata(base: string) {
  return {
    resource: mcpResourceUrl(base),
    authorization_servers: [`${base}/oauth`],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Headcount',
    resource_documentation: `${base}/docs`,
  };
}

/** The challenge of a 401 at /mcp: `invalid_token` when a credential was sent and refused (RFC 6750 §3.1). */
export function bearerChallenge(base: string, credentialRefused: boolean): string {
  return `Bearer resource_metadata="${metadataUrl(base)}"${credentialRefused ? ', error="invalid_token"' : ''}`;
}
