import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { AudiencesTable } from '../../db/schema.ts';

export type AudienceRow = Selectable<AudiencesTable>;
export type NewAudienceRow = Insertable<AudiencesTable>;

/** Members of one audience by grade: index 0 is grade 1. */
export type GradeCounts = number[];

/** SQL of interest audiences, their sponsors and their members (docs/audiences.md). */
export function createAudiencesRepository(db: Db) {
  /** Audiences visible to `accountId` (null: nobody's private ones): public ones, and private ones it sponsors. */
  function visibleTo(accountId: string | null, tx: Db) {
    return tx.selectFrom('audiences as a').selectAll('a').where((eb) =>
      accountId === null
        ? eb('a.private', '=', false)
        : eb.or([
            eb('a.private', '=', false),
            eb.exists(eb.selectFrom('audience_sponsors as s').select(sql`1`.as('one')).whereRef('s.audience_id', '=', 'a.id').where('s.account_id', '=', accountId)),
          ]),
    );
  }

  return {
    /** Public audiences open to asking (the service orders them by name). */
    async listPublicOpen(tx: Db = db): Promise<AudienceRow[]> {
      return visibleTo(null, tx).where('a.status', '=', 'open').execute();
    },

    /** Private open audiences that `accountId` sponsors. */
    async listSponsoredOpen(accountId: string, tx: Db = db): Promise<AudienceRow[]> {
      return tx
        .selectFrom('audiences as a')
        .innerJoin('audience_sponsors as s', 's.audience_id', 'a.id')
        .selectAll('a')
        .where('s.account_id', '=', accountId)
        .where('a.private', '=', true)
        .where('a.status', '=', 'open')
        .execute();
    },

    /** One audience by slug or id, if `accountId` may see it (a draft is seen by nobody through the API). */
    async findVisible(ref: string, accountId: string | null, tx: Db = db): Promise<AudienceRow | undefined> {
      return visibleTo(accountId, tx)
        .where((eb) => eb.or([eb('a.slug', '=', ref), eb('a.id', '=', ref)]))
        .where('a.status', '<>', 'draft')
        .executeTakeFirst();
    },

    /** One audience by slug or id, whatever its status and privacy (admin). */
    async find(ref: string, tx: Db = db): Promise<AudienceRow | undefined> {
      return tx.selectFrom('audiences').selectAll().where((eb) => eb.or([eb('slug', '=', ref), eb('id', '=', ref)])).executeTakeFirst();
    },

    /** Every audience, for the admin list. */
    async listAll(tx: Db = db): Promise<AudienceRow[]> {
      return tx.selectFrom('audiences').selectAll().orderBy('slug').execute();
    },

    /** Members per grade of each audience, in one query: `ids` → [grade 1 count, grade 2 count, …]. */
    async gradeCounts(ids: string[], tx: Db = db): Promise<Map<string, GradeCounts>> {
      const counts = new Map<string, GradeCounts>();
      if (ids.length === 0) return counts;
      const rows = await tx
        .selectFrom('audience_members')
        .select(['audience_id', 'grade', sql<number>`count(*)::int`.as('members')])
        .where('audience_id', 'in', ids)
        .groupBy(['audience_id', 'grade'])
        .execute();
      for (const row of rows) {
        const list = counts.get(row.audience_id) ?? [0, 0, 0, 0, 0];
        list[row.grade - 1] = row.members;
        counts.set(row.audience_id, list);
      }
      return counts;
    },

    async insert(row: NewAudienceRow, tx: Db = db): Promise<AudienceRow> {
      return tx.insertInto('audiences').values(row).returningAll().executeTakeFirstOrThrow();
    },

    async setStatus(id: string, status: string, at: Date, tx: Db = db): Promise<AudienceRow> {
      return tx.updateTable('audiences').set({ status, updated_at: at }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    },

    /** Adds a sponsor; false when it sponsored the audience already. */
    async addSponsor(audienceId: string, accountId: string, at: Date, tx: Db = db): Promise<boolean> {
      const row = await tx
        .insertInto('audience_sponsors')
        .values({ audience_id: audienceId, account_id: accountId, created_at: at })
        .onConflict((oc) => oc.doNothing())
        .returning('account_id')
        .executeTakeFirst();
      return row !== undefined;
    },

    async removeSponsor(audienceId: string, accountId: string, tx: Db = db): Promise<boolean> {
      const result = await tx.deleteFrom('audience_sponsors').where('audience_id', '=', audienceId).where('account_id', '=', accountId).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async sponsors(audienceId: string, tx: Db = db): Promise<string[]> {
      const rows = await tx.selectFrom('audience_sponsors').select('account_id').where('audience_id', '=', audienceId).orderBy('created_at').execute();
      return rows.map((r) => r.account_id);
    },

    /** Sets a head's grade (joining it to the audience if needed); the previous grade, null if it was not a member. */
    async setGrade(audienceId: string, headId: string, grade: number, at: Date, tx: Db = db): Promise<number | null> {
      const before = await tx.selectFrom('audience_members').select('grade').where('audience_id', '=', audienceId).where('head_id', '=', headId).forUpdate().executeTakeFirst();
      await tx
        .insertInto('audience_members')
        .values({ audience_id: audienceId, head_id: headId, grade, graded_at: at })
        .onConflict((oc) => oc.columns(['audience_id', 'head_id']).doUpdateSet({ grade, graded_at: at }))
        .execute();
      return before?.grade ?? null;
    },

    /** Inserts many memberships at once (the development seed). */
    async insertMembers(rows: Array<{ audience_id: string; head_id: string; grade: number; graded_at: Date }>, tx: Db = db): Promise<void> {
      if (rows.length) await tx.insertInto('audience_members').values(rows).onConflict((oc) => oc.doNothing()).execute();
    },

    async removeMember(audienceId: string, headId: string, tx: Db = db): Promise<boolean> {
      const result = await tx.deleteFrom('audience_members').where('audience_id', '=', audienceId).where('head_id', '=', headId).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /** Whether the head exists (grading a member names one). */
    async headExists(headId: string, tx: Db = db): Promise<boolean> {
      return (await tx.selectFrom('heads').select('id').where('id', '=', headId).executeTakeFirst()) !== undefined;
    },

    /** Stamps the audience's tags on a head (membership proves them; tags already there stay once). */
    async stampTags(headIds: string[], tags: string[], tx: Db = db): Promise<void> {
      if (headIds.length === 0 || tags.length === 0) return;
      await tx
        .updateTable('heads')
        .set({ tags: sql<string[]>`ARRAY(SELECT DISTINCT t FROM unnest(tags || ${sql.val(tags)}::text[]) AS t ORDER BY t)` })
        .where('id', 'in', headIds)
        .execute();
    },

    /** Simulated heads, for the development seed to draw members from: id, country, language and tags. */
    async simulatedHeads(tx: Db = db): Promise<Array<{ id: string; country: string; language: string; tags: string[]; created_at: Date }>> {
      return tx.selectFrom('heads').select(['id', 'country', 'language', 'tags', 'created_at']).where('simulated', '=', true).orderBy('created_at').orderBy('id').execute();
    },
  };
}
export type AudiencesRepository = ReturnType<typeof createAudiencesRepository>;
