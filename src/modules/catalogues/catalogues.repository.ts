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

    async answersSince(since: Date): Promise<number> {
      const row = await db.selectFrom('answers').select(sql<number>`count(*)::int`.as('n')).where('answered_at', '>=', since).where('removed', '=', false).executeTakeFirstOrThrow();
      return row.n;
    },

    /** Minutes from going live to the 50th answer, for questions that reached 50 in the last 30 days. */
    async minutesTo50(since: Date): Promise<number | null> {
      const row = await sql<{ median: number | null }>`
        SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM a.answered_at - q.live_at) / 60.0) AS median
        FROM questions q
        JOIN LATERAL (SELECT answered_at FROM answers WHERE question_id = q.id AND removed = false ORDER BY seq OFFSET 49 LIMIT 1) a ON true
        WHERE q.live_at >= ${since} AND q.answered >= 50`.execute(db);
      return row.rows[0]?.median ?? null;
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
