import { sql, type Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { AnswersTable } from '../../db/schema.ts';

/** A new answer row; `tags` is the answering profile's tags (none for a link answer). */
export type NewAnswer = Insertable<AnswersTable> & { tags: string[] };

/**
 * SQL of the answers table: what the answer-recording service reads and writes under the
 * question's row lock, and the translation pass's reads and writes. Each method is one statement,
 * so the answer path's round trips (bench/: SQL per answer) are exactly the calls its service makes.
 */
export function createAnswersRepository(db: Db) {
  return {
    /** The attestation of the answer recorded earlier with this nonce (a retried page load), if any. */
    async findByNonce(questionId: string, nonce: string, tx: Db = db): Promise<{ attestation_ref: string } | undefined> {
      return tx.selectFrom('answers').select(['attestation_ref']).where('question_id', '=', questionId).where('nonce', '=', nonce).executeTakeFirst();
    },

    /** Whether the head answered the question (a follow-up goes only to heads who answered its parent). */
    async hasAnswered(questionId: string, headId: string, tx: Db = db): Promise<boolean> {
      const row = await tx.selectFrom('answers').select('id').where('question_id', '=', questionId).where('head_id', '=', headId).executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Whether the head answered another question of the variant group `group` (the group's first
     * question has the group's id; the others carry it as `variant_group`): variants go to
     * disjoint heads.
     */
    async answeredOtherVariant(headId: string, questionId: string, group: string, tx: Db = db): Promise<boolean> {
      const row = await tx
        .selectFrom('answers as a')
        .innerJoin('questions as g', 'g.id', 'a.question_id')
        .select('a.id')
        .where('a.head_id', '=', headId)
        .where('g.id', '<>', questionId)
        .where((eb) => eb.or([eb('g.id', '=', group), eb('g.variant_group', '=', group)]))
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Stores an answer; false when the head has answered the question already. A panel head
     * answers a question once (the unique index on question_id, head_id where head_id is not
     * null): a second answer, even one racing the first, inserts nothing instead of failing.
     */
    async insert(answer: NewAnswer, tx: Db = db): Promise<boolean> {
      const inserted = await tx
        .insertInto('answers')
        .values({ ...answer, tags: sql<string[]>`${sql.val(answer.tags)}::text[]` })
        .onConflict((oc) => oc.columns(['question_id', 'head_id']).where('head_id', 'is not', null).doNothing())
        .returning('id')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    /**
     * Written answers waiting for a translation, oldest first, at most `limit`: of questions live,
     * or closed after `closedAfter`, asked in another language than their account's; not removed,
     * not translated yet, tried fewer than `maxAttempts` times. `from` is the question's language,
     * `to` the account's.
     */
    async waitingForTranslation(closedAfter: Date, maxAttempts: number, limit: number, tx: Db = db) {
      return tx
        .selectFrom('questions as q')
        .innerJoin('accounts as acc', 'acc.id', 'q.account_id')
        .innerJoin('answers as a', 'a.question_id', 'q.id')
        .select(['a.id', 'a.question_id', 'a.text', 'a.reason', sql<string>`q.draft->>'language'`.as('from'), 'acc.language as to'])
        .where((eb) => eb.or([eb('q.status', '=', 'live'), eb('q.closed_at', '>', closedAfter)]))
        .where(sql<boolean>`split_part(lower(q.draft->>'language'), '-', 1) <> split_part(lower(acc.language), '-', 1)`)
        .where('a.translated_to', 'is', null)
        .where('a.removed', '=', false)
        .where((eb) => eb.or([eb('a.text', 'is not', null), eb('a.reason', 'is not', null)]))
        .where('a.translation_attempts', '<', maxAttempts)
        .orderBy('a.seq')
        .limit(limit)
        .execute();
    },

    /** Counts a failed translation attempt for each answer (tried again on later passes, up to the limit). */
    async countTranslationAttempt(answerIds: string[], tx: Db = db): Promise<void> {
      await tx.updateTable('answers').set({ translation_attempts: sql`translation_attempts + 1` }).where('id', 'in', answerIds).execute();
    },

    /** Stores an answer's translation, only if it is still waiting: another process may have translated it meanwhile. */
    async saveTranslation(answerId: string, translation: { text: string | null; reason: string | null; to: string }, tx: Db = db): Promise<void> {
      await tx
        .updateTable('answers')
        .set({ translated_text: translation.text, translated_reason: translation.reason, translated_to: translation.to })
        .where('id', '=', answerId)
        .where('translated_to', 'is', null)
        .execute();
    },
  };
}
export type AnswersRepository = ReturnType<typeof createAnswersRepository>;
/** An answer the translation pass takes, with the languages to translate it from and to. */
export type AnswerToTranslate = Awaited<ReturnType<AnswersRepository['waitingForTranslation']>>[number];
