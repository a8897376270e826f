/**
 * Where a web client's authorization codes may be sent: an `https` URL, or `http` on this
 * computer's loopback (an app on the person's own machine listening for its code). OAuth 2.1
 * (draft-ietf-oauth-v2-1 §2.3.1: "MUST be either ... https ... or ... loopback") and the MCP
 * authorization specification ("Redirect URIs MUST be either localhost URLs or HTTPS URLs") ask
 * this; oidc-provider checks it only for implicit-flow web clients, so a client could register
 * `http://anywhere/cb` and have its codes cross the network in clear. Native clients keep
 * oidc-provider's own rules (loopback http, claimed https, a private-use scheme such as
 * `cursor://`), which already match OAuth 2.1's for them.
 *
 * Returns the reason a URI breaks the rule, or null.
 */
export function webRedirectUriProblem(uri: string): string | null {
  const url = URL.parse(uri);
  // Malformed URIs, fragments and schemes other than http(s) are oidc-provider's to refuse.
  if (!url || url.protocol !== 'http:') return null;
  return LOOPBACK_HOSTS.has(url.hostname) ? null : 'redirect_uris must use https, or http only on a loopback address (localhost, 127.0.0.1, [::1])';
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
