import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { RunningServer } from '../lib/child.ts';
import { epochNow } from '../lib/long-poll.ts';
import type { WebhookCounters } from '../lib/protocol.ts';
import type { WebhookPhaseReport, WebhooksReport } from '../lib/report.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../lib/webhook-receiver.ts';
import { ASK_DRAFT } from './asks.ts';
import type { WebhookScenario, WebhookSettings } from './types.ts';

/**
 * Webhook delivery as a customer sees it. The orchestrator runs the customer's receiver
 * (lib/webhook-receiver.ts: node:http on 127.0.0.1, every delivery verified with the
 * `standardwebhooks` library and the endpoint's secret, its arrival time recorded) and asks
 * questions over HTTP (POST /v2/questions, `concurrency` at a time, N in all, a fresh
 * Idempotency-Key each), recording each 201's time and question id. The app child's webhook
 * dispatcher (as on a worker: production's concurrency, polling and timeout) sends each ask's
 * `question.reserved` event; deliveries are matched to asks by `data.question.id`.
 *
 * Three phases, each on a fresh account (endpoints are made in the app child through the
 * endpoints service, as the account's owner: webhooks.account):
 * 1. no endpoint: the ask path alone, the baseline for what a subscribed endpoint adds to it;
 * 2. one endpoint that answers 200 at once;
 * 3. the same plus a second endpoint, subscribed to the same events, that never answers (each
 *    attempt at it ends at the sender's timeout): does a hanging receiver slow the other?
 *
 * Per phase: the asks' rate and latency, the app pool's statements per ask (the dispatcher's
 * statements, counted apart by async context in servers/app.ts, taken out) and the job queue's;
 * then deliveries/s (first to last arrival), latency from each ask's 201 to its delivery's
 * arrival, the dispatcher's statements per delivery (all of them: claims that found nothing,
 * attempts, the hanging endpoint's included), verified / duplicate / unmatched / missing, and
 * the deliveries' statuses in the database. At the end the hanging requests are dropped and the
 * scenario's endpoints deleted, so nothing keeps retrying in later rows.
 */
const EVENTS = ['question.reserved'];
const CREDITS = 1_000_000_000;
/**
 * All of a phase's deliveries must have arrived this long after its last 201: 20 s, plus 20 ms a
 * delivery (500: 30 s; a healthy drain takes a few seconds).
 */
const deliveryTimeoutMs = (events: number) => 20_000 + 20 * events;
/** Asks before the first phase, not measured (JIT, connections, the pool count's cache). */
const WARM_UP_ASKS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function percentiles(values: number[]): { p50: number; p99: number; max: number } {
  if (values.length === 0) return { p50: 0, p99: 0, max: 0 };
  const sorted = Float64Array.from(values).sort();
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return { p50: round(at(50)), p99: round(at(99)), max: round(sorted[sorted.length - 1]) };
}

interface Asked {
  questionId: string;
  /** When the 201 had been read (epoch ms with fractions). */
  at: number;
  ms: number;
}

interface AskRun {
  asked: Asked[];
  statusCodes: Record<string, number>;
  errors: number;
  firstError: string | null;
  startedAt: number;
  seconds: number;
}

/** `count` asks, `concurrency` at a time over keep-alive connections, each a fresh Idempotency-Key. */
async function askMany(baseUrl: string, apiSecret: string, count: number, concurrency: number): Promise<AskRun> {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const body = JSON.stringify({ draft: ASK_DRAFT });
  const asked: Asked[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let firstError: string | null = null;
  let next = 0;

  function askOnce(): Promise<void> {
    const t = performance.now();
    return new Promise((resolve) => {
      const request = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: '/v2/questions',
          method: 'POST',
          headers: { authorization: `Bearer ${apiSecret}`, 'idempotency-key': randomUUID(), 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const at = epochNow();
            const status = response.statusCode ?? 0;
            statusCodes[status] = (statusCodes[status] ?? 0) + 1;
            if (status === 201) {
              try {
                const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { question?: { id?: unknown } }).question?.id;
                if (typeof id !== 'string') throw new Error('no question.id in the 201');
                asked.push({ questionId: id, at, ms: performance.now() - t });
              } catch (error) {
                errors += 1;
                firstError ??= (error as Error).message;
              }
            } else firstError ??= `HTTP ${status}: ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}`;
            resolve();
          });
          response.on('error', (error) => {
            errors += 1;
            firstError ??= error.message;
            resolve();
          });
        },
      );
      request.setTimeout(60_000, () => request.destroy(new Error('no response within 60 s')));
      request.on('error', (error) => {
        errors += 1;
        firstError ??= error.message;
        resolve();
      });
      request.end(body);
    });
  }

  const startedAt = epochNow();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        next += 1;
        await askOnce();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { asked, statusCodes, errors, firstError, startedAt, seconds };
}

interface PhaseSpec {
  id: WebhookPhaseReport['id'];
  title: string;
  /** Endpoints of the phase's account: the first answers (its deliveries are measured); a second hangs. */
  endpoints: Array<'answer' | 'hang'>;
}

const PHASES: PhaseSpec[] = [
  { id: 'no-endpoint', title: 'an account with no webhook endpoint (the ask path alone)', endpoints: [] },
  { id: 'one-endpoint', title: 'one endpoint subscribed to question.reserved, answering 200 at once', endpoints: ['answer'] },
  { id: 'with-hanging', title: 'the same plus a second subscribed endpoint that never answers', endpoints: ['answer', 'hang'] },
];

async function runPhase(
  app: RunningServer,
  receiver: WebhookReceiver,
  spec: PhaseSpec,
  settings: WebhookSettings,
  made: Array<{ accountId: string; endpointIds: string[] }>,
  log: (line: string) => void,
): Promise<WebhookPhaseReport> {
  const names = spec.endpoints.map((mode) => `${spec.id}-${mode}-${randomUUID().slice(0, 8)}`);
  const account = await app.call('webhooks.account', { credits: CREDITS, urls: names.map((name) => receiver.urlOf(name)), events: EVENTS });
  made.push({ accountId: account.accountId, endpointIds: account.endpoints.map((e) => e.id) });
  spec.endpoints.forEach((mode, i) => receiver.add(names[i], account.endpoints[i].secret, mode));
  if (spec.id === PHASES[0].id) await askMany(app.baseUrl, account.apiSecret, Math.min(WARM_UP_ASKS, settings.events), settings.concurrency);

  const before: WebhookCounters = await app.call('webhooks.counters', {});
  const run = await askMany(app.baseUrl, account.apiSecret, settings.events, settings.concurrency);
  const afterAsks: WebhookCounters = await app.call('webhooks.counters', {});
  const n = run.asked.length;
  // The dispatcher has its own pool (servers/app.ts): the app pool's statements are the asks' own.
  const appSql = (c: WebhookCounters) => c.queries;
  const asks: WebhookPhaseReport['asks'] = {
    sent: settings.events,
    created: n,
    statusCodes: run.statusCodes,
    errors: run.errors,
    firstError: run.firstError,
    seconds: round(run.seconds, 2),
    perSecond: Math.round(n / run.seconds),
    latencyMs: percentiles(run.asked.map((a) => a.ms)),
    sqlPerAsk: round((appSql(afterAsks) - appSql(before)) / Math.max(1, n), 3),
    jobsSqlPerAsk: round((afterAsks.otherQueries - before.otherQueries) / Math.max(1, n), 3),
  };
  const cpuPerAsk = (end: WebhookCounters) => round((end.cpuMicros - before.cpuMicros) / 1000 / Math.max(1, n), 3);
  const line = `  webhooks ${spec.id.padEnd(13)} asks ${asks.perSecond} /s, p50 ${asks.latencyMs.p50} ms, ${asks.sqlPerAsk} SQL/ask`;
  if (spec.endpoints.length === 0) {
    log(line);
    return { id: spec.id, title: spec.title, asks, appCpuMsPerAsk: cpuPerAsk(afterAsks), delivery: null, hanging: null, flagged: n !== settings.events || run.errors > 0 };
  }

  // Every question's delivery at the answering endpoint, or the timeout.
  const measured = names[0];
  const asked = new Map(run.asked.map((a) => [a.questionId, a]));
  const last201 = Math.max(...run.asked.map((a) => a.at));
  const arrivedFor = () => new Set(receiver.received(measured).arrivals.flatMap((a) => (a.questionId && asked.has(a.questionId) ? [a.questionId] : [])));
  const deadline = performance.now() + deliveryTimeoutMs(settings.events);
  let timedOut = false;
  while (arrivedFor().size < n) {
    if (performance.now() > deadline) {
      timedOut = true;
      break;
    }
    await sleep(20);
  }
  // Its last attempts recorded too (the receiver answered before the dispatcher wrote the attempt), at most 5 s.
  const got = receiver.received(measured);
  const endpointId = account.endpoints[0].id;
  let after: WebhookCounters = await app.call('webhooks.counters', {});
  for (const settle = performance.now() + 5000; (after.attemptsEnded[endpointId] ?? 0) - (before.attemptsEnded[endpointId] ?? 0) < got.arrivals.length && performance.now() < settle; ) {
    await sleep(20);
    after = await app.call('webhooks.counters', {});
  }

  const firstOf = new Map<string, number>();
  const ids = new Set<string>();
  let unmatched = 0;
  for (const arrival of got.arrivals) {
    ids.add(arrival.webhookId);
    if (arrival.type !== 'question.reserved' || !arrival.questionId || !asked.has(arrival.questionId)) unmatched += 1;
    else if (!firstOf.has(arrival.questionId)) firstOf.set(arrival.questionId, arrival.at);
  }
  const arrivals = got.arrivals.map((a) => a.at);
  const firstArrival = Math.min(...arrivals);
  const lastArrival = Math.max(...arrivals);
  const delivered = firstOf.size;
  const delivery: NonNullable<WebhookPhaseReport['delivery']> = {
    expected: n,
    verified: got.arrivals.length,
    matched: delivered,
    missing: n - delivered,
    duplicates: got.arrivals.length - ids.size,
    unmatched,
    invalid: got.invalid,
    firstInvalid: got.firstInvalid,
    perSecond: lastArrival > firstArrival ? Math.round(delivered / ((lastArrival - firstArrival) / 1000)) : 0,
    firstAfterFirstAskMs: round(firstArrival - run.startedAt),
    lastAfterLast201Ms: round(lastArrival - last201),
    latencyMs: percentiles([...firstOf].map(([questionId, at]) => at - asked.get(questionId)!.at)),
    dispatcherSqlPerDelivery: round((after.dispatcherQueries - before.dispatcherQueries) / Math.max(1, delivered), 2),
    claimsPerDelivery: round((after.claims - before.claims) / Math.max(1, delivered), 2),
    emptyClaims: after.emptyClaims - before.emptyClaims,
    seconds: round((lastArrival - run.startedAt) / 1000, 2),
    timedOut,
    database: null,
  };
  let hanging: WebhookPhaseReport['hanging'] = null;
  if (spec.endpoints.includes('hang')) {
    const hung = receiver.received(names[1]);
    hanging = { requests: hung.arrivals.length, distinctEvents: new Set(hung.arrivals.map((a) => a.webhookId)).size, invalid: hung.invalid, holdingAtEnd: receiver.holding(), database: null };
  }
  log(
    `${line}; deliveries ${delivery.perSecond} /s, 201 → arrival p50 ${delivery.latencyMs.p50} ms p99 ${delivery.latencyMs.p99} ms max ${delivery.latencyMs.max} ms,` +
      ` ${delivery.dispatcherSqlPerDelivery} dispatcher SQL/delivery, verified ${delivery.verified}/${n}${hanging ? `; hanging endpoint got ${hanging.requests} request(s)` : ''}`,
  );
  return {
    id: spec.id,
    title: spec.title,
    asks,
    appCpuMsPerAsk: cpuPerAsk(after),
    delivery,
    hanging,
    flagged: n !== settings.events || run.errors > 0 || timedOut || delivery.missing > 0 || delivery.duplicates > 0 || delivery.unmatched > 0 || delivery.invalid > 0 || (hanging?.invalid ?? 0) > 0,
  };
}

async function run(app: RunningServer, settings: WebhookSettings, log: (line: string) => void): Promise<WebhooksReport> {
  const receiver = await startWebhookReceiver();
  const made: Array<{ accountId: string; endpointIds: string[] }> = [];
  const phases: WebhookPhaseReport[] = [];
  const notes: string[] = [];
  try {
    log(`  webhooks: ${settings.events} asks per phase, ${settings.concurrency} at a time, receiver at ${receiver.urlOf('…')}`);
    for (const spec of PHASES) phases.push(await runPhase(app, receiver, spec, settings, made, log));
    // The deliveries as the database has them, while the hanging request is still held.
    const statuses = await app.call('webhooks.deliveries', { endpointIds: made.flatMap((m) => m.endpointIds) });
    for (const [phase, account] of phases.map((p, i) => [p, made[i]] as const)) {
      if (phase.delivery) phase.delivery.database = statuses[account.endpointIds[0]];
      if (phase.hanging) phase.hanging.database = statuses[account.endpointIds[1]];
    }
    const hung = phases.find((p) => p.hanging);
    if (hung?.hanging)
      notes.push(
        `the hanging endpoint: ${hung.hanging.requests} request(s) in the phase (up to WEBHOOK_PER_ENDPOINT attempts at a time per endpoint, each ended by the ${(Number((app.info.webhooks as { timeoutMs?: number })?.timeoutMs) || 10_000) / 1000} s timeout); ` +
          `its other deliveries were still pending. Its requests are then dropped and every endpoint of the scenario deleted.`,
      );
  } finally {
    receiver.releaseHanging();
    for (const m of made) if (m.endpointIds.length) await app.call('webhooks.remove', m).catch((error: Error) => notes.push(`could not delete the endpoints: ${error.message}`));
    await receiver.close();
  }
  const dispatcher = app.info.webhooks as { concurrency: number; perEndpoint: number; pollMs: number; timeoutMs: number } | undefined;
  return {
    id: 'webhooks',
    title: `question.reserved webhooks of ${settings.events} asks (POST /v2/questions, ${settings.concurrency} at a time) per phase, to a receiver on 127.0.0.1`,
    events: settings.events,
    concurrency: settings.concurrency,
    dispatcher: dispatcher ?? null,
    phases,
    asksRow: null,
    flagged: phases.some((p) => p.flagged),
    notes,
  };
}

export const webhooks: WebhookScenario = {
  kind: 'webhooks',
  id: 'webhooks',
  title: 'webhook delivery: asks with subscribed endpoints, deliveries verified by a local receiver',
  target: 'app',
  run,
};
