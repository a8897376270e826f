import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createTestDatabase, isServerRun, type TestDatabase } from '../helpers/test-database.ts';
import { smallAsk } from '../helpers/money.ts';
import { createResponseValidator, type ResponseValidator } from '../helpers/openapi-validator.ts';
import { ADMIN_CLI, freePort, REPO_ROOT, ServiceProcess, serviceEnv } from '../helpers/service-process.ts';
import { startReceiver, type Behaviour, type Received, type WebhookReceiver } from '../helpers/webhook-receiver.ts';

/**
 * "Killing the service mid-delivery loses nothing" (docs/webhooks.md "How it runs"), with the
 * real service (src/main.ts as a child process) on this file's own database (embedded by default,
 * PostgreSQL with TEST_DATABASE_URL) and a real receiver that verifies every delivery with the
 * `standardwebhooks` library:
 *
 * 1. A delivery is in flight (the receiver got it and never answers) when the service is killed
 *    with SIGKILL. After a restart on the same data it is sent again once its lease (3 × the
 *    timeout) has run out, with the same webhook-id, and succeeds: the log says succeeded after
 *    2 attempts.
 * 2. Several asks, and SIGKILL as soon as their HTTP answers are in (their events committed, their
 *    deliveries not yet made). After a restart every question.reserved is delivered, and answered,
 *    exactly once per event id. Should a delivery have started before the kill after all (the
 *    dispatcher polls every WEBHOOK_POLL_MS), the receiver holds it unanswered, so its only
 *    legitimate duplicate is the retry of that same webhook-id after the lease.
 *
 * Everything is set up over HTTP as a person would (sign-in code from the dev mailbox page, a key
 * made with the session, the endpoint registered with it); credits come from the admin CLI, which
 * joins the running service's embedded database through its socket.
 */
const SERVER = isServerRun();
const TIMEOUT_SECONDS = 2;
const POLL_MS = 200;
const LEASE_MS = TIMEOUT_SECONDS * 3 * 1000;
const ASKS = 5;

let testDatabase: TestDatabase;
let service: ServiceProcess | null = null;
let receiver: WebhookReceiver;
let validator: ResponseValidator | null = null;

interface Arrival {
  received: Received;
  /** When the receiver read it (epoch ms). */
  at: number;
  /** What the receiver did: 'hang' or the status it answered. */
  answer: 'hang' | number;
}
const arrivals: Arrival[] = [];
/** What the receiver does with the next request. */
let behaviour: () => 'hang' | number = () => 200;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  receiver = await startReceiver();
  receiver.behave = (received): Behaviour => {
    const answer = behaviour();
    arrivals.push({ received, at: Date.now(), answer });
    return answer;
  };
}, 60_000);

afterAll(async () => {
  await service?.kill();
  await receiver?.stop();
  await testDatabase?.dispose();
}, 30_000);

async function startService(): Promise<ServiceProcess> {
  const port = await freePort();
  const started = new ServiceProcess(
    serviceEnv({
      ...testDatabase.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SIM_HEADS: '0',
      SIM_ANSWERS_PER_MINUTE: '0',
      RATE_LIMIT_PER_KEY: '1000000',
      RATE_LIMIT_PER_IP: '1000000',
      WEBHOOK_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
      WEBHOOK_POLL_MS: String(POLL_MS),
    }),
  );
  try {
    await started.ready();
  } catch (error) {
    await started.kill();
    throw error;
  }
  validator ??= createResponseValidator(await fetch(`${started.base}/openapi.json`).then((r) => r.json()));
  return started;
}

/** SIGKILL, and until the process is gone. */
async function killService(): Promise<void> {
  const s = service!;
  s.child.kill('SIGKILL');
  const exit = await s.waitForExit(10_000);
  expect(exit.signal, s.tail()).toBe('SIGKILL');
  service = null;
}

/** One API call against the running service; the answer is checked against its /openapi.json. */
async function call(method: 'GET' | 'POST', url: string, options: { auth?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<{ status: number; json: any; text: string }> {
  const response = await fetch(`${service!.base}${url}`, {
    method,
    headers: {
      ...(options.auth ? { authorization: `Bearer ${options.auth}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  validator!.check({ method, url, statusCode: response.status, headers: Object.fromEntries(response.headers), body: text });
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    // A page, not JSON.
  }
  return { status: response.status, json, text };
}

/** Runs one admin CLI command (through the running service's socket on the embedded database). */
async function admin(...args: string[]): Promise<Record<string, any>> {
  const child = spawn(process.execPath, [ADMIN_CLI, ...args], {
    cwd: REPO_ROOT,
    env: serviceEnv({ ...testDatabase.env, NODE_ENV: 'test', SIM_HEADS: '0' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  if (code !== 0) throw new Error(`admin ${args.join(' ')} exited ${code}:\n${stdout}\n${stderr}`);
  return JSON.parse(stdout.trim());
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}:\n${service?.tail() ?? '(no service running)'}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Signs in over HTTP, reading the code on the dev mailbox page (no SMTP_URL). */
async function signIn(email: string): Promise<{ token: string; personalAccountId: string }> {
  const started = await call('POST', '/v1/auth/sign-in', { body: { email } });
  expect(started.status, started.text).toBe(202);
  const page = await fetch(`${service!.base}/app/dev/mailbox`).then((r) => r.text());
  const item = page.split('<li').find((li) => li.includes(email));
  const code = item && /<strong>[^<]*?\b(\d{6})\b[^<]*<\/strong>/.exec(item)?.[1];
  if (!code) throw new Error(`no sign-in code for ${email} on the dev mailbox page:\n${page.slice(0, 2000)}`);
  const verified = await call('POST', '/v1/auth/sign-in/verify', { body: { email, code } });
  expect(verified.status, verified.text).toBe(200);
  expect(verified.json.token).toMatch(/^hc_ses_/);
  return { token: verified.json.token, personalAccountId: verified.json.person.personalAccountId };
}

describe('webhook deliveries survive SIGKILL of the service', () => {
  let session: string;
  let apiKey: string;
  let endpointId: string;
  let asks = 0;

  async function ask(): Promise<string> {
    asks += 1;
    const response = await call('POST', '/v2/questions', { auth: apiKey, body: smallAsk(10), headers: { 'idempotency-key': `webhooks-crash-${asks}` } });
    expect(response.status, response.text).toBe(201);
    return response.json.question.id;
  }

  async function deliveries(): Promise<Array<Record<string, any>>> {
    const response = await call('GET', `/v1/webhooks/endpoints/${endpointId}/deliveries`, { auth: session });
    expect(response.status, response.text).toBe(200);
    return response.json.deliveries;
  }

  /** The question a verified delivery is about. */
  const questionOf = (r: Received) => r.verified?.data.question.id as string | undefined;

  beforeAll(async () => {
    service = await startService();
    const person = await signIn(`hooks-crash-${Date.now()}@example.org`);
    session = person.token;
    const key = await call('POST', '/v1/keys', { auth: session, body: { name: 'webhooks crash test', scopes: ['questions:read', 'questions:write', 'account:read'], dailyCapCredits: null } });
    expect(key.status, key.text).toBe(201);
    apiKey = key.json.secret;
    const granted = await admin('credits:grant', '--account', person.personalAccountId, '--amount', '100000', '--reason', 'Credits for the webhooks crash test');
    expect(granted.balance.available).toBeGreaterThanOrEqual(100_000);
    const created = await call('POST', '/v1/webhooks/endpoints', { auth: session, body: { url: receiver.url, events: ['question.reserved'] } });
    expect(created.status, created.text).toBe(200);
    endpointId = created.json.endpoint.id;
    receiver.secrets.push(created.json.endpoint.secret);
  }, 60_000);

  it('a delivery in flight when the process is killed is sent again after its lease, with the same webhook-id, and succeeds', async () => {
    // The receiver reads the first delivery and never answers it.
    behaviour = () => 'hang';
    const questionId = await ask();
    await until('the receiver got the first attempt', () => arrivals.length >= 1, 10_000);
    await killService();
    const [first] = arrivals;
    expect(first.answer).toBe('hang');
    expect(first.received.verified, 'the first attempt verified').not.toBeNull();
    const eventId = first.received.id;
    expect(eventId).toMatch(/^evt_/);
    expect(first.received.verified).toMatchObject({ id: eventId, type: 'question.reserved' });
    expect(questionOf(first.received)).toBe(questionId);

    // Back on the same data; the receiver now answers.
    behaviour = () => 200;
    service = await startService();
    const restartedAt = Date.now();
    await until('the delivery was sent again and answered', () => arrivals.some((a) => a.answer === 200), LEASE_MS + 10_000);
    await until('the delivery log says succeeded', async () => (await deliveries())[0]?.status === 'succeeded', 5_000);

    const retry = arrivals.find((a) => a.answer === 200)!;
    console.info(`phase 1: restart ready ${restartedAt - first.at} ms after the first attempt arrived; the retry arrived ${retry.at - first.at} ms after it (lease ${LEASE_MS} ms)`);
    // Every arrival is the one event, each verified by standardwebhooks: duplicates only as retries of it.
    expect(arrivals.map((a) => a.received.id)).toEqual(arrivals.map(() => eventId));
    expect(arrivals.every((a) => a.received.verified !== null)).toBe(true);
    expect(arrivals.map((a) => a.answer)).toEqual(['hang', 200]);
    expect(retry.received.body, 'the same bytes on every attempt').toBe(first.received.body);
    // Not before the lease ran out (it was taken a moment before the first attempt arrived).
    expect(retry.at - first.at).toBeGreaterThanOrEqual(LEASE_MS - 1_000);

    const [delivery, ...others] = await deliveries();
    expect(others).toEqual([]);
    expect(delivery).toMatchObject({ eventId, type: 'question.reserved', status: 'succeeded', attempts: 2, lastStatus: 200, lastError: null });
    const detail = await call('GET', `/v1/webhooks/endpoints/${endpointId}/deliveries/${eventId}`, { auth: session });
    expect(detail.status, detail.text).toBe(200);
    // The killed attempt was counted when claimed but never recorded: the log has the second only.
    expect(detail.json.attempts.map((a: any) => [a.attempt, a.status])).toEqual([[2, 200]]);
    expect(detail.json.event).toEqual(JSON.parse(first.received.body));
  }, 60_000);

  it('events of asks answered just before SIGKILL are all delivered after the restart, once per event id', async () => {
    arrivals.length = 0;
    // Anything the killed process still sends is held unanswered: it cannot be recorded anyway.
    let killed = false;
    behaviour = () => (killed ? 200 : 'hang');
    const questions = await Promise.all(Array.from({ length: ASKS }, () => ask()));
    await killService();
    // Anything the dead process wrote to its sockets has been read by now (and held).
    await new Promise((resolve) => setTimeout(resolve, 200));
    killed = true;
    const beforeKill = arrivals.length;

    service = await startService();
    const answered = () => new Set(arrivals.filter((a) => a.answer === 200).map((a) => questionOf(a.received)));
    await until(`every question.reserved was answered (${ASKS})`, () => answered().size === ASKS, LEASE_MS + 15_000);
    await until('the delivery log says succeeded for every one', async () => (await deliveries()).filter((d) => d.status === 'succeeded').length === ASKS + 1, 5_000);
    // A few polls more: nothing else arrives.
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 5));
    console.info(`phase 2: ${beforeKill} of ${ASKS} deliveries had started before the kill (held unanswered, retried after the lease)`);

    expect(arrivals.every((a) => a.received.verified !== null && a.received.verified.type === 'question.reserved')).toBe(true);
    expect([...answered()].sort()).toEqual([...questions].sort());
    const byId = new Map<string, Arrival[]>();
    for (const a of arrivals) byId.set(a.received.id, [...(byId.get(a.received.id) ?? []), a]);
    // One event id per question, each answered exactly once; a second arrival only as the retry of one held before the kill.
    expect(byId.size).toBe(ASKS);
    for (const [id, list] of byId) {
      expect(new Set(list.map((a) => questionOf(a.received))).size, id).toBe(1);
      expect(list.map((a) => a.answer), id).toEqual(list.length === 1 ? [200] : ['hang', 200]);
      expect(list[0].received.verified!.id).toBe(id);
    }
    expect(arrivals.filter((a) => a.answer === 'hang')).toHaveLength(beforeKill);

    const log = await deliveries();
    expect(log).toHaveLength(ASKS + 1);
    for (const d of log) expect(d, d.eventId).toMatchObject({ status: 'succeeded', lastStatus: 200 });
    // `attempts` counts claims: the killed process may have claimed a delivery (and counted it) and
    // died before a byte reached the receiver, so at most one more than the receiver saw, never fewer.
    for (const [id, list] of byId) {
      const attempts = log.find((d) => d.eventId === id)?.attempts as number;
      expect(attempts, id).toBeGreaterThanOrEqual(list.length);
      expect(attempts, id).toBeLessThanOrEqual(list.length + 1);
    }
  }, 60_000);
});
