import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { applyTargeting } from './heads.repository.ts';
import { addDays } from '../../lib/dates.ts';
import type { AudienceReach } from './targeting.ts';

export interface PoolQuery {
  countries: string[];
  tags: string[];
  ageBands?: string[];
  genders?: string[];
  verifiedAge?: boolean;
  /** An interest audience replaces the targeting above (docs/audiences.md). */
  audience?: AudienceReach;
  tier: number;
}

export interface PoolCount {
  /** Heads matching the targeting. */
  size: number;
  /** Of those, heads seen in the last 24 hours: the ones likely to answer soon. */
  active: number;
}

/** How many heads a question can reach (targeting.ts says which; heads.repository.ts `applyTargeting` asks). */
export function createPoolRepository(db: Db) {
  return {
    async count(query: PoolQuery, now: Date): Promise<PoolCount> {
      const q = applyTargeting(db.selectFrom('heads as h'), query, query.tier);
      const since = addDays(now, -1);
      const row = await q
        .select([
          sql<number>`count(*)::int`.as('size'),
          sql<number>`count(*) FILTER (WHERE h.last_seen_at >= ${since})::int`.as('active'),
        ])
        .executeTakeFirstOrThrow();
      return { size: row.size, active: row.active };
    },
  };
}
export type PoolRepository = ReturnType<typeof createPoolRepository>;
