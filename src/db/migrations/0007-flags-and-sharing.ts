import { sql, type Kysely } from 'kysely';

/**
 * Moderation and sharing (docs/moderation.md, docs/sharing.md).
 *
 * answer_flags: a requester's flag on one answer, reviewed by an operator (`flag:decide`). At most
 * one open flag per answer (partial unique index); `refund_credits` is what upholding refunds.
 * disputes: a requester's dispute of a closed question, reviewed by an operator
 * (`dispute:decide`); at most one open dispute per question.
 * share_links: private, unlisted links to a question's full results. Only the SHA-256 of the
 * token is stored; the token itself is shown once, at creation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE answer_flags (
      id               text PRIMARY KEY,
      seq              bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
      account_id       text NOT NULL REFERENCES accounts(id),
      question_id      text NOT NULL REFERENCES questions(id),
      answer_id        text NOT NULL REFERENCES answers(id),
      attestation_ref  text NOT NULL,
      key_id           text,
      reason           text NOT NULL CHECK (reason IN ('off_topic', 'low_effort', 'abusive', 'automated')),
      note             text CHECK (char_length(note) <= 500),
      status           text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'upheld', 'dismissed')),
      refund_credits   bigint NOT NULL CHECK (refund_credits >= 0),
      created_at       timestamptz NOT NULL,
      decided_at       timestamptz,
      CHECK ((status = 'open') = (decided_at IS NULL))
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX answer_flags_one_open ON answer_flags (answer_id) WHERE status = 'open'`.execute(db);
  await sql`CREATE INDEX answer_flags_question ON answer_flags (question_id, seq)`.execute(db);
  await sql`CREATE INDEX answer_flags_review ON answer_flags (status, seq)`.execute(db);

  await sql`
    CREATE TABLE disputes (
      id              text PRIMARY KEY,
      seq             bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
      account_id      text NOT NULL REFERENCES accounts(id),
      question_id     text NOT NULL REFERENCES questions(id),
      key_id          text,
      reason          text NOT NULL CHECK (char_length(reason) BETWEEN 10 AND 2000),
      status          text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'upheld', 'rejected')),
      refund_credits  bigint NOT NULL DEFAULT 0 CHECK (refund_credits >= 0),
      decision_note   text,
      created_at      timestamptz NOT NULL,
      decided_at      timestamptz,
      CHECK ((status = 'open') = (decided_at IS NULL))
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX disputes_one_open ON disputes (question_id) WHERE status = 'open'`.execute(db);
  await sql`CREATE INDEX disputes_review ON disputes (status, seq)`.execute(db);

  await sql`
    CREATE TABLE share_links (
      id           text PRIMARY KEY,
      seq          bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
      account_id   text NOT NULL REFERENCES accounts(id),
      question_id  text NOT NULL REFERENCES questions(id),
      key_id       text,
      label        text CHECK (char_length(label) <= 80),
      token_hash   bytea NOT NULL UNIQUE,
      created_at   timestamptz NOT NULL,
      expires_at   timestamptz NOT NULL,
      revoked_at   timestamptz
    )`.execute(db);
  await sql`CREATE INDEX share_links_question ON share_links (question_id, seq DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE share_links, disputes, answer_flags`.execute(db);
}
