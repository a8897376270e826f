import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createListeningApp } from '../helpers/http-browser.ts';
import { ask, fundedKey, NO_RATE_LIMITS } from '../helpers/questions.ts';
import type { TestApp, TestKey } from '../helpers/test-app.ts';

/**
 * A parked `wait` whose client goes away (a closed tab, a killed script, a proxy timing out)
 * frees its place at once instead of holding it for the rest of its seconds: the open waits
 * (the `headcount_waits_open` gauge, what a stop has to answer) count only callers still there.
 */
let t: TestApp & { baseUrl: string };
let key: TestKey;

beforeAll(async () => {
  t = await createListeningApp({ env: { ...NO_RATE_LIMITS } });
  key = await fundedKey(t, 10_000);
});
afterAll(async () => {
  await t?.close();
});

async function until(condition: () => boolean, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

describe('a wait whose client disconnects', () => {
  it('is no longer parked within a moment of the connection closing, and the next wait still parks and answers', async () => {
    const question = await ask(t, key);
    const url = new URL(`/v2/questions/${question.id}/wait?seconds=25`, t.baseUrl);
    const request = http.get(url, { headers: key.auth });
    request.on('error', () => undefined);
    await until(() => t.container.waits.waiting() === 1, 5_000);
    const freedIn = await until(() => (request.destroy(), t.container.waits.waiting() === 0), 2_000);
    expect(freedIn).toBeLessThan(2_000);

    // A caller that stays is answered as before (done false after its seconds).
    const started = Date.now();
    const response = await fetch(new URL(`/v2/questions/${question.id}/wait?seconds=1`, t.baseUrl), { headers: key.auth });
    expect(response.status).toBe(200);
    expect((await response.json()) as { done: boolean }).toMatchObject({ done: false });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(t.container.waits.waiting()).toBe(0);
  });
});
