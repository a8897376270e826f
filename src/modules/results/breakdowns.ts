import { AGE_BANDS, GENDERS, type Gender, type QuestionType } from '../draft/question-types.ts';
import { countryName } from '../draft/countries.data.ts';
import { findTag } from '../draft/tags.data.ts';
import { distributionOf, type DistributionItem } from './distribution.ts';
import { MIN_CELL } from './filters.ts';
import type { AnswerRow } from './results.repository.ts';
import { BREAKDOWN_DIMENSIONS } from './results.schemas.ts';

/**
 * Breakdowns and facets (docs/results.md "Breakdowns"). A breakdown splits the answers by one
 * profile dimension (country, tier, age band, gender, tag; and grade for a question asked of an
 * interest audience, docs/audiences.md) and gives each segment its own
 * distribution. Only panel answers have a profile: link answers (no head) appear in no segment
 * of any dimension, tier included (their tier 1 is a price convention, not a verified profile).
 * An answer with several tags is in several tag segments.
 *
 * Small cells (spec Limits): country and age band segments of fewer than MIN_CELL answers are
 * dropped, and the result says `suppressed: true`.
 *
 * Facets count every answer by the values a filter can take (what `?tier=1` would match: link
 * answers are in tier 1 there), so a client can offer the filters with their sizes.
 */
export const DIMENSIONS = BREAKDOWN_DIMENSIONS;
export type Dimension = (typeof DIMENSIONS)[number];
/** Dimensions of every result; `grade` is added only for an audience's question. */
const PROFILE_DIMENSIONS = DIMENSIONS.filter((d) => d !== 'grade');

export interface Segment {
  label: string;
  n: number;
  distribution: DistributionItem[];
}

export interface Breakdowns {
  breakdowns: Array<{ dimension: Dimension; segments: Segment[] }>;
  /** The tag breakdown in the spec's list form. */
  breakdown: Array<{ tagId: string; label: string; n: number; distribution: DistributionItem[] }>;
  /** A country or age band segment was dropped for having too few answers. */
  suppressed: boolean;
}

export interface Facets {
  tiers: Array<{ tier: number; n: number }>;
  countries: Array<{ code: string; label: string; n: number }>;
  ageBands: Array<{ band: string; n: number }>;
  genders: Array<{ gender: Gender; n: number }>;
}

const GENDER_LABELS: Record<string, string> = { woman: 'Woman', man: 'Man', non_binary: 'Non-binary' };
const SMALL_CELLS_HIDDEN: ReadonlySet<Dimension> = new Set(['country', 'age_band']);

function keysOf(row: AnswerRow, dimension: Dimension): readonly string[] {
  switch (dimension) {
    case 'country':
      return row.country ? [row.country] : [];
    case 'tier':
      return [String(row.tier)];
    case 'age_band':
      return row.ageBand ? [row.ageBand] : [];
    case 'gender':
      return row.gender ? [row.gender] : [];
    case 'tag':
      return row.tags;
    case 'grade':
      return row.grade !== null ? [String(row.grade)] : [];
  }
}

function labelOf(dimension: Dimension, key: string): string {
  switch (dimension) {
    case 'country':
      return countryName(key);
    case 'tier':
      return `Tier ${key}`;
    case 'grade':
      return `Grade ${key}`;
    case 'gender':
      return GENDER_LABELS[key] ?? key;
    case 'tag':
      return findTag(key)?.label ?? key;
    default:
      return key;
  }
}

/** A value's place in a fixed list of values (a band or gender stored as text). */
const placeIn = (values: readonly string[], value: string): number => values.indexOf(value);

/** Fixed orders where the dimension has one; otherwise largest first, then by label. */
function order(dimension: Dimension): ((a: string, b: string) => number) | null {
  if (dimension === 'tier' || dimension === 'grade') return (a, b) => Number(a) - Number(b);
  if (dimension === 'age_band') return (a, b) => placeIn(AGE_BANDS, a) - placeIn(AGE_BANDS, b);
  if (dimension === 'gender') return (a, b) => placeIn(GENDERS, a) - placeIn(GENDERS, b);
  return null;
}

function group(rows: readonly AnswerRow[], dimension: Dimension): Map<string, AnswerRow[]> {
  const groups = new Map<string, AnswerRow[]>();
  for (const row of rows) {
    for (const key of keysOf(row, dimension)) {
      let list = groups.get(key);
      if (!list) groups.set(key, (list = []));
      list.push(row);
    }
  }
  return groups;
}

function sortedKeys(groups: Map<string, AnswerRow[]>, dimension: Dimension): string[] {
  const fixed = order(dimension);
  return [...groups.keys()].sort(
    fixed ?? ((a, b) => groups.get(b)!.length - groups.get(a)!.length || labelOf(dimension, a).localeCompare(labelOf(dimension, b))),
  );
}

export function breakdownsOf(type: QuestionType, labels: readonly string[], rows: readonly AnswerRow[], graded = false): Breakdowns {
  const profiled = rows.filter((row) => row.profiled);
  let suppressed = false;
  const result: Breakdowns = { breakdowns: [], breakdown: [], suppressed: false };
  for (const dimension of graded ? DIMENSIONS : PROFILE_DIMENSIONS) {
    const groups = group(profiled, dimension);
    const segments: Segment[] = [];
    for (const key of sortedKeys(groups, dimension)) {
      const members = groups.get(key)!;
      if (SMALL_CELLS_HIDDEN.has(dimension) && members.length < MIN_CELL) {
        suppressed = true;
        continue;
      }
      const segment = { label: labelOf(dimension, key), n: members.length, distribution: distributionOf(type, labels, members).items };
      segments.push(segment);
      if (dimension === 'tag') result.breakdown.push({ tagId: key, ...segment });
    }
    result.breakdowns.push({ dimension, segments });
  }
  result.suppressed = suppressed;
  return result;
}

export function facetsOf(rows: readonly AnswerRow[]): Facets {
  const count = (dimension: Dimension) => {
    const groups = group(rows, dimension);
    return sortedKeys(groups, dimension).map((key) => ({ key, n: groups.get(key)!.length }));
  };
  return {
    tiers: count('tier').map(({ key, n }) => ({ tier: Number(key), n })),
    countries: count('country').map(({ key, n }) => ({ code: key, label: countryName(key), n })),
    ageBands: count('age_band').map(({ key, n }) => ({ band: key, n })),
    genders: count('gender').map(({ key, n }) => ({ gender: key as Gender, n })),
  };
}
