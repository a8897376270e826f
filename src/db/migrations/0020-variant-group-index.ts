import { sql, type Kysely } from 'kysely';

/**
 * questions.variant_group indexed: every batch of panel answers checks, per head, whether it
 * answered another question of the variant group (heads.repository.ts answeringHeads; variants go
 * to disjoint heads). Without the index that check read the whole questions table for each head,
 * which grew with the account's questions (7–10 ms a batch after a few thousand asks).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX questions_variant_group ON questions (variant_group) WHERE variant_group IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX questions_variant_group`.execute(db);
}
