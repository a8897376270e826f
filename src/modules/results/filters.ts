import { validationError } from '../../lib/errors.ts';
import type { Gender, QuestionType } from '../draft/question-types.ts';
import type { AnswerRow } from './results.repository.ts';

/**
 * Result and answer filters (spec GET /v2/questions/{id}/result and /answers; docs/results.md
 * "Filters"). All given filters must match (AND):
 *
 * - option (index 0–8 into the question's choices, "Neither" last): answers that chose it; for
 *   multi choice that ticked it; for ranking that ranked it first; for pairwise that picked it.
 *   An index the question does not have, or any option on free text and click tests, is a 400.
 * - tier, country (two letters, any case), age_band (`25-34`, `65+`; a bare `+` in a URL arrives
 *   as a space and is read as `+`), gender: the answer's profile. Link answers count as tier 1
 *   and have no country, age band or gender.
 * - q (1–100 characters): case-insensitive substring of the written answer or the reason
 *   (translations do not exist yet).
 *
 * Suppression (spec Limits "result filter suppression"): when a country or age band filter is
 * given and fewer than MIN_CELL answers match the whole filter, nothing is shown.
 */
export const MIN_CELL = 5;

/** The query as the routes receive it (snake_case like the spec). */
export interface ResultQuery {
  option?: number;
  tier?: number;
  country?: string;
  age_band?: string;
  gender?: Gender;
  q?: string;
}

/** The filter as a result echoes it (spec Result.filter). */
export interface ResultFilter {
  option?: number;
  tier?: number;
  country?: string;
  ageBand?: string;
  gender?: Gender;
  q?: string;
}

export function filterOf(query: ResultQuery, type: QuestionType, labels: readonly string[]): ResultFilter {
  const filter: ResultFilter = {};
  if (query.option !== undefined) {
    if (labels.length === 0) {
      throw validationError([{ field: 'option', code: 'not_allowed', message: `A ${type.replace(/_/g, ' ')} question has no options to filter by.` }]);
    }
    if (query.option >= labels.length) {
      throw validationError([{ field: 'option', code: 'out_of_range', message: `option must be 0 to ${labels.length - 1} for this question.` }]);
    }
    filter.option = query.option;
  }
  if (query.tier !== undefined) filter.tier = query.tier;
  if (query.country !== undefined) filter.country = query.country.toUpperCase();
  if (query.age_band !== undefined) filter.ageBand = query.age_band.replace(/ $/, '+');
  if (query.gender !== undefined) filter.gender = query.gender;
  if (query.q !== undefined) filter.q = query.q;
  return filter;
}

export function isFiltered(filter: ResultFilter): boolean {
  return Object.keys(filter).length > 0;
}

/** A stable key of a filter, for caching filtered views. */
export function filterKey(filter: ResultFilter): string {
  return JSON.stringify([filter.option, filter.tier, filter.country, filter.ageBand, filter.gender, filter.q]);
}

function chose(type: QuestionType, row: AnswerRow, option: number): boolean {
  switch (type) {
    case 'multi_choice':
      return row.options?.includes(option) ?? false;
    case 'ranking':
      return row.order?.[0] === option;
    default:
      return row.option === option;
  }
}

export function matcher(filter: ResultFilter, type: QuestionType): (row: AnswerRow) => boolean {
  const q = filter.q?.toLowerCase();
  return (row) =>
    (filter.option === undefined || chose(type, row, filter.option)) &&
    (filter.tier === undefined || row.tier === filter.tier) &&
    (filter.country === undefined || row.country === filter.country) &&
    (filter.ageBand === undefined || row.ageBand === filter.ageBand) &&
    (filter.gender === undefined || row.gender === filter.gender) &&
    (q === undefined || row.search.some((text) => text.includes(q)));
}

/** The answers a filter lets through, or none when the small-cell rule suppresses them. */
export function applyFilter(rows: readonly AnswerRow[], filter: ResultFilter, type: QuestionType): { rows: AnswerRow[]; suppressed: boolean } {
  const matching = isFiltered(filter) ? rows.filter(matcher(filter, type)) : rows.slice();
  const guarded = filter.country !== undefined || filter.ageBand !== undefined;
  if (guarded && matching.length < MIN_CELL) return { rows: [], suppressed: true };
  return { rows: matching, suppressed: false };
}
