import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import type { CreditsRepository } from './credits.repository.ts';
import { utcDay } from './credits.service.ts';

/**
 * The money of a question, in the caller's transaction (TigerBeetle-style two-phase transfer,
 * RELIABILITY R3): `reserve` moves the full price from available to reserved and writes the `ask`
 * row; each answer `spend`s its share out of reserved; `refund` releases what is left, once, as a
 * `refund` row. available = Σ ledger amounts at every moment; reserved = Σ open holds.
 */
export interface ReserveInput {
  accountId: string;
  keyId: string | null;
  /** The key's daily cap, null for none. */
  cap: number | null;
  amount: number;
  /** The question whose lots these are (the parent for follow-ups). */
  questionId: string;
  uniqueRef: string;
  title: string;
  at: Date;
}

export function createCreditHolds(repo: CreditsRepository) {
  return {
    async reserve(input: ReserveInput, tx: Db): Promise<{ availableBefore: number; availableAfter: number }> {
      if (input.amount === 0) {
        const { available } = await repo.balance(input.accountId, tx);
        return { availableBefore: available, availableAfter: available };
      }
      if (input.keyId && input.cap !== null) {
        if (!(await repo.chargeKeyCap(input.keyId, utcDay(input.at), input.amount, input.cap, tx))) {
          const remaining = Math.max(0, input.cap - (await repo.spentToday(input.keyId, utcDay(input.at), tx)));
          throw new AppError('spend_cap_exceeded', `This ask needs ${input.amount} credits but the key's daily cap leaves ${remaining}; nothing was spent.`, {
            reason: 'spend_cap_reached',
            capRemaining: remaining,
            needed: input.amount,
          });
        }
      }
      const moved = await tx
        .updateTable('balances')
        .set({ available: sql`available - ${input.amount}`, reserved: sql`reserved + ${input.amount}`, updated_at: input.at })
        .where('account_id', '=', input.accountId)
        .where('available', '>=', input.amount)
        .returning(['available'])
        .executeTakeFirst();
      if (!moved) {
        // (No balance row yet is no credits: the row comes with the first grant.)
        const { available } = await repo.balance(input.accountId, tx);
        throw new AppError('insufficient_credits', `This ask needs ${input.amount} credits and ${available} are available; nothing was spent.`, {
          needed: input.amount,
          available,
        });
      }
      const uses = await repo.consumeLots(input.accountId, input.amount, tx);
      for (const use of uses) {
        await tx
          .insertInto('lot_uses')
          .values({ question_id: input.questionId, lot_id: use.lotId, amount: use.amount })
          .onConflict((oc) => oc.columns(['question_id', 'lot_id']).doUpdateSet({ amount: sql`lot_uses.amount + ${use.amount}` }))
          .execute();
      }
      const entry = await repo.insertEntry(
        { accountId: input.accountId, kind: 'ask', state: 'paid', amount: -input.amount, title: input.title, ref: input.questionId, uniqueRef: input.uniqueRef, keyId: input.keyId, at: input.at },
        tx,
      );
      if (!entry) throw new Error(`ledger reference ${input.uniqueRef} was already posted`);
      return { availableBefore: moved.available + input.amount, availableAfter: moved.available };
    },

    /** One answer's share leaves the hold (credits − reserved is unchanged). */
    async spend(accountId: string, amount: number, at: Date, tx: Db): Promise<void> {
      if (amount === 0) return;
      await tx.updateTable('balances').set({ reserved: sql`reserved - ${amount}`, updated_at: at }).where('account_id', '=', accountId).execute();
    },

    /**
     * Releases `amount` of a hold back to available, once per `uniqueRef` (a replay posts nothing
     * and returns false), returning the credits to the lots they came from.
     */
    async refund(input: { accountId: string; lotQuestionId: string; questionId: string; amount: number; uniqueRef: string; title: string; at: Date }, tx: Db): Promise<boolean> {
      if (input.amount <= 0) return false;
      const entry = await repo.insertEntry(
        { accountId: input.accountId, kind: 'refund', state: 'available', amount: input.amount, title: input.title, ref: input.questionId, uniqueRef: input.uniqueRef, at: input.at },
        tx,
      );
      if (!entry) return false;
      await tx
        .updateTable('balances')
        .set({ available: sql`available + ${input.amount}`, reserved: sql`reserved - ${input.amount}`, updated_at: input.at })
        .where('account_id', '=', input.accountId)
        .execute();
      const uses = await tx
        .selectFrom('lot_uses as u')
        .innerJoin('credit_lots as l', 'l.id', 'u.lot_id')
        .select(['u.lot_id', 'u.amount', 'u.returned'])
        .where('u.question_id', '=', input.lotQuestionId)
        .where(sql<boolean>`u.returned < u.amount`)
        .orderBy(sql`l.expires_at DESC NULLS FIRST`)
        .forUpdate()
        .execute();
      let left = input.amount;
      for (const use of uses) {
        if (left === 0) break;
        const give = Math.min(left, use.amount - use.returned);
        await tx.updateTable('lot_uses').set({ returned: sql`returned + ${give}` }).where('question_id', '=', input.lotQuestionId).where('lot_id', '=', use.lot_id).execute();
        await tx.updateTable('credit_lots').set({ remaining: sql`remaining + ${give}` }).where('id', '=', use.lot_id).execute();
        left -= give;
      }
      if (left > 0) throw new Error(`refund of ${input.questionId} exceeds what its ask took from lots`);
      return true;
    },
  };
}
export type CreditHolds = ReturnType<typeof createCreditHolds>;
