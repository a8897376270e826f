import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { QuestionsTable } from '../../db/schema.ts';

type QuestionRow = Selectable<QuestionsTable>;

/** SQL of the answer page (docs/answer-link.md): its question by link code, and page-load counts. */
export function createLinksRepository(db: Db) {
  return {
    /** The question behind an answer-link code. */
    async findQuestionByCode(code: string, tx: Db = db): Promise<QuestionRow | undefined> {
      return tx.selectFrom('questions').selectAll().where('link_code', '=', code).executeTakeFirst();
    },

    /** The question, and whether this page load's nonce already recorded an answer to it: one read. */
    async findQuestionByCodeAndNonce(code: string, nonce: string, tx: Db = db): Promise<(QuestionRow & { replayOf: string | null }) | undefined> {
      return tx
        .selectFrom('questions as q')
        .leftJoin('answers as a', (join) => join.onRef('a.question_id', '=', 'q.id').on('a.nonce', '=', nonce))
        .selectAll('q')
        .select('a.id as replayOf')
        .where('q.link_code', '=', code)
        .executeTakeFirst();
    },

    /** Counts a page load once per nonce (a reload with the same nonce adds nothing). */
    async recordStart(nonce: string, questionId: string, at: Date, tx: Db = db): Promise<void> {
      await tx.insertInto('link_starts').values({ nonce, question_id: questionId, created_at: at }).onConflict((oc) => oc.column('nonce').doNothing()).execute();
    },
  };
}
export type LinksRepository = ReturnType<typeof createLinksRepository>;
