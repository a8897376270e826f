import { inTransaction } from '../../db/transaction.ts';
import { newId } from '../../lib/ids.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { emitEvent } from '../events/outbox.ts';
import { isOpen } from '../questions/lifecycle.service.ts';
import { refundSpent } from './refund-spent.ts';
import type { DisputeRow } from './moderation.repository.ts';
import type { Dispute, DisputeStatus } from './moderation.schemas.ts';
import { DAY_MS } from '../../lib/dates.ts';
import type { ModerationDeps, OwnQuestion } from './moderation.deps.ts';

/**
 * Disputes of closed questions (docs/moderation.md). A requester disputes a closed question; an
 * operator decides it with the admin CLI. Money only moves on an upheld dispute with a refund,
 * through the ledger, in the same transaction as the decision, once (ledger ref `dispute:<id>`).
 */

/** Disputes are accepted up to this long after the question closed. */
export const DISPUTE_WINDOW_DAYS = 7;

export interface DisputeRecord {
  id: string;
  questionId: string;
  accountId: string;
  reason: string;
  status: DisputeStatus;
  refundCredits: number;
  decisionNote: string | null;
  createdAt: string;
  decidedAt: string | null;
}

function disputeRecord(row: DisputeRow): DisputeRecord {
  return {
    id: row.id,
    questionId: row.question_id,
    accountId: row.account_id,
    reason: row.reason,
    status: row.status as DisputeStatus,
    refundCredits: row.refund_credits,
    decisionNote: row.decision_note,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

/** The requester's view of a dispute (no account, the note as `decision`). */
export function disputeView(record: DisputeRecord): Dispute {
  return {
    id: record.id,
    questionId: record.questionId,
    status: record.status,
    reason: record.reason,
    createdAt: record.createdAt,
    decidedAt: record.decidedAt,
    decision: record.decisionNote,
    refundCredits: record.refundCredits,
  };
}

export function createDisputeService(deps: ModerationDeps & { ownQuestion: OwnQuestion }) {
  const { db, clock, repo, questions, credits, ownQuestion } = deps;

  return {
    /**
     * POST /dispute: only a closed question, within 7 days of its closing; one open dispute per
     * question at a time.
     */
    async dispute(actor: Actor, questionId: string, reason: string): Promise<DisputeRecord> {
      const q = await ownQuestion(actor, questionId);
      const text = reason.trim();
      if (text.length < 10) throw validationError([{ field: 'reason', code: 'too_short', message: 'reason must be 10 to 2000 characters (not counting spaces around it).' }]);
      const now = clock.now();
      if (isOpen(q.status)) {
        throw new AppError('conflict', `This question is still open (${q.status}); a dispute can be raised once it has closed.`, { status: q.status });
      }
      const closedAt = q.closed_at ?? q.updated_at;
      const disputeBy = new Date(closedAt.getTime() + DISPUTE_WINDOW_DAYS * DAY_MS);
      if (now > disputeBy) {
        throw new AppError('conflict', `It is more than ${DISPUTE_WINDOW_DAYS} days after closing (this question closed at ${closedAt.toISOString()}); disputes are accepted within ${DISPUTE_WINDOW_DAYS} days.`, {
          closedAt: closedAt.toISOString(),
          disputeBy: disputeBy.toISOString(),
        });
      }
      const row = await repo.insertDispute({ id: newId('dispute'), account_id: actor.accountId, question_id: questionId, key_id: actor.keyId, reason: text, created_at: now, decision_note: null, decided_at: null });
      if (!row) throw new AppError('conflict', 'A dispute of this question is already open; it will be answered by email and webhook (dispute.resolved).');
      return disputeRecord(row);
    },

    /**
     * Admin decision on a dispute: writes it and emits `dispute.resolved` to the outbox in one
     * transaction; an upheld dispute may refund up to what the question still counts as spent.
     */
    async decideDispute(id: string, input: { outcome: 'upheld' | 'rejected'; refund: number | null; note: string; by?: string }): Promise<{ dispute: DisputeRecord; refundCredits: number; requestedRefund: number | null }> {
      const note = input.note.trim();
      const problems = [];
      if (note.length < 3 || note.length > 1000) problems.push({ field: 'note', code: 'too_short' as const, message: 'note must be 3 to 1000 characters: it is sent to the requester.' });
      if (input.refund !== null && (!Number.isSafeInteger(input.refund) || input.refund < 1)) problems.push({ field: 'refund', code: 'out_of_range' as const, message: 'refund must be a whole number of credits, at least 1.' });
      if (input.refund !== null && input.outcome !== 'upheld') problems.push({ field: 'refund', code: 'not_allowed' as const, message: 'Only an upheld dispute can refund credits.' });
      if (problems.length) throw validationError(problems);
      const at = clock.now();
      const outcome = await inTransaction(db, async (tx) => {
        const dispute = await repo.lockDispute(id, tx);
        if (!dispute) throw notFound('No such dispute.');
        if (dispute.status !== 'open') throw new AppError('conflict', `This dispute was already ${dispute.status}.`, { status: dispute.status });
        const q = await questions.lock(dispute.question_id, tx);
        if (!q) throw notFound('No such question.');
        let refunded = 0;
        if (input.refund !== null) {
          // Capped at what the question still counts as spent (removed answers were refunded already).
          const amount = Math.min(input.refund, q.credits_spent);
          const posted = await refundSpent(tx, credits, { accountId: q.account_id, questionId: q.id, reservedBy: q.parent_id ?? q.id, amount, uniqueRef: `dispute:${id}`, title: 'Refund: dispute upheld', by: input.by ?? 'admin', at }, deps.counters);
          if (posted) {
            refunded = amount;
            await questions.update(q.id, { credits_spent: q.credits_spent - amount, credits_refunded: q.credits_refunded + amount, updated_at: at }, tx);
          }
        }
        const row = await repo.decideDispute(id, { status: input.outcome, decided_at: at, decision_note: note, refund_credits: refunded }, tx);
        await emitEvent(tx, {
          accountId: row.account_id,
          type: 'dispute.resolved',
          uniqueRef: `dispute:${id}:resolved`,
          // data: the Dispute as GET /v2/questions/{id}/dispute returns it, now decided.
          payload: { dispute: disputeView(disputeRecord(row)), questionId: row.question_id, refundCredits: refunded },
          at,
        });
        return { row, refunded };
      });
      deps.changed(outcome.row.question_id);
      return { dispute: disputeRecord(outcome.row), refundCredits: outcome.refunded, requestedRefund: input.refund };
    },

    /**
     * GET /v2/questions/{id}/dispute (extension): the question's latest dispute with its decision
     * (null when none was raised), and until when one can be raised (null while the question is
     * open: a dispute needs a closed question).
     */
    async latestDispute(actor: Actor, questionId: string): Promise<{ dispute: Dispute | null; disputeBy: string | null }> {
      const q = await ownQuestion(actor, questionId);
      const row = await repo.latestDispute(q.id);
      const closedAt = isOpen(q.status) ? null : (q.closed_at ?? q.updated_at);
      return {
        dispute: row ? disputeView(disputeRecord(row)) : null,
        disputeBy: closedAt ? new Date(closedAt.getTime() + DISPUTE_WINDOW_DAYS * DAY_MS).toISOString() : null,
      };
    },

    async listDisputes(filter: { status?: string; accountId?: string; limit?: number } = {}): Promise<DisputeRecord[]> {
      return (await repo.listDisputes(filter)).map(disputeRecord);
    },
  };
}
