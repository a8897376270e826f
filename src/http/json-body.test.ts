import { describe, expect, it } from 'vitest';
import { checkJsonValue, findUnsafeString, MAX_JSON_DEPTH } from './json-body.ts';

/** `depth` arrays (or objects) inside one another around `inner`. */
function nested(depth: number, inner: unknown = 1, kind: 'array' | 'object' = 'array'): unknown {
  let value = inner;
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

describe('findUnsafeString', () => {
  it('names the first field with a NUL or a lone surrogate, in document order', () => {
    expect(findUnsafeString({ a: 'ok', b: ['x', 'y\u0000'], c: '\ud800' })).toBe('b[1]');
    expect(findUnsafeString({ draft: { options: [{ label: 'A' }, { label: 'B\udc00' }] } })).toBe('draft.options[1].label');
    expect(findUnsafeString({ ['k\u0000']: 1 })).toBe('k\u0000');
    expect(findUnsafeString('top\u0000')).toBe('body');
  });

  it('passes clean text, emoji and other surrogate pairs', () => {
    expect(findUnsafeString({ a: 'héllo 👋', b: [1, true, null, { c: '日本' }] })).toBeNull();
  });

  it('does not overflow the stack on very deep values', () => {
    expect(findUnsafeString(nested(200_000, 'x\u0000'))).toMatch(/\[0\]$/);
    expect(findUnsafeString(nested(200_000, 'fine', 'object'))).toBeNull();
  });
});

describe('checkJsonValue', () => {
  it(`accepts nesting up to ${MAX_JSON_DEPTH} levels`, () => {
    expect(checkJsonValue(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(checkJsonValue(nested(MAX_JSON_DEPTH, 1, 'object'))).toBeNull();
    expect(checkJsonValue({ wide: Array.from({ length: 10_000 }, (_, i) => ({ i })) })).toBeNull();
  });

  it('refuses deeper nesting, as a validation item on the body', () => {
    for (const value of [nested(MAX_JSON_DEPTH + 1), nested(MAX_JSON_DEPTH + 1, 1, 'object'), nested(1_000_000)]) {
      expect(checkJsonValue(value)).toEqual({ field: 'body', code: 'too_many', message: `The body is nested more than ${MAX_JSON_DEPTH} levels deep.` });
    }
  });

  it('names an unsafe string as before', () => {
    expect(checkJsonValue({ a: ['\u0000'] })).toEqual({ field: 'a[0]', code: 'invalid_format', message: 'a[0] contains a NUL character or broken Unicode.' });
  });
});
