import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.ts';
import { AppError } from '../../http/errors.ts';
import type { SharingService } from '../../modules/sharing/sharing.service.ts';
import type { PublicResults } from '../../modules/sharing/sharing.schemas.ts';
import { PUBLIC_RESULTS_MAX_AGE_SECONDS } from '../../modules/sharing/sharing.routes.ts';
import { loadAssets, type AssetBundle } from '../answer-page/assets.ts';
import { pageHeaders } from '../answer-page/headers.ts';
import { messagePage } from '../answer-page/html.ts';
import { languageFromAcceptLanguage, pageLanguage, STRINGS } from '../answer-page/strings/index.ts';
import { resultsPage } from './results-page.html.ts';

/**
 * The public results page for people (docs/sharing.md "The page for people"): `GET /r/{code}` is
 * the HTML form of `GET /v1/public/results/{code}`, the same data, cached as long. No script runs
 * (`script-src 'none'`); the answer page's stylesheet and strings are shared. A page, not API:
 * hidden from /openapi.json and public. An unknown or turned-off code is a friendly 404 in the
 * browser's language, not stored by caches (so turning a page back on shows at once).
 */
const CODE = /^[A-Za-z0-9]{4,32}$/;

export function resultsPageRoutes(deps: { sharing: SharingService; config: Config }, assets: AssetBundle = loadAssets()): FastifyPluginAsync {
  const { sharing, config } = deps;
  const page = pageHeaders(config, { scripts: false, cacheControl: `public, max-age=${PUBLIC_RESULTS_MAX_AGE_SECONDS}` });
  const message = pageHeaders(config, { scripts: false });

  return async (app) => {
    app.get<{ Params: { code: string } }>('/r/:code', { schema: { hide: true }, config: { scope: null } }, async (request, reply) => {
      const { code } = request.params;
      const accepted = languageFromAcceptLanguage(request.headers['accept-language']);
      const fail = (status: number, title: string, body: string, icon: string) =>
        reply.headers(message).status(status).send(messagePage({ assets, lang: accepted, title, body, icon }));
      let data: PublicResults | null = null;
      try {
        if (CODE.test(code)) data = await sharing.publicResults(code);
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'not_found')) {
          // The cause goes to the log only; the person gets a page, not JSON.
          request.log.error({ err: error }, 'results page failed');
          return fail(500, STRINGS[accepted].errorTitle, STRINGS[accepted].errorBody, '!');
        }
      }
      if (!data) return fail(404, STRINGS[accepted].resultsNotFoundTitle, STRINGS[accepted].resultsNotFoundBody, '?');
      const lang = pageLanguage(data.question.language);
      return reply.headers(page).send(resultsPage({ data, lang, strings: STRINGS[lang], assets, publicBaseUrl: config.publicBaseUrl }));
    });
  };
}
