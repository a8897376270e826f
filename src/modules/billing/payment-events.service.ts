import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../lib/errors.ts';
import { addDays } from '../../lib/dates.ts';
import { formatMoney } from '../../lib/currencies.ts';
import { findCreditPack } from '../credits/credit-packs.ts';
import type { PurchaseLedger } from '../credits/credits.purchases.ts';
import { emitEvent } from '../events/outbox.ts';
import type { CheckoutRow, CheckoutsRepository } from './checkouts.repository.ts';
import type { DisputeState } from '../../db/schema.ts';
import { disputedAmount } from './disputes.ts';
import type { PaymentEvent, PaymentProvider } from './payment-provider.ts';
import { purchaseTitle, type CheckoutService } from './checkout.service.ts';

/** What applying an event did, for the provider's answer and the log. */
export type EventOutcome = 'applied' | 'duplicate' | 'ignored' | 'unchanged';

/**
 * An event about a payment this service has not seen confirmed yet (a refund before the payment):
 * 409 to the provider, which sends it again later (Stripe retries for three days); nothing is
 * recorded, so the retry is applied in full.
 */
const notYet = (what: string) => new AppError('conflict', `${what}; send this event again later.`, { reason: 'not_ready' });

/**
 * Applies providers' events to checkouts and the ledger (docs/payments.md "Events"; RELIABILITY
 * R8.4): each event exactly once by its id (recorded in the same transaction as its effect, so a
 * replay changes nothing), in any order (a payment confirmed before its "awaiting" report is paid
 * once and never downgraded), and a refund or a dispute takes credits back once, by the
 * difference from what was already taken. Lock order: the checkout → the balance → the lots.
 */
export function createPaymentEventsService(deps: { db: Db; repo: CheckoutsRepository; purchases: PurchaseLedger; checkouts: CheckoutService; provider: PaymentProvider; clock: Clock }) {
  const { db, repo, purchases, checkouts, provider, clock } = deps;

  /** Credits the pack's lot lives for, from the moment the money is confirmed. */
  const validUntil = (row: CheckoutRow, from: Date) => addDays(from, findCreditPack(row.pack)?.validForDays ?? 365);

  /** Credits to take back for what the provider reports refunded and under dispute, pro rata, rounded up (never keep credits not paid for). */
  const owed = (row: Pick<CheckoutRow, 'credits' | 'amount'>, refunded: number, disputed: number) =>
    Math.ceil((row.credits * Math.min(row.amount, refunded + disputed)) / row.amount);

  async function paid(row: CheckoutRow, event: PaymentEvent & { kind: 'paid' }, tx: Db): Promise<EventOutcome> {
    if (row.status === 'paid') return 'unchanged';
    // Checkouts are priced here and sent with fixed line items, so a payment of another amount or
    // currency is not this checkout's: nothing is credited, and the provider is told (it retries,
    // and its dashboard shows the failures for an operator to look at).
    const received = event.received;
    if (received && (received.amount < row.amount || received.currency.toUpperCase() !== row.currency)) {
      throw new AppError('conflict', `Checkout ${row.id} costs ${formatMoney(row.amount, row.currency)}; the payment reported is ${received.amount} ${received.currency.toUpperCase()} (minor units). Nothing was credited.`, { reason: 'amount_mismatch' });
    }
    const at = clock.now();
    const entry = await purchases.makeAvailable(
      { accountId: row.account_id, checkoutId: row.id, credits: row.credits, title: purchaseTitle(row), by: null, at, expiresAt: validUntil(row, at) },
      tx,
    );
    const updated = await repo.update(row.id, { status: 'paid', paid_at: at, payment_ref: event.paymentRef ?? row.payment_ref }, tx);
    if (entry && updated) {
      await emitEvent(tx, { accountId: row.account_id, type: 'credits.purchased', uniqueRef: `credits.purchased:${row.id}`, payload: { checkout: await checkouts.viewOf(updated, tx), ledgerEntryId: entry.id }, at });
    }
    return 'applied';
  }

  /** Moves what is taken back to match what the provider now reports refunded and disputed. */
  async function settleClawback(row: CheckoutRow, refunded: number, disputes: Record<string, DisputeState>, event: PaymentEvent, why: string, tx: Db): Promise<EventOutcome> {
    if (row.status !== 'paid') throw notYet(`The payment of checkout ${row.id} is not confirmed here yet`);
    const at = clock.now();
    const target = owed(row, refunded, disputedAmount(disputes));
    const accounted = row.clawed_back + row.clawback_shortfall;
    // Held credits taken since as they came back (credits.holds.ts) moved from the shortfall to
    // what was taken: the ledger's rows of this checkout say how much.
    const since = Math.max(0, (await purchases.takenFor(row.account_id, row.id, tx)) - row.clawed_back);
    let clawedBack = row.clawed_back + since;
    let shortfall = row.clawback_shortfall - since;
    if (target > accounted) {
      const want = target - accounted;
      const taken = await purchases.clawBack(
        {
          accountId: row.account_id,
          checkoutId: row.id,
          credits: want,
          uniqueRef: `clawback:${provider.name}:${event.id}`,
          at,
          title: (n, held, spent) => {
            const more = [
              held > 0 ? `${held.toLocaleString('en-GB')} more, held by open questions, will be taken back as they come back` : null,
              spent > 0 ? `${spent.toLocaleString('en-GB')} more had already been spent` : null,
            ].filter(Boolean);
            return `${why}: ${n.toLocaleString('en-GB')} credits of the ${row.pack} pack taken back${more.length ? ` (${more.join('; ')})` : ''}`;
          },
        },
        tx,
      );
      clawedBack += taken;
      shortfall += want - taken;
    } else if (target < accounted) {
      // A dispute won: first forget what could not be taken (what is still owed out of held
      // credits, then what was spent), then give back what was taken.
      let back = accounted - target;
      const forgiven = Math.min(back, shortfall);
      await purchases.forgetOwed({ accountId: row.account_id, checkoutId: row.id, upTo: forgiven }, tx);
      shortfall -= forgiven;
      back -= forgiven;
      if (back > 0) {
        await purchases.restore(
          { accountId: row.account_id, checkoutId: row.id, credits: back, title: `${why}: ${back.toLocaleString('en-GB')} credits of the ${row.pack} pack given back`, uniqueRef: `restore:${provider.name}:${event.id}`, expiresAt: validUntil(row, row.paid_at ?? at), at },
          tx,
        );
        clawedBack -= back;
      }
    }
    await repo.update(row.id, { refunded_amount: refunded, disputes: JSON.stringify(disputes), clawed_back: clawedBack, clawback_shortfall: shortfall }, tx);
    // Recorded either way; "applied" when credits moved (or were found spent), "unchanged" when the books stay as they were.
    return target === accounted ? 'unchanged' : 'applied';
  }

  async function applyIn(event: PaymentEvent, tx: Db): Promise<EventOutcome> {
    const at = clock.now();
    if (event.kind === 'ignored') {
      return (await repo.recordEvent({ provider: provider.name, eventId: event.id, type: event.type, checkoutId: null, at }, tx)) ? 'ignored' : 'duplicate';
    }
    // The checkout first (lock order), then the event's record, then money.
    const row =
      event.kind === 'paid' || event.kind === 'awaiting_funds' || event.kind === 'failed'
        ? await repo.lockByLocator(provider.name, event.checkout, tx)
        : await repo.lockByPayment(provider.name, event.paymentRef, tx);
    if (!row) {
      // A payment of a checkout made here is always found by its id or object; refunds and
      // disputes name the payment, which is known only once the payment is: possibly not yet.
      if (event.kind === 'refunded' || event.kind === 'disputed' || event.kind === 'dispute_closed') throw notYet(`No payment ${event.paymentRef} is confirmed here yet`);
      return (await repo.recordEvent({ provider: provider.name, eventId: event.id, type: event.type, checkoutId: null, at }, tx)) ? 'ignored' : 'duplicate';
    }
    if (!(await repo.recordEvent({ provider: provider.name, eventId: event.id, type: event.type, checkoutId: row.id, at }, tx))) return 'duplicate';

    switch (event.kind) {
      case 'paid':
        return paid(row, event, tx);
      case 'awaiting_funds': {
        if (row.status !== 'open') return 'unchanged';
        await purchases.recordPending({ accountId: row.account_id, checkoutId: row.id, credits: row.credits, title: purchaseTitle(row), by: null, at }, tx);
        await repo.update(row.id, { status: 'pending', payment_ref: event.paymentRef ?? row.payment_ref }, tx);
        return 'applied';
      }
      case 'failed': {
        if (row.status !== 'open' && row.status !== 'pending') return 'unchanged';
        await purchases.reversePending(row.id, tx);
        await repo.update(row.id, { status: event.expired ? 'expired' : 'failed' }, tx);
        return 'applied';
      }
      case 'refunded':
        if (event.refunded <= row.refunded_amount) return 'unchanged';
        return settleClawback(row, event.refunded, row.disputes, event, `Refund of ${formatMoney(event.refunded - row.refunded_amount, row.currency)}`, tx);
      case 'disputed':
        // Known already: its close came first (a won dispute then takes nothing), or it is a replay.
        if (row.disputes[event.disputeId]) return 'unchanged';
        return settleClawback(row, row.refunded_amount, { ...row.disputes, [event.disputeId]: { amount: event.amount, state: 'open' } }, event, `Payment disputed (${formatMoney(event.amount, row.currency)})`, tx);
      case 'dispute_closed': {
        const state = event.won ? 'won' : 'lost';
        if (row.disputes[event.disputeId]?.state === state) return 'unchanged';
        return settleClawback(row, row.refunded_amount, { ...row.disputes, [event.disputeId]: { amount: event.amount, state } }, event, event.won ? 'Dispute won' : 'Dispute lost', tx);
      }
    }
  }

  return {
    /** Applies one event in its own transaction; throws a 409 AppError for an event that must wait for another. */
    async apply(event: PaymentEvent): Promise<EventOutcome> {
      return inTransaction(db, (tx) => applyIn(event, tx));
    },

    /**
     * The expiry job: checkouts still waiting for money past their time are given up on. An
     * awaited transfer is cancelled at the provider first (so late money does not land on it);
     * one that can no longer be cancelled was paid, and its event will say so.
     */
    async expireOverdue(batch = 50): Promise<number> {
      let expired = 0;
      // Page through every overdue checkout: one that cannot be cancelled yet stays overdue, and
      // must not keep the ones after it from their turn.
      let after: { expiresAt: Date; id: string } | null = null;
      for (;;) {
        const rows = await repo.overdue(clock.now(), batch, after);
        if (rows.length === 0) return expired;
        for (const row of rows) {
          if (row.status === 'pending' && !(await provider.cancel({ providerRef: row.provider_ref, method: row.method }).catch(() => false))) continue;
          expired += await inTransaction(db, async (tx) => {
            const locked = await repo.lock(row.id, tx);
            if (!locked || (locked.status !== 'open' && locked.status !== 'pending')) return 0;
            await purchases.reversePending(locked.id, tx);
            await repo.update(locked.id, { status: 'expired' }, tx);
            return 1;
          });
        }
        const last = rows[rows.length - 1];
        after = { expiresAt: last.expires_at, id: last.id };
      }
    },
  };
}
export type PaymentEventsService = ReturnType<typeof createPaymentEventsService>;
