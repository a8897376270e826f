import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { LedgerEntriesTable } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';

export type LedgerEntryRow = Selectable<LedgerEntriesTable>;

export interface OpenLot {
  id: string;
  remaining: number;
  expires_at: Date | null;
}

export interface LotUse {
  lotId: string;
  amount: number;
}

export interface NewEntry {
  accountId: string;
  kind: string;
  state: string;
  amount: number;
  title: string;
  ref: string | null;
  uniqueRef: string;
  keyId?: string | null;
  by?: string | null;
  at: Date;
}

/**
 * SQL of the credits ledger. Every method takes the transaction it must run in: money moves only
 * inside a transaction that also writes its ledger rows (ARCHITECTURE §3 rule 3).
 */
export function createCreditsRepository(db: Db) {
  return {
    async ensureBalance(accountId: string, tx: Db = db): Promise<void> {
      await tx.insertInto('balances').values({ account_id: accountId }).onConflict((oc) => oc.doNothing()).execute();
    },

    /**
     * What the account can spend at `at` and what is reserved. `balances.available` still counts
     * credits of lots past their expiry that the expiry job has not emptied yet; they are never
     * spendable (docs/credits.md "Expiry"), so they are taken off here, in the same query.
     */
    async balance(accountId: string, at: Date, tx: Db = db): Promise<{ available: number; reserved: number }> {
      const row = await tx
        .selectFrom('balances as b')
        .select([
          'b.available',
          'b.reserved',
          sql<number>`(SELECT coalesce(sum(l.remaining), 0) FROM credit_lots l WHERE l.account_id = b.account_id AND l.remaining > 0 AND l.expires_at <= ${at})::bigint`.as('expired'),
        ])
        .where('b.account_id', '=', accountId)
        .executeTakeFirst();
      return row ? { available: row.available - row.expired, reserved: row.reserved } : { available: 0, reserved: 0 };
    },

    /** Locks the account's balance row: the first lock of any change to its credits (lock order, docs/credits.md). */
    async lockBalance(accountId: string, tx: Db): Promise<void> {
      await tx.selectFrom('balances').select('account_id').where('account_id', '=', accountId).forUpdate().execute();
    },

    /** Writes an entry once: a second post with the same unique_ref returns null and changes nothing. */
    async insertEntry(entry: NewEntry, tx: Db): Promise<LedgerEntryRow | null> {
      const row = await tx
        .insertInto('ledger_entries')
        .values({
          id: newId('ledger'),
          account_id: entry.accountId,
          kind: entry.kind,
          state: entry.state,
          amount: entry.amount,
          title: entry.title,
          ref: entry.ref,
          unique_ref: entry.uniqueRef,
          key_id: entry.keyId ?? null,
          by: entry.by ?? null,
          at: entry.at,
        })
        .onConflict((oc) => oc.column('unique_ref').doNothing())
        .returningAll()
        .executeTakeFirst();
      return row ?? null;
    },

    /** Adds (or with a negative delta removes) available credits; false if that would go below zero. */
    async addAvailable(accountId: string, delta: number, at: Date, tx: Db): Promise<boolean> {
      const result = await tx
        .updateTable('balances')
        .set({ available: sql`available + ${delta}`, updated_at: at })
        .where('account_id', '=', accountId)
        .where(sql<boolean>`available + ${delta} >= 0`)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Moves `amount` from available to reserved if available (expired lots included: the lots
     * decide what is spendable) covers it; locks the balance row. Returns available after, or
     * null when it does not cover it.
     */
    async reserve(accountId: string, amount: number, at: Date, tx: Db): Promise<number | null> {
      const moved = await tx
        .updateTable('balances')
        .set({ available: sql`available - ${amount}`, reserved: sql`reserved + ${amount}`, updated_at: at })
        .where('account_id', '=', accountId)
        .where('available', '>=', amount)
        .returning(['available'])
        .executeTakeFirst();
      return moved ? moved.available : null;
    },

    /** One answer's share leaves the hold (credits − reserved is unchanged). */
    async spendReserved(accountId: string, amount: number, at: Date, tx: Db): Promise<void> {
      await tx.updateTable('balances').set({ reserved: sql`reserved - ${amount}`, updated_at: at }).where('account_id', '=', accountId).execute();
    },

    /** What is left of a hold goes back to available. */
    async releaseReserved(accountId: string, amount: number, at: Date, tx: Db): Promise<void> {
      await tx
        .updateTable('balances')
        .set({ available: sql`available + ${amount}`, reserved: sql`reserved - ${amount}`, updated_at: at })
        .where('account_id', '=', accountId)
        .execute();
    },

    async insertLot(lot: { accountId: string; entryId: string; amount: number; expiresAt: Date | null }, tx: Db): Promise<void> {
      await tx
        .insertInto('credit_lots')
        .values({ id: newId('ledger').replace('led_', 'lot_'), account_id: lot.accountId, entry_id: lot.entryId, amount: lot.amount, remaining: lot.amount, expires_at: lot.expiresAt, expired_at: null })
        .execute();
    },

    /**
     * The account's lots that hold credits, locked, in the order they are spent: soonest-expiring
     * first, credits that never expire last (people use the credits they would otherwise lose).
     * Lots already past their expiry are among them; callers skip those (credit-lots.ts). Lock
     * the balance row first (lock order).
     */
    async lockOpenLots(accountId: string, tx: Db): Promise<OpenLot[]> {
      return tx
        .selectFrom('credit_lots')
        .select(['id', 'remaining', 'expires_at'])
        .where('account_id', '=', accountId)
        .where('remaining', '>', 0)
        .orderBy(sql`expires_at ASC NULLS LAST`)
        .orderBy('id')
        .forUpdate()
        .execute();
    },

    async takeFromLots(uses: LotUse[], tx: Db): Promise<void> {
      for (const use of uses) await tx.updateTable('credit_lots').set({ remaining: sql`remaining - ${use.amount}` }).where('id', '=', use.lotId).execute();
    },

    /** Which lots a question's reservations came from, so that a refund goes back to them. */
    async recordLotUses(questionId: string, uses: LotUse[], tx: Db): Promise<void> {
      for (const use of uses) {
        await tx
          .insertInto('lot_uses')
          .values({ question_id: questionId, lot_id: use.lotId, amount: use.amount })
          .onConflict((oc) => oc.columns(['question_id', 'lot_id']).doUpdateSet({ amount: sql`lot_uses.amount + ${use.amount}` }))
          .execute();
      }
    },

    /** The lots a question's reservations took from and have not had back, latest-expiring (and never-expiring) first, locked. */
    async lockUnreturnedUses(questionId: string, tx: Db): Promise<Array<{ lotId: string; open: number }>> {
      const rows = await tx
        .selectFrom('lot_uses as u')
        .innerJoin('credit_lots as l', 'l.id', 'u.lot_id')
        .select(['u.lot_id', 'u.amount', 'u.returned'])
        .where('u.question_id', '=', questionId)
        .where(sql<boolean>`u.returned < u.amount`)
        .orderBy(sql`l.expires_at DESC NULLS FIRST`)
        .forUpdate()
        .execute();
      return rows.map((r) => ({ lotId: r.lot_id, open: r.amount - r.returned }));
    },

    async returnToLot(questionId: string, lotId: string, amount: number, tx: Db): Promise<void> {
      await tx.updateTable('lot_uses').set({ returned: sql`returned + ${amount}` }).where('question_id', '=', questionId).where('lot_id', '=', lotId).execute();
      await tx.updateTable('credit_lots').set({ remaining: sql`remaining + ${amount}` }).where('id', '=', lotId).execute();
    },

    /** Where a row sits in its account's ledger: the position a page cursor names (lib/cursor.ts). */
    async entryPosition(accountId: string, id: string, tx: Db = db): Promise<number | undefined> {
      const row = await tx.selectFrom('ledger_entries').select('seq').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
      return row?.seq;
    },

    async listEntries(accountId: string, beforeSeq: number | null, limit: number, tx: Db = db): Promise<LedgerEntryRow[]> {
      let q = tx.selectFrom('ledger_entries').selectAll().where('account_id', '=', accountId);
      if (beforeSeq !== null) q = q.where('seq', '<', beforeSeq);
      return q.orderBy('seq', 'desc').limit(limit).execute();
    },

    async expiringLots(accountId: string, now: Date, tx: Db = db): Promise<Array<{ credits: number; expiresAt: Date }>> {
      const rows = await tx
        .selectFrom('credit_lots')
        .select(['expires_at', sql<number>`sum(remaining)::bigint`.as('credits')])
        .where('account_id', '=', accountId)
        .where('remaining', '>', 0)
        .where('expires_at', 'is not', null)
        .where('expires_at', '>', now)
        .groupBy('expires_at')
        .orderBy('expires_at')
        .execute();
      return rows.map((r) => ({ credits: r.credits, expiresAt: r.expires_at as Date }));
    },

    /** Accounts with lots past their expiry that still hold credits (not locked: the job locks each account in turn). */
    async accountsWithDueLots(now: Date, limit: number, tx: Db = db): Promise<string[]> {
      const rows = await tx
        .selectFrom('credit_lots')
        .select('account_id')
        .distinct()
        .where('remaining', '>', 0)
        .where('expires_at', '<=', now)
        .limit(limit)
        .execute();
      return rows.map((r) => r.account_id);
    },

    /** One account's lots past their expiry that still hold credits, locked (after its balance row: lock order). */
    async lockDueLots(accountId: string, now: Date, tx: Db): Promise<Array<{ id: string; remaining: number; expires_at: Date }>> {
      const rows = await tx
        .selectFrom('credit_lots')
        .select(['id', 'remaining', 'expires_at'])
        .where('account_id', '=', accountId)
        .where('remaining', '>', 0)
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .orderBy('id')
        .forUpdate()
        .execute();
      return rows as Array<{ id: string; remaining: number; expires_at: Date }>;
    },

    async emptyLot(lotId: string, at: Date, tx: Db): Promise<void> {
      await tx.updateTable('credit_lots').set({ remaining: 0, expired_at: at }).where('id', '=', lotId).execute();
    },

    async spentToday(keyId: string, day: string, tx: Db = db): Promise<number> {
      const row = await tx.selectFrom('key_daily_spend').select('spent').where('key_id', '=', keyId).where('day', '=', day).executeTakeFirst();
      return row?.spent ?? 0;
    },

    /**
     * The per-key daily cap as a conditional counter (R3.4): adds `amount` to today's spend only if
     * the total stays within `cap`. Row locking of INSERT … ON CONFLICT DO UPDATE re-checks the
     * condition against the latest committed total, so concurrent asks can never pass the cap.
     */
    async chargeKeyCap(keyId: string, day: string, amount: number, cap: number, tx: Db): Promise<boolean> {
      const result = await sql<{ spent: number }>`
        INSERT INTO key_daily_spend (key_id, day, spent)
        SELECT ${keyId}, ${day}::date, ${amount}::bigint WHERE ${amount}::bigint <= ${cap}::bigint
        ON CONFLICT (key_id, day) DO UPDATE SET spent = key_daily_spend.spent + EXCLUDED.spent
        WHERE key_daily_spend.spent + EXCLUDED.spent <= ${cap}::bigint
        RETURNING spent`.execute(tx);
      return result.rows.length === 1;
    },

    /**
     * Remembers what a capped key reserved for a question today, so that a refund of that
     * question today gives the cap back (net spend, docs/credits.md). Written before the cap is
     * charged (lock order: cap charges, then the key's daily spend).
     */
    async recordCapCharge(charge: { questionId: string; keyId: string; day: string; amount: number }, tx: Db): Promise<void> {
      await tx
        .insertInto('key_cap_charges')
        .values({ question_id: charge.questionId, key_id: charge.keyId, day: charge.day, amount: charge.amount })
        .onConflict((oc) => oc.columns(['question_id', 'key_id', 'day']).doUpdateSet({ amount: sql`key_cap_charges.amount + ${charge.amount}` }))
        .execute();
    },

    /**
     * Gives back up to `amount` of what capped keys reserved for the question on `day` to those
     * keys' daily spend, once (`returned` counts what went back). Returns what went back.
     */
    async returnCapCharges(questionId: string, day: string, amount: number, tx: Db): Promise<number> {
      const charges = await tx
        .selectFrom('key_cap_charges')
        .select(['key_id', 'amount', 'returned'])
        .where('question_id', '=', questionId)
        .where('day', '=', day)
        .where(sql<boolean>`returned < amount`)
        .orderBy('key_id')
        .forUpdate()
        .execute();
      let left = amount;
      for (const charge of charges) {
        if (left === 0) break;
        const give = Math.min(left, charge.amount - charge.returned);
        await tx.updateTable('key_cap_charges').set({ returned: sql`returned + ${give}` }).where('question_id', '=', questionId).where('key_id', '=', charge.key_id).where('day', '=', day).execute();
        await tx.updateTable('key_daily_spend').set({ spent: sql`spent - ${give}` }).where('key_id', '=', charge.key_id).where('day', '=', day).execute();
        left -= give;
      }
      return amount - left;
    },

    /** Sums for reconciliation: every balance must equal what its entries and lots say. */
    async reconciliationRows(tx: Db = db) {
      return tx
        .selectFrom('balances as b')
        .select([
          'b.account_id',
          'b.available',
          'b.reserved',
          sql<number>`(SELECT coalesce(sum(amount), 0) FROM ledger_entries e WHERE e.account_id = b.account_id)::bigint`.as('ledger_sum'),
          sql<number>`(SELECT coalesce(sum(remaining), 0) FROM credit_lots l WHERE l.account_id = b.account_id)::bigint`.as('lots_sum'),
          sql<number>`(SELECT coalesce(sum(credits_reserved - credits_spent - credits_refunded), 0) FROM questions q WHERE q.account_id = b.account_id)::bigint`.as('holds_sum'),
        ])
        .execute();
    },
  };
}
export type CreditsRepository = ReturnType<typeof createCreditsRepository>;
