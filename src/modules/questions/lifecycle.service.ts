import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { QuestionsTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { Actor } from '../../lib/actor.ts';
import type { CreditHolds } from '../credits/credits.holds.ts';
import { emitEvent } from '../events/outbox.ts';
import type { EventName } from '../events/webhooks.schemas.ts';
import { leaderConfidence, meets, type Confidence } from '../draft/confidence.ts';
import type { QuestionsRepository } from './questions.repository.ts';
import { questionView } from './question-view.ts';
import type { Question } from './questions.schemas.ts';
import { addDays } from '../../lib/dates.ts';

/**
 * The state machine of a question (docs/lifecycle.md). Every transition locks the question row,
 * changes it, refunds what is left of its hold once (a `refund` row keyed by question and target),
 * and writes its event to the outbox, all in one transaction.
 */
type Row = Selectable<QuestionsTable>;
export type ClosedStatus = 'complete' | 'underfilled' | 'cancelled' | 'refused';

export interface LifecycleEffects {
  /** After commit: wake waiters of this question. */
  changed(questionId: string): void;
  /** After commit: a question went live (timers for its close). */
  wentLive(question: { id: string; closesAt: Date | null }): Promise<void>;
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

export function isOpen(status: string): boolean {
  return status === 'live' || status === 'scheduled' || status === 'draft';
}

export function createLifecycleService(deps: { db: Db; clock: Clock; questions: QuestionsRepository; holds: CreditHolds; effects: LifecycleEffects; publicBaseUrl: string }) {
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
   */
  async function close(tx: Db, q: Row, status: ClosedStatus, at: Date, touched: Set<string>, extra: Updateable<QuestionsTable> = {}): Promise<number> {
    // Lock order: question, then its follow-ups, then the balance. Locking the follow-ups after
    // the balance deadlocked with an answer to a follow-up (which locks it, then the balance).
    const children = await questions.children(q.id, tx);
    const refund = q.credits_reserved - q.credits_spent - q.credits_refunded;
    const title = `${REFUND_TITLE[status]} (${q.answered} of ${q.n} answered)`;
    const posted = await holds.refund({ accountId: q.account_id, lotQuestionId: q.parent_id ?? q.id, questionId: q.id, amount: refund, uniqueRef: `${q.id}:refund:r${q.credits_reserved}`, title, at }, tx);
    const refunded = posted ? refund : 0;
    await questions.update(q.id, { status, closed_at: at, updated_at: at, credits_refunded: q.credits_refunded + refunded, ...extra }, tx);
    await emitEvent(tx, {
      accountId: q.account_id,
      type: EVENT[status],
      uniqueRef: `${q.id}:${EVENT[status]}:r${q.credits_reserved}`,
      payload: { questionId: q.id, status, answered: q.answered, n: q.n, creditsSpent: q.credits_spent, refundCredits: refunded },
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

  async function view(accountId: string, id: string): Promise<Question> {
    return questionView((await questions.find(accountId, id))!, deps.publicBaseUrl);
  }

  return {
    close,
    afterCommit,

    /**
     * POST /cancel: a live question (spec), and as an extension one that holds credits while it
     * waits: scheduled, or a follow-up waiting for its parent (`draft`), so that no state holds
     * credits only an operator could release. Returns what was refunded.
     */
    async cancel(actor: Actor, id: string): Promise<{ question: Question; refundCredits: number }> {
      if (!(await questions.find(actor.accountId, id))) throw notFound('No such question on this account.');
      const refundCredits = await transition(id, async (tx, q, at, touched) => {
        if (!isOpen(q.status)) throw new AppError('conflict', `Only a live, scheduled or waiting question can be cancelled; this one is ${q.status}.`, { status: q.status });
        return close(tx, q, 'cancelled', at, touched);
      });
      return { question: await view(actor.accountId, id), refundCredits };
    },

    /**
     * Closes a live question early once at least `minAnswers` heads answered (PATCH and wait).
     * Returns true when it closed (or was already closed).
     */
    async closeEarly(accountId: string, id: string, minAnswers: number): Promise<boolean> {
      return transition(id, async (tx, q, at, touched) => {
        if (q.account_id !== accountId) throw notFound('No such question on this account.');
        if (q.status !== 'live') return !isOpen(q.status);
        if (q.answered < minAnswers) return false;
        await close(tx, q, 'complete', at, touched);
        return true;
      });
    },

    /** Admin review: refused with a category, full refund of what is left. */
    async refuse(id: string, category: string): Promise<Question> {
      const q = await questions.findAny(id);
      if (!q) throw notFound('No such question.');
      await transition(id, async (tx, row, at, touched) => {
        if (!isOpen(row.status)) throw new AppError('conflict', `This question is already ${row.status}.`, { status: row.status });
        await close(tx, row, 'refused', at, touched, { refused_category: category });
      });
      return view(q.account_id, id);
    },

    /** A scheduled question whose time has come goes live. */
    async goLive(id: string): Promise<boolean> {
      let closesAt: Date | null = null;
      const went = await transition(id, async (tx, q, at, touched) => {
        if (q.status !== 'scheduled' || !q.scheduled_for || q.scheduled_for > at) return false;
        closesAt = addDays(at, q.open_for_days);
        await questions.update(q.id, { status: 'live', live_at: at, closes_at: closesAt, updated_at: at }, tx);
        touched.add(q.id);
        return true;
      });
      if (went) await effects.wentLive({ id, closesAt });
      return went;
    },

    /** A live question whose window has run out closes as underfilled. */
    async expire(id: string): Promise<boolean> {
      return transition(id, async (tx, q, at, touched) => {
        if (q.status !== 'live' || !q.closes_at || q.closes_at > at) return false;
        await close(tx, q, q.answered >= q.n ? 'complete' : 'underfilled', at, touched);
        return true;
      });
    },

    /** The safety net behind the timers: every due transition, whatever was missed. */
    async sweep(): Promise<number> {
      let done = 0;
      for (const due of await questions.due(clock.now(), 500)) {
        if (due.status === 'scheduled' ? await this.goLive(due.id) : await this.expire(due.id)) done++;
      }
      return done;
    },
  };
}
export type LifecycleService = ReturnType<typeof createLifecycleService>;
