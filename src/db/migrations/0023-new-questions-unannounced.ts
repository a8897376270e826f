import { sql, type Kysely } from 'kysely';

/**
 * A new question row is no longer announced on hc_questions (migration 0022): only its later
 * changes are. Every listener keys what it holds by a question it has read (a kept Result, a
 * question's cached answers, a waiter), and none can have read a question before its ask
 * committed; the rows an ask makes together (follow-ups, variants) are one transaction, and no
 * Result shows another question. The announcement cost every ask a NOTIFY at commit, which
 * takes a lock that orders the commits of every notifying transaction (measured in
 * docs/performance.md, the fifteenth session).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER question_changed ON questions`.execute(db);
  await sql`CREATE TRIGGER question_changed AFTER UPDATE OR DELETE ON questions FOR EACH ROW EXECUTE FUNCTION hc_question_changed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER question_changed ON questions`.execute(db);
  await sql`CREATE TRIGGER question_changed AFTER INSERT OR UPDATE OR DELETE ON questions FOR EACH ROW EXECUTE FUNCTION hc_question_changed()`.execute(db);
}
