import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/database.ts';
import { cursorRowId, invalidCursor, rowCursor } from '../../lib/cursor.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import { requireRole, type Actor } from '../../lib/actor.ts';
import type { AccountsRepository } from '../accounts/accounts.repository.ts';
import type { Balance, BillingAlerts, BillingAlertsBody, LedgerRow } from './credits.schemas.ts';
import type { CreditsRepository, LedgerEntryRow } from './credits.repository.ts';
import { inTransaction } from '../../db/transaction.ts';
import { addDays } from '../../lib/dates.ts';
import { createCreditsUpkeepService } from './credits-upkeep.service.ts';
import type { BalanceView } from './credits-balance-view.ts';
import type { CreditAlerts } from './credits.alerts.ts';

export type { PrivateToday } from './credits-balance-view.ts';

export const LEDGER_PAGE_SIZE = 50;
/** Credits granted by hand never expire unless the operator says so; purchases expire after a year. */
export const PURCHASE_EXPIRY_DAYS = 365;
/**
 * The `credits.low` threshold of an account that never set one: the column's default
 * (balances.low_credits_threshold, migration 0016), for accounts without a balance row yet.
 */
export const DEFAULT_LOW_CREDITS_THRESHOLD = 1000;


function ledgerRow(row: LedgerEntryRow): LedgerRow {
  return {
    id: row.id,
    at: row.at.toISOString(),
    title: row.title,
    kind: row.kind as LedgerRow['kind'],
    state: row.state as LedgerRow['state'],
    amount: row.amount,
    ref: row.ref,
    by: row.by,
  };
}

const removalTooLarge = () => new AppError('insufficient_credits', 'This adjustment would take the available balance below zero; nothing changed.');

export interface GrantInput {
  accountId: string;
  amount: number;
  reason: string;
  kind?: 'bonus' | 'adjustment';
  expiresInDays?: number | null;
  by?: string;
}

export function createCreditsService(deps: { db: Db; repo: CreditsRepository; accounts: AccountsRepository; clock: Clock; balanceView: BalanceView; alerts: CreditAlerts }) {
  const { db, repo, accounts, clock, balanceView, alerts } = deps;

  return {
    /**
     * Admin grant: a `bonus` (positive) or `adjustment` (either sign) row, the balance and a lot,
     * in one transaction. A negative adjustment cannot take available credits below zero.
     */
    async grant(input: GrantInput): Promise<{ entry: LedgerRow; balance: { available: number; reserved: number } }> {
      const problems = [];
      if (!Number.isSafeInteger(input.amount) || input.amount === 0) problems.push({ field: 'amount', code: 'out_of_range' as const, message: 'amount must be a whole number of credits other than 0.' });
      const reason = input.reason?.trim() ?? '';
      if (reason.length < 3 || reason.length > 200) problems.push({ field: 'reason', code: 'too_short' as const, message: 'reason must be 3 to 200 characters: it is shown in the ledger.' });
      const kind = input.kind ?? (input.amount < 0 ? 'adjustment' : 'bonus');
      if (kind === 'bonus' && input.amount < 0) problems.push({ field: 'kind', code: 'not_allowed' as const, message: 'A bonus adds credits; use an adjustment to remove them.' });
      const days = input.expiresInDays ?? null;
      if (days !== null && (!Number.isSafeInteger(days) || days < 1 || days > 3650)) problems.push({ field: 'expiresInDays', code: 'out_of_range' as const, message: 'expiresInDays must be 1 to 3650.' });
      if (days !== null && input.amount < 0) problems.push({ field: 'expiresInDays', code: 'not_allowed' as const, message: 'Only added credits can expire.' });
      if (problems.length) throw validationError(problems);
      if (!(await accounts.findAccount(input.accountId))) throw notFound('No such account.');

      const at = clock.now();
      return inTransaction(db, async (tx) => {
        await repo.ensureBalance(input.accountId, tx);
        const entry = await repo.insertEntry(
          {
            accountId: input.accountId,
            kind,
            state: input.amount > 0 ? 'available' : 'paid',
            amount: input.amount,
            title: `${kind === 'bonus' ? 'Bonus' : 'Adjustment'}: ${reason}`,
            ref: null,
            uniqueRef: `grant:${crypto.randomUUID()}`,
            by: input.by ?? 'admin',
            at,
          },
          tx,
        );
        if (!entry) throw new Error('grant reference collided');
        // The balance row first (lock order), then the lots.
        if (!(await repo.addAvailable(input.accountId, input.amount, at, tx))) throw removalTooLarge();
        if (input.amount > 0) {
          await repo.insertLot({ accountId: input.accountId, entryId: entry.id, amount: input.amount, expiresAt: days ? addDays(at, days) : null }, tx);
        } else {
          // A removal takes spendable credits only (never credits already past their expiry), in the order asks spend them.
          if (!(await repo.spendLots(input.accountId, { amount: -input.amount, at }, tx)).paid) throw removalTooLarge();
        }
        return { entry: ledgerRow(entry), balance: await repo.balance(input.accountId, at, tx) };
      });
    },

    async balance(actor: Actor): Promise<Balance> {
      const key = actor.keyId && actor.dailyCapCredits !== null ? { keyId: actor.keyId, cap: actor.dailyCapCredits } : null;
      return balanceView(actor.accountId, clock.now(), key, undefined);
    },

    /** GET /v1/billing/alerts: the account's `credits.low` threshold (docs/credits.md "Low-credit alert"). */
    async billingAlerts(actor: Actor): Promise<BillingAlerts> {
      return { lowCreditsThreshold: (await repo.lowCreditsThreshold(actor.accountId)) ?? DEFAULT_LOW_CREDITS_THRESHOLD };
    },

    /**
     * PATCH /v1/billing/alerts: a signed-in person sets the threshold (0: never); on a team, an
     * owner or an admin, as for keys (what the team is warned of is theirs to decide).
     */
    async setBillingAlerts(actor: Actor, body: BillingAlertsBody): Promise<BillingAlerts> {
      requireRole(actor, 'admin', 'change the billing alerts');
      return { lowCreditsThreshold: await repo.setLowCreditsThreshold(actor.accountId, body.lowCreditsThreshold, clock.now()) };
    },

    async ledger(actor: Actor, cursor?: string): Promise<{ rows: LedgerRow[]; nextCursor: string | null }> {
      // The cursor names the last row of the previous page (lib/cursor.ts); another account's finds nothing.
      const before = cursor === undefined ? null : ((await repo.entryPosition(actor.accountId, cursorRowId(cursor, 'led_'))) ?? null);
      if (cursor !== undefined && before === null) throw invalidCursor();
      const rows = await repo.listEntries(actor.accountId, before, LEDGER_PAGE_SIZE + 1);
      const page = rows.slice(0, LEDGER_PAGE_SIZE);
      return { rows: page.map(ledgerRow), nextCursor: rows.length > LEDGER_PAGE_SIZE ? rowCursor(page[page.length - 1].id) : null };
    },

    // The expiry sweep and reconciliation (credits-upkeep.service.ts).
    ...createCreditsUpkeepService({ db, repo, clock, alerts }),
  };
}
export type CreditsService = ReturnType<typeof createCreditsService>;
