import type { Db } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import type { CreditsRepository } from './credits.repository.ts';
import type { CreditAlerts } from './credits.alerts.ts';
import { utcDay } from '../../lib/dates.ts';
import type { StatementRider } from '../../lib/statement-rider.ts';
import { NO_COUNTERS, type ServiceCounters } from '../../lib/service-counters.ts';
import { afterCommit } from '../../db/transaction.ts';

/** A batch's sums per account as the balance rows' spends; an account that moves nothing is left out. */
const spendsOf = (amounts: ReadonlyMap<string, number>) => [...amounts].filter(([, amount]) => amount !== 0).map(([accountId, amount]) => ({ accountId, amount }));

/**
 * The money of a question, in the caller's transaction (TigerBeetle-style two-phase transfer,
 * RELIABILITY R3): `reserve` moves the full price from available to reserved and writes the `ask`
 * row; each answer `spend`s its share out of reserved; `refund` releases what is left, once, as a
 * `refund` row. available = Σ ledger amounts at every moment; reserved = Σ open holds.
 *
 * Lock order (docs/credits.md "Lock order"; the question and its follow-ups are locked by the
 * caller before any of this): balance → the key's cap charges → the key's daily spend → credit
 * lots. The expiry job and admin adjustments take the balance first too, so no two of them can
 * wait on each other in a circle.
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
  /**
   * Writes of the caller's that ride in the reservation's statement (lib/statement-rider.ts):
   * the ask's `question.reserved` event and its stored response. Not carried when the amount is 0.
   */
  riders?: readonly StatementRider[];
}

export interface RefundInput {
  accountId: string;
  /** The question whose reservation it was (the parent for follow-ups): its lots and cap charges. */
  lotQuestionId: string;
  questionId: string;
  amount: number;
  uniqueRef: string;
  title: string;
  at: Date;
}

/**
 * `alerts` writes the events a reservation can make true (credits.alerts.ts): `credits.low` and
 * `connection.cap_warning`, from inside `reserve`, so that no caller can forget them.
 */
export function createCreditHolds(repo: CreditsRepository, alerts: CreditAlerts, counters: Pick<ServiceCounters, 'refunded'> = NO_COUNTERS) {
  async function capLeft(keyId: string, cap: number, at: Date, tx: Db): Promise<number> {
    return Math.max(0, cap - (await repo.spentToday(keyId, utcDay(at), tx)));
  }

  function capError(input: ReserveInput, remaining: number): AppError {
    return new AppError('spend_cap_exceeded', `This ask needs ${input.amount} credits but the key's daily cap leaves ${remaining}; nothing was spent.`, {
      reason: 'spend_cap_reached',
      capRemaining: remaining,
      needed: input.amount,
    });
  }

  function creditsError(amount: number, available: number): AppError {
    return new AppError('insufficient_credits', `This ask needs ${amount} credits and ${available} are available; nothing was spent.`, { needed: amount, available });
  }

  return {
    async reserve(input: ReserveInput, tx: Db): Promise<void> {
      // A free question (today's private one) moves nothing and crosses nothing; its riders stay
      // uncarried, for the caller to write alone.
      if (input.amount === 0) return;
      const capped = input.keyId !== null && input.cap !== null;
      const day = utcDay(input.at);
      const entry = { accountId: input.accountId, kind: 'ask', state: 'paid', amount: -input.amount, title: input.title, ref: input.questionId, uniqueRef: input.uniqueRef, keyId: input.keyId, at: input.at };
      // One statement, in the lock order: the balance, the key's cap charge and daily spend, the
      // lots (credits-reserve.repository.ts). The balance still counts lots past their expiry that
      // the job has not emptied: when it does not cover the amount nothing can; when it does, the
      // lots decide.
      const moved = await repo.reserveAndTake(
        { accountId: input.accountId, amount: input.amount, at: input.at, questionId: input.questionId, cap: capped ? { keyId: input.keyId!, day, cap: input.cap! } : null, entry, riders: input.riders ?? [] },
        tx,
      );
      if (moved.balance === null) {
        // The cap is the first thing an ask is refused for, as when both would refuse it.
        if (capped) {
          const remaining = await capLeft(input.keyId!, input.cap!, input.at, tx);
          if (remaining < input.amount) throw capError(input, remaining);
        }
        throw creditsError(input.amount, (await repo.balance(input.accountId, input.at, tx)).available);
      }
      if (capped && moved.spentToday === null) throw capError(input, await capLeft(input.keyId!, input.cap!, input.at, tx));
      // Credits added or given back while the statement waited for the balance row: read the lots again.
      const taken = moved.paid || !moved.stale ? moved : await repo.spendLots(input.accountId, { amount: input.amount, at: input.at, reservation: { questionId: input.questionId, entry } }, tx);
      // Expired credits are never spent (R7.1): the transaction rolls back with this error.
      if (!taken.paid) throw creditsError(input.amount, taken.spendable);
      if (!taken.posted) throw new Error(`ledger reference ${input.uniqueRef} was already posted`);
      // The events this reservation makes true, last: their reads (the balance, the key's name)
      // happen only when a threshold was crossed, and take no lock.
      await alerts.availableLowered(tx, {
        accountId: input.accountId,
        before: moved.balance.available + input.amount,
        after: moved.balance.available,
        threshold: moved.balance.lowCreditsThreshold,
        ledgerRef: input.uniqueRef,
        at: input.at,
      });
      if (moved.spentToday !== null) await alerts.capCharged(tx, { keyId: input.keyId!, cap: input.cap!, amount: input.amount, spentAfter: moved.spentToday, day, at: input.at });
    },

    /**
     * Answers' shares leave their accounts' holds (credits − reserved is unchanged): `amounts` is
     * the sum per account of a batch of answers (several balances are locked in account order).
     */
    async spend(amounts: ReadonlyMap<string, number>, at: Date, tx: Db): Promise<void> {
      await repo.spendReservedMany(spendsOf(amounts), at, tx);
    },

    /** `spend` as a rider (lib/statement-rider.ts) of a statement that takes no lock of the lock order (the batch's insert of its answers). */
    spendRider(amounts: ReadonlyMap<string, number>, at: Date): StatementRider {
      return repo.spendReservedRider(spendsOf(amounts), at);
    },

    /**
     * Releases `amount` of a hold back to available, once per `uniqueRef` (a replay posts nothing
     * and returns false), returning the credits to the lots they came from and, when the
     * reservation was made today under a capped key, to that key's daily cap (net spend).
     */
    async refund(input: RefundInput, tx: Db): Promise<boolean> {
      if (input.amount <= 0) return false;
      const entry = await repo.insertEntry(
        { accountId: input.accountId, kind: 'refund', state: 'available', amount: input.amount, title: input.title, ref: input.questionId, uniqueRef: input.uniqueRef, at: input.at },
        tx,
      );
      if (!entry) return false;
      await repo.releaseReserved(input.accountId, input.amount, input.at, tx);
      await repo.returnCapCharges(input.lotQuestionId, utcDay(input.at), input.amount, tx);
      let left = input.amount;
      // Credits of a lot whose payment was refunded or disputed while questions held them go to
      // that payment as they come back (credits.purchases.ts `clawBack`), not to the balance.
      const owedTaken = new Map<string, number>(); // by the checkout owed them
      for (const use of await repo.lockUnreturnedUses(input.lotQuestionId, tx)) {
        if (left === 0) break;
        const give = Math.min(left, use.open);
        const taken = Math.min(give, use.owed);
        await repo.returnToLot(input.lotQuestionId, use.lotId, give, taken, tx);
        if (taken > 0) owedTaken.set(use.owedRef ?? '', (owedTaken.get(use.owedRef ?? '') ?? 0) + taken);
        left -= give;
      }
      if (left > 0) throw new Error(`refund of ${input.questionId} exceeds what its ask took from lots`);
      for (const [checkoutId, taken] of owedTaken) {
        await repo.insertEntry(
          {
            accountId: input.accountId, kind: 'clawback', state: 'paid', amount: -taken, ref: checkoutId || null, uniqueRef: `clawback:owed:${input.uniqueRef}:${checkoutId}`, at: input.at,
            title: `Refunded payment: ${taken.toLocaleString('en-GB')} credits that question ${input.questionId} held, taken back as they came back`,
          },
          tx,
        );
        if (!(await repo.addAvailable(input.accountId, -taken, input.at, tx))) throw new Error(`taking back ${taken} owed credits from ${input.accountId} would go below zero`);
      }
      afterCommit(tx, () => counters.refunded(input.amount));
      return true;
    },
  };
}
export type CreditHolds = ReturnType<typeof createCreditHolds>;
