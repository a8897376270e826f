import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams } from '../../lib/typebox.ts';
import { actorOf } from '../../http/auth.ts';
import { PUBLIC_RESULTS_MAX_AGE_SECONDS, PublicCodeParams, TokenParams } from '../sharing/sharing.schemas.ts';
import { constantHeader, errorResponse, privatePage } from '../../http/responses.ts';
import type { HeatmapService } from './heatmap.service.ts';
import { HeatmapQuerySchema, PNG_CONTENT, PublicHeatmapQuerySchema } from './exports.schemas.ts';

const TAG = ['Exports'];
const PUBLIC_TAG = ['Public results'];

/** The heatmap changes with every answer: never stored by any cache. */
const PRIVATE_CACHE = 'private, no-store';
const PUBLIC_CACHE = `public, max-age=${PUBLIC_RESULTS_MAX_AGE_SECONDS}`;

const DRAWING =
  'A transparent PNG to lay over the stimulus image: the taps as a smooth density, coloured from transparent through blue, cyan, green and ' +
  'yellow to red at the busiest spot (a spot needs at least 4 taps to be red). 800 px on its longer side, shaped by `aspect` (drawn at the ' +
  'nearest of a few fixed steps, see the parameter). No taps: fully transparent.';

/** GET /v2/questions/{id}/heatmap.png and its public variants (spec Exports; docs/results.md "Heatmap"). */
export function exportsRoutes(deps: { heatmaps: HeatmapService }): FastifyPluginAsync {
  const { heatmaps } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v2/questions/:id/heatmap.png', {
      config: { scope: 'questions:read' },
      schema: {
        operationId: 'getHeatmap',
        tags: TAG,
        summary: 'Click-test heatmap as a transparent PNG',
        description:
          `${DRAWING} Accepts the result's filters (but \`option\`: a click test has no options) with the same rules: a country or age band ` +
          'matching fewer than 5 answers draws nothing. `clicks.heatmapUrl` in the result links here with the result\'s filter. Not cached ' +
          '(`private, no-store`): it changes with every answer.',
        params: IdParams,
        querystring: HeatmapQuerySchema,
        response: {
          200: { description: 'The heatmap.', headers: { 'Cache-Control': constantHeader(PRIVATE_CACHE) }, content: PNG_CONTENT },
          404: errorResponse('`not_found`: no such question on this account, or the question is not a click test.'),
        },
      },
    }, async (request, reply) => {
      const png = await heatmaps.forAccount(actorOf(request).accountId, request.params.id, request.query);
      return reply.header('cache-control', PRIVATE_CACHE).type('image/png').send(png);
    });

    app.get('/v1/public/results/:code/heatmap.png', {
      config: { scope: null },
      schema: {
        operationId: 'getPublicHeatmap',
        tags: PUBLIC_TAG,
        summary: 'Heatmap of a click test whose results were made public (extension)',
        description:
          `${DRAWING} Every tap, as the public results page counts them; no filters. The public page's \`clicks.heatmapUrl\` links here. ` +
          `Cached for up to ${PUBLIC_RESULTS_MAX_AGE_SECONDS} s, like the page. 404 when the code is unknown, the page was turned off, or the ` +
          'question is not a click test.',
        params: PublicCodeParams,
        querystring: PublicHeatmapQuerySchema,
        response: {
          200: { description: 'The heatmap.', headers: { 'Cache-Control': constantHeader(PUBLIC_CACHE) }, content: PNG_CONTENT },
          404: errorResponse('`not_found`: unknown code, the page was turned off, or the question is not a click test.'),
        },
      },
    }, async (request, reply) => {
      const png = await heatmaps.forPublicResults(request.params.code, request.query.aspect);
      return reply.header('cache-control', PUBLIC_CACHE).type('image/png').send(png);
    });

    app.get('/v1/public/shared/:token/heatmap.png', {
      config: { scope: null },
      // Before anything can fail, so a 404 is not cached either (as for the shared results).
      onRequest: async (_request, reply) => privatePage(reply),
      schema: {
        operationId: 'getSharedHeatmap',
        tags: PUBLIC_TAG,
        summary: 'Heatmap of a click test behind a private share link (extension)',
        description:
          `${DRAWING} Every tap; no filters. The shared result's \`clicks.heatmapUrl\` links here. Never cached, not indexed; stops working with ` +
          'the link. 404 for an unknown, tampered, expired or revoked token, or a question that is not a click test.',
        params: TokenParams,
        querystring: PublicHeatmapQuerySchema,
        response: {
          200: {
            description: 'The heatmap.',
            headers: { 'Cache-Control': constantHeader('no-store'), 'X-Robots-Tag': constantHeader('noindex') },
            content: PNG_CONTENT,
          },
          404: errorResponse('`not_found`: unknown, tampered, expired or revoked token, or the question is not a click test.'),
        },
      },
    }, async (request, reply) => reply.type('image/png').send(await heatmaps.forSharedLink(request.params.token, request.query.aspect)));
  };
}
