import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed, Nullable, RefOf, IdParams } from '../../lib/typebox.ts';
import { actorOf } from '../../http/auth.ts';
import { compressibleJson, errorResponse } from '../../http/responses.ts';
import { AddHeadsBodySchema, AddHeadsResponseSchema, ListQuestionsQuerySchema, PatchQuestionBodySchema, QuestionSchema } from './questions.schemas.ts';
import { AskBodySchema, IdempotencyHeadersSchema } from './ask.schemas.ts';
import { ResultSchema } from '../results/results.schemas.ts';
import type { AskService } from './ask.service.ts';
import type { QuestionsService } from './questions.service.ts';
import type { LifecycleService } from './lifecycle.service.ts';
import type { AddHeadsService } from './add-heads.service.ts';
import type { WaitService } from './wait.service.ts';
import { DEFAULT_WAIT_SECONDS } from './wait.service.ts';
import { createPreparedJson } from '../../http/prepared-json.ts';

const TAG = ['Questions'];
const Params = IdParams;
const QuestionEnvelope = Closed({ question: RefOf(QuestionSchema) });
const WaitBody = Closed({ result: RefOf(ResultSchema), done: Type.Boolean() });

const REPLAYED_HEADER = {
  'Idempotent-Replayed': { type: 'string', enum: ['true'], description: 'Present when this is the stored response of an earlier request with the same Idempotency-Key.' },
};

export function questionsRoutes(deps: { asks: AskService; questions: QuestionsService; lifecycle: LifecycleService; addHeads: AddHeadsService; waits: WaitService }): FastifyPluginAsync {
  const sendPrepared = createPreparedJson();
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/v2/questions', {
      config: { scope: 'questions:write' },
      schema: {
        operationId: 'askQuestion',
        tags: TAG,
        summary: 'Ask a question: reserves its full price and sends it to heads',
        description:
          'Needs an `Idempotency-Key` (1–200 characters, a fresh UUID per ask). The same key with the same body returns the stored 201 for 24 hours ' +
          '(`Idempotent-Replayed: true`) and never charges twice; with another body it is a 409 `idempotency_conflict`. Reserves exactly the ' +
          "estimate's `creditsTotal` (follow-ups included). See docs/asking.md for templateId, fromDraftId, variantOf, then and privateDeclaration.",
        headers: IdempotencyHeadersSchema,
        body: AskBodySchema,
        response: {
          201: { description: 'The question, live or scheduled.', headers: REPLAYED_HEADER, content: { 'application/json': { schema: QuestionEnvelope } } },
          402: errorResponse('`insufficient_credits`, or `spend_cap_exceeded` (details.reason `spend_cap_reached`): nothing was spent.'),
          404: errorResponse('`not_found`: `fromDraftId`, `variantOf` or `projectId` is not one of this account\'s.'),
          409: errorResponse('`idempotency_conflict` or `idempotency_in_progress` (with Retry-After).'),
          422: errorResponse('`content_refused`: the question was refused for its content; nothing was spent.'),
        },
      },
    }, async (request, reply) => {
      const result = await deps.asks.ask(actorOf(request), request.body, request.headers['idempotency-key'] as string);
      if (result.replayed) reply.header('Idempotent-Replayed', 'true');
      return reply.status(201).send(result.body);
    });

    app.get('/v2/questions', {
      config: { scope: 'questions:read' },
      schema: {
        operationId: 'listQuestions',
        tags: TAG,
        summary: 'Questions of this account, newest first',
        querystring: ListQuestionsQuerySchema,
        response: { 200: Closed({ questions: Type.Array(RefOf(QuestionSchema)), nextCursor: Nullable(Type.String()) }) },
      },
    }, async (request) => deps.questions.list(actorOf(request), request.query));

    app.get('/v2/questions/labels', {
      config: { scope: 'questions:read' },
      schema: {
        operationId: 'listQuestionLabels',
        tags: TAG,
        summary: 'Labels in use, most used first',
        response: { 200: Closed({ labels: Type.Array(Closed({ label: Type.String(), count: Type.Integer({ minimum: 1 }) })) }) },
      },
    }, async (request) => ({ labels: await deps.questions.labels(actorOf(request)) }));

    app.get('/v2/questions/:id', {
      config: { scope: 'questions:read' },
      schema: { operationId: 'getQuestion', tags: TAG, summary: 'One question', params: Params, response: { 200: QuestionEnvelope } },
    }, async (request) => ({ question: await deps.questions.get(actorOf(request), request.params.id) }));

    app.patch('/v2/questions/:id', {
      config: { scope: 'questions:write' },
      schema: {
        operationId: 'updateQuestion',
        tags: TAG,
        summary: 'Organise a question, or close it early with minAnswers',
        description: '`minAnswers` completes the question as soon as that many heads have answered (at once if they already have; unanswered credits are refunded). `externalRef` can be set once.',
        params: Params,
        body: PatchQuestionBodySchema,
        response: { 200: QuestionEnvelope, 409: errorResponse('`external_ref_set`: externalRef is already set.') },
      },
    }, async (request) => ({ question: await deps.questions.patch(actorOf(request), request.params.id, request.body) }));

    app.post('/v2/questions/:id/cancel', {
      config: { scope: 'questions:write' },
      schema: {
        operationId: 'cancelQuestion',
        tags: TAG,
        summary: 'Cancel a live question; unanswered credits come back',
        description:
          'Cancels a live question and refunds the credits of answers not given (`refundCredits`; a `question.cancelled` event). Extension: a `scheduled` question (before it goes live) and a follow-up still waiting for its parent (`draft`) can be cancelled too, with a full refund of what they hold, so no question holds credits that only an operator could release (docs/lifecycle.md).',
        params: Params,
        response: {
          200: Closed({ question: RefOf(QuestionSchema), refundCredits: Type.Integer({ minimum: 0 }) }),
          409: errorResponse('`conflict`: the question is already closed (complete, underfilled, cancelled or refused).'),
        },
      },
    }, async (request) => deps.lifecycle.cancel(actorOf(request), request.params.id));

    app.post('/v2/questions/:id/heads', {
      config: { scope: 'questions:write' },
      schema: {
        operationId: 'addHeads',
        tags: TAG,
        summary: 'Reopen a complete or underfilled question for more heads',
        description: '`dryRun` only quotes. Otherwise needs an `Idempotency-Key`, reserves the extra credits and reopens the question; heads who already answered are excluded and new answers merge with the old.',
        params: Params,
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }, { additionalProperties: true }),
        body: AddHeadsBodySchema,
        response: {
          201: {
            description: 'The quote, and for a real request the reopened question and the credits reserved.',
            headers: REPLAYED_HEADER,
            content: {
              'application/json': { schema: AddHeadsResponseSchema },
            },
          },
          402: errorResponse('`insufficient_credits` or `spend_cap_exceeded`: nothing was spent.'),
          409: errorResponse('`conflict` (not complete or underfilled), `idempotency_conflict` or `idempotency_in_progress`.'),
        },
      },
    }, async (request, reply) => {
      const result = await deps.addHeads.addHeads(actorOf(request), request.params.id, request.body, request.headers['idempotency-key'] as string | undefined);
      if (result.replayed) reply.header('Idempotent-Replayed', 'true');
      return reply.status(201).send(result.body);
    });

    // preClose runs before the server stops accepting and waits for open requests: parked waits
    // answer now (done false) instead of holding the stop for up to 25 s.
    app.addHook('preClose', async () => {
      const released = deps.waits.release();
      if (released) app.log.info({ waits: released }, 'stopping: open waits answered with done false');
    });
    app.get('/v2/questions/:id/wait', {
      config: { scope: 'questions:read', longPoll: true },
      schema: {
        operationId: 'waitForQuestion',
        tags: TAG,
        summary: 'Hold the request until the question is answered (up to 25 s a call)',
        description:
          `Returns as soon as the question closes or reaches \`minAnswers\` (completing it early), else after \`seconds\` (default ${DEFAULT_WAIT_SECONDS}). Call again while \`done\` is false. ` +
          'The body is compressed (`br` or `gzip`) for a client whose `Accept-Encoding` allows it.',
        params: Params,
        querystring: Closed({
          seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 25, default: DEFAULT_WAIT_SECONDS })),
          // "Integer at least 1" (spec), no upper cap (PATCH's is 1 to 5000): above n it waits for the close.
          minAnswers: Type.Optional(Type.Integer({ minimum: 1, description: 'Done as soon as this many heads have answered (completing the question early); above `n`, done when it closes.' })),
        }),
        response: {
          200: compressibleJson('The result (final when `done` is true), and whether the question is done.', WaitBody),
        },
      },
    }, async (request, reply) => {
      // A client that disconnects while parked frees its place at once, not after its seconds.
      const gone = new AbortController();
      const closed = () => {
        if (!reply.raw.writableEnded) gone.abort();
      };
      reply.raw.once('close', closed);
      const body = await deps.waits.wait(actorOf(request), request.params.id, request.query.seconds ?? DEFAULT_WAIT_SECONDS, request.query.minAnswers ?? null, gone.signal).finally(() => reply.raw.off('close', closed));
      // Waiters that wake together share one Result: their body is serialized once (by the
      // response schema) and sent as bytes, compressed once per coding for clients that accept it.
      // A string body cost a copy per reply (Node joins it to the response head before writing).
      return sendPrepared(request, reply, body.result, String(body.done), () => reply.serializeInput(body, WaitBody));
    });
  };
}
