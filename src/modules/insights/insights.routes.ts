import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Closed, IdParams, Nullable, RefOf } from '../../lib/typebox.ts';
import { actorOf } from '../../http/auth.ts';
import { InsightsSchema } from './insights.schemas.ts';
import type { InsightsService } from './insights.service.ts';
import { errorResponse } from '../../http/responses.ts';

const TAG = ['Questions'];

/** GET and POST /v2/questions/{id}/insights (spec "Questions"; docs/insights.md). */
export function insightsRoutes(deps: { insights: InsightsService }): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v2/questions/:id/insights', {
      config: { scope: 'questions:read' },
      schema: {
        operationId: 'getQuestionInsights',
        tags: TAG,
        summary: 'The latest summary of the written answers, or null',
        description: 'A summary made by request while the question is live (`interim`), or when it closed (`final`). Never made from who answered.',
        params: IdParams,
        response: { 200: Closed({ insights: Nullable(RefOf(InsightsSchema)) }) },
      },
    }, async (request) => ({ insights: await deps.insights.get(actorOf(request), request.params.id) }));

    app.post('/v2/questions/:id/insights', {
      config: { scope: 'questions:read' },
      schema: {
        operationId: 'refreshQuestionInsights',
        tags: TAG,
        summary: 'Make a fresh summary of the written answers now',
        description:
          'While the question is open: a new `interim` summary, at most once every 10 minutes. After it closed: its `final` summary ' +
          '(made now if the closing job has not made it yet; it is not made again). Needs at least three written answers.',
        params: IdParams,
        response: {
          200: Closed({ insights: RefOf(InsightsSchema) }),
          409: errorResponse('`too_few_answers`: fewer than three written answers.'),
          429: {
            ...errorResponse('`rate_limited`: a summary was made less than 10 minutes ago; `details.retryAfterMs` and the `Retry-After` header say when to try again.'),
            headers: { 'Retry-After': { type: 'string', description: 'Seconds to wait.' } },
          },
        },
      },
    }, async (request) => ({ insights: await deps.insights.refresh(actorOf(request), request.params.id) }));
  };
}
