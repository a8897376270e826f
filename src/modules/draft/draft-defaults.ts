import type { QuestionDraft } from './draft.schemas.ts';
import { TYPE_RULES } from './question-types.ts';

/** A draft with every default of the spec filled in: what a question is created from. */
export type NormalizedDraft = QuestionDraft & {
  language: string;
  options: NonNullable<QuestionDraft['options']>;
  neither: boolean;
  n: number;
  tier: 1 | 2 | 3;
  rush: boolean;
  targeting: NonNullable<QuestionDraft['targeting']>;
  publicResults: boolean;
  reason: 'off' | 'optional' | 'required';
};

export { DEFAULT_N } from './pricing.ts';
import { DEFAULT_N } from './pricing.ts';

export function normalizeDraft(draft: QuestionDraft): NormalizedDraft {
  const targeting = draft.targeting ?? { countries: [], tags: [] };
  return {
    ...draft,
    language: draft.language ?? 'en',
    options: draft.options ?? [],
    neither: draft.neither ?? false,
    n: draft.n ?? DEFAULT_N,
    tier: (draft.tier ?? 1) as 1 | 2 | 3,
    rush: draft.rush ?? false,
    targeting: { ...targeting, countries: targeting.countries ?? [], tags: targeting.tags ?? [] },
    publicResults: draft.publicResults ?? false,
    reason: draft.reason ?? 'off',
    ...(TYPE_RULES[draft.type]?.clickTest ? { clickTest: { maxTaps: draft.clickTest?.maxTaps ?? 1 } } : {}),
  };
}
