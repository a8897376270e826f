import type { Db } from '../../db/database.ts';
import type { CreditsRepository, LedgerEntryRow, LotUse } from './credits.repository.ts';

/**
 * Credits coming in from a payment and going back out when it is refunded or disputed (docs/
 * credits.md "Purchases"; docs/payments.md), in the caller's transaction, after the caller has
 * locked the checkout. Like credits.holds.ts for questions, this is the one place purchases move
 * credits. Lock order: the checkout (caller) → the balance → the lots.
 *
 * A purchase is one `purchase` row per checkout (unique reference `purchase:{checkoutId}`):
 * written `pending` when a bank transfer is awaited and settled `available` when the money comes
 * (then, and only then, the credits are added, as a lot that expires `validForDays` later), or
 * written `available` at once when the provider confirms a card payment.
 */
export interface PurchaseInput {
  accountId: string;
  checkoutId: string;
  credits: number;
  title: string;
  by: string | null;
  at: Date;
}

const purchaseRef = (checkoutId: string) => `purchase:${checkoutId}`;

export function createPurchaseLedger(repo: CreditsRepository) {
  async function addCredits(entry: LedgerEntryRow, accountId: string, credits: number, expiresAt: Date, at: Date, tx: Db): Promise<void> {
    await repo.ensureBalance(accountId, tx);
    await repo.lockBalance(accountId, tx);
    if (!(await repo.addAvailable(accountId, credits, at, tx))) throw new Error(`adding ${credits} credits to ${accountId} failed`);
    await repo.insertLot({ accountId, entryId: entry.id, amount: credits, expiresAt }, tx);
  }

  return {
    /** The `pending` row of an awaited bank transfer; moves no credits. False when the checkout already has its row. */
    async recordPending(input: PurchaseInput, tx: Db): Promise<boolean> {
      const entry = await repo.insertEntry(
        { accountId: input.accountId, kind: 'purchase', state: 'pending', amount: input.credits, title: input.title, ref: input.checkoutId, uniqueRef: purchaseRef(input.checkoutId), by: input.by, at: input.at },
        tx,
      );
      return entry !== null;
    },

    /**
     * The money is in: settles the pending row, or writes the row `available`, and adds the
     * credits (valid until `expiresAt`). Exactly once per checkout: returns the row when this call
     * added the credits, null when an earlier one did. A payment that arrives after its pending
     * row was reversed (the transfer was given up on) still adds its credits, on a row of its own.
     */
    async makeAvailable(input: PurchaseInput & { expiresAt: Date }, tx: Db): Promise<LedgerEntryRow | null> {
      const ref = purchaseRef(input.checkoutId);
      let entry = await repo.settlePending(ref, 'available', tx);
      if (!entry) {
        const existing = await repo.entryByRef(ref, tx);
        const uniqueRef = existing?.state === 'reversed' ? `${ref}:late` : ref;
        entry = await repo.insertEntry(
          { accountId: input.accountId, kind: 'purchase', state: 'available', amount: input.credits, title: input.title, ref: input.checkoutId, uniqueRef, by: input.by, at: input.at },
          tx,
        );
        if (!entry) return null;
      }
      await addCredits(entry, input.accountId, input.credits, input.expiresAt, input.at, tx);
      return entry;
    },

    /** The awaited transfer will not come: the pending row becomes `reversed`; nothing else moves. */
    async reversePending(checkoutId: string, tx: Db): Promise<boolean> {
      return (await repo.settlePending(purchaseRef(checkoutId), 'reversed', tx)) !== null;
    },

    /**
     * Takes up to `credits` back after a refund or a dispute: the purchase's own credits first,
     * then any other spendable ones (soonest-expiring first), in one `clawback` row (state `paid`,
     * unique per provider event) when anything is taken. What questions hold is not spendable and
     * cannot be taken now, but it is not lost either: up to what is held (and not owed already),
     * it is marked owed to this checkout on the lots it came from, the purchase's own first, and
     * taken as it comes back (credits.holds.ts `refund`, one `clawback` row each), so a refund
     * after asking cannot keep the credits. Credits answers already spent cannot come back:
     * what is taken plus what is owed may be less than asked, and the caller records the difference.
     */
    async clawBack(input: { accountId: string; checkoutId: string; credits: number; title: (taken: number, owed: number, spent: number) => string; uniqueRef: string; at: Date }, tx: Db): Promise<number> {
      await repo.ensureBalance(input.accountId, tx);
      await repo.lockBalance(input.accountId, tx);
      const own = (await repo.entryByRef(purchaseRef(input.checkoutId), tx))?.id;
      const ownFirst = <T extends { entry_id: string }>(lots: T[]) => [...lots.filter((lot) => lot.entry_id === own), ...lots.filter((lot) => lot.entry_id !== own)];
      const lots = (await repo.lockOpenLots(input.accountId, tx)).filter((lot) => lot.expires_at === null || lot.expires_at > input.at);
      const uses: LotUse[] = [];
      let left = input.credits;
      for (const lot of ownFirst(lots)) {
        if (left === 0) break;
        const take = Math.min(left, lot.remaining);
        uses.push({ lotId: lot.id, amount: take });
        left -= take;
      }
      const taken = input.credits - left;
      // What is held is the questions' open holds (their sum is the balance's `reserved`), so at
      // most that is owed.
      let owed = 0;
      if (left > 0) {
        for (const lot of ownFirst(await repo.lockHeldLots(input.accountId, tx))) {
          if (owed === left) break;
          const owe = Math.min(left - owed, lot.held - lot.owed);
          if (owe <= 0) continue;
          await repo.addOwed(lot.id, owe, input.checkoutId, tx);
          owed += owe;
        }
      }
      if (taken === 0) return 0;
      const entry = await repo.insertEntry(
        { accountId: input.accountId, kind: 'clawback', state: 'paid', amount: -taken, title: input.title(taken, owed, input.credits - taken - owed), ref: input.checkoutId, uniqueRef: input.uniqueRef, at: input.at },
        tx,
      );
      if (!entry) throw new Error(`clawback ${input.uniqueRef} was already posted`);
      if (!(await repo.addAvailable(input.accountId, -taken, input.at, tx))) throw new Error(`clawback of ${taken} from ${input.accountId} would go below zero`);
      await repo.takeFromLots(uses, tx);
      return taken;
    },

    /** A dispute won: forgets up to `upTo` of what the checkout is still owed out of held credits; returns how much. */
    async forgetOwed(input: { accountId: string; checkoutId: string; upTo: number }, tx: Db): Promise<number> {
      if (input.upTo <= 0) return 0;
      await repo.lockBalance(input.accountId, tx);
      return repo.forgetOwed(input.accountId, input.checkoutId, input.upTo, tx);
    },

    /** Credits the checkout's clawback rows have taken, less what was given back: at the refund or dispute, and since, as held credits came back. */
    async takenFor(accountId: string, checkoutId: string, tx: Db): Promise<number> {
      return repo.clawedBackNet(accountId, checkoutId, tx);
    },

    /** Gives back credits a clawback took (a dispute won): an `adjustment` row and a lot valid until `expiresAt`. */
    async restore(input: { accountId: string; checkoutId: string; credits: number; title: string; uniqueRef: string; expiresAt: Date; at: Date }, tx: Db): Promise<boolean> {
      if (input.credits <= 0) return false;
      const entry = await repo.insertEntry(
        { accountId: input.accountId, kind: 'adjustment', state: 'available', amount: input.credits, title: input.title, ref: input.checkoutId, uniqueRef: input.uniqueRef, at: input.at },
        tx,
      );
      if (!entry) return false;
      await addCredits(entry, input.accountId, input.credits, input.expiresAt, input.at, tx);
      return true;
    },
  };
}
export type PurchaseLedger = ReturnType<typeof createPurchaseLedger>;
