import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, StringEnum } from '../../lib/typebox.ts';
import { QUESTION_SOURCES, QUESTION_STATUSES } from '../draft/question-types.ts';
import { draftFields, LANGUAGE_PATTERN, OptionSchema, ReasonModeSchema, TierSchema } from '../draft/draft.schemas.ts';

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
  },
  { $id: 'Question' },
);
export type Question = Static<typeof QuestionSchema>;
