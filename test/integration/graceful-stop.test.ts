import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { createContainer, type Container } from '../../src/container.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { testConfig } from '../helpers/test-app.ts';
import { createTestDatabase, isServerRun, type TestDatabase } from '../helpers/test-database.ts';
import { balanceRow, pricePerAnswer, questionRows, smallAsk } from '../helpers/money.ts';
import { createResponseValidator, type ResponseValidator } from '../helpers/openapi-validator.ts';
import { freePort, ServiceProcess, serviceEnv } from '../helpers/service-process.ts';
import type { AskBody } from '../../src/modules/questions/ask.schemas.ts';

/**
 * R7.4 "stop it with SIGTERM under open long-polls and in-flight asks" (issue 8, point 10): the
 * real service (src/main.ts as a child process) with 50 open `GET /v2/questions/{id}/wait` calls
 * and a few asks on their way gets SIGTERM. Every waiter is answered at once with its current
 * result and `done: false` (a 200 a client acts on: it calls again); the process exits 0 within a
 * few seconds, long before SHUTDOWN_GRACE_SECONDS, having closed the jobs, the notifier and the
 * database (on the embedded default no lock or socket file is left in DATA_DIR). Every ask either
 * completed or is made exactly once by its retry with the same Idempotency-Key, and the money
 * reconciles.
 *
 * Before the fix: the waits held the close for their full 25 s, the 20-s grace ran out, the
 * process exited 1 and reset every waiter, and the lock and socket files stayed behind.
 */
const SERVER = isServerRun();
const WAITERS = 50;
const ASKS = 4;
/** Every waiter is answered within this of SIGTERM. */
const WAITERS_ANSWERED_MS = 3_000;
/** The process is gone within this of SIGTERM (the grace is 20 s). */
const EXIT_MS = 5_000;
const GRANTED = 1_000_000;

let testDatabase: TestDatabase;
let database: Database | null = null;
let container: Container;
let service: ServiceProcess | null = null;
let validator: ResponseValidator;
let auth: { authorization: string };
let accountId: string;

async function open(): Promise<Container> {
  const config = testConfig(testDatabase.env);
  database = await openDatabase(config);
  container = createContainer(config, database, systemClock);
  return container;
}

async function closeDatabase(): Promise<void> {
  await database?.close();
  database = null;
}

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  await open();
  const account = await container.accounts.createAccount({ name: 'Graceful stop account' });
  accountId = account.id;
  const { secret } = await container.accounts.createKey({ accountId, scopes: ['questions:read', 'questions:write', 'account:read'], name: 'graceful stop' });
  auth = { authorization: `Bearer ${secret}` };
  await container.credits.grant({ accountId, amount: GRANTED, reason: 'Credits for the graceful stop test' });
}, 60_000);

afterAll(async () => {
  await service?.kill();
  await closeDatabase();
  await testDatabase?.dispose();
}, 30_000);

async function startService(): Promise<ServiceProcess> {
  // The embedded database is one process's at a time: hand it to the service.
  if (!SERVER) await closeDatabase();
  const port = await freePort();
  const started = new ServiceProcess(
    serviceEnv({
      ...testDatabase.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      // info: the test sees each request arrive (arrivedWaits).
      LOG_LEVEL: 'info',
      SIM_HEADS: '0',
      SIM_ANSWERS_PER_MINUTE: '0',
      RATE_LIMIT_PER_KEY: '1000000',
      RATE_LIMIT_PER_IP: '1000000',
      SHUTDOWN_GRACE_SECONDS: '20',
    }),
  );
  await started.ready();
  validator ??= createResponseValidator(await fetch(`${started.base}/openapi.json`).then((r) => r.json()));
  return started;
}

interface Reply {
  status: number;
  body: string;
  /** When the answer arrived (epoch ms). */
  at: number;
  /** No HTTP answer: refused or reset. */
  error?: string;
}

async function call(method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  try {
    const response = await fetch(`${service!.base}${url}`, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(40_000),
    });
    const text = await response.text();
    const at = Date.now();
    validator.check({ method, url, statusCode: response.status, headers: Object.fromEntries(response.headers), body: text });
    return { status: response.status, body: text, at };
  } catch (error) {
    if ((error as Error).name === 'OpenApiResponseError') throw error;
    return { status: 0, body: '', at: Date.now(), error: String((error as Error).cause ?? error) };
  }
}

/** How many wait requests the service has logged as arrived (LOG_LEVEL=info, JSON lines). */
function arrivedWaits(lines: string[]): number {
  let count = 0;
  for (const line of lines) {
    if (!line.includes('incoming request') || !line.includes('/wait?')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; req?: { url?: string } };
      if (entry.msg === 'incoming request' && entry.req?.url?.includes('/wait?')) count += 1;
    } catch {
      // Not a log line.
    }
  }
  return count;
}

describe('SIGTERM with open waits and in-flight asks (R7.4)', () => {
  it('answers every waiter at once with done false, lets the asks finish or be retried, and exits 0 within seconds', async () => {
    // Live questions nobody answers (no simulator): their waits would hold for the full 25 s.
    const questions: string[] = [];
    for (let i = 0; i < 3; i++) questions.push((await container.asks.ask(await container.accounts.authenticate(auth.authorization.slice(7)), smallAsk(10), `stop-live-${i}`)).body.question.id);
    service = await startService();
    const dataDirBefore = SERVER ? [] : fs.readdirSync(testDatabase.settings.dataDir).sort();

    const waits = Array.from({ length: WAITERS }, (_, i) => {
      const id = questions[i % questions.length];
      return call('GET', `/v2/questions/${id}/wait?seconds=25`).then((reply) => ({ id, reply }));
    });
    // Until every wait has reached the service (its "incoming request" line is written after
    // Fastify's closing check, so each of them is answered 200 whatever the timing after it).
    const deadline = Date.now() + 30_000;
    while (arrivedWaits(service.lines()) < WAITERS) {
      if (Date.now() > deadline) throw new Error(`only ${arrivedWaits(service.lines())} of ${WAITERS} waits reached the service:\n${service.tail()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));

    const asks: Array<{ key: string; body: AskBody }> = Array.from({ length: ASKS }, (_, i) => ({ key: `stop-inflight-${i}`, body: smallAsk(10) }));
    const asking = asks.map((a) => call('POST', '/v2/questions', a.body, { 'idempotency-key': a.key }));
    await new Promise((resolve) => setTimeout(resolve, 30));
    const sigterm = Date.now();
    service.child.kill('SIGTERM');

    const waited = await Promise.all(waits);
    for (const { id, reply } of waited) {
      expect(reply.error, 'every wait gets an HTTP answer').toBeUndefined();
      expect(reply.status).toBe(200);
      const body = JSON.parse(reply.body);
      expect(body.done).toBe(false);
      expect(body.result).toMatchObject({ questionId: id, status: 'in_progress', nAccepted: 0 });
      expect(reply.at - sigterm, 'answered at once, not after its 25 s').toBeLessThan(WAITERS_ANSWERED_MS);
    }

    // Calling again reaches a closing or closed server: a 503 in the envelope or a refused connection.
    const again = await call('GET', `/v2/questions/${questions[0]}/wait?seconds=25`);
    if (again.status !== 0) {
      expect(again.status).toBe(503);
      expect(JSON.parse(again.body).error.code).toBe('service_unavailable');
    }

    const exit = await service.waitForExit(25_000);
    expect(exit.code, service.tail()).toBe(0);
    expect(exit.at - sigterm).toBeLessThan(EXIT_MS);

    const asked = await Promise.all(asking);
    console.info(
      `SIGTERM → waits answered ${Math.min(...waited.map((w) => w.reply.at)) - sigterm}–${Math.max(...waited.map((w) => w.reply.at)) - sigterm} ms, exit ${exit.at - sigterm} ms; asks: ${asked.map((a) => a.status || a.error).join(', ')}`,
    );

    if (!SERVER) {
      // The embedded database was closed: its lock file and sockets (the database's, the admin one) are gone with it.
      expect(dataDirBefore).toContain('.s.hc-admin');
      expect(fs.readdirSync(testDatabase.settings.dataDir).sort()).toEqual(dataDirBefore.filter((name) => name !== 'headcount.lock' && !name.startsWith('.s.')));
      expect(fs.existsSync(`${testDatabase.settings.dataDir}/headcount.lock`)).toBe(false);
    }

    // Every ask either completed (201) or failed in a way a retry with its key settles.
    for (const reply of asked) {
      if (reply.status === 0) continue;
      expect([201, 503], reply.body).toContain(reply.status);
      if (reply.status === 503) expect(JSON.parse(reply.body).error.code).toBe('service_unavailable');
    }
    if (!SERVER) await open();
    const actor = await container.accounts.authenticate(auth.authorization.slice(7));
    const made = new Set<string>();
    for (const [i, a] of asks.entries()) {
      const retry = await container.asks.ask(actor, a.body, a.key);
      if (asked[i].status === 201) {
        expect(retry.replayed).toBe(true);
        expect(retry.body.question.id).toBe(JSON.parse(asked[i].body).question.id);
      }
      made.add(retry.body.question.id);
    }
    expect(made.size).toBe(ASKS);
    const rows = await questionRows(container.db, accountId);
    expect(rows).toHaveLength(questions.length + ASKS);
    const price = pricePerAnswer(smallAsk(10).draft) * 10;
    expect(await balanceRow(container.db, accountId)).toEqual({ available: GRANTED - price * rows.length, reserved: price * rows.length });
    expect(await container.credits.reconcile()).toEqual([]);
  }, 90_000);
});
