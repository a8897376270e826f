import { describe, expect, expectTypeOf, it } from 'vitest';
import { ERRORS } from '../../../src/lib/errors.ts';
import { HEADCOUNT_ERROR_CODES, HeadcountError, type HeadcountErrorCode } from './errors.ts';

describe('the error codes', () => {
  it("are exactly the service's catalogue (src/lib/errors.ts), so the typed union neither misses nor invents one", () => {
    expect([...HEADCOUNT_ERROR_CODES].sort()).toEqual(Object.keys(ERRORS).sort());
  });
});

describe('HeadcountError', () => {
  const error = new HeadcountError({ status: 402, code: 'insufficient_credits', message: 'Not enough', details: { needed: 120, available: 10 }, requestId: 'r1', retryAfter: null });

  it('carries the envelope', () => {
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('HeadcountError');
    expect(error).toMatchObject({ status: 402, code: 'insufficient_credits', message: 'Not enough', details: { needed: 120, available: 10 }, requestId: 'r1', retryAfter: null });
    expect(error.validation).toEqual([]);
  });

  it('narrows by code', () => {
    const caught: unknown = error;
    expect(HeadcountError.is(caught, 'insufficient_credits', 'spend_cap_exceeded')).toBe(true);
    expect(HeadcountError.is(caught, 'not_found')).toBe(false);
    expect(HeadcountError.is(new Error('x'))).toBe(false);
    if (HeadcountError.is(caught, 'insufficient_credits')) expectTypeOf(caught.code).toEqualTypeOf<'insufficient_credits'>();
    // Comparing with a code reads well and autocompletes; the union also admits a newer service's codes.
    expectTypeOf(error.code).toMatchTypeOf<string>();
    expectTypeOf<'validation_failed'>().toMatchTypeOf<HeadcountErrorCode>();
    // @ts-expect-error a code the service does not have
    HeadcountError.is(caught, 'insufficient_credit');
  });
});
