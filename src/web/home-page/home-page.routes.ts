import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.ts';
import { loadAssets, type AssetBundle } from '../shared/assets.ts';
import { pageHeaders } from '../../http/page-headers.ts';
import { homePage } from './home-page.html.ts';

/**
 * `GET /`: the front page for a person who opens the service's address (home-page.html.ts). A
 * page, not API: hidden from /openapi.json and public; the same for everyone, so it is rendered
 * once and may be cached for a few minutes. The pages' headers (no script at all).
 */
const MAX_AGE_SECONDS = 300;

export function homePageRoutes(deps: { config: Config }, assets: AssetBundle = loadAssets()): FastifyPluginAsync {
  const headers = pageHeaders(deps.config, { scripts: false, cacheControl: `public, max-age=${MAX_AGE_SECONDS}` });
  const html = homePage({ assets, baseUrl: deps.config.publicBaseUrl });
  return async (app) => {
    app.get('/', { schema: { hide: true }, config: { scope: null } }, async (_request, reply) => reply.headers(headers).send(html));
  };
}
