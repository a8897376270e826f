import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, RefOf, StringEnum } from '../../lib/typebox.ts';
import { QUESTION_SOURCES, QUESTION_STATUSES } from '../draft/question-types.ts';
import { draftFields, LANGUAGE_PATTERN, OptionSchema, ReasonModeSchema, TierSchema } from '../draft/draft.schemas.ts';
import { EXTERNAL_REF_PATTERN } from './ask.schemas.ts';

/** The record returned for a question (spec "Question"): every draft field plus its state. */
export const QuestionSchema = Closed(
  {
    id: Type.String(),
    ...draftFields,
    // Always present in a response (the spec lists these as required on Question).
    language: Type.String({ pattern: LANGUAGE_PATTERN }),
    options: Type.Array(OptionSchema),
    neither: Type.Boolean(),
    n: Type.Integer(),
    tier: TierSchema,
    rush: Type.Boolean(),
    publicResults: Type.Boolean(),
    reason: ReasonModeSchema,
    status: StringEnum(QUESTION_STATUSES),
    source: StringEnum(QUESTION_SOURCES),
    answered: Type.Integer({ minimum: 0, description: 'Answers received.' }),
    creditsPerAnswer: Type.Integer({ minimum: 0 }),
    creditsReserved: Type.Integer({ minimum: 0 }),
    creditsSpent: Type.Integer({ minimum: 0 }),
    etaMinutes: Type.Integer({ minimum: 0 }),
    leaderLine: Nullable(Type.String()),
    refusedCategory: Nullable(Type.String()),
    publicCode: Nullable(Type.String({ description: 'Code of the public results page, when it is on.' })),
    createdAt: DateTime(),
    liveAt: Nullable(DateTime()),
    closedAt: Nullable(DateTime()),
    teamId: Type.Optional(Nullable(Type.String())),
    askedBy: Type.Optional(Nullable(Closed({ id: Type.String(), name: Nullable(Type.String()) }))),
    projectId: Type.Optional(Nullable(Type.String())),
    labels: Type.Optional(Type.Array(Type.String())),
    archived: Type.Optional(Type.Boolean()),
    bookmarked: Type.Optional(Type.Boolean()),
    externalRef: Type.Optional(Nullable(Type.String())),
    linkCode: Type.Optional(Type.String({ description: 'Extension: the code of the answer link.' })),
    linkUrl: Type.Optional(Type.String({ format: 'uri', description: 'Extension: the answer link to share; the QR codes encode it.' })),
    interestAudienceId: Type.Optional(Type.String({ description: 'Extension: the interest audience the question asks instead of targeting (docs/audiences.md); absent for targeting.' })),
    minGrade: Type.Optional(Type.Integer({ minimum: 1, description: 'Extension: the lowest grade of that audience that answers.' })),
    parentId: Type.Optional(Type.String({ description: 'Extension: on a follow-up (an item of the ask\'s `then`), the id of the question it follows; absent on any other question. `GET /v2/questions?parentId=` lists a question\'s follow-ups.' })),
  },
  { $id: 'Question' },
);
export type Question = Static<typeof QuestionSchema>;

/** GET /v2/questions: the filters of the list. */
export const ListQuestionsQuerySchema = Closed({
  status: Type.Optional(StringEnum(QUESTION_STATUSES)),
  since: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 instant (e.g. 2026-11-01T00:00:00Z): questions created at or after it.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  projectId: Type.Optional(Type.String({ maxLength: 64 })),
  label: Type.Optional(Type.String({ maxLength: 40 })),
  externalRef: Type.Optional(Type.String({ maxLength: 100 })),
  parentId: Type.Optional(Type.String({ maxLength: 64, description: 'Extension: only the follow-ups of this question (its `then` items; newest first, as every page, so the last item first).' })),
  archived: Type.Optional(StringEnum(['exclude', 'only', 'include'], { default: 'exclude' })),
  bookmarked: Type.Optional(Type.Boolean()),
  mine: Type.Optional(Type.Boolean({ description: 'Only questions asked with the calling key (with a portal session: asked by the signed-in person).' })),
});
export type ListQuestionsQuery = Static<typeof ListQuestionsQuerySchema>;

/** PATCH /v2/questions/{id}: what can be changed on a question. */
export const PatchQuestionBodySchema = Closed({
  minAnswers: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })),
  projectId: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  labels: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 10 })),
  archived: Type.Optional(Type.Boolean()),
  bookmarked: Type.Optional(Type.Boolean()),
  externalRef: Type.Optional(Type.String({ maxLength: 100, pattern: EXTERNAL_REF_PATTERN })),
});
export type PatchQuestionBody = Static<typeof PatchQuestionBodySchema>;

/** POST /v2/questions/{id}/heads: how many more answers, and whether only to quote. */
export const AddHeadsBodySchema = Closed({ n: Type.Integer({ minimum: 1, maximum: 5000 }), dryRun: Type.Optional(Type.Boolean({ default: false })) });
export type AddHeadsBody = Static<typeof AddHeadsBodySchema>;

/** What more heads cost: `n` more answers at the question's price per answer, and the new target. */
export const AddHeadsQuoteSchema = Closed({ n: Type.Integer(), creditsPerAnswer: Type.Integer(), creditsTotal: Type.Integer(), etaMinutes: Type.Integer(), newTarget: Type.Integer(), line: Type.String() });
export type AddHeadsQuote = Static<typeof AddHeadsQuoteSchema>;

/** The quote, and for a real request the reopened question and the credits reserved. */
export const AddHeadsResponseSchema = Closed({
  question: Type.Optional(RefOf(QuestionSchema)),
  quote: AddHeadsQuoteSchema,
  creditsReserved: Type.Optional(Type.Integer()),
});
export type AddHeadsResponse = Static<typeof AddHeadsResponseSchema>;
