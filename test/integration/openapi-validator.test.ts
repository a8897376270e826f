import { describe, expect, it } from 'vitest';
import { createResponseValidator, type CheckedResponse } from '../helpers/openapi-validator.ts';

/** The R7.3 checker itself, against a small hand-made description. */
const errorRef = { $ref: '#/components/schemas/Error' };
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const doc = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/v2/questions/{id}': {
      get: {
        responses: {
          200: { description: 'ok', ...json({ $ref: '#/components/schemas/Question' }) },
          '4XX': { description: 'client error', ...json(errorRef) },
        },
      },
      delete: { responses: { 204: { description: 'gone' }, default: { description: 'error', ...json(errorRef) } } },
    },
    '/v2/questions/labels': { get: { responses: { 200: { description: 'ok', ...json({ type: 'array', items: { type: 'string' } }) } } } },
    '/v2/questions/{id}/chart.png': { get: { responses: { 200: { description: 'png', content: { 'image/png': {} } } } } },
    '/v2/exports/{id}.csv': { get: { responses: { 200: { description: 'csv', content: { 'text/*': {} } } } } },
  },
  components: {
    schemas: {
      Question: {
        type: 'object',
        required: ['id', 'status', 'createdAt'],
        additionalProperties: false,
        properties: { id: { type: 'string' }, status: { enum: ['live', 'closed'] }, createdAt: { type: 'string', format: 'date-time' }, owner: { $ref: '#/components/schemas/Owner' } },
      },
      Owner: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      Error: {
        type: 'object',
        required: ['error'],
        properties: { error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } } },
      },
    },
  },
};

const validator = createResponseValidator(doc);
const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
const res = (method: string, url: string, statusCode: number, body: unknown, headers: Record<string, string> = JSON_TYPE): CheckedResponse => ({
  method,
  url,
  statusCode,
  headers,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
function messageOf(fn: () => void): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a throw');
}

const question = { id: 'q_1', status: 'live', createdAt: '2026-01-01T00:00:00.000Z', owner: { name: 'A' } };
const notFound = { error: { code: 'not_found', message: 'No.' } };

describe('path matching', () => {
  it('prefers literal segments to parameters', () => {
    expect(validator.findPath('/v2/questions/labels')).toBe('/v2/questions/labels');
    expect(validator.findPath('/v2/questions/q_123')).toBe('/v2/questions/{id}');
    expect(validator.findPath('/v2/questions/q_123/chart.png')).toBe('/v2/questions/{id}/chart.png');
    expect(validator.findPath('/v2/exports/x1.csv')).toBe('/v2/exports/{id}.csv');
    expect(validator.findPath('/v2/questions')).toBeNull();
    expect(validator.findPath('/v2/questions/a/b')).toBeNull();
  });

  it('ignores the query string', () => {
    expect(() => validator.check(res('GET', '/v2/questions/labels?lang=en', 200, ['a']))).not.toThrow();
  });
});

describe('JSON bodies', () => {
  it('accepts a body that matches, following $refs between components', () => {
    expect(() => validator.check(res('GET', '/v2/questions/q_1', 200, question))).not.toThrow();
  });

  it('rejects a body that does not match, naming method, url, status and the problems', () => {
    const bad = { ...question, status: 'open', extra: 1, owner: {} };
    const message = messageOf(() => validator.check(res('GET', '/v2/questions/q_1', 200, bad)));
    expect(message).toContain('GET /v2/questions/q_1 → 200: the body does not match');
    expect(message).toContain('/status must be equal to one of the allowed values');
    expect(message).toContain('"additionalProperty":"extra"');
    expect(message).toContain("/owner must have required property 'name'");
  });

  it('checks formats', () => {
    expect(() => validator.check(res('GET', '/v2/questions/q_1', 200, { ...question, createdAt: 'yesterday' }))).toThrow(/format/);
  });

  it('rejects a body that is not JSON', () => {
    expect(() => validator.check(res('GET', '/v2/questions/q_1', 200, '{nope'))).toThrow(/not valid JSON/);
  });

  it('uses a status range (4XX) and default', () => {
    expect(() => validator.check(res('GET', '/v2/questions/q_1', 404, notFound))).not.toThrow();
    expect(() => validator.check(res('DELETE', '/v2/questions/q_1', 409, notFound))).not.toThrow();
    expect(() => validator.check(res('DELETE', '/v2/questions/q_1', 409, { oops: true }))).toThrow(/does not match/);
  });

  it('rejects a status the operation does not document', () => {
    expect(() => validator.check(res('GET', '/v2/questions/q_1', 500, notFound))).toThrow(
      /GET \/v2\/questions\/q_1 → 500: status 500 is not documented for GET \/v2\/questions\/\{id\} \(documented: 200, 4XX\)/,
    );
  });
});

describe('other content', () => {
  it('accepts a documented non-JSON content type, including a wildcard', () => {
    expect(() => validator.check(res('GET', '/v2/questions/q_1/chart.png', 200, 'PNG…', { 'content-type': 'image/png' }))).not.toThrow();
    expect(() => validator.check(res('GET', '/v2/exports/e1.csv', 200, 'a,b', { 'content-type': 'text/csv; charset=utf-8' }))).not.toThrow();
  });

  it('rejects an undocumented content type', () => {
    expect(() => validator.check(res('GET', '/v2/questions/q_1/chart.png', 200, '<html>', { 'content-type': 'text/html' }))).toThrow(
      /content type text\/html is not documented \(documented: image\/png\)/,
    );
  });

  it('accepts an empty 204 and rejects a body where none is documented', () => {
    expect(() => validator.check(res('DELETE', '/v2/questions/q_1', 204, '', {}))).not.toThrow();
    expect(() => validator.check(res('DELETE', '/v2/questions/q_1', 204, { x: 1 }))).toThrow(/documents none/);
  });

  it('rejects an empty body where one is documented', () => {
    expect(() => validator.check(res('GET', '/v2/questions/q_1', 200, '', {}))).toThrow(/no body/);
  });
});

describe('routes the description does not know', () => {
  it('accept only a 404/405 in the error envelope', () => {
    expect(() => validator.check(res('GET', '/v2/nothing', 404, notFound))).not.toThrow();
    expect(() => validator.check(res('POST', '/v2/questions/labels', 404, notFound))).not.toThrow();
    expect(() => validator.check(res('GET', '/v2/nothing', 404, { message: 'x' }))).toThrow(/does not match/);
    expect(() => validator.check(res('GET', '/v2/nothing', 200, {}))).toThrow(/no operation in \/openapi.json documents GET \/v2\/nothing/);
  });

  it('exempt the routes hidden from the description', () => {
    expect(() => validator.check(res('GET', '/openapi.json', 200, doc))).not.toThrow();
    expect(() => validator.check(res('GET', '/docs/static/index.html', 200, '<html>', { 'content-type': 'text/html' }))).not.toThrow();
  });

  it('check HEAD against GET without a body', () => {
    expect(() => validator.check(res('HEAD', '/v2/questions/q_1', 200, '', JSON_TYPE))).not.toThrow();
    expect(() => validator.check(res('HEAD', '/v2/questions/q_1', 503, '', JSON_TYPE))).toThrow(/not documented/);
  });
});
