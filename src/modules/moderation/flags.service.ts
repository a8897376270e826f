import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { newId } from '../../lib/ids.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { Actor } from '../../lib/actor.ts';
import { readAnswer, type AnswerInput } from '../draft/answer-format.ts';
import { storedDraft } from '../draft/stored-draft.ts';
import { refundSpent } from './refund-spent.ts';
import type { QuestionType } from '../draft/question-types.ts';
import { reviewSettlement } from '../settlement/settlement-review.ts';
import { storedSettlement } from '../settlement/settlement.schemas.ts';
import type { FlagRow } from './moderation.repository.ts';
import type { Flag, FlagBody } from './moderation.schemas.ts';
import type { ModerationDeps, OwnQuestion } from './moderation.deps.ts';

/**
 * Flags and pins of answers (docs/moderation.md). A requester flags an answer; an operator decides
 * the flag with the admin CLI. Money only moves on an upheld flag (the answer's credits), through
 * the ledger, in the same transaction as the decision, once (ledger ref `flag:<id>`).
 */
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

const REASON_WORDS: Record<string, string> = { off_topic: 'off topic', low_effort: 'low effort', abusive: 'abusive', automated: 'automated' };

/** What moderation needs of the insights: a removed answer makes the standing summary stale, and it is made again. */
export interface InsightsAfterRemoval {
  markStale(questionId: string, tx: Db): Promise<void>;
  remake(questionId: string): Promise<void>;
}

export function createFlagService(deps: ModerationDeps & { insights: InsightsAfterRemoval; ownQuestion: OwnQuestion }) {
  const { db, clock, repo, questions, credits, ownQuestion } = deps;

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
        const answer = await repo.lockAnswerByRef(questionId, ref, tx);
        if (!answer) throw notFound('No such answer on this question.');
        if (answer.removed) throw new AppError('conflict', 'This answer was already removed after review.', { attestationRef: ref });
        const open = await repo.openFlagOf(answer.id, tx);
        if (open) throw new AppError('conflict', 'This answer already has an open flag waiting for review.', { flagId: open.id });
        const row = await repo.insertFlag(
          {
            id: newId('flag'),
            account_id: actor.accountId,
            question_id: questionId,
            answer_id: answer.id,
            attestation_ref: answer.attestation_ref,
            key_id: actor.keyId,
            reason: body.reason,
            note,
            refund_credits: answer.credits,
            created_at: clock.now(),
          },
          tx,
        );
        if (!row) throw new AppError('conflict', 'This answer already has an open flag waiting for review.');
        return flagView(row);
      });
    },

    /** POST …/answers/{ref}/pin. */
    async pin(actor: Actor, questionId: string, ref: string, pinned: boolean): Promise<{ pinned: boolean }> {
      await ownQuestion(actor, questionId);
      const answer = await repo.findAnswerByRef(questionId, ref);
      if (!answer) throw notFound('No such answer on this question.');
      if (answer.removed) throw new AppError('conflict', 'This answer was removed after review and is no longer in the results.', { attestationRef: ref });
      await repo.setPinned(answer.id, pinned);
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
        const flag = await repo.lockFlag(id, tx);
        if (!flag) throw notFound('No such flag.');
        if (flag.status !== 'open') throw new AppError('conflict', `This flag was already ${flag.status}.`, { status: flag.status });
        if (decision === 'dismiss') {
          const row = await repo.decideFlag(id, { status: 'dismissed', decided_at: at, refund_credits: 0 }, tx);
          return { row, refunded: 0 };
        }
        // Question first, then the answer: the order the answer-recording service locks in.
        const q = await questions.lock(flag.question_id, tx);
        if (!q) throw notFound('No such question.');
        const answer = await repo.lockAnswer(flag.answer_id, tx);
        if (answer.removed) throw new AppError('conflict', 'This answer was already removed.');
        await repo.markAnswerRemoved(answer.id, tx);

        const tally = { ...q.tally };
        const read = readAnswer(storedDraft(q.draft), answer.answer as AnswerInput);
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
        }, deps.counters);
        const refunded = posted ? amount : 0;
        // The stopping rule re-read on the answers still counted (settlement/settlement-review.ts).
        const draft = storedDraft(q.draft);
        const reviewed = reviewSettlement({
          type: q.type as QuestionType, status: q.status, n: q.n, draft, stored: storedSettlement(q.settlement),
          answers: (await repo.countedAnswers(q.id, tx)) as AnswerInput[], at,
        });
        const settlement = reviewed === undefined ? {} : { settlement: reviewed === null ? null : JSON.stringify(reviewed) };
        await questions.update(q.id, { tally: JSON.stringify(tally), removed_answers: q.removed_answers + 1, credits_spent: q.credits_spent - refunded, credits_refunded: q.credits_refunded + refunded, ...settlement, updated_at: at }, tx);
        await deps.insights.markStale(q.id, tx);
        const row = await repo.decideFlag(id, { status: 'upheld', decided_at: at, refund_credits: refunded }, tx);
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
      return (await repo.listFlags(filter)).map(flagRecord);
    },
  };
}
