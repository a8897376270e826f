import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed, RefOf } from '../../lib/typebox.ts';
import { AppError } from '../../lib/errors.ts';
import { clientCountry } from '../../http/client-country.ts';
import { errorResponse } from '../../http/responses.ts';
import { AudienceListQuerySchema, AudienceSchema, AudienceSlugParams } from './audiences.schemas.ts';
import type { AudiencesService } from './audiences.service.ts';

const TAG = ['Audiences'];
/** The public answers may be cached a minute (the list is recomputed that often); anything a credential changed may not be shared. */
const PUBLIC_CACHE = 'public, max-age=60';
const PRIVATE_CACHE = 'private, no-store';

/**
 * Interest audiences (spec "Audiences"; docs/audiences.md). No authentication; a credential, when
 * sent, lets the caller see the private audiences its account sponsors.
 */
export function audiencesRoutes(deps: { audiences: AudiencesService }): FastifyPluginAsync {
  const { audiences } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v1/interest-audiences', {
      config: { scope: null, optionalCredential: true },
      schema: {
        operationId: 'listInterestAudiences',
        tags: TAG,
        summary: 'Audiences that can be asked, with size band and price per answer by grade',
        description:
          'Open audiences, sorted by name. `q` finds words in the name, description, slug and tags; `country` keeps audiences open in that country; ' +
          '`lang` those in that language; `category` one category; `open=1` only audiences open to join from the caller\'s country. ' +
          '`mine=asking` needs a credential (401 without one) and lists the private audiences your account sponsors too.',
        querystring: AudienceListQuerySchema,
        response: {
          200: Closed({ audiences: Type.Array(RefOf(AudienceSchema)) }),
          401: errorResponse('`mine=asking` without a credential, or with a malformed, unknown or revoked one (`unauthorized`).'),
        },
      },
    }, async (request, reply) => {
      const mine = request.query.mine === 'asking';
      reply.header('vary', 'Authorization');
      if (mine && !request.actor) throw request.authError ?? new AppError('unauthorized', 'mine=asking lists the audiences your team sponsors: send your API key or session token.');
      reply.header('cache-control', mine ? PRIVATE_CACHE : PUBLIC_CACHE);
      const list = await audiences.list(request.query, { accountId: mine ? request.actor!.accountId : null, callerCountry: clientCountry(request) });
      return { audiences: list };
    });

    app.get('/v1/interest-audiences/:slug', {
      config: { scope: null, optionalCredential: true },
      schema: {
        operationId: 'getInterestAudience',
        tags: TAG,
        summary: 'One audience: what it is, the tags it stamps, grades and pay',
        description: 'By slug (or id). Open and closed audiences are shown; a private one only with a credential of an account that sponsors it (404 otherwise).',
        params: AudienceSlugParams,
        response: { 200: Closed({ audience: RefOf(AudienceSchema) }) },
      },
    }, async (request, reply) => {
      // Set before the lookup so a 404 is not cached either: a cache must never serve a private
      // audience's 404 to its sponsor (or anything a credential changed to anyone else).
      reply.header('vary', 'Authorization').header('cache-control', PRIVATE_CACHE);
      const audience = await audiences.get(request.params.slug, request.actor?.accountId ?? null);
      if (!audience.sponsored) reply.header('cache-control', PUBLIC_CACHE);
      return { audience };
    });
  };
}
