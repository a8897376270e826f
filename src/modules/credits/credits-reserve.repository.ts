import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import type { StatementRider } from '../../lib/statement-rider.ts';
import type { BalanceRowState } from './credits-balances.repository.ts';
import type { NewEntry } from './credits-ledger.repository.ts';

/** A reservation (credits.holds.ts `reserve`) as the statement writes it. */
export interface Reservation {
  accountId: string;
  amount: number;
  at: Date;
  /** The question whose lot uses (and cap charge) these are. */
  questionId: string;
  /** The key's daily cap, when the key has one. */
  cap: { keyId: string; day: string; cap: number } | null;
  /** The ledger row written with it. */
  entry: NewEntry;
  /** Writes of other repositories that ride in the same statement (lib/statement-rider.ts). */
  riders: readonly StatementRider[];
}

export interface ReservationOutcome {
  /** The balance row after the move, or null when available did not cover the amount (then nothing else ran). */
  balance: BalanceRowState | null;
  /** The key's net spend of the day after the charge; null when the cap refused it (and for a key without a cap). */
  spentToday: number | null;
  /** What the account's lots could pay at `at` (credits past their expiry left out). */
  spendable: number;
  /**
   * The lots read may be older than the balance row this statement locked: the sum of the open
   * lots differs from what the row held (they are equal at every commit: docs/credits.md
   * "Reconciliation"). Nothing was taken from them; `spendLots` reads them again.
   */
  stale: boolean;
  /** The lots paid: credits were taken from them, the lot uses and the ledger row written. */
  paid: boolean;
  /** The ledger row was written (false when its unique reference was already posted). */
  posted: boolean;
}

/** The order lots are spent in (docs/credits.md "Expiry"): soonest-expiring first, credits that never expire last. */
const LOT_ORDER = sql`expires_at ASC NULLS LAST, id`;

/** What is taken from the lots: `amount` at `at`; for a reservation, the question whose lot uses they are and the ledger row. */
interface LotsSpend {
  amount: number;
  at: Date;
  reservation?: { questionId: string; entry: NewEntry };
}

/**
 * Taking credits from the lots, as CTEs after `lots` (the account's open lots, locked, in
 * LOT_ORDER): which lots pay for `amount` at `at`, never a lot past its expiry, whether or not the
 * expiry job has emptied it yet (docs/credits.md "Expiry");
 * then, only when the spendable credits cover the amount and `ready` holds, the credits taken from
 * them and, for a reservation, the question's lot uses (so a refund goes back to them) and its
 * ledger row.
 */
function spendFromLots(r: LotsSpend, ready: RawBuilder<unknown>): RawBuilder<unknown>[] {
  const live = sql`(expires_at IS NULL OR expires_at > ${r.at})`;
  const ctes = [
    sql`totals AS (SELECT coalesce(sum(remaining), 0)::bigint AS held, coalesce(sum(remaining) FILTER (WHERE ${live}), 0)::bigint AS spendable FROM lots)`,
    sql`go AS (SELECT FROM totals WHERE totals.spendable >= ${r.amount}::bigint AND ${ready})`,
    // Each live lot, in order, gives what is still missing after the ones before it, up to what it holds.
    sql`plan AS (
      SELECT id, least(remaining, ${r.amount}::bigint - before) AS take FROM (
        SELECT id, remaining, coalesce(sum(remaining) OVER (ORDER BY ${LOT_ORDER} ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
        FROM lots WHERE ${live}) AS running
      WHERE before < ${r.amount}::bigint)`,
    sql`took AS (UPDATE credit_lots l SET remaining = l.remaining - plan.take FROM plan, go WHERE l.id = plan.id RETURNING l.id)`,
  ];
  if (!r.reservation) return [...ctes, sql`entry AS (SELECT WHERE false)`];
  const e = r.reservation.entry;
  return [
    ...ctes,
    sql`used AS (
      INSERT INTO lot_uses (question_id, lot_id, amount) SELECT ${r.reservation.questionId}, plan.id, plan.take FROM plan, go
      ON CONFLICT (question_id, lot_id) DO UPDATE SET amount = lot_uses.amount + EXCLUDED.amount RETURNING 1)`,
    sql`entry AS (
      INSERT INTO ledger_entries (id, account_id, kind, state, amount, title, ref, unique_ref, key_id, by, at)
      SELECT ${newId('ledger')}, ${e.accountId}, ${e.kind}, ${e.state}, ${e.amount}, ${e.title}, ${e.ref}, ${e.uniqueRef}, ${e.keyId ?? null}, ${e.by ?? null}, ${e.at} FROM go
      ON CONFLICT (unique_ref) DO NOTHING RETURNING id)`,
  ];
}

const ridersOf = (riders: readonly StatementRider[]) => riders.flatMap((rider, i) => rider.ctes(`rider${i}_`));

interface OutcomeRow {
  available: number | null;
  threshold: number | null;
  spent_today: number | null;
  held: number | null;
  spendable: number | null;
  paid: boolean;
  posted: boolean;
}

/**
 * SQL of the reservation of an ask or of added heads, in one statement (issue 15): an ask's time
 * goes to its round trips, and asks of one account queue on its balance row, held from this
 * statement to the commit. Also the one place credits are taken from lots by the spending rule
 * (an operator's removal uses `spendLots`).
 */
export function createCreditsReserveRepository() {
  return {
    /**
     * In one statement: moves `amount` from available to reserved if available covers it (the
     * balance row, locked first; available ≥ 0 by this condition and a CHECK, R3.3); charges the
     * key's daily cap if it has one (R3.4: what the key reserved for the question today, so that a
     * refund today gives it back, then the day's spend as a conditional counter: INSERT … ON
     * CONFLICT DO UPDATE re-checks its WHERE against the latest committed total under the row's
     * lock, so concurrent asks never pass the cap); then locks the account's open lots and takes
     * the amount from them with its lot uses and ledger row; and writes the riders. Each step
     * runs only when the one before it passed (INSERT … SELECT FROM the step before, the lots
     * behind an EXISTS on it), which also makes them take their locks in the lock order
     * (docs/credits.md "Lock order").
     *
     * The statement's snapshot is taken before it waits for the balance row, so the lots it
     * reads may miss credits added or given back meanwhile (rows updated meanwhile are read
     * current: FOR UPDATE). Every change to lots locks the balance row first and keeps
     * available = Σ open lots, so comparing the two tells: when they differ, nothing is taken
     * (`stale`) and the caller runs `spendLots`, which reads them again under the lock.
     */
    async reserveAndTake(r: Reservation, tx: Db): Promise<ReservationOutcome> {
      const cap = r.cap;
      const ctes = [
        sql`bal AS (
          UPDATE balances SET available = available - ${r.amount}::bigint, reserved = reserved + ${r.amount}::bigint, updated_at = ${r.at}
          WHERE account_id = ${r.accountId} AND available >= ${r.amount}::bigint
          RETURNING available, low_credits_threshold)`,
        ...(cap
          ? [
              sql`cap_charge AS (
                INSERT INTO key_cap_charges (question_id, key_id, day, amount) SELECT ${r.questionId}, ${cap.keyId}, ${cap.day}::date, ${r.amount}::bigint FROM bal
                ON CONFLICT (question_id, key_id, day) DO UPDATE SET amount = key_cap_charges.amount + EXCLUDED.amount RETURNING 1)`,
              sql`cap_spend AS (
                INSERT INTO key_daily_spend (key_id, day, spent) SELECT ${cap.keyId}, ${cap.day}::date, ${r.amount}::bigint FROM cap_charge WHERE ${r.amount}::bigint <= ${cap.cap}::bigint
                ON CONFLICT (key_id, day) DO UPDATE SET spent = key_daily_spend.spent + EXCLUDED.spent
                WHERE key_daily_spend.spent + EXCLUDED.spent <= ${cap.cap}::bigint
                RETURNING spent)`,
            ]
          : []),
        sql`lots AS (
          SELECT id, remaining, expires_at FROM credit_lots
          WHERE account_id = ${r.accountId} AND remaining > 0 AND EXISTS (SELECT FROM ${sql.id(cap ? 'cap_spend' : 'bal')})
          ORDER BY ${LOT_ORDER} FOR UPDATE)`,
        ...spendFromLots({ amount: r.amount, at: r.at, reservation: { questionId: r.questionId, entry: r.entry } }, sql`(SELECT held FROM totals) = (SELECT available + ${r.amount}::bigint FROM bal)`),
        ...ridersOf(r.riders),
      ];
      const result = await sql<OutcomeRow>`
        WITH ${sql.join(ctes)}
        SELECT (SELECT available FROM bal) AS available, (SELECT low_credits_threshold FROM bal) AS threshold,
          ${cap ? sql`(SELECT spent FROM cap_spend)` : sql`NULL::bigint`} AS spent_today,
          (SELECT held FROM totals) AS held, (SELECT spendable FROM totals) AS spendable,
          EXISTS (SELECT FROM go) AS paid, EXISTS (SELECT FROM entry) AS posted`.execute(tx);
      for (const rider of r.riders) rider.carried = true;
      const row = result.rows[0];
      const balance = row.available === null ? null : { available: row.available, lowCreditsThreshold: row.threshold! };
      return {
        balance,
        spentToday: row.spent_today,
        spendable: row.spendable ?? 0,
        stale: balance !== null && row.held !== balance.available + r.amount,
        paid: row.paid,
        posted: row.posted,
      };
    },

    /**
     * Takes `amount` from the account's open lots in one statement, in the order and by the rule
     * of `reserveAndTake`, with a reservation's lot uses and ledger row when given: that part of
     * `reserveAndTake` alone, when its read was stale (the balance row is held by now, so this
     * statement sees every lot as it is), and an operator's removal of credits (which has
     * written its ledger row and lowered the balance row already). `paid` false: the spendable
     * credits do not cover it, and nothing was taken.
     */
    async spendLots(accountId: string, r: LotsSpend, tx: Db): Promise<Pick<ReservationOutcome, 'spendable' | 'paid' | 'posted'>> {
      const lots = sql`lots AS (SELECT id, remaining, expires_at FROM credit_lots WHERE account_id = ${accountId} AND remaining > 0 ORDER BY ${LOT_ORDER} FOR UPDATE)`;
      const result = await sql<Pick<OutcomeRow, 'spendable' | 'paid' | 'posted'>>`
        WITH ${sql.join([lots, ...spendFromLots(r, sql`true`)])}
        SELECT (SELECT spendable FROM totals) AS spendable, EXISTS (SELECT FROM go) AS paid, EXISTS (SELECT FROM entry) AS posted`.execute(tx);
      const row = result.rows[0];
      return { spendable: row.spendable ?? 0, paid: row.paid, posted: row.posted };
    },
  };
}
export type CreditsReserveRepository = ReturnType<typeof createCreditsReserveRepository>;
