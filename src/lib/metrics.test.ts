import { describe, expect, it } from 'vitest';
import { createMetrics, type JobQueueCount } from './metrics.ts';

/** The value of one sample line of the exposition text (`name{labels} value`), undefined when absent. */
function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describe('createMetrics', () => {
  it('keeps each container\'s metrics in its own registry', async () => {
    const a = createMetrics();
    const b = createMetrics();
    a.counters.asked();
    a.counters.asked();
    b.counters.asked();
    expect(sample(await a.render(), 'headcount_asks_total')).toBe(2);
    expect(sample(await b.render(), 'headcount_asks_total')).toBe(1);
  });

  it('puts long-polls in their own histogram, by status class', async () => {
    const metrics = createMetrics();
    metrics.observeRequest({ method: 'GET', route: '/v2/questions/:id/wait', status: 200, seconds: 24, longPoll: true });
    metrics.observeRequest({ method: 'GET', route: '/v2/questions/:id', status: 404, seconds: 0.003, longPoll: false });
    const text = await metrics.render();
    expect(sample(text, 'headcount_http_long_poll_duration_seconds_bucket{le="25",method="GET",route="/v2/questions/:id/wait",status_class="2xx"}')).toBe(1);
    expect(sample(text, 'headcount_http_long_poll_duration_seconds_bucket{le="20",method="GET",route="/v2/questions/:id/wait",status_class="2xx"}')).toBe(0);
    expect(text).not.toContain('headcount_http_request_duration_seconds_count{method="GET",route="/v2/questions/:id/wait"');
    expect(sample(text, 'headcount_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/v2/questions/:id",status_class="4xx"}')).toBe(1);
    expect(sample(text, 'headcount_http_requests_total{method="GET",route="/v2/questions/:id",status="404"}')).toBe(1);
  });

  it('reads the job queue once however many scrape at once, and again only after the TTL', async () => {
    let now = 0;
    let loads = 0;
    let release: () => void = () => {};
    const jobQueue = async (): Promise<JobQueueCount[]> => {
      loads += 1;
      await new Promise<void>((resolve) => (release = resolve));
      return [{ queue: 'question-expire', state: 'scheduled', jobs: loads }];
    };
    const metrics = createMetrics({ jobQueue, jobQueueTtlMs: 5_000, now: () => now });
    const storm = Array.from({ length: 20 }, () => metrics.render());
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    const texts = await Promise.all(storm);
    expect(loads).toBe(1);
    for (const text of texts) expect(sample(text, 'headcount_job_queue_jobs{queue="question-expire",state="scheduled"}')).toBe(1);
    now = 4_999;
    expect(sample(await metrics.render(), 'headcount_job_queue_jobs{queue="question-expire",state="scheduled"}')).toBe(1);
    expect(loads).toBe(1);
    now = 5_000;
    const next = metrics.render();
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    expect(sample(await next, 'headcount_job_queue_jobs{queue="question-expire",state="scheduled"}')).toBe(2);
  });

  it('leaves the job queue out of a scrape it cannot read, and counts that, without failing the scrape', async () => {
    let fail = true;
    const metrics = createMetrics({
      jobQueue: async () => {
        if (fail) throw new Error('database unreachable');
        return [{ queue: 'q', state: 'due', jobs: 3 }];
      },
      jobQueueTtlMs: 0,
      pools: { app: { totalCount: 4, idleCount: 1, waitingCount: 2, options: { max: 10 } } },
      waitsOpen: () => 7,
      resultCache: () => ({ hits: 5, keptHits: 4, loads: 2, refreshes: 1, entries: 2, bytes: 1000 }),
    });
    const text = await metrics.render();
    expect(text).not.toContain('headcount_job_queue_jobs{');
    expect(sample(text, 'headcount_metrics_collect_errors_total{source="job_queue"}')).toBe(1);
    expect(sample(text, 'headcount_db_pool_connections{pool="app"}')).toBe(4);
    expect(sample(text, 'headcount_db_pool_idle_connections{pool="app"}')).toBe(1);
    expect(sample(text, 'headcount_db_pool_waiting_queries{pool="app"}')).toBe(2);
    expect(sample(text, 'headcount_db_pool_max_connections{pool="app"}')).toBe(10);
    expect(sample(text, 'headcount_waits_open')).toBe(7);
    expect(sample(text, 'headcount_result_cache_hits_total')).toBe(5);
    expect(sample(text, 'headcount_result_cache_kept_total')).toBe(4);
    expect(sample(text, 'headcount_result_cache_loads_total')).toBe(2);
    expect(sample(text, 'headcount_result_cache_refreshes_total')).toBe(1);
    fail = false;
    expect(sample(await metrics.render(), 'headcount_job_queue_jobs{queue="q",state="due"}')).toBe(3);
  });

  it('starts the labelled business counters at zero, so a rate exists before the first event', async () => {
    const text = await createMetrics().render();
    for (const source of ['panel', 'link', 'simulator']) expect(sample(text, `headcount_answers_total{source="${source}"}`)).toBe(0);
    for (const outcome of ['delivered', 'retry', 'failed']) expect(sample(text, `headcount_webhook_deliveries_total{outcome="${outcome}"}`)).toBe(0);
  });
});
