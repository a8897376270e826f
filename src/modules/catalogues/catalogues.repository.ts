import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** Counts over the panel for the public catalogues and stats. */
export function createCataloguesRepository(db: Db) {
  return {
    /** Heads per country and tier. */
    async headsByCountryAndTier(): Promise<Array<{ country: string; tier: number; heads: number }>> {
      return db
        .selectFrom('heads')
        .select(['country', 'tier', sql<number>`count(*)::int`.as('heads')])
        .groupBy(['country', 'tier'])
        .execute();
    },

    async headsSeenSince(since: Date): Promise<number> {
      const row = await db.selectFrom('heads').select(sql<number>`count(*)::int`.as('n')).where('last_seen_at', '>=', since).executeTakeFirstOrThrow();
      return row.n;
    },

    async panelActivity(since: Date): Promise<{ size: number; active: number }> {
      const row = await db
        .selectFrom('heads')
        .select([sql<number>`count(*)::int`.as('size'), sql<number>`count(*) FILTER (WHERE last_seen_at >= ${since})::int`.as('active')])
        .executeTakeFirstOrThrow();
      return row;
    },
  };
}
export type CataloguesRepository = ReturnType<typeof createCataloguesRepository>;
