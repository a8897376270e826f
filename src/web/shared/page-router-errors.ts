import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { AssetBundle } from './assets.ts';
import { pageHeaders } from '../../http/page-headers.ts';
import { messagePage } from './html.ts';
import { languageFromAcceptLanguage, STRINGS } from './strings/index.ts';

/**
 * Addresses of the pages for people (`/a/…`, `/r/…`, `/s/…`) that the router itself refuses (a
 * broken percent-encoding, a path segment longer than any code: links get mangled when pasted)
 * get that page's friendly 404 in the browser's language, not the API's JSON error. Returns false
 * for any other address, which keeps the API's error envelope.
 */
export function pageRouterErrors(assets: AssetBundle, config: Pick<Config, 'nodeEnv' | 'turnstile'>) {
  const headers = pageHeaders(config, { scripts: false });
  return (request: FastifyRequest, reply: FastifyReply): boolean => {
    const path = request.url;
    const kind = path.startsWith('/a/') ? 'answer' : path.startsWith('/r/') ? 'results' : path.startsWith('/s/') ? 'shared' : null;
    if (!kind) return false;
    const lang = languageFromAcceptLanguage(request.headers['accept-language']);
    const s = STRINGS[lang];
    const [title, body] =
      kind === 'answer' ? [s.notFoundTitle, s.notFoundBody] : kind === 'results' ? [s.resultsNotFoundTitle, s.resultsNotFoundBody] : [s.resultsSharedNotFoundTitle, s.resultsSharedNotFoundBody];
    reply.headers(headers).status(404).send(messagePage({ assets, lang, title, body, icon: '?' }));
    return true;
  };
}
