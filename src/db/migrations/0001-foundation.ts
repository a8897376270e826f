import { sql, type Kysely } from 'kysely';

/** Accounts, API keys, the panel of heads, and one-off system markers. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE accounts (
      id          text PRIMARY KEY,
      name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
      kind        text NOT NULL CHECK (kind IN ('person', 'team')),
      currency    text NOT NULL CHECK (currency IN ('GBP', 'USD', 'EUR', 'CAD')),
      language    text NOT NULL,
      email       text,
      created_at  timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  // Only a SHA-256 of the key is stored (keys carry 190 random bits, so a slow hash adds nothing);
  // `prefix` is what a person sees in lists to tell keys apart.
  await sql`
    CREATE TABLE api_keys (
      id                 text PRIMARY KEY,
      account_id         text NOT NULL REFERENCES accounts(id),
      name               text,
      mode               text NOT NULL CHECK (mode IN ('live', 'test')),
      prefix             text NOT NULL,
      secret_hash        bytea NOT NULL UNIQUE,
      scopes             text[] NOT NULL,
      daily_cap_credits  integer CHECK (daily_cap_credits >= 0),
      created_at         timestamptz NOT NULL DEFAULT now(),
      last_used_at       timestamptz,
      revoked_at         timestamptz
    )`.execute(db);
  await sql`CREATE INDEX api_keys_account ON api_keys (account_id, created_at)`.execute(db);

  await sql`
    CREATE TABLE heads (
      id            text PRIMARY KEY,
      country       char(2) NOT NULL,
      tier          smallint NOT NULL CHECK (tier BETWEEN 1 AND 3),
      age_band      text NOT NULL CHECK (age_band IN ('18-24', '25-34', '35-44', '45-54', '55-64', '65+')),
      gender        text NOT NULL CHECK (gender IN ('woman', 'man', 'non_binary')),
      tags          text[] NOT NULL DEFAULT '{}',
      verified_age  boolean NOT NULL DEFAULT false,
      language      text NOT NULL DEFAULT 'en',
      simulated     boolean NOT NULL DEFAULT false,
      last_seen_at  timestamptz,
      created_at    timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX heads_country_tier ON heads (country, tier)`.execute(db);
  await sql`CREATE INDEX heads_tags ON heads USING gin (tags)`.execute(db);
  await sql`CREATE INDEX heads_last_seen ON heads (last_seen_at)`.execute(db);

  await sql`
    CREATE TABLE system_markers (
      name        text PRIMARY KEY,
      created_at  timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE system_markers, heads, api_keys, accounts`.execute(db);
}
