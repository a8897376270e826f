import { sql, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { findTag } from '../draft/tags.data.ts';

/**
 * Which heads a question reaches, as one WHERE clause on `heads as h` shared by the pool count,
 * the simulator and the answer-recording check: country in the list (any when empty), tier at
 * least the question's, age band and gender in their lists, verified age when asked, and tags:
 * any tag of a group (OR inside a group), every targeted group (AND across groups).
 */
export interface Targeting {
  countries?: string[];
  tags?: string[];
  ageBands?: string[];
  genders?: string[];
  verifiedAge?: boolean;
}

export function applyTargeting<O>(query: SelectQueryBuilder<DB & { h: DB['heads'] }, 'h', O>, targeting: Targeting, tier: number | null) {
  const groups = new Map<string, string[]>();
  for (const id of targeting.tags ?? []) {
    const group = findTag(id)?.group.id ?? `unknown:${id}`;
    groups.set(group, [...(groups.get(group) ?? []), id]);
  }
  let q = query;
  if (tier !== null) q = q.where('h.tier', '>=', tier);
  if (targeting.countries?.length) q = q.where('h.country', 'in', targeting.countries);
  if (targeting.ageBands?.length) q = q.where('h.age_band', 'in', targeting.ageBands);
  if (targeting.genders?.length) q = q.where('h.gender', 'in', targeting.genders);
  if (targeting.verifiedAge) q = q.where('h.verified_age', '=', true);
  for (const tags of groups.values()) q = q.where(sql<boolean>`h.tags && ${sql.val(tags)}::text[]`);
  return q;
}
