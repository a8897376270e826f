import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/**
 * SQL of the credits upkeep (credits-upkeep.service.ts): the expiry job's lots past their date,
 * and the sums reconciliation checks every balance against.
 */
export function createCreditsUpkeepRepository(db: Db) {
  return {
    /** Accounts with lots past their expiry that still hold credits (not locked: the job locks each account in turn). */
    async accountsWithDueLots(now: Date, limit: number, tx: Db = db): Promise<string[]> {
      const rows = await tx
        .selectFrom('credit_lots')
        .select('account_id')
        .distinct()
        // Literal, not a parameter: the prepared statement's generic plan can then use credit_lots_open (WHERE remaining > 0).
        .where('remaining', '>', sql.lit(0))
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
        .where('remaining', '>', sql.lit(0))
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

    /** Sums for reconciliation: every balance must equal what its entries and lots say. */
    async reconciliationRows(tx: Db = db) {
      return tx
        .selectFrom('balances as b')
        .select([
          'b.account_id',
          'b.available',
          'b.reserved',
          // A pending row (a bank transfer awaited) and a reversed one (it never came) moved nothing.
          sql<number>`(SELECT coalesce(sum(amount), 0) FROM ledger_entries e WHERE e.account_id = b.account_id AND e.state NOT IN ('pending', 'reversed'))::bigint`.as('ledger_sum'),
          sql<number>`(SELECT coalesce(sum(remaining), 0) FROM credit_lots l WHERE l.account_id = b.account_id)::bigint`.as('lots_sum'),
          sql<number>`(SELECT coalesce(sum(credits_reserved - credits_spent - credits_refunded), 0) FROM questions q WHERE q.account_id = b.account_id)::bigint`.as('holds_sum'),
        ])
        .execute();
    },
  };
}
export type CreditsUpkeepRepository = ReturnType<typeof createCreditsUpkeepRepository>;
