import { sql, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DB, HeadsTable, QuestionsTable } from '../../db/schema.ts';
import { targetedTagGroups, type Targeting } from './targeting.ts';

/** A head as the panel seed makes it: every column of the row. */
export type SeededHead = Selectable<HeadsTable>;

/** A live question as the simulator reads it; `draft` is read with storedDraft (draft/stored-draft.ts). */
export type SimulatedQuestionRow = Pick<Selectable<QuestionsTable>, 'id' | 'draft' | 'n' | 'answered' | 'tier' | 'parent_id' | 'variant_group' | 'audience_id' | 'min_grade'>;

/** What a head brings to an answer: its profile (answers store it, results filter and break down by it). */
export type HeadProfile = Pick<Selectable<HeadsTable>, 'tier' | 'country' | 'age_band' | 'gender' | 'tags'> & {
  /** The head's grade in the question's audience; null when the question asks none. */
  grade: number | null;
};

/**
 * Which heads a question reaches (targeting.ts), as one WHERE clause on `heads as h`: shared by the
 * pool count (pool.repository.ts), the simulator's choice of heads and the answer-recording check,
 * so the three never disagree. `tier` null: any tier (a follow-up goes to whoever answered its parent).
 */
export function applyTargeting<O>(query: SelectQueryBuilder<DB & { h: DB['heads'] }, 'h', O>, targeting: Targeting, tier: number | null) {
  let q = query;
  if (tier !== null) q = q.where('h.tier', '>=', tier);
  if (targeting.countries?.length) q = q.where('h.country', 'in', targeting.countries);
  if (targeting.ageBands?.length) q = q.where('h.age_band', 'in', targeting.ageBands);
  if (targeting.genders?.length) q = q.where('h.gender', 'in', targeting.genders);
  if (targeting.verifiedAge) q = q.where('h.verified_age', '=', true);
  for (const tags of targetedTagGroups(targeting)) q = q.where(sql<boolean>`h.tags && ${sql.val(tags)}::text[]`);
  const audience = targeting.audience;
  if (audience) {
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('audience_members as m')
          .select(sql`1`.as('one'))
          .whereRef('m.head_id', '=', 'h.id')
          .where('m.audience_id', '=', audience.id)
          .where('m.grade', '>=', audience.minGrade),
      ),
    );
  }
  return q;
}

/** A head's grade in the audience a question asks (null without one): answers keep it, results break down by it. */
function gradeIn(audience: Targeting['audience']) {
  return audience
    ? sql<number | null>`(SELECT m.grade FROM audience_members m WHERE m.head_id = h.id AND m.audience_id = ${audience.id})`
    : sql<number | null>`NULL::smallint`;
}

/** SQL of the panel's heads: the seed, the simulator's reads and writes, and the recorder's targeting check. */
export function createHeadsRepository(db: Db) {
  return {
    /**
     * Claims a one-time marker (system_markers): true for the first caller only. Written in the
     * transaction that does the one-time work, so a second process starting at the same time
     * waits for the first and then finds it claimed.
     */
    async claimMarker(name: string, tx: Db = db): Promise<boolean> {
      const claimed = await tx.insertInto('system_markers').values({ name }).onConflict((oc) => oc.doNothing()).returning('name').executeTakeFirst();
      return claimed !== undefined;
    },

    /** Inserts heads in one statement (the caller keeps batches to a size PostgreSQL takes in one go). */
    async insertHeads(heads: SeededHead[], tx: Db = db): Promise<void> {
      await tx
        .insertInto('heads')
        .values(heads.map((h) => ({ ...h, tags: sql<string[]>`${sql.val(h.tags)}::text[]` })))
        .execute();
    },

    /**
     * The head `headId` if it exists and the targeting and tier reach it, with the profile an
     * answer stores (the recorder takes a panel head's profile from here, never from the caller).
     */
    async findTargeted(headId: string, targeting: Targeting, tier: number | null, tx: Db = db): Promise<HeadProfile | undefined> {
      return applyTargeting(
        tx.selectFrom('heads as h').select(['h.tier', 'h.country', 'h.age_band', 'h.gender', 'h.tags', gradeIn(targeting.audience).as('grade')]).where('h.id', '=', headId),
        targeting,
        tier,
      ).executeTakeFirst();
    },

    /** Live questions simulated heads may answer, oldest first. */
    async liveQuestionsToSimulate(now: Date, tx: Db = db): Promise<SimulatedQuestionRow[]> {
      return tx
        .selectFrom('questions')
        .select(['id', 'draft', 'n', 'answered', 'tier', 'parent_id', 'variant_group', 'audience_id', 'min_grade'])
        .where('status', '=', 'live')
        // Private questions are answered through their link only.
        .where('private', '=', false)
        .where(sql<boolean>`answered < n`)
        // Past its window the expiry job closes it; do not slip answers in before that.
        .where((eb) => eb.or([eb('closes_at', 'is', null), eb('closes_at', '>', now)]))
        .orderBy('seq')
        .execute();
    },

    /**
     * Simulated heads who may answer question `questionId`, in an order fixed by `salt`, at most
     * `limit`. Reached by `targeting` and `tier` (see applyTargeting); then what the recorder checks
     * (answer-recording.service.ts `eligible`): not answered yet, for a follow-up (`parentId`) only
     * heads who answered its parent, and one question per head in the variant group `group`.
     */
    async simulatedCandidates(
      c: { questionId: string; parentId: string | null; group: string; targeting: Targeting; tier: number | null; salt: number; limit: number },
      tx: Db = db,
    ): Promise<Array<HeadProfile & { id: string }>> {
      let query = applyTargeting(
        tx.selectFrom('heads as h').select(['h.id', 'h.tier', 'h.country', 'h.age_band', 'h.gender', 'h.tags', gradeIn(c.targeting.audience).as('grade')]).where('h.simulated', '=', true),
        c.targeting,
        c.tier,
      );
      query = query.where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('answers as a').select(sql`1`.as('one')).whereRef('a.head_id', '=', 'h.id').where('a.question_id', '=', c.questionId))),
      );
      if (c.parentId) {
        const parentId = c.parentId;
        query = query.where(({ exists, selectFrom }) =>
          exists(selectFrom('answers as p').select(sql`1`.as('one')).whereRef('p.head_id', '=', 'h.id').where('p.question_id', '=', parentId)),
        );
      }
      query = query.where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('answers as va')
              .innerJoin('questions as g', 'g.id', 'va.question_id')
              .select(sql`1`.as('one'))
              .whereRef('va.head_id', '=', 'h.id')
              .where('g.id', '<>', c.questionId)
              .where((eb) => eb.or([eb('g.id', '=', c.group), eb('g.variant_group', '=', c.group)])),
          ),
        ),
      );
      // Head ids are random per database: order by what the panel seed determines (creation time
      // and profile), salted per draw, so one seed gives the same heads on every database.
      return query
        .orderBy(sql`md5(${String(c.salt)} || ':' || extract(epoch from h.created_at)::text || h.country || h.age_band || h.gender || h.tier::text)`)
        .orderBy('h.id')
        .limit(c.limit)
        .execute();
    },

    /** Marks heads as seen at `at` (the pool's "active in the last 24 hours" counts them). */
    async markSeen(headIds: string[], at: Date, tx: Db = db): Promise<void> {
      await tx.updateTable('heads').set({ last_seen_at: at }).where('id', 'in', headIds).execute();
    },
  };
}
export type HeadsRepository = ReturnType<typeof createHeadsRepository>;
