import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('health', () => {
  it('GET /healthz says the process is up', async () => {
    const response = await t.inject('/healthz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz says the database answers and every migration is applied', async () => {
    const response = await t.inject('/readyz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'applied' });
  });
});

describe('unknown routes', () => {
  it('answer 404 not_found in the error envelope, with the request id in body and header', async () => {
    const response = await t.inject({ method: 'GET', url: '/v2/no-such-thing?x=1' });
    expect(response.statusCode).toBe(404);
    const { error } = response.json();
    expect(error.code).toBe('not_found');
    expect(error.message).toBe('No route GET /v2/no-such-thing.');
    expect(typeof error.requestId).toBe('string');
    expect(error.requestId.length).toBeGreaterThan(0);
    expect(response.headers['x-request-id']).toBe(error.requestId);
  });

  it('answer 404 for a method a known path does not have', async () => {
    const response = await t.inject({ method: 'DELETE', url: '/healthz' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
  });

  it('give every request its own id', async () => {
    const a = await t.inject('/nowhere');
    const b = await t.inject('/nowhere');
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});

describe('x-request-id', () => {
  it('keeps a safe id the caller sends', async () => {
    const response = await t.inject({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': 'trace-42.a:b_c' } });
    expect(response.headers['x-request-id']).toBe('trace-42.a:b_c');
    expect(response.json().error.requestId).toBe('trace-42.a:b_c');
  });

  it('echoes it on success too', async () => {
    const response = await t.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'ok-1' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-request-id']).toBe('ok-1');
  });

  it.each([
    ['a space', 'has space'],
    ['a line break', 'forged\nlog line'],
    ['markup', '<script>'],
    ['too long', 'x'.repeat(65)],
    ['empty', ''],
  ])('replaces an unsafe one (%s)', async (_label, given) => {
    const response = await t.inject({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': given } });
    const id = response.headers['x-request-id'];
    expect(id).not.toBe(given);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.json().error.requestId).toBe(id);
  });
});
