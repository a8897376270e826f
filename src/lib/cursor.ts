import { validationError } from './errors.ts';

/**
 * Opaque page cursors (ARCHITECTURE §4; docs/api.md "Ids and cursors"; issue 8, point 11).
 *
 * A cursor names the last row of the page it came with, by that row's own public id (`q_…`,
 * `led_…`, an answer's `att_…`), as base64url of a one-item JSON array. The list finds the row
 * within its own scope (the account, the question) and continues after its position. So:
 *  - it carries no number shared by the whole service: the sequence the lists are ordered by
 *    stays in the database, and a cursor tells nothing the caller did not already see;
 *  - it is per list: a cursor naming another account's row, another question's answer or
 *    another list's kind of row finds nothing there and is a 400 on `cursor`;
 *  - pages are exact with any number of rows in the same instant (the position is the row's,
 *    not a timestamp) and while rows arrive (they go before the rows being paged).
 * Checked strictly on the way back in, so a hand-made cursor is a 400, never a query fragment.
 */
export function encodeCursor(parts: Array<string | number>): string {
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

export function invalidCursor() {
  return validationError([{ field: 'cursor', code: 'invalid_format', message: 'cursor is not one this API gave out for this list; pass nextCursor unchanged.' }]);
}

export function decodeCursor<T extends Array<string | number>>(cursor: string, shape: Array<'string' | 'number'>): T {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parts) || parts.length !== shape.length) throw invalidCursor();
  // base64url decoding skips characters it does not know: insist on the exact text we gave out.
  if (encodeCursor(parts as Array<string | number>) !== cursor) throw invalidCursor();
  parts.forEach((part, i) => {
    if (typeof part !== shape[i] || (typeof part === 'number' && !Number.isSafeInteger(part))) throw invalidCursor();
  });
  return parts as T;
}

/** The cursor of a page whose last row has this id. */
export function rowCursor(id: string): string {
  return encodeCursor([id]);
}

/** The row id a cursor names, if it has this list's id prefix (`q_`, `led_`, `att_`); else a 400. */
export function cursorRowId(cursor: string, prefix: string): string {
  const [id] = decodeCursor<[string]>(cursor, ['string']);
  if (!id.startsWith(prefix) || !/^[0-9A-Za-z]{1,64}$/.test(id.slice(prefix.length))) throw invalidCursor();
  return id;
}
