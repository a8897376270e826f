import { Type, type Static } from '@sinclair/typebox';
import { Closed, Nullable, RefOf, StringEnum } from '../../lib/typebox.ts';
import { OptionSchema, QuestionDraftSchema, QuestionTypeSchema, ReasonModeSchema } from '../draft/draft.schemas.ts';

export const EXTERNAL_REF_PATTERN = '^[\\w.:\\-/#@+]+$';

export const FollowUpSchema = Closed({
  type: Type.Optional(QuestionTypeSchema),
  text: Type.String({ minLength: 8, maxLength: 600 }),
  options: Type.Optional(Type.Array(OptionSchema, { maxItems: 8 })),
  n: Type.Optional(Type.Integer({ minimum: 10, maximum: 5000, default: 20 })),
  tier: Type.Optional(Type.Integer({ minimum: 1, maximum: 3, default: 2 })),
  minConfidence: Type.Optional(StringEnum(['low', 'medium', 'high'], { description: 'Ask the follow-up only if the result reaches this confidence; otherwise its credits are refunded.' })),
  reason: Type.Optional(ReasonModeSchema),
});

export const AskBodySchema = Closed({
  draft: RefOf(QuestionDraftSchema),
  fromDraftId: Type.Optional(Type.String({ maxLength: 64, description: 'A saved draft used as the base; fields given in `draft` override it.' })),
  then: Type.Optional(Type.Array(FollowUpSchema, { maxItems: 3, description: 'Follow-ups asked of the same heads after this question closes.' })),
  variantOf: Type.Optional(Type.String({ maxLength: 64, description: 'Ask the same question again of heads who did not answer that question or its other variants.' })),
  templateId: Type.Optional(Type.String({ maxLength: 64, description: 'A template used as the base; fields given in `draft` override it.' })),
  projectId: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  labels: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 10 })),
  externalRef: Type.Optional(Type.String({ maxLength: 100, pattern: EXTERNAL_REF_PATTERN })),
  privateDeclaration: Type.Optional(
    Closed(
      { recipients: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'How many of your own people you will send the link to (1 to 1,000,000).' }) },
      { description: 'Declares a private question: answered only through its link by your own people, never by the panel.' },
    ),
  ),
});
export type AskBody = Static<typeof AskBodySchema>;
export type FollowUp = Static<typeof FollowUpSchema>;

export const IdempotencyHeadersSchema = Type.Object(
  { 'idempotency-key': Type.String({ minLength: 1, maxLength: 200, description: 'A fresh UUID per ask; a retry with the same key returns the same question for 24 hours.' }) },
  { additionalProperties: true },
);
