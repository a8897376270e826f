import { sql, type Kysely } from 'kysely';

/**
 * questions.removed_answers: how many of the question's answers were removed after review (an
 * upheld flag). `answered` keeps counting them (they filled a place; their credits came back as
 * a refund), so the leader line and a follow-up's confidence use answered − removed_answers, the
 * answers the result is about.
 *
 * answers.sentiment: the answer's sentiment score, −1 to 1 (src/modules/text/sentiment.ts),
 * worked out once when the answer is recorded so a result never re-reads every text. Null when
 * the answer has no written words, when its question's language has no sentiment model, or for
 * answers recorded before this column existed (the results score those in memory on load).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE answers ADD COLUMN sentiment real CHECK (sentiment BETWEEN -1 AND 1)`.execute(db);
  await sql`ALTER TABLE questions ADD COLUMN removed_answers integer NOT NULL DEFAULT 0 CHECK (removed_answers >= 0 AND removed_answers <= answered)`.execute(db);
  await sql`UPDATE questions q SET removed_answers = r.n FROM (SELECT question_id, count(*)::int AS n FROM answers WHERE removed GROUP BY question_id) r WHERE r.question_id = q.id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE questions DROP COLUMN removed_answers`.execute(db);
  await sql`ALTER TABLE answers DROP COLUMN sentiment`.execute(db);
}
