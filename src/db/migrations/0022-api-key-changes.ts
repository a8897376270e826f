import { sql, type Kysely } from 'kysely';

/**
 * Every change to an API key that matters to authentication (revoked, scopes, cap, deleted; not
 * the once-a-minute last_used_at) is announced on channel hc_keys with the key's id, by the
 * database itself, so processes that cache key lookups (accounts.service.ts) hear every writer:
 * another API process, the admin CLI, psql. NOTIFY is sent at commit, never for a rolled-back
 * change. On the embedded database no session listens and it costs nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION hc_api_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' OR (to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at') THEN
        PERFORM pg_notify('hc_keys', OLD.id);
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER api_key_changed AFTER UPDATE OR DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION hc_api_key_changed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER api_key_changed ON api_keys`.execute(db);
  await sql`DROP FUNCTION hc_api_key_changed()`.execute(db);
}
