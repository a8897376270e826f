import { HeadcountConnectionError, HeadcountError, HeadcountTimeoutError } from '@headcount/sdk';
import { describe, expect, it } from 'vitest';
import { AuthError, EXIT, exitCodeFor, formatError, HttpError, InterruptedError, UsageError, WaitTimeoutError } from './exit-codes.ts';

const apiError = (status: number, code: string, extra: Partial<ConstructorParameters<typeof HeadcountError>[0]> = {}) =>
  new HeadcountError({ status, code, message: `${code} happened.`, requestId: 'req_abc123', ...extra });

describe('exit codes', () => {
  it('each kind of failure has its own code', () => {
    expect(exitCodeFor(apiError(400, 'validation_failed'))).toBe(EXIT.api);
    expect(exitCodeFor(apiError(404, 'not_found'))).toBe(EXIT.api);
    expect(exitCodeFor(apiError(409, 'conflict'))).toBe(EXIT.api);
    expect(exitCodeFor(apiError(422, 'content_refused'))).toBe(EXIT.api);
    expect(exitCodeFor(apiError(401, 'unauthorized'))).toBe(EXIT.auth);
    expect(exitCodeFor(apiError(403, 'insufficient_scope'))).toBe(EXIT.auth);
    expect(exitCodeFor(new AuthError('Not signed in'))).toBe(EXIT.auth);
    expect(exitCodeFor(apiError(402, 'insufficient_credits'))).toBe(EXIT.credits);
    expect(exitCodeFor(apiError(402, 'spend_cap_exceeded'))).toBe(EXIT.credits);
    expect(exitCodeFor(apiError(503, 'service_unavailable'))).toBe(EXIT.unavailable);
    expect(exitCodeFor(apiError(500, 'internal'))).toBe(EXIT.unavailable);
    expect(exitCodeFor(apiError(429, 'rate_limited'))).toBe(EXIT.unavailable);
    expect(exitCodeFor(new HeadcountConnectionError('could not reach'))).toBe(EXIT.unavailable);
    expect(exitCodeFor(new HeadcountTimeoutError('slow', { timeoutMs: 10 }))).toBe(EXIT.unavailable);
    expect(exitCodeFor(new HttpError(503, 'server_error', 'down', null))).toBe(EXIT.unavailable);
    expect(exitCodeFor(new UsageError('bad flag'))).toBe(EXIT.usage);
    expect(exitCodeFor(new WaitTimeoutError('q_1', 30))).toBe(EXIT.waitTimeout);
    expect(exitCodeFor(new InterruptedError('Ctrl-C'))).toBe(EXIT.interrupted);
    expect(Object.values(EXIT)).toEqual([0, 1, 2, 3, 4, 5, 6, 130]);
  });
});

describe('the error line', () => {
  it("names the API's code and the request id on one line", () => {
    expect(formatError(apiError(402, 'insufficient_credits', { message: 'You need 600 credits\nand have 120.' }))).toBe('Error: insufficient_credits: You need 600 credits and have 120. (request req_abc123)');
  });

  it('validation items follow, one a line, field first', () => {
    const error = apiError(400, 'validation_failed', {
      message: 'Invalid body.',
      details: { validation: [{ field: 'draft.options', code: 'too_few', message: 'draft.options must have at least 2 items.' }] },
    });
    expect(formatError(error)).toBe('Error: validation_failed: Invalid body. (request req_abc123)\n  - draft.options: draft.options must have at least 2 items. (too_few)');
  });

  it('a rate limit says when to try again; a network failure says what failed', () => {
    expect(formatError(apiError(429, 'rate_limited', { retryAfter: 12 }))).toContain('\n  Try again in 12 s.');
    const refused = new HeadcountConnectionError('listQuestions: could not reach http://127.0.0.1:9 (fetch failed: connect ECONNREFUSED 127.0.0.1:9)');
    expect(formatError(refused)).toBe('Error: network: listQuestions: could not reach http://127.0.0.1:9 (fetch failed: connect ECONNREFUSED 127.0.0.1:9)');
  });
});
