import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed, RefOf } from '../../lib/typebox.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { isLinkCode, LINK_CODE_LENGTH } from '../../lib/ids.ts';
import type { Config } from '../../config.ts';
import { errorResponse, notCached } from '../../http/responses.ts';
import type { LinkService } from './links.service.ts';
import { LinkViewSchema, SubmitBodySchema, SubmitResultSchema } from './links.schemas.ts';

const TAG = ['Answer link'];
const CodeParams = Closed({ code: Type.String({ pattern: `^[A-Za-z0-9]{${LINK_CODE_LENGTH}}$`, description: 'The code of an answer link.' }) });

/**
 * A code that cannot be a link code names no link: the same 404 as an unknown one, answered in
 * the route's first onRequest hook, so before the per-IP rate limit (the plugin appends its hook
 * after the route's own) and before any database work. A flood of such requests costs nothing.
 */
async function refuseMalformedCode(request: FastifyRequest): Promise<void> {
  if (!isLinkCode((request.params as { code: string }).code)) throw notFound('There is no question at this link.');
}


export function linkRoutes(deps: { links: LinkService; config: Config }): FastifyPluginAsync {
  const { links, config } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v1/public/link/:code', {
      config: { scope: null },
      onRequest: refuseMalformedCode,
      schema: {
        operationId: 'getAnswerLink',
        tags: TAG,
        summary: 'What the answer page shows',
        description: 'The question as a person sees it and its state; nothing about the owner, the price or the counts. Never cached, not indexed.',
        params: CodeParams,
        response: { 200: RefOf(LinkViewSchema) },
      },
    }, async (request, reply) => {
      notCached(reply);
      return links.view(request.params.code);
    });

    // Answers have two limits of their own on top of the per-IP limit every public request counts
    // against (app.ts; RATE_LIMIT_PER_IP, whatever the code, so random codes run out of budget):
    // per address and link (10 minutes) and per link whatever the address (a minute). A route's
    // own `config.rateLimit` would replace the per-IP limit, so they are checked in preHandler.
    // Not app.rateLimit(): its handler runs at most once per request.
    const codeOf = (request: FastifyRequest) => (request.params as { code: string }).code;
    const perIpAndLink = app.createRateLimit({ max: config.linkLimits.perIpPer10Minutes, timeWindow: 10 * 60_000, keyGenerator: (request) => `link-ip:${request.ip}:${codeOf(request)}` });
    const perLink = app.createRateLimit({ max: config.linkLimits.perLinkPerMinute, timeWindow: 60_000, keyGenerator: (request) => `link:${codeOf(request)}` });
    const limited = (ttl: number, what: string) => new AppError('rate_limited', `Too many answers ${what} just now; retry after ${ttl} s.`, undefined, { 'retry-after': String(ttl) });

    app.post('/v1/public/link/:code/answers', {
      config: { scope: null },
      onRequest: refuseMalformedCode,
      preHandler: async (request) => {
        const fromHere = await perIpAndLink(request);
        if (!fromHere.isAllowed && fromHere.isExceeded) throw limited(fromHere.ttlInSeconds, 'from this address to this link');
        const toLink = await perLink(request);
        if (!toLink.isAllowed && toLink.isExceeded) throw limited(toLink.ttlInSeconds, 'to this link');
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
          403: errorResponse('`human_check_failed`: the human check did not pass.'),
        },
      },
    }, async (request, reply) => {
      notCached(reply);
      return links.submit(request.params.code, request.body, request.ip);
    });

    app.post('/v1/public/link/:code/started', {
      config: { scope: null },
      onRequest: refuseMalformedCode,
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
      notCached(reply);
      await links.started(request.params.code, request.body.nonce);
      return { ok: true as const };
    });
  };
}
