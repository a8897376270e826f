import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { compileFor } from '../../lib/validation.ts';
import { RefOf } from '../../lib/typebox.ts';
import type { LooseDraft } from '../draft/draft-validator.ts';
import type { EstimateService } from './estimate.service.ts';
import { EstimateBodySchema, EstimateBodyShape, EstimateSchema } from './estimate.schemas.ts';

const checkShape = compileFor('body', EstimateBodyShape);

export function estimateRoutes(deps: { estimates: EstimateService }): FastifyPluginAsync {
  return async (app) => {
    app.withTypeProvider<TypeBoxTypeProvider>().post('/v1/billing/estimate', {
      config: { scope: null, rateCost: 0.5, optionalCredential: true },
      // The documented body is the full QuestionDraft; validation checks only its JSON shape so
      // that rule violations come back as a 200 with validation[] (spec "Pricing and config").
      validatorCompiler: ({ httpPart, schema }) => (httpPart === 'body' ? checkShape : compileFor(httpPart, schema)),
      schema: {
        operationId: 'estimateQuestion',
        tags: ['Pricing and config'],
        summary: 'Price and validate a draft without spending anything',
        description:
          'Any draft with the right JSON types gets 200: the price, the time to answer, the pool of heads, and every broken rule in `validation[]` ' +
          '(one item per field), so a form can show all problems at once. Only a body of the wrong shape (wrong JSON types, unknown fields) gets 400. ' +
          '`creditsTotal` is exactly what an ask of the same draft reserves. Counts as half a request against the rate limit. ' +
          'A draft naming an interest audience (`interestAudienceId`, `minGrade`, `interestPrice`) is priced at the audience\'s pay; a private audience only with a credential of an account that sponsors it (docs/audiences.md).',
        body: EstimateBodySchema,
        response: { 200: RefOf(EstimateSchema) },
      },
    }, async (request) => deps.estimates.estimate(request.body.draft as LooseDraft, request.actor?.accountId ?? null));
  };
}
