import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/database.ts';
import type { CreditsRepository } from './credits.repository.ts';
import { inTransaction } from '../../db/transaction.ts';
import { addDays, utcDay } from '../../lib/dates.ts';
import type { CreditAlerts } from './credits.alerts.ts';

/** `credits.expiring` warns of lots that expire within this many days (docs/credits.md "Expiry"). */
export const EXPIRING_WARNING_DAYS = 7;

/**
 * The credits' upkeep, run by jobs and the CLI rather than by an account: the expiry sweep, the
 * expiry warnings and reconciliation. `createCreditsService` hands these methods on, so callers keep calling
 * `CreditsService.expireDue()` and `.reconcile()`.
 */
export function createCreditsUpkeepService(deps: { db: Db; repo: CreditsRepository; clock: Clock; alerts: CreditAlerts }) {
  const { db, repo, clock, alerts } = deps;

  return {
    /**
     * The expiry job: empties lots past their date, one `expiry` row per lot, one account per
     * transaction. Each account's balance row is locked before its lots (the lock order asks and
     * refunds follow), so the job waits for an ask in flight instead of deadlocking with it.
     * When what it takes out crosses the account's threshold, the same transaction writes
     * `credits.low`. Returns the lots emptied; the job calls again until none is left.
     */
    async expireDue(batch = 200): Promise<number> {
      const at = clock.now();
      let written = 0;
      for (const accountId of await repo.accountsWithDueLots(at, batch)) {
        written += await inTransaction(db, async (tx) => {
          const row = await repo.lockBalance(accountId, tx);
          let emptied = 0;
          let removed = 0;
          let firstRef: string | null = null;
          for (const lot of await repo.lockDueLots(accountId, at, tx)) {
            const entry = await repo.insertEntry(
              {
                accountId,
                kind: 'expiry',
                state: 'paid',
                amount: -lot.remaining,
                title: `Expired: ${lot.remaining} credits that were valid until ${utcDay(lot.expires_at)}`,
                ref: null,
                // A lot can expire twice: a refund may return credits to it after its date.
                uniqueRef: `expiry:${lot.id}:${at.getTime()}`,
                at,
              },
              tx,
            );
            if (!entry) continue;
            if (!(await repo.addAvailable(accountId, -lot.remaining, at, tx))) throw new Error(`lot ${lot.id} holds more than the available balance`);
            await repo.emptyLot(lot.id, at, tx);
            emptied++;
            removed += lot.remaining;
            firstRef ??= entry.unique_ref;
          }
          if (row && firstRef !== null) {
            await alerts.availableLowered(tx, { accountId, before: row.available, after: row.available - removed, threshold: row.lowCreditsThreshold, ledgerRef: firstRef, at });
          }
          return emptied;
        });
      }
      return written;
    },

    /**
     * The daily expiry warning: one `credits.expiring` event per lot that still holds credits and
     * expires within the next 7 days, once per lot (its unique reference; a lot already warned
     * of is not even read again). A page of lots per transaction, each event with the account's
     * balance read in it. Returns the events written.
     */
    async warnExpiring(batch = 200): Promise<number> {
      const at = clock.now();
      const until = addDays(at, EXPIRING_WARNING_DAYS);
      let written = 0;
      let afterId: string | null = null;
      for (;;) {
        const from: string | null = afterId;
        const lots = await inTransaction(db, async (tx) => {
          const page = await repo.unwarnedExpiringLots(at, until, from, batch, tx);
          for (const lot of page) await alerts.lotExpiring(tx, lot, at);
          return page;
        });
        written += lots.length;
        if (lots.length < batch) return written;
        afterId = lots[lots.length - 1].id;
      }
    },

    /** R3.1: balances recomputed from entries, lots and question holds; returns the accounts that disagree. */
    async reconcile(): Promise<Array<{ accountId: string; problem: string }>> {
      const rows = await repo.reconciliationRows();
      const problems: Array<{ accountId: string; problem: string }> = [];
      for (const r of rows) {
        if (r.available !== r.ledger_sum) problems.push({ accountId: r.account_id, problem: `available ${r.available} ≠ ledger sum ${r.ledger_sum}` });
        if (r.available !== r.lots_sum) problems.push({ accountId: r.account_id, problem: `available ${r.available} ≠ lots ${r.lots_sum}` });
        if (r.reserved !== r.holds_sum) problems.push({ accountId: r.account_id, problem: `reserved ${r.reserved} ≠ open holds of questions ${r.holds_sum}` });
      }
      return problems;
    },
  };
}
export type CreditsUpkeepService = ReturnType<typeof createCreditsUpkeepService>;
