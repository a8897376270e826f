import type { Db } from '../../db/database.ts';
import { emitEvent } from '../events/outbox.ts';
import type { BalanceView } from './credits-balance-view.ts';
import type { CreditsRepository } from './credits.repository.ts';

/**
 * The credits' webhook events (docs/webhooks.md), each written by the transaction that makes it
 * true (the outbox, events/outbox.ts): `credits.low` when a change takes available credits below
 * the account's threshold, `connection.cap_warning` when a key's or connection's daily spend
 * reaches 80% of its cap, and `credits.expiring` for a lot that expires within 7 days. The one
 * place these checks live, so the ask, added heads and the expiry job cannot differ.
 */

/** `connection.cap_warning` fires when the day's spend reaches this share of the cap: 4/5. */
const CAP_WARNING = { numerator: 4, denominator: 5 } as const;

/**
 * Whether a change of available credits from `before` to `after` crosses the `credits.low`
 * threshold downwards (0: never). "Once per crossing": staying below sends nothing; going back to
 * or above the threshold (a purchase, a refund) and down again is a new crossing.
 */
export function crossesLowCredits(before: number, after: number, threshold: number): boolean {
  return threshold > 0 && before >= threshold && after < threshold;
}

/** Whether the day's spend going from `before` to `after` reaches 80% of `cap` (before < 0.8·cap ≤ after), in integers. */
export function crossesCapWarning(before: number, after: number, cap: number): boolean {
  const mark = CAP_WARNING.numerator * cap;
  return cap > 0 && CAP_WARNING.denominator * before < mark && mark <= CAP_WARNING.denominator * after;
}

export interface AvailableLowered {
  accountId: string;
  /** `balances.available` before and after the change (credits past their expiry count until the expiry job takes them out). */
  before: number;
  after: number;
  /** The account's threshold, read with the balance row the change locked. */
  threshold: number;
  /** The unique reference of the ledger row that lowered it: the event's is `credits.low:<ref>`. */
  ledgerRef: string;
  at: Date;
}

export interface CapCharged {
  keyId: string;
  cap: number;
  amount: number;
  /** The day's net spend after the charge (key_daily_spend, RETURNING). */
  spentAfter: number;
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  at: Date;
}

export interface ExpiringLot {
  id: string;
  accountId: string;
  remaining: number;
  expiresAt: Date;
  /** `credits.expiring:<lotId>:<expiresAt ISO>`, made by the query that found the lot (credits-lots.repository.ts). */
  uniqueRef: string;
}

export function createCreditAlerts(deps: { repo: Pick<CreditsRepository, 'credentialIdentity'>; balanceView: BalanceView }) {
  const { repo, balanceView } = deps;
  /** The account's Balance inside `tx`, as GET /v1/billing/balance returns it (no key calling: capRemaining null). */
  const balanceOf = (accountId: string, at: Date, tx: Db) => balanceView(accountId, at, null, tx);

  return {
    /** `credits.low` if this change crossed the threshold; the balance is read only then. Returns whether it crossed. */
    async availableLowered(tx: Db, change: AvailableLowered): Promise<boolean> {
      if (!crossesLowCredits(change.before, change.after, change.threshold)) return false;
      await emitEvent(tx, {
        accountId: change.accountId,
        type: 'credits.low',
        uniqueRef: `credits.low:${change.ledgerRef}`,
        payload: { balance: await balanceOf(change.accountId, change.at, tx), threshold: change.threshold },
        at: change.at,
      });
      return true;
    },

    /**
     * `connection.cap_warning` if this charge took the key's day past 80% of its cap; once per key
     * and UTC day (a refund that lowers the day's spend and a new crossing send nothing more).
     * The key's name is read only then.
     */
    async capCharged(tx: Db, charge: CapCharged): Promise<boolean> {
      if (!crossesCapWarning(charge.spentAfter - charge.amount, charge.spentAfter, charge.cap)) return false;
      const credential = await repo.credentialIdentity(charge.keyId, tx);
      if (!credential) return false;
      await emitEvent(tx, {
        accountId: credential.accountId,
        type: 'connection.cap_warning',
        uniqueRef: `connection.cap_warning:${charge.keyId}:${charge.day}`,
        payload: {
          connection: { id: credential.id, kind: credential.kind, name: credential.name },
          dailyCapCredits: charge.cap,
          spentToday: charge.spentAfter,
          day: charge.day,
        },
        at: charge.at,
      });
      return true;
    },

    /** `credits.expiring` for one lot (once per lot and expiry: its unique reference). */
    async lotExpiring(tx: Db, lot: ExpiringLot, at: Date): Promise<void> {
      await emitEvent(tx, {
        accountId: lot.accountId,
        type: 'credits.expiring',
        uniqueRef: lot.uniqueRef,
        payload: { credits: lot.remaining, expiresAt: lot.expiresAt.toISOString(), lotId: lot.id, balance: await balanceOf(lot.accountId, at, tx) },
        at,
      });
    },
  };
}
export type CreditAlerts = ReturnType<typeof createCreditAlerts>;
