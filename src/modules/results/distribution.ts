import type { QuestionType } from '../draft/question-types.ts';
import { bradleyTerry, type Comparison } from './bradley-terry.ts';
import { averageRanks, competitionRanks, interval95, scaleMean, share } from './result-math.ts';

/**
 * The distribution of a set of answers, per question type (docs/results.md "Distribution"). Pure:
 * it reads only the answer objects, so the same code serves the whole result, a filtered one and
 * every breakdown segment.
 *
 * | type                                   | count            | share                  | also              |
 * |----------------------------------------|------------------|------------------------|-------------------|
 * | single_choice, ab_image, reaction,     | answers choosing | count / answers        |                   |
 * |   scale_1_5, yes_mostly_no             |                  |                        | mean (scale)      |
 * | multi_choice                           | answers ticking  | count / answerers      |                   |
 * | ranking                                | ranked it first  | count / answers        | averageRank, rank |
 * | pairwise                               | wins             | wins / appearances     | appearances, strength, rank |
 * | free_text, click_test                  | (no distribution)                                             |
 *
 * Every item carries the 95% Wilson interval of its share as `low`/`high` (an extension).
 */
export interface DistributionItem {
  option: string;
  count: number;
  share: number;
  low: number;
  high: number;
  averageRank?: number;
  appearances?: number;
  strength?: number;
  rank?: number;
}

/** Just what the distribution reads of an answer (AnswerRow has all of it). */
export interface ChoiceAnswer {
  option?: number;
  options?: number[];
  order?: number[];
  pair?: number[];
}

export interface Distribution {
  items: DistributionItem[];
  /** Mean of a 1–5 scale; null for other types and with no answers. */
  mean: number | null;
}

export const NO_DISTRIBUTION: ReadonlySet<string> = new Set(['free_text', 'click_test']);

function item(option: string, count: number, base: number): DistributionItem {
  const { low, high } = interval95(count, base);
  return { option, count, share: share(count, base), low, high };
}

export function distributionOf(type: QuestionType, labels: readonly string[], answers: readonly ChoiceAnswer[]): Distribution {
  if (NO_DISTRIBUTION.has(type)) return { items: [], mean: null };
  const k = labels.length;
  const n = answers.length;

  if (type === 'multi_choice') {
    const counts = new Array<number>(k).fill(0);
    for (const a of answers) for (const i of a.options ?? []) if (i >= 0 && i < k) counts[i] += 1;
    return { items: labels.map((label, i) => item(label, counts[i], n)), mean: null };
  }

  if (type === 'ranking') {
    const { averageRank, firsts } = averageRanks(answers.map((a) => a.order ?? []), k);
    const ranks = competitionRanks(averageRank, 'lower');
    return {
      items: labels.map((label, i) => {
        const base = item(label, firsts[i], n);
        const avg = averageRank[i];
        // With no answers there is no average rank to give (and no order to rank by).
        return avg === null ? base : { ...base, averageRank: avg, rank: ranks[i] };
      }),
      mean: null,
    };
  }

  if (type === 'pairwise') {
    const wins = new Array<number>(k).fill(0);
    const appearances = new Array<number>(k).fill(0);
    const comparisons: Comparison[] = [];
    for (const a of answers) {
      const pair = a.pair ?? [];
      if (pair.length !== 2 || a.option === undefined || !pair.includes(a.option)) continue;
      const loser = pair[0] === a.option ? pair[1] : pair[0];
      if (a.option < 0 || a.option >= k || loser < 0 || loser >= k) continue;
      wins[a.option] += 1;
      appearances[a.option] += 1;
      appearances[loser] += 1;
      comparisons.push({ winner: a.option, loser });
    }
    const strength = bradleyTerry(k, comparisons);
    const ranks = competitionRanks(strength, 'higher');
    return {
      items: labels.map((label, i) => ({ ...item(label, wins[i], appearances[i]), appearances: appearances[i], strength: strength[i], rank: ranks[i] })),
      mean: null,
    };
  }

  // One option per answer: single choice, A/B image, reaction, 1–5 scale, yes/mostly/no.
  const counts = new Array<number>(k).fill(0);
  for (const a of answers) if (a.option !== undefined && a.option >= 0 && a.option < k) counts[a.option] += 1;
  return { items: labels.map((label, i) => item(label, counts[i], n)), mean: type === 'scale_1_5' ? scaleMean(counts) : null };
}
