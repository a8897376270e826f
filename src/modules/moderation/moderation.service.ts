import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { AnswerFlagsTable, DisputesTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomBase62 } from '../../lib/base62.ts';
import { AppError, notFound, validationError } from '../../lib/errors.ts';
import type { Actor } from '../../lib/actor.ts';
import type { CreditsRepository } from '../credits/credits.repository.ts';
import { emitEvent } from '../events/outbox.ts';
import { readAnswer, type AnswerInput } from '../draft/answer-format.ts';
import type { NormalizedDraft } from '../draft/draft-defaults.ts';
import { isOpen } from '../questions/lifecycle.service.ts';
import type { QuestionsRepository } from '../questions/questions.repository.ts';
import { refundSpent } from './refund-spent.ts';
import type { Dispute, DisputeStatus, Flag, FlagBody } from './moderation.schemas.ts';

/**
 * Flags, pins and disputes (docs/moderation.md). A requester flags an answer and disputes a
 * closed question; an operator decides both with the admin CLI. Money only moves on an upheld
 * flag (the answer's credits) or an upheld dispute with a refund, through the ledger, in the same
 * transaction as the decision, once (ledger refs `flag:<id>` and `dispute:<id>`).
 */
type FlagRow = Selectable<AnswerFlagsTable>;
type DisputeRow = Selectable<DisputesTable>;

/** Disputes are accepted up to this long after the question closed. */
export const DISPUTE_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;

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

export interface FlagRecord extends Flag {
  questionId: string;
  accountId: string;
  note: string | null;
}

export function flagView(row: FlagRow): Flag {
  return {
    id: row.id,
    attestationRef: row.attestation_ref,
    reason: row.reason as Flag['reason'],
    status: row.status as Flag['status'],
    refundCredits: row.refund_credits,
    createdAt: row.created_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
  };
}

const flagRecord = (row: FlagRow): FlagRecord => ({ ...flagView(row), questionId: row.question_id, accountId: row.account_id, note: row.note });

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

const REASON_WORDS: Record<string, string> = { off_topic: 'off topic', low_effort: 'low effort', abusive: 'abusive', automated: 'automated' };

/** What moderation needs of the insights: a removed answer makes the standing summary stale, and it is made again. */
export interface InsightsAfterRemoval {
  markStale(questionId: string, tx: Db): Promise<void>;
  remake(questionId: string): Promise<void>;
}

export function createModerationService(deps: {
  db: Db;
  clock: Clock;
  questions: QuestionsRepository;
  credits: CreditsRepository;
  insights: InsightsAfterRemoval;
  changed(questionId: string): void;
}) {
  const { db, clock, questions, credits } = deps;

  async function ownQuestion(actor: Actor, id: string) {
    const q = await questions.find(actor.accountId, id);
    if (!q) throw notFound('No such question on this account.');
    return q;
  }

  return {
    /**
     * POST …/answers/{ref}/flag. One open flag per answer: a second flag while one is open is a
     * 409 `conflict` naming it (details.flagId); after a dismissal the answer can be flagged again.
     */
    async flag(actor: Actor, questionId: string, ref: string, body: FlagBody): Promise<Flag> {
      await ownQuestion(actor, questionId);
      const note = body.note?.trim() ? body.note.trim() : null;
      return inTransaction(db, async (tx) => {
        // The answer row lock queues concurrent flags of one answer.
        const answer = await tx
          .selectFrom('answers')
          .select(['id', 'credits', 'removed', 'attestation_ref'])
          .where('question_id', '=', questionId)
          .where('attestation_ref', '=', ref)
          .forUpdate()
          .executeTakeFirst();
        if (!answer) throw notFound('No such answer on this question.');
        if (answer.removed) throw new AppError('conflict', 'This answer was already removed after review.', { attestationRef: ref });
        const open = await tx.selectFrom('answer_flags').select('id').where('answer_id', '=', answer.id).where('status', '=', 'open').executeTakeFirst();
        if (open) throw new AppError('conflict', 'This answer already has an open flag waiting for review.', { flagId: open.id });
        const row = await tx
          .insertInto('answer_flags')
          .values({
            id: `flg_${randomBase62(20)}`,
            account_id: actor.accountId,
            question_id: questionId,
            answer_id: answer.id,
            attestation_ref: answer.attestation_ref,
            key_id: actor.keyId,
            reason: body.reason,
            note,
            refund_credits: answer.credits,
            created_at: clock.now(),
          })
          .onConflict((oc) => oc.column('answer_id').where('status', '=', 'open').doNothing())
          .returningAll()
          .executeTakeFirst();
        if (!row) throw new AppError('conflict', 'This answer already has an open flag waiting for review.');
        return flagView(row);
      });
    },

    /** POST …/answers/{ref}/pin. */
    async pin(actor: Actor, questionId: string, ref: string, pinned: boolean): Promise<{ pinned: boolean }> {
      await ownQuestion(actor, questionId);
      const answer = await db.selectFrom('answers').select(['id', 'removed']).where('question_id', '=', questionId).where('attestation_ref', '=', ref).executeTakeFirst();
      if (!answer) throw notFound('No such answer on this question.');
      if (answer.removed) throw new AppError('conflict', 'This answer was removed after review and is no longer in the results.', { attestationRef: ref });
      await db.updateTable('answers').set({ pinned }).where('id', '=', answer.id).execute();
      deps.changed(questionId);
      return { pinned };
    },

    /**
     * Admin review of a flag. Upheld: the answer is removed (out of the result's answers, counts
     * and distribution) and the credits it cost are refunded through the ledger, in one
     * transaction. Dismissed: nothing moves. A decided flag cannot be decided again (409).
     */
    async decideFlag(id: string, decision: 'uphold' | 'dismiss', by = 'admin'): Promise<{ flag: FlagRecord; refundCredits: number }> {
      const at = clock.now();
      const outcome = await inTransaction(db, async (tx) => {
        const flag = await tx.selectFrom('answer_flags').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
        if (!flag) throw notFound('No such flag.');
        if (flag.status !== 'open') throw new AppError('conflict', `This flag was already ${flag.status}.`, { status: flag.status });
        if (decision === 'dismiss') {
          const row = await tx.updateTable('answer_flags').set({ status: 'dismissed', decided_at: at, refund_credits: 0 }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
          return { row, refunded: 0 };
        }
        // Question first, then the answer: the order the answer-recording service locks in.
        const q = await questions.lock(flag.question_id, tx);
        if (!q) throw notFound('No such question.');
        const answer = await tx.selectFrom('answers').select(['id', 'answer', 'credits', 'removed']).where('id', '=', flag.answer_id).forUpdate().executeTakeFirstOrThrow();
        if (answer.removed) throw new AppError('conflict', 'This answer was already removed.');
        await tx.updateTable('answers').set({ removed: true }).where('id', '=', answer.id).execute();

        const tally = { ...q.tally };
        const read = readAnswer(q.draft as unknown as NormalizedDraft, answer.answer as AnswerInput);
        for (const key of Array.isArray(read) ? [] : read.tallyKeys) if (tally[key]) tally[key] -= 1;

        // Never more than the question still counts as spent (an upheld dispute may have refunded some).
        const amount = Math.min(answer.credits, q.credits_spent);
        const posted = await refundSpent(tx, credits, {
          accountId: q.account_id,
          questionId: q.id,
          reservedBy: q.parent_id ?? q.id,
          amount,
          uniqueRef: `flag:${id}`,
          title: `Refund: an answer was removed after review (${REASON_WORDS[flag.reason] ?? flag.reason})`,
          by,
          at,
        });
        const refunded = posted ? amount : 0;
        await questions.update(q.id, { tally: JSON.stringify(tally), removed_answers: q.removed_answers + 1, credits_spent: q.credits_spent - refunded, credits_refunded: q.credits_refunded + refunded, updated_at: at }, tx);
        await deps.insights.markStale(q.id, tx);
        const row = await tx.updateTable('answer_flags').set({ status: 'upheld', decided_at: at, refund_credits: refunded }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
        return { row, refunded };
      });
      deps.changed(outcome.row.question_id);
      if (outcome.row.status === 'upheld') {
        await deps.insights.remake(outcome.row.question_id);
        deps.changed(outcome.row.question_id);
      }
      return { flag: flagRecord(outcome.row), refundCredits: outcome.refunded };
    },

    async listFlags(filter: { status?: string; questionId?: string; limit?: number } = {}): Promise<FlagRecord[]> {
      let q = db.selectFrom('answer_flags').selectAll();
      if (filter.status) q = q.where('status', '=', filter.status);
      if (filter.questionId) q = q.where('question_id', '=', filter.questionId);
      return (await q.orderBy('seq').limit(filter.limit ?? 100).execute()).map(flagRecord);
    },

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
      const row = await db
        .insertInto('disputes')
        .values({ id: `dsp_${randomBase62(20)}`, account_id: actor.accountId, question_id: questionId, key_id: actor.keyId, reason: text, created_at: now, decision_note: null, decided_at: null })
        .onConflict((oc) => oc.column('question_id').where('status', '=', 'open').doNothing())
        .returningAll()
        .executeTakeFirst();
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
        const dispute = await tx.selectFrom('disputes').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
        if (!dispute) throw notFound('No such dispute.');
        if (dispute.status !== 'open') throw new AppError('conflict', `This dispute was already ${dispute.status}.`, { status: dispute.status });
        const q = await questions.lock(dispute.question_id, tx);
        if (!q) throw notFound('No such question.');
        let refunded = 0;
        if (input.refund !== null) {
          // Capped at what the question still counts as spent (removed answers were refunded already).
          const amount = Math.min(input.refund, q.credits_spent);
          const posted = await refundSpent(tx, credits, { accountId: q.account_id, questionId: q.id, reservedBy: q.parent_id ?? q.id, amount, uniqueRef: `dispute:${id}`, title: 'Refund: dispute upheld', by: input.by ?? 'admin', at });
          if (posted) {
            refunded = amount;
            await questions.update(q.id, { credits_spent: q.credits_spent - amount, credits_refunded: q.credits_refunded + amount, updated_at: at }, tx);
          }
        }
        const row = await tx
          .updateTable('disputes')
          .set({ status: input.outcome, decided_at: at, decision_note: note, refund_credits: refunded })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await emitEvent(tx, {
          accountId: row.account_id,
          type: 'dispute.resolved',
          uniqueRef: `dispute:${id}:resolved`,
          payload: { disputeId: id, questionId: row.question_id, outcome: input.outcome, refundCredits: refunded, note },
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
      const row = await db.selectFrom('disputes').selectAll().where('question_id', '=', q.id).orderBy('seq', 'desc').limit(1).executeTakeFirst();
      const closedAt = isOpen(q.status) ? null : (q.closed_at ?? q.updated_at);
      return {
        dispute: row ? disputeView(disputeRecord(row)) : null,
        disputeBy: closedAt ? new Date(closedAt.getTime() + DISPUTE_WINDOW_DAYS * DAY_MS).toISOString() : null,
      };
    },

    async listDisputes(filter: { status?: string; accountId?: string; limit?: number } = {}): Promise<DisputeRecord[]> {
      let q = db.selectFrom('disputes').selectAll();
      if (filter.status) q = q.where('status', '=', filter.status);
      if (filter.accountId) q = q.where('account_id', '=', filter.accountId);
      return (await q.orderBy('seq').limit(filter.limit ?? 100).execute()).map(disputeRecord);
    },
  };
}
export type ModerationService = ReturnType<typeof createModerationService>;
