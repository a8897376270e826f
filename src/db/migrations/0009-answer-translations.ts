import { sql, type Kysely } from 'kysely';

/**
 * Translations of written answers (docs/results.md "Translations"): when a translation engine is
 * configured and a question's language differs from its account's, each written answer's text
 * and reason are translated into the account's language by a background pass and kept here.
 * `translated_to` is the language they were translated into (null: not translated);
 * `translation_attempts` stops a pass retrying an answer the engine keeps failing on.
 * (The pass finds waiting answers through their questions, live or closed in the last day, and
 * the answers' question_id index: no index of its own.)
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE answers
      ADD COLUMN translated_text text,
      ADD COLUMN translated_reason text,
      ADD COLUMN translated_to text,
      ADD COLUMN translation_attempts smallint NOT NULL DEFAULT 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE answers DROP COLUMN translated_text, DROP COLUMN translated_reason, DROP COLUMN translated_to, DROP COLUMN translation_attempts`.execute(db);
}
