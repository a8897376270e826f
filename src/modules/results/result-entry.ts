import { answerLabels } from '../draft/answer-format.ts';
import { storedDraft } from '../draft/stored-draft.ts';
import type { QuestionType } from '../draft/question-types.ts';
import { facetsOf, type Facets } from './breakdowns.ts';
import { viewOf, type QuestionContext, type View } from './result-view.ts';
import type { AnswerRow, ResultQuestion } from './results.repository.ts';

/**
 * What the result cache keeps per question (docs/results.md "Caching and speed"): its answers, the
 * unfiltered aggregates and the filtered views made so far, tagged with the question's version.
 * Pure: result-loader.ts reads the rows and keeps the entries, result-builder.ts turns one into a
 * Result.
 */
type Row = ResultQuestion;

export interface ResultEntry {
  version: string;
  ctx: QuestionContext;
  /** Every accepted, not removed answer, newest first. */
  rows: AnswerRow[];
  /** Answers kept that carry a translation, and the language of those translations (null: none). */
  translated: number;
  translationLanguage: string | null;
  /** Answer rows read, removed ones included; the highest seq read; how many were removed. */
  read: number;
  maxSeq: number;
  removed: number;
  /** A "question changed" arrived since it was read: check before serving it again. */
  dirty: boolean;
  all: View;
  facets: Facets;
  /** Answers from simulated heads or the simulator; `panel` and `link` count the others. */
  simulated: number;
  panel: number;
  link: number;
  filtered: Map<string, { view: View; suppressed: boolean }>;
}

/** The rows an entry is made of: what was read, and how many answer rows (removed ones too) that took. */
export interface LoadedEntryRows {
  rows: AnswerRow[];
  read: number;
  maxSeq: number;
  removed: number;
}

export function versionOf(row: Pick<Row, 'updated_at' | 'answered'>): string {
  return `${row.updated_at.getTime()}:${row.answered}`;
}

function contextOf(row: Row): QuestionContext {
  const draft = storedDraft(row.draft);
  const type = row.type as QuestionType;
  const labels = type === 'free_text' || type === 'click_test' ? [] : answerLabels(draft);
  return { type, labels, imageUrl: draft.stimulus?.imageUrl ?? null, graded: row.audience_id !== null };
}

export function makeEntry(row: Row, version: string, loaded: LoadedEntryRows): ResultEntry {
  const ctx = contextOf(row);
  const { rows } = loaded;
  let simulated = 0;
  let panel = 0;
  let translated = 0;
  let translationLanguage: string | null = null;
  for (const r of rows) {
    if (r.simulated) simulated += 1;
    else if (r.profiled) panel += 1;
    if (r.translatedTo) {
      translated += 1;
      translationLanguage ??= r.translatedTo;
    }
  }
  return {
    ...loaded, version, ctx, all: viewOf(ctx, rows), facets: facetsOf(rows), simulated, panel, link: rows.length - simulated - panel,
    translated, translationLanguage, filtered: new Map(), dirty: false,
  };
}
