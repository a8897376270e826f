import { sql, type Kysely } from 'kysely';

/**
 * answers.sentiment: the answer's sentiment score, −1 to 1 (src/modules/answers/answer-sentiment.ts),
 * worked out once when the answer is recorded so a result never re-reads every text. Null when
 * the answer has no written words, when its question's language has no sentiment model, or for
 * answers recorded before this column existed (the results score those in memory on load).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE answers ADD COLUMN sentiment real CHECK (sentiment BETWEEN -1 AND 1)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE answers DROP COLUMN sentiment`.execute(db);
}
