import { sql, type Kysely } from 'kysely';

/**
 * questions.settlement (issue 17, docs/early-stopping.md): where the question's stopping rule was
 * first met (its own `stopWhen`, or for a question asked without one the reference rule a result
 * reports "would have settled at"), whether the question stopped there, what that refunded, and a
 * withdrawal when removals after review undid the claim. Null until a rule is met. Written by the
 * answer batch that meets it, in the statement that moves the counts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE questions ADD COLUMN settlement jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE questions DROP COLUMN settlement`.execute(db);
}
