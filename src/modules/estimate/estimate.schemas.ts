import { Type, type Static } from '@sinclair/typebox';
import { Closed, Nullable, RefOf, StringEnum } from '../../lib/typebox.ts';
import { ValidationItemSchema } from '../../lib/error.schemas.ts';
import { draftFields, draftOnlyFields } from '../draft/draft.schemas.ts';
import { shapeOnly } from '../../lib/json-schema-shape.ts';
import { EarlyStoppingEstimateSchema } from './early-stopping-estimate.ts';

/**
 * The estimate prices a QuestionDraft, and also the draft-only fields that ask an interest
 * audience (docs/audiences.md), so an audience draft is priced before it is asked (an extension).
 */
export const EstimateDraftSchema = Closed(
  {
    ...draftFields,
    interestAudienceId: draftOnlyFields.interestAudienceId,
    minGrade: draftOnlyFields.minGrade,
    interestPrice: draftOnlyFields.interestPrice,
  },
  { $id: 'EstimateDraft', description: 'A QuestionDraft, plus the draft-only fields that ask an interest audience.' },
);

export const EstimateBodySchema = Closed({
  draft: RefOf(EstimateDraftSchema),
  surface: Type.Optional(StringEnum(['app', 'web'], { description: 'Where the estimate is shown; it does not change the price.' })),
});
export type EstimateBody = Static<typeof EstimateBodySchema>;

/**
 * What the estimate actually validates: the JSON shape only (see lib/json-schema-shape.ts). Rule
 * violations are not a 400 here; they come back in `validation[]`.
 */
const { $id: _id, ...draftWithoutId } = EstimateDraftSchema;
export const EstimateBodyShape = {
  type: 'object',
  additionalProperties: false,
  required: ['draft'],
  properties: {
    draft: shapeOnly(draftWithoutId),
    surface: { type: 'string', enum: ['app', 'web'] },
  },
};

export const EstimateSchema = Closed(
  {
    creditsPerAnswer: Type.Integer({ minimum: 0 }),
    creditsTotal: Type.Integer({ minimum: 0, description: 'What an ask of this draft reserves, exactly.' }),
    payPerAnswer: Type.Integer({ minimum: 0, description: 'What each head is paid, in pence (at the best-paid targeted country).' }),
    etaMinutes: Type.Integer({ minimum: 0 }),
    traits: Type.Integer({ minimum: 0, description: 'Targeting traits beyond country that the price includes.' }),
    breakdown: Type.Array(Closed({ label: Type.String(), value: Type.String({ description: '"<integer> credits"; the values add up to creditsTotal.' }) })),
    breakdownLine: Type.String(),
    validation: Type.Array(RefOf(ValidationItemSchema), { description: 'Everything that would stop the ask, one item per field; empty when the draft can be asked.' }),
    poolSize: Nullable(Type.Integer({ minimum: 0, description: 'Heads matching the targeting (for an audience: its members at minGrade or above); null while the targeting or the audience has errors.' })),
    earlyStopping: Type.Optional(
      { ...EarlyStoppingEstimateSchema, description: 'Extension (docs/early-stopping.md): with a `stopWhen` rule, what it may save and what it costs. Absent without one, or while the draft has errors.' },
    ),
  },
  { $id: 'Estimate' },
);
