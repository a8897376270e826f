import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { LedgerEntriesTable } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';

export type LedgerEntryRow = Selectable<LedgerEntriesTable>;

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

    async balance(accountId: string, tx: Db = db): Promise<{ available: number; reserved: number }> {
      const row = await tx.selectFrom('balances').select(['available', 'reserved']).where('account_id', '=', accountId).executeTakeFirst();
      return row ?? { available: 0, reserved: 0 };
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

    async insertLot(lot: { accountId: string; entryId: string; amount: number; expiresAt: Date | null }, tx: Db): Promise<void> {
      await tx
        .insertInto('credit_lots')
        .values({ id: newId('ledger').replace('led_', 'lot_'), account_id: lot.accountId, entry_id: lot.entryId, amount: lot.amount, remaining: lot.amount, expires_at: lot.expiresAt, expired_at: null })
        .execute();
    },

    /**
     * Takes `amount` out of the account's lots, soonest-expiring first (credits that never expire
     * last), so people use the credits they would otherwise lose. Returns what each lot gave.
     */
    async consumeLots(accountId: string, amount: number, tx: Db): Promise<Array<{ lotId: string; amount: number }>> {
      const lots = await tx
        .selectFrom('credit_lots')
        .select(['id', 'remaining'])
        .where('account_id', '=', accountId)
        .where('remaining', '>', 0)
        .orderBy(sql`expires_at ASC NULLS LAST`)
        .orderBy('id')
        .forUpdate()
        .execute();
      const used: Array<{ lotId: string; amount: number }> = [];
      let left = amount;
      for (const lot of lots) {
        if (left === 0) break;
        const take = Math.min(left, lot.remaining);
        await tx.updateTable('credit_lots').set({ remaining: sql`remaining - ${take}` }).where('id', '=', lot.id).execute();
        used.push({ lotId: lot.id, amount: take });
        left -= take;
      }
      if (left > 0) throw new Error(`credit lots of ${accountId} hold less than the available balance`);
      return used;
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

    /** Lots past their expiry that still hold credits, locked for the expiry job. */
    async dueLots(now: Date, limit: number, tx: Db): Promise<Array<{ id: string; account_id: string; remaining: number; expires_at: Date }>> {
      const rows = await tx
        .selectFrom('credit_lots')
        .select(['id', 'account_id', 'remaining', 'expires_at'])
        .where('remaining', '>', 0)
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
      return rows as Array<{ id: string; account_id: string; remaining: number; expires_at: Date }>;
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
