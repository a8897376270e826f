import { findTag } from '../draft/tags.data.ts';

/**
 * Which heads a question reaches: country in the list (any when empty), tier at least the
 * question's, age band and gender in their lists, verified age when asked, and tags: any tag of a
 * group (OR inside a group), every targeted group (AND across groups); or, for an interest audience
 * (which replaces targeting, docs/audiences.md), members of the audience at `minGrade` or above. heads.repository.ts turns it
 * into one WHERE clause on `heads as h`, shared by the pool count, the simulator and the
 * answer-recording check.
 */
export interface Targeting {
  countries?: string[];
  tags?: string[];
  ageBands?: string[];
  genders?: string[];
  verifiedAge?: boolean;
  audience?: AudienceReach;
}

/** An audience asked at a lowest grade. */
export interface AudienceReach {
  id: string;
  minGrade: number;
}

/** Who a question row reaches: its draft's targeting, or its audience when it asks one. */
export function reachOf(targeting: Targeting, row: { audience_id: string | null; min_grade: number | null }): Targeting {
  return row.audience_id ? { ...targeting, audience: { id: row.audience_id, minGrade: row.min_grade ?? 1 } } : targeting;
}

/** The targeted tags by tag group: a head must carry one tag of every group. An unknown tag is a group of its own. */
export function targetedTagGroups(targeting: Targeting): string[][] {
  const groups = new Map<string, string[]>();
  for (const id of targeting.tags ?? []) {
    const group = findTag(id)?.group.id ?? `unknown:${id}`;
    groups.set(group, [...(groups.get(group) ?? []), id]);
  }
  return [...groups.values()];
}
