import { cursorRowId, invalidCursor, rowCursor } from '../../lib/cursor.ts';
import { applyFilter, filterOf, type ResultQuery } from './filters.ts';
import { toAnswer } from './result-view.ts';
import type { ResultService } from './results.service.ts';
import type { AnswerRow } from './results.repository.ts';
import type { AnswersPage } from './results.schemas.ts';

/**
 * GET /v2/questions/{id}/answers (spec; docs/results.md "Answers"): the answers of a question,
 * newest first, with the result's filters, in pages of `limit` (1–200, default 50). The cursor
 * names the last answer given (its attestationRef, opaque base64url: lib/cursor.ts); the next page
 * starts after that answer's position, so answers arriving meanwhile never shift a page, and an
 * answer removed after review since still marks its place. Reads the result's cached rows.
 */
export const DEFAULT_ANSWERS_LIMIT = 50;

export interface AnswersQuery extends ResultQuery {
  limit?: number;
  cursor?: string;
}

export function createAnswersService(deps: { results: ResultService }) {
  /** The position of the answer a cursor names: among the cached rows, else (removed since) from the database. */
  async function positionOf(questionId: string, rows: readonly AnswerRow[], ref: string): Promise<number> {
    const kept = rows.find((row) => row.attestationRef === ref);
    if (kept) return kept.seq;
    const seq = await deps.results.answerPosition(questionId, ref);
    // Another question's answer (or none) finds nothing here.
    if (seq === undefined) throw invalidCursor();
    return seq;
  }

  return {
    async list(accountId: string, id: string, query: AnswersQuery = {}): Promise<AnswersPage> {
      const { limit = DEFAULT_ANSWERS_LIMIT, cursor, ...filters } = query;
      const { entry } = await deps.results.entry(accountId, id);
      const after = cursor === undefined ? null : await positionOf(id, entry.rows, cursorRowId(cursor, 'att_'));
      const filter = filterOf(filters, entry.ctx.type, entry.ctx.labels);
      const { rows, suppressed } = applyFilter(entry.rows, filter, entry.ctx.type);
      // rows are newest first (seq descending): the page starts at the first seq below the cursor.
      let start = 0;
      if (after !== null) {
        let lo = 0;
        let hi = rows.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (rows[mid].seq < after) hi = mid;
          else lo = mid + 1;
        }
        start = lo;
      }
      const page = rows.slice(start, start + limit);
      const more = start + limit < rows.length;
      return {
        questionId: id,
        filter,
        total: rows.length,
        nUnfiltered: entry.rows.length,
        suppressed,
        answers: await deps.results.withFlags(id, page.map(toAnswer)),
        translationLanguage: entry.translationLanguage,
        nextCursor: more && page.length ? rowCursor(page[page.length - 1].attestationRef) : null,
      };
    },
  };
}
export type AnswersService = ReturnType<typeof createAnswersService>;
