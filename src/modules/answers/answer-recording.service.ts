import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { inOneRoundTrip, rowsOf } from '../../db/one-round-trip.ts';
import type { Clock } from '../../lib/clock.ts';
import { isDatabaseUnavailable, TransactionConflictError } from '../../lib/database-errors.ts';
import { createGroupCommit, type Settled } from '../../lib/group-commit.ts';
import type { CreditHolds } from '../credits/credits.holds.ts';
import type { QuestionsRepository } from '../questions/questions.repository.ts';
import type { LifecycleService } from '../questions/lifecycle.service.ts';
import type { AnswerInput } from '../draft/answer-format.ts';
import type { HeadsRepository } from '../panel/heads.repository.ts';
import type { AnswersRepository } from './answers.repository.ts';
import { NO_COUNTERS, type ServiceCounters } from '../../lib/service-counters.ts';
import { headsToCheck, planBatch, reachOfQuestion, type QuestionReach, type AnswerExtra, type AnswerFrom, type AnswerSubmission, type RecordOutcome } from './answer-batch.ts';

export type { AnswerFrom, AnswerState, QuestionAfter, RecordOutcome } from './answer-batch.ts';

/**
 * The most answers in one transaction. Bigger batches gain little once a batch's fixed cost
 * (its ~5 statements) is shared by tens of answers, and a batch holds its questions' row locks
 * while it is written.
 */
const MAX_BATCH = 64;

/**
 * The one way an answer enters Headcount, whoever gives it (a head in the app, a simulated head,
 * a person through the answer link). Answers arriving together are written together, by group
 * commit (lib/group-commit.ts): one transaction per batch, each caller answered after its
 * batch commits. In the transaction, with the batch's question rows locked in id order so
 * concurrent answers queue up: each question must be live and not full, each head must not have
 * answered it, each answer must fit the type, in arrival order (answer-batch.ts); then the
 * answers are stored, the counts and tallies move, the n-th answer completes its question, and the
 * answers' credits leave their holds. The round trips per batch, whatever its size: lock the
 * questions, with BEGIN (db/pipelined-begin.ts), the nonces seen before (link answers) and the
 * panel heads' checks (db/one-round-trip.ts; readUnderLocks); the insert, carrying the counts
 * and the holds' spends, with COMMIT. A batch that completes a question writes its spends after
 * the close instead (lock order, below), and commits after them.
 *
 * Lock order (docs/credits.md): the questions, with the first question of each variant group
 * among them (the lock of the one-answer-per-group rule), in id order; for each question
 * completed, its follow-ups and its account's balance (the close's refund); then the balances the
 * answers spend from, in account order.
 *
 * An answer refused by a rule (full, closed, not eligible, not valid) is answered alone while the
 * rest of its batch is written. A batch whose statements fail is written again one answer per
 * transaction, so an answer that makes SQL fail fails alone.
 */
export function createAnswerRecordingService(deps: {
  db: Db;
  clock: Clock;
  repo: AnswersRepository;
  heads: Pick<HeadsRepository, 'answeringHeads'>;
  questions: QuestionsRepository;
  holds: CreditHolds;
  lifecycle: Pick<LifecycleService, 'close' | 'afterCommit'>;
  changed(questionId: string): void;
  /** Operators' counters (docs/operations.md "Metrics"); default: none. */
  counters?: Pick<ServiceCounters, 'answered'>;
}) {
  const { db, clock, repo, heads, questions, holds, lifecycle } = deps;
  const counters = deps.counters ?? NO_COUNTERS;

  /** Counts a committed batch's stored answers by source (a replayed nonce stored nothing new). */
  function count(submissions: readonly AnswerSubmission[], outcomes: ReadonlyArray<Settled<RecordOutcome>>): void {
    const bySource = new Map<string, number>();
    outcomes.forEach((outcome, i) => {
      if (!outcome.ok || !outcome.value.accepted || outcome.value.replayed) return;
      const source = submissions[i].from.source;
      bySource.set(source, (bySource.get(source) ?? 0) + 1);
    });
    for (const [source, answers] of bySource) counters.answered(source, answers);
  }

  /**
   * The questions' reach (answer-batch.ts QuestionReach: fixed at the ask), kept from the batches
   * that locked them, so the heads' checks of a question answered before go out with its lock.
   * Bounded: the oldest entry makes room (a question it forgets costs one round trip once more).
   */
  const reaches = new Map<string, QuestionReach>();
  const MAX_REACHES = 10_000;
  function remember(id: string, reach: QuestionReach): void {
    reaches.delete(id);
    if (reaches.size >= MAX_REACHES) reaches.delete(reaches.keys().next().value!);
    reaches.set(id, reach);
  }

  /**
   * What the plan reads under the questions' locks, in one round trip with the locks (db/
   * one-round-trip.ts; run in this order, each read comes after the locks are held): the nonces
   * seen before (link answers) and the heads' checks of the questions whose reach is known. The
   * heads of a question answered for the first time since this process started are checked in
   * a second round trip, once its row tells its reach; so are those of a question whose row
   * turns out to reach otherwise than remembered (never expected: nothing changes a reach).
   */
  async function readUnderLocks(tx: Db, submissions: readonly AnswerSubmission[]) {
    const noncePairs = submissions.flatMap((s) => (s.extra.nonce ? [{ questionId: s.questionId, nonce: s.extra.nonce }] : []));
    const sent = headsToCheck(submissions, (id) => reaches.get(id));
    const [locked, earlierNonces, sentHeads] = await inOneRoundTrip(tx, [
      questions.lockForAnswers([...new Set(submissions.map((s) => s.questionId))]),
      noncePairs.length > 0 ? repo.findByNonces(noncePairs) : null,
      sent.length > 0 ? heads.answeringHeads(sent) : null,
    ]);
    const byId = new Map(locked.map((q) => [q.id, q]));
    const needed = headsToCheck(submissions, (id) => {
      const q = byId.get(id);
      if (q?.status !== 'live') return undefined;
      const reach = reachOfQuestion(q);
      remember(id, reach);
      return reach;
    });
    const sentFor = new Map(sent.map((check) => [check.questionId, check]));
    const rest = needed.filter((check) => {
      const asked = sentFor.get(check.questionId);
      return !asked || asked.tier !== check.tier || JSON.stringify(asked.targeting) !== JSON.stringify(check.targeting);
    });
    if (rest.length === 0) return { byId, earlierNonces, heads: sentHeads };
    const again = new Set(rest.map((check) => check.questionId));
    const restHeads = await rowsOf(tx, heads.answeringHeads(rest));
    return { byId, earlierNonces, heads: [...sentHeads.filter((h) => !again.has(h.question_id)), ...restHeads] };
  }

  /** The batch's work inside its transaction; `touched` collects the questions to announce after commit. */
  async function writeInTransaction(tx: Db, submissions: readonly AnswerSubmission[], touched: Set<string>): Promise<Array<Settled<RecordOutcome>>> {
    const { byId, earlierNonces, heads: answering } = await readUnderLocks(tx, submissions);
    const at = clock.now();
    const plan = planBatch(submissions, { questions: byId, earlierNonces, heads: answering }, at);
    // The counts, and the spends when no question closes, ride in the insert's statement: one
    // round trip where there were three or four (the questions are locked already; the balances
    // come last in the lock order, and the insert takes no lock of it).
    const counts = questions.answerCountsRider(plan.counts, at);
    const spends = plan.closes.length === 0 ? holds.spendRider(plan.spends, at) : null;
    // With no question to close, the insert is the batch's last statement and leaves with the
    // COMMIT (one round trip fewer): nothing below writes or throws then. It stores every row or
    // fails (answers.repository.ts insertMany), so nothing needs checking after it.
    await repo.insertMany(plan.answers, tx, spends ? [counts, spends] : [counts], { commit: spends !== null });
    if (!counts.carried) await questions.setAnswerCounts(plan.counts, at, tx);
    for (const counted of plan.counts) touched.add(counted.id);
    // Close before touching the balances: lock order is question, follow-ups, balance
    // (lifecycle-transitions.ts), or a follow-up's own answer would deadlock with this batch.
    // A question its own stopping rule completed closes with its settlement (the refund's ledger line says so).
    for (const q of plan.closes) await lifecycle.close(tx, q, 'complete', at, touched, {}, plan.stopped.get(q.id) ?? null);
    if (!spends?.carried) await holds.spend(plan.spends, at, tx);
    return plan.outcomes;
  }

  async function writeBatch(submissions: AnswerSubmission[]): Promise<Array<Settled<RecordOutcome>>> {
    const touched = new Set<string>();
    const outcomes = await inTransaction(db, (tx) => {
      touched.clear(); // (a retried attempt starts afresh: db/transaction.ts)
      return writeInTransaction(tx, submissions, touched);
    });
    // Committed: from here nothing may throw, or the group commit would write the batch again.
    for (const id of touched) deps.changed(id);
    count(submissions, outcomes);
    const completing = outcomes.some((o) => o.ok && o.value.completed);
    if (!completing) return outcomes;
    try {
      await lifecycle.afterCommit();
      return outcomes;
    } catch (error) {
      // The answers are stored; the callers whose answer completed a question hear that its
      // follow-ups' timers could not be started (the lifecycle sweep starts them later).
      return outcomes.map((o) => (o.ok && o.value.completed ? { ok: false, error } : o));
    }
  }

  const batches = createGroupCommit<AnswerSubmission, RecordOutcome>({
    maxBatch: MAX_BATCH,
    write: writeBatch,
    // The database is down, or concurrent work aborted the batch at every attempt: one by one would fail too.
    failsAll: (error) => isDatabaseUnavailable(error) || error instanceof TransactionConflictError,
  });

  return {
    /** Records one answer; resolves once the batch it joined has committed. */
    record(questionId: string, from: AnswerFrom, answer: AnswerInput, extra: AnswerExtra = {}): Promise<RecordOutcome> {
      return batches.submit({ questionId, from, answer, extra });
    },
  };
}
export type AnswerRecordingService = ReturnType<typeof createAnswerRecordingService>;
