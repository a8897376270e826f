import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTurnstile } from './turnstile.ts';

/**
 * The human check's client against a local siteverify that answers at once, or never: the check
 * is bounded by its timeout and fails closed (the integration suite covers the rest through the
 * answer page's route: answer-link.test.ts).
 */
let server: http.Server;
let url = '';
const held: http.ServerResponse[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const fields = new URLSearchParams(body);
      if (fields.get('response') === 'hang') return void held.push(response);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ success: fields.get('secret') === 'secret' && fields.get('response') === 'good', 'error-codes': [] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/turnstile/v0/siteverify`;
});

afterAll(async () => {
  for (const response of held) response.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('turnstile verify', () => {
  it('is true for a token siteverify accepts, false for one it refuses or none', async () => {
    const check = createTurnstile({ secret: 'secret', verifyUrl: url });
    expect(await check.verify('good', '203.0.113.7')).toBe(true);
    expect(await check.verify('bad', '203.0.113.7')).toBe(false);
    expect(await check.verify(undefined, '203.0.113.7')).toBe(false);
  });

  it('fails closed once siteverify has not answered within the timeout', async () => {
    const check = createTurnstile({ secret: 'secret', verifyUrl: url, timeoutMs: 300 });
    const started = performance.now();
    expect(await check.verify('hang', '203.0.113.7')).toBe(false);
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(3000);
    // The same client still checks the next token (the timed-out connection is not reused).
    expect(await check.verify('good', '203.0.113.7')).toBe(true);
  });

  it('is off without a secret: every check passes', async () => {
    const check = createTurnstile({ secret: null, verifyUrl: url });
    expect(check.enabled).toBe(false);
    expect(await check.verify(undefined, '203.0.113.7')).toBe(true);
  });
});
