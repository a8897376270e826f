import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { ask, askRaw, choiceDraft, grant, ledgerRowsOf, NO_RATE_LIMITS, sleep } from '../helpers/questions.ts';
import { newEmail, signIn } from '../helpers/people.ts';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { parseExposition, type Exposition } from '../helpers/prometheus.ts';
import { createJobRunner, type JobRunner } from '../../src/jobs/job-runner.ts';
import type { JobDefinition } from '../../src/lib/job.ts';
import { afterCommit, inTransaction } from '../../src/db/transaction.ts';

/**
 * Issue 16, point 3: `/metrics` in Prometheus's format, as an operator scrapes it. Off by default
 * (a 404 like any unknown path); with METRICS_TOKEN, only to that bearer token (401 in the error
 * envelope otherwise), never in /openapi.json. After real API traffic the counters move by exactly
 * what happened: an ask, answers through the answer link, a refund, webhook attempts, requests by
 * route pattern (never an id), a parked wait, the pool and the job queue.
 */
const TOKEN = 'metrics-token-0123456789abcdef';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has no /metrics: a 404 in the error envelope, with or without a credential', async () => {
    for (const headers of [{}, bearer(TOKEN)]) {
      const response = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
  });
});

describe('with METRICS_TOKEN', () => {
  let t: TestApp;
  let key: TestKey;
  let jobs: JobRunner | null = null;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN, ...NO_RATE_LIMITS } });
    key = await t.makeKey();
    await grant(t, key.accountId, 100_000);
  });
  afterAll(async () => {
    await jobs?.stop();
    await Promise.all(receivers.map((r) => r.stop().catch(() => undefined)));
    await t?.close();
  });

  async function scrape(): Promise<Exposition> {
    const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
    expect(response.statusCode, response.body).toBe(200);
    return parseExposition(response.body);
  }

  function expectRefused(response: LightMyRequestResponse): void {
    expect(response.statusCode).toBe(401);
    const { error } = response.json();
    expect(error).toMatchObject({ code: 'unauthorized', requestId: expect.any(String) });
    expect(error.message).toMatch(/METRICS_TOKEN/);
    expect(response.body).not.toContain('headcount_');
  }

  it('refuses a missing, wrong or malformed token with 401 in the error envelope', async () => {
    expectRefused(await t.app.inject({ method: 'GET', url: '/metrics' }));
    expectRefused(await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(`${TOKEN}x`) }));
    expectRefused(await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN.slice(0, -1)) }));
    expectRefused(await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` } }));
    // An API key is not the metrics token.
    expectRefused(await t.app.inject({ method: 'GET', url: '/metrics', headers: key.auth }));
  });

  it('serves the text exposition format to the right token, with the standard process metrics', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers['cache-control']).toBe('no-store');
    const metrics = parseExposition(response.body);
    expect(metrics.types.get('process_cpu_user_seconds_total')).toBe('counter');
    expect(metrics.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect(metrics.types.get('headcount_http_requests_total')).toBe('counter');
    expect(metrics.types.get('headcount_http_request_duration_seconds')).toBe('histogram');
  });

  it('is not part of the public API description', async () => {
    const spec = (await t.inject('/openapi.json')).json();
    expect(Object.keys(spec.paths).filter((path) => path.includes('metrics'))).toEqual([]);
  });

  it('is never rate-limited away from a scraper with the token', async () => {
    // The per-IP limit is 100000 here; a separate app with a limit of 2 shows the rule.
    const limited = await createTestApp({ env: { METRICS_TOKEN: TOKEN, RATE_LIMIT_PER_IP: '2' } });
    try {
      for (let i = 0; i < 5; i++) {
        const response = await limited.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN), remoteAddress: '198.51.100.7' });
        expect(response.statusCode).toBe(200);
      }
      // Without the token it counts like any request.
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await limited.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '198.51.100.8' })).statusCode);
      expect(statuses).toEqual([401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('counts an ask, link answers and requests by route pattern, by exactly what happened', async () => {
    const before = await scrape();
    const idempotencyKey = randomUUID();
    const question = await ask(t, key, choiceDraft({ n: 10 }), { idempotencyKey });
    // The same ask again under its key replays the stored 201 and creates nothing: not an ask.
    const replayed = await askRaw(t, key, { draft: choiceDraft({ n: 10 }) }, { idempotencyKey });
    expect(replayed.statusCode, replayed.body).toBe(201);
    expect(replayed.json().question.id).toBe(question.id);
    const n = 3;
    for (let i = 0; i < n; i++) {
      const response = await t.inject({
        method: 'POST',
        url: `/v1/public/link/${question.linkCode}/answers`,
        payload: { answer: { option: i % 2 }, nonce: randomUUID(), dwellMs: 4200, interrupted: false, locale: 'en-GB' },
        remoteAddress: `203.0.113.${i + 1}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().accepted).toBe(true);
    }
    expect((await t.inject({ method: 'GET', url: `/v2/questions/${question.id}`, headers: key.auth })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/no/such/path/${question.id}` })).statusCode).toBe(404);
    const after = await scrape();

    const moved = (name: string, labels: Record<string, string> = {}) => after.sum(name, labels) - before.sum(name, labels);
    expect(moved('headcount_asks_total')).toBe(1);
    expect(moved('headcount_answers_total', { source: 'link' })).toBe(n);
    expect(moved('headcount_answers_total')).toBe(n);
    expect(moved('headcount_http_requests_total', { method: 'POST', route: '/v2/questions', status: '201' })).toBe(2);
    expect(moved('headcount_http_requests_total', { method: 'POST', route: '/v1/public/link/:code/answers', status: '200' })).toBe(n);
    expect(moved('headcount_http_requests_total', { method: 'GET', route: '/v2/questions/:id', status: '200' })).toBe(1);
    expect(moved('headcount_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    // The latency histogram has the same requests, by status class.
    expect(moved('headcount_http_request_duration_seconds_count', { method: 'POST', route: '/v2/questions', status_class: '2xx' })).toBe(2);
    expect(after.value('headcount_http_request_duration_seconds_bucket', { method: 'POST', route: '/v2/questions', status_class: '2xx', le: '+Inf' })).toBeGreaterThanOrEqual(2);
    // No id, code or raw path ever becomes a label.
    const labelValues = after.samples.flatMap((s) => Object.values(s.labels));
    expect(labelValues.filter((v) => v.includes(question.id) || v.includes(question.linkCode) || v.includes('/no/such'))).toEqual([]);
    // The scrapes themselves are requests too.
    expect(moved('headcount_http_requests_total', { method: 'GET', route: '/metrics', status: '200' })).toBe(1);
  });

  it('counts what a transaction did once it commits: never for an attempt that was retried or rolled back', async () => {
    let attempts = 0;
    const runs: string[] = [];
    await inTransaction(t.db, async (tx) => {
      attempts += 1;
      afterCommit(tx, () => runs.push(`attempt ${attempts}`));
      expect(runs).toEqual([]); // not before the commit
      // A serialization failure on the first attempt: inTransaction runs the work again.
      if (attempts === 1) throw Object.assign(new Error('could not serialize access'), { code: '40001' });
    });
    expect({ attempts, runs }).toEqual({ attempts: 2, runs: ['attempt 2'] });
    await expect(inTransaction(t.db, async (tx) => {
      afterCommit(tx, () => runs.push('rolled back'));
      throw new Error('the work failed');
    })).rejects.toThrow('the work failed');
    // Outside a transaction there is nothing to wait for.
    afterCommit(t.db, () => runs.push('no transaction'));
    expect(runs).toEqual(['attempt 2', 'no transaction']);
  });

  it('counts a refund and the credits it gave back', async () => {
    const question = await ask(t, key, choiceDraft({ n: 10 }));
    const before = await scrape();
    const cancelled = await t.inject({ method: 'POST', url: `/v2/questions/${question.id}/cancel`, headers: key.auth });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const refunds = (await ledgerRowsOf(t, key, question.id)).filter((row) => row.kind === 'refund');
    expect(refunds).toHaveLength(1);
    const after = await scrape();
    expect(after.sum('headcount_refunds_total') - before.sum('headcount_refunds_total')).toBe(1);
    expect(after.sum('headcount_refunded_credits_total') - before.sum('headcount_refunded_credits_total')).toBe(refunds[0].amount);
    expect(refunds[0].amount).toBeGreaterThan(0);
  });

  it('shows a parked wait in headcount_waits_open, and its duration in the long-poll histogram only', async () => {
    const question = await ask(t, key, choiceDraft({ n: 10 }));
    const before = await scrape();
    expect(before.value('headcount_waits_open')).toBe(0);
    const waiting = t.inject({ method: 'GET', url: `/v2/questions/${question.id}/wait?seconds=2`, headers: key.auth });
    let open = 0;
    for (const deadline = Date.now() + 5_000; Date.now() < deadline && open === 0; await sleep(20)) open = (await scrape()).value('headcount_waits_open') ?? 0;
    expect(open).toBe(1);
    const response = await waiting;
    expect(response.statusCode).toBe(200);
    expect(response.json().done).toBe(false);
    const after = await scrape();
    expect(after.value('headcount_waits_open')).toBe(0);
    const route = { method: 'GET', route: '/v2/questions/:id/wait', status_class: '2xx' };
    expect(after.sum('headcount_http_long_poll_duration_seconds_count', route) - before.sum('headcount_http_long_poll_duration_seconds_count', route)).toBe(1);
    // About 2 s: above the 1 s bucket's bound, within 2.5 s.
    const sum = after.sum('headcount_http_long_poll_duration_seconds_sum', route) - before.sum('headcount_http_long_poll_duration_seconds_sum', route);
    expect(sum).toBeGreaterThan(1.9);
    expect(after.find('headcount_http_request_duration_seconds_count', { route: '/v2/questions/:id/wait' })).toEqual([]);
  });

  it('counts result reads served by the cache and loaded', async () => {
    const question = await ask(t, key, choiceDraft({ n: 10 }));
    const before = await scrape();
    for (let i = 0; i < 3; i++) expect((await t.inject({ method: 'GET', url: `/v2/questions/${question.id}/result`, headers: key.auth })).statusCode).toBe(200);
    const after = await scrape();
    const moved = (name: string) => (after.value(name) ?? NaN) - (before.value(name) ?? NaN);
    const stats = t.container.results.cacheStats();
    expect(after.value('headcount_result_cache_hits_total')).toBe(stats.hits);
    expect(after.value('headcount_result_cache_loads_total')).toBe(stats.loads);
    expect(after.value('headcount_result_cache_refreshes_total')).toBe(stats.refreshes);
    expect(after.value('headcount_result_cache_kept_total')).toBe(stats.keptHits);
    const reads = ['hits', 'kept', 'loads', 'refreshes'].reduce((sum, name) => sum + moved(`headcount_result_cache_${name}_total`), 0);
    expect(reads).toBeGreaterThanOrEqual(3);
    // The 2nd and 3rd reads from memory: answered again (nothing changed) where every change is heard, else after one statement.
    expect(moved('headcount_result_cache_hits_total') + moved('headcount_result_cache_kept_total')).toBeGreaterThanOrEqual(2);
    expect(after.types.get('headcount_result_cache_hits_total')).toBe('counter');
  });

  it('shows the database pool', async () => {
    const metrics = await scrape();
    expect(metrics.value('headcount_db_pool_max_connections', { pool: 'app' })).toBe(t.config.databasePoolSize);
    expect(metrics.value('headcount_db_pool_connections', { pool: 'app' })).toBeGreaterThanOrEqual(1);
    expect(metrics.value('headcount_db_pool_idle_connections', { pool: 'app' })).toBeGreaterThanOrEqual(0);
    expect(metrics.value('headcount_db_pool_waiting_queries', { pool: 'app' })).toBe(0);
  });

  it('shows the job queue by queue and state, read at most once in 5 s', async () => {
    // This app runs no jobs (tests send no timers); a job runner on the same database makes pg-boss's schema and a queue.
    const queue = 'metrics-test';
    const definition: JobDefinition = { name: queue, accepts: () => true, handler: async () => undefined };
    jobs = createJobRunner(t.database.connection);
    await jobs.start([definition], { work: false, log: { error: () => {}, info: () => {} } });
    t.clock.advance(10_000); // past any reading cached before pg-boss had a table
    await scrape();
    await jobs.send(queue, {});
    await jobs.send(queue, {});
    await jobs.send(queue, {}, { startAfter: new Date(Date.now() + 3_600_000) });
    // Read again only after 5 s on the service's clock: a storm of scrapes costs one statement.
    expect((await scrape()).value('headcount_job_queue_jobs', { queue, state: 'due' })).toBeUndefined();
    t.clock.advance(5_000);
    const metrics = await scrape();
    expect(metrics.value('headcount_job_queue_jobs', { queue, state: 'due' })).toBe(2);
    expect(metrics.value('headcount_job_queue_jobs', { queue, state: 'scheduled' })).toBe(1);
    expect(metrics.types.get('headcount_job_queue_jobs')).toBe('gauge');
  });

  it('counts webhook delivery attempts by outcome', async () => {
    const person = await signIn(t, newEmail('metrics'));
    const owner = await t.makeKey(undefined, null, { accountId: person.personalAccountId });
    await grant(t, person.personalAccountId, 5_000);
    const receiver = await startReceiver();
    receivers.push(receiver);
    receiver.behave = (_delivery, index) => (index === 0 ? 500 : 200);
    const created = await t.inject({ method: 'POST', url: '/v1/webhooks/endpoints', headers: person.auth, payload: { url: receiver.url, events: ['question.reserved'] } });
    expect(created.statusCode, created.body).toBe(200);
    receiver.secrets.push(created.json().endpoint.secret);
    const before = await scrape();
    await ask(t, owner, choiceDraft());
    expect(await t.container.webhookDelivery.deliverDue()).toBe(1);
    t.clock.advance(3_600_000);
    expect(await t.container.webhookDelivery.deliverDue()).toBe(1);
    const after = await scrape();
    const moved = (outcome: string) => after.sum('headcount_webhook_deliveries_total', { outcome }) - before.sum('headcount_webhook_deliveries_total', { outcome });
    expect({ retry: moved('retry'), delivered: moved('delivered'), failed: moved('failed') }).toEqual({ retry: 1, delivered: 1, failed: 0 });
    expect(receiver.received).toHaveLength(2);
  });
});
