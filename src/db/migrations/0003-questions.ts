import { sql, type Kysely } from 'kysely';

/**
 * Questions, their answers, projects, idempotency keys and the event outbox (docs/asking.md,
 * docs/lifecycle.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE projects (
      id           text PRIMARY KEY,
      account_id   text NOT NULL REFERENCES accounts(id),
      name         text NOT NULL,
      description  text,
      goal         text,
      bookmarked   boolean NOT NULL DEFAULT false,
      archived     boolean NOT NULL DEFAULT false,
      created_at   timestamptz NOT NULL,
      updated_at   timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX projects_account ON projects (account_id, created_at DESC)`.execute(db);

  await sql`
    CREATE TABLE questions (
      id                  text PRIMARY KEY,
      seq                 bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
      account_id          text NOT NULL REFERENCES accounts(id),
      key_id              text,
      source              text NOT NULL,
      status              text NOT NULL CHECK (status IN ('draft', 'scheduled', 'live', 'complete', 'underfilled', 'cancelled', 'refused')),
      type                text NOT NULL,
      draft               jsonb NOT NULL,
      n                   integer NOT NULL CHECK (n >= 1),
      tier                smallint NOT NULL,
      credits_per_answer  integer NOT NULL CHECK (credits_per_answer >= 0),
      credits_reserved    bigint NOT NULL CHECK (credits_reserved >= 0),
      credits_spent       bigint NOT NULL DEFAULT 0 CHECK (credits_spent >= 0),
      credits_refunded    bigint NOT NULL DEFAULT 0 CHECK (credits_refunded >= 0),
      answered            integer NOT NULL DEFAULT 0 CHECK (answered >= 0),
      eta_minutes         integer NOT NULL,
      open_for_days       integer NOT NULL DEFAULT 7,
      scheduled_for       timestamptz,
      live_at             timestamptz,
      closes_at           timestamptz,
      closed_at           timestamptz,
      created_at          timestamptz NOT NULL,
      updated_at          timestamptz NOT NULL,
      project_id          text REFERENCES projects(id) ON DELETE SET NULL,
      labels              text[] NOT NULL DEFAULT '{}',
      archived            boolean NOT NULL DEFAULT false,
      bookmarked          boolean NOT NULL DEFAULT false,
      external_ref        text,
      public_code         text UNIQUE,
      link_code           text NOT NULL UNIQUE,
      refused_category    text,
      variant_group       text,
      parent_id           text REFERENCES questions(id),
      min_confidence      text,
      private             boolean NOT NULL DEFAULT false,
      -- Set by PATCH minAnswers: the question completes as soon as this many have answered.
      min_answers         integer,
      -- Answers per option label, kept in the answer's transaction: lists and the leader line
      -- read it instead of aggregating answers.
      tally               jsonb NOT NULL DEFAULT '{}',
      CHECK (credits_spent + credits_refunded <= credits_reserved),
      CHECK (answered <= n)
    )`.execute(db);
  await sql`CREATE INDEX questions_account ON questions (account_id, seq DESC)`.execute(db);
  await sql`CREATE INDEX questions_due ON questions (status, scheduled_for, closes_at)`.execute(db);
  await sql`CREATE INDEX questions_labels ON questions USING gin (labels)`.execute(db);
  await sql`CREATE INDEX questions_project ON questions (project_id) WHERE project_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX questions_parent ON questions (parent_id) WHERE parent_id IS NOT NULL`.execute(db);

  await sql`
    CREATE TABLE answers (
      id               text PRIMARY KEY,
      seq              bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
      question_id      text NOT NULL REFERENCES questions(id),
      head_id          text REFERENCES heads(id),
      source           text NOT NULL CHECK (source IN ('panel', 'link', 'simulator')),
      tier             smallint NOT NULL,
      country          text,
      age_band         text,
      gender           text,
      tags             text[] NOT NULL DEFAULT '{}',
      answer           jsonb NOT NULL,
      option_label     text,
      text             text,
      reason           text,
      credits          integer NOT NULL CHECK (credits >= 0),
      attestation_ref  text NOT NULL UNIQUE,
      dwell_ms         integer,
      answered_at      timestamptz NOT NULL,
      pinned           boolean NOT NULL DEFAULT false,
      removed          boolean NOT NULL DEFAULT false
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX answers_one_per_head ON answers (question_id, head_id) WHERE head_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX answers_question ON answers (question_id, seq DESC)`.execute(db);
  await sql`CREATE INDEX answers_at ON answers (answered_at)`.execute(db);
  await sql`CREATE INDEX answers_head ON answers (head_id) WHERE head_id IS NOT NULL`.execute(db);

  // Which lots an ask took its credits from, so refunds go back to the same lots.
  await sql`
    CREATE TABLE lot_uses (
      -- Deferred: the ask reserves credits before it writes the question row, in one transaction.
      question_id  text NOT NULL REFERENCES questions(id) DEFERRABLE INITIALLY DEFERRED,
      lot_id       text NOT NULL REFERENCES credit_lots(id),
      amount       bigint NOT NULL CHECK (amount > 0),
      returned     bigint NOT NULL DEFAULT 0 CHECK (returned >= 0 AND returned <= amount),
      PRIMARY KEY (question_id, lot_id)
    )`.execute(db);

  await sql`
    CREATE TABLE idempotency_keys (
      account_id       text NOT NULL REFERENCES accounts(id),
      key              text NOT NULL,
      request_hash     text NOT NULL,
      response_status  integer NOT NULL,
      response_body    jsonb NOT NULL,
      created_at       timestamptz NOT NULL,
      expires_at       timestamptz NOT NULL,
      PRIMARY KEY (account_id, key)
    )`.execute(db);
  await sql`CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at)`.execute(db);

  await sql`
    CREATE TABLE outbox_events (
      id          text PRIMARY KEY,
      seq         bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
      account_id  text NOT NULL REFERENCES accounts(id),
      type        text NOT NULL,
      payload     jsonb NOT NULL,
      unique_ref  text NOT NULL UNIQUE,
      created_at  timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX outbox_events_account ON outbox_events (account_id, seq)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE outbox_events, idempotency_keys, lot_uses, answers, questions, projects`.execute(db);
}
