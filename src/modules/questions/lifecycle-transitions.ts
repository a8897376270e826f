import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { QuestionsTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/errors.ts';
import type { CreditHolds } from '../credits/credits.holds.ts';
import { emitEvent } from '../events/outbox.ts';
import type { EventName } from '../events/webhooks.schemas.ts';
import { leaderConfidence, meets, type Confidence } from '../draft/confidence.ts';
import type { QuestionsRepository } from './questions.repository.ts';
import { questionView } from './question-view.ts';
import { addDays } from '../../lib/dates.ts';
import type { StoredSettlement } from '../settlement/settlement.schemas.ts';
import { settlementView } from '../settlement/settlement-view.ts';
import { countsOf } from '../settlement/settlement-rule.ts';
import { answerLabels } from '../draft/answer-format.ts';
import { storedDraft } from '../draft/stored-draft.ts';
import type { QuestionType } from '../draft/question-types.ts';

/**
 * The machinery under every transition of the lifecycle (lifecycle.service.ts): lock the question
 * row in a transaction, close it (refund of the unused hold, event, follow-ups settled), and after
 * commit wake its waiters and start the close timers of the follow-ups it launched.
 */
type Row = Selectable<QuestionsTable>;
export type ClosedStatus = 'complete' | 'underfilled' | 'cancelled' | 'refused';

export interface LifecycleEffects {
  /** After commit: wake waiters of this question. */
  changed(questionId: string): void;
  /** After commit: a question went live (timers for its close). */
  wentLive(question: { id: string; closesAt: Date | null }): Promise<void>;
}

export interface LifecycleTransitionsDeps {
  db: Db;
  clock: Clock;
  questions: QuestionsRepository;
  holds: CreditHolds;
  effects: LifecycleEffects;
  /** PUBLIC_BASE_URL: a close event's Question carries the answer link (question-view.ts). */
  publicBaseUrl: string;
}

const EVENT: Record<ClosedStatus, EventName> = {
  complete: 'question.completed',
  underfilled: 'question.underfilled',
  cancelled: 'question.cancelled',
  refused: 'question.refused',
};

const REFUND_TITLE: Record<ClosedStatus, string> = {
  complete: 'Refund: question closed',
  underfilled: 'Refund: answers not given before the question closed',
  cancelled: 'Refund: question cancelled',
  refused: 'Refund: question refused in review',
};

/** "Refund: settled after 83 of 200 answers; 117 × 12 credits refunded" (issue 17 point 3). */
function settledRefundTitle(q: Pick<Row, 'n' | 'answered' | 'credits_per_answer'>, settlement: StoredSettlement, refund: number): string {
  const places = q.n - q.answered;
  const what = places > 0 && places * q.credits_per_answer === refund ? `${places} × ${q.credits_per_answer} credits` : `${refund} credits`;
  return `Refund: settled after ${settlement.answers} of ${q.n} answers; ${what} refunded`;
}

/** Result.settlement of a question its rule just stopped, for the question.completed event. */
function eventSettlement(q: Row, settled: StoredSettlement, refunded: number) {
  const draft = storedDraft(q.draft);
  const labels = answerLabels(draft);
  return settlementView({
    type: q.type as QuestionType, status: q.status, n: q.n, draft, stored: { ...settled, refundedCredits: refunded },
    labels, counts: countsOf(labels, q.tally), counted: q.answered - q.removed_answers,
  });
}

export function createLifecycleTransitions(deps: LifecycleTransitionsDeps) {
  const { db, clock, questions, holds, effects } = deps;
  /**
   * Follow-ups launched by closes whose transaction has not reported yet; drained after commit
   * (by `transition` here, or by `afterCommit` for closes run inside another service's
   * transaction, like the n-th answer) to start their close timers.
   */
  const launched = new Map<string, Date>();

  async function afterCommit(): Promise<void> {
    const due = [...launched.entries()];
    launched.clear();
    for (const [id, closesAt] of due) await effects.wentLive({ id, closesAt });
  }

  /**
   * Closes a locked question inside `tx`: status, refund of the unused hold, event, follow-ups.
   * The refund and the event are keyed by the question's total reservation, which grows with each
   * addition of heads: one refund per close, and a replayed close posts nothing (R3.5).
   * `settled`: the question's own stopping rule completed it (answers/answer-batch.ts); the ledger
   * line says so and the settlement is stored with what was refunded.
   */
  async function close(
    tx: Db, q: Row, status: ClosedStatus, at: Date, touched: Set<string>, extra: Updateable<QuestionsTable> = {}, settled: StoredSettlement | null = null,
  ): Promise<number> {
    // Lock order: question, then its follow-ups, then the balance. Locking the follow-ups after
    // the balance deadlocked with an answer to a follow-up (which locks it, then the balance).
    const children = await questions.children(q.id, tx);
    const refund = q.credits_reserved - q.credits_spent - q.credits_refunded;
    const title = settled ? settledRefundTitle(q, settled, refund) : `${REFUND_TITLE[status]} (${q.answered} of ${q.n} answered)`;
    const posted = await holds.refund({ accountId: q.account_id, lotQuestionId: q.parent_id ?? q.id, questionId: q.id, amount: refund, uniqueRef: `${q.id}:refund:r${q.credits_reserved}`, title, at }, tx);
    const refunded = posted ? refund : 0;
    const stored = settled ? { settlement: JSON.stringify({ ...settled, refundedCredits: refunded }) } : {};
    // The closed row comes back from the update itself: the event's Question, with no read after it.
    const closed = await questions.updateReturning(q.id, { status, closed_at: at, updated_at: at, credits_refunded: q.credits_refunded + refunded, ...stored, ...extra }, tx);
    // data: the Question as GET /v2/questions/{id} returns it after the close, and what this close
    // refunded; an early stop adds the Result's `settlement` (docs/webhooks.md).
    const settlement = settled ? { settlement: eventSettlement(closed, settled, refunded) } : {};
    await emitEvent(tx, {
      accountId: q.account_id,
      type: EVENT[status],
      uniqueRef: `${q.id}:${EVENT[status]}:r${q.credits_reserved}`,
      payload: { question: questionView(closed, deps.publicBaseUrl), refundCredits: refunded, ...settlement },
      at,
    });
    touched.add(q.id);
    await settleFollowUps(tx, q, children, status, at, touched);
    return refunded;
  }

  /**
   * Follow-ups wait (status `draft`) until their parent closes. They go live, to the heads who
   * answered the parent, when the parent completed or underfilled with at least their
   * `minConfidence`; otherwise they are cancelled and refunded.
   */
  async function settleFollowUps(tx: Db, parent: Row, locked: Row[], status: ClosedStatus, at: Date, touched: Set<string>): Promise<void> {
    // (Launched follow-ups get their close timer from the caller's after-commit step via `launched`.)
    const children = locked.filter((c) => c.status === 'draft');
    if (children.length === 0) return;
    // The answers the parent's result is about: those removed after review are out of the tally.
    const counted = parent.answered - parent.removed_answers;
    const confidence = leaderConfidence(Object.values(parent.tally), counted);
    for (const child of children) {
      const launch = (status === 'complete' || status === 'underfilled') && counted > 0 && meets(confidence, child.min_confidence as Confidence | null);
      if (launch) {
        const closesAt = addDays(at, child.open_for_days);
        await questions.update(child.id, { status: 'live', live_at: at, closes_at: closesAt, updated_at: at }, tx);
        touched.add(child.id);
        launched.set(child.id, closesAt);
      } else {
        await close(tx, child, 'cancelled', at, touched);
      }
    }
  }

  /** Locks question `id`, runs `work` on it in one transaction, then the after-commit steps. */
  async function transition<T>(id: string, work: (tx: Db, q: Row, at: Date, touched: Set<string>) => Promise<T>): Promise<T> {
    const touched = new Set<string>();
    const result = await inTransaction(db, async (tx) => {
      touched.clear(); // (a retried attempt starts afresh: db/transaction.ts)
      const q = await questions.lock(id, tx);
      if (!q) throw notFound('No such question.');
      return work(tx, q, clock.now(), touched);
    });
    for (const questionId of touched) effects.changed(questionId);
    await afterCommit();
    return result;
  }

  return { close, afterCommit, transition };
}
