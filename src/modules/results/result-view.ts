import type { QuestionType } from '../draft/question-types.ts';
import { breakdownsOf, type Breakdowns } from './breakdowns.ts';
import { clickSummary, type Clicks } from './clicks.ts';
import { distributionOf, type DistributionItem } from './distribution.ts';
import { median } from './result-math.ts';
import type { AnswerRow } from './results.repository.ts';
import type { Answer } from './results.schemas.ts';
import { classifySentiment } from '../text/sentiment.ts';

/**
 * What a set of answers (all of a question's, or those a filter lets through) adds up to: the
 * parts of a Result that depend only on the answers. Pure; the service caches the unfiltered
 * view per question version and computes filtered ones from the cached rows.
 */
export const RESULT_ANSWERS = 50;

export interface QuestionContext {
  type: QuestionType;
  labels: string[];
  imageUrl: string | null;
  /** The question asks an interest audience: its answers break down by grade too. */
  graded: boolean;
}

export interface View {
  n: number;
  distribution: DistributionItem[];
  mean: number | null;
  medianSeconds: number | null;
  /** Pinned first, then newest; up to RESULT_ANSWERS. */
  answers: Answer[];
  breakdowns: Breakdowns;
  clicks?: Clicks;
  /** Shares of the scored written answers; absent when none was scored (docs/results.md). */
  sentiment?: SentimentShares;
}

export interface SentimentShares {
  positive: number;
  neutral: number;
  negative: number;
}

/**
 * Result.sentiment: of the answers whose written words were scored, the share positive, neutral
 * and negative (each 0–1, adding up to 1); undefined when no answer was scored.
 */
export function sentimentOf(rows: readonly AnswerRow[]): SentimentShares | undefined {
  const counts = { positive: 0, neutral: 0, negative: 0 };
  let scored = 0;
  for (const row of rows) {
    if (row.sentiment === null) continue;
    counts[classifySentiment(row.sentiment)] += 1;
    scored += 1;
  }
  if (scored === 0) return undefined;
  return { positive: counts.positive / scored, neutral: counts.neutral / scored, negative: counts.negative / scored };
}

export function toAnswer(row: AnswerRow): Answer {
  return {
    option: row.optionLabel,
    text: row.text,
    translatedText: row.translatedText,
    reason: row.reason,
    translatedReason: row.translatedReason,
    tier: row.tier,
    attestationRef: row.attestationRef,
    answeredAt: row.answeredAt,
    pinned: row.pinned,
    ...(row.taps ? { taps: row.taps.map((p) => ({ x: p.x, y: p.y })) } : {}),
  };
}

/** `rows` newest first: pinned answers first (newest first among them), then the rest. */
export function shownAnswers(rows: readonly AnswerRow[], limit = RESULT_ANSWERS): Answer[] {
  const shown: AnswerRow[] = [];
  for (const row of rows) if (row.pinned && shown.length < limit) shown.push(row);
  for (const row of rows) if (!row.pinned && shown.length < limit) shown.push(row);
  return shown.map(toAnswer);
}

/** Median time to answer in seconds, to 0.1 s, over answers that reported it. */
export function medianSeconds(rows: readonly AnswerRow[]): number | null {
  const dwell: number[] = [];
  for (const row of rows) if (row.dwellMs !== null) dwell.push(row.dwellMs);
  const m = median(dwell);
  return m === null ? null : Math.round(m / 100) / 10;
}

export function viewOf(ctx: QuestionContext, rows: readonly AnswerRow[]): View {
  const { items, mean } = distributionOf(ctx.type, ctx.labels, rows);
  return {
    n: rows.length,
    distribution: items,
    mean,
    medianSeconds: medianSeconds(rows),
    answers: shownAnswers(rows),
    breakdowns: breakdownsOf(ctx.type, ctx.labels, rows, ctx.graded),
    ...(ctx.type === 'click_test' ? { clicks: clickSummary(rows.map((r) => r.taps ?? []), ctx.imageUrl) } : {}),
    sentiment: sentimentOf(rows),
  };
}
