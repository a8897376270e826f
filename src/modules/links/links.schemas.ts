import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, StringEnum } from '../../lib/typebox.ts';
import { QUESTION_TYPES, REASON_MODES } from '../draft/question-types.ts';
import { PointSchema } from '../results/results.schemas.ts';

export const LINK_STATES = ['live', 'scheduled', 'closed', 'full', 'paused'] as const;
export type LinkState = (typeof LINK_STATES)[number];

/** The question as a person answering sees it (docs/answer-link.md): nothing about owner, price or counts. */
export const LinkQuestionSchema = Closed({
  type: StringEnum(QUESTION_TYPES),
  text: Type.String(),
  context: Nullable(Type.String()),
  language: Type.String(),
  choices: Type.Array(Closed({ label: Type.String(), imageUrl: Nullable(Type.String()) }), { description: 'What can be chosen, in index order; "Neither" is added after them when `neither` is true.' }),
  neither: Type.Boolean(),
  stimulus: Nullable(
    Closed({ imageUrl: Nullable(Type.String()), audioUrl: Nullable(Type.String()), text: Nullable(Type.String()), exposureMs: Nullable(Type.Integer()) }),
  ),
  maxTaps: Nullable(Type.Integer({ minimum: 1, maximum: 5 })),
  reason: StringEnum(REASON_MODES),
});

export const LinkViewSchema = Closed(
  {
    state: StringEnum(LINK_STATES),
    shownAs: Nullable(Type.String()),
    question: LinkQuestionSchema,
    opensAt: Nullable(DateTime()),
    showResult: Type.Boolean(),
    resultCode: Nullable(Type.String()),
  },
  { $id: 'AnswerLink' },
);
export type LinkView = Static<typeof LinkViewSchema>;

export const LinkAnswerSchema = Closed(
  {
    option: Type.Optional(Type.Integer({ minimum: 0, maximum: 8, description: 'The chosen choice; `choices.length` means Neither; for pairwise, the one picked of `pair`.' })),
    options: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 8 }), { maxItems: 9, description: 'Multiple choice: every choice ticked.' })),
    order: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 8 }), { maxItems: 9, description: 'Ranking: every option index, most preferred first.' })),
    pair: Type.Optional(Type.Array(Type.Integer({ minimum: 0, maximum: 8 }), { minItems: 2, maxItems: 2, description: 'Pairwise: the two options shown.' })),
    taps: Type.Optional(Type.Array(PointSchema, { maxItems: 5, description: 'Click test: where the image was tapped, 0 to 1 from the top left.' })),
    text: Type.Optional(Type.String({ maxLength: 2000, description: 'Free text: the written answer.' })),
    reason: Type.Optional(Type.String({ maxLength: 1000, description: 'Why, when the question asks for a reason.' })),
  },
  { $id: 'LinkAnswer', description: 'One shape for every type; docs/answer-link.md says which fields each type uses.' },
);

export const SubmitBodySchema = Closed({
  answer: Type.Ref('LinkAnswer'),
  dwellMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400_000, default: 0 })),
  interrupted: Type.Optional(Type.Boolean({ default: false })),
  nonce: Type.String({ format: 'uuid', description: 'Fresh per page load; a retry with the same nonce returns the first outcome.' }),
  humanCheckToken: Type.Optional(Type.String({ maxLength: 2048, description: 'Cloudflare Turnstile token; required when the human check is on (always in production).' })),
  locale: Type.Optional(Type.String({ maxLength: 12 })),
});
export type SubmitBody = Static<typeof SubmitBodySchema>;

export const SubmitResultSchema = Closed({
  accepted: Type.Boolean(),
  state: StringEnum(LINK_STATES),
  showResult: Type.Boolean(),
  resultCode: Nullable(Type.String()),
});
