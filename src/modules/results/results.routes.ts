import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Closed, IdParams, RefOf } from '../../lib/typebox.ts';
import { actorOf } from '../../http/auth.ts';
import { AnswersPageSchema, AnswersQuerySchema, ResultQuerySchema, ResultSchema } from './results.schemas.ts';
import type { ResultService } from './results.service.ts';
import type { AnswersService } from './answer-list.service.ts';
import { createSharedJson } from '../../http/shared-json.ts';

const TAG = ['Questions'];

/** GET /v2/questions/{id}/result and /answers (spec "Questions"; docs/results.md). */
export function resultsRoutes(deps: { results: ResultService; resultAnswers: AnswersService }): FastifyPluginAsync {
  const sendShared = createSharedJson();
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v2/questions/:id/result', {
      config: { scope: 'questions:read' },
      schema: {
        operationId: 'getResult',
        tags: TAG,
        summary: 'The result of a question (partial while live), optionally filtered',
        description:
          'Distribution with 95% Wilson intervals (`low`/`high`, an extension), summary, breakdowns, facets and the latest answers (pinned first). ' +
          'With a filter, distribution, breakdowns and answers cover matching answers only; a country or age band filter matching fewer than 5 answers ' +
          'shows none and `suppressed` is true. See docs/results.md for the statistics.',
        params: IdParams,
        querystring: ResultQuerySchema,
        response: { 200: Closed({ result: RefOf(ResultSchema) }) },
      },
    }, async (request, reply) => {
      const result = await deps.results.forAccount(actorOf(request).accountId, request.params.id, request.query);
      // Repeat reads of an unchanged result get the same object: its JSON is made once.
      return sendShared(reply, result, 'result', { result });
    });

    app.get('/v2/questions/:id/answers', {
      config: { scope: 'questions:read' },
      schema: {
        operationId: 'listAnswers',
        tags: TAG,
        summary: 'Answers of a question, newest first, with the result filters',
        description: 'Pages of `limit` answers; pass `nextCursor` back as `cursor` for the next page. Filters and suppression as for the result.',
        params: IdParams,
        querystring: AnswersQuerySchema,
        response: { 200: AnswersPageSchema },
      },
    }, async (request) => deps.resultAnswers.list(actorOf(request).accountId, request.params.id, request.query));
  };
}
