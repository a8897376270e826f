import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { validateDraft, type LooseDraft } from '../modules/draft/draft-validator.ts';
import { QuestionDraftSchema } from '../modules/draft/draft.schemas.ts';
import { shapeOnly } from './json-schema-shape.ts';

/**
 * shapeOnly turns a full schema into one that checks JSON types and known fields only, so the
 * estimate can answer 200 with every broken rule listed instead of a 400 for the first one.
 */

const VALUE_KEYWORDS = ['required', 'enum', 'const', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'pattern', 'format', 'default', 'uniqueItems', '$id'];

/** Every key used as a keyword anywhere in a schema (property names are not keywords). */
function keywordsOf(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) schema.forEach((s) => keywordsOf(s, found));
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      found.add(key);
      if (key === 'properties') Object.values(value as object).forEach((s) => keywordsOf(s, found));
      else keywordsOf(value, found);
    }
  }
  return found;
}

function typesOf(schema: unknown, found: unknown[] = []): unknown[] {
  if (Array.isArray(schema)) schema.forEach((s) => typesOf(s, found));
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'type') found.push(...(Array.isArray(value) ? value : [value]));
      else typesOf(value, found);
    }
  }
  return found;
}

describe('shapeOnly on a hand-written schema', () => {
  const full = {
    $id: 'Thing',
    type: 'object',
    description: 'A thing.',
    additionalProperties: false,
    required: ['count', 'tags'],
    properties: {
      count: { type: 'integer', minimum: 1, maximum: 3, enum: [1, 2, 3], default: 1, description: 'How many.' },
      tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$', format: 'uri', minLength: 1, maxLength: 9 }, minItems: 1, maxItems: 2, uniqueItems: true },
      maybe: { type: ['integer', 'null'], exclusiveMinimum: 0, exclusiveMaximum: 10 },
      kind: { type: 'string', const: 'x' },
      extra: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
      either: { anyOf: [{ type: 'integer', maximum: 5 }, { type: 'string', minLength: 2 }] },
      required: { type: 'boolean' },
      format: { type: 'string', format: 'date-time' },
    },
  };

  it('keeps types, properties, additionalProperties and items; drops value rules; integer becomes number', () => {
    expect(shapeOnly(full)).toEqual({
      type: 'object',
      description: 'A thing.',
      additionalProperties: false,
      properties: {
        count: { type: 'number', description: 'How many.' },
        tags: { type: 'array', items: { type: 'string' } },
        maybe: { type: ['number', 'null'] },
        kind: { type: 'string' },
        extra: { type: 'object', additionalProperties: { type: 'number' } },
        either: { anyOf: [{ type: 'number' }, { type: 'string' }] },
        required: { type: 'boolean' },
        format: { type: 'string' },
      },
    });
  });

  it('does not change the schema it is given', () => {
    const before = JSON.stringify(full);
    shapeOnly(full);
    expect(JSON.stringify(full)).toBe(before);
  });

  it('an Ajv compiled from the shape checks types and unknown fields only', () => {
    const check = new Ajv2020({ allErrors: true }).compile(shapeOnly(full) as object);
    expect(check({})).toBe(true);
    expect(check({ count: 99.5, tags: ['', 'NOT A URI', 'x'], maybe: null, kind: 'y', extra: { a: -1 }, either: 'z', required: true, format: 'soon' })).toBe(true);
    expect(check({ count: '1' })).toBe(false);
    expect(check({ tags: [1] })).toBe(false);
    expect(check({ maybe: 'x' })).toBe(false);
    expect(check({ extra: { a: 'x' } })).toBe(false);
    expect(check({ either: true })).toBe(false);
    expect(check({ unknown: 1 })).toBe(false);
  });
});

describe('shapeOnly on the QuestionDraft schema (what the estimate accepts)', () => {
  const { $id: _id, ...draftSchema } = QuestionDraftSchema as unknown as Record<string, unknown>;
  const shape = shapeOnly(draftSchema) as Record<string, unknown> & { properties: Record<string, Record<string, unknown>> };
  const checkShape = new Ajv2020({ allErrors: true, strict: false }).compile(shape);

  it('has no value rule left anywhere, and no integer type', () => {
    const left = [...keywordsOf(shape)].filter((key) => VALUE_KEYWORDS.includes(key));
    expect(left).toEqual([]);
    expect(typesOf(shape)).not.toContain('integer');
    expect(typesOf(shape)).toContain('number');
  });

  it('keeps every field of the draft and its nesting, closed to unknown fields', () => {
    expect(Object.keys(shape.properties).sort()).toEqual(Object.keys((draftSchema as { properties: object }).properties).sort());
    expect(shape.additionalProperties).toBe(false);
    expect(shape.properties.options).toMatchObject({ type: 'array', items: { type: 'object', additionalProperties: false, properties: { label: { type: 'string' } } } });
    expect(shape.properties.targeting).toMatchObject({ type: 'object', additionalProperties: false, properties: { countries: { type: 'array', items: { type: 'string' } } } });
    expect(shape.properties.n).toMatchObject({ type: 'number' });
    expect(shape.properties.tier).toMatchObject({ type: 'number' });
  });

  it('a draft with the right JSON types but many broken rules passes the shape, and the validator lists them', () => {
    const draft: LooseDraft = {
      type: 'poll',
      context: 'c'.repeat(500),
      language: 'ENGLISH',
      options: Array.from({ length: 12 }, () => ({ label: 'l'.repeat(60), imageUrl: 'not a uri' })),
      neither: true,
      stimulus: { imageUrl: 'x', audioUrl: 'y', text: 't'.repeat(500), exposureMs: 1.5 },
      n: 3.5,
      tier: 9,
      targeting: { countries: ['GBR', 'zz'], tags: Array.from({ length: 30 }, (_, i) => `t${i}`), ageBands: ['old'], genders: ['robot', 'robot', 'robot', 'robot'] },
      clickTest: { maxTaps: -1 },
      scheduledFor: '2026-02-30',
      reason: 'whenever',
      contentFlag: 'spicy',
    };
    expect(checkShape(draft)).toBe(true);
    expect(checkShape({ type: 'single_choice' })).toBe(true);
    expect(checkShape({})).toBe(true);
    expect(validateDraft(draft, { now: new Date('2026-06-01T00:00:00Z') }).length).toBeGreaterThanOrEqual(15);
  });

  it.each<[string, unknown]>([
    ['n as text', { type: 'single_choice', n: '50' }],
    ['options as one string', { type: 'single_choice', options: 'A, B' }],
    ['a number as an option label', { type: 'single_choice', options: [{ label: 1 }] }],
    ['countries as one string', { type: 'single_choice', targeting: { countries: 'GB', tags: [] } }],
    ['an unknown field', { type: 'single_choice', colour: 'red' }],
    ['an unknown field inside targeting', { type: 'single_choice', targeting: { countries: [], tags: [], city: 'Leeds' } }],
    ['neither as text', { type: 'single_choice', neither: 'yes' }],
    ['type as a number', { type: 3 }],
  ])('a draft with %s is refused by the shape', (_name, draft) => {
    expect(checkShape(draft)).toBe(false);
  });
});
