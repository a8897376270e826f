import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { Actor } from '../../lib/actor.ts';
import type { CreditHolds } from '../credits/credits.holds.ts';
import type { QuestionsRepository } from './questions.repository.ts';
import { questionView } from './question-view.ts';
import type { Question } from './questions.schemas.ts';
import { addDays } from '../../lib/dates.ts';
import { createLifecycleTransitions, type LifecycleEffects } from './lifecycle-transitions.ts';

export type { ClosedStatus, LifecycleEffects } from './lifecycle-transitions.ts';

/** Still open: live, scheduled, or a follow-up waiting for its parent (`draft`). */
export function isOpen(status: string): boolean {
  return status === 'live' || status === 'scheduled' || status === 'draft';
}

/**
 * The state machine of a question (docs/lifecycle.md). Every transition locks the question row,
 * changes it, refunds what is left of its hold once (a `refund` row keyed by question and target),
 * and writes its event to the outbox, all in one transaction.
 * The locking, closing and after-commit steps they share are in lifecycle-transitions.ts.
 */
export function createLifecycleService(deps: { db: Db; clock: Clock; questions: QuestionsRepository; holds: CreditHolds; effects: LifecycleEffects; publicBaseUrl: string }) {
  const { clock, questions, effects } = deps;
  const { close, afterCommit, transition } = createLifecycleTransitions(deps);

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
