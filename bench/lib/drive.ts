import type { DriveResult, DriveSettings } from './protocol.ts';

/**
 * A closed loop inside one process, for work that has no HTTP route (the answer path) and for the
 * plain-insert baseline: `concurrency` callers, each starting its next call as soon as its last
 * one ends, for `seconds`. A call returns 'ok' when it did its work, or a reason when it returned
 * without doing it (an answer refused); a throw counts as an error. Latency is of the 'ok' calls,
 * measured with performance.now() (sub-millisecond).
 */
export type Outcome = 'ok' | (string & {});

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

export async function drive(settings: DriveSettings, call: (worker: number) => Promise<Outcome>, counters: { queries(): number; otherQueries(): number }): Promise<DriveResult> {
  const times: number[] = [];
  const rejected: Record<string, number> = {};
  let errors = 0;
  let firstError: string | null = null;
  const queriesBefore = counters.queries();
  const otherBefore = counters.otherQueries();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + settings.seconds * 1000;

  async function worker(index: number): Promise<void> {
    while (performance.now() < deadline) {
      const t = performance.now();
      try {
        const outcome = await call(index);
        if (outcome === 'ok') times.push(performance.now() - t);
        else rejected[outcome] = (rejected[outcome] ?? 0) + 1;
      } catch (error) {
        errors += 1;
        firstError ??= (error as Error)?.stack ?? String(error);
        // A failing call usually fails fast; do not spin on it.
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  }
  await Promise.all(Array.from({ length: settings.concurrency }, (_, i) => worker(i)));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const sorted = Float64Array.from(times).sort();
  const sum = times.reduce((a, b) => a + b, 0);
  return {
    seconds: Math.round(seconds * 100) / 100,
    perSecond: Math.round(times.length / seconds),
    completed: times.length,
    latencyMs: {
      p50: round(percentile(sorted, 50)),
      p99: round(percentile(sorted, 99)),
      mean: round(times.length ? sum / times.length : 0),
      max: round(sorted.length ? sorted[sorted.length - 1] : 0),
    },
    rejected,
    errors,
    firstError,
    queries: counters.queries() - queriesBefore,
    otherQueries: counters.otherQueries() - otherBefore,
    cpuMicros: cpu.user + cpu.system,
  };
}
