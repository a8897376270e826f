import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';

export interface OpenLot {
  id: string;
  /** The ledger row that added the lot's credits (a grant, a purchase). */
  entry_id: string;
  remaining: number;
  expires_at: Date | null;
}

export interface LotUse {
  lotId: string;
  amount: number;
}

/**
 * SQL of credit lots (what each grant or purchase added, and until when it can be spent) and of
 * lot uses (which lots a question's reservations came from). Lots are locked after the balance
 * row (docs/credits.md "Lock order").
 */
export function createCreditsLotsRepository(db: Db) {
  return {
    async insertLot(lot: { accountId: string; entryId: string; amount: number; expiresAt: Date | null }, tx: Db): Promise<void> {
      await tx
        .insertInto('credit_lots')
        .values({ id: newId('lot'), account_id: lot.accountId, entry_id: lot.entryId, amount: lot.amount, remaining: lot.amount, expires_at: lot.expiresAt, expired_at: null })
        .execute();
    },

    /**
     * The account's lots that hold credits, locked, in the order they are spent: soonest-expiring
     * first, credits that never expire last (people use the credits they would otherwise lose).
     * Lots already past their expiry are among them; callers skip those (the clawback,
     * credits.purchases.ts; asks and removals spend through credits-reserve.repository.ts). Lock
     * the balance row first (lock order).
     */
    async lockOpenLots(accountId: string, tx: Db): Promise<OpenLot[]> {
      return tx
        .selectFrom('credit_lots')
        .select(['id', 'entry_id', 'remaining', 'expires_at'])
        .where('account_id', '=', accountId)
        // Literal, not a parameter: the prepared statement's generic plan can then use credit_lots_open (WHERE remaining > 0).
        .where('remaining', '>', sql.lit(0))
        .orderBy(sql`expires_at ASC NULLS LAST`)
        .orderBy('id')
        .forUpdate()
        .execute();
    },

    async takeFromLots(uses: LotUse[], tx: Db): Promise<void> {
      for (const use of uses) await tx.updateTable('credit_lots').set({ remaining: sql`remaining - ${use.amount}` }).where('id', '=', use.lotId).execute();
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

    /**
     * Lots of any account that still hold credits and expire after `now` and no later than
     * `until`, for which no `credits.expiring` event was written yet, in id order after `afterId`
     * (keyset pages). Each comes with that event's unique reference,
     * `credits.expiring:<lot id>:<expires_at as ISO 8601 UTC with milliseconds>`, made here so the
     * check and the event use the same string. Not locked: the warning takes nothing from the lot.
     */
    async unwarnedExpiringLots(now: Date, until: Date, afterId: string | null, limit: number, tx: Db = db): Promise<Array<{ id: string; accountId: string; remaining: number; expiresAt: Date; uniqueRef: string }>> {
      const ref = sql<string>`'credits.expiring:' || l.id || ':' || to_char(l.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
      let query = tx
        .selectFrom('credit_lots as l')
        .select(['l.id', 'l.account_id', 'l.remaining', 'l.expires_at', ref.as('unique_ref')])
        .where('l.remaining', '>', 0)
        .where('l.expires_at', '>', now)
        .where('l.expires_at', '<=', until)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('outbox_events as e').select('e.id').where('e.unique_ref', '=', ref))))
        .orderBy('l.id')
        .limit(limit);
      if (afterId !== null) query = query.where('l.id', '>', afterId);
      const rows = await query.execute();
      return rows.map((r) => ({ id: r.id, accountId: r.account_id, remaining: r.remaining, expiresAt: r.expires_at as Date, uniqueRef: r.unique_ref }));
    },

    async expiringLots(accountId: string, now: Date, tx: Db = db): Promise<Array<{ credits: number; expiresAt: Date }>> {
      const rows = await tx
        .selectFrom('credit_lots')
        .select(['expires_at', sql<number>`sum(remaining)::bigint`.as('credits')])
        .where('account_id', '=', accountId)
        .where('remaining', '>', sql.lit(0))
        .where('expires_at', 'is not', null)
        .where('expires_at', '>', now)
        .groupBy('expires_at')
        .orderBy('expires_at')
        .execute();
      return rows.map((r) => ({ credits: r.credits, expiresAt: r.expires_at as Date }));
    },
  };
}
export type CreditsLotsRepository = ReturnType<typeof createCreditsLotsRepository>;
