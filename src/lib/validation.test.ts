import { describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { compileFor, pointerToField, toValidationItems } from './validation.ts';

describe('pointerToField', () => {
  it.each([
    ['', '', ''],
    ['/text', '', 'text'],
    ['/draft/options/2/label', '', 'draft.options[2].label'],
    ['/0/name', '', '[0].name'],
    ['/a~1b/c~0d', '', 'a/b.c~d'],
    ['/options/2', 'draft', 'draft.options[2]'],
    ['', 'draft', 'draft'],
  ])('%j (prefix %j) → %j', (pointer, prefix, field) => {
    expect(pointerToField(pointer, prefix)).toBe(field);
  });
});

const DraftSchema = Type.Object(
  {
    text: Type.String({ minLength: 1, maxLength: 10 }),
    code: Type.Optional(Type.String({ minLength: 3, pattern: '^[a-z]+$', maxLength: 5 })),
    type: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['single_choice', 'ranking'] })),
    n: Type.Optional(Type.Integer({ minimum: 10, maximum: 500 })),
    options: Type.Optional(Type.Array(Type.Object({ label: Type.String({ maxLength: 5 }) }, { additionalProperties: false }), { minItems: 2, maxItems: 3 })),
    email: Type.Optional(Type.String({ format: 'email' })),
    mode: Type.Optional(Type.Literal('fast')),
    either: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
    stop: Type.Optional(Type.Union([Type.Unsafe<string>({ type: 'string', enum: ['never'] }), Type.Object({ rule: Type.String(), level: Type.Optional(Type.Number({ maximum: 1 })) }, { additionalProperties: false })])),
  },
  { additionalProperties: false },
);
const Body = Type.Object({ draft: DraftSchema }, { additionalProperties: false });
const validate = compileFor('body', Body);

function itemsFor(body: unknown, prefix?: string) {
  expect(validate(body)).toBe(false);
  return toValidationItems(validate.errors ?? [], prefix);
}
const draft = (extra: Record<string, unknown>) => ({ draft: { text: 'hello', ...extra } });

describe('toValidationItems', () => {
  it('required → required, naming the missing field by its path', () => {
    expect(itemsFor({ draft: {} })).toEqual([{ field: 'draft.text', code: 'required', message: 'draft.text is required.' }]);
    expect(itemsFor({})).toEqual([{ field: 'draft', code: 'required', message: 'draft is required.' }]);
  });

  it('additionalProperties → not_allowed', () => {
    expect(itemsFor(draft({ price: 1 }))).toEqual([{ field: 'draft.price', code: 'not_allowed', message: 'draft.price is not a known field.' }]);
    expect(itemsFor({ ...draft({}), owner: 'me' })).toEqual([{ field: 'owner', code: 'not_allowed', message: 'owner is not a known field.' }]);
  });

  it('maxLength → too_long', () => {
    expect(itemsFor(draft({ text: 'x'.repeat(11) }))).toEqual([{ field: 'draft.text', code: 'too_long', message: 'draft.text must be at most 10 characters.' }]);
  });

  it('minLength 1 → required, longer minLength → too_short', () => {
    expect(itemsFor(draft({ text: '' }))).toEqual([{ field: 'draft.text', code: 'required', message: 'draft.text must not be empty.' }]);
    expect(itemsFor(draft({ code: 'ab' }))).toEqual([{ field: 'draft.code', code: 'too_short', message: 'draft.code must be at least 3 characters.' }]);
  });

  it('enum and const → unknown_value, listing what is allowed', () => {
    expect(itemsFor(draft({ type: 'essay' }))).toEqual([
      { field: 'draft.type', code: 'unknown_value', message: 'draft.type must be one of: "single_choice", "ranking".' },
    ]);
    expect(itemsFor(draft({ mode: 'slow' }))).toEqual([{ field: 'draft.mode', code: 'unknown_value', message: 'draft.mode must be one of: "fast".' }]);
  });

  it('type → invalid_format', () => {
    expect(itemsFor(draft({ n: 'ten' }))).toEqual([{ field: 'draft.n', code: 'invalid_format', message: 'draft.n must be an integer.' }]);
    expect(itemsFor(draft({ text: 5 }))).toEqual([{ field: 'draft.text', code: 'invalid_format', message: 'draft.text must be a string.' }]);
  });

  it('format and pattern → invalid_format', () => {
    expect(itemsFor(draft({ email: 'nope' }))).toEqual([{ field: 'draft.email', code: 'invalid_format', message: 'draft.email must be a valid email.' }]);
    expect(itemsFor(draft({ code: 'ABC' }))).toEqual([{ field: 'draft.code', code: 'invalid_format', message: 'draft.code is not in the expected format.' }]);
  });

  it('maxItems → too_many, minItems → too_few', () => {
    const options = (count: number) => Array.from({ length: count }, (_, i) => ({ label: `o${i}` }));
    expect(itemsFor(draft({ options: options(4) }))).toEqual([{ field: 'draft.options', code: 'too_many', message: 'draft.options may have at most 3 items.' }]);
    expect(itemsFor(draft({ options: options(1) }))).toEqual([{ field: 'draft.options', code: 'too_few', message: 'draft.options needs at least 2 items.' }]);
  });

  it('minimum/maximum → out_of_range', () => {
    expect(itemsFor(draft({ n: 5 }))).toEqual([{ field: 'draft.n', code: 'out_of_range', message: 'draft.n must be at least 10.' }]);
    expect(itemsFor(draft({ n: 501 }))).toEqual([{ field: 'draft.n', code: 'out_of_range', message: 'draft.n must be at most 500.' }]);
  });

  it('names array items by index', () => {
    expect(itemsFor(draft({ options: [{ label: 'ok' }, { label: 'far too long' }] }))).toEqual([
      { field: 'draft.options[1].label', code: 'too_long', message: 'draft.options[1].label must be at most 5 characters.' },
    ]);
  });

  it('gives one item per field, the most basic problem winning', () => {
    // "ABCDEFG" breaks both the pattern and maxLength: the format is the more basic problem.
    const items = itemsFor(draft({ code: 'ABCDEFG', n: 1, extra: true }));
    expect(items).toHaveLength(3);
    expect(items).toEqual(
      expect.arrayContaining([
        { field: 'draft.code', code: 'invalid_format', message: 'draft.code is not in the expected format.' },
        { field: 'draft.n', code: 'out_of_range', message: 'draft.n must be at least 10.' },
        { field: 'draft.extra', code: 'not_allowed', message: 'draft.extra is not a known field.' },
      ]),
    );
    expect(new Set(items.map((i) => i.field)).size).toBe(items.length);
  });

  it('leaves out anyOf summaries and keeps the branch errors', () => {
    const items = itemsFor(draft({ either: 1.5 }));
    expect(items).toEqual([{ field: 'draft.either', code: 'invalid_format', message: expect.stringMatching(/^draft\.either must be an? /) }]);
  });

  it('a value of one branch\'s form hears only that branch\'s problems; a value of no branch\'s form hears every form', () => {
    expect(itemsFor(draft({ stop: { rule: 'x', level: 2 } }))).toEqual([{ field: 'draft.stop.level', code: 'out_of_range', message: 'draft.stop.level must be at most 1.' }]);
    expect(itemsFor(draft({ stop: 5 }))).toEqual([{ field: 'draft.stop', code: 'invalid_format', message: 'draft.stop must be a string or an object.' }]);
    expect(itemsFor(draft({ stop: 'sometimes' }))).toEqual([expect.objectContaining({ field: 'draft.stop' })]);
  });

  it('puts a prefix in front of every field', () => {
    expect(itemsFor(draft({ n: 'x' }), 'body')).toEqual([{ field: 'body.draft.n', code: 'invalid_format', message: 'body.draft.n must be an integer.' }]);
  });

  it('names the body itself when the whole value is wrong', () => {
    expect(itemsFor('text')).toEqual([{ field: 'body', code: 'invalid_format', message: 'body must be an object.' }]);
  });
});

describe('compileFor', () => {
  it('does not coerce bodies but coerces query strings', () => {
    const schema = Type.Object({ n: Type.Integer() });
    expect(compileFor('body', schema)({ n: '5' })).toBe(false);
    const query = { n: '5' };
    expect(compileFor('querystring', schema)(query)).toBe(true);
    expect(query).toEqual({ n: 5 });
  });
});
