import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readOptions, type BenchOptions } from './lib/options.ts';
import { machineInfo } from './lib/machine.ts';
import { createTempDatabase, type TempDatabase } from './lib/temp-database.ts';
import { startServer, type RunningServer } from './lib/child.ts';
import { checkSample, runLoad } from './lib/load.ts';
import { formatReport, writeJson, type RunReport, type ScenarioReport } from './lib/report.ts';
import { BASELINE_ID, SCENARIOS } from './scenarios/index.ts';
import type { TargetName } from './scenarios/types.ts';
import type { AppServerOptions } from './lib/protocol.ts';

/**
 * `npm run bench`: starts the servers (bare Fastify, the real app on a throwaway database) as child
 * processes, runs every scenario against them with autocannon from this process, prints a table
 * and writes bench/results/latest.json. Each row is followed by a run of the bare route, and its
 * ratio is to that neighbour, because on a shared machine absolute numbers drift within minutes.
 * Settings: see lib/options.ts (BENCH_SECONDS, …).
 * A sample response that is not as expected aborts the run (exit 1); non-2xx responses during a
 * measured run are reported and flag the run, which still exits 0.
 */
const RESULTS_FILE = fileURLToPath(new URL('./results/latest.json', import.meta.url));
const PROFILE_DIR = fileURLToPath(new URL('./results/profiles', import.meta.url));
/** Spread of the bare route's runs (lowest vs highest) above which a run is called noisy. */
const NOISY_SPREAD_PERCENT = 15;
const mb = (bytes: number) => Math.round(bytes / 1024 ** 2);
const log = (line: string) => process.stderr.write(`${line}\n`);

function settings(): BenchOptions {
  try {
    const read = readOptions(process.env, PROFILE_DIR);
    const unknown = read.only?.filter((id) => !SCENARIOS.some((s) => s.id === id)) ?? [];
    if (unknown.length) throw new Error(`Unknown BENCH_SCENARIOS: ${unknown.join(', ')} (known: ${SCENARIOS.map((s) => s.id).join(', ')})`);
    return read;
  } catch (error) {
    log(`bench: ${(error as Error).message}`);
    process.exit(1);
  }
}
const options = settings();
const scenarios = SCENARIOS.filter((s) => s.id === BASELINE_ID || !options.only || options.only.includes(s.id));

const servers = new Map<TargetName, RunningServer>();
let database: TempDatabase | null = null;
let cleaning: Promise<void> | null = null;

/** Servers first (they hold the database), then the database; safe to call twice. */
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await Promise.allSettled([...servers.values()].map((server) => server.stop()));
    await database?.dispose().catch((error: Error) => log(`could not remove the temp database: ${error.message}`));
  })();
  return cleaning;
}

process.on('SIGINT', () => {
  log('interrupted: cleaning up');
  void cleanup().then(() => process.exit(130));
});

async function main(): Promise<RunReport> {
  const machine = machineInfo();
  const needsApp = scenarios.some((s) => s.target === 'app');
  log(`bench: ${scenarios.length} scenarios × (${options.warmupSeconds} s warm-up + ${options.seconds} s), ${options.connections} connections`);

  // Profiles of this run only (file names carry a timestamp, so old ones would pile up).
  if (options.profileDir) fs.rmSync(options.profileDir, { recursive: true, force: true });
  const bareStart = startServer('bare', new URL('./servers/bare.ts', import.meta.url), {}, options.profileDir).then((s) => void servers.set('bare', s));
  // Awaited below; marked handled now so a failure while the app starts cannot crash past cleanup.
  bareStart.catch(() => {});
  if (needsApp) {
    database = await createTempDatabase(options.databaseUrl);
    log(`bench: starting the app on ${database.kind === 'embedded' ? `embedded PGlite in ${database.dataDir}` : 'a temp PostgreSQL database'}, seeding ${options.heads} heads`);
    const appOptions: AppServerOptions = { dataDir: database.dataDir, databaseUrl: database.databaseUrl, heads: options.heads };
    servers.set('app', await startServer('app', new URL('./servers/app.ts', import.meta.url), appOptions, options.profileDir));
  }
  await bareStart;
  const rssAtReady = servers.has('app') ? (await servers.get('app')!.stats()).rssBytes : 0;

  const bare = servers.get('bare')!;
  const baseline = SCENARIOS.find((s) => s.id === BASELINE_ID)!;
  const measured = { seconds: options.seconds, connections: options.connections };
  const results: ScenarioReport[] = [];
  for (const scenario of scenarios) {
    const server = servers.get(scenario.target)!;
    await checkSample(server.baseUrl, scenario);
    await runLoad(server.baseUrl, scenario, { seconds: options.warmupSeconds, connections: options.connections });
    const before = await server.stats();
    const result = await runLoad(server.baseUrl, scenario, measured);
    const after = await server.stats();
    // The baseline again right after each row (the bare server is warm by then). Other work on a
    // shared machine moves every number; it moves neighbours alike, so each row's ratio is to the
    // bare run next to it, not to one measured a minute earlier.
    const paired = scenario.id === BASELINE_ID ? result : await runLoad(bare.baseUrl, baseline, measured);
    const flagged = result.non2xx + result.errors + result.timeouts > 0 || paired.non2xx + paired.errors + paired.timeouts > 0;
    const vsBare = {
      requestsPerSecond: Math.round((result.requestsPerSecond / paired.requestsPerSecond) * 100) / 100,
      p50: Math.round((result.latencyMs.p50 / paired.latencyMs.p50) * 100) / 100,
    };
    results.push({
      id: scenario.id,
      title: scenario.title,
      request: `${scenario.method} ${scenario.path}`,
      result,
      bare: { requestsPerSecond: paired.requestsPerSecond, p50: paired.latencyMs.p50 },
      vsBare,
      sqlPerRequest: scenario.target === 'bare' ? null : Math.round(((after.queries - before.queries) / Math.max(1, result.completed)) * 1000) / 1000,
      flagged,
    });
    log(
      `  ${scenario.id.padEnd(18)} ${String(result.requestsPerSecond).padStart(7)} req/s  p50 ${result.latencyMs.p50.toFixed(2)} ms  p99 ${result.latencyMs.p99.toFixed(2)} ms` +
        `  (bare ${paired.requestsPerSecond} req/s → ${vsBare.requestsPerSecond}×)${flagged ? '  FLAGGED' : ''}`,
    );
  }
  const bareRates = results.map((r) => r.bare.requestsPerSecond);
  const [low, high] = [Math.min(...bareRates), Math.max(...bareRates)];
  const spreadPercent = Math.round(((high - low) / high) * 100);

  const app = servers.get('app');
  const appStats = app ? await app.stats() : null;
  return {
    finishedAt: new Date().toISOString(),
    machine,
    database: app?.info ?? { database: 'none' },
    settings: {
      seconds: options.seconds,
      warmupSeconds: options.warmupSeconds,
      connections: options.connections,
      loadGenerator: 'autocannon in the parent process, servers in child processes, same machine',
    },
    scenarios: results,
    loadAverageAtEnd: machineInfo().loadAverage,
    baselineSpread: { lowRequestsPerSecond: low, highRequestsPerSecond: high, percent: spreadPercent, noisy: spreadPercent > NOISY_SPREAD_PERCENT },
    appServerRssMb: appStats ? { ready: mb(rssAtReady), end: mb(appStats.rssBytes) } : null,
    flagged: results.some((r) => r.flagged),
  };
}

try {
  const report = await main();
  await cleanup();
  process.stdout.write(`\n${formatReport(report)}\n`);
  writeJson(report, RESULTS_FILE);
  log(`\nwrote ${RESULTS_FILE}`);
  if (options.profileDir) log(`CPU profiles of the servers (open in Chrome DevTools): ${options.profileDir}`);
  process.exit(0);
} catch (error) {
  log(`\nbench failed: ${(error as Error).stack ?? String(error)}`);
  await cleanup();
  process.exit(1);
}
