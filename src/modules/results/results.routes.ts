import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed, IdParams, RefOf } from '../../lib/typebox.ts';
import { actorOf } from '../../http/auth.ts';
import { compressibleJson } from '../../http/responses.ts';
import { createPreparedJson } from '../../http/prepared-json.ts';
import { AnswersPageSchema, AnswersQuerySchema, ResultPartSchema, ResultRouteQuerySchema, ResultSchema } from './results.schemas.ts';
import { fieldsKey, pickFields, resultFields } from './result-fields.ts';
import type { ResultService } from './results.service.ts';
import type { AnswersService } from './answer-list.service.ts';

const TAG = ['Questions'];

/** The body without `fields` (byte for byte what the route always sent), and with it. */
const FULL_BODY = Closed({ result: RefOf(ResultSchema) });
const PART_BODY = Closed({ result: RefOf(ResultPartSchema) });
/** What the 200 can be: `anyOf`, since a full Result is also a valid ResultPart. */
const RESULT_BODY = Closed({ result: Type.Union([RefOf(ResultSchema), RefOf(ResultPartSchema)]) });

/** GET /v2/questions/{id}/result and /answers (spec "Questions"; docs/results.md). */
export function resultsRoutes(deps: { results: ResultService; resultAnswers: AnswersService }): FastifyPluginAsync {
  // A result is sent as prepared bytes: made once per Result object and `fields`, compressed once per coding.
  const sendPrepared = createPreparedJson();
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
          'shows none and `suppressed` is true. `fields` (an extension) returns only the named top-level properties; without it, the full Result. ' +
          'The body is compressed (`br` or `gzip`) for a client whose `Accept-Encoding` allows it. See docs/results.md for the statistics.',
        params: IdParams,
        querystring: ResultRouteQuerySchema,
        response: {
          200: compressibleJson('The full Result, or with `fields` only the properties named.', RESULT_BODY),
        },
      },
    }, async (request, reply) => {
      const { fields: fieldsQuery, ...filters } = request.query;
      const fields = resultFields(fieldsQuery);
      const result = await deps.results.forAccount(actorOf(request).accountId, request.params.id, filters);
      // An unchanged result is the same object (result-builder.ts): its bytes are made once per `fields`.
      return sendPrepared(request, reply, result, fieldsKey(fields), () =>
        fields === null ? reply.serializeInput({ result }, FULL_BODY) : reply.serializeInput({ result: pickFields(result, fields) }, PART_BODY),
      );
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
