import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { neverReachedServer, parseRetryAfter, retryableStatus, retryDelayMs, safeToRepeat } from './retry.ts';

describe('which requests are safe to repeat', () => {
  it('reads, PUT and DELETE are; POST and PATCH only with an Idempotency-Key', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']) expect(safeToRepeat(method, false)).toBe(true);
    for (const method of ['POST', 'PATCH']) {
      expect(safeToRepeat(method, false)).toBe(false);
      expect(safeToRepeat(method, true)).toBe(true);
    }
  });
});

describe('which statuses are retried', () => {
  it('429, 503 and 408 always (nothing was done); 502 and 504 only when safe; 409 only while the same key is in progress', () => {
    for (const safe of [true, false]) {
      for (const status of [408, 429, 503]) expect(retryableStatus(status, undefined, safe)).toBe(true);
      for (const status of [502, 504]) expect(retryableStatus(status, undefined, safe)).toBe(safe);
      for (const status of [400, 401, 402, 403, 404, 413, 415, 422, 500]) expect(retryableStatus(status, undefined, safe)).toBe(false);
    }
    expect(retryableStatus(409, 'idempotency_in_progress', true)).toBe(true);
    expect(retryableStatus(409, 'idempotency_conflict', true)).toBe(false);
    expect(retryableStatus(409, 'conflict', true)).toBe(false);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');
  it('reads delta-seconds and HTTP dates (a past date is 0)', () => {
    expect(parseRetryAfter('3', now)).toBe(3);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sat, 28 Nov 2026 12:00:05 GMT', now)).toBe(5);
    expect(parseRetryAfter('Sat, 28 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });
  it('is null when absent or unreadable', () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-1', now)).toBeNull();
  });
});

describe('the delay before a retry', () => {
  it('is the Retry-After, plus at most 10% of it', () => {
    expect(retryDelayMs(0, 2, () => 0)).toBe(2000);
    expect(retryDelayMs(5, 2, () => 0.999)).toBeLessThanOrEqual(2200);
  });
  it('else doubles from 0.5 s up to 8 s, jittered within the upper half', () => {
    const lows = [0, 1, 2, 3, 4, 5, 6].map((retry) => retryDelayMs(retry, null, () => 0));
    const highs = [0, 1, 2, 3, 4, 5, 6].map((retry) => retryDelayMs(retry, null, () => 1));
    expect(highs).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(lows).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000]);
  });
});

describe('a connection that was never made', () => {
  const caused = (code: string) => new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });

  it('is recognised from the codes Node and Deno give, on the error, its cause, or an AggregateError of addresses', () => {
    expect(neverReachedServer(caused('ECONNREFUSED'))).toBe(true);
    expect(neverReachedServer(caused('ENOTFOUND'))).toBe(true);
    expect(neverReachedServer(caused('UND_ERR_CONNECT_TIMEOUT'))).toBe(true);
    const aggregate = new AggregateError([Object.assign(new Error('v6'), { code: 'ECONNREFUSED' }), Object.assign(new Error('v4'), { code: 'ECONNREFUSED' })]);
    expect(neverReachedServer(new TypeError('fetch failed', { cause: aggregate }))).toBe(true);
    const deno = new TypeError('error sending request', { cause: Object.assign(new Error('Connection refused'), { name: 'ConnectionRefused' }) });
    expect(neverReachedServer(deno)).toBe(true);
  });

  it('is not assumed when the request may have been sent, or when the runtime does not say', () => {
    expect(neverReachedServer(caused('ECONNRESET'))).toBe(false);
    expect(neverReachedServer(caused('UND_ERR_SOCKET'))).toBe(false);
    expect(neverReachedServer(new TypeError('Failed to fetch'))).toBe(false);
    expect(neverReachedServer(undefined)).toBe(false);
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    expect(neverReachedServer(loop)).toBe(false);
  });

  it("is what Node's own fetch reports for a closed port", async () => {
    // A port that was listening a moment ago and is closed now.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const error = await fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(neverReachedServer(error)).toBe(true);
  });
});
