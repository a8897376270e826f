import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, IntegerEnum, StringEnum } from '../../lib/typebox.ts';
import { StopWhenSchema } from './stop-when.ts';
import { AGE_BANDS, CONTENT_FLAGS, GENDERS, QUESTION_TYPES, REASON_MODES } from './question-types.ts';

/**
 * QuestionDraft exactly as the spec's table gives it. These schemas describe the contract in
 * /openapi.json and validate the ask; the estimate validates only JSON types (see
 * draft-shape.schemas.ts) and reports rule violations in its `validation[]`.
 */
export const LANGUAGE_PATTERN = '^[a-z]{2}(-[A-Z]{2})?$';
/** ISO 8601 UTC instant ending in Z with optional fractional seconds (calendar validity is checked in code). */
export const UTC_INSTANT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z$';

export const QuestionTypeSchema = StringEnum(QUESTION_TYPES, { description: 'The kind of question; per-type rules in docs/question-types.md.' });
export const AgeBandSchema = StringEnum(AGE_BANDS);
export const GenderSchema = StringEnum(GENDERS);
export const TierSchema = IntegerEnum([1, 2, 3]);
export const ReasonModeSchema = StringEnum(REASON_MODES);

export const OptionSchema = Closed({
  label: Type.String({ maxLength: 40 }),
  imageUrl: Type.Optional(Type.String({ format: 'uri' })),
});

export const StimulusSchema = Closed({
  imageUrl: Type.Optional(Type.String({ format: 'uri' })),
  audioUrl: Type.Optional(Type.String({ format: 'uri' })),
  text: Type.Optional(Type.String({ maxLength: 120 })),
  exposureMs: Type.Optional(Type.Integer({ minimum: 2000, maximum: 10000, description: 'How long the stimulus is shown, in milliseconds.' })),
});

export const TargetingSchema = Closed({
  countries: Type.Array(Type.String({ minLength: 2, maxLength: 2 }), { maxItems: 50, default: [], description: 'Answering-country codes (ISO 3166-1 alpha-2); empty means any.' }),
  tags: Type.Array(Type.String(), { maxItems: 20, default: [], description: 'Tag ids from GET /v1/tags; at most `max` per group.' }),
  ageBands: Type.Optional(Type.Array(AgeBandSchema, { maxItems: 6 })),
  genders: Type.Optional(Type.Array(GenderSchema, { maxItems: 3 })),
  verifiedAge: Type.Optional(Type.Boolean()),
});

export const ClickTestSchema = Closed({
  maxTaps: Type.Integer({ minimum: 1, maximum: 5, default: 1 }),
});

export const OptionsSchema = Type.Array(OptionSchema, { maxItems: 8, default: [] });

export const draftFields = {
  type: QuestionTypeSchema,
  text: Type.String({ maxLength: 600 }),
  context: Type.Optional(Type.String({ maxLength: 120 })),
  language: Type.Optional(Type.String({ pattern: LANGUAGE_PATTERN, default: 'en' })),
  options: Type.Optional(OptionsSchema),
  neither: Type.Optional(Type.Boolean({ default: false, description: 'Offer a "neither" answer (choice and A/B types only).' })),
  stimulus: Type.Optional(StimulusSchema),
  n: Type.Optional(Type.Integer({ minimum: 10, maximum: 5000, default: 50, description: 'Number of answers wanted.' })),
  tier: Type.Optional(IntegerEnum([1, 2, 3], { default: 1 })),
  rush: Type.Optional(Type.Boolean({ default: false })),
  targeting: Type.Optional(TargetingSchema),
  clickTest: Type.Optional(ClickTestSchema),
  scheduledFor: Type.Optional(DateTime({ pattern: UTC_INSTANT_PATTERN, description: 'UTC instant ending in Z; must be in the future.' })),
  publicResults: Type.Optional(Type.Boolean({ default: false })),
  reason: Type.Optional(StringEnum(REASON_MODES, { default: 'off' })),
  contentFlag: Type.Optional(StringEnum(CONTENT_FLAGS)),
  stopWhen: Type.Optional(StopWhenSchema),
};

export const QuestionDraftSchema = Closed(draftFields, {
  $id: 'QuestionDraft',
  description: 'What is asked. Per-type rules: see docs/question-types.md.',
});
export type QuestionDraft = Static<typeof QuestionDraftSchema>;

/** Names of the two integers of `interestPrice` are not shown by the spec; see docs/drafts.md. */
export const InterestPriceSchema = Closed({
  creditsPerAnswer: Type.Integer({ minimum: 1, maximum: 10000, description: 'Price per answer the requester accepts for the audience, in credits.' }),
  bonusCredits: Type.Integer({ minimum: 0, maximum: 10000, description: 'Extra credits per answer offered on top, paid to the heads.' }),
});

export const draftOnlyFields = {
  interestAudienceId: Type.Optional(Type.String({ maxLength: 40, description: 'Selects an audience; replaces targeting.' })),
  minGrade: Type.Optional(Type.Integer({ minimum: 1, maximum: 1 })),
  interestPrice: Type.Optional(InterestPriceSchema),
  answeredBy: Type.Optional(StringEnum(['heads'], { default: 'heads' })),
  openForDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 1, default: 7, description: 'Only 1 may be chosen; otherwise questions stay open 7 days.' })),
  shownAs: Type.Optional(Type.String({ maxLength: 40, description: 'The name shown on the answer page.' })),
};

/** The draft stored by /v1/drafts: every field optional except `type`, plus the draft-only additions. */
export const SavedDraftSchema = Closed(
  { ...draftFields, text: Type.Optional(draftFields.text), ...draftOnlyFields },
  { $id: 'SavedDraft', description: 'QuestionDraft fields (only `type` required) plus the draft-only additions.' },
);
export type SavedDraft = Static<typeof SavedDraftSchema>;
