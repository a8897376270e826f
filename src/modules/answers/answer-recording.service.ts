import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Clock } from '../../lib/clock.ts';
import { newAttestationRef, newId } from '../../lib/ids.ts';
import { notFound, validationError } from '../../lib/errors.ts';
import type { CreditHolds } from '../credits/credits.holds.ts';
import type { QuestionsRepository } from '../questions/questions.repository.ts';
import type { LifecycleService } from '../questions/lifecycle.service.ts';
import { readAnswer, storedAnswer, type AnswerInput } from '../draft/answer-format.ts';
import { storedDraft } from '../draft/stored-draft.ts';
import { answerSentiment } from '../text/sentiment.ts';
import type { HeadsRepository } from '../panel/heads.repository.ts';
import { reachOf, type Targeting } from '../panel/targeting.ts';
import type { AnswersRepository } from './answers.repository.ts';

/**
 * The one way an answer enters Headcount, whoever gives it (a head in the app, a simulated head,
 * a person through the answer link). In one transaction, with the question row locked so
 * concurrent answers queue up: the question must be live and not full, the head must not have
 * answered it, the answer must fit the type; then the answer is stored, its credits leave the
 * hold, the counts and tally move, and the n-th answer completes the question.
 */
export type AnswerState = 'live' | 'scheduled' | 'closed' | 'full';

export interface AnswerFrom {
  /** A panel head (null for an anonymous link answer). */
  headId: string | null;
  source: 'panel' | 'link' | 'simulator';
  /** Link answers count as tier 1 with no profile (ARCHITECTURE §4). */
  tier: number;
  country?: string | null;
  ageBand?: string | null;
  gender?: string | null;
  tags?: string[];
}

export interface RecordOutcome {
  accepted: boolean;
  state: AnswerState;
  /** Why an answer was not accepted, in words. */
  reason?: 'not_live' | 'full' | 'already_answered' | 'not_eligible';
  attestationRef?: string;
  completed?: boolean;
  /** The same nonce was recorded before: this is its outcome again. */
  replayed?: boolean;
  /**
   * With `withQuestion`: the question as this call left it (under its row lock), so a caller
   * can show its state without reading it again (the answer link, docs/answer-link.md).
   */
  question?: QuestionAfter;
}

/** What the recorder knows about the question once the answer is in (or refused). */
export interface QuestionAfter {
  status: string;
  answered: number;
  n: number;
  closes_at: Date | null;
}

export function createAnswerRecordingService(deps: {
  db: Db;
  clock: Clock;
  repo: AnswersRepository;
  heads: Pick<HeadsRepository, 'findTargeted'>;
  questions: QuestionsRepository;
  holds: CreditHolds;
  lifecycle: Pick<LifecycleService, 'close' | 'afterCommit'>;
  changed(questionId: string): void;
}) {
  const { db, clock, repo, heads, questions, holds } = deps;

  /**
   * Panel heads only: a follow-up goes to the heads who answered its parent, and variants of one
   * question go to disjoint heads (docs/asking.md).
   */
  async function eligible(tx: Db, q: { id: string; parent_id: string | null; variant_group: string | null }, headId: string): Promise<boolean> {
    if (q.parent_id && !(await repo.hasAnswered(q.parent_id, headId, tx))) return false;
    return !(await repo.answeredOtherVariant(headId, q.id, q.variant_group ?? q.id, tx));
  }

  /** The head, if it exists and the question's targeting and tier reach it (a follow-up: any head; see eligible). */
  function matchingHead(tx: Db, q: { parent_id: string | null; tier: number }, targeting: Targeting, headId: string) {
    return heads.findTargeted(headId, q.parent_id ? {} : targeting, q.parent_id ? null : q.tier, tx);
  }

  return {
    async record(
      questionId: string,
      from: AnswerFrom,
      answer: AnswerInput,
      extra: { dwellMs?: number; nonce?: string; locale?: string; interrupted?: boolean; withQuestion?: boolean } = {},
    ): Promise<RecordOutcome> {
      const touched = new Set<string>();
      let after: QuestionAfter | undefined;
      const outcome = await inTransaction(db, async (tx): Promise<RecordOutcome> => {
        touched.clear(); // (a retried attempt starts afresh: db/transaction.ts)
        const q = await questions.lock(questionId, tx);
        if (!q) throw notFound('No such question.');
        after = { status: q.status, answered: q.answered, n: q.n, closes_at: q.closes_at };
        // A retried page load (same nonce) gets its first outcome back; the question row lock
        // orders it after the first attempt, so it can never be recorded twice.
        if (extra.nonce) {
          const earlier = await repo.findByNonce(q.id, extra.nonce, tx);
          if (earlier) return { accepted: true, state: q.status === 'live' ? 'live' : q.answered >= q.n ? 'full' : 'closed', attestationRef: earlier.attestation_ref, replayed: true };
        }
        if (q.status === 'scheduled') return { accepted: false, state: 'scheduled', reason: 'not_live' };
        if (q.status !== 'live') return { accepted: false, state: q.answered >= q.n ? 'full' : 'closed', reason: 'not_live' };
        if (q.answered >= q.n) return { accepted: false, state: 'full', reason: 'full' };
        // Past its window a question takes no more answers, even before the expiry job runs.
        if (q.closes_at && q.closes_at <= clock.now()) return { accepted: false, state: 'closed', reason: 'not_live' };

        const draft = storedDraft(q.draft);
        const read = readAnswer(draft, answer);
        if (Array.isArray(read)) throw validationError(read);

        let profile = from;
        let grade: number | null = null;
        if (from.headId) {
          // A panel head's profile comes from the panel, not from the caller, and must match the
          // targeting, or be a member of the question's audience at its grade or above.
          const head = await matchingHead(tx, q, reachOf(draft.targeting, q), from.headId);
          if (!head || !(await eligible(tx, q, from.headId))) return { accepted: false, state: 'live', reason: 'not_eligible' };
          profile = { ...from, tier: head.tier, country: head.country, ageBand: head.age_band, gender: head.gender, tags: head.tags };
          grade = head.grade;
        }

        const at = clock.now();
        const attestationRef = newAttestationRef();
        const inserted = await repo.insert(
          {
            id: newId('answer'),
            question_id: q.id,
            head_id: from.headId,
            source: from.source,
            tier: profile.tier,
            country: profile.country ?? null,
            age_band: profile.ageBand ?? null,
            gender: profile.gender ?? null,
            tags: profile.tags ?? [],
            grade,
            answer: JSON.stringify(storedAnswer(answer, read)),
            option_label: read.optionLabel,
            text: read.text,
            reason: read.reason,
            credits: q.credits_per_answer,
            attestation_ref: attestationRef,
            dwell_ms: extra.dwellMs ?? null,
            nonce: extra.nonce ?? null,
            locale: extra.locale ?? null,
            interrupted: extra.interrupted ?? false,
            sentiment: answerSentiment(draft.language, read.text, read.reason),
            answered_at: at,
          },
          tx,
        );
        if (!inserted) return { accepted: false, state: 'live', reason: 'already_answered' };

        const tally = { ...q.tally };
        for (const key of read.tallyKeys) tally[key] = (tally[key] ?? 0) + 1;
        const answered = q.answered + 1;
        const spent = q.credits_spent + q.credits_per_answer;
        await questions.update(q.id, { answered, credits_spent: spent, tally: JSON.stringify(tally), updated_at: at }, tx);
        touched.add(q.id);

        // The n-th answer completes the question, as does reaching a minAnswers set by PATCH.
        // Close before touching the balance: lock order is question, follow-ups, balance
        // (lifecycle-transitions.ts), or a follow-up's own answer would deadlock with this one.
        const completes = answered >= q.n || (q.min_answers !== null && answered >= q.min_answers);
        if (completes) await deps.lifecycle.close(tx, { ...q, answered, credits_spent: spent, tally }, 'complete', at, touched);
        after = { ...after, answered, status: completes ? 'complete' : q.status };
        await holds.spend(q.account_id, q.credits_per_answer, at, tx);
        if (completes) return { accepted: true, state: answered >= q.n ? 'full' : 'closed', attestationRef, completed: true };
        return { accepted: true, state: 'live', attestationRef };
      });
      for (const id of touched) deps.changed(id);
      if (outcome.completed) await deps.lifecycle.afterCommit();
      return extra.withQuestion && after ? { ...outcome, question: after } : outcome;
    },
  };
}
export type AnswerRecordingService = ReturnType<typeof createAnswerRecordingService>;
