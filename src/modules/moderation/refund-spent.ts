import type { Db } from '../../db/database.ts';
import type { CreditsRepository } from '../credits/credits.repository.ts';
import { utcDay } from '../../lib/dates.ts';
import { afterCommit } from '../../db/transaction.ts';
import { NO_COUNTERS, type ServiceCounters } from '../../lib/service-counters.ts';

/**
 * Gives back credits a question already SPENT (an answer removed after review, an upheld
 * dispute), once per `uniqueRef` (R3.5): a `refund` ledger row, available += amount, and a new lot
 * that never expires, all in the caller's transaction. The question's hold may be long released,
 * so nothing comes out of `reserved`; the caller moves the amount from the question's
 * `credits_spent` to its `credits_refunded` when this returns true, which keeps
 * reserved − spent − refunded (the open hold that reconciliation checks) unchanged. A capped key
 * that reserved those credits today gets them back under its daily cap (docs/credits.md).
 */
export interface RefundSpentInput {
  accountId: string;
  questionId: string;
  /** The question whose reservation paid (the parent for follow-ups): its cap charges of the day. */
  reservedBy: string;
  amount: number;
  uniqueRef: string;
  title: string;
  by: string;
  at: Date;
}

export async function refundSpent(tx: Db, repo: CreditsRepository, input: RefundSpentInput, counters: Pick<ServiceCounters, 'refunded'> = NO_COUNTERS): Promise<boolean> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) return false;
  await repo.ensureBalance(input.accountId, tx);
  const entry = await repo.insertEntry(
    { accountId: input.accountId, kind: 'refund', state: 'available', amount: input.amount, title: input.title, ref: input.questionId, uniqueRef: input.uniqueRef, by: input.by, at: input.at },
    tx,
  );
  if (!entry) return false;
  if (!(await repo.addAvailable(input.accountId, input.amount, input.at, tx))) throw new Error(`refund ${input.uniqueRef} could not be added to the balance`);
  // Net spend: credits reserved today under a capped key go back under its cap too (after the balance: lock order).
  await repo.returnCapCharges(input.reservedBy, utcDay(input.at), input.amount, tx);
  await repo.insertLot({ accountId: input.accountId, entryId: entry.id, amount: input.amount, expiresAt: null }, tx);
  afterCommit(tx, () => counters.refunded(input.amount));
  return true;
}
