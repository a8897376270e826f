import { anytimeWidthRatio, shareConfidenceInterval } from '../../lib/early-stopping/index.ts';
import type { QuestionType } from '../draft/question-types.ts';
import type { StoredDraft } from '../draft/stored-draft.ts';
import type { StopRule } from '../draft/stop-when.ts';
import { readRule, ruleInForce } from './settlement-rule.ts';
import type { Settlement, StoredSettlement } from './settlement.schemas.ts';

/**
 * Result.settlement (issue 17 point 4; docs/early-stopping.md): the question's stopping rule (or,
 * asked without one, the reference rule), where it was met (or would have been), the evidence, the
 * refund, and a sentence that says it in plain words. Pure: the result builder passes the counts of
 * the unfiltered view (answers not removed), in label order.
 */
export interface SettlementInput {
  type: QuestionType;
  status: string;
  n: number;
  draft: StoredDraft;
  stored: StoredSettlement | null;
  labels: readonly string[];
  counts: readonly number[];
  counted: number;
}

const RULE_WORDS: Record<StopRule['method'], string> = {
  ppr_1v1: 'the leader rule',
  beta_binomial_mixture: 'the margin rule',
  betting_dkelly: 'the margin rule',
};

const percent = (confidence: number) => `${Number((confidence * 100).toFixed(1))}%`;
const number = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 2 });

export function settlementView(input: SettlementInput): Settlement | null {
  const { type, stored } = input;
  const found = ruleInForce(type, input.n, input.draft.stopWhen, stored);
  if (!found) return null;
  const { rule, asked } = found;
  // Met: as it was then. Not met: the rule read on the counts now.
  const reading = stored ?? readRule(rule, type, input.labels, input.counts, input.counted);
  const stopped = stored?.stopped ?? false;
  return {
    rule: rule.rule,
    method: rule.method,
    asked,
    confidence: rule.confidence,
    alpha: rule.alpha,
    points: rule.rule === 'margin' ? rule.points : null,
    floor: rule.floor,
    stopped,
    settledAt: stored ? stored.answers : null,
    settledAtTime: stored ? stored.at : null,
    nRequested: stored ? stored.nRequested : input.n,
    leader: reading.leader,
    evidence: reading.evidence,
    threshold: reading.threshold,
    ...(reading.interval ? { interval: reading.interval } : {}),
    refundedCredits: stored?.refundedCredits ?? 0,
    withdrawn: stored?.withdrawn != null,
    intervals: stopped ? 'anytime_valid' : 'wilson',
    note: noteOf(rule, asked, input, stored),
  };
}

/** What the rule claims, for a sentence: "Penny is the favourite", "…leads by at least 10 points". */
function claimOf(rule: StopRule, s: Pick<StoredSettlement, 'leader' | 'evidence' | 'threshold' | 'interval'>): string {
  if (rule.method === 'ppr_1v1') return `${s.leader} is the favourite (evidence ${number(s.evidence ?? 1)} to 1 against a tie, ${number(s.threshold)} needed)`;
  if (rule.method === 'beta_binomial_mixture') {
    return rule.points > 0 ? `${s.leader} leads every other option by at least ${number(rule.points)} points` : `${s.leader} is truly ahead of every other option`;
  }
  const interval = s.interval ? `between ${number(s.interval.lower)} and ${number(s.interval.upper)}` : 'known';
  return `the mean is ${interval} (± ${number(s.evidence ?? 0)}, ± ${number(rule.points)} needed)`;
}

function noteOf(rule: StopRule, asked: boolean, input: SettlementInput, stored: StoredSettlement | null): string {
  const at = percent(rule.confidence);
  const words = rule.rule === 'margin' ? `the margin rule (${number(rule.points)} ${rule.method === 'betting_dkelly' ? 'stars' : 'points'})` : RULE_WORDS[rule.method];
  if (stored?.withdrawn) return `${stored.withdrawn.note} The refund of ${stored.refundedCredits} credits stands.`;
  if (stored?.stopped) {
    const ratio = anytimeWidthRatio(stored.answers, 0.5, rule.alpha, Math.max(1, input.labels.length)).ratio;
    return (
      `Stopped early at ${stored.answers} of ${stored.nRequested} answers: ${claimOf(rule, stored)}, at ${at} confidence. ` +
      `The rule was checked after every answer and keeps its ${percent(rule.alpha)} error however often it looks. ` +
      `${stored.refundedCredits} credits for the places not answered were refunded. ` +
      `The intervals shown are anytime-valid: about ${ratio.toFixed(1)}× as wide as a one-time interval at this many answers.`
    );
  }
  if (stored) {
    return asked
      ? `The rule was met at ${stored.answers} answers without stopping the question (at its last answer, or only once answers were removed in review): nothing was refunded early.`
      : `Asked for all ${input.n} answers (no stopWhen). Under ${words} at ${at} it would have settled at ${stored.answers} answers: ${claimOf(rule, stored)}.`;
  }
  const open = input.status === 'live' || input.status === 'scheduled' || input.status === 'draft';
  const allUsed = input.status === 'complete';
  if (asked) {
    if (open) return `Not settled yet after ${input.counted} answers: ${words} at ${at} is checked after every answer, with no stop before ${rule.floor}.`;
    return allUsed ? 'Never settled: the race stayed close, so every answer was used.' : `Not settled when the question closed (${input.status}) after ${input.counted} answers.`;
  }
  if (open) return `Asked for all ${input.n} answers (no stopWhen). Under ${words} at ${at} it has not settled yet.`;
  return allUsed
    ? `Asked for all ${input.n} answers (no stopWhen). Under ${words} at ${at} it would not have settled: every answer was needed.`
    : `Asked for all ${input.n} answers (no stopWhen). Under ${words} at ${at} it had not settled when the question closed (${input.status}).`;
}

/**
 * The distribution's `low`/`high` replaced by anytime-valid intervals for a question that stopped
 * by its rule: each share at α/K so all hold together (share-confidence-sequence.ts). `total` is
 * what each share is out of (pairwise: the option's appearances).
 */
export function anytimeIntervals<T extends { count: number; low?: number; high?: number; appearances?: number }>(
  items: readonly T[],
  total: number,
  alpha: number,
): T[] {
  const delta = alpha / Math.max(1, items.length);
  return items.map((item) => {
    const n = item.appearances ?? total;
    if (n === 0) return { ...item, low: 0, high: 1 };
    const interval = shareConfidenceInterval(Math.min(item.count, n), n, delta);
    return { ...item, low: interval.lower, high: interval.upper };
  });
}
