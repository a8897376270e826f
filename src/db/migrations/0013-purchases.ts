import { sql, type Kysely } from 'kysely';

/**
 * Buying credits (issue 10 point 5; docs/payments.md).
 *
 * checkouts: one attempt to buy a pack, made by a signed-in person for an account, paid through
 * a provider (Stripe, or the built-in test provider). `provider_ref` is the provider's object (a
 * Checkout Session, a PaymentIntent); `payment_ref` the payment that refunds and disputes name.
 * `status` moves open → pending (a bank transfer awaited) → paid, or to failed / expired;
 * `refunded_amount` is what the provider says was refunded so far; `disputes` each dispute's
 * amount and state (open, won, lost), kept per dispute so its events work in any order;
 * `clawed_back` the credits taken back for them and `clawback_shortfall` those that could not be
 * (already spent), so a later event takes or gives back only the difference.
 * payment_events: every provider event applied, by its id, in the same transaction as its effect:
 * a replayed event finds its id and changes nothing (R8.4).
 * payment_customers: the provider's customer of an account (Stripe bank transfers need one).
 *
 * The ledger's rows stay immutable, with one exception the spec's row states need: a `pending`
 * row (a bank transfer awaited) may become `available` (the money arrived) or `reversed` (it did
 * not), and nothing else of it may change. Reconciliation counts neither pending nor reversed rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE checkouts (
      id               text PRIMARY KEY,
      account_id       text NOT NULL REFERENCES accounts(id),
      person_id        text NOT NULL REFERENCES people(id),
      provider         text NOT NULL CHECK (provider IN ('stripe', 'test')),
      provider_ref     text,
      payment_ref      text,
      method           text NOT NULL CHECK (method IN ('card', 'bank_transfer')),
      pack             text NOT NULL,
      credits          bigint NOT NULL CHECK (credits > 0),
      amount           bigint NOT NULL CHECK (amount > 0),
      currency         text NOT NULL CHECK (currency IN ('GBP', 'USD', 'EUR', 'CAD')),
      status           text NOT NULL CHECK (status IN ('open', 'pending', 'paid', 'failed', 'expired')),
      url              text,
      bank_transfer    jsonb,
      return_path      text,
      created_at       timestamptz NOT NULL,
      expires_at       timestamptz NOT NULL,
      paid_at          timestamptz,
      clawed_back      bigint NOT NULL DEFAULT 0 CHECK (clawed_back >= 0),
      clawback_shortfall bigint NOT NULL DEFAULT 0 CHECK (clawback_shortfall >= 0),
      refunded_amount  bigint NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0),
      disputes         jsonb NOT NULL DEFAULT '{}'
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX checkouts_provider_ref ON checkouts (provider, provider_ref) WHERE provider_ref IS NOT NULL`.execute(db);
  await sql`CREATE INDEX checkouts_payment_ref ON checkouts (provider, payment_ref) WHERE payment_ref IS NOT NULL`.execute(db);
  await sql`CREATE INDEX checkouts_account ON checkouts (account_id, created_at DESC)`.execute(db);
  await sql`CREATE INDEX checkouts_awaited ON checkouts (expires_at) WHERE status IN ('open', 'pending')`.execute(db);

  await sql`
    CREATE TABLE payment_events (
      provider     text NOT NULL,
      event_id     text NOT NULL,
      type         text NOT NULL,
      checkout_id  text REFERENCES checkouts(id),
      received_at  timestamptz NOT NULL,
      PRIMARY KEY (provider, event_id)
    )`.execute(db);

  await sql`
    CREATE TABLE payment_customers (
      account_id    text NOT NULL REFERENCES accounts(id),
      provider      text NOT NULL,
      customer_ref  text NOT NULL,
      PRIMARY KEY (account_id, provider)
    )`.execute(db);

  await sql`
    CREATE OR REPLACE FUNCTION ledger_entries_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD.state = 'pending' AND NEW.state IN ('available', 'reversed')
         AND ROW(NEW.id, NEW.seq, NEW.account_id, NEW.kind, NEW.amount, NEW.title, NEW.ref, NEW.unique_ref, NEW.key_id, NEW."by", NEW.at)
             IS NOT DISTINCT FROM ROW(OLD.id, OLD.seq, OLD.account_id, OLD.kind, OLD.amount, OLD.title, OLD.ref, OLD.unique_ref, OLD.key_id, OLD."by", OLD.at)
      THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION 'ledger entries are immutable (only a pending row may become available or reversed)';
    END $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION ledger_entries_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'ledger entries are immutable'; END $$`.execute(db);
  await sql`DROP TABLE payment_customers, payment_events, checkouts`.execute(db);
}
