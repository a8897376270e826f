import { sql, type Kysely } from 'kysely';

/**
 * Webhooks (issue 12; docs/webhooks.md): the endpoints a signed-in person registers, one delivery
 * per event and endpoint, and every attempt at it.
 *
 * webhook_endpoints: the signing secret is stored encrypted (AES-256-GCM under a key from config,
 * src/lib/secret-box.ts), never in plain text; after a rotation the previous secret keeps signing
 * beside the new one until `previous_secret_until`. `failing_since` is the first failed attempt
 * since the last success: an endpoint failing continuously for the retry schedule's length is
 * disabled with `disabled_reason`.
 *
 * webhook_deliveries: the durable queue, one row per event and endpoint (the event's id is the
 * `webhook-id` every attempt carries, so a delivery is named by it). A row is written in the same statement as the outbox
 * event it delivers (so in the transaction that makes the event true) for every enabled endpoint
 * of the account subscribed to its type. `next_attempt_at` is when it is due (null once it
 * succeeded or was given up); a sender claims it by setting `leased_until`, so two senders never
 * attempt it at once and a sender killed mid-attempt leaves it due again when the lease runs out.
 * `schedule_from` is the attempt count a redelivery restarted the retry schedule at.
 *
 * webhook_attempts: every attempt, kept for inspection (RELIABILITY R2.4) and pruned after 30 days
 * with its delivery.
 *
 * balances.low_credits_threshold: the `credits.low` event's per-account threshold (0: never),
 * on the row every spend already locks and updates, so checking it costs no query.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE webhook_endpoints (
      id                     text PRIMARY KEY,
      account_id             text NOT NULL REFERENCES accounts(id),
      url                    text NOT NULL,
      events                 text[] NOT NULL,
      description            text,
      enabled                boolean NOT NULL DEFAULT true,
      disabled_reason        text,
      secret_box             text NOT NULL,
      previous_secret_box    text,
      previous_secret_until  timestamptz,
      created_by             text,
      created_at             timestamptz NOT NULL,
      updated_at             timestamptz NOT NULL,
      last_delivery_at       timestamptz,
      last_status            integer,
      last_success_at        timestamptz,
      failing_since          timestamptz
    )`.execute(db);
  // The fan-out's lookup (account, enabled) runs in every transaction that emits an event.
  await sql`CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id) WHERE enabled`.execute(db);
  await sql`CREATE INDEX webhook_endpoints_listing ON webhook_endpoints (account_id, created_at)`.execute(db);

  await sql`
    CREATE TABLE webhook_deliveries (
      endpoint_id      text NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
      event_id         text NOT NULL REFERENCES outbox_events(id),
      status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
      attempts         integer NOT NULL DEFAULT 0,
      schedule_from    integer NOT NULL DEFAULT 0,
      next_attempt_at  timestamptz,
      leased_until     timestamptz,
      last_attempt_at  timestamptz,
      last_status      integer,
      last_error       text,
      last_duration_ms integer,
      created_at       timestamptz NOT NULL,
      completed_at     timestamptz,
      PRIMARY KEY (endpoint_id, event_id),
      CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
    )`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_listing ON webhook_deliveries (endpoint_id, created_at DESC)`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id)`.execute(db);
  await sql`CREATE INDEX webhook_deliveries_completed ON webhook_deliveries (completed_at) WHERE completed_at IS NOT NULL`.execute(db);

  await sql`
    CREATE TABLE webhook_attempts (
      endpoint_id    text NOT NULL,
      event_id       text NOT NULL,
      attempt        integer NOT NULL,
      at             timestamptz NOT NULL,
      status         integer,
      error          text,
      duration_ms    integer NOT NULL,
      response_body  text,
      PRIMARY KEY (endpoint_id, event_id, attempt),
      FOREIGN KEY (endpoint_id, event_id) REFERENCES webhook_deliveries (endpoint_id, event_id) ON DELETE CASCADE
    )`.execute(db);

  await sql`ALTER TABLE balances ADD COLUMN low_credits_threshold integer NOT NULL DEFAULT 1000 CHECK (low_credits_threshold >= 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE balances DROP COLUMN low_credits_threshold`.execute(db);
  await sql`DROP TABLE webhook_attempts`.execute(db);
  await sql`DROP TABLE webhook_deliveries`.execute(db);
  await sql`DROP TABLE webhook_endpoints`.execute(db);
}
