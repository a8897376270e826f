import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/database.ts';
import type { CreditsRepository } from './credits.repository.ts';
import { inTransaction } from '../../db/transaction.ts';
import { utcDay } from '../../lib/dates.ts';

/**
 * The credits' upkeep, run by jobs and the CLI rather than by an account: the expiry sweep and
 * reconciliation. `createCreditsService` hands these methods on, so callers keep calling
 * `CreditsService.expireDue()` and `.reconcile()`.
 */
export function createCreditsUpkeepService(deps: { db: Db; repo: CreditsRepository; clock: Clock }) {
  const { db, repo, clock } = deps;

  return {
    /**
     * The expiry job: empties lots past their date, one `expiry` row per lot, one account per
     * transaction. Each account's balance row is locked before its lots (the lock order asks and
     * refunds follow), so the job waits for an ask in flight instead of deadlocking with it.
     * Returns the lots emptied; the job calls again until none is left.
     */
    async expireDue(batch = 200): Promise<number> {
      const at = clock.now();
      let written = 0;
      for (const accountId of await repo.accountsWithDueLots(at, batch)) {
        written += await inTransaction(db, async (tx) => {
          await repo.lockBalance(accountId, tx);
          let emptied = 0;
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
          }
          return emptied;
        });
      }
      return written;
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
