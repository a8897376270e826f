/**
 * Where the authorization server and its resources live (docs/agents.md "Addresses"): {auth_url}
 * is `{base_url}/oauth` (the issuer; authorize at {auth_url}/authorize, token at {auth_url}/token),
 * {mcp_url} is `{base_url}/mcp`, and the REST API is the resource `{base_url}`. All follow
 * PUBLIC_URL, so one setting moves them together.
 */
export interface OauthUrls {
  issuer: string;
  mcp: string;
  api: string;
  /** RFC 9728 metadata of the MCP resource. */
  resourceMetadata: string;
}

export const OAUTH_PATH = '/oauth';

export function oauthUrls(publicBaseUrl: string): OauthUrls {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return {
    issuer: `${base}${OAUTH_PATH}`,
    mcp: `${base}/mcp`,
    api: base,
    resourceMetadata: `${base}/.well-known/oauth-protected-resource/mcp`,
  };
}
