import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed, DateTime, IdParams, Nullable, RefOf } from '../../lib/typebox.ts';
import { actorOf } from '../../http/auth.ts';
import { errorResponse } from '../../http/responses.ts';
import type { ModerationService } from './moderation.service.ts';
import { AnswerParams, DisputeBodySchema, DisputeSchema, FlagBodySchema, FlagSchema, PinBodySchema } from './moderation.schemas.ts';
import { disputeView } from './disputes.service.ts';

const TAG = ['Questions'];

/** Flags, pins and disputes (docs/moderation.md). */
export function moderationRoutes(deps: { moderation: ModerationService }): FastifyPluginAsync {
  const { moderation } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/v2/questions/:id/answers/:ref/flag', {
      config: { scope: 'questions:write' },
      schema: {
        operationId: 'flagAnswer',
        tags: TAG,
        summary: 'Flag an answer for review',
        description:
          'An operator reviews the flag. Upheld: the answer is removed from the result (answers, counts and distribution) and the credits it cost are refunded ' +
          '(`refundCredits`, a `refund` ledger row). Dismissed: nothing changes. One open flag per answer: flagging it again while one is open is a 409 ' +
          '`conflict` with `details.flagId`; after a dismissal it can be flagged again.',
        params: AnswerParams,
        body: FlagBodySchema,
        response: {
          201: Closed({ flag: FlagSchema }),
          409: errorResponse('`conflict`: the answer already has an open flag (`details.flagId`), or it was already removed.'),
        },
      },
    }, async (request, reply) => {
      const flag = await moderation.flag(actorOf(request), request.params.id, request.params.ref, request.body);
      return reply.status(201).send({ flag });
    });

    app.post('/v2/questions/:id/answers/:ref/pin', {
      config: { scope: 'questions:write' },
      schema: {
        operationId: 'pinAnswer',
        tags: TAG,
        summary: 'Pin or unpin an answer; pinned answers come first',
        params: AnswerParams,
        body: PinBodySchema,
        response: {
          200: Closed({ pinned: Type.Boolean() }),
          409: errorResponse('`conflict`: the answer was removed after review.'),
        },
      },
    }, async (request) => moderation.pin(actorOf(request), request.params.id, request.params.ref, request.body.pinned));

    app.post('/v2/questions/:id/dispute', {
      config: { scope: 'questions:write' },
      schema: {
        operationId: 'disputeQuestion',
        tags: TAG,
        summary: 'Dispute the result of a closed question (within 7 days of closing)',
        description:
          'Stored for review; the decision comes as the `dispute.resolved` webhook event (with any refund, also in the ledger), and can be read back with ' +
          '`GET /v2/questions/{id}/dispute`. Only a closed question (complete, underfilled, cancelled or refused), up to 7 days after `closedAt`, and one ' +
          'open dispute per question. Extension: the 200 also carries the stored `dispute`.',
        params: IdParams,
        body: DisputeBodySchema,
        response: {
          200: Closed({ ok: Type.Literal(true), dispute: Type.Optional(RefOf(DisputeSchema)) }),
          409: errorResponse('`conflict`: the question is still open, it closed more than 7 days ago (`details.disputeBy`), or a dispute of it is already open.'),
        },
      },
    }, async (request) => {
      const dispute = await moderation.dispute(actorOf(request), request.params.id, request.body.reason);
      return { ok: true as const, dispute: disputeView(dispute) };
    });

    app.get('/v2/questions/:id/dispute', {
      config: { scope: 'questions:read' },
      schema: {
        operationId: 'getDispute',
        tags: TAG,
        summary: "The question's latest dispute and its decision (extension)",
        description:
          'Extension, for requesters without webhooks: the latest dispute of the question (`open`, or `upheld`/`rejected` with the reviewer\'s `decision` and ' +
          'any `refundCredits`), null when none was raised, and `disputeBy`, until when one can be raised (null while the question is still open).',
        params: IdParams,
        response: {
          200: Closed({
            dispute: Nullable(RefOf(DisputeSchema)),
            disputeBy: Nullable(DateTime({ description: 'closedAt + 7 days; null while the question is open.' })),
          }),
        },
      },
    }, async (request) => moderation.latestDispute(actorOf(request), request.params.id));
  };
}
