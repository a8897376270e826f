import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, StringEnum } from '../../lib/typebox.ts';

const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;

/** A machine summary of written answers (spec "Insights"); never uses who answered. */
export const InsightsSchema = Closed(
  {
    questionId: Type.String(),
    language: Type.String({ description: "The account's language." }),
    sourceLanguage: Type.String({ description: "The question's language." }),
    takeaway: Type.String(),
    themes: Type.Array(
      Closed({
        label: Type.String(),
        count: Type.Integer({ minimum: 0 }),
        share: Type.Number({ minimum: 0, maximum: 1 }),
        sentiment: StringEnum(SENTIMENTS),
        option: Nullable(Type.String()),
        quotes: Type.Array(Type.String(), { maxItems: 3 }),
      }),
      { maxItems: 8 },
    ),
    sentiment: Closed({ positive: Type.Integer({ minimum: 0 }), neutral: Type.Integer({ minimum: 0 }), negative: Type.Integer({ minimum: 0 }) }),
    basedOn: Type.Integer({ minimum: 0 }),
    answersAtTime: Type.Integer({ minimum: 0 }),
    original: Nullable(
      Closed({
        takeaway: Type.String(),
        themes: Type.Array(Closed({ label: Type.String(), quotes: Type.Array(Type.String()) })),
      }),
    ),
    kind: StringEnum(['interim', 'final']),
    generatedAt: DateTime(),
    refreshAfter: Nullable(DateTime()),
    engine: Type.String(),
  },
  { $id: 'Insights' },
);
export type Insights = Static<typeof InsightsSchema>;
