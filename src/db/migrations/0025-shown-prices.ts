import { sql, type Kysely } from 'kysely';

/**
 * The prices MCP's spending tools have shown (docs/agents.md "Safety rules"): `confirm: true`
 * reserves only what a first call of the same tool and arguments priced for the same credential
 * in the last ten minutes, so an agent cannot skip the price. Kept an hour (the hourly reap).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE shown_prices (
      account_id  text NOT NULL REFERENCES accounts(id),
      price_key   text NOT NULL,
      credits     bigint NOT NULL CHECK (credits >= 0),
      shown_at    timestamptz NOT NULL,
      PRIMARY KEY (account_id, price_key)
    )`.execute(db);
  await sql`CREATE INDEX shown_prices_shown_at ON shown_prices (shown_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE shown_prices`.execute(db);
}
