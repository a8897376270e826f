import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { AppError } from '../../lib/errors.ts';
import type { SharingService } from '../../modules/sharing/sharing.service.ts';
import type { PublicResults } from '../../modules/sharing/sharing.schemas.ts';
import { privatePage } from '../../http/responses.ts';
import { PUBLIC_RESULTS_MAX_AGE_SECONDS } from '../../modules/sharing/sharing.schemas.ts';
import { loadAssets, type AssetBundle } from '../shared/assets.ts';
import { pageHeaders } from '../../http/page-headers.ts';
import { messagePage } from '../shared/html.ts';
import { languageFromAcceptLanguage, pageLanguage, STRINGS, type StringKey } from '../shared/strings/index.ts';
import { resultsPage, type ResultsPageVariant } from './results-page.html.ts';

/**
 * The public results page for people (docs/sharing.md "The page for people"): `GET /r/{code}` is
 * the HTML form of `GET /v1/public/results/{code}`, the same data, cached as long. No script runs
 * (`script-src 'none'`); the answer page's stylesheet and strings are shared. A page, not API:
 * hidden from /openapi.json and public. An unknown or turned-off code is a friendly 404 in the
 * browser's language, not stored by caches (so turning a page back on shows at once).
 *
 * `GET /s/{token}` is the page behind a private share link, the HTML form of
 * `GET /v1/public/shared/{token}`: the same page plus the written answers and the insights
 * summary, with that route's headers (never stored, not indexed, no referrer: the token is in the
 * URL). An unknown, tampered, expired or revoked token is one friendly 404, the same every time.
 */
const CODE = /^[A-Za-z0-9]{4,32}$/;

interface PageKind {
  variant: ResultsPageVariant;
  /** The route's path parameter. */
  param: 'code' | 'token';
  /** The data, or null when there is none at this address (a not_found from the service is null too). */
  load(param: string): Promise<PublicResults | null>;
  headers: Record<string, string>;
  notFound: { title: StringKey; body: StringKey };
}

export function resultsPageRoutes(deps: { sharing: SharingService; config: Config }, assets: AssetBundle = loadAssets()): FastifyPluginAsync {
  const { sharing, config } = deps;
  const page = pageHeaders(config, { scripts: false, cacheControl: `public, max-age=${PUBLIC_RESULTS_MAX_AGE_SECONDS}` });
  const message = pageHeaders(config, { scripts: false });

  const publicPage: PageKind = {
    variant: 'public',
    param: 'code',
    load: async (code) => (CODE.test(code) ? sharing.publicResults(code) : null),
    headers: page,
    notFound: { title: 'resultsNotFoundTitle', body: 'resultsNotFoundBody' },
  };
  // The service checks the token's form itself and answers every bad token with the same not_found.
  const sharedPage: PageKind = {
    variant: 'shared',
    param: 'token',
    load: (token) => sharing.shared(token),
    headers: message,
    notFound: { title: 'resultsSharedNotFoundTitle', body: 'resultsSharedNotFoundBody' },
  };

  const render = (kind: PageKind) => async (request: FastifyRequest<{ Params: Record<string, string> }>, reply: FastifyReply) => {
    const accepted = languageFromAcceptLanguage(request.headers['accept-language']);
    const fail = (status: number, title: string, body: string, icon: string) =>
      reply.headers(message).status(status).send(messagePage({ assets, lang: accepted, title, body, icon }));
    let data: PublicResults | null = null;
    try {
      data = await kind.load(request.params[kind.param] ?? '');
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'not_found')) {
        // The cause goes to the log only; the person gets a page, not JSON.
        request.log.error({ err: error }, `${kind.variant} results page failed`);
        return fail(500, STRINGS[accepted].errorTitle, STRINGS[accepted].errorBody, '!');
      }
    }
    if (!data) return fail(404, STRINGS[accepted][kind.notFound.title], STRINGS[accepted][kind.notFound.body], '?');
    const lang = pageLanguage(data.question.language);
    return reply.headers(kind.headers).send(resultsPage({ data, lang, strings: STRINGS[lang], assets, publicBaseUrl: config.publicBaseUrl, variant: kind.variant }));
  };

  return async (app) => {
    app.get('/r/:code', { schema: { hide: true }, config: { scope: null } }, render(publicPage));
    app.get('/s/:token', {
      schema: { hide: true },
      config: { scope: null },
      // As GET /v1/public/shared/{token}: before anything can fail, so no answer of this address is stored or indexed.
      onRequest: async (_request, reply) => privatePage(reply),
    }, render(sharedPage));
  };
}
