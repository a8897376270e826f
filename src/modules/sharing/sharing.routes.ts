import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed, IdParams, RefOf } from '../../lib/typebox.ts';
import { actorOf } from '../../http/auth.ts';
import { constantHeader, errorResponse, privatePage } from '../../http/responses.ts';
import { QuestionSchema } from '../questions/questions.schemas.ts';
import type { SharingService } from './sharing.service.ts';
import { CreateShareLinkBodySchema, PUBLIC_RESULTS_MAX_AGE_SECONDS, PublicCodeParams, PublicResultsSchema, ShareBodySchema, ShareLinkParams, ShareLinkSchema, TokenParams } from './sharing.schemas.ts';

const TAG = ['Questions'];
const PUBLIC_TAG = ['Public results'];

/** The public results page and private share links (docs/sharing.md). */
export function sharingRoutes(deps: { sharing: SharingService }): FastifyPluginAsync {
  const { sharing } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/v2/questions/:id/share', {
      config: { scope: 'questions:write' },
      schema: {
        operationId: 'shareQuestion',
        tags: TAG,
        summary: 'Turn the public results page on or off',
        description:
          '`public: true` sets `publicResults` and gives the question a random `publicCode`; its aggregates (no individual answers) are then at ' +
          '`GET /v1/public/results/{publicCode}`. `public: false` clears the code: it stops working for good, and turning the page on again makes a ' +
          'new one. Repeating the current state changes nothing.',
        params: IdParams,
        body: ShareBodySchema,
        response: {
          200: Closed({ question: RefOf(QuestionSchema) }),
          409: errorResponse('`conflict`: a question refused in review cannot be made public.'),
        },
      },
    }, async (request) => ({ question: await sharing.setPublic(actorOf(request), request.params.id, request.body.public) }));

    app.post('/v2/questions/:id/share-links', {
      config: { scope: 'questions:write' },
      schema: {
        operationId: 'createShareLink',
        tags: TAG,
        summary: 'Create a private, unlisted link to the full results',
        description:
          'The link shows the question and the full result with written answers to whoever has it, until it expires (1 to 90 days, default 30) or is ' +
          'revoked. `token` and `url` are in this response only: only a hash of the token is kept.',
        params: IdParams,
        body: CreateShareLinkBodySchema,
        response: {
          201: Closed({ shareLink: ShareLinkSchema }),
          409: errorResponse('`conflict`: the question was refused in review, or it already has 50 working links.'),
        },
      },
    }, async (request, reply) => {
      const shareLink = await sharing.createLink(actorOf(request), request.params.id, request.body);
      return reply.status(201).send({ shareLink });
    });

    app.get('/v2/questions/:id/share-links', {
      config: { scope: 'questions:read' },
      schema: {
        operationId: 'listShareLinks',
        tags: TAG,
        summary: 'Private share links of a question, newest first (without their tokens)',
        params: IdParams,
        response: { 200: Closed({ shareLinks: Type.Array(ShareLinkSchema) }) },
      },
    }, async (request) => ({ shareLinks: await sharing.listLinks(actorOf(request), request.params.id) }));

    app.delete('/v2/questions/:id/share-links/:linkId', {
      config: { scope: 'questions:write' },
      schema: {
        operationId: 'revokeShareLink',
        tags: TAG,
        summary: 'Revoke a share link; it stops working at once',
        params: ShareLinkParams,
        response: { 200: Closed({ ok: Type.Literal(true) }) },
      },
    }, async (request) => {
      await sharing.revokeLink(actorOf(request), request.params.id, request.params.linkId);
      return { ok: true as const };
    });

    app.get('/v1/public/results/:code', {
      config: { scope: null },
      schema: {
        operationId: 'getPublicResults',
        tags: PUBLIC_TAG,
        summary: 'Results a requester made public',
        description:
          'The question (without anything about who asked or how they organise it) and the aggregates of its result: distribution, summary, ' +
          `breakdowns; no individual answers. Cached for up to ${PUBLIC_RESULTS_MAX_AGE_SECONDS} s. 404 when the code is unknown or the page was turned off.`,
        params: PublicCodeParams,
        response: {
          200: {
            description: 'The public question and result.',
            headers: { 'Cache-Control': constantHeader(`public, max-age=${PUBLIC_RESULTS_MAX_AGE_SECONDS}`) },
            content: { 'application/json': { schema: PublicResultsSchema } },
          },
        },
      },
    }, async (request, reply) => {
      const body = await sharing.publicResults(request.params.code);
      reply.header('cache-control', `public, max-age=${PUBLIC_RESULTS_MAX_AGE_SECONDS}`);
      return body;
    });

    app.get('/v1/public/shared/:token', {
      config: { scope: null },
      // Before anything can fail, so a 404 is not cached either.
      onRequest: async (_request, reply) => privatePage(reply),
      schema: {
        operationId: 'getSharedResults',
        tags: PUBLIC_TAG,
        summary: 'Results behind a private share link',
        description:
          'The question and the full result with written answers (answer references replaced by stand-ins, no flags). Never cached, not indexed. ' +
          '404 for an unknown, tampered, expired or revoked token.',
        params: TokenParams,
        response: {
          200: {
            description: 'The shared question and result.',
            headers: {
              'Cache-Control': constantHeader('no-store'),
              'X-Robots-Tag': constantHeader('noindex'),
            },
            content: { 'application/json': { schema: PublicResultsSchema } },
          },
        },
      },
    }, async (request) => sharing.shared(request.params.token));
  };
}
