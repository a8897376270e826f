import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import { AppError } from '../../src/lib/errors.ts';
import type { AskBody } from '../../src/modules/questions/ask.schemas.ts';
import { normalizeDraft } from '../../src/modules/draft/draft-defaults.ts';
import type { QuestionDraft } from '../../src/modules/draft/draft.schemas.ts';
import { priceDraft } from '../../src/modules/draft/pricing.ts';
import { priceInputOf } from '../../src/modules/estimate/estimate.service.ts';
import { seedSimulatedPanel } from '../../src/modules/panel/panel-seed.ts';
import type { Clock } from '../../src/lib/clock.ts';

/**
 * Shared helpers of the money tests (money-model, concurrency, crash-recovery): raw reads of the
 * ledger, balances and questions of one account, a small valid ask, and error codes of a call.
 */
export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

export interface LedgerRowLite {
  kind: string;
  amount: number;
  ref: string | null;
  unique_ref: string;
}

export async function ledgerRows(db: Db, accountId: string): Promise<LedgerRowLite[]> {
  return db.selectFrom('ledger_entries').select(['kind', 'amount', 'ref', 'unique_ref']).where('account_id', '=', accountId).orderBy('seq').execute();
}

export async function ledgerSum(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries')
    .select(sql<number>`coalesce(sum(amount), 0)::bigint`.as('sum'))
    .where('account_id', '=', accountId)
    // A pending purchase (a bank transfer awaited) or a reversed one moved no credits (docs/credits.md).
    .where('state', 'not in', ['pending', 'reversed'])
    .executeTakeFirstOrThrow();
  return Number(row.sum);
}

export async function balanceRow(db: Db, accountId: string): Promise<{ available: number; reserved: number }> {
  const row = await db.selectFrom('balances').select(['available', 'reserved']).where('account_id', '=', accountId).executeTakeFirst();
  return row ? { available: Number(row.available), reserved: Number(row.reserved) } : { available: 0, reserved: 0 };
}

export interface QuestionMoneyRow {
  id: string;
  parent_id: string | null;
  status: string;
  n: number;
  answered: number;
  credits_per_answer: number;
  credits_reserved: number;
  credits_spent: number;
  credits_refunded: number;
  min_answers: number | null;
}

export async function questionRows(db: Db, accountId: string): Promise<QuestionMoneyRow[]> {
  const rows = await db
    .selectFrom('questions')
    .select(['id', 'parent_id', 'status', 'n', 'answered', 'credits_per_answer', 'credits_reserved', 'credits_spent', 'credits_refunded', 'min_answers'])
    .where('account_id', '=', accountId)
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({
    ...r,
    credits_reserved: Number(r.credits_reserved),
    credits_spent: Number(r.credits_spent),
    credits_refunded: Number(r.credits_refunded),
  }));
}

export async function questionRow(db: Db, id: string): Promise<QuestionMoneyRow> {
  const row = await db
    .selectFrom('questions')
    .select(['id', 'parent_id', 'status', 'n', 'answered', 'credits_per_answer', 'credits_reserved', 'credits_spent', 'credits_refunded', 'min_answers'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { ...row, credits_reserved: Number(row.credits_reserved), credits_spent: Number(row.credits_spent), credits_refunded: Number(row.credits_refunded) };
}

/** What a call threw: the AppError code, or the error itself rethrown when it is anything else (a 500). */
export async function outcome<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; code: string; error: AppError }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, code: error.code, error };
    throw error;
  }
}

/** The credits per answer the estimate quotes for a draft (docs/asking.md: the ask reserves exactly this). */
export function pricePerAnswer(draft: QuestionDraft): number {
  return priceDraft(priceInputOf(normalizeDraft(draft))).creditsPerAnswer;
}

let askCounter = 0;
/** A small valid ask: single_choice, 2 options, n answers (10 by default). */
export function smallAsk(n = 10, extra: Partial<AskBody> = {}): AskBody {
  askCounter += 1;
  return {
    draft: { type: 'single_choice', text: `Which of these two names sounds better, take ${askCounter}?`, options: [{ label: 'Penny' }, { label: 'Pocket' }], n },
    ...extra,
  };
}

/** Seeds the simulated panel once per database and returns every head id, in a stable order. */
export async function panelHeads(db: Db, clock: Clock, size = 300): Promise<string[]> {
  await seedSimulatedPanel(db, { size, clock });
  const rows = await db.selectFrom('heads').select('id').orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** Rows of the ledger that a question posted, by kind. */
export async function refundRowsOf(db: Db, questionId: string): Promise<LedgerRowLite[]> {
  return db.selectFrom('ledger_entries').select(['kind', 'amount', 'ref', 'unique_ref']).where('ref', '=', questionId).where('kind', '=', 'refund').execute();
}
