import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { StatementRider } from '../../lib/statement-rider.ts';

/**
 * A balance row as a change to it sees it: `available` as stored (credits past their expiry count
 * until the expiry job takes them out) and the account's `credits.low` threshold (0: never).
 */
export interface BalanceRowState {
  available: number;
  lowCreditsThreshold: number;
}

/** What a batch of answers takes out of one account's hold. */
export interface Spend {
  accountId: string;
  amount: number;
}

/**
 * The spends as CTEs: the balance rows locked in account order (the order every writer of several
 * balances keeps) by the first, then moved by the second, which reads them through the first, so
 * every balance it moves was locked there, in that order, however the planner joins them.
 */
function spendCtes(spends: readonly Spend[], at: Date, prefix: string) {
  const locked = sql.id(`${prefix}locked`);
  const accounts = sql.val(spends.map((s) => s.accountId));
  return [
    sql`${locked} AS MATERIALIZED (SELECT account_id FROM balances WHERE account_id = any(${accounts}::text[]) ORDER BY account_id FOR UPDATE)`,
    // One array per column: the same text for any number of accounts (answers.repository.ts insertStatement says why).
    sql`${sql.id(`${prefix}spent`)} AS (UPDATE balances AS b SET reserved = b.reserved - v.amount, updated_at = ${at}
      FROM ${locked} AS l JOIN unnest(${accounts}::text[], ${sql.val(spends.map((s) => s.amount))}::bigint[]) AS v(account_id, amount) ON v.account_id = l.account_id
      WHERE b.account_id = l.account_id)`,
  ];
}

/**
 * SQL of an account's balance row: what it can spend (`available`) and what its questions hold
 * (`reserved`). The row is the first lock of any change to the account's credits (docs/credits.md
 * "Lock order").
 */
export function createCreditsBalancesRepository(db: Db) {
  return {
    async ensureBalance(accountId: string, tx: Db = db): Promise<void> {
      await tx.insertInto('balances').values({ account_id: accountId }).onConflict((oc) => oc.doNothing()).execute();
    },

    /**
     * What the account can spend at `at` and what is reserved. `balances.available` still counts
     * credits of lots past their expiry that the expiry job has not emptied yet; they are never
     * spendable (docs/credits.md "Expiry"), so they are taken off here, in the same query.
     */
    async balance(accountId: string, at: Date, tx: Db = db): Promise<{ available: number; reserved: number }> {
      const row = await tx
        .selectFrom('balances as b')
        .select([
          'b.available',
          'b.reserved',
          sql<number>`(SELECT coalesce(sum(l.remaining), 0) FROM credit_lots l WHERE l.account_id = b.account_id AND l.remaining > 0 AND l.expires_at <= ${at})::bigint`.as('expired'),
        ])
        .where('b.account_id', '=', accountId)
        .executeTakeFirst();
      return row ? { available: row.available - row.expired, reserved: row.reserved } : { available: 0, reserved: 0 };
    },

    /**
     * Locks the account's balance row: the first lock of any change to its credits (lock order,
     * docs/credits.md). Returns what the row holds (null when the account has none yet), so a
     * caller that lowers `available` can tell whether it crossed the `credits.low` threshold.
     */
    async lockBalance(accountId: string, tx: Db): Promise<BalanceRowState | null> {
      const row = await tx
        .selectFrom('balances')
        .select(['available', 'low_credits_threshold'])
        .where('account_id', '=', accountId)
        .forUpdate()
        .executeTakeFirst();
      return row ? { available: row.available, lowCreditsThreshold: row.low_credits_threshold } : null;
    },

    /** The account's `credits.low` threshold (docs/credits.md "Low-credit alert"); null when it has no balance row yet. */
    async lowCreditsThreshold(accountId: string, tx: Db = db): Promise<number | null> {
      const row = await tx.selectFrom('balances').select('low_credits_threshold').where('account_id', '=', accountId).executeTakeFirst();
      return row ? row.low_credits_threshold : null;
    },

    /** Sets the account's `credits.low` threshold, making its balance row if it has none; returns the stored value. */
    async setLowCreditsThreshold(accountId: string, threshold: number, at: Date, tx: Db = db): Promise<number> {
      const row = await tx
        .insertInto('balances')
        .values({ account_id: accountId, low_credits_threshold: threshold, updated_at: at })
        .onConflict((oc) => oc.column('account_id').doUpdateSet({ low_credits_threshold: threshold }))
        .returning('low_credits_threshold')
        .executeTakeFirstOrThrow();
      return row.low_credits_threshold;
    },

    /** Adds (or with a negative delta removes) available credits; false if that would go below zero. */
    async addAvailable(accountId: string, delta: number, at: Date, tx: Db): Promise<boolean> {
      const result = await tx
        .updateTable('balances')
        .set({ available: sql`available + ${delta}`, updated_at: at })
        .where('account_id', '=', accountId)
        .where(sql<boolean>`available + ${delta} >= 0`)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Answers' shares leave their accounts' holds (a batch of answers, answer-recording.service.ts;
     * credits − reserved is unchanged), in one statement: spendReservedRider's, written alone.
     */
    async spendReservedMany(spends: readonly Spend[], at: Date, tx: Db): Promise<void> {
      if (spends.length === 0) return;
      await sql`WITH ${sql.join(spendCtes(spends, at, ''))} SELECT 1`.execute(tx);
    },

    /**
     * spendReservedMany as a rider (lib/statement-rider.ts) of a batch's insert, which takes no
     * lock of the lock order itself: the balances are the last locks of the batch's transaction
     * (docs/credits.md "Lock order").
     */
    spendReservedRider(spends: readonly Spend[], at: Date): StatementRider {
      return { carried: false, ctes: (prefix) => (spends.length === 0 ? [] : spendCtes(spends, at, prefix)) };
    },

    /** What is left of a hold goes back to available. */
    async releaseReserved(accountId: string, amount: number, at: Date, tx: Db): Promise<void> {
      await tx
        .updateTable('balances')
        .set({ available: sql`available + ${amount}`, reserved: sql`reserved - ${amount}`, updated_at: at })
        .where('account_id', '=', accountId)
        .execute();
    },
  };
}
export type CreditsBalancesRepository = ReturnType<typeof createCreditsBalancesRepository>;
