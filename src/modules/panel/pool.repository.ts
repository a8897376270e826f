import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { findTag } from '../catalogues/tags.data.ts';

export interface PoolQuery {
  countries: string[];
  tags: string[];
  ageBands?: string[];
  genders?: string[];
  verifiedAge?: boolean;
  tier: number;
}

export interface PoolCount {
  /** Heads matching the targeting. */
  size: number;
  /** Of those, heads seen in the last 24 hours: the ones likely to answer soon. */
  active: number;
}

/**
 * Which heads a question can reach: country in the list (any when empty), tier at least the
 * question's, age band and gender in their lists, verified age when asked, and for tags: any tag
 * of a group (OR inside a group), every group targeted (AND across groups).
 */
export function createPoolRepository(db: Db) {
  return {
    async count(query: PoolQuery, now: Date): Promise<PoolCount> {
      const groups = new Map<string, string[]>();
      for (const id of query.tags) {
        const group = findTag(id)?.group.id ?? `unknown:${id}`;
        groups.set(group, [...(groups.get(group) ?? []), id]);
      }
      let q = db.selectFrom('heads').where('tier', '>=', query.tier);
      if (query.countries.length) q = q.where('country', 'in', query.countries);
      if (query.ageBands?.length) q = q.where('age_band', 'in', query.ageBands);
      if (query.genders?.length) q = q.where('gender', 'in', query.genders);
      if (query.verifiedAge) q = q.where('verified_age', '=', true);
      for (const tags of groups.values()) q = q.where(sql<boolean>`tags && ${sql.val(tags)}::text[]`);
      const since = new Date(now.getTime() - 86_400_000);
      const row = await q
        .select([
          sql<number>`count(*)::int`.as('size'),
          sql<number>`count(*) FILTER (WHERE last_seen_at >= ${since})::int`.as('active'),
        ])
        .executeTakeFirstOrThrow();
      return { size: row.size, active: row.active };
    },
  };
}
export type PoolRepository = ReturnType<typeof createPoolRepository>;
