/**
 * The vocabulary of a question (spec "QuestionDraft") and the per-type rules that the
 * specification leaves open (ARCHITECTURE §4 "Per-type rules"). One table, read by the validator,
 * the pricing module, the catalogues and, later, the answer page and results.
 */
export const QUESTION_TYPES = [
  'single_choice',
  'multi_choice',
  'ab_image',
  'pairwise',
  'scale_1_5',
  'ranking',
  'yes_mostly_no',
  'free_text',
  'click_test',
  'reaction',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const AGE_BANDS = ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'] as const;
export type AgeBand = (typeof AGE_BANDS)[number];

export const GENDERS = ['woman', 'man', 'non_binary'] as const;
export type Gender = (typeof GENDERS)[number];

export const TIERS = [1, 2, 3] as const;
export type Tier = (typeof TIERS)[number];

export const REASON_MODES = ['off', 'optional', 'required'] as const;
export type ReasonMode = (typeof REASON_MODES)[number];

export const CONTENT_FLAGS = ['none', 'medical', 'violence', 'distressing', 'alcohol_gambling', 'political'] as const;

export const QUESTION_LANGUAGES = ['en', 'es', 'pt', 'hi', 'fr', 'de', 'id', 'tl'] as const;
export type QuestionLanguage = (typeof QUESTION_LANGUAGES)[number];

export const QUESTION_STATUSES = ['draft', 'scheduled', 'live', 'complete', 'underfilled', 'cancelled', 'refused'] as const;
export type QuestionStatus = (typeof QUESTION_STATUSES)[number];

export const QUESTION_SOURCES = ['app', 'portal', 'api', 'mcp'] as const;

export interface TypeRule {
  /** Human name used in messages and price lines. */
  label: string;
  /** The name with its article, for sentences ("an A/B image question"). */
  aLabel: string;
  /** Allowed number of options; null = the type takes no options. */
  options: { min: number; max: number } | null;
  /** Every option must carry an imageUrl. */
  optionImages: boolean;
  neitherAllowed: boolean;
  /** stimulus required, and which of its parts. */
  stimulus: 'none' | 'image' | 'any_with_exposure';
  clickTest: boolean;
  /** free_text: the written answer is the reason, so a separate reason box makes no sense. */
  reasonAllowed: boolean;
  /** Fixed options shown to heads when the type defines them itself. */
  fixedOptions?: readonly string[];
}

export const TYPE_RULES: Record<QuestionType, TypeRule> = {
  single_choice: { label: 'single choice', aLabel: 'a single choice', options: { min: 2, max: 8 }, optionImages: false, neitherAllowed: true, stimulus: 'none', clickTest: false, reasonAllowed: true },
  multi_choice: { label: 'multiple choice', aLabel: 'a multiple choice', options: { min: 2, max: 8 }, optionImages: false, neitherAllowed: true, stimulus: 'none', clickTest: false, reasonAllowed: true },
  ab_image: { label: 'A/B image', aLabel: 'an A/B image', options: { min: 2, max: 2 }, optionImages: true, neitherAllowed: true, stimulus: 'none', clickTest: false, reasonAllowed: true },
  pairwise: { label: 'pairwise', aLabel: 'a pairwise', options: { min: 3, max: 8 }, optionImages: false, neitherAllowed: false, stimulus: 'none', clickTest: false, reasonAllowed: true },
  ranking: { label: 'ranking', aLabel: 'a ranking', options: { min: 3, max: 8 }, optionImages: false, neitherAllowed: false, stimulus: 'none', clickTest: false, reasonAllowed: true },
  scale_1_5: { label: '1–5 scale', aLabel: 'a 1–5 scale', options: null, optionImages: false, neitherAllowed: false, stimulus: 'none', clickTest: false, reasonAllowed: true, fixedOptions: ['1', '2', '3', '4', '5'] },
  yes_mostly_no: { label: 'yes / mostly / no', aLabel: 'a yes / mostly / no', options: null, optionImages: false, neitherAllowed: false, stimulus: 'none', clickTest: false, reasonAllowed: true, fixedOptions: ['yes', 'mostly', 'no'] },
  free_text: { label: 'free text', aLabel: 'a free text', options: null, optionImages: false, neitherAllowed: false, stimulus: 'none', clickTest: false, reasonAllowed: false },
  click_test: { label: 'click test', aLabel: 'a click test', options: null, optionImages: false, neitherAllowed: false, stimulus: 'image', clickTest: true, reasonAllowed: true },
  reaction: { label: 'reaction', aLabel: 'a reaction', options: { min: 2, max: 8 }, optionImages: false, neitherAllowed: false, stimulus: 'any_with_exposure', clickTest: false, reasonAllowed: true },
};
