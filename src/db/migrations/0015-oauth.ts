import { sql, type Kysely } from 'kysely';

/**
 * Agents (issue 11; docs/agents.md): the OAuth authorization server's storage and the connections
 * people grant.
 *
 * oauth_store: what oidc-provider keeps (its adapter contract: one row per model and id, with the
 * payload as it gave it). Authorization codes, device codes, refresh and access tokens, grants,
 * interactions, sessions and registered clients live here, so they survive a restart and are
 * shared by every process (RELIABILITY R4.5). `grant_id`, `user_code` and `uid` are lifted out of
 * the payload for the adapter's lookups; `consumed_at` marks a used code or rotated refresh token,
 * which the provider checks to detect reuse.
 *
 * api_keys rows of kind 'oauth' are connections: what a person consented to for an agent (the
 * account it acts for, the scopes, a daily cap and an auto-approve amount). A connection is a
 * credential like a key, so the daily cap, the ledger's key_id, `askedBy` and revocation work the
 * same for both; it has no secret (the agent holds OAuth tokens that name its grant).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE oauth_store (
      model        text NOT NULL,
      id           text NOT NULL,
      payload      jsonb NOT NULL,
      grant_id     text,
      user_code    text,
      uid          text,
      expires_at   timestamptz,
      consumed_at  timestamptz,
      PRIMARY KEY (model, id)
    )`.execute(db);
  await sql`CREATE INDEX oauth_store_grant ON oauth_store (grant_id) WHERE grant_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX oauth_store_user_code ON oauth_store (user_code) WHERE user_code IS NOT NULL`.execute(db);
  await sql`CREATE INDEX oauth_store_uid ON oauth_store (uid) WHERE uid IS NOT NULL`.execute(db);
  await sql`CREATE INDEX oauth_store_expires ON oauth_store (expires_at) WHERE expires_at IS NOT NULL`.execute(db);

  await sql`ALTER TABLE api_keys ADD COLUMN kind text NOT NULL DEFAULT 'key' CHECK (kind IN ('key', 'oauth'))`.execute(db);
  await sql`ALTER TABLE api_keys ALTER COLUMN secret_hash DROP NOT NULL`.execute(db);
  await sql`ALTER TABLE api_keys ADD CONSTRAINT api_keys_secret_of_keys CHECK (kind = 'oauth' OR secret_hash IS NOT NULL)`.execute(db);
  await sql`ALTER TABLE api_keys ADD COLUMN grant_id text UNIQUE`.execute(db);
  await sql`ALTER TABLE api_keys ADD COLUMN client_id text`.execute(db);
  await sql`ALTER TABLE api_keys ADD COLUMN auto_approve_credits integer CHECK (auto_approve_credits >= 0)`.execute(db);
  await sql`ALTER TABLE api_keys ADD CONSTRAINT api_keys_oauth_fields CHECK (kind = 'key' OR (grant_id IS NOT NULL AND client_id IS NOT NULL AND created_by IS NOT NULL))`.execute(db);
  await sql`CREATE INDEX api_keys_connections ON api_keys (created_by, created_at) WHERE kind = 'oauth'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM api_keys WHERE kind = 'oauth'`.execute(db);
  await sql`DROP INDEX api_keys_connections`.execute(db);
  await sql`ALTER TABLE api_keys DROP CONSTRAINT api_keys_oauth_fields`.execute(db);
  await sql`ALTER TABLE api_keys DROP COLUMN auto_approve_credits, DROP COLUMN client_id, DROP COLUMN grant_id`.execute(db);
  await sql`ALTER TABLE api_keys DROP CONSTRAINT api_keys_secret_of_keys`.execute(db);
  await sql`ALTER TABLE api_keys ALTER COLUMN secret_hash SET NOT NULL`.execute(db);
  await sql`ALTER TABLE api_keys DROP COLUMN kind`.execute(db);
  await sql`DROP TABLE oauth_store`.execute(db);
}
