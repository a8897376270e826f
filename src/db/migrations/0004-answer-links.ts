import { sql, type Kysely } from 'kysely';

/**
 * The answer link (docs/answer-link.md): a page load's nonce makes an anonymous answer
 * idempotent (stored on the answer itself, so a retry can never record twice), and `link_starts`
 * counts page loads that showed the question.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE answers ADD COLUMN nonce uuid`.execute(db);
  // A nonce belongs to one page load of one link.
  await sql`CREATE UNIQUE INDEX answers_nonce ON answers (question_id, nonce) WHERE nonce IS NOT NULL`.execute(db);
  await sql`ALTER TABLE answers ADD COLUMN locale text`.execute(db);
  await sql`ALTER TABLE answers ADD COLUMN interrupted boolean NOT NULL DEFAULT false`.execute(db);
  await sql`
    CREATE TABLE link_starts (
      nonce        uuid PRIMARY KEY,
      question_id  text NOT NULL REFERENCES questions(id),
      created_at   timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX link_starts_question ON link_starts (question_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE link_starts`.execute(db);
  await sql`ALTER TABLE answers DROP COLUMN nonce, DROP COLUMN locale, DROP COLUMN interrupted`.execute(db);
}
