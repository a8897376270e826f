import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { applyFilter, filterOf, type ResultQuery } from './filters.ts';
import { toAnswer } from './result-view.ts';
import type { ResultService } from './result.service.ts';
import type { AnswersPage } from './results.schemas.ts';

/**
 * GET /v2/questions/{id}/answers (spec; docs/results.md "Answers"): the answers of a question,
 * newest first, with the result's filters, in pages of `limit` (1–200, default 50). The cursor is
 * the position of the last answer given (opaque base64url, http/cursor.ts); the next page starts
 * after it, so answers arriving meanwhile never shift a page. Reads the result's cached rows.
 */
export const DEFAULT_ANSWERS_LIMIT = 50;

export interface AnswersQuery extends ResultQuery {
  limit?: number;
  cursor?: string;
}

export function createAnswersService(deps: { results: ResultService }) {
  return {
    async list(accountId: string, id: string, query: AnswersQuery = {}): Promise<AnswersPage> {
      const { limit = DEFAULT_ANSWERS_LIMIT, cursor, ...filters } = query;
      const { entry } = await deps.results.entry(accountId, id);
      const after = cursor === undefined ? null : decodeCursor<[number]>(cursor, ['number'])[0];
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
        nextCursor: more && page.length ? encodeCursor([page[page.length - 1].seq]) : null,
      };
    },
  };
}
export type AnswersService = ReturnType<typeof createAnswersService>;
