import { leaderRule, meanIntervalFromCounts, shareMarginRule } from '../../lib/early-stopping/index.ts';
import type { QuestionType } from '../draft/question-types.ts';
import { referenceRuleOf, stopRuleOf, type StopRule, type StopWhen } from '../draft/stop-when.ts';
import type { StoredSettlement } from './settlement.schemas.ts';

/**
 * A stopping rule read on a question's counts (issue 17 point 3; docs/early-stopping.md). The three
 * rules depend on the counts alone, not on the order of the answers, so the engine evaluates them
 * from the question's tally after each accepted answer (answers/answer-batch.ts), O(K), with no
 * state of its own; the result and the review of removals read them the same way.
 */
export interface RuleReading {
  /** The rule is met and the floor reached. */
  met: boolean;
  /** The option in front (null for a mean, or with a tie for first). */
  leader: string | null;
  /**
   * leader (ppr_1v1): the evidence ratio against the closest rival (1: nothing learned; capped at
   * 1e300); margin of shares: the lead proven so far, in percentage points (negative while the race
   * is open; null with a tie for first); margin of a mean: the half-width of its interval, in stars.
   */
  evidence: number | null;
  /** What `evidence` must reach: (K − 1)/α; `points`; or, for a mean, at most `points`. */
  threshold: number;
  /** margin of a mean: the anytime-valid interval. */
  interval?: { lower: number; upper: number };
}

const EVIDENCE_CAP = 1e300;
const round = (x: number, digits: number) => Number(x.toFixed(digits));

/**
 * Reads `rule` on `counts` (one per label, in the question's label order) after `counted` answers
 * (answers not removed). `multi` (multiple choice): each answer may tick several options, so each
 * share is out of `counted`, not out of the sum of the counts.
 */
export function readRule(rule: StopRule, type: QuestionType, labels: readonly string[], counts: readonly number[], counted: number): RuleReading {
  const floorReached = counted >= rule.floor && counted > 0;
  if (rule.method === 'ppr_1v1') {
    const r = leaderRule(counts, rule.alpha);
    return {
      met: floorReached && r.settled,
      leader: r.leader === null ? null : labels[r.leader],
      evidence: r.logEvidence >= Math.log(EVIDENCE_CAP) ? EVIDENCE_CAP : round(Math.exp(r.logEvidence), 6),
      threshold: round(r.threshold, 6),
    };
  }
  if (rule.method === 'beta_binomial_mixture') {
    const total = type === 'multi_choice' ? counted : undefined;
    const r = shareMarginRule(counts, rule.points, rule.alpha, undefined, total);
    return {
      met: floorReached && r.settled,
      leader: r.leader === null ? null : labels[r.leader],
      evidence: Number.isNaN(r.provenMargin) ? null : round(r.provenMargin * 100, 2),
      threshold: rule.points,
    };
  }
  const interval = meanIntervalFromCounts(labels.map(Number), counts, rule.alpha);
  const halfWidth = (interval.upper - interval.lower) / 2;
  return {
    met: floorReached && halfWidth <= rule.points,
    leader: null,
    evidence: round(halfWidth, 4),
    threshold: rule.points,
    interval: { lower: round(interval.lower, 4), upper: round(interval.upper, 4) },
  };
}

/** The counts of a tally in label order (labels never answered count 0). */
export function countsOf(labels: readonly string[], tally: Readonly<Record<string, number>>): number[] {
  return labels.map((label) => tally[label] ?? 0);
}

/**
 * The first point of an answer sequence at which the rule is met: replays the answers' tally keys
 * in the order they were accepted (removals after review re-evaluate the cleaned sequence this way).
 * Returns that point's answer count and reading, or null when the rule is never met.
 */
export function firstMet(
  rule: StopRule,
  type: QuestionType,
  labels: readonly string[],
  sequence: ReadonlyArray<readonly string[]>,
): { answers: number; reading: RuleReading } | null {
  const index = new Map(labels.map((label, i) => [label, i]));
  const counts = labels.map(() => 0);
  for (let i = 0; i < sequence.length; i++) {
    for (const key of sequence[i]) {
      const at = index.get(key);
      if (at !== undefined) counts[at] += 1;
    }
    const answers = i + 1;
    if (answers < rule.floor) continue;
    const reading = readRule(rule, type, labels, counts, answers);
    if (reading.met) return { answers, reading };
  }
  return null;
}

/** What questions.settlement stores when `rule` is first met (the close adds the refund). */
export function metSettlement(input: {
  rule: StopRule;
  asked: boolean;
  reading: RuleReading;
  answers: number;
  at: Date;
  nRequested: number;
  stopped: boolean;
}): StoredSettlement {
  const { rule, reading } = input;
  return {
    asked: input.asked,
    rule: rule.rule,
    method: rule.method,
    confidence: rule.confidence,
    alpha: rule.alpha,
    points: rule.points,
    floor: rule.floor,
    answers: input.answers,
    at: input.at.toISOString(),
    nRequested: input.nRequested,
    leader: reading.leader,
    evidence: reading.evidence,
    threshold: reading.threshold,
    ...(reading.interval ? { interval: reading.interval } : {}),
    stopped: input.stopped,
    refundedCredits: 0,
    withdrawn: null,
  };
}

/** The rule a stored settlement was read under. */
function ruleOfSettlement(stored: StoredSettlement): StopRule {
  const { rule, method, confidence, alpha, points, floor } = stored;
  return { rule, method, confidence, alpha, points, floor };
}

/**
 * The rule a question is read under, and whether it was asked for: the one its settlement was met
 * under; else its own stopWhen; else the reference rule its result reports "would have settled at".
 * Null for types no rule judges.
 */
export function ruleInForce(type: QuestionType, n: number, stopWhen: StopWhen | undefined, stored: StoredSettlement | null): { rule: StopRule; asked: boolean } | null {
  if (stored) return { rule: ruleOfSettlement(stored), asked: stored.asked };
  const own = stopRuleOf(type, n, stopWhen);
  const rule = own ?? referenceRuleOf(type, n);
  return rule ? { rule, asked: own !== null } : null;
}
