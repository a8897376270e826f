import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { validationError } from './errors.ts';

/**
 * The JSON body parser. Like Fastify's, it refuses prototype poisoning (`__proto__`,
 * `constructor.prototype`). It also refuses text PostgreSQL cannot store or that no person
 * typed: NUL characters and lone UTF-16 surrogates (a 400 naming the field instead of a 500 from
 * the database). An empty body on DELETE is "no body" rather than an error, so DELETE with a
 * Content-Type header works.
 */
const UNSAFE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function findUnsafeString(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return UNSAFE.test(value) ? path || 'body' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeString(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      if (UNSAFE.test(key)) return field;
      const found = findUnsafeString(item, field);
      if (found) return found;
    }
  }
  return null;
}

export function unsafeStringError(field: string) {
  return validationError([{ field, code: 'invalid_format', message: `${field} contains a NUL character or broken Unicode.` }]);
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
    const unsafe = findUnsafeString(parsed);
    if (unsafe) return done(unsafeStringError(unsafe), undefined);
    done(null, parsed);
  });
  // Query strings: the same rule, before validation.
  app.addHook('preValidation', async (request) => {
    const unsafe = findUnsafeString(request.query) ?? findUnsafeString(request.params);
    if (unsafe) throw unsafeStringError(unsafe);
  });
}
