import { sql, type Kysely } from 'kysely';

/**
 * What a refunded or disputed payment is still owed out of a lot's reservations (docs/payments.md
 * "Refunds and disputes"): a clawback takes what can be spent at once, and the credits questions
 * hold are taken when they come back to their lot (credits.holds.ts `refund`), instead of
 * becoming spendable again. `owed_ref` is the checkout that is owed (the clawback rows' ref).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE credit_lots ADD COLUMN owed bigint NOT NULL DEFAULT 0 CHECK (owed >= 0), ADD COLUMN owed_ref text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE credit_lots DROP COLUMN owed, DROP COLUMN owed_ref`.execute(db);
}
