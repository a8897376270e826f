import { outboundRequest, type OutboundOptions } from '../lib/outbound-http.ts';
import type { OauthFetch } from './oauth-provider.ts';

/** Client ID metadata documents are small JSON; the draft caps them at 5 KB, this leaves room. */
const MAX_DOCUMENT_BYTES = 64 * 1024;

/**
 * The authorization server's outbound fetch (client ID metadata documents) through the service's
 * one SSRF-safe client (lib/outbound-http.ts; RELIABILITY R5.1, R5.2): the name resolved once,
 * every address public, the connection pinned to the checked address, no redirects followed, the
 * body cut at a limit, all within the provider's own time limit. oidc-provider's own guard (the
 * `dispatcher` it passes) is then not needed. `policy` relaxes the address rule outside
 * production only (config), as for webhooks.
 */
export function createOauthFetch(policy: Pick<OutboundOptions, 'allowPrivate' | 'allowHttp'> = {}): OauthFetch {
  return async (input, init = {}) => {
    const url = input instanceof Request ? input.url : String(input);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const response = await outboundRequest(url, {
      method: init.method ?? 'GET',
      headers,
      timeoutMs: 2_500,
      maxBodyBytes: MAX_DOCUMENT_BYTES,
      redirects: 0,
      ...policy,
    });
    const out = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      for (const one of ([] as string[]).concat(value ?? [])) out.append(name, one);
    }
    // A 204/304 (or any null-body status) must not carry a body in a Response.
    const empty = [101, 204, 205, 304].includes(response.status);
    return new Response(empty ? null : new Uint8Array(response.body), { status: response.status, headers: out });
  };
}
