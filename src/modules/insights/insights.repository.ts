import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { WrittenAnswer } from './insights.engine.ts';
import type { Insights } from './insights.schemas.ts';
import { storedDraft } from '../draft/stored-draft.ts';

/**
 * The `insights.payload` column (plain JSON in db/schema.ts) read as the Insights it was written
 * from: the one place it gets its type. Checked for the fields readers rely on; anything else is
 * corrupt data and throws rather than being served.
 */
function storedInsights(value: unknown): Insights | null {
  if (value === null) return null;
  const insights = value as Partial<Insights> | null;
  if (typeof insights !== 'object' || insights === null || typeof insights.kind !== 'string' || typeof insights.generatedAt !== 'string' || typeof insights.language !== 'string') {
    throw new Error('A stored insights payload is not an Insights (insights.payload)');
  }
  return insights as Insights;
}

/**
 * SQL of the insights module (ARCHITECTURE §3 rule 3). The answers are read through one narrow
 * select of the option, the text and the reason: nothing about who answered leaves this file.
 */
export const CLOSED_STATUSES = ['complete', 'underfilled', 'cancelled'] as const;

export interface QuestionForInsights {
  id: string;
  accountId: string;
  status: string;
  closedAt: Date | null;
  draft: { text?: string; language?: string; options?: Array<{ label: string }> };
  accountLanguage: string;
}

export function createInsightsRepository(db: Db) {
  return {
    async question(id: string, accountId?: string): Promise<QuestionForInsights | null> {
      let query = db
        .selectFrom('questions as q')
        .innerJoin('accounts as a', 'a.id', 'q.account_id')
        .select(['q.id', 'q.account_id', 'q.status', 'q.closed_at', 'q.draft', 'a.language'])
        .where('q.id', '=', id);
      if (accountId !== undefined) query = query.where('q.account_id', '=', accountId);
      const row = await query.executeTakeFirst();
      if (!row) return null;
      return { id: row.id, accountId: row.account_id, status: row.status, closedAt: row.closed_at, draft: storedDraft(row.draft), accountLanguage: row.language };
    },

    async latest(questionId: string): Promise<{ payload: Insights | null; kind: string | null; finalFor: Date | null } | null> {
      const row = await db.selectFrom('insights').select(['payload', 'kind', 'final_for']).where('question_id', '=', questionId).executeTakeFirst();
      return row ? { payload: storedInsights(row.payload), kind: row.kind, finalFor: row.final_for } : null;
    },

    /** Answers with something written, and all answers, not counting removed ones. */
    async counts(questionId: string): Promise<{ written: number; all: number }> {
      const row = await db
        .selectFrom('answers')
        .select([
          sql<string>`count(*) FILTER (WHERE text IS NOT NULL AND btrim(text) <> '' OR reason IS NOT NULL AND btrim(reason) <> '')`.as('written'),
          sql<string>`count(*)`.as('all'),
        ])
        .where('question_id', '=', questionId)
        .where('removed', '=', false)
        .executeTakeFirstOrThrow();
      return { written: Number(row.written), all: Number(row.all) };
    },

    /** The written material, oldest answer first: option, text and reason only. */
    async material(questionId: string): Promise<WrittenAnswer[]> {
      const rows = await db
        .selectFrom('answers')
        .select(['option_label', 'text', 'reason'])
        .where('question_id', '=', questionId)
        .where('removed', '=', false)
        .where((eb) => eb.or([eb('text', 'is not', null), eb('reason', 'is not', null)]))
        .orderBy('seq')
        .execute();
      return rows.map((r) => ({ option: r.option_label, text: r.text, reason: r.reason }));
    },

    /**
     * Starts a refresh unless one started after `notBefore`, atomically (the conditional upsert
     * re-checks the row it waited for, so two requests at once cannot both pass). Returns whether
     * it was claimed, the claim before (to give it back if the refresh fails) and the standing one.
     */
    async claim(questionId: string, now: Date, notBefore: Date): Promise<{ claimed: boolean; previous: Date | null; standing: Date | null }> {
      const result = await sql<{ previous: Date | null }>`
        WITH prev AS (SELECT claimed_at FROM insights WHERE question_id = ${questionId})
        INSERT INTO insights (question_id, claimed_at) VALUES (${questionId}, ${now})
        ON CONFLICT (question_id) DO UPDATE SET claimed_at = EXCLUDED.claimed_at
          WHERE insights.claimed_at IS NULL OR insights.claimed_at <= ${notBefore}
        RETURNING (SELECT claimed_at FROM prev) AS previous`.execute(db);
      if (result.rows.length > 0) return { claimed: true, previous: result.rows[0].previous, standing: now };
      const row = await db.selectFrom('insights').select('claimed_at').where('question_id', '=', questionId).executeTakeFirst();
      return { claimed: false, previous: null, standing: row?.claimed_at ?? null };
    },

    /** Gives a claim back after a failed refresh, unless another one took its place. */
    async release(questionId: string, ours: Date, previous: Date | null): Promise<void> {
      await db.updateTable('insights').set({ claimed_at: previous }).where('question_id', '=', questionId).where('claimed_at', '=', ours).execute();
    },

    /**
     * Stores an interim summary (null: none stands any more), only while the question is still
     * open: one that closed meanwhile gets its final summary from the final pass, which an interim
     * must never overwrite.
     */
    async saveInterim(questionId: string, insights: Insights | null): Promise<boolean> {
      const result = await sql`
        INSERT INTO insights (question_id, kind, payload, generated_at)
        SELECT ${questionId}, ${insights ? 'interim' : null}, ${insights ? JSON.stringify(insights) : null}::jsonb, ${insights ? new Date(insights.generatedAt) : null}
        WHERE EXISTS (SELECT 1 FROM questions WHERE id = ${questionId} AND closed_at IS NULL)
        ON CONFLICT (question_id) DO UPDATE SET kind = EXCLUDED.kind, payload = EXCLUDED.payload, generated_at = EXCLUDED.generated_at`.execute(db);
      return Number(result.numAffectedRows ?? 0) > 0;
    },

    /**
     * Stores the final summary of the close at `closedAt`. With none (too few written answers,
     * e.g. after removals), marks that close handled and drops any summary that stood before: it
     * was made from answers no longer all in view.
     */
    async saveFinal(questionId: string, closedAt: Date, insights: Insights | null): Promise<void> {
      if (insights === null) {
        await db
          .insertInto('insights')
          .values({ question_id: questionId, final_for: closedAt })
          .onConflict((oc) => oc.column('question_id').doUpdateSet({ final_for: closedAt, kind: null, payload: null, generated_at: null }))
          .execute();
        return;
      }
      const values = { kind: 'final' as const, payload: JSON.stringify(insights), generated_at: new Date(insights.generatedAt), final_for: closedAt };
      await db
        .insertInto('insights')
        .values({ question_id: questionId, ...values })
        .onConflict((oc) => oc.column('question_id').doUpdateSet(values))
        .execute();
    },

    /**
     * An answer was removed after review: the final summary no longer matches the answers in view
     * (its counts, maybe a quote of the removed answer). Clearing `final_for`, in the removal's own
     * transaction, puts the question back in the final pass (`closedWithoutFinal`), so the summary
     * is remade even if the process stops before it does so itself.
     */
    async markStale(questionId: string, tx: Db): Promise<void> {
      await tx.updateTable('insights').set({ final_for: null }).where('question_id', '=', questionId).execute();
    },

    /** Questions closed since `since` whose latest close has not had its final pass yet. */
    async closedWithoutFinal(since: Date, limit: number): Promise<Array<{ id: string; closedAt: Date }>> {
      const rows = await db
        .selectFrom('questions as q')
        .leftJoin('insights as i', 'i.question_id', 'q.id')
        .select(['q.id', 'q.closed_at'])
        .where('q.closed_at', 'is not', null)
        .where('q.closed_at', '>=', since)
        .where('q.status', 'in', [...CLOSED_STATUSES])
        .where((eb) => eb.or([eb('i.final_for', 'is', null), eb('i.final_for', '<', eb.ref('q.closed_at'))]))
        .orderBy('q.closed_at')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ id: r.id, closedAt: r.closed_at! }));
    },
  };
}
export type InsightsRepository = ReturnType<typeof createInsightsRepository>;
