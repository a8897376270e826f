import { sql, type Kysely } from 'kysely';

/**
 * People, the accounts they belong to, and how they sign in (issue 10; docs/portal.md).
 *
 * people: a person who signs in with an email address (lower-cased, unique). The first sign-in
 * creates the person and their personal account (kind `person`), which they own.
 * memberships: which accounts a person belongs to and with which role. A person account has one
 * member, its person; a team account has at least one owner (the service keeps the last one).
 * sign_in_challenges: one-time codes (and the link that carries the same sign-in) sent by email.
 * Only hashes are kept; `attempts` counts wrong codes; `used_at` ends a challenge (used, or
 * superseded by a newer code for the same address).
 * sessions: a signed-in person's sessions. Only the SHA-256 of the token is kept; a session ends
 * at `expires_at` (absolute), after the idle limit since `last_seen_at`, or at `revoked_at`.
 * `account_id` is the account the portal pages act for (the switcher).
 * invitations: an invitation of an email address into a team account with a role. The invited
 * person sees it once they sign in with that address; nothing secret travels in the email.
 * api_keys.created_by / form_nonce: who made a key in the portal, and the form it came from (a
 * resubmitted form makes no second key).
 * questions.person_id: the person who asked through a portal session (`askedBy`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE people (
      id                   text PRIMARY KEY,
      email                text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
      name                 text CHECK (length(name) BETWEEN 1 AND 80),
      language             text NOT NULL DEFAULT 'en',
      personal_account_id  text NOT NULL UNIQUE REFERENCES accounts(id),
      created_at           timestamptz NOT NULL,
      last_sign_in_at      timestamptz
    )`.execute(db);

  await sql`
    CREATE TABLE memberships (
      account_id  text NOT NULL REFERENCES accounts(id),
      person_id   text NOT NULL REFERENCES people(id),
      role        text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      created_at  timestamptz NOT NULL,
      PRIMARY KEY (account_id, person_id)
    )`.execute(db);
  await sql`CREATE INDEX memberships_person ON memberships (person_id)`.execute(db);

  await sql`
    CREATE TABLE sign_in_challenges (
      id          text PRIMARY KEY,
      email       text NOT NULL,
      code_hash   bytea NOT NULL,
      link_hash   bytea NOT NULL UNIQUE,
      attempts    integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      ip          text,
      created_at  timestamptz NOT NULL,
      expires_at  timestamptz NOT NULL,
      used_at     timestamptz
    )`.execute(db);
  await sql`CREATE INDEX sign_in_challenges_email ON sign_in_challenges (email, created_at DESC)`.execute(db);
  await sql`CREATE INDEX sign_in_challenges_ip ON sign_in_challenges (ip, created_at DESC)`.execute(db);

  await sql`
    CREATE TABLE sessions (
      id            text PRIMARY KEY,
      person_id     text NOT NULL REFERENCES people(id),
      token_hash    bytea NOT NULL UNIQUE,
      account_id    text REFERENCES accounts(id),
      user_agent    text,
      ip            text,
      created_at    timestamptz NOT NULL,
      last_seen_at  timestamptz NOT NULL,
      expires_at    timestamptz NOT NULL,
      revoked_at    timestamptz
    )`.execute(db);
  await sql`CREATE INDEX sessions_person ON sessions (person_id, created_at DESC)`.execute(db);

  await sql`
    CREATE TABLE invitations (
      id           text PRIMARY KEY,
      account_id   text NOT NULL REFERENCES accounts(id),
      email        text NOT NULL CHECK (email = lower(email)),
      role         text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      invited_by   text NOT NULL REFERENCES people(id),
      created_at   timestamptz NOT NULL,
      expires_at   timestamptz NOT NULL,
      accepted_at  timestamptz,
      declined_at  timestamptz,
      revoked_at   timestamptz
    )`.execute(db);
  // One open invitation per address and team: inviting again replaces it.
  await sql`
    CREATE UNIQUE INDEX invitations_one_open ON invitations (account_id, email)
    WHERE accepted_at IS NULL AND declined_at IS NULL AND revoked_at IS NULL`.execute(db);
  await sql`CREATE INDEX invitations_email ON invitations (email)`.execute(db);

  await sql`ALTER TABLE api_keys ADD COLUMN created_by text REFERENCES people(id)`.execute(db);
  await sql`ALTER TABLE api_keys ADD COLUMN form_nonce text`.execute(db);
  await sql`CREATE UNIQUE INDEX api_keys_form_nonce ON api_keys (account_id, form_nonce) WHERE form_nonce IS NOT NULL`.execute(db);

  await sql`ALTER TABLE questions ADD COLUMN person_id text REFERENCES people(id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE questions DROP COLUMN person_id`.execute(db);
  await sql`DROP INDEX api_keys_form_nonce`.execute(db);
  await sql`ALTER TABLE api_keys DROP COLUMN form_nonce, DROP COLUMN created_by`.execute(db);
  await sql`DROP TABLE invitations, sessions, sign_in_challenges, memberships, people`.execute(db);
}
