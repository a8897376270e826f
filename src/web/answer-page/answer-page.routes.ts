import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.ts';
import { AppError } from '../../lib/errors.ts';
import { isLinkCode } from '../../lib/ids.ts';
import type { LinkService } from '../../modules/links/links.service.ts';
import type { LinkView } from '../../modules/links/links.schemas.ts';
import { ASSET_NAME, loadAssets, type AssetBundle } from '../shared/assets.ts';
import { pageHeaders } from '../../http/page-headers.ts';
import { answerPage, messagePage } from '../shared/html.ts';
import { languageFromAcceptLanguage, pageLanguage, STRINGS } from '../shared/strings/index.ts';

/**
 * The answer page (docs/answer-link.md "The page"): `GET /a/{code}` is the HTML a person opens from
 * a shared link; `/a/assets/{version}/{file}` its CSS and JavaScript. Both are pages, not API:
 * hidden from /openapi.json (`schema.hide`) and public (`scope: null`). The page itself talks to
 * the documented /v1/public/link endpoints.
 */
const YEAR = 365 * 24 * 3600;

export function answerPageRoutes(deps: { links: LinkService; config: Config }, assets: AssetBundle = loadAssets()): FastifyPluginAsync {
  const { links, config } = deps;
  const headers = pageHeaders(config);

  return async (app) => {
    app.get<{ Params: { code: string } }>('/a/:code', { schema: { hide: true }, config: { scope: null } }, async (request, reply) => {
      reply.headers(headers);
      const { code } = request.params;
      const accepted = languageFromAcceptLanguage(request.headers['accept-language']);
      let view: LinkView | null = null;
      try {
        // A code of the wrong shape names no link: the friendly 404 page without a database lookup.
        if (isLinkCode(code)) view = await links.view(code);
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'not_found')) {
          // The cause goes to the log only (ARCHITECTURE §3 rule 4); the person gets a page, not JSON.
          request.log.error({ err: error }, 'answer page failed');
          const strings = STRINGS[accepted];
          return reply.status(500).send(messagePage({ assets, lang: accepted, title: strings.errorTitle, body: strings.errorBody, icon: '!' }));
        }
      }
      if (!view) {
        // Unknown link: a friendly page in the browser's language, with the status a 404 needs.
        const strings = STRINGS[accepted];
        return reply.status(404).send(messagePage({ assets, lang: accepted, title: strings.notFoundTitle, body: strings.notFoundBody, icon: '?' }));
      }
      const lang = pageLanguage(view.question.language);
      return answerPage({ code, view, lang, strings: STRINGS[lang], assets, turnstileSiteKey: config.turnstile.siteKey });
    });

    // Static files from memory; exempt from the per-IP limit, which is for work that costs
    // something: ten people behind one office NAT opening the link must not use it up on CSS.
    app.get<{ Params: { version: string; file: string } }>(
      '/a/assets/:version/:file',
      { schema: { hide: true }, config: { scope: null, rateLimit: false } },
      async (request, reply) => {
        const { version, file } = request.params;
        const asset = ASSET_NAME.test(file) ? assets.files.get(file) : undefined;
        if (!asset) return reply.status(404).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('Not found');
        reply.header('content-type', asset.contentType);
        reply.header('x-content-type-options', 'nosniff');
        reply.header('etag', asset.etag);
        // A page from another release (rolling deploy) may ask for its own version: serve what we
        // have, but let the browser revalidate instead of keeping it for a year under that name.
        reply.header('cache-control', version === assets.version ? `public, max-age=${YEAR}, immutable` : 'no-cache');
        if (request.headers['if-none-match'] === asset.etag) return reply.status(304).send();
        return reply.send(asset.body);
      },
    );
  };
}
