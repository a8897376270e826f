import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANSWERING_COUNTRIES } from '../draft/countries.data.ts';
import { TAG_GROUP_DATA } from '../draft/tags.data.ts';
import type { LooseDraft } from '../draft/draft-validator.ts';
import { AGE_BANDS, GENDERS, QUESTION_TYPES, REASON_MODES } from '../draft/question-types.ts';
import { priceInputOf } from './estimate.service.ts';
import { priceDraft, type Price, type PriceInput } from '../draft/pricing.ts';

/**
 * Prices as a requester reads them in an estimate: hand-computed per-answer prices for typical
 * drafts, and properties every price must have (the breakdown adds up to the total, the total is
 * per-answer × n, whole credits, deterministic, more never costs less).
 *
 * Formula (docs/pricing.md, pricing.ts), per answer:
 *   pay  = round(8 × effort × tier multiplier (1, 2, 3.5) × best country multiplier), at least 1
 *   fee  = max(2, ceil(pay × 0.5))
 *   targeting = 1 × traits;  rush = ceil((pay + fee) × 0.5) when rush
 */

/** What the estimate prices for a draft: the spec's defaults filled in, as the service does. */
const price = (draft: LooseDraft): Price => priceDraft(priceInputOf(draft));
const base: LooseDraft = { type: 'single_choice', text: 'Which?', options: [{ label: 'A' }, { label: 'B' }] };
const valueOf = (line: { value: string }) => {
  const match = /^(\d+) credits?$/.exec(line.value);
  if (!match) throw new Error(`breakdown value "${line.value}" is not "<integer> credits"`);
  return Number(match[1]);
};

describe('priceDraft: hand-computed prices', () => {
  it('single_choice, tier 1, n 50, no targeting: 12 credits an answer, 600 in all', () => {
    // pay = round(8 × 1 × 1 × 1) = 8; fee = max(2, ceil(4)) = 4; 8 + 4 = 12; 12 × 50 = 600
    const p = price(base);
    expect(p.payPerAnswer).toBe(8);
    expect(p.creditsPerAnswer).toBe(12);
    expect(p.creditsTotal).toBe(600);
    expect(p.traits).toBe(0);
    expect(p.breakdown.map((line) => line.value)).toEqual(['400 credits', '200 credits']);
    expect(p.breakdownLine).toBe('50 answers × 12 credits = 600 credits');
  });

  it('the defaults are the spec defaults: the same draft with n 50, tier 1, no rush, reason off', () => {
    expect(price({ ...base, n: 50, tier: 1, rush: false, reason: 'off', targeting: { countries: [], tags: [] } })).toEqual(price(base));
  });

  it('tier 2 doubles head pay: 24 an answer', () => {
    // pay = round(8 × 2) = 16; fee = ceil(8) = 8; 24; × 50 = 1200
    const p = price({ ...base, tier: 2 });
    expect([p.payPerAnswer, p.creditsPerAnswer, p.creditsTotal]).toEqual([16, 24, 1200]);
  });

  it('tier 3 pays 3.5 times: 42 an answer', () => {
    // pay = round(8 × 3.5) = 28; fee = 14; 42; × 50 = 2100
    const p = price({ ...base, tier: 3 });
    expect([p.payPerAnswer, p.creditsPerAnswer, p.creditsTotal]).toEqual([28, 42, 2100]);
  });

  it('free_text is twice the effort of a tap: 24 an answer', () => {
    // effort 2: pay = 16; fee = 8; 24; × 30 = 720
    const p = price({ type: 'free_text', text: 'Why?', n: 30 });
    expect([p.payPerAnswer, p.creditsPerAnswer, p.creditsTotal]).toEqual([16, 24, 720]);
  });

  it('asking for a reason adds effort: optional +0.25, required +0.5', () => {
    // optional: effort 1.25 → pay 10, fee 5 → 15; required: effort 1.5 → pay 12, fee 6 → 18
    expect(price({ ...base, reason: 'optional' }).creditsPerAnswer).toBe(15);
    const required = price({ type: 'yes_mostly_no', text: 'Would you?', reason: 'required' });
    expect([required.payPerAnswer, required.creditsPerAnswer, required.creditsTotal]).toEqual([12, 18, 900]);
  });

  it('rush adds half of pay and fee', () => {
    // 12 + ceil(12 × 0.5) = 18; × 50 = 900
    const p = price({ ...base, rush: true });
    expect([p.parts.rush, p.creditsPerAnswer, p.creditsTotal]).toEqual([6, 18, 900]);
    expect(p.breakdown.map((line) => line.value)).toEqual(['400 credits', '200 credits', '300 credits']);
    // tier 3: 42 + ceil(21) = 63
    expect(price({ ...base, tier: 3, rush: true }).creditsPerAnswer).toBe(63);
  });

  it('each targeting trait costs 1 credit an answer: each tag, age bands, genders, verified age', () => {
    // traits = 2 tags + 1 (age bands, however many) + 1 (genders) + 1 (verified age) = 5; 12 + 5 = 17; × 100 = 1700
    const p = price({
      ...base,
      n: 100,
      targeting: { countries: [], tags: ['student', 'int_sport'], ageBands: ['18-24', '25-34'], genders: ['woman'], verifiedAge: true },
    });
    expect(p.traits).toBe(5);
    expect([p.parts.targeting, p.creditsPerAnswer, p.creditsTotal]).toEqual([5, 17, 1700]);
    expect(p.breakdown.map((line) => line.value)).toEqual(['800 credits', '400 credits', '500 credits']);
  });

  it('countries are not a paid trait, and verifiedAge false or empty lists add nothing', () => {
    const p = price({ ...base, targeting: { countries: ['GB', 'US'], tags: [], ageBands: [], genders: [], verifiedAge: false } });
    expect(p.traits).toBe(0);
    expect(p.creditsPerAnswer).toBe(12);
  });

  it('heads in India are paid less, so an India-only question costs less than a UK one', () => {
    // IN multiplier 0.45: pay = round(3.6) = 4; fee = max(2, ceil(2)) = 2; 6 an answer; × 50 = 300
    const india = price({ ...base, targeting: { countries: ['IN'], tags: [] } });
    const uk = price({ ...base, targeting: { countries: ['GB'], tags: [] } });
    expect([india.payPerAnswer, india.creditsPerAnswer, india.creditsTotal]).toEqual([4, 6, 300]);
    expect(uk.creditsPerAnswer).toBe(12);
    expect(india.creditsTotal).toBeLessThan(uk.creditsTotal);
  });

  it('a mix of countries is priced at its best-paid country: GB + IN costs what GB costs', () => {
    const mixed = price({ ...base, targeting: { countries: ['GB', 'IN'], tags: [] } });
    const uk = price({ ...base, targeting: { countries: ['GB'], tags: [] } });
    expect(mixed.creditsPerAnswer).toBe(uk.creditsPerAnswer);
    expect(price({ ...base, targeting: { countries: ['IN', 'GB'], tags: [] } }).creditsPerAnswer).toBe(12);
    // ES 0.9: pay = round(7.2) = 7; fee = ceil(3.5) = 4; 11. ES + IN → ES.
    expect(price({ ...base, targeting: { countries: ['ES', 'IN'], tags: [] } }).creditsPerAnswer).toBe(11);
  });

  it('no countries means any country, priced at the default country (GB)', () => {
    expect(price({ ...base, targeting: { countries: [], tags: [] } }).creditsPerAnswer).toBe(price({ ...base, targeting: { countries: ['GB'], tags: [] } }).creditsPerAnswer);
  });

  it('a click test costs more for each tap beyond the first', () => {
    const clickTest = (maxTaps?: number): LooseDraft => ({
      type: 'click_test',
      text: 'Where would you tap?',
      stimulus: { imageUrl: 'https://cdn.example.com/page.png' },
      ...(maxTaps === undefined ? {} : { clickTest: { maxTaps } }),
    });
    // 1 tap: effort 1.25 → pay 10, fee 5 → 15
    expect(price(clickTest(1)).creditsPerAnswer).toBe(15);
    expect(price(clickTest()).creditsPerAnswer).toBe(15);
    // 3 taps: effort 1.45 → pay round(11.6) = 12, fee 6 → 18
    expect(price(clickTest(3)).creditsPerAnswer).toBe(18);
    // 5 taps: effort 1.65 → pay round(13.2) = 13, fee ceil(6.5) = 7 → 20
    expect(price(clickTest(5)).creditsPerAnswer).toBe(20);
    const perTap = [1, 2, 3, 4, 5].map((taps) => price(clickTest(taps)).creditsPerAnswer);
    expect(perTap).toEqual([...perTap].sort((a, b) => a - b));
  });

  it('maxTaps changes nothing on other types', () => {
    expect(priceDraft({ ...priceInputOf(base), maxTaps: 5 }).creditsPerAnswer).toBe(12);
  });

  it('everything at once: single_choice, tier 3, rush, reason required, 2 traits, n 1234', () => {
    // effort 1.5: pay = round(8 × 1.5 × 3.5) = 42; fee = 21; traits = 1 tag + age bands = 2;
    // rush = ceil((42 + 21) × 0.5) = 32; per answer 42 + 21 + 2 + 32 = 97; × 1234 = 119698
    const p = price({ ...base, n: 1234, tier: 3, rush: true, reason: 'required', targeting: { countries: ['GB'], tags: ['student'], ageBands: ['18-24'] } });
    expect(p.parts).toEqual({ pay: 42, fee: 21, targeting: 2, rush: 32, bonus: 0 });
    expect(p.creditsPerAnswer).toBe(97);
    expect(p.creditsTotal).toBe(119_698);
    expect(p.breakdown.map((line) => line.value)).toEqual(['51828 credits', '25914 credits', '2468 credits', '39488 credits']);
    expect(p.breakdownLine).toBe('1,234 answers × 97 credits = 119,698 credits');
  });

  it('the breakdown labels name the part, the per-answer amount and the count', () => {
    const p = price({ ...base, rush: true, targeting: { countries: [], tags: ['student'] } });
    expect(p.breakdown.map((line) => line.label)).toEqual([
      'Head pay: 8 credits × 50 answers (single choice, tier 1)',
      'Headcount fee: 4 credits × 50 answers',
      'Targeting, 1 trait: 1 credit × 50 answers',
      'Rush: 6 credits × 50 answers',
    ]);
  });
});

describe('priceDraft: properties over valid drafts', () => {
  const countryCodes = ANSWERING_COUNTRIES.map((c) => c.code);
  const tagIds = TAG_GROUP_DATA.flatMap((group) => group.tags.map((tag) => tag.id));
  const inputArb: fc.Arbitrary<PriceInput> = fc.record({
    type: fc.constantFrom(...QUESTION_TYPES),
    n: fc.integer({ min: 10, max: 5000 }),
    tier: fc.constantFrom(1, 2, 3),
    rush: fc.boolean(),
    reason: fc.constantFrom(...REASON_MODES),
    maxTaps: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
    countries: fc.uniqueArray(fc.constantFrom(...countryCodes), { maxLength: 6 }),
    tags: fc.uniqueArray(fc.constantFrom(...tagIds), { maxLength: 20 }),
    ageBands: fc.option(fc.uniqueArray(fc.constantFrom(...AGE_BANDS), { maxLength: 6 }), { nil: undefined }),
    genders: fc.option(fc.uniqueArray(fc.constantFrom(...GENDERS), { maxLength: 3 }), { nil: undefined }),
    verifiedAge: fc.option(fc.boolean(), { nil: undefined }),
  });
  const runs = { numRuns: 500 };

  it('the breakdown values are "<n> credits" and add up to creditsTotal', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const p = priceDraft(input);
        expect(p.breakdown.reduce((sum, line) => sum + valueOf(line), 0)).toBe(p.creditsTotal);
      }),
      runs,
    );
  });

  it('creditsTotal is creditsPerAnswer × n, and creditsPerAnswer is the sum of its parts', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const p = priceDraft(input);
        expect(p.creditsTotal).toBe(p.creditsPerAnswer * input.n);
        expect(p.creditsPerAnswer).toBe(p.parts.pay + p.parts.fee + p.parts.targeting + p.parts.rush);
        expect(p.payPerAnswer).toBe(p.parts.pay);
        expect(p.breakdownLine).toMatch(new RegExp(`= ${p.creditsTotal.toLocaleString('en-GB')} credits$`));
      }),
      runs,
    );
  });

  it('every amount is a non-negative safe integer, and head pay and fee are at least 1 and 2', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const p = priceDraft(input);
        for (const value of [p.payPerAnswer, p.creditsPerAnswer, p.creditsTotal, p.traits, ...Object.values(p.parts)]) {
          expect(Number.isSafeInteger(value) && value >= 0, String(value)).toBe(true);
        }
        expect(p.parts.pay).toBeGreaterThanOrEqual(1);
        expect(p.parts.fee).toBeGreaterThanOrEqual(2);
      }),
      runs,
    );
  });

  it('is deterministic: the same input always gives the same price, and the input is not changed', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const copy = structuredClone(input);
        const first = priceDraft(input);
        expect(input).toEqual(copy);
        expect(priceDraft(copy)).toEqual(first);
        expect(priceDraft(input)).toEqual(first);
      }),
      runs,
    );
  });

  it('more never costs less: rush, a higher tier, more answers, one more tag', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const p = priceDraft(input);
        expect(priceDraft({ ...input, rush: true }).creditsPerAnswer).toBeGreaterThanOrEqual(p.creditsPerAnswer);
        if (input.tier < 3) expect(priceDraft({ ...input, tier: input.tier + 1 }).creditsPerAnswer).toBeGreaterThan(p.creditsPerAnswer);
        if (input.n < 5000) expect(priceDraft({ ...input, n: input.n + 1 }).creditsTotal).toBe(p.creditsTotal + p.creditsPerAnswer);
        const extra = tagIds.find((id) => !input.tags.includes(id));
        if (extra) {
          const more = priceDraft({ ...input, tags: [...input.tags, extra] });
          expect(more.traits).toBe(p.traits + 1);
          expect(more.creditsPerAnswer).toBe(p.creditsPerAnswer + 1);
        }
      }),
      runs,
    );
  });

  it('a list of countries costs what its best-paid country alone costs', () => {
    fc.assert(
      fc.property(inputArb.filter((input) => input.countries.length > 0), (input) => {
        const alone = input.countries.map((code) => priceDraft({ ...input, countries: [code] }).creditsPerAnswer);
        expect(priceDraft(input).creditsPerAnswer).toBe(Math.max(...alone));
      }),
      runs,
    );
  });
});
