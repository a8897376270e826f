import { answerLabels, readAnswer, type AnswerInput } from '../draft/answer-format.ts';
import type { QuestionType } from '../draft/question-types.ts';
import type { StoredDraft } from '../draft/stored-draft.ts';
import { firstMet, metSettlement, ruleInForce } from './settlement-rule.ts';
import type { StoredSettlement } from './settlement.schemas.ts';

/**
 * A settlement after an answer was removed in review (issue 17 point 3: "removals after review
 * re-evaluate on the cleaned sequence; a claim that no longer holds is withdrawn, and says so").
 *
 * The rule is replayed over the answers still counted, in the order they were accepted:
 *  - met somewhere: the settlement moves to that point (the claim stands, perhaps a few answers
 *    later); a stop and its refund are kept as they were;
 *  - never met: a claim the question stopped on is withdrawn (the refund stands: the requester
 *    paid for no answer that was not given); a "would have settled at" that no longer holds is
 *    cleared.
 * A live question never met is left alone: its next answer reads the rule on the cleaned tally.
 * Returns the new settlement (null: none), or undefined when nothing changes.
 */
export function reviewSettlement(input: {
  type: QuestionType;
  status: string;
  n: number;
  draft: StoredDraft;
  stored: StoredSettlement | null;
  /** The answers still counted, oldest first. */
  answers: readonly AnswerInput[];
  at: Date;
}): StoredSettlement | null | undefined {
  const { type, draft, stored } = input;
  if (stored === null && input.status === 'live') return undefined;
  if (stored?.withdrawn) return undefined;
  const found = ruleInForce(type, input.n, draft.stopWhen, stored);
  if (!found) return undefined;
  const { rule, asked } = found;
  const labels = answerLabels(draft);
  const sequence = input.answers.map((answer) => {
    const read = readAnswer(draft, answer);
    return Array.isArray(read) ? [] : read.tallyKeys;
  });
  const met = firstMet(rule, type, labels, sequence);
  if (met) {
    const { reading } = met;
    if (stored && stored.answers === met.answers && stored.evidence === reading.evidence) return undefined;
    const moved = metSettlement({ rule, asked, reading, answers: met.answers, at: input.at, nRequested: input.n, stopped: false });
    // A settlement that moves keeps what happened at the time: the stop, its refund, when and at which n.
    return stored ? { ...moved, at: stored.at, nRequested: stored.nRequested, stopped: stored.stopped, refundedCredits: stored.refundedCredits } : moved;
  }
  if (!stored) return undefined;
  if (!stored.stopped) return null;
  const counted = input.answers.length;
  return {
    ...stored,
    withdrawn: {
      at: input.at.toISOString(),
      answers: counted,
      note: `Withdrawn: after answers were removed in review, the ${counted} answers left never meet the rule, so the claim made at ${stored.answers} answers no longer holds.`,
    },
  };
}
