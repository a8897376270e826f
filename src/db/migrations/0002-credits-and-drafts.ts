import { sql, type Kysely } from 'kysely';

/**
 * Credits (docs/credits.md) and saved drafts.
 *
 * balances: `available` can be spent; `reserved` is held by live questions. The spec's Balance
 * `credits` is their sum. CHECKs make a negative balance impossible whatever the code does (R3.3).
 * ledger_entries: immutable rows; `unique_ref` (e.g. "q_…:ask") makes a replayed post a no-op (R3.5).
 * credit_lots: incoming credits that can expire, consumed soonest-expiring first.
 * key_daily_spend: the per-key daily cap as a second conditional counter (R3.4).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE balances (
      account_id  text PRIMARY KEY REFERENCES accounts(id),
      available   bigint NOT NULL DEFAULT 0 CHECK (available >= 0),
      reserved    bigint NOT NULL DEFAULT 0 CHECK (reserved >= 0),
      updated_at  timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  await sql`
    CREATE TABLE ledger_entries (
      id          text PRIMARY KEY,
      seq         bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
      account_id  text NOT NULL REFERENCES accounts(id),
      kind        text NOT NULL,
      state       text NOT NULL,
      amount      bigint NOT NULL,
      title       text NOT NULL,
      ref         text,
      unique_ref  text NOT NULL UNIQUE,
      key_id      text,
      by          text,
      at          timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX ledger_entries_account ON ledger_entries (account_id, seq DESC)`.execute(db);
  // Entries never change once written.
  await sql`
    CREATE FUNCTION ledger_entries_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'ledger entries are immutable'; END $$`.execute(db);
  await sql`
    CREATE TRIGGER ledger_entries_no_change BEFORE UPDATE OR DELETE ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_entries_immutable()`.execute(db);

  await sql`
    CREATE TABLE credit_lots (
      id          text PRIMARY KEY,
      account_id  text NOT NULL REFERENCES accounts(id),
      entry_id    text NOT NULL REFERENCES ledger_entries(id),
      amount      bigint NOT NULL CHECK (amount > 0),
      remaining   bigint NOT NULL CHECK (remaining >= 0 AND remaining <= amount),
      expires_at  timestamptz,
      expired_at  timestamptz
    )`.execute(db);
  await sql`CREATE INDEX credit_lots_open ON credit_lots (account_id, expires_at) WHERE remaining > 0`.execute(db);

  await sql`
    CREATE TABLE key_daily_spend (
      key_id  text NOT NULL REFERENCES api_keys(id),
      day     date NOT NULL,
      spent   bigint NOT NULL CHECK (spent >= 0),
      PRIMARY KEY (key_id, day)
    )`.execute(db);

  await sql`
    CREATE TABLE drafts (
      id          text PRIMARY KEY,
      account_id  text NOT NULL REFERENCES accounts(id),
      draft       jsonb NOT NULL,
      created_at  timestamptz NOT NULL,
      updated_at  timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX drafts_account ON drafts (account_id, updated_at DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE drafts, key_daily_spend, credit_lots, ledger_entries, balances`.execute(db);
  await sql`DROP FUNCTION ledger_entries_immutable()`.execute(db);
}
