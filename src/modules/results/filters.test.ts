import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { answerRow } from './answer-row.fixture.ts';
import { applyFilter, filterOf, matcher, MIN_CELL } from './filters.ts';

describe('filterOf: the query as the result echoes it', () => {
  it('normalises country case and a "+" that arrived as a space', () => {
    expect(filterOf({ country: 'gb', age_band: '65 ', q: 'Cheap', tier: 2, gender: 'woman' }, 'single_choice', ['A', 'B'])).toEqual({
      country: 'GB',
      ageBand: '65+',
      q: 'Cheap',
      tier: 2,
      gender: 'woman',
    });
    expect(filterOf({}, 'single_choice', ['A', 'B'])).toEqual({});
  });

  it('an option the question does not have is a 400', () => {
    expect(filterOf({ option: 1 }, 'single_choice', ['A', 'B'])).toEqual({ option: 1 });
    const outOfRange = (() => {
      try {
        filterOf({ option: 2 }, 'single_choice', ['A', 'B']);
      } catch (error) {
        return error as AppError;
      }
    })();
    expect(outOfRange).toMatchObject({ code: 'validation_failed', details: { validation: [{ field: 'option', code: 'out_of_range' }] } });
    expect(() => filterOf({ option: 0 }, 'free_text', [])).toThrow(AppError);
  });
});

describe('matcher', () => {
  it('option: chose it; multi choice: ticked it; ranking: ranked it first; pairwise: picked it', () => {
    expect(matcher({ option: 1 }, 'single_choice')(answerRow({ option: 1 }))).toBe(true);
    expect(matcher({ option: 1 }, 'single_choice')(answerRow({ option: 0 }))).toBe(false);
    expect(matcher({ option: 2 }, 'multi_choice')(answerRow({ options: [0, 2] }))).toBe(true);
    expect(matcher({ option: 1 }, 'multi_choice')(answerRow({ options: [0, 2] }))).toBe(false);
    expect(matcher({ option: 2 }, 'ranking')(answerRow({ order: [2, 0, 1] }))).toBe(true);
    expect(matcher({ option: 0 }, 'ranking')(answerRow({ order: [2, 0, 1] }))).toBe(false);
    expect(matcher({ option: 1 }, 'pairwise')(answerRow({ pair: [0, 1], option: 1 }))).toBe(true);
    expect(matcher({ option: 0 }, 'pairwise')(answerRow({ pair: [0, 1], option: 1 }))).toBe(false);
  });

  it('q: case-insensitive substring of the written answer or the reason', () => {
    const m = matcher({ q: 'CHEAP' }, 'single_choice');
    expect(m(answerRow({ reason: 'It looks cheaper' }))).toBe(true);
    expect(m(answerRow({ text: 'Cheap and cheerful' }))).toBe(true);
    expect(m(answerRow({ reason: 'Too expensive' }))).toBe(false);
    expect(m(answerRow({}))).toBe(false);
  });

  it('profile filters AND together; a link answer has no country', () => {
    const m = matcher({ tier: 2, country: 'GB', ageBand: '25-34', gender: 'man' }, 'single_choice');
    expect(m(answerRow({ tier: 2, country: 'GB', ageBand: '25-34', gender: 'man' }))).toBe(true);
    expect(m(answerRow({ tier: 1, country: 'GB', ageBand: '25-34', gender: 'man' }))).toBe(false);
    expect(matcher({ country: 'GB' }, 'single_choice')(answerRow({ profiled: false }))).toBe(false);
  });
});

describe('suppression (fewer than 5 in a country or age band shows none)', () => {
  const rows = [
    ...Array.from({ length: 4 }, () => answerRow({ country: 'IE', ageBand: '65+', option: 0 })),
    ...Array.from({ length: 5 }, () => answerRow({ country: 'GB', ageBand: '25-34', option: 1 })),
    ...Array.from({ length: 3 }, () => answerRow({ country: 'GB', ageBand: '25-34', tier: 2, option: 0 })),
  ];

  it(`${MIN_CELL - 1} answers from a country: none shown, suppressed`, () => {
    expect(applyFilter(rows, { country: 'IE' }, 'single_choice')).toEqual({ rows: [], suppressed: true });
    expect(applyFilter(rows, { ageBand: '65+' }, 'single_choice')).toEqual({ rows: [], suppressed: true });
  });

  it(`${MIN_CELL} or more: shown`, () => {
    const gb = applyFilter(rows, { country: 'GB' }, 'single_choice');
    expect(gb.suppressed).toBe(false);
    expect(gb.rows).toHaveLength(8);
  });

  it('the whole filter counts: a country narrowed below 5 by another filter is suppressed too', () => {
    expect(applyFilter(rows, { country: 'GB', tier: 2 }, 'single_choice')).toEqual({ rows: [], suppressed: true });
  });

  it('filters without a country or age band are never suppressed, however few match', () => {
    const tier2 = applyFilter(rows, { tier: 2 }, 'single_choice');
    expect(tier2).toMatchObject({ suppressed: false });
    expect(tier2.rows).toHaveLength(3);
    expect(applyFilter(rows, { q: 'nothing' }, 'single_choice')).toEqual({ rows: [], suppressed: false });
  });
});
