import { answeringCountry, DEFAULT_COUNTRY } from './countries.data.ts';
import { TYPE_RULES, type QuestionType } from './question-types.ts';

/**
 * The price of a question: a pure, deterministic function of the draft (docs/pricing.md).
 * The estimate shows it and the ask reserves exactly it, so both call `priceDraft`.
 *
 * Per answer, in whole credits (1 credit = 1 penny):
 *   head pay     = round(TIER1_PAY_PENCE × effort × tier multiplier × country multiplier), at least 1
 *   service fee  = max(MIN_FEE, ceil(head pay × FEE_RATE))
 *   targeting    = TRAIT_CREDITS × traits
 *   rush         = ceil((head pay + service fee) × RUSH_RATE) when rush
 * An interest audience's question (AudiencePriceInput) takes its grade's pay as head pay, prices
 * no targeting, and adds the requester's bonus per answer.
 * creditsPerAnswer is their sum and creditsTotal = creditsPerAnswer × n, so the breakdown lines
 * (each a per-answer part × n, its value written "<integer> credits") add up to the total exactly.
 */
export const TIER1_PAY_PENCE = 8;
export const TIER2_PAY_MULTIPLIER = 2;
export const TIER_MULTIPLIERS: Record<1 | 2 | 3, number> = { 1: 1, 2: TIER2_PAY_MULTIPLIER, 3: 3.5 };
export const FEE_RATE = 0.5;
export const MIN_FEE = 2;
export const TRAIT_CREDITS = 1;
export const RUSH_RATE = 0.5;

/** How much work an answer is, relative to one tap on one of a few options. */
export const EFFORT: Record<QuestionType, number> = {
  single_choice: 1,
  yes_mostly_no: 1,
  scale_1_5: 1,
  ab_image: 1,
  multi_choice: 1.25,
  click_test: 1.25,
  ranking: 1.5,
  pairwise: 1.5,
  reaction: 1.5,
  free_text: 2,
};
export const REASON_EFFORT = { off: 0, optional: 0.25, required: 0.5 } as const;
/** Each tap beyond the first of a click test. */
export const EXTRA_TAP_EFFORT = 0.1;

/**
 * An interest audience replaces targeting and sets the head pay (docs/audiences.md "Price"): the
 * pay of the grade asked, whatever the question's type, tier or countries; the fee is taken as on
 * any pay, and `bonusCredits` (interestPrice) goes to the head on top, with no fee.
 */
export interface AudiencePriceInput {
  name: string;
  minGrade: number;
  payPence: number;
  bonusCredits: number;
}

/** The service fee on a head pay (the same rule for panel and audience questions). */
export const serviceFee = (pay: number): number => Math.max(MIN_FEE, Math.ceil(pay * FEE_RATE));

/** An audience grade's price per answer as the catalogue lists it: its pay plus the fee. */
export const gradePrice = (payPence: number): number => payPence + serviceFee(payPence);

export interface PriceInput {
  type: string;
  n: number;
  tier: number;
  rush: boolean;
  reason: string;
  maxTaps?: number;
  countries: string[];
  tags: string[];
  ageBands?: string[];
  genders?: string[];
  verifiedAge?: boolean;
  audience?: AudiencePriceInput;
}

export interface Price {
  payPerAnswer: number;
  creditsPerAnswer: number;
  creditsTotal: number;
  traits: number;
  breakdown: Array<{ label: string; value: string }>;
  breakdownLine: string;
  /** The per-answer parts, for the ledger and tests. */
  parts: { pay: number; fee: number; targeting: number; rush: number; bonus: number };
}

/** Targeting traits beyond country: each tag, and age bands, genders and verified age when used. */
export function countTraits(input: Pick<PriceInput, 'tags' | 'ageBands' | 'genders' | 'verifiedAge'>): number {
  return new Set(input.tags).size + (input.ageBands?.length ? 1 : 0) + (input.genders?.length ? 1 : 0) + (input.verifiedAge ? 1 : 0);
}

/** Heads are paid their own country's rate; the price covers the best-paid country that may answer. */
export function countryMultiplier(countries: string[]): number {
  const known = countries.map((c) => answeringCountry(c)?.entry.payMultiplier).filter((m): m is number => m !== undefined);
  return known.length ? Math.max(...known) : answeringCountry(DEFAULT_COUNTRY)!.entry.payMultiplier;
}

export const MIN_N = 10;
export const MAX_N = 5000;
export const DEFAULT_N = 50;

/**
 * The number of answers a price is for: n itself when it is allowed, else the nearest allowed
 * value (a form typing "6000" sees the price of 5000 and the validation item), so prices are
 * always meaningful safe integers.
 */
export function pricedAnswers(n: number): number {
  if (!Number.isFinite(n)) return DEFAULT_N;
  return Math.min(MAX_N, Math.max(MIN_N, Math.round(n)));
}

const credits = (value: number) => `${value.toLocaleString('en-GB')} credit${value === 1 ? '' : 's'}`;

export function priceDraft(input: PriceInput): Price {
  // Unknown values (reported by the validator) are priced as the defaults; Object.hasOwn so that
  // "constructor" or "toString" never find Object.prototype's members.
  const type = (Object.hasOwn(EFFORT, input.type) ? input.type : 'single_choice') as QuestionType;
  const tier = (input.tier === 2 || input.tier === 3 ? input.tier : 1) as 1 | 2 | 3;
  const n = pricedAnswers(input.n);
  const reason = (Object.hasOwn(REASON_EFFORT, input.reason) ? input.reason : 'off') as keyof typeof REASON_EFFORT;
  const taps = type === 'click_test' ? Math.min(Math.max(Math.trunc(input.maxTaps ?? 1), 1), 5) : 1;
  const effort = EFFORT[type] + REASON_EFFORT[reason] + (taps - 1) * EXTRA_TAP_EFFORT;

  const audience = input.audience;
  const pay = audience ? audience.payPence : Math.max(1, Math.round(TIER1_PAY_PENCE * effort * TIER_MULTIPLIERS[tier] * countryMultiplier(input.countries)));
  const fee = serviceFee(pay);
  // An audience replaces targeting, so no trait is priced beside it.
  const traits = audience ? 0 : countTraits(input);
  const targeting = traits * TRAIT_CREDITS;
  const bonus = audience?.bonusCredits ?? 0;
  const rush = input.rush ? Math.ceil((pay + fee) * RUSH_RATE) : 0;
  const perAnswer = pay + fee + targeting + bonus + rush;
  const answers = `${n.toLocaleString('en-GB')} answer${n === 1 ? '' : 's'}`;

  const payOf = audience ? `${audience.name}, grade ${audience.minGrade} and above` : `${TYPE_RULES[type].label}, tier ${tier}`;
  const breakdown = [
    { label: `Head pay: ${credits(pay)} × ${answers} (${payOf})`, value: `${pay * n} credits` },
    { label: `Headcount fee: ${credits(fee)} × ${answers}`, value: `${fee * n} credits` },
  ];
  if (targeting) breakdown.push({ label: `Targeting, ${traits} trait${traits === 1 ? '' : 's'}: ${credits(targeting)} × ${answers}`, value: `${targeting * n} credits` });
  if (bonus) breakdown.push({ label: `Bonus to heads: ${credits(bonus)} × ${answers}`, value: `${bonus * n} credits` });
  if (rush) breakdown.push({ label: `Rush: ${credits(rush)} × ${answers}`, value: `${rush * n} credits` });

  return {
    payPerAnswer: pay + bonus,
    creditsPerAnswer: perAnswer,
    creditsTotal: perAnswer * n,
    traits,
    breakdown,
    breakdownLine: `${answers} × ${credits(perAnswer)} = ${credits(perAnswer * n)}`,
    parts: { pay, fee, targeting, rush, bonus },
  };
}
