import { sql, type Kysely } from 'kysely';

/**
 * Changes announced by the database itself at commit (NOTIFY; never for a rolled-back change),
 * so every process hears every writer: another API process, the admin CLI, psql. What caches of
 * what the database said rely on (docs/performance.md "Caches that skip the database"):
 *
 * - channel hc_keys, payload the key's id: every change to an API key that matters to
 *   authentication (revoked, scopes, cap, deleted; not the once-a-minute last_used_at). Heard by
 *   the key cache (accounts/key-cache.ts).
 * - channel hc_questions, payload the question's id: a question row written, an answer changed
 *   (a pin, a removal, a translation), a flag or a summary written. Heard by the result caches and
 *   the waiters of other processes (lib/notifier.ts; a process drops the echo of its own
 *   connections, whose changes it knows already). New answers always move their question's row.
 *
 * On the embedded database no session listens (the process that owns it hears the other programs
 * on its socket itself, db/embedded.ts), and a NOTIFY is costly there (answers ran 4× slower with
 * them): its session sets `headcount.announce_changes` to off, and the triggers return at once.
 * Unset (every server session) means on, so a database moved from embedded to a server by a
 * backup announces its changes there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION hc_api_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF current_setting('headcount.announce_changes', true) = 'off' THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' OR (to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at') THEN
        PERFORM pg_notify('hc_keys', OLD.id);
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER api_key_changed AFTER UPDATE OR DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION hc_api_key_changed()`.execute(db);

  // Identical notifications of one transaction are sent once (a batch's many answers of one
  // question: one). A question row carries its id; an answer, a flag or a summary its question's.
  // (plpgsql compiles a trigger function once per table, so each reads only its own column.)
  await sql`
    CREATE FUNCTION hc_question_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE changed record;
    BEGIN
      IF current_setting('headcount.announce_changes', true) = 'off' THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
      IF TG_TABLE_NAME = 'questions' THEN
        PERFORM pg_notify('hc_questions', changed.id);
      ELSE
        PERFORM pg_notify('hc_questions', changed.question_id);
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER question_changed AFTER INSERT OR UPDATE OR DELETE ON questions FOR EACH ROW EXECUTE FUNCTION hc_question_changed()`.execute(db);
  await sql`CREATE TRIGGER answer_changed AFTER UPDATE OR DELETE ON answers FOR EACH ROW EXECUTE FUNCTION hc_question_changed()`.execute(db);
  await sql`CREATE TRIGGER flag_changed AFTER INSERT OR UPDATE OR DELETE ON answer_flags FOR EACH ROW EXECUTE FUNCTION hc_question_changed()`.execute(db);
  await sql`CREATE TRIGGER summary_changed AFTER INSERT OR UPDATE OR DELETE ON insights FOR EACH ROW EXECUTE FUNCTION hc_question_changed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER summary_changed ON insights`.execute(db);
  await sql`DROP TRIGGER flag_changed ON answer_flags`.execute(db);
  await sql`DROP TRIGGER answer_changed ON answers`.execute(db);
  await sql`DROP TRIGGER question_changed ON questions`.execute(db);
  await sql`DROP FUNCTION hc_question_changed()`.execute(db);
  await sql`DROP TRIGGER api_key_changed ON api_keys`.execute(db);
  await sql`DROP FUNCTION hc_api_key_changed()`.execute(db);
}
