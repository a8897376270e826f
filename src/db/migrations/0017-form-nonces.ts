import { sql, type Kysely } from 'kysely';

/**
 * form_nonces: the portal forms that must act once (docs/portal.md "Forms that act once"). A form
 * that answers with a secret (adding a webhook endpoint, rotating its secret) carries a fresh
 * nonce; the first post claims it here, so a browser reload, which sends the same form again,
 * finds it taken and does nothing. Per account; kept 30 days (the `form-nonces-prune` job). API
 * keys keep theirs on their own row (api_keys.form_nonce, migration 0012), claimed in the insert.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE form_nonces (
      account_id  text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      nonce       text NOT NULL,
      created_at  timestamptz NOT NULL,
      PRIMARY KEY (account_id, nonce)
    )`.execute(db);
  await sql`CREATE INDEX form_nonces_created_at ON form_nonces (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE form_nonces`.execute(db);
}
