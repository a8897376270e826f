import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { fieldsKey, pickFields, resultFields } from './result-fields.ts';
import { RESULT_FIELDS, type Result } from './results.schemas.ts';

describe('fields of a result', () => {
  it('none: the full Result', () => {
    expect(resultFields(undefined)).toBeNull();
    expect(fieldsKey(null)).toBe('');
  });

  it('in the Result’s own order, without repeats, spaces around commas allowed', () => {
    const fields = resultFields('summary, distribution,nAccepted,summary');
    expect(fields).toEqual(['nAccepted', 'distribution', 'summary']);
    expect(fieldsKey(fields)).toBe('nAccepted,distribution,summary');
    expect(resultFields(RESULT_FIELDS.join(','))).toEqual(RESULT_FIELDS);
  });

  it('an unknown name is a validation error naming it', () => {
    let error: unknown;
    try {
      resultFields('distribution,n,colour');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('validation_failed');
    expect((error as AppError).details).toMatchObject({ validation: [{ field: 'fields', code: 'unknown_value', message: expect.stringMatching(/"n", "colour"/) }] });
  });

  it('picks only the fields asked for; one the Result leaves out stays out', () => {
    const result = { questionId: 'q_1', status: 'complete', nAccepted: 3, nRequested: 10, mean: null } as unknown as Result;
    expect(pickFields(result, ['nAccepted', 'mean', 'clicks'])).toEqual({ nAccepted: 3, mean: null });
  });
});
