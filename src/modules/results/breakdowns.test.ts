import { describe, expect, it } from 'vitest';
import { answerRow } from './answer-row.fixture.ts';
import { breakdownsOf, facetsOf } from './breakdowns.ts';

/**
 * 14 answers to a two-option question:
 *   6 from GB (tier 1, 25-34, women, tag student), 4 of them chose A
 *   5 from US (tier 2, 35-44, men, tags student + pet_dog), 1 chose A
 *   1 from IE (tier 1, 25-34, woman): a country of 1, hidden
 *   2 link answers (no profile, tier 1)
 */
const rows = [
  ...Array.from({ length: 6 }, (_, i) => answerRow({ country: 'GB', tier: 1, ageBand: '25-34', gender: 'woman', tags: ['student'], option: i < 4 ? 0 : 1 })),
  ...Array.from({ length: 5 }, (_, i) => answerRow({ country: 'US', tier: 2, ageBand: '35-44', gender: 'man', tags: ['student', 'pet_dog'], option: i < 1 ? 0 : 1 })),
  answerRow({ country: 'IE', tier: 1, ageBand: '25-34', gender: 'woman', option: 0 }),
  answerRow({ profiled: false, tier: 1, option: 0 }),
  answerRow({ profiled: false, tier: 1, option: 1 }),
];

describe('breakdowns', () => {
  const result = breakdownsOf('single_choice', ['A', 'B'], rows);
  const dimension = (name: string) => result.breakdowns.find((b) => b.dimension === name)!.segments;

  it('every dimension, in a fixed order', () => {
    expect(result.breakdowns.map((b) => b.dimension)).toEqual(['country', 'tier', 'age_band', 'gender', 'tag']);
  });

  it('country segments are labelled with names; under 5 answers (IE: 1) dropped and suppressed', () => {
    expect(dimension('country').map((s) => [s.label, s.n])).toEqual([['United Kingdom', 6], ['United States', 5]]);
    expect(result.suppressed).toBe(true);
    // GB: A 4 of 6, B 2 of 6
    expect(dimension('country')[0].distribution.map((d) => [d.option, d.count, d.share])).toEqual([['A', 4, 4 / 6], ['B', 2, 2 / 6]]);
  });

  it('link answers are in no segment, tier included', () => {
    // tier 1: 6 GB + 1 IE = 7 panel answers (the 2 link answers are not counted); tier 2: 5.
    expect(dimension('tier').map((s) => [s.label, s.n])).toEqual([['Tier 1', 7], ['Tier 2', 5]]);
    expect(dimension('age_band').map((s) => [s.label, s.n])).toEqual([['25-34', 7], ['35-44', 5]]);
    expect(dimension('gender').map((s) => [s.label, s.n])).toEqual([['Woman', 7], ['Man', 5]]);
  });

  it('an answer is in every tag segment it has; tag segments are also listed as breakdown[]', () => {
    expect(dimension('tag').map((s) => [s.label, s.n])).toEqual([['Student', 11], ['Has a dog', 5]]);
    expect(result.breakdown.map((b) => [b.tagId, b.n])).toEqual([['student', 11], ['pet_dog', 5]]);
  });

  it('no answers: empty segments, nothing suppressed', () => {
    const empty = breakdownsOf('single_choice', ['A', 'B'], []);
    expect(empty.suppressed).toBe(false);
    expect(empty.breakdowns.every((b) => b.segments.length === 0)).toBe(true);
  });
});

describe('facets', () => {
  it('count what each filter value would match (link answers in tier 1, in no country)', () => {
    expect(facetsOf(rows)).toEqual({
      tiers: [{ tier: 1, n: 9 }, { tier: 2, n: 5 }],
      countries: [{ code: 'GB', label: 'United Kingdom', n: 6 }, { code: 'US', label: 'United States', n: 5 }, { code: 'IE', label: 'Ireland', n: 1 }],
      ageBands: [{ band: '25-34', n: 7 }, { band: '35-44', n: 5 }],
      genders: [{ gender: 'woman', n: 7 }, { gender: 'man', n: 5 }],
    });
  });
});
