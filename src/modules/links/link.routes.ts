import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed, RefOf } from '../../http/schemas/helpers.ts';
import { AppError } from '../../http/errors.ts';
import type { Config } from '../../config.ts';
import type { LinkService } from './link.service.ts';
import { LinkViewSchema, SubmitBodySchema, SubmitResultSchema } from './link.schemas.ts';

const TAG = ['Answer link'];
const CodeParams = Closed({ code: Type.String({ pattern: '^[A-Za-z0-9]{4,32}$', description: 'The code of an answer link.' }) });

/** The page a person answers on must never be cached or indexed (spec: answer-page endpoints). */
function private_(reply: FastifyReply): void {
  reply.header('cache-control', 'no-store');
  reply.header('x-robots-tag', 'noindex');
}

export function linkRoutes(deps: { links: LinkService; config: Config }): FastifyPluginAsync {
  const { links, config } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v1/public/link/:code', {
      config: { scope: null },
      schema: {
        operationId: 'getAnswerLink',
        tags: TAG,
        summary: 'What the answer page shows',
        description: 'The question as a person sees it and its state; nothing about the owner, the price or the counts. Never cached, not indexed.',
        params: CodeParams,
        response: { 200: RefOf(LinkViewSchema) },
      },
    }, async (request, reply) => {
      private_(reply);
      return links.view(request.params.code);
    });

    // The second limit, per link whatever the address. Not app.rateLimit(): its handler runs at most
    // once per request, so after the route's own per-IP limiter it silently did nothing.
    const perLink = app.createRateLimit({ max: config.linkLimits.perLinkPerMinute, timeWindow: 60_000, keyGenerator: (request) => `link:${(request.params as { code: string }).code}` });

    app.post('/v1/public/link/:code/answers', {
      config: {
        scope: null,
        // Per IP address and link; the limit per link is applied in preHandler below.
        rateLimit: { max: config.linkLimits.perIpPer10Minutes, timeWindow: 10 * 60_000, keyGenerator: (request) => `link-ip:${request.ip}:${(request.params as { code: string }).code}` },
      },
      preHandler: async (request) => {
        const limit = await perLink(request);
        if (!limit.isAllowed && limit.isExceeded) {
          throw new AppError('rate_limited', `Too many answers to this link just now; retry after ${limit.ttlInSeconds} s.`, undefined, { 'retry-after': String(limit.ttlInSeconds) });
        }
      },
      schema: {
        operationId: 'answerThroughLink',
        tags: TAG,
        summary: 'Answer a question through its link',
        description:
          'A retry with the same `nonce` returns the first outcome. An answer after the question closed or filled is `accepted: false` with the state to show. ' +
          'A link answer counts as tier 1 with no profile. Limited per IP address and per link (429).',
        params: CodeParams,
        body: SubmitBodySchema,
        response: {
          200: SubmitResultSchema,
          403: { description: '`human_check_failed`: the human check did not pass.', content: { 'application/json': { schema: { $ref: 'Error#' } } } },
        },
      },
    }, async (request, reply) => {
      private_(reply);
      return links.submit(request.params.code, request.body, request.ip);
    });

    app.post('/v1/public/link/:code/started', {
      config: { scope: null },
      schema: {
        operationId: 'startAnswerLink',
        tags: TAG,
        summary: 'Count a page load that showed the question',
        description: 'Counted once per nonce.',
        params: CodeParams,
        headers: Type.Object({ 'idempotency-key': Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: true }),
        body: Closed({ nonce: Type.String({ format: 'uuid' }) }),
        response: { 200: Closed({ ok: Type.Literal(true) }) },
      },
    }, async (request, reply) => {
      private_(reply);
      await links.started(request.params.code, request.body.nonce);
      return { ok: true as const };
    });
  };
}
