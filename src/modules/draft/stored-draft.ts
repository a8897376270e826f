import type { NormalizedDraft } from './draft-defaults.ts';
import { QUESTION_TYPES } from './question-types.ts';

/**
 * What a question row's `draft` column holds (db/schema.ts types it as plain JSON): the normalized
 * draft the question was asked with, plus `shownAs` when it came from a saved draft (the answer
 * page shows it). Every reader of a stored draft goes through `storedDraft`, the one place that
 * turns the column's JSON into this type (ARCHITECTURE §3 rule 6: no `as unknown as`).
 */
export type StoredDraft = NormalizedDraft & { shownAs?: string };

const TYPES = new Set<string>(QUESTION_TYPES);

/**
 * The stored draft, checked for the fields every reader relies on. The column is only ever written
 * from a normalized draft, so a failure here is corrupt data, not bad input: it throws (a 500 with
 * the cause in the log), never silently reads `undefined`. The check is a few property reads: it
 * runs on the answer and results paths.
 */
export function storedDraft(value: unknown): StoredDraft {
  const draft = value as Partial<StoredDraft> | null;
  if (
    typeof draft !== 'object' || draft === null ||
    !TYPES.has(draft.type as string) ||
    typeof draft.language !== 'string' ||
    typeof draft.n !== 'number' ||
    !Array.isArray(draft.options) ||
    typeof draft.targeting !== 'object' || draft.targeting === null
  ) {
    throw new Error('A stored question draft is not a normalized draft (questions.draft)');
  }
  return draft as StoredDraft;
}
