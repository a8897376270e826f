import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { createResponseValidator } from '../helpers/openapi-validator.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { createContainer, type Container } from '../../src/container.ts';
import { buildApp } from '../../src/app.ts';
import { createPostgresNotifier, type Notifier } from '../../src/lib/notifier.ts';
import { answer, answerAll, ask, choiceDraft, errorOf, expectReconciled, getQuestion, grant, ledgerRowsOf, money, seedHeads, sleep, type Head, type Json, NO_RATE_LIMITS } from '../helpers/questions.ts';

/**
 * GET /v2/questions/{id}/wait (spec "Questions", Limits "wait duration"; docs/lifecycle.md
 * "Waiting for the answer"): long polling with real timers. Returns done false after `seconds`,
 * done true as soon as the question closes or reaches minAnswers (completing it early with a
 * refund), wakes many waiters at once, and across processes through LISTEN/NOTIFY on PostgreSQL.
 */
let t: TestApp;
let heads: Head[];
let key: TestKey;
beforeAll(async () => {
  t = await createTestApp({ env: NO_RATE_LIMITS });
  heads = await seedHeads(t, 20);
  key = await t.makeKey();
  await grant(t, key.accountId, 1_000_000);
});
afterAll(async () => {
  await t?.close();
});

/**
 * "At once" for a wait that must not park: alone these take 20-160 ms, but CI runs this file beside
 * another worker and a browser on two cores, where one took 2 s (and a 1-second wait 4.3 s). The
 * bound only has to tell "did not park" from "parked": the shortest park here is 10 s (`seconds`)
 * and the safety re-check every 5 s would end a missed one, so anything under 4 s is "at once".
 */
const AT_ONCE = 4_000;

async function wait(query: string, id: string, as: TestKey = key): Promise<{ status: number; body: Json; ms: number }> {
  const started = performance.now();
  const response = await t.inject({ method: 'GET', url: `/v2/questions/${id}/wait${query}`, headers: as.auth });
  return { status: response.statusCode, body: response.json(), ms: performance.now() - started };
}

/** Resolves once `count` requests are waiting (so the test acts while they are parked, not before). */
async function parked(count: number, container: Container = t.container): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (container.waits.waiting() < count) {
    if (Date.now() > deadline) throw new Error(`only ${container.waits.waiting()} of ${count} requests are waiting`);
    await sleep(10);
  }
}

describe('timing out', () => {
  it('seconds=1 on a live question returns done false after about a second, with the partial result', async () => {
    const question = await ask(t, key, choiceDraft());
    await answer(t, question.id, heads[0]);
    const { status, body, ms } = await wait('?seconds=1', question.id);
    expect(status).toBe(200);
    expect(body.done).toBe(false);
    expect(body.result).toMatchObject({ questionId: question.id, status: 'in_progress', nRequested: 10, nAccepted: 1 });
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(10_000); // not the default 25 s (and see AT_ONCE for why so wide)
    expect((await getQuestion(t, key, question.id)).status).toBe('live');
  });

  it('the default of seconds is 25, as /openapi.json says (1 to 25)', async () => {
    const spec = (await t.inject({ method: 'GET', url: '/openapi.json' })).json();
    const parameters: Json[] = spec.paths['/v2/questions/{id}/wait'].get.parameters;
    const seconds = parameters.find((p) => p.name === 'seconds' && p.in === 'query');
    expect(seconds?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 25, default: 25 });
    const minAnswers = parameters.find((p) => p.name === 'minAnswers' && p.in === 'query');
    expect(minAnswers?.schema).toMatchObject({ type: 'integer', minimum: 1 });
  });

  it.each(['?seconds=26', '?seconds=0', '?seconds=1.5', '?minAnswers=0', '?seconds=abc', '?colour=red'])('%s is 400', async (query) => {
    const question = await ask(t, key, choiceDraft());
    const started = performance.now();
    const response = await t.inject({ method: 'GET', url: `/v2/questions/${question.id}/wait${query}`, headers: key.auth });
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response).code).toBe('validation_failed');
    expect(performance.now() - started).toBeLessThan(AT_ONCE);
  });

  it('needs questions:read (403 without it)', async () => {
    const question = await ask(t, key, choiceDraft());
    const writer = await t.makeKey(['questions:write'], null, { accountId: key.accountId });
    expect((await t.inject({ method: 'GET', url: `/v2/questions/${question.id}/wait?seconds=1`, headers: writer.auth })).statusCode).toBe(403);
  });
});

describe('waking up', () => {
  it('returns done true at once for a question already closed', async () => {
    const question = await ask(t, key, choiceDraft());
    await t.inject({ method: 'POST', url: `/v2/questions/${question.id}/cancel`, headers: key.auth });
    const { body, ms } = await wait('?seconds=10', question.id);
    expect(body).toMatchObject({ done: true, result: { status: 'cancelled' } });
    expect(ms).toBeLessThan(AT_ONCE);
  });

  it('returns done true as soon as the n-th answer is recorded, long before seconds', async () => {
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 9));
    const waiting = wait('?seconds=10', question.id);
    await sleep(300);
    await answer(t, question.id, heads[9]);
    const { status, body, ms } = await waiting;
    expect(status).toBe(200);
    expect(body.done).toBe(true);
    expect(body.result).toMatchObject({ status: 'complete', nAccepted: 10, nRequested: 10 });
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(3_000);
  });

  it('a burst of answers that completes the question wakes the waiter at once (no lost wake-up)', async () => {
    const question = await ask(t, key, choiceDraft());
    const waiting = wait('?seconds=20', question.id);
    await parked(1);
    const burst = performance.now();
    await Promise.all(heads.slice(0, 10).map((head) => answer(t, question.id, head)));
    const answeredAt = performance.now() - burst;
    const { body, ms } = await waiting;
    expect(body.done).toBe(true);
    expect(body.result.status).toBe('complete');
    // The safety re-check every 5 s would also end it; a wake-up must do it well before.
    expect(ms - answeredAt).toBeLessThan(2_000);
  });

  it('minAnswers already reached: done true at once, and the question completes early with a refund', async () => {
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 2));
    const before = await money(t, key);
    const { body, ms } = await wait('?seconds=10&minAnswers=2', question.id);
    expect(body.done).toBe(true);
    expect(body.result).toMatchObject({ status: 'complete', nAccepted: 2 });
    expect(ms).toBeLessThan(AT_ONCE);
    expect(await getQuestion(t, key, question.id)).toMatchObject({ status: 'complete', answered: 2, creditsSpent: 24, closedAt: t.clock.now().toISOString() });
    expect((await ledgerRowsOf(t, key, question.id)).map((r) => [r.kind, r.amount])).toEqual([['ask', -120], ['refund', 96]]);
    const after = await money(t, key);
    expect(after.reserved).toBe(before.reserved - 96);
    expect(after.credits).toBe(before.credits);
    expect(await answer(t, question.id, heads[5])).toMatchObject({ accepted: false, reason: 'not_live' });
    await expectReconciled(t);
  });

  it('minAnswers reached while waiting: wakes, completes early and refunds the rest', async () => {
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 2));
    const waiting = wait('?seconds=10&minAnswers=3', question.id);
    await parked(1);
    await answer(t, question.id, heads[2]);
    const { body, ms } = await waiting;
    expect(body).toMatchObject({ done: true, result: { status: 'complete', nAccepted: 3 } });
    expect(ms).toBeLessThan(3_000);
    expect(await getQuestion(t, key, question.id)).toMatchObject({ status: 'complete', answered: 3 });
    expect((await ledgerRowsOf(t, key, question.id)).filter((r) => r.kind === 'refund').map((r) => r.amount)).toEqual([84]);
    await expectReconciled(t);
  });

  it('minAnswers not reached: done false after seconds, the question stays live', async () => {
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 2));
    const { body } = await wait('?seconds=1&minAnswers=3', question.id);
    expect(body).toMatchObject({ done: false, result: { status: 'in_progress', nAccepted: 2 } });
    expect((await getQuestion(t, key, question.id)).status).toBe('live');
  });

  it('minAnswers is any integer at least 1 (spec), with no upper cap: above n it waits for the close; PATCH keeps 1 to 5000', async () => {
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 2));
    for (const minAnswers of [5001, 1_000_000_000_000]) {
      const { status, body } = await wait(`?seconds=1&minAnswers=${minAnswers}`, question.id);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body).toMatchObject({ done: false, result: { status: 'in_progress', nAccepted: 2 } });
    }
    const spec = (await t.inject({ method: 'GET', url: '/openapi.json' })).json();
    const minAnswers = spec.paths['/v2/questions/{id}/wait'].get.parameters.find((p: Json) => p.name === 'minAnswers');
    expect(minAnswers.schema.maximum).toBeUndefined();
    const patch = await t.inject({ method: 'PATCH', url: `/v2/questions/${question.id}`, headers: key.auth, payload: { minAnswers: 5001 } });
    expect(patch.statusCode).toBe(400);
    // The n-th answer closes it, whatever minAnswers the waiter gave.
    const waiting = wait('?seconds=10&minAnswers=5001', question.id);
    await parked(1);
    await answerAll(t, question.id, heads.slice(2, 10));
    expect((await waiting).body).toMatchObject({ done: true, result: { status: 'complete', nAccepted: 10 } });
  });

  it('a cancel wakes the waiter with done true', async () => {
    const question = await ask(t, key, choiceDraft());
    const waiting = wait('?seconds=10', question.id);
    await parked(1);
    await t.inject({ method: 'POST', url: `/v2/questions/${question.id}/cancel`, headers: key.auth });
    const { body, ms } = await waiting;
    expect(body).toMatchObject({ done: true, result: { status: 'cancelled' } });
    expect(ms).toBeLessThan(3_000);
  });

  it('the body is compressed for a client whose Accept-Encoding allows it (the same JSON), as it is for others', async () => {
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 10));
    const url = `/v2/questions/${question.id}/wait?seconds=5`;
    const plain = await t.inject({ method: 'GET', url, headers: key.auth });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    expect(plain.json()).toMatchObject({ done: true, result: { status: 'complete' } });
    const decoders = { gzip: zlib.gunzipSync, br: zlib.brotliDecompressSync };
    for (const coding of ['gzip', 'br'] as const) {
      // app.inject: t.inject checks bodies against /openapi.json as JSON, and this one is compressed.
      const response = await t.app.inject({ method: 'GET', url, headers: { ...key.auth, 'accept-encoding': coding } });
      expect(response.headers['content-encoding']).toBe(coding);
      expect(response.headers.vary).toBe('accept-encoding');
      expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(decoders[coding](response.rawPayload).toString('utf8')).toBe(plain.body);
    }
  });

  it('200 concurrent waits on one question all wake on completion', async () => {
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 9));
    const started = performance.now();
    const waits = Array.from({ length: 200 }, () => wait('?seconds=20', question.id));
    await parked(200);
    const parkedAfter = performance.now() - started;
    const completedAt = performance.now();
    await answer(t, question.id, heads[9]);
    const results = await Promise.all(waits);
    const latest = Math.max(...results.map((r) => started + r.ms)) - completedAt;
    console.info(`200 waits: parked after ${Math.round(parkedAfter)} ms; all answered ${Math.round(latest)} ms after the completing answer`);
    expect(results.every((r) => r.status === 200 && r.body.done === true && r.body.result.status === 'complete')).toBe(true);
    // One Result, serialized once for all of them: the same body as a plain GET of the result.
    const fresh = await t.inject({ method: 'GET', url: `/v2/questions/${question.id}/result`, headers: key.auth });
    for (const r of results) expect(r.body).toEqual({ result: fresh.json().result, done: true });
    // Well before the 20 s timeout (done: true above); generous because CI machines are busy.
    expect(latest).toBeLessThan(10_000);
    expect(t.container.waits.waiting()).toBe(0);
  }, 60_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('two processes on one PostgreSQL database', () => {
  const log = { error: () => {} };
  let a: { database: Database; notifier: Notifier; container: Container };
  let b: { database: Database; notifier: Notifier; container: Container; app: FastifyInstance };
  let check: ReturnType<typeof createResponseValidator>;

  async function instance() {
    const database = await openDatabase(t.config);
    const notifier = createPostgresNotifier(database.connection, database.pool, log);
    await notifier.start();
    const container = createContainer(t.config, database, t.clock, { notifier });
    return { database, notifier, container };
  }

  beforeAll(async () => {
    a = await instance();
    const other = await instance();
    const app = await buildApp(other.container, { logger: false });
    await app.ready();
    b = { ...other, app };
    check = createResponseValidator((await app.inject({ method: 'GET', url: '/openapi.json' })).json());
  });
  afterAll(async () => {
    await b?.app.close();
    for (const side of [a, b]) {
      await side?.notifier.stop();
      await side?.database.close();
    }
  });

  it('a wait on B wakes when A records the completing answer (LISTEN/NOTIFY)', async () => {
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 9));
    const url = `/v2/questions/${question.id}/wait?seconds=10`;
    const started = performance.now();
    const waiting = b.app.inject({ method: 'GET', url, headers: key.auth });
    await parked(1, b.container);
    const answeredAt = performance.now();
    const outcome = await a.container.answers.record(question.id, { headId: heads[9].id, source: 'panel', tier: heads[9].tier }, { option: 1 });
    expect(outcome).toMatchObject({ accepted: true, completed: true });
    const response = await waiting;
    const wokeAfter = performance.now() - answeredAt;
    check.check({ method: 'GET', url, statusCode: response.statusCode, headers: response.headers, body: response.body });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ done: true, result: { status: 'complete', nAccepted: 10 } });
    console.info(`cross-process wake-up ${Math.round(wokeAfter)} ms after the answer (waited ${Math.round(performance.now() - started)} ms in all)`);
    // Well before the 5-second safety re-check: the NOTIFY woke it.
    expect(wokeAfter).toBeLessThan(2_500);
  });

  it("a result B keeps is read again once A's change is announced by the database itself, even a change no service announced", async () => {
    const question = await ask(t, key, choiceDraft());
    await answerAll(t, question.id, heads.slice(0, 3));
    await sleep(300); // the test process's own announcements of those reach B first
    const read = () => b.container.results.forAccount(key.accountId, question.id);
    const first = await read();
    const before = b.container.results.cacheStats().keptHits;
    expect(await read()).toBe(first); // kept: LISTEN is up, nothing changed
    expect(b.container.results.cacheStats().keptHits).toBe(before + 1);
    // A (another process) writes behind every service's back: only migration 0022's trigger tells B.
    await a.database.db.updateTable('questions').set({ n: first.nRequested + 5 }).where('id', '=', question.id).execute();
    const deadline = Date.now() + 2_000;
    let seen = first.nRequested;
    while (seen === first.nRequested && Date.now() < deadline) {
      seen = (await read()).nRequested;
      await sleep(5);
    }
    expect(seen).toBe(first.nRequested + 5);
  });

  it("B does not hear its own writes back from the database (it knows them already)", async () => {
    const question = await ask(t, key, choiceDraft());
    await sleep(300); // the ask's announcement (another process's) reaches B first
    const heard: string[] = [];
    const stop = b.notifier.subscribe((id) => heard.push(id));
    await b.database.db.updateTable('questions').set({ n: 11 }).where('id', '=', question.id).execute();
    await a.database.db.updateTable('questions').set({ n: 12 }).where('id', '=', question.id).execute();
    const deadline = Date.now() + 2_000;
    while (!heard.includes(question.id) && Date.now() < deadline) await sleep(10);
    await sleep(300); // time for B's own echo to arrive, and be dropped
    stop();
    expect(heard.filter((id) => id === question.id)).toEqual([question.id]); // A's change only
  });
});

describe('stopping (issue 8, point 10; the started process is test/integration/graceful-stop.test.ts)', () => {
  it('closing the app answers every parked wait at once with its current result and done false; later calls do not park', async () => {
    // An app of its own (its own wait service) on this file's database, so closing it leaves `t` alone.
    const container = createContainer(t.config, t.database, t.clock);
    const app = await buildApp(container, { logger: false });
    await app.ready();
    const question = await ask(t, key, choiceDraft());
    await answer(t, question.id, heads[0]);
    const url = `/v2/questions/${question.id}/wait?seconds=20`;
    const waiting = Array.from({ length: 5 }, () => app.inject({ method: 'GET', url, headers: key.auth }));
    await parked(5, container);
    const closing = performance.now();
    await app.close();
    const responses = await Promise.all(waiting);
    // "At once" against parked: their own end is 20 s away. The bound leaves room for a loaded
    // two-core machine (CI once took 2.9 s here beside other suites), not for a parked wait.
    expect(performance.now() - closing).toBeLessThan(8_000);
    for (const response of responses) {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ done: false, result: { questionId: question.id, status: 'in_progress', nAccepted: 1 } });
    }
    expect(container.waits.waiting()).toBe(0);
    // A call that reaches the service after the stop began answers at once too (it never parks).
    const actor = await container.accounts.authenticate(key.secret);
    const started = performance.now();
    const late = await container.waits.wait(actor, question.id, 20);
    expect(late).toMatchObject({ done: false, result: { status: 'in_progress' } });
    expect(performance.now() - started).toBeLessThan(8_000);
  });
});
