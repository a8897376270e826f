import { validationError } from './errors.ts';

/**
 * Opaque page cursors (ARCHITECTURE §4): base64url of a small JSON array, checked strictly on the
 * way back in so a hand-made cursor is a 400, never a query fragment.
 */
export function encodeCursor(parts: Array<string | number>): string {
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

export function decodeCursor<T extends Array<string | number>>(cursor: string, shape: Array<'string' | 'number'>): T {
  const fail = () => validationError([{ field: 'cursor', code: 'invalid_format', message: 'cursor is not one this API gave out; pass nextCursor unchanged.' }]);
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw fail();
  }
  if (!Array.isArray(parts) || parts.length !== shape.length) throw fail();
  // base64url decoding skips characters it does not know: insist on the exact text we gave out.
  if (encodeCursor(parts as Array<string | number>) !== cursor) throw fail();
  parts.forEach((part, i) => {
    if (typeof part !== shape[i] || (typeof part === 'number' && !Number.isSafeInteger(part))) throw fail();
  });
  return parts as T;
}
