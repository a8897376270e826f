import { sql, type Kysely } from 'kysely';

/**
 * The latest insights of each question (docs/insights.md): the summary itself (`payload`, the
 * Insights resource as served) with its kind and time, when a refresh last started (the 10-minute
 * rule while live) and which close the final pass has handled (`final_for` = the question's
 * `closed_at` then), so the periodic job finds exactly the closes still to summarise.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE insights (
      question_id   text PRIMARY KEY REFERENCES questions(id),
      kind          text CHECK (kind IN ('interim', 'final')),
      payload       jsonb,
      generated_at  timestamptz,
      claimed_at    timestamptz,
      final_for     timestamptz,
      CHECK ((payload IS NULL) = (kind IS NULL) AND (payload IS NULL) = (generated_at IS NULL))
    )`.execute(db);
  // The final pass looks only at recent closes.
  await sql`CREATE INDEX questions_closed_at ON questions (closed_at) WHERE closed_at IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX questions_closed_at`.execute(db);
  await sql`DROP TABLE insights`.execute(db);
}
