import type { Selectable } from 'kysely';
import type { QuestionsTable } from '../../db/schema.ts';
import type { Settled } from '../../lib/group-commit.ts';
import { newAttestationRef, newId } from '../../lib/ids.ts';
import { notFound, validationError } from '../../lib/errors.ts';
import { answerLabels, readAnswer, storedAnswer, type AnswerInput } from '../draft/answer-format.ts';
import type { QuestionType } from '../draft/question-types.ts';
import type { StopRule } from '../draft/stop-when.ts';
import { countsOf, metSettlement, readRule, ruleInForce } from '../settlement/settlement-rule.ts';
import type { StoredSettlement } from '../settlement/settlement.schemas.ts';
import { storedDraft, type StoredDraft } from '../draft/stored-draft.ts';
import { answerSentiment } from '../text/sentiment.ts';
import type { AnsweringHead, HeadsAnswering } from '../panel/heads.repository.ts';
import { reachOf, type Targeting } from '../panel/targeting.ts';
import type { NewAnswer } from './answers.repository.ts';

/**
 * What a batch of answers does, decided in memory from the rows its transaction read under the
 * questions' locks (answer-recording.service.ts): each answer in arrival order, exactly as if each
 * had had a transaction of its own after the ones before it. An answer sees the batch's earlier
 * answers: the question filling or completing, a nonce or a head used already, a variant answered.
 * Nothing here touches the database; the service writes the plan in a few statements.
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

export interface AnswerExtra {
  dwellMs?: number;
  nonce?: string;
  locale?: string;
  interrupted?: boolean;
  withQuestion?: boolean;
}

/** One call of `record`, waiting for its batch. */
export interface AnswerSubmission {
  questionId: string;
  from: AnswerFrom;
  answer: AnswerInput;
  extra: AnswerExtra;
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
   * With `withQuestion`: the question as this answer left it (under its row lock), so a caller
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

type QuestionRow = Selectable<QuestionsTable>;

/** A question as the batch has moved it so far. */
interface Moving {
  row: QuestionRow;
  draft: StoredDraft;
  status: string;
  answered: number;
  spent: number;
  tally: Record<string, number>;
  accepted: number;
  /** The stopping rule still waiting to be met (docs/early-stopping.md); null once met, or for types no rule judges. */
  watch: { rule: StopRule; asked: boolean; labels: string[] } | null;
  /** Set when this batch meets the rule. */
  settlement: StoredSettlement | null;
}

/**
 * The rule a question is watched under until it is first met: its own stopWhen, or else the
 * reference rule its result reports "would have settled at". Never again once met (questions.
 * settlement is set): heads added after an early stop run to the new n.
 */
function watchOf(row: QuestionRow, draft: StoredDraft): Moving['watch'] {
  if (row.settlement !== null) return null;
  const found = ruleInForce(row.type as QuestionType, row.n, draft.stopWhen, null);
  return found ? { ...found, labels: answerLabels(draft) } : null;
}

export interface BatchPlan {
  /** Per submission, in their order. */
  outcomes: Array<Settled<RecordOutcome>>;
  /** The answers to store, in arrival order (their `seq` follows it). */
  answers: NewAnswer[];
  /** The questions whose counts moved, with their new counts (and a settlement when a rule was met). */
  counts: Array<{ id: string; answered: number; creditsSpent: number; tally: Record<string, number>; settlement: StoredSettlement | null }>;
  /** Questions the batch completed (the n-th answer, or a minAnswers reached), as the close needs them, in id order. */
  closes: QuestionRow[];
  /** Credits leaving each account's hold. */
  spends: Map<string, number>;
  /** The questions of `closes` their own stopping rule completed, with the settlement to store. */
  stopped: Map<string, StoredSettlement>;
}

const key = (a: string, b: string) => `${a}\u0000${b}`;

/**
 * Whom a question's answers may come from: its targeting, tier and audience, or for a follow-up
 * any head who answered its parent. All of it is set when the question is asked and never
 * changes, so the recorder keeps it across batches (answer-recording.service.ts).
 */
export interface QuestionReach {
  targeting: Targeting;
  tier: number | null;
}

export function reachOfQuestion(q: QuestionRow): QuestionReach {
  return q.parent_id ? { targeting: {}, tier: null } : { targeting: reachOf(storedDraft(q.draft).targeting, q), tier: q.tier };
}

/**
 * The panel heads the batch must check, per question (one statement, heads.repository.ts
 * answeringHeads), for the questions `reach` knows: a follow-up goes to the heads who answered
 * its parent, whatever their profile; other questions to the heads their targeting, tier or
 * audience reaches.
 */
export function headsToCheck(submissions: readonly AnswerSubmission[], reach: (questionId: string) => QuestionReach | undefined): HeadsAnswering[] {
  const byQuestion = new Map<string, HeadsAnswering>();
  for (const s of submissions) {
    if (!s.from.headId) continue;
    let ask = byQuestion.get(s.questionId);
    if (!ask) {
      const known = reach(s.questionId);
      if (!known) continue;
      ask = { questionId: s.questionId, targeting: known.targeting, tier: known.tier, headIds: [] };
      byQuestion.set(s.questionId, ask);
    }
    ask.headIds.push(s.from.headId);
  }
  return [...byQuestion.values()];
}

export function planBatch(
  submissions: readonly AnswerSubmission[],
  found: {
    questions: ReadonlyMap<string, QuestionRow>;
    /** Answers stored earlier with the batch's nonces (answers.repository.ts findByNonces). */
    earlierNonces: ReadonlyArray<{ question_id: string; nonce: string; attestation_ref: string }>;
    heads: readonly AnsweringHead[];
  },
  at: Date,
): BatchPlan {
  const moving = new Map<string, Moving>();
  const heads = new Map(found.heads.map((h) => [key(h.question_id, h.id), h]));
  const nonces = new Map(found.earlierNonces.map((a) => [key(a.question_id, a.nonce.toLowerCase()), a.attestation_ref]));
  /** Heads that answered in this batch: by question, and by variant group. */
  const answeredHere = new Set<string>();
  const groupsHere = new Set<string>();
  const plan: BatchPlan = { outcomes: [], answers: [], counts: [], closes: [], spends: new Map(), stopped: new Map() };

  for (const s of submissions) {
    const row = found.questions.get(s.questionId);
    if (!row) {
      plan.outcomes.push({ ok: false, error: notFound('No such question.') });
      continue;
    }
    let q = moving.get(row.id);
    if (!q) {
      const draft = storedDraft(row.draft);
      q = { row, draft, status: row.status, answered: row.answered, spent: row.credits_spent, tally: { ...row.tally }, accepted: 0, watch: watchOf(row, draft), settlement: null };
      moving.set(row.id, q);
    }
    const outcome = decide(q, s);
    if ('error' in outcome) {
      plan.outcomes.push({ ok: false, error: outcome.error });
      continue;
    }
    const after: QuestionAfter = { status: q.status, answered: q.answered, n: row.n, closes_at: row.closes_at };
    plan.outcomes.push({ ok: true, value: s.extra.withQuestion ? { ...outcome, question: after } : outcome });
  }

  for (const q of moving.values()) {
    if (q.accepted === 0) continue;
    plan.counts.push({ id: q.row.id, answered: q.answered, creditsSpent: q.spent, tally: q.tally, settlement: q.settlement });
    plan.spends.set(q.row.account_id, (plan.spends.get(q.row.account_id) ?? 0) + q.accepted * q.row.credits_per_answer);
    if (q.status === 'complete') {
      plan.closes.push({ ...q.row, answered: q.answered, credits_spent: q.spent, tally: q.tally, settlement: q.settlement ?? q.row.settlement });
      if (q.settlement?.stopped) plan.stopped.set(q.row.id, q.settlement);
    }
  }
  plan.closes.sort((a, b) => (a.id < b.id ? -1 : 1));
  return plan;

  /**
   * Reads the watched rule on the question's tally (answers removed after review are out of it) and
   * records the settlement when it is met. Returns true when the question stops here: its own rule,
   * met before its n-th answer. O(K) (docs/early-stopping.md).
   */
  function watchMet(q: Moving, at: Date): boolean {
    const watch = q.watch!;
    const counted = q.answered - q.row.removed_answers;
    if (counted < watch.rule.floor) return false;
    const type = q.row.type as QuestionType;
    const reading = readRule(watch.rule, type, watch.labels, countsOf(watch.labels, q.tally), counted);
    if (!reading.met) return false;
    const stops = watch.asked && q.answered < q.row.n;
    q.settlement = metSettlement({ rule: watch.rule, asked: watch.asked, reading, answers: counted, at, nRequested: q.row.n, stopped: stops });
    q.watch = null;
    if (stops) q.status = 'complete';
    return stops;
  }

  /** One answer against its question as the batch has left it: the rules of docs/lifecycle.md and docs/answer-link.md. */
  function decide(q: Moving, s: AnswerSubmission): RecordOutcome | { error: unknown } {
    const { row } = q;
    // A retried page load (same nonce) gets its first outcome back: it is never recorded twice.
    const nonceKey = s.extra.nonce ? key(row.id, s.extra.nonce.toLowerCase()) : null;
    const earlier = nonceKey ? nonces.get(nonceKey) : undefined;
    if (earlier) return { accepted: true, state: q.status === 'live' ? 'live' : q.answered >= row.n ? 'full' : 'closed', attestationRef: earlier, replayed: true };
    if (q.status === 'scheduled') return { accepted: false, state: 'scheduled', reason: 'not_live' };
    if (q.status !== 'live') return { accepted: false, state: q.answered >= row.n ? 'full' : 'closed', reason: 'not_live' };
    if (q.answered >= row.n) return { accepted: false, state: 'full', reason: 'full' };
    // Past its window a question takes no more answers, even before the expiry job runs.
    if (row.closes_at && row.closes_at <= at) return { accepted: false, state: 'closed', reason: 'not_live' };

    const read = readAnswer(q.draft, s.answer);
    if (Array.isArray(read)) return { error: validationError(read) };

    let profile = s.from;
    let grade: number | null = null;
    const headId = s.from.headId;
    const group = row.variant_group ?? row.id;
    if (headId) {
      // A panel head's profile comes from the panel, not from the caller, and must match the
      // targeting, or be a member of the question's audience at its grade or above.
      const head = heads.get(key(row.id, headId));
      const answeredParent = row.parent_id === null || head?.answered_parent || answeredHere.has(key(row.parent_id, headId));
      const otherVariant = head?.answered_other_variant || (groupsHere.has(key(group, headId)) && !answeredHere.has(key(row.id, headId)));
      if (!head || !answeredParent || otherVariant) return { accepted: false, state: 'live', reason: 'not_eligible' };
      if (head.answered || answeredHere.has(key(row.id, headId))) return { accepted: false, state: 'live', reason: 'already_answered' };
      profile = { ...s.from, tier: head.tier, country: head.country, ageBand: head.age_band, gender: head.gender, tags: head.tags };
      grade = head.grade;
      answeredHere.add(key(row.id, headId));
      groupsHere.add(key(group, headId));
    }

    const attestationRef = newAttestationRef();
    plan.answers.push({
      id: newId('answer'),
      question_id: row.id,
      head_id: headId,
      source: s.from.source,
      tier: profile.tier,
      country: profile.country ?? null,
      age_band: profile.ageBand ?? null,
      gender: profile.gender ?? null,
      tags: profile.tags ?? [],
      grade,
      answer: JSON.stringify(storedAnswer(s.answer, read)),
      option_label: read.optionLabel,
      text: read.text,
      reason: read.reason,
      credits: row.credits_per_answer,
      attestation_ref: attestationRef,
      dwell_ms: s.extra.dwellMs ?? null,
      nonce: s.extra.nonce ?? null,
      locale: s.extra.locale ?? null,
      interrupted: s.extra.interrupted ?? false,
      sentiment: answerSentiment(q.draft.language, read.text, read.reason),
      answered_at: at,
    });
    if (nonceKey) nonces.set(nonceKey, attestationRef);

    for (const tallyKey of read.tallyKeys) q.tally[tallyKey] = (q.tally[tallyKey] ?? 0) + 1;
    q.answered += 1;
    q.spent += row.credits_per_answer;
    q.accepted += 1;
    // The stopping rule, after every accepted answer in the order they were accepted: met before
    // the n-th answer, the question's own rule completes it (the close refunds the rest).
    if (q.watch && watchMet(q, at)) {
      return { accepted: true, state: 'closed', attestationRef, completed: true };
    }
    // The n-th answer completes the question, as does reaching a minAnswers set by PATCH.
    if (q.answered >= row.n || (row.min_answers !== null && q.answered >= row.min_answers)) {
      q.status = 'complete';
      return { accepted: true, state: q.answered >= row.n ? 'full' : 'closed', attestationRef, completed: true };
    }
    return { accepted: true, state: 'live', attestationRef };
  }
}
