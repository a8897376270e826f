import fs from 'node:fs';
import path from 'node:path';
import type { LoadResult } from './load.ts';
import type { MachineInfo } from './machine.ts';

/**
 * The report: a table for people and the same numbers as JSON for comparing runs. Ratios are to
 * the bare route measured right after each HTTP row: requests/s (below 1 = slower) and p50
 * latency (above 1 = slower); write paths also to a plain INSERT transaction measured right after
 * them. The long-poll scenario has its own section.
 */

/** One throughput row: an HTTP run (autocannon) or an in-app closed loop. */
export interface RowResult {
  seconds: number;
  /** Completed requests (calls) per second. */
  requestsPerSecond: number;
  completed: number;
  /** Null for in-app rows (no HTTP). */
  bytesPerResponse: number | null;
  latencyMs: { p50: number; p99: number; mean: number; max: number };
  /** Non-2xx responses; for in-app rows, calls that returned without doing the work. */
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Status codes; for in-app rows, outcomes ("ok" and the reasons of refusals). */
  statusCodes: Record<string, number>;
  firstError?: string | null;
}

export interface ScenarioReport {
  id: string;
  title: string;
  kind: 'http' | 'in-app';
  request: string;
  result: RowResult | LoadResult;
  /** The bare route measured right after this row, and this row relative to it; null for in-app rows. */
  bare: { requestsPerSecond: number; p50: number } | null;
  vsBare: { requestsPerSecond: number; p50: number } | null;
  /**
   * Write paths: the plain single-row INSERT transaction (BEGIN; INSERT; COMMIT through pg in the
   * app child, same concurrency, same database) measured right after this row, and this row's
   * rate relative to it (0.05 = one ask costs as much time as 20 plain insert transactions).
   */
  insertTxn: { perSecond: number; p50: number; p99: number; errors: number } | null;
  vsInsertTxn: number | null;
  /** SQL statements of the app's pool per request the server handled during the measured run; null for the bare server. */
  sqlPerRequest: number | null;
  /** Statements on the app's other connections (job queue pool, LISTEN) per completed request. */
  otherSqlPerRequest: number | null;
  /**
   * CPU time of the server process under test per completed request, in ms (user + system, all
   * its threads; a PostgreSQL server's CPU is not in it, the embedded database's is). With the rate it tells
   * CPU-bound (cpu × rate ≈ cores available) from waiting (locks, round trips).
   */
  appCpuMsPerRequest: number | null;
  /** What prepare set up (accounts, heads, questions). */
  setup?: Record<string, unknown>;
  /** Any non-2xx, error or timeout: the numbers are suspect. */
  flagged: boolean;
}

/** The long-poll scenario (scenarios/waits.ts): memory and wake-up of many held waits. */
export interface WaitsReport {
  id: string;
  title: string;
  waiters: number;
  questions: number;
  waitSeconds: number;
  setupMs: number;
  /** Time to get every wait into the service, and SQL statements per wait on the way in (auth, first read). */
  open: { seconds: number; perSecond: number; sqlPerWait: number };
  /** App child after full garbage collections, before opening and with all waiting. */
  memory: { rssMbBefore: number; rssMbWaiting: number; heapMbBefore: number; heapMbWaiting: number; rssKbPerWaiter: number; heapKbPerWaiter: number };
  /** Statements per second while only the waiting goes on (app pool; other connections). */
  idle: { seconds: number; repolls: number; waitingAtEnd: number; sqlPerSecond: number; otherSqlPerSecond: number; appCpuPercent: number };
  /** The app child's time from the first to the last of the closing answers' commits. */
  close: { commitMs: number; failures: string[] };
  /** Response latency of the waits that ended done:true: from the close command, and from their question's commit. */
  wakeMs: { fromClose: { p50: number; p99: number; max: number }; fromCommit: { p50: number; p99: number; max: number } };
  /** App-pool statements from the close until every wait answered, per waiter. */
  sqlPerWaiterAfterClose: number;
  /** App CPU (ms) from the close until every wait answered, per waiter. */
  cpuMsPerWaiterAfterClose: number;
  /** sent: waits opened (fewer than waiters when opening ran out of time); notDone: sent but not ended done:true. */
  outcome: { sent: number; done: number; notDone: number; httpErrors: Record<string, number>; networkErrors: number; repolls: number; firstError: string | null };
  flagged: boolean;
  notes: string[];
}

export interface RunReport {
  finishedAt: string;
  machine: MachineInfo;
  database: Record<string, unknown>;
  settings: { seconds: number; warmupSeconds: number; connections: number; loadGenerator: string };
  scenarios: ScenarioReport[];
  /** The long-poll scenario; null when not selected. */
  waits: WaitsReport | null;
  loadAverageAtEnd: number[];
  /** Resident memory of the app server when it was ready and after the last scenario. */
  appServerRssMb: { ready: number; end: number } | null;
  /**
   * The bare route's runs (one per HTTP row): other work on the machine moves every number, and a
   * wide spread says how much. Ratios stay usable longer than absolute numbers, but not forever.
   */
  baselineSpread: { lowRequestsPerSecond: number; highRequestsPerSecond: number; percent: number; noisy: boolean };
  /** Some row had non-2xx responses, errors or timeouts. */
  flagged: boolean;
}

/** Two decimals, or two significant figures below 0.1, where two decimals would read 0.00× or 0.01×. */
const ratio = (value: number) => `${value >= 0.1 || value === 0 ? value.toFixed(2) : value.toPrecision(2)}×`;

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) => r.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

const fixed = (value: number | null | undefined, digits: number) => (value === null || value === undefined ? '-' : value.toFixed(digits));

export function formatReport(report: RunReport): string {
  const { machine, settings } = report;
  const db = report.database;
  const header = [
    `Node ${machine.node} · ${machine.cpuModel} × ${machine.cpuCount} · ${machine.memoryGb} GB · ${machine.platform}`,
    'heads' in db
      ? `Database: ${String(db.database)} · ${String(db.heads)} heads seeded · pool ${String(db.poolSize)} · notifier ${String(db.notifier)} · job runner on` +
        ` (open ${String(db.openMs)} ms, migrate ${String(db.migrateMs)} ms, seed ${String(db.seedMs)} ms, job queue ${String(db.jobsMs)} ms)`
      : 'Database: none (no app scenario selected)',
    `${settings.connections} connections (in-app rows: ${settings.connections} concurrent callers) · ${settings.warmupSeconds} s warm-up + ${settings.seconds} s measured per row · ${settings.loadGenerator}`,
  ];
  const rows = [['scenario', 'request', 'req/s', 'bare req/s', 'vs bare', 'insert tx/s', 'vs insert', 'p50 ms', 'p99 ms', 'p50 vs bare', 'bytes/resp', 'SQL/req', '+jobs SQL', 'CPU ms/req', 'non-2xx/err']];
  for (const s of report.scenarios) {
    const r = s.result;
    rows.push([
      s.id + (s.flagged ? ' !' : ''),
      s.request,
      r.requestsPerSecond.toLocaleString('en-GB'),
      s.bare ? s.bare.requestsPerSecond.toLocaleString('en-GB') : '-',
      s.vsBare ? ratio(s.vsBare.requestsPerSecond) : '-',
      s.insertTxn ? s.insertTxn.perSecond.toLocaleString('en-GB') : '-',
      s.vsInsertTxn === null ? '-' : ratio(s.vsInsertTxn),
      r.latencyMs.p50.toFixed(2),
      r.latencyMs.p99.toFixed(2),
      s.vsBare ? ratio(s.vsBare.p50) : '-',
      r.bytesPerResponse === null ? '-' : r.bytesPerResponse.toLocaleString('en-GB'),
      fixed(s.sqlPerRequest, 3),
      fixed(s.otherSqlPerRequest, 3),
      fixed(s.appCpuMsPerRequest, 3),
      `${r.non2xx}/${r.errors + r.timeouts}`,
    ]);
  }
  const summary = report.scenarios
    .filter((s) => s.id !== 'bare')
    .map((s) => `${s.id}: ${s.vsBare ? `${ratio(s.vsBare.requestsPerSecond)} bare` : ''}${s.vsBare && s.vsInsertTxn !== null ? ', ' : ''}${s.vsInsertTxn !== null ? `${ratio(s.vsInsertTxn)} insert tx` : ''}`)
    .join(' · ');
  const footer = summary ? [summary] : [];
  const setups = report.scenarios.filter((s) => s.setup).map((s) => `${s.id} ${JSON.stringify(s.setup)}`);
  if (setups.length) footer.push(`Set-up: ${setups.join(' · ')}`);
  const outcomes = report.scenarios.filter((s) => 'outcomes' in s.result && s.result.outcomes).map((s) => `${s.id} ${JSON.stringify((s.result as LoadResult).outcomes)}`);
  if (outcomes.length) footer.push(`Outcomes of the 2xx responses ("ok" = did its work): ${outcomes.join(' · ')}`);
  if (report.appServerRssMb !== null) footer.push(`App server RSS: ${report.appServerRssMb.ready} MB when ready, ${report.appServerRssMb.end} MB after the run`);
  const spread = report.baselineSpread;
  footer.push(
    `Bare route, re-measured after each HTTP row: ${spread.lowRequestsPerSecond.toLocaleString('en-GB')}–${spread.highRequestsPerSecond.toLocaleString('en-GB')} req/s (spread ${spread.percent}%)` +
      (spread.noisy ? ': NOISY, something else was using the CPUs; trust the ratios more than the absolute numbers, and neither much.' : ''),
  );
  footer.push(`Load average at start ${report.machine.loadAverage.join(' ')}, at end ${report.loadAverageAtEnd.join(' ')} (${report.machine.cpuCount} CPUs)`);
  if (report.flagged) {
    footer.push('FLAGGED (!): some responses were not 2xx, failed or did not do their work; those rows are not trustworthy:');
    for (const s of report.scenarios.filter((x) => x.flagged)) {
      const rowOutcomes = 'outcomes' in s.result && s.result.outcomes ? `, outcomes ${JSON.stringify(s.result.outcomes)}` : '';
      footer.push(`  ${s.id}: status codes ${JSON.stringify(s.result.statusCodes)}${rowOutcomes}, errors ${s.result.errors}, timeouts ${s.result.timeouts}`);
      const first = (s.result as RowResult).firstError;
      if (first) footer.push(`    first error: ${first.split('\n')[0]}`);
    }
    if (report.waits?.flagged) footer.push(`  ${report.waits.id}: see its section below`);
  }
  const sections = [...header, '', table(rows), '', ...footer];
  if (report.waits) sections.push('', ...formatWaits(report.waits));
  return sections.join('\n');
}

function formatWaits(w: WaitsReport): string[] {
  const o = w.outcome;
  const lines = [
    `${w.id}${w.flagged ? ' !' : ''}: ${w.title} (set-up ${(w.setupMs / 1000).toFixed(1)} s)`,
    `  opened in ${w.open.seconds} s (${w.open.perSecond.toLocaleString('en-GB')} waits/s), ${w.open.sqlPerWait} SQL per wait on the way in`,
    `  app RSS ${w.memory.rssMbBefore} MB before → ${w.memory.rssMbWaiting} MB waiting (${w.memory.rssKbPerWaiter} KB per wait); heap ${w.memory.heapMbBefore} → ${w.memory.heapMbWaiting} MB (${w.memory.heapKbPerWaiter} KB per wait)`,
    `  while ${w.idle.waitingAtEnd.toLocaleString('en-GB')} wait and nothing changes (${w.idle.seconds} s${w.idle.repolls ? `, ${w.idle.repolls} re-polls` : ''}): ` +
      `${w.idle.sqlPerSecond.toLocaleString('en-GB')} SQL/s on the app pool, ${w.idle.otherSqlPerSecond} SQL/s on other connections, app CPU ${w.idle.appCpuPercent}% of a core`,
    `  close: last answer of all ${w.questions} questions recorded at once, commits spread over ${w.close.commitMs} ms`,
    `  wake-up from the close command: p50 ${w.wakeMs.fromClose.p50} ms · p99 ${w.wakeMs.fromClose.p99} ms · max ${w.wakeMs.fromClose.max} ms`,
    `  wake-up from its question's commit: p50 ${w.wakeMs.fromCommit.p50} ms · p99 ${w.wakeMs.fromCommit.p99} ms · max ${w.wakeMs.fromCommit.max} ms`,
    `  from the close to the last response, per wait: ${w.sqlPerWaiterAfterClose} SQL statements, ${w.cpuMsPerWaiterAfterClose} ms of app CPU`,
    `  done:true ${o.done.toLocaleString('en-GB')} of ${w.waiters.toLocaleString('en-GB')}` +
      (o.sent < w.waiters ? ` · never sent ${(w.waiters - o.sent).toLocaleString('en-GB')}` : '') +
      (o.notDone ? ` · sent but not done ${o.notDone} (HTTP errors ${JSON.stringify(o.httpErrors)}, network errors ${o.networkErrors}${o.firstError ? `: ${o.firstError}` : ''}, the rest still waiting)` : '') +
      ` · re-polls after a wait ran out: ${o.repolls}`,
  ];
  for (const failure of w.close.failures.slice(0, 5)) lines.push(`  close failure: ${failure}`);
  for (const note of w.notes) lines.push(`  note: ${note}`);
  return lines;
}

export function writeJson(report: RunReport, file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
}
