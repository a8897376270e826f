import type { Insights } from './insights.schemas.ts';

/**
 * What every insights engine shares (docs/insights.md). An engine sees only the written material
 * of a question: the option each answer chose, its free text and its reason. Never who answered:
 * `writtenOf` copies exactly those three fields, so a row with a head id, country or tier passed
 * by mistake cannot reach an engine.
 */
export interface WrittenAnswer {
  option: string | null;
  text: string | null;
  reason: string | null;
}

export interface SummaryRequest {
  /** The question's own text (words in it weigh less as themes) and its option labels. */
  questionText: string;
  options: string[];
  /** The question's language (`draft.language`). */
  sourceLanguage: string;
  answers: WrittenAnswer[];
}

export type Sentiment = 'positive' | 'neutral' | 'negative';
export type Theme = Insights['themes'][number];

/** The part of Insights an engine writes; the service adds the question, times and languages. */
export interface Summary {
  engine: string;
  takeaway: string;
  themes: Theme[];
  sentiment: { positive: number; neutral: number; negative: number };
  /** Written answers used. */
  basedOn: number;
}

export interface InsightsEngine {
  summarize(request: SummaryRequest): Promise<Summary>;
}

export const MAX_THEMES = 8;
export const MAX_QUOTES = 3;

/** Only the written material, with empty strings as null; answers with nothing written are dropped. */
export function writtenOf(rows: ReadonlyArray<{ option?: string | null; text?: string | null; reason?: string | null }>): WrittenAnswer[] {
  const clean = (value: string | null | undefined) => (typeof value === 'string' && value.trim() !== '' ? value : null);
  return rows
    .map((row) => ({ option: typeof row.option === 'string' ? row.option : null, text: clean(row.text), reason: clean(row.reason) }))
    .filter((row) => row.text !== null || row.reason !== null);
}

/** The verbatim strings of an answer a quote may be. */
export function stringsOf(answer: WrittenAnswer): string[] {
  return [answer.text, answer.reason].filter((s): s is string => s !== null);
}

/** The option most of `members` chose; null when none chose one or two options tie for first. */
export function leadingOption(answers: WrittenAnswer[], members: number[]): { option: string | null; count: number } {
  const counts = new Map<string, number>();
  for (const i of members) {
    const option = answers[i].option;
    if (option !== null) counts.set(option, (counts.get(option) ?? 0) + 1);
  }
  const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (sorted.length === 0 || (sorted.length > 1 && sorted[1][1] === sorted[0][1])) return { option: null, count: 0 };
  return { option: sorted[0][0], count: sorted[0][1] };
}

/** Written answers per chosen option. */
export function pickersOf(answers: WrittenAnswer[]): Map<string, number> {
  const pickers = new Map<string, number>();
  for (const a of answers) if (a.option !== null) pickers.set(a.option, (pickers.get(a.option) ?? 0) + 1);
  return pickers;
}

/**
 * Checks what any engine returned against the answers it was given (and what the schema
 * promises): at most 8 themes of at most 3 quotes, every quote an exact answer string of one of
 * the theme's answers when `members` are known, counts within basedOn, sentiment adding up.
 * Returns the problems, none when it may be shown.
 */
export function checkSummary(summary: Summary, answers: WrittenAnswer[], members?: number[][]): string[] {
  const problems: string[] = [];
  const all = new Set(answers.flatMap(stringsOf));
  if (summary.basedOn !== answers.length) problems.push(`basedOn ${summary.basedOn} is not ${answers.length}`);
  if (summary.themes.length > MAX_THEMES) problems.push(`${summary.themes.length} themes`);
  const { positive, neutral, negative } = summary.sentiment;
  if (![positive, neutral, negative].every((v) => Number.isInteger(v) && v >= 0) || positive + neutral + negative !== summary.basedOn) {
    problems.push('sentiment counts do not add up to basedOn');
  }
  if (!summary.takeaway.trim()) problems.push('empty takeaway');
  summary.themes.forEach((theme, t) => {
    if (!theme.label.trim()) problems.push(`theme ${t} has no label`);
    if (!Number.isInteger(theme.count) || theme.count < 1 || theme.count > summary.basedOn) problems.push(`theme ${t} count ${theme.count}`);
    if (theme.quotes.length > MAX_QUOTES) problems.push(`theme ${t} has ${theme.quotes.length} quotes`);
    const allowed = members ? new Set(members[t].flatMap((i) => stringsOf(answers[i]))) : all;
    for (const quote of theme.quotes) if (!allowed.has(quote)) problems.push(`theme ${t} quote is not verbatim: ${JSON.stringify(quote.slice(0, 60))}`);
  });
  return problems;
}
