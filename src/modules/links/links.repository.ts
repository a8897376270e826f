import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { QuestionsTable } from '../../db/schema.ts';

type QuestionRow = Selectable<QuestionsTable>;

/** What submitting an answer reads of the question: its state, its draft (to check the answer), its result link. */
export type SubmitQuestion = Pick<QuestionRow, 'id' | 'status' | 'scheduled_for' | 'closes_at' | 'answered' | 'n' | 'draft' | 'public_code'>;
/** A submit's read: its question, and the id of the answer its nonce already recorded there (a replay), if any. */
export type SubmitRead = SubmitQuestion & { replayOf: string | null };

/** SQL of the answer page (docs/answer-link.md): its question by link code, and page-load counts. */
export function createLinksRepository(db: Db) {
  return {
    /** The question behind an answer-link code. */
    async findQuestionByCode(code: string, tx: Db = db): Promise<QuestionRow | undefined> {
      return tx.selectFrom('questions').selectAll().where('link_code', '=', code).executeTakeFirst();
    },

    /**
     * For each page load (a link code and its nonce), the question, and whether that nonce already
     * recorded an answer to it: in one statement for every answer sent through links at that
     * moment (links.service.ts reads them together), `undefined` where the code names no question.
     * One SQL text with the columns submitting uses, not the query builder and the whole row:
     * building the statement and decoding ~50 columns cost more than the database took to run it.
     * The earlier answer is a subquery by both columns of the unique (question_id, nonce) index:
     * as a LEFT JOIN, PostgreSQL read every answer of the question and filtered the nonce (its
     * statistics behind a fast-growing table), hundreds of rows per link answer and growing.
     */
    async findQuestionsByCodeAndNonce(loads: ReadonlyArray<{ code: string; nonce: string }>): Promise<Array<SubmitRead | undefined>> {
      const { rows } = await sql<SubmitRead & { i: number }>`
        SELECT p.i::int AS i, q.id, q.status, q.scheduled_for, q.closes_at, q.answered, q.n, q.draft, q.public_code,
          (SELECT a.id FROM answers a WHERE a.question_id = q.id AND a.nonce = p.nonce AND a.nonce IS NOT NULL) AS "replayOf"
        FROM unnest(${loads.map((l) => l.code)}::text[], ${loads.map((l) => l.nonce)}::uuid[]) WITH ORDINALITY AS p(code, nonce, i)
        JOIN questions q ON q.link_code = p.code`.execute(db);
      const found: Array<SubmitRead | undefined> = loads.map(() => undefined);
      for (const { i, ...row } of rows) found[i - 1] = row;
      return found;
    },

    /** Counts a page load once per nonce (a reload with the same nonce adds nothing). */
    async recordStart(nonce: string, questionId: string, at: Date, tx: Db = db): Promise<void> {
      await tx.insertInto('link_starts').values({ nonce, question_id: questionId, created_at: at }).onConflict((oc) => oc.column('nonce').doNothing()).execute();
    },
  };
}
export type LinksRepository = ReturnType<typeof createLinksRepository>;
