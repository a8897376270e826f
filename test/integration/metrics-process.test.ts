import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { createContainer } from '../../src/container.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { JOB_EXPIRE } from '../../src/modules/questions/questions.jobs.ts';
import { testConfig } from '../helpers/test-app.ts';
import { createTestDatabase, isServerRun, POOL_SIZE, type TestDatabase } from '../helpers/test-database.ts';
import { smallAsk } from '../helpers/money.ts';
import { freePort, ServiceProcess, serviceEnv } from '../helpers/service-process.ts';
import { parseExposition, type Exposition } from '../helpers/prometheus.ts';

/**
 * Issue 16, point 3, as an operator runs it: the real service (src/main.ts as a child process)
 * with METRICS_PORT, scraped with plain HTTP on 127.0.0.1:<METRICS_PORT> while asks arrive. The
 * public port does not serve /metrics without METRICS_TOKEN; the metrics port serves nothing but
 * /metrics; SIGTERM closes it with the rest and the process exits 0.
 */
const SERVER = isServerRun();
const ASKS = 6;

let testDatabase: TestDatabase;
let database: Database | null = null;
let service: ServiceProcess | null = null;
let metricsBase: string;
let auth: { authorization: string };

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  database = await openDatabase(testConfig(testDatabase.env));
  const container = createContainer(testConfig(testDatabase.env), database, systemClock);
  const account = await container.accounts.createAccount({ name: 'Metrics account' });
  const { secret } = await container.accounts.createKey({ accountId: account.id, scopes: ['questions:read', 'questions:write'], name: 'metrics' });
  auth = { authorization: `Bearer ${secret}` };
  await container.credits.grant({ accountId: account.id, amount: 1_000_000, reason: 'Credits for the metrics test' });
  // The embedded database is one process's at a time: hand it to the service.
  if (!SERVER) {
    await database.close();
    database = null;
  }
  const [port, metricsPort] = [await freePort(), await freePort()];
  metricsBase = `http://127.0.0.1:${metricsPort}`;
  service = new ServiceProcess(
    serviceEnv({
      ...testDatabase.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      LOG_LEVEL: 'info',
      SIM_HEADS: '0',
      SIM_ANSWERS_PER_MINUTE: '0',
      RATE_LIMIT_PER_KEY: '1000000',
      RATE_LIMIT_PER_IP: '1000000',
    }),
  );
  await service.ready();
}, 90_000);

afterAll(async () => {
  await service?.kill();
  await database?.close();
  await testDatabase?.dispose();
}, 30_000);

async function scrape(): Promise<Exposition> {
  const response = await fetch(`${metricsBase}/metrics`, { signal: AbortSignal.timeout(10_000) });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await response.text());
}

describe('the service with METRICS_PORT', () => {
  it('says where the metrics are, serves them on their port without a token, and not on the public one', async () => {
    expect(service!.lines().some((line) => line.includes('metrics served at /metrics on their own port'))).toBe(true);
    const metrics = await scrape();
    expect(metrics.types.get('process_resident_memory_bytes')).toBe('gauge');
    expect(metrics.value('headcount_db_pool_max_connections', { pool: 'app' })).toBe(POOL_SIZE);
    // The job queue's own pool (pg-boss's), beside the service's.
    expect(metrics.value('headcount_db_pool_max_connections', { pool: 'jobs' })).toBe(3);
    expect(metrics.value('headcount_db_pool_connections', { pool: 'jobs' })).toBeGreaterThanOrEqual(1);
    expect(metrics.value('headcount_db_pool_connections', { pool: 'jobs' })).toBeLessThanOrEqual(3);

    const publicMetrics = await fetch(`${service!.base}/metrics`);
    expect(publicMetrics.status).toBe(404);
    expect((await publicMetrics.json()).error.code).toBe('not_found');
    // The metrics port serves /metrics and nothing else (not the API).
    expect((await fetch(`${metricsBase}/healthz`)).status).toBe(404);
    expect((await fetch(`${metricsBase}/v2/questions`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${metricsBase}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('answers scrapes while asks arrive, and counts every ask', async () => {
    const before = await scrape();
    const asks = Array.from({ length: ASKS }, () =>
      fetch(`${service!.base}/v2/questions`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify(smallAsk()),
        signal: AbortSignal.timeout(20_000),
      }).then((response) => response.status),
    );
    const scrapes = Array.from({ length: 10 }, (_, i) => new Promise((resolve) => setTimeout(resolve, i * 20)).then(scrape));
    const [statuses, readings] = await Promise.all([Promise.all(asks), Promise.all(scrapes)]);
    expect(statuses).toEqual(Array(ASKS).fill(201));
    // Every reading during the load is whole: counters only grow.
    const askCounts = readings.map((m) => m.sum('headcount_asks_total'));
    expect(askCounts.every((count) => count >= before.sum('headcount_asks_total') && count <= before.sum('headcount_asks_total') + ASKS)).toBe(true);

    const after = await scrape();
    expect(after.sum('headcount_asks_total') - before.sum('headcount_asks_total')).toBe(ASKS);
    const route = { method: 'POST', route: '/v2/questions', status: '201' };
    expect(after.sum('headcount_http_requests_total', route) - before.sum('headcount_http_requests_total', route)).toBe(ASKS);
    // Each question's expiry timer waits in the job queue (read at most every 5 s).
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    const later = await scrape();
    expect(later.value('headcount_job_queue_jobs', { queue: JOB_EXPIRE, state: 'scheduled' })).toBeGreaterThanOrEqual(ASKS);
    expect(later.value('headcount_waits_open')).toBe(0);
  }, 60_000);

  it('closes the metrics listener with the rest on SIGTERM', async () => {
    service!.child.kill('SIGTERM');
    const exit = await service!.waitForExit(15_000);
    expect(exit.code, service!.tail()).toBe(0);
    await expect(fetch(`${metricsBase}/metrics`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
  }, 30_000);
});
