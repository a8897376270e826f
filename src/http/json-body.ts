import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { notFound, validationError, type ValidationItem } from '../lib/errors.ts';

/**
 * The JSON body parser. Like Fastify's, it refuses prototype poisoning (`__proto__`,
 * `constructor.prototype`). It also refuses text PostgreSQL cannot store or that no person
 * typed: NUL characters and lone UTF-16 surrogates (a 400 naming the field instead of a 500 from
 * the database), and bodies nested deeper than MAX_JSON_DEPTH (a 400 instead of a stack
 * overflow). An empty body on DELETE is "no body" rather than an error, so DELETE with a
 * Content-Type header works.
 */
const UNSAFE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Deeper JSON than any body of this API needs (drafts nest about 5 levels); refused with a 400. */
export const MAX_JSON_DEPTH = 64;

type Walk = { unsafe: string } | { tooDeep: true } | null;

/**
 * One pass over a parsed value, with an explicit stack instead of recursion: JSON.parse builds a
 * value a million levels deep from a 2 MB body without complaint, and a recursive walk over it
 * overflowed the stack (a 500 on every JSON route). Fields are visited in document order, so the
 * first bad field is the one named. `maxDepth` counts arrays and objects inside one another.
 */
function walk(value: unknown, maxDepth: number): Walk {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value: item, path, depth } = stack.pop()!;
    if (typeof item === 'string') {
      if (UNSAFE.test(item)) return { unsafe: path || 'body' };
      continue;
    }
    if (!item || typeof item !== 'object') continue;
    if (depth + 1 > maxDepth) return { tooDeep: true };
    const children: Array<{ value: unknown; path: string; depth: number }> = [];
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) children.push({ value: item[i], path: `${path}[${i}]`, depth: depth + 1 });
    } else {
      for (const [key, child] of Object.entries(item)) {
        const field = path ? `${path}.${key}` : key;
        if (UNSAFE.test(key)) return { unsafe: field };
        children.push({ value: child, path: field, depth: depth + 1 });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return null;
}

/** The first field holding a NUL or a lone surrogate (`body` for a bare string), or null. Any depth. */
export function findUnsafeString(value: unknown): string | null {
  const found = walk(value, Infinity);
  return found && 'unsafe' in found ? found.unsafe : null;
}

/** What is wrong with a parsed body, as one validation item: nested too deep, or unsafe text. */
export function checkJsonValue(value: unknown, maxDepth = MAX_JSON_DEPTH): ValidationItem | null {
  const found = walk(value, maxDepth);
  if (!found) return null;
  if ('tooDeep' in found) return { field: 'body', code: 'too_many', message: `The body is nested more than ${maxDepth} levels deep.` };
  return unsafeItem(found.unsafe);
}

function unsafeItem(field: string): ValidationItem {
  return { field, code: 'invalid_format', message: `${field} contains a NUL character or broken Unicode.` };
}

export function unsafeStringError(field: string) {
  return validationError([unsafeItem(field)]);
}

export function registerJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (text.trim() === '') {
      if (request.method === 'DELETE' || request.method === 'GET') return done(null, undefined);
      return done(validationError([{ field: 'body', code: 'required', message: 'A JSON body is required.' }], 'The body is empty; send a JSON object.'), undefined);
    }
    let parsed: unknown;
    try {
      parsed = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      return done(validationError([{ field: 'body', code: 'invalid_format', message: 'The body is not valid JSON.' }], 'The body is not valid JSON.'), undefined);
    }
    const problem = checkJsonValue(parsed);
    if (problem) return done(validationError([problem]), undefined);
    done(null, parsed);
  });
  // Query strings: the same rule, before validation. A path parameter with such text names
  // nothing this service issued: 404, like any other malformed id (error-handler.ts).
  app.addHook('preValidation', async (request) => {
    const unsafe = findUnsafeString(request.query);
    if (unsafe) throw unsafeStringError(unsafe);
    if (findUnsafeString(request.params)) throw notFound();
  });
}
