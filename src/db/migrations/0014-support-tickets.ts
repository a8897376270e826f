import { sql, type Kysely } from 'kysely';

/**
 * Support tickets (spec "Support"; docs/support.md).
 *
 * support_tickets: one row per message to support that was not dropped as spam. `sender` is what
 * the hourly limit counts the ticket against (`key:<key id>`, `ses:<session id>`, or `ip:<address>`
 * without a credential); `email` is where replies go, decided when the ticket is opened (the
 * person's, the account's, or the one the body gave) and `language` the language of that mail.
 * support_messages: the opening message, then support's replies, in order (`seq`). `mailed_at` is
 * when its mail (the confirmation, or the reply) was accepted; null when sending failed, so a
 * failed mail is visible in the queue instead of losing the ticket.
 * support_dropped_posts: what is kept of a post dropped as spam (the honeypot, or too fast): only
 * what the hourly limit needs, and only for that hour (the next dropped post deletes older rows).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE support_tickets (
      id           text PRIMARY KEY,
      account_id   text REFERENCES accounts(id),
      person_id    text REFERENCES people(id),
      key_id       text REFERENCES api_keys(id),
      sender       text NOT NULL,
      email        text NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
      language     text NOT NULL,
      locale       text CHECK (length(locale) <= 10),
      category     text CHECK (category IN ('payout', 'payout_failed', 'account', 'account_frozen', 'verification', 'question', 'billing', 'api', 'security', 'privacy', 'other')),
      subject      text NOT NULL CHECK (length(subject) BETWEEN 3 AND 140),
      app_version  text CHECK (length(app_version) <= 40),
      status       text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered', 'closed')),
      created_at   timestamptz NOT NULL,
      updated_at   timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX support_tickets_sender ON support_tickets (sender, created_at DESC)`.execute(db);
  await sql`CREATE INDEX support_tickets_person ON support_tickets (person_id, created_at DESC) WHERE person_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX support_tickets_email ON support_tickets (email, created_at DESC)`.execute(db);
  await sql`CREATE INDEX support_tickets_queue ON support_tickets (status, created_at DESC)`.execute(db);

  await sql`
    CREATE TABLE support_messages (
      seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      ticket_id   text NOT NULL REFERENCES support_tickets(id),
      author      text NOT NULL CHECK (author IN ('requester', 'support')),
      body        text NOT NULL CHECK (length(body) BETWEEN 1 AND 5000),
      created_at  timestamptz NOT NULL,
      mailed_at   timestamptz
    )`.execute(db);
  await sql`CREATE INDEX support_messages_ticket ON support_messages (ticket_id, seq)`.execute(db);

  await sql`
    CREATE TABLE support_dropped_posts (
      id          text PRIMARY KEY,
      sender      text NOT NULL,
      reason      text NOT NULL CHECK (reason IN ('honeypot', 'too_fast', 'opened_in_future')),
      created_at  timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX support_dropped_posts_sender ON support_dropped_posts (sender, created_at DESC)`.execute(db);
  await sql`CREATE INDEX support_dropped_posts_created ON support_dropped_posts (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE support_dropped_posts, support_messages, support_tickets`.execute(db);
}
