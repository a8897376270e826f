import { leaderConfidence, wilson, type Confidence } from '../draft/confidence.ts';
import type { QuestionType } from '../draft/question-types.ts';
import type { Clicks } from './clicks.ts';
import type { DistributionItem } from './distribution.ts';

/**
 * The summary of a result (spec Result.summary; docs/lifecycle.md "Confidence"): the leader's
 * share and the runner-up's are compared with Wilson score intervals, `high` when they do not
 * overlap at 99%, `medium` at 95%, `low` otherwise. A `winner` is named only at medium or high.
 *
 * - Types with one base (choices, scale, yes/mostly/no, multi choice, ranking's first choices)
 *   use confidence.ts's leaderConfidence on the counts, exactly what follow-ups are gated on.
 * - Pairwise shares are wins / appearances, each option with its own base: the same
 *   non-overlap test is run on the two strongest options' win rates, each with its own n.
 * - Ranking names a winner only when the option most often ranked first also has the best
 *   average rank (rank 1); otherwise the two measures disagree and no winner is named.
 */
export interface Summary {
  winner: string | null;
  margin: number | null;
  confidence: Confidence | null;
  note: string;
  suggestedFollowUp: string | null;
}

export interface SummaryInput {
  type: QuestionType;
  /** Answers the summary is about (after filters). */
  n: number;
  distribution: DistributionItem[];
  mean: number | null;
  clicks?: Clicks;
  /** The question still takes answers. */
  live: boolean;
  suppressed: boolean;
  /**
   * The question stopped early by its stopping rule at this confidence (docs/early-stopping.md): the
   * note then says so instead of naming one-time intervals, which the result no longer shows.
   */
  settledWithConfidence?: number;
}

const pct = (share: number) => `${Math.round(share * 100)}%`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function pairConfidence(a: DistributionItem, b: DistributionItem): Confidence {
  const nA = a.appearances ?? 0;
  const nB = b.appearances ?? 0;
  if (nA === 0) return 'low';
  if (wilson(a.count, nA, 2.576).low > (nB ? wilson(b.count, nB, 2.576).high : 1)) return 'high';
  if (wilson(a.count, nA, 1.96).low > (nB ? wilson(b.count, nB, 1.96).high : 1)) return 'medium';
  return 'low';
}

export function summarize(input: SummaryInput): Summary {
  const { type, n, distribution, live } = input;
  const none = (note: string): Summary => ({ winner: null, margin: null, confidence: null, note, suggestedFollowUp: null });
  if (input.suppressed) return none(`Too few answers match this filter to show (fewer than 5 in a country or age band).`);
  if (n === 0) return none(live ? 'No answers yet.' : 'No answers.');
  const sofar = live ? ' so far' : '';

  if (type === 'free_text') return none(`${plural(n, 'written answer')}${sofar}.`);
  if (type === 'click_test') {
    const clicks = input.clicks;
    const top = clicks?.hotspots[0];
    const where = top ? ` The busiest area holds ${pct(top.share)} of taps.` : '';
    return none(`${plural(clicks?.taps ?? 0, 'tap')} from ${plural(n, 'person')}${sofar}.`.replace('persons', 'people') + where);
  }

  // Order by what makes a leader for the type: strength (pairwise), else count.
  const ordered = [...distribution].sort((a, b) => (type === 'pairwise' ? (b.strength ?? 0) - (a.strength ?? 0) : 0) || b.count - a.count);
  const [first, second] = ordered;
  const confidence: Confidence =
    type === 'pairwise'
      ? second
        ? pairConfidence(first, second)
        : 'low'
      : leaderConfidence(distribution.map((d) => d.count), n) ?? 'low';
  const margin = first.share - (second?.share ?? 0);
  const agrees = type !== 'ranking' || first.rank === 1;
  const winner = (confidence === 'medium' || confidence === 'high') && agrees ? first.option : null;

  const lead =
    type === 'pairwise'
      ? `${first.option} is strongest, winning ${pct(first.share)} of its ${plural(first.appearances ?? 0, 'match-up')}`
      : type === 'multi_choice'
        ? `${first.option} was ticked by ${pct(first.share)} of ${plural(n, 'answer')}`
        : type === 'ranking'
          ? `${first.option} was ranked first by ${pct(first.share)} of ${plural(n, 'answer')}`
          : `${first.option} leads with ${first.count} of ${plural(n, 'answer')} (${pct(first.share)})`;
  const prefix = type === 'scale_1_5' && input.mean !== null ? `Average ${input.mean.toFixed(1)} out of 5. ` : '';
  let note: string;
  if (winner) {
    const why =
      input.settledWithConfidence !== undefined
        ? `settled by its stopping rule at ${pct(input.settledWithConfidence)}, valid however often it was checked`
        : confidence === 'high' ? '99% intervals apart' : '95% intervals apart';
    note = `${prefix}${lead}${sofar}, ${Math.round(margin * 100)} points ahead of ${second?.option ?? 'the rest'}; the lead is ${confidence === 'high' ? 'clear' : 'likely real'} (${why}).`;
  } else if (!agrees) {
    const best = distribution.find((d) => d.rank === 1);
    note = `${prefix}${lead}${sofar}, but ${best?.option ?? 'another option'} has the best average rank; no clear winner.`;
  } else {
    note = `${prefix}No clear leader${sofar}: ${first.option} (${pct(first.share)}) and ${second?.option ?? 'the rest'} (${pct(second?.share ?? 0)}) are within the margin of error.`;
  }
  const suggestedFollowUp = winner
    ? type === 'scale_1_5'
      ? `What would make it a 5?`
      : `Why did people choose ${winner}?`
    : live
      ? null
      : `Add more heads: ${first.option} and ${second?.option ?? 'the rest'} are too close to call.`;
  return { winner, margin, confidence, note, suggestedFollowUp };
}
