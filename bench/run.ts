import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readOptions, type BenchOptions } from './lib/options.ts';
import { machineInfo } from './lib/machine.ts';
import { createTempDatabase, type TempDatabase } from './lib/temp-database.ts';
import { startServer, type RunningServer } from './lib/child.ts';
import { checkSample, runLoad } from './lib/load.ts';
import { formatReport, writeJson, type BaselineTxn, type RunReport, type ScenarioReport, type WaitsReport, type WebhooksReport } from './lib/report.ts';
import { BASELINE_ID, SCENARIOS } from './scenarios/index.ts';
import { formatStartup, measureStartup, STARTUP_ID, STARTUP_RUNS, type StartupReport } from './lib/startup.ts';
import { formatGoals, goalRows } from './lib/goals.ts';
import type { InAppScenario, RequestSetup, Scenario, TargetName, WaitScenario, WebhookScenario } from './scenarios/types.ts';
import { SITEVERIFY_PATH, type AppServerOptions, type DriveResult } from './lib/protocol.ts';
import { databaseCpuMicros, isLocalDatabase } from './lib/database-cpu.ts';

/**
 * `npm run bench`: starts the servers (bare Fastify, the real app on a throwaway database) as child
 * processes, runs every scenario against them (HTTP rows with autocannon from this process, in-app
 * rows inside the app child, the long-polls and the webhooks' asks and receiver from this
 * process), prints a table and writes
 * bench/results/latest.json. Each HTTP row is followed by a run of the bare route, and its ratio
 * is to that neighbour, because on a shared machine absolute numbers drift within minutes; write
 * paths are also followed by a run of a plain INSERT transaction on the same database.
 * Settings: see lib/options.ts (BENCH_SECONDS, …). Kinds of scenario: scenarios/types.ts.
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
    const unknown = read.only?.filter((id) => id !== STARTUP_ID && !SCENARIOS.some((s) => s.id === id)) ?? [];
    if (unknown.length) throw new Error(`Unknown BENCH_SCENARIOS: ${unknown.join(', ')} (known: ${[STARTUP_ID, ...SCENARIOS.map((s) => s.id)].join(', ')})`);
    return read;
  } catch (error) {
    log(`bench: ${(error as Error).message}`);
    process.exit(1);
  }
}
const options = settings();
const chosen = SCENARIOS.filter((s) => s.id === BASELINE_ID || !options.only || options.only.includes(s.id));
/** A chosen row's own baseline (result → result-bare) runs too; SCENARIOS lists it first. */
const baselineOf = (s: (typeof SCENARIOS)[number]) => ((s.kind ?? 'http') === 'http' ? (s as Scenario).baseline : undefined);
const needed = new Set([...chosen.map((s) => s.id), ...chosen.flatMap((s) => baselineOf(s) ?? [])]);
const scenarios = SCENARIOS.filter((s) => needed.has(s.id));
/** The `startup` row runs first, on a quiet machine (no server of the run started yet): lib/startup.ts. */
let startup: StartupReport | null = null;

/** The servers under test, and the siteverify stand-in when a scenario passes the human check. */
const servers = new Map<TargetName | 'siteverify', RunningServer>();
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

  if (!options.only || options.only.includes(STARTUP_ID)) {
    log(`  ${STARTUP_ID}: npm start to /readyz, ${STARTUP_RUNS} times each on a fresh and an existing DATA_DIR (embedded), beside a bare Fastify start`);
    startup = await measureStartup(STARTUP_RUNS, log);
  }
  // Profiles of this run only (file names carry a timestamp, so old ones would pile up).
  if (options.profileDir) fs.rmSync(options.profileDir, { recursive: true, force: true });
  const bareStart = startServer('bare', new URL('./servers/bare.ts', import.meta.url), {}, options.profileDir).then((s) => void servers.set('bare', s));
  // Awaited below; marked handled now so a failure while the app starts cannot crash past cleanup.
  bareStart.catch(() => {});
  if (needsApp) {
    // The app reads its siteverify URL at start, so the stand-in comes first (only when a scenario needs it).
    const needsSiteverify = scenarios.some((s) => (s.kind ?? 'http') === 'http' && (s as Scenario).humanCheck);
    const siteverifyStart = needsSiteverify
      ? startServer('siteverify', new URL('./servers/siteverify.ts', import.meta.url), {}, null).then((s) => (servers.set('siteverify', s), s))
      : Promise.resolve(null);
    siteverifyStart.catch(() => {});
    database = await createTempDatabase(options.databaseUrl);
    const siteverify = await siteverifyStart;
    log(`bench: starting the app on ${database.kind === 'embedded' ? `embedded PGlite in ${database.dataDir}` : 'a temp PostgreSQL database'}, seeding ${options.heads} heads`);
    const appOptions: AppServerOptions = {
      dataDir: database.dataDir,
      databaseUrl: database.databaseUrl,
      heads: options.heads,
      turnstileVerifyUrl: siteverify ? siteverify.baseUrl + SITEVERIFY_PATH : null,
    };
    servers.set('app', await startServer('app', new URL('./servers/app.ts', import.meta.url), appOptions, options.profileDir));
  }
  await bareStart;
  const rssAtReady = servers.has('app') ? (await servers.get('app')!.stats()).rssBytes : 0;

  const baseline = SCENARIOS.find((s) => s.id === BASELINE_ID) as Scenario;
  const measured = { seconds: options.seconds, connections: options.connections };
  const closedLoop = { seconds: options.seconds, concurrency: options.connections };
  const results: ScenarioReport[] = [];
  let waits: WaitsReport | null = null;
  let webhooks: WebhooksReport | null = null;
  const round2 = (value: number) => Math.round(value * 100) / 100;
  /** A ratio: two decimals, or two significant figures below 0.1 (a row 150× slower than bare is 0.0067, not 0.01). */
  const ratioOf = (a: number, b: number) => (a / b >= 0.1 ? round2(a / b) : Number((a / b).toPrecision(2)));
  const perRequest = (count: number, completed: number) => Math.round((count / Math.max(1, completed)) * 1000) / 1000;
  /**
   * The PostgreSQL server's CPU so far (lib/database-cpu.ts), when the bench runs on a server of
   * this machine; null on the embedded database (its work is in the app's CPU) or a remote server.
   */
  const dbCpu = (): number | null => (options.databaseUrl && isLocalDatabase(options.databaseUrl) ? databaseCpuMicros() : null);
  /** What each HTTP row's prepare made, so a row used as another's baseline is re-run with its own requests. */
  const setups = new Map<string, RequestSetup | undefined>();
  const serverSet = { get: (name: TargetName) => servers.get(name) };

  /**
   * Stats once the server has finished what the load generator left in flight (it stops without
   * waiting for its last requests): nothing answered and no app statement for 150 ms, at most 10 s.
   */
  async function quiet(server: RunningServer) {
    let last = await server.stats();
    const deadline = performance.now() + 10_000;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      const next = await server.stats();
      if ((next.requests === last.requests && next.queries === last.queries) || performance.now() > deadline) return next;
      last = next;
    }
  }

  /** The plain single-row INSERT transaction, right after a write row, at the same concurrency. */
  async function insertTxn(app: RunningServer, concurrency = closedLoop.concurrency): Promise<BaselineTxn> {
    return baselineTxn(() => app.call('insert.run', { ...closedLoop, concurrency }, (options.seconds + 60) * 1000));
  }

  /** The ask's own rows in one statement in one transaction (servers/ask-rows.ts), over `accounts` accounts. */
  async function askRowsTxn(app: RunningServer, accounts: number): Promise<BaselineTxn> {
    return baselineTxn(() => app.call('askRows.run', { ...closedLoop, accounts }, (options.seconds + 120) * 1000));
  }

  async function baselineTxn(call: () => Promise<DriveResult>): Promise<BaselineTxn> {
    const dbBefore = dbCpu();
    const run = await call();
    const dbAfter = dbCpu();
    return {
      perSecond: run.perSecond,
      p50: run.latencyMs.p50,
      p99: run.latencyMs.p99,
      errors: run.errors,
      appCpuMs: perRequest(run.cpuMicros / 1000, run.completed),
      dbCpuMs: dbBefore === null || dbAfter === null ? null : perRequest((dbAfter - dbBefore) / 1000, run.completed),
    };
  }

  async function httpRow(scenario: Scenario): Promise<ScenarioReport> {
    const server = servers.get(scenario.target)!;
    const setup = scenario.prepare ? await scenario.prepare(server, serverSet) : undefined;
    setups.set(scenario.id, setup);
    await checkSample(server.baseUrl, scenario, setup);
    const connections = scenario.connections ?? options.connections;
    const rowMeasured = { ...measured, connections };
    await runLoad(server.baseUrl, scenario, { seconds: options.warmupSeconds, connections }, setup);
    // Before the counters are read, so what start and end do themselves is not in the row.
    await setup?.measured?.start();
    const before = await quiet(server);
    const dbBefore = dbCpu();
    const result = await runLoad(server.baseUrl, scenario, rowMeasured, setup);
    const after = await quiet(server);
    const dbAfter = dbCpu();
    const runFacts = (await setup?.measured?.end()) ?? {};
    const notOk = Object.entries(result.outcomes ?? {}).reduce((sum, [outcome, count]) => (outcome === 'ok' ? sum : sum + count), 0);
    const handled = after.requests - before.requests;
    // The baseline again right after each row (the bare server is warm by then). Other work on a
    // shared machine moves every number; it moves neighbours alike, so each row's ratio is to the
    // bare run next to it, not to one measured a minute earlier. A row may name its own baseline
    // (the bare server sending the same bytes); its ratio is to that one.
    const pairedId = scenario.baseline ?? BASELINE_ID;
    const pairedWith = pairedId === BASELINE_ID ? baseline : (SCENARIOS.find((s) => s.id === pairedId) as Scenario);
    const paired =
      scenario.id === BASELINE_ID ? result : await runLoad(servers.get(pairedWith.target)!.baseUrl, pairedWith, rowMeasured, pairedId === BASELINE_ID ? undefined : setups.get(pairedId));
    const insert = scenario.insertBaseline ? await insertTxn(server, connections) : null;
    const askRows = scenario.askRowsBaseline ? await askRowsTxn(server, scenario.askRowsBaseline.accounts) : null;
    const flagged =
      result.non2xx + result.errors + result.timeouts + notOk > 0 || paired.non2xx + paired.errors + paired.timeouts > 0 || (insert?.errors ?? 0) > 0 || (askRows?.errors ?? 0) > 0;
    const vsBare = { requestsPerSecond: ratioOf(result.requestsPerSecond, paired.requestsPerSecond), p50: ratioOf(result.latencyMs.p50, paired.latencyMs.p50) };
    const row: ScenarioReport = {
      id: scenario.id,
      title: scenario.title,
      kind: 'http',
      request: `${scenario.method} ${scenario.path}`,
      result,
      bare: { requestsPerSecond: paired.requestsPerSecond, p50: paired.latencyMs.p50 },
      baseline: pairedId,
      vsBare,
      insertTxn: insert,
      vsInsertTxn: insert ? ratioOf(result.requestsPerSecond, insert.perSecond) : null,
      ...(askRows ? { askRowsTxn: askRows, vsAskRowsTxn: ratioOf(result.requestsPerSecond, askRows.perSecond) } : {}),
      sqlPerRequest: scenario.target === 'bare' ? null : perRequest(after.queries - before.queries, handled),
      otherSqlPerRequest: scenario.target === 'bare' ? null : perRequest(after.otherQueries - before.otherQueries, handled),
      appCpuMsPerRequest: perRequest((after.cpuMicros - before.cpuMicros) / 1000, handled),
      dbCpuMsPerRequest: scenario.target === 'bare' || dbBefore === null || dbAfter === null ? null : perRequest((dbAfter - dbBefore) / 1000, handled),
      ...(setup?.facts || setup?.measured ? { setup: { ...setup.facts, ...runFacts } } : {}),
      flagged,
    };
    log(
      `  ${scenario.id.padEnd(20)} ${String(result.requestsPerSecond).padStart(7)} req/s  p50 ${result.latencyMs.p50.toFixed(2)} ms  p99 ${result.latencyMs.p99.toFixed(2)} ms` +
        `  (${pairedId} ${paired.requestsPerSecond} req/s → ${vsBare.requestsPerSecond}×${insert ? `; insert tx ${insert.perSecond}/s → ${row.vsInsertTxn}×` : ''}${askRows ? `; the ask's rows ${askRows.perSecond}/s → ${row.vsAskRowsTxn}×` : ''})` +
        `${result.outcomes ? `  outcomes ${JSON.stringify(result.outcomes)}` : ''}${flagged ? '  FLAGGED' : ''}`,
    );
    return row;
  }

  async function inAppRow(scenario: InAppScenario): Promise<ScenarioReport> {
    const server = servers.get(scenario.target)!;
    const setup = await scenario.prepare(server);
    await scenario.run(server, { seconds: options.warmupSeconds, concurrency: options.connections });
    const dbBefore = dbCpu();
    const run: DriveResult = await scenario.run(server, closedLoop);
    const dbAfter = dbCpu();
    const insert = scenario.insertBaseline ? await insertTxn(server) : null;
    const rejected = Object.values(run.rejected).reduce((a, b) => a + b, 0);
    const flagged = rejected + run.errors > 0 || (insert?.errors ?? 0) > 0;
    const row: ScenarioReport = {
      id: scenario.id,
      title: scenario.title,
      kind: 'in-app',
      request: scenario.request,
      result: {
        seconds: run.seconds,
        requestsPerSecond: run.perSecond,
        completed: run.completed,
        bytesPerResponse: null,
        latencyMs: run.latencyMs,
        non2xx: rejected,
        errors: run.errors,
        timeouts: 0,
        statusCodes: { ok: run.completed, ...run.rejected },
        firstError: run.firstError,
      },
      bare: null,
      baseline: null,
      vsBare: null,
      insertTxn: insert,
      vsInsertTxn: insert ? ratioOf(run.perSecond, insert.perSecond) : null,
      sqlPerRequest: perRequest(run.queries, run.completed),
      otherSqlPerRequest: perRequest(run.otherQueries, run.completed),
      appCpuMsPerRequest: perRequest(run.cpuMicros / 1000, run.completed),
      dbCpuMsPerRequest: dbBefore === null || dbAfter === null ? null : perRequest((dbAfter - dbBefore) / 1000, run.completed),
      setup,
      flagged,
    };
    log(
      `  ${scenario.id.padEnd(20)} ${String(run.perSecond).padStart(7)} /s     p50 ${run.latencyMs.p50.toFixed(2)} ms  p99 ${run.latencyMs.p99.toFixed(2)} ms` +
        `  (${insert ? `insert tx ${insert.perSecond}/s → ${row.vsInsertTxn}×` : ''})${flagged ? `  FLAGGED ${JSON.stringify(run.rejected)} ${run.firstError?.split('\n')[0] ?? ''}` : ''}`,
    );
    return row;
  }

  async function waitRun(scenario: WaitScenario): Promise<WaitsReport> {
    // One socket per wait on each side: this process and the app child both need a descriptor each.
    const limit = Number(spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim());
    let waiters = options.waiters;
    const notes: string[] = [];
    if (Number.isFinite(limit) && limit < waiters + 1000) {
      waiters = Math.max(100, limit - 1000);
      notes.push(`ulimit -n is ${limit}: ran ${waiters} waits instead of ${options.waiters} (raise it with "ulimit -n ${options.waiters + 2000}" before npm run bench).`);
    }
    log(`  ${scenario.id}: opening ${waiters} waits over ${options.waitQuestions} questions…`);
    const report = await scenario.run(servers.get(scenario.target)!, { waiters, questions: options.waitQuestions, waitSeconds: 25 }, log);
    report.notes.unshift(...notes);
    log(
      `  ${scenario.id.padEnd(20)} RSS ${report.memory.rssMbBefore} → ${report.memory.rssMbWaiting} MB, wake p50 ${report.wakeMs.fromClose.p50} ms p99 ${report.wakeMs.fromClose.p99} ms max ${report.wakeMs.fromClose.max} ms,` +
        ` done ${report.outcome.done}/${report.waiters}${report.flagged ? '  FLAGGED' : ''}`,
    );
    return report;
  }

  async function webhookRun(scenario: WebhookScenario): Promise<WebhooksReport> {
    const report = await scenario.run(servers.get(scenario.target)!, { events: options.webhookEvents, concurrency: options.connections }, log);
    const asksRow = results.find((r) => r.id === 'asks');
    if (asksRow) report.asksRow = { requestsPerSecond: asksRow.result.requestsPerSecond, p50: asksRow.result.latencyMs.p50, sqlPerRequest: asksRow.sqlPerRequest, otherSqlPerRequest: asksRow.otherSqlPerRequest };
    return report;
  }

  for (const scenario of scenarios) {
    if (scenario.kind === 'waits') waits = await waitRun(scenario);
    else if (scenario.kind === 'webhooks') webhooks = await webhookRun(scenario);
    else if (scenario.kind === 'in-app') results.push(await inAppRow(scenario));
    else results.push(await httpRow(scenario));
  }
  // The constant bare route's runs only: a same-bytes baseline has rates of its own.
  const bareRates = results.flatMap((r) => (r.bare && r.baseline === BASELINE_ID ? [r.bare.requestsPerSecond] : []));
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
    waits,
    webhooks,
    loadAverageAtEnd: machineInfo().loadAverage,
    baselineSpread: { lowRequestsPerSecond: low, highRequestsPerSecond: high, percent: spreadPercent, noisy: spreadPercent > NOISY_SPREAD_PERCENT },
    appServerRssMb: appStats ? { ready: mb(rssAtReady), end: mb(appStats.rssBytes) } : null,
    flagged: results.some((r) => r.flagged) || (waits?.flagged ?? false) || (webhooks?.flagged ?? false),
  };
}

try {
  const report = await main();
  await cleanup();
  const goals = goalRows(report, startup);
  process.stdout.write(`\n${formatReport(report)}\n`);
  if (startup) process.stdout.write(`\n${formatStartup(startup)}\n`);
  process.stdout.write(`\n${formatGoals(goals)}\n`);
  // The JSON keeps the start-up runs and the goals table beside the rows.
  const saved: RunReport & { startup: StartupReport | null; goals: typeof goals } = { ...report, startup, goals };
  writeJson(saved, RESULTS_FILE);
  log(`\nwrote ${RESULTS_FILE}`);
  if (options.profileDir) log(`CPU profiles of the servers (open in Chrome DevTools): ${options.profileDir}`);
  process.exit(0);
} catch (error) {
  log(`\nbench failed: ${(error as Error).stack ?? String(error)}`);
  if ((database as TempDatabase | null)?.kind === 'embedded' && /no answer to/.test(String(error))) {
    // Seen before src/db/pglite-socket-fix.ts: several connections deadlocked PGlite under concurrent writes.
    log('(The embedded database may have stopped answering: see src/db/pglite-socket-fix.ts and electric-sql/pglite#1046.)');
  }
  await cleanup();
  process.exit(1);
}
