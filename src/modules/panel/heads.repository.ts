import { sql, type RawBuilder, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import { compilable, type Statement } from '../../db/one-round-trip.ts';
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

/** Whether head `h` answered question `question` (an id, or a column of the query). */
function answeredBy(question: string | RawBuilder<string | null>) {
  return sql<boolean>`EXISTS (SELECT 1 FROM answers a WHERE a.question_id = ${question} AND a.head_id = h.id)`;
}

/**
 * Whether head `h` answered another question than `question` of the variant group `group` (the
 * group's first question has the group's id; the others carry it as `variant_group`): variants go
 * to disjoint heads.
 */
function answeredOtherVariant(question: string | RawBuilder<string>, group: string | RawBuilder<string>) {
  return sql<boolean>`EXISTS (SELECT 1 FROM answers va JOIN questions g ON g.id = va.question_id
    WHERE va.head_id = h.id AND g.id <> ${question} AND (g.id = ${group} OR g.variant_group = ${group}))`;
}

/** Panel heads about to answer a question, with what reaches them (answeringHeads). */
export interface HeadsAnswering {
  questionId: string;
  targeting: Targeting;
  tier: number | null;
  headIds: string[];
}

/** A head the question reaches, with its profile and what decides whether its answer counts. */
export type AnsweringHead = HeadProfile & {
  question_id: string;
  id: string;
  answered: boolean;
  answered_parent: boolean;
  answered_other_variant: boolean;
};

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

    /** Undoes a claim in the same transaction, when the one-time work found nothing to do yet. */
    async releaseMarker(name: string, tx: Db = db): Promise<void> {
      await tx.deleteFrom('system_markers').where('name', '=', name).execute();
    },

    /** Inserts heads in one statement (the caller keeps batches to a size PostgreSQL takes in one go). */
    async insertHeads(heads: SeededHead[], tx: Db = db): Promise<void> {
      await tx
        .insertInto('heads')
        .values(heads.map((h) => ({ ...h, tags: sql<string[]>`${sql.val(h.tags)}::text[]` })))
        .execute();
    },

    /**
     * For each question, the heads of its list that exist and that its reach (targeting and tier;
     * a follow-up: any head) includes, with the profile an answer stores (the recorder takes a panel
     * head's profile from here, never from the caller) and whether the head answered the question,
     * its parent (true without one), or another question of its variant group. One statement for
     * every question of a batch of answers; `asks` not empty. A Statement, run with the batch's
     * first reads in one round trip when the questions' reach is known before their lock
     * (answer-recording.service.ts, db/one-round-trip.ts).
     */
    answeringHeads(asks: readonly HeadsAnswering[]): Statement<AnsweringHead> {
      // One part per distinct reach (usually one for a whole batch): a part's questions and heads
      // go as pairs, so the statement's text, and the time PostgreSQL takes to plan it, does not
      // grow with the number of questions. Raw SQL around Kysely's targeting clause: the pairs
      // are a function in FROM, which the query builder does not type.
      const parts = new Map<string, { targeting: Targeting; tier: number | null; questionIds: string[]; headIds: string[] }>();
      for (const ask of asks) {
        const reach = JSON.stringify([ask.targeting, ask.tier]);
        const part = parts.get(reach) ?? { targeting: ask.targeting, tier: ask.tier, questionIds: [], headIds: [] };
        parts.set(reach, part);
        for (const headId of ask.headIds) {
          part.questionIds.push(ask.questionId);
          part.headIds.push(headId);
        }
      }
      // Driven by the pairs (unnest), each joined to its question and head by primary key: left
      // to choose, the planner scanned the heads for a cross product (10 ms a batch).
      const selects = [...parts.values()].map((part) => {
        const reached = applyTargeting(db.selectFrom('heads as h').select('h.id').where(sql<boolean>`h.id = any(${sql.val(part.headIds)}::text[])`), part.targeting, part.tier);
        return sql`SELECT q.id AS question_id, h.id, h.tier, h.country, h.age_band, h.gender, h.tags,
            ${gradeIn(part.targeting.audience)} AS grade,
            ${answeredBy(sql.ref<string>('q.id'))} AS answered,
            (q.parent_id IS NULL OR ${answeredBy(sql.ref<string | null>('q.parent_id'))}) AS answered_parent,
            ${answeredOtherVariant(sql.ref<string>('q.id'), sql<string>`coalesce(q.variant_group, q.id)`)} AS answered_other_variant
          FROM unnest(${sql.val(part.questionIds)}::text[], ${sql.val(part.headIds)}::text[]) AS p(question_id, head_id)
          JOIN questions q ON q.id = p.question_id
          JOIN heads h ON h.id = p.head_id
          WHERE h.id IN (${reached})`;
      });
      return compilable(sql<AnsweringHead>`${sql.join(selects, sql` UNION ALL `)}`, db);
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
     * (answeringHeads): not answered yet, for a follow-up (`parentId`) only
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
      query = query.where(sql<boolean>`NOT ${answeredBy(c.questionId)}`).where(sql<boolean>`NOT ${answeredOtherVariant(c.questionId, c.group)}`);
      if (c.parentId) query = query.where(answeredBy(c.parentId));
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
