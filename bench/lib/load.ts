import autocannon, { type RequestOptions } from 'autocannon';
import type { RequestSetup, Scenario } from '../scenarios/types.ts';

/**
 * Drives one scenario with autocannon: a sample request checked for shape, then a warm-up run
 * (JIT, caches, connection pools; discarded), then the measured run.
 */
export interface LoadSettings {
  seconds: number;
  connections: number;
}

export interface LoadResult {
  seconds: number;
  /** Completed requests per second, mean of autocannon's per-second samples. */
  requestsPerSecond: number;
  completed: number;
  /** Mean size of a response (headers and body), in bytes. */
  bytesPerResponse: number;
  /**
   * Latency of 2xx responses in ms, computed here from every response time: autocannon's own
   * histogram stores whole milliseconds, too coarse when the median is around 1 ms.
   */
  latencyMs: { p50: number; p99: number; mean: number; max: number };
  /** autocannon's own (whole-millisecond) percentiles, for comparison with its CLI. */
  autocannonLatencyMs: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Scenarios with `outcome`: the 2xx responses by outcome ('ok' = did its work). */
  outcomes?: Record<string, number>;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * Where each scenario is in its cycle of bodies. It carries over from the warm-up to the measured
 * run: restarting at body 0 would resend the bodies the warm-up just sent, which a cache remembers.
 */
const cursors = new WeakMap<Scenario, { next: number }>();

function requestsOf(scenario: Scenario, setup?: RequestSetup, outcomes?: Record<string, number>): RequestOptions[] {
  const bodies = (scenario.bodies ?? []).map((body) => JSON.stringify(body));
  const hasBody = bodies.length > 0 || setup?.body !== undefined;
  const baseHeaders: Record<string, string> = hasBody ? JSON_HEADERS : {};
  const base = { method: scenario.method, path: setup?.path?.() ?? scenario.path, headers: baseHeaders };
  // Counts each 2xx body's outcome (scenario.outcome); autocannon hands the body over as a string.
  const onResponse = outcomes
    ? (status: number, body: string) => {
        if (status < 200 || status >= 300) return;
        let parsed: unknown;
        try {
          parsed = JSON.parse(body);
        } catch {
          parsed = undefined;
        }
        const outcome = parsed === undefined ? 'body not JSON' : scenario.outcome!(parsed);
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      }
    : undefined;
  if (bodies.length <= 1 && !setup) return [{ ...base, ...(bodies.length ? { body: bodies[0] } : {}), ...(onResponse ? { onResponse } : {}) }];
  // One cursor shared by all connections: bodies go out in order across the whole run.
  const cursor = cursors.get(scenario) ?? { next: 0 };
  cursors.set(scenario, cursor);
  return [
    {
      ...base,
      ...(bodies.length === 1 ? { body: bodies[0] } : {}),
      // Called for every request: its own headers (a fresh Idempotency-Key), path and body.
      setupRequest: (request) => ({
        ...request,
        ...(setup ? { headers: { ...baseHeaders, ...setup.headers() } } : {}),
        ...(setup?.path ? { path: setup.path() } : {}),
        ...(setup?.body ? { body: JSON.stringify(setup.body()) } : bodies.length > 1 ? { body: bodies[cursor.next++ % bodies.length] } : {}),
      }),
      ...(onResponse ? { onResponse } : {}),
    },
  ];
}

/** Sends the scenario's first request once; throws unless it has the expected status (200) and shape. */
export async function checkSample(baseUrl: string, scenario: Scenario, setup?: RequestSetup): Promise<void> {
  const made = setup?.body ? setup.body() : scenario.bodies?.[0];
  const body = made === undefined ? undefined : JSON.stringify(made);
  const headers = { ...(body ? JSON_HEADERS : {}), ...setup?.headers() };
  const path = setup?.path?.() ?? scenario.path;
  const response = await fetch(baseUrl + path, { method: scenario.method, headers, body });
  const status = scenario.status ?? 200;
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const problems = response.status !== status ? [`status ${response.status}, expected ${status}`] : json === undefined ? ['body is not JSON'] : scenario.check(json);
  if (problems.length) {
    throw new Error(`Sample ${scenario.method} ${path} (${scenario.id}) is not as expected:\n  - ${problems.join('\n  - ')}\n  body: ${text.slice(0, 800)}`);
  }
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

export async function runLoad(baseUrl: string, scenario: Scenario, settings: LoadSettings, setup?: RequestSetup): Promise<LoadResult> {
  const times: number[] = [];
  const outcomes: Record<string, number> | undefined = scenario.outcome ? {} : undefined;
  const instance = autocannon({ url: baseUrl, connections: settings.connections, duration: settings.seconds, requests: requestsOf(scenario, setup, outcomes) });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, ms: number) => {
    if (statusCode >= 200 && statusCode < 300) times.push(ms);
  });
  const result = await instance;
  const sorted = Float64Array.from(times).sort();
  const sum = times.reduce((a, b) => a + b, 0);
  return {
    seconds: result.duration,
    requestsPerSecond: Math.round(result.requests.mean),
    completed: result.requests.total,
    bytesPerResponse: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
    latencyMs: {
      p50: round(percentile(sorted, 50)),
      p99: round(percentile(sorted, 99)),
      mean: round(times.length ? sum / times.length : 0),
      max: round(sorted.length ? sorted[sorted.length - 1] : 0),
    },
    autocannonLatencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
    ...(outcomes ? { outcomes } : {}),
  };
}
