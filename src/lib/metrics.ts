import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ServiceCounters, WebhookOutcome } from './service-counters.ts';

/**
 * The service's Prometheus metrics (docs/operations.md "Metrics"; issue 16): one registry per
 * container, never prom-client's global one, so several apps in one process (tests) stay apart.
 * Names carry their unit and the `headcount_` prefix; the process and Node.js metrics keep their
 * standard names (`process_cpu_seconds_total`, `nodejs_eventloop_lag_seconds`…).
 *
 * Everything on a request's path is an in-memory increment. What lives elsewhere is read at
 * scrape time (`collect`): pool sizes, open waits and the result cache from memory, the job
 * queue with one statement, kept for `jobQueueTtlMs` so a storm of scrapes costs one query.
 */

/** What a pg.Pool tells about itself (pg.Pool is one). */
export interface PoolStats {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options?: { readonly max?: number };
}

/** Jobs of one queue in one state (db/job-queue.repository.ts). */
export interface JobQueueCount {
  queue: string;
  /** due (created or retry, to run now), scheduled (to run later), active, cancelled, failed. */
  state: string;
  jobs: number;
}

export interface ResultCacheStats {
  hits: number;
  /** Result reads answered again without the database (results.service.ts forAccount's kept results). */
  keptHits: number;
  loads: number;
  refreshes: number;
  entries: number;
  bytes: number;
}

export interface MetricSources {
  /** Connection pools by name ('app': the service's own pool). */
  pools?: Readonly<Record<string, PoolStats>>;
  /** Jobs per queue and state; one statement (cached here). */
  jobQueue?: () => Promise<JobQueueCount[]>;
  /** Requests parked in a long-poll now. */
  waitsOpen?: () => number;
  /** The results' cache counters since the process started. */
  resultCache?: () => ResultCacheStats;
  /** How long a job queue reading is served again (default 5 s). */
  jobQueueTtlMs?: number;
  /** Milliseconds on the service's clock, for that (default: the monotonic clock). */
  now?: () => number;
}

/** Routes whose requests are long-polls go to their own histogram (their buckets reach a minute). */
export interface RequestObservation {
  method: string;
  /** The route's pattern (`/v2/questions/:id`), never the raw URL; 'unmatched' when no route matched. */
  route: string;
  status: number;
  seconds: number;
  longPoll: boolean;
}

export interface Metrics {
  readonly registry: Registry;
  /** `text/plain; version=0.0.4; charset=utf-8` */
  readonly contentType: string;
  /** The counters services increment (lib/service-counters.ts). */
  readonly counters: ServiceCounters;
  observeRequest(request: RequestObservation): void;
  /** The exposition text of every metric. */
  render(): Promise<string>;
}

/** An API's latencies: 5 ms to 10 s. */
export const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Long-polls (`GET /v2/questions/{id}/wait` holds up to 25 s, MCP's wait_for_result up to 55 s). */
export const LONG_POLL_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 20, 25, 30, 45, 60];

const ANSWER_SOURCES = ['panel', 'link', 'simulator'];
const WEBHOOK_OUTCOMES: WebhookOutcome[] = ['delivered', 'retry', 'failed'];

export function createMetrics(sources: MetricSources = {}): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new Counter({
    name: 'headcount_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'headcount_http_request_duration_seconds',
    help: 'Time from a request\'s arrival to its response, long-polls excepted (see headcount_http_long_poll_duration_seconds).',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const longPolls = new Histogram({
    name: 'headcount_http_long_poll_duration_seconds',
    help: 'Time long-poll requests (wait, MCP) were held, from arrival to response.',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: LONG_POLL_BUCKETS,
    registers,
  });

  const asks = new Counter({ name: 'headcount_asks_total', help: 'Asks that created a question (replays of a stored response are not counted).', registers });
  const answers = new Counter({ name: 'headcount_answers_total', help: 'Answers accepted and stored, by source (panel, link, simulator).', labelNames: ['source'] as const, registers });
  const refunds = new Counter({ name: 'headcount_refunds_total', help: 'Refund ledger rows written (a question\'s unspent hold released, an upheld flag or dispute).', registers });
  const refundedCredits = new Counter({ name: 'headcount_refunded_credits_total', help: 'Credits given back by refunds.', registers });
  const webhooks = new Counter({
    name: 'headcount_webhook_deliveries_total',
    help: 'Webhook delivery attempts recorded by this process, by outcome: delivered (2xx), retry (failed, another attempt scheduled), failed (given up).',
    labelNames: ['outcome'] as const,
    registers,
  });
  for (const source of ANSWER_SOURCES) answers.inc({ source }, 0);
  for (const outcome of WEBHOOK_OUTCOMES) webhooks.inc({ outcome }, 0);

  const pools = Object.entries(sources.pools ?? {});
  const poolGauge = (name: string, help: string, read: (pool: PoolStats) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ['pool'] as const,
      registers,
      collect() {
        for (const [pool, stats] of pools) {
          const value = read(stats);
          if (value !== undefined) this.set({ pool }, value);
        }
      },
    });
  poolGauge('headcount_db_pool_connections', 'Connections the database pool holds (busy and idle).', (p) => p.totalCount);
  poolGauge('headcount_db_pool_idle_connections', 'Connections of the pool not in use.', (p) => p.idleCount);
  poolGauge('headcount_db_pool_waiting_queries', 'Queries waiting for a connection of the pool (every connection busy).', (p) => p.waitingCount);
  poolGauge('headcount_db_pool_max_connections', 'The most connections the pool may open (DATABASE_POOL_SIZE).', (p) => p.options?.max);

  const { jobQueue } = sources;
  /** The job queue's reading of this scrape, which the error counter below waits for. */
  let reading: Promise<void> = Promise.resolve();
  if (jobQueue) {
    const read = cachedFor(sources.jobQueueTtlMs ?? 5_000, sources.now ?? (() => performance.now()), jobQueue);
    new Gauge({
      name: 'headcount_job_queue_jobs',
      help: 'Jobs in the job queue (pg-boss) by queue and state: due (waiting to run now), scheduled (timers for later), active, failed and cancelled (kept about 12 hours); completed jobs are not counted.',
      labelNames: ['queue', 'state'] as const,
      registers,
      collect() {
        reading = read().then(
          (rows) => {
            this.reset();
            for (const row of rows) this.set({ queue: row.queue, state: row.state }, row.jobs);
          },
          () => {
            this.reset();
            collectErrors.inc({ source: 'job_queue' });
          },
        );
        return reading;
      },
    });
  }
  // After the gauge: a registry collects its metrics side by side, in order, so this one's
  // collect starts after the gauge's and waits for it, and a failure shows in the same scrape.
  const collectErrors = new Counter({
    name: 'headcount_metrics_collect_errors_total',
    help: 'Scrapes that could not read a source (its metrics are left out of that scrape).',
    labelNames: ['source'] as const,
    registers,
    collect: () => reading,
  });
  const { waitsOpen } = sources;
  if (waitsOpen) {
    new Gauge({ name: 'headcount_waits_open', help: 'Long-poll calls parked now, waiting for their question (REST wait and MCP).', registers, collect() { this.set(waitsOpen()); } });
  }
  const { resultCache } = sources;
  if (resultCache) {
    // Counters the results service keeps since the process started: read, not incremented here.
    const cacheCounter = (name: string, help: string, read: (s: ResultCacheStats) => number) =>
      new Counter({ name, help, registers, collect() { this.reset(); this.inc(read(resultCache())); } });
    cacheCounter('headcount_result_cache_hits_total', 'Result reads served from the cache as they were.', (s) => s.hits);
    cacheCounter('headcount_result_cache_kept_total', 'Result reads answered again as last read, without the database (nothing changed since).', (s) => s.keptHits);
    cacheCounter('headcount_result_cache_loads_total', 'Result reads that loaded a question\'s answers from the database (not cached yet).', (s) => s.loads);
    cacheCounter('headcount_result_cache_refreshes_total', 'Result reads that brought a cached entry up to date with new answers.', (s) => s.refreshes);
    new Gauge({ name: 'headcount_result_cache_entries', help: 'Questions whose results are cached now.', registers, collect() { this.set(resultCache().entries); } });
    new Gauge({ name: 'headcount_result_cache_bytes', help: 'Estimated size of the result cache.', registers, collect() { this.set(resultCache().bytes); } });
  }

  const counters: ServiceCounters = {
    asked: () => asks.inc(),
    answered: (source, count) => answers.inc({ source }, count),
    refunded: (credits) => {
      refunds.inc();
      refundedCredits.inc(credits);
    },
    webhookAttempt: (outcome) => webhooks.inc({ outcome }),
  };

  return {
    registry,
    contentType: registry.contentType,
    counters,
    observeRequest({ method, route, status, seconds, longPoll }) {
      requests.inc({ method, route, status: String(status) });
      (longPoll ? longPolls : duration).observe({ method, route, status_class: `${Math.floor(status / 100)}xx` }, seconds);
    },
    render: () => registry.metrics(),
  };
}

/** `load`'s last value for `ttlMs`, and one load at a time however many ask. */
function cachedFor<T>(ttlMs: number, now: () => number, load: () => Promise<T>): () => Promise<T> {
  let value: { at: number; data: T } | null = null;
  let pending: Promise<T> | null = null;
  return () => {
    if (value && now() - value.at < ttlMs) return Promise.resolve(value.data);
    pending ??= load()
      .then((data) => {
        value = { at: now(), data };
        return data;
      })
      .finally(() => {
        pending = null;
      });
    return pending;
  };
}
