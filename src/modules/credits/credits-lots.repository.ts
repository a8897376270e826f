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

    /**
     * The lots a question's reservations took from and have not had back, latest-expiring (and
     * never-expiring) first, locked; with what a refunded payment is still owed out of each.
     */
    async lockUnreturnedUses(questionId: string, tx: Db): Promise<Array<{ lotId: string; open: number; owed: number; owedRef: string | null }>> {
      const rows = await tx
        .selectFrom('lot_uses as u')
        .innerJoin('credit_lots as l', 'l.id', 'u.lot_id')
        .select(['u.lot_id', 'u.amount', 'u.returned', 'l.owed', 'l.owed_ref'])
        .where('u.question_id', '=', questionId)
        .where(sql<boolean>`u.returned < u.amount`)
        .orderBy(sql`l.expires_at DESC NULLS FIRST`)
        .forUpdate()
        .execute();
      return rows.map((r) => ({ lotId: r.lot_id, open: r.amount - r.returned, owed: r.owed, owedRef: r.owed_ref }));
    },

    /**
     * `amount` of a question's reservation back to its lot; `owedTaken` of it (at most the lot's
     * `owed`) goes to the refunded payment that is owed it instead of becoming spendable again.
     */
    async returnToLot(questionId: string, lotId: string, amount: number, owedTaken: number, tx: Db): Promise<void> {
      await tx.updateTable('lot_uses').set({ returned: sql`returned + ${amount}` }).where('question_id', '=', questionId).where('lot_id', '=', lotId).execute();
      await tx
        .updateTable('credit_lots')
        .set(owedTaken > 0 ? { remaining: sql`remaining + ${amount - owedTaken}`, owed: sql`owed - ${owedTaken}` } : { remaining: sql`remaining + ${amount}` })
        .where('id', '=', lotId)
        .execute();
    },

    /**
     * The account's lots that open holds of questions will give credits back to, locked,
     * soonest-expiring first, with how many (`held`) and how much of it is owed already. A
     * question's hold (reserved less spent less refunded, its follow-ups' included) comes back to
     * its lots latest-expiring first, as `refund` returns it (credits.holds.ts), so that is how it
     * is spread over them here; answers' spent shares never come back and are not counted. Lock
     * the balance row first (lock order). Read through the account's questions (lot uses are keyed
     * by question); a payment's refund is rare, so this reads what it needs only then.
     */
    async lockHeldLots(accountId: string, tx: Db): Promise<Array<{ id: string; entry_id: string; held: number; owed: number }>> {
      const holds = await tx
        .selectFrom('questions')
        .select([sql<string>`coalesce(parent_id, id)`.as('lot_question'), sql<number>`sum(credits_reserved - credits_spent - credits_refunded)::bigint`.as('hold')])
        .where('account_id', '=', accountId)
        .groupBy(sql`coalesce(parent_id, id)`)
        .having(sql<boolean>`sum(credits_reserved - credits_spent - credits_refunded) > 0`)
        .execute();
      if (holds.length === 0) return [];
      const uses = await tx
        .selectFrom('lot_uses as u')
        .innerJoin('credit_lots as l', 'l.id', 'u.lot_id')
        .select(['u.question_id', 'u.lot_id', 'u.amount', 'u.returned'])
        .where('u.question_id', 'in', holds.map((h) => h.lot_question))
        .where(sql<boolean>`u.returned < u.amount`)
        .orderBy('u.question_id')
        .orderBy(sql`l.expires_at DESC NULLS FIRST`)
        .execute();
      const left = new Map(holds.map((h) => [h.lot_question, Number(h.hold)]));
      const held = new Map<string, number>();
      for (const use of uses) {
        const give = Math.min(left.get(use.question_id) ?? 0, use.amount - use.returned);
        if (give <= 0) continue;
        left.set(use.question_id, (left.get(use.question_id) ?? 0) - give);
        held.set(use.lot_id, (held.get(use.lot_id) ?? 0) + give);
      }
      if (held.size === 0) return [];
      const lots = await tx
        .selectFrom('credit_lots')
        .select(['id', 'entry_id', 'owed'])
        .where('id', 'in', [...held.keys()])
        .orderBy(sql`expires_at ASC NULLS LAST`)
        .orderBy('id')
        .forUpdate()
        .execute();
      return lots.map((l) => ({ ...l, held: held.get(l.id) ?? 0 }));
    },

    /** Marks `amount` more of a lot's held credits as owed to `checkoutId`. */
    async addOwed(lotId: string, amount: number, checkoutId: string, tx: Db): Promise<void> {
      await tx.updateTable('credit_lots').set({ owed: sql`owed + ${amount}`, owed_ref: checkoutId }).where('id', '=', lotId).execute();
    },

    /** Forgets up to `upTo` of what `checkoutId` is still owed (a dispute won); returns how much. Lock the balance row first. */
    async forgetOwed(accountId: string, checkoutId: string, upTo: number, tx: Db): Promise<number> {
      const lots = await tx
        .selectFrom('credit_lots')
        .select(['id', 'owed'])
        .where('account_id', '=', accountId)
        .where('owed_ref', '=', checkoutId)
        .where('owed', '>', 0)
        .orderBy('id')
        .forUpdate()
        .execute();
      let left = upTo;
      for (const lot of lots) {
        if (left === 0) break;
        const forget = Math.min(left, lot.owed);
        await tx.updateTable('credit_lots').set({ owed: sql`owed - ${forget}` }).where('id', '=', lot.id).execute();
        left -= forget;
      }
      return upTo - left;
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
