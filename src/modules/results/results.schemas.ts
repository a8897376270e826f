import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, StringEnum, RefOf } from '../../lib/typebox.ts';
import { GENDERS } from '../draft/question-types.ts';
import { InsightsSchema } from '../insights/insights.schemas.ts';
import { SettlementSchema } from '../settlement/settlement.schemas.ts';

/** The profile dimensions a result breaks down by (breakdowns.ts); `grade` only for an interest audience's question. */
export const BREAKDOWN_DIMENSIONS = ['country', 'tier', 'age_band', 'gender', 'tag', 'grade'] as const;

export const FLAG_REASONS = ['off_topic', 'low_effort', 'abusive', 'automated'] as const;
export const FLAG_STATUSES = ['open', 'upheld', 'dismissed'] as const;

export const PointSchema = Closed({ x: Type.Number({ minimum: 0, maximum: 1 }), y: Type.Number({ minimum: 0, maximum: 1 }) });

export const AnswerFlagSchema = Closed({
  reason: StringEnum(FLAG_REASONS),
  status: StringEnum(FLAG_STATUSES),
  refundCredits: Type.Integer({ minimum: 0 }),
  createdAt: DateTime(),
  decidedAt: Nullable(DateTime()),
});

export const AnswerSchema = Closed(
  {
    option: Nullable(Type.String({ description: 'The chosen option (for ranking, the one ranked first; for multi choice, the chosen labels joined).' })),
    text: Nullable(Type.String({ description: 'The written answer.' })),
    translatedText: Type.Optional(Nullable(Type.String())),
    reason: Type.Optional(Nullable(Type.String())),
    translatedReason: Type.Optional(Nullable(Type.String())),
    tier: Type.Integer({ minimum: 1, maximum: 3 }),
    attestationRef: Type.String({ description: 'Names the answer in flag and pin calls.' }),
    answeredAt: DateTime(),
    pinned: Type.Optional(Type.Boolean()),
    flag: Type.Optional(Nullable(AnswerFlagSchema)),
    taps: Type.Optional(Type.Array(PointSchema, { description: 'Click-test taps, 0 to 1 from the top left.' })),
  },
  { $id: 'Answer' },
);
export type Answer = Static<typeof AnswerSchema>;

export const DistributionItemSchema = Closed({
  option: Type.String(),
  count: Type.Integer({ minimum: 0, description: 'Answers that chose it; multi choice: that ticked it; ranking: that ranked it first; pairwise: wins.' }),
  share: Type.Number({ minimum: 0, maximum: 1, description: 'count / answers; multi choice: of answerers; pairwise: wins / appearances.' }),
  low: Type.Optional(
    Type.Number({ minimum: 0, maximum: 1, description: 'Extension: lower end of the 95% Wilson score interval of `share` (docs/results.md). 0 with no answers.' }),
  ),
  high: Type.Optional(
    Type.Number({ minimum: 0, maximum: 1, description: 'Extension: upper end of the 95% Wilson score interval of `share` (docs/results.md). 1 with no answers.' }),
  ),
  averageRank: Type.Optional(Type.Number({ description: 'Ranking: mean position, 1 = first.' })),
  appearances: Type.Optional(Type.Integer({ minimum: 0, description: 'Pairwise: times the option was shown in a pair.' })),
  strength: Type.Optional(Type.Number({ description: 'Pairwise: Bradley–Terry strength; the strengths sum to 1.' })),
  rank: Type.Optional(Type.Integer({ minimum: 1, description: 'Ranking: by averageRank; pairwise: by strength. 1 = best; ties share a rank.' })),
});

const SummarySchema = Closed({
  winner: Nullable(Type.String()),
  margin: Nullable(Type.Number()),
  confidence: Nullable(StringEnum(['low', 'medium', 'high'])),
  note: Type.String(),
  suggestedFollowUp: Nullable(Type.String()),
});

const SegmentSchema = Closed({ label: Type.String(), n: Type.Integer({ minimum: 0 }), distribution: Type.Array(DistributionItemSchema) });

const ClicksSchema = Closed({
  imageUrl: Nullable(Type.String()),
  taps: Type.Integer({ minimum: 0 }),
  points: Type.Array(PointSchema),
  grid: Type.Array(Type.Integer({ minimum: 0 })),
  gridSize: Type.Integer({ minimum: 1 }),
  hotspots: Type.Array(
    Closed({ x: Type.Number(), y: Type.Number(), w: Type.Number(), h: Type.Number(), count: Type.Integer({ minimum: 0 }), share: Type.Number({ minimum: 0, maximum: 1 }) }),
  ),
  heatmapUrl: Nullable(Type.String()),
});

export const AGE_BAND_QUERY_PATTERN = '^(\\d{2}-\\d{2}|\\d{2}[+ ])$';

export const ResultFilterSchema = Closed({
  option: Type.Optional(Type.Integer({ minimum: 0, maximum: 8 })),
  tier: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
  country: Type.Optional(Type.String({ minLength: 2, maxLength: 2 })),
  ageBand: Type.Optional(Type.String({ pattern: '^(\\d{2}-\\d{2}|\\d{2}\\+)$' })),
  gender: Type.Optional(StringEnum(GENDERS)),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
});

export const ResultSchema = Closed(
  {
    questionId: Type.String(),
    status: StringEnum(['in_progress', 'complete', 'underfilled', 'cancelled']),
    nRequested: Type.Integer({ minimum: 0 }),
    nAccepted: Type.Integer({ minimum: 0 }),
    distribution: Type.Array(DistributionItemSchema),
    mean: Nullable(Type.Number()),
    summary: SummarySchema,
    tier: Type.Integer({ minimum: 1, maximum: 3 }),
    language: Type.String(),
    verificationLine: Type.String(),
    medianSeconds: Nullable(Type.Number()),
    creditsSpent: Type.Integer({ minimum: 0 }),
    answers: Type.Array(RefOf(AnswerSchema)),
    breakdown: Type.Optional(Type.Array(Closed({ tagId: Type.String(), label: Type.String(), n: Type.Integer({ minimum: 0 }), distribution: Type.Array(DistributionItemSchema) }))),
    refundCredits: Type.Integer({ minimum: 0 }),
    breakdowns: Type.Optional(Type.Array(Closed({ dimension: StringEnum(BREAKDOWN_DIMENSIONS, { description: '`grade` (an extension) only for a question asked of an interest audience (docs/audiences.md).' }), segments: Type.Array(SegmentSchema) }))),
    clicks: Type.Optional(ClicksSchema),
    sentiment: Type.Optional(Closed({ positive: Type.Number(), neutral: Type.Number(), negative: Type.Number() })),
    translationLanguage: Type.Optional(Nullable(Type.String())),
    insights: Type.Optional(Nullable(RefOf(InsightsSchema))),
    filter: Type.Optional(ResultFilterSchema),
    nUnfiltered: Type.Optional(Type.Integer({ minimum: 0 })),
    settlement: Type.Optional(
      Nullable(RefOf(SettlementSchema), {
        description: 'Extension (docs/early-stopping.md): the stopping rule (the question\'s stopWhen, or the reference rule for one asked without), where it settled or would have, and why. null for types no rule judges (free text, click test).',
      }),
    ),
    suppressed: Type.Optional(Type.Boolean()),
    facets: Type.Optional(
      Closed({
        tiers: Type.Array(Closed({ tier: Type.Integer(), n: Type.Integer({ minimum: 0 }) })),
        countries: Type.Array(Closed({ code: Type.String(), label: Type.String(), n: Type.Integer({ minimum: 0 }) })),
        ageBands: Type.Array(Closed({ band: Type.String(), n: Type.Integer({ minimum: 0 }) })),
        genders: Type.Optional(Type.Array(Closed({ gender: StringEnum(GENDERS), n: Type.Integer({ minimum: 0 }) }))),
      }),
    ),
  },
  { $id: 'Result' },
);
export type Result = Static<typeof ResultSchema>;

/** The top-level properties of a Result, in the order they are written: what `fields` may name. */
export const RESULT_FIELDS = Object.keys(ResultSchema.properties) as Array<keyof Result>;

/**
 * A Result cut down to the properties a client asked for with `fields` (docs/results.md "Fewer
 * bytes"): the same properties, none required. Without `fields` a response carries the full
 * Result, which matches this schema too (hence `anyOf`, not `oneOf`, in the response).
 */
export const ResultPartSchema = Type.Partial(ResultSchema, {
  $id: 'ResultPart',
  description: 'A Result with only the properties named in `fields` (each as in Result).',
});
export type ResultPart = Static<typeof ResultPartSchema>;

/** Filters of GET /v2/questions/{id}/result and /answers (spec; docs/results.md "Filters"). */
export const ResultQueryProperties = {
  option: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 8, description: 'Answers that chose this option index ("Neither" is last); ranking: ranked it first; multi choice: ticked it; pairwise: picked it.' }),
  ),
  tier: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
  country: Type.Optional(Type.String({ minLength: 2, maxLength: 2, pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 code, any case.' })),
  age_band: Type.Optional(
    Type.String({ pattern: AGE_BAND_QUERY_PATTERN, description: 'An age band such as `25-34` or `65+` (send `+` as `%2B`; a bare `+` arrives as a space and is read as `+`).' }),
  ),
  gender: Type.Optional(StringEnum(GENDERS)),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Case-insensitive substring of the written answer or the reason.' })),
};
export const ResultQuerySchema = Closed(ResultQueryProperties);

/** `fields`: a comma-separated list of Result properties (spaces around the commas allowed). */
export const RESULT_FIELDS_PATTERN = '^ *[A-Za-z]+ *(, *[A-Za-z]+ *)*$';

/** GET /v2/questions/{id}/result: the filters, and `fields` to leave out what the client does not read. */
export const ResultRouteQuerySchema = Closed({
  ...ResultQueryProperties,
  fields: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 400,
      pattern: RESULT_FIELDS_PATTERN,
      description:
        `Only these top-level Result properties, comma-separated (e.g. \`distribution,nAccepted,summary\`); any of: ${RESULT_FIELDS.map((f) => `\`${f}\``).join(', ')}. ` +
        'Each is exactly as in the full Result; optional ones the Result leaves out stay out. Without `fields`, the full Result. An unknown name is a 400.',
    }),
  ),
});

export const AnswersQuerySchema = Closed({
  ...ResultQueryProperties,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The previous page’s nextCursor, unchanged.' })),
});

export const AnswersPageSchema = Closed({
  questionId: Type.String(),
  filter: ResultFilterSchema,
  total: Type.Integer({ minimum: 0, description: 'Answers matching the filter (0 when suppressed).' }),
  nUnfiltered: Type.Integer({ minimum: 0 }),
  suppressed: Type.Boolean(),
  answers: Type.Array(RefOf(AnswerSchema)),
  translationLanguage: Nullable(Type.String()),
  nextCursor: Nullable(Type.String()),
});
export type AnswersPage = Static<typeof AnswersPageSchema>;
