/**
 * Run settings from the environment (BENCH_*), validated up front so a typo fails before the
 * minute-long run rather than being silently ignored.
 */
export interface BenchOptions {
  /** Measured seconds per scenario (BENCH_SECONDS, default 5). */
  seconds: number;
  /** Warm-up seconds per scenario, not measured (BENCH_WARMUP_SECONDS, default 1). */
  warmupSeconds: number;
  /** Concurrent connections (BENCH_CONNECTIONS, default 20: modest, the machine has 2 cores). */
  connections: number;
  /** Panel size seeded into the temp database. */
  heads: number;
  /** Admin URL of a PostgreSQL server to run against instead of embedded PGlite. */
  databaseUrl: string | null;
  /** Scenario ids to run (BENCH_SCENARIOS=a,b); null = all. The bare baseline always runs. */
  only: string[] | null;
  /** BENCH_PROFILE=1: the server children write V8 CPU profiles (.cpuprofile) to this directory. */
  profileDir: string | null;
  /** Concurrent long-polls of the wait scenario (BENCH_WAITERS, default 10,000; one socket each, so it needs file descriptors). */
  waiters: number;
  /** Live questions they are spread over (BENCH_WAIT_QUESTIONS, default 100). */
  waitQuestions: number;
  /** Asks (so deliveries per endpoint) in each phase of the webhooks scenario (BENCH_WEBHOOK_EVENTS, default 500). */
  webhookEvents: number;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${name} must be an integer from 1 to ${max} (got "${raw}")`);
  return value;
}

export function readOptions(env: NodeJS.ProcessEnv = process.env, profileDir: string): BenchOptions {
  const only = env.BENCH_SCENARIOS?.trim();
  return {
    seconds: positiveInt(env, 'BENCH_SECONDS', 5, 3600),
    warmupSeconds: positiveInt(env, 'BENCH_WARMUP_SECONDS', 1, 600),
    connections: positiveInt(env, 'BENCH_CONNECTIONS', 20, 10_000),
    heads: 2000,
    databaseUrl: env.BENCH_DATABASE_URL?.trim() || null,
    only: only ? only.split(',').map((s) => s.trim()).filter(Boolean) : null,
    profileDir: env.BENCH_PROFILE === '1' ? profileDir : null,
    waiters: positiveInt(env, 'BENCH_WAITERS', 10_000, 50_000),
    waitQuestions: positiveInt(env, 'BENCH_WAIT_QUESTIONS', 100, 10_000),
    webhookEvents: positiveInt(env, 'BENCH_WEBHOOK_EVENTS', 500, 100_000),
  };
}
