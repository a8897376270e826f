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

/** A baseline transaction measured in the app child right after a write row, at the same concurrency. */
export interface BaselineTxn {
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** The app process's CPU per transaction (it runs in the app child, on a pool like the app's). */
  appCpuMs: number;
  /** The local PostgreSQL server's CPU per transaction; null on the embedded database (it is in appCpuMs). */
  dbCpuMs: number | null;
}

export interface ScenarioReport {
  id: string;
  title: string;
  kind: 'http' | 'in-app';
  request: string;
  result: RowResult | LoadResult;
  /**
   * The baseline measured right after this row, and this row relative to it; null for in-app rows.
   * The baseline is the bare route, or the row named in `baseline` (the bare server sending the
   * same bytes as this row: scenarios/types.ts Scenario.baseline).
   */
  bare: { requestsPerSecond: number; p50: number } | null;
  /** Id of the row measured as the baseline (`bare` unless the scenario names another); null for in-app rows. */
  baseline: string | null;
  vsBare: { requestsPerSecond: number; p50: number } | null;
  /**
   * Write paths: the plain single-row INSERT transaction (BEGIN; INSERT; COMMIT through pg in the
   * app child, same concurrency, same database) measured right after this row, and this row's
   * rate relative to it (0.05 = one ask costs as much time as 20 plain insert transactions).
   */
  insertTxn: BaselineTxn | null;
  vsInsertTxn: number | null;
  /**
   * The asks rows: the rows one ask writes, copied from a real ask, in one statement in one
   * transaction (bench/servers/ask-rows.ts), same concurrency and accounts, measured right after
   * the plain insert; what an ask costs the database whatever the app does. Absent on other rows.
   */
  askRowsTxn?: BaselineTxn;
  vsAskRowsTxn?: number;
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
  /**
   * CPU time of the PostgreSQL server per completed request, in ms (lib/database-cpu.ts), when it
   * runs on this machine; null on the embedded database, whose work is in appCpuMsPerRequest.
   */
  dbCpuMsPerRequest: number | null;
  /** What prepare set up (accounts, heads, questions). */
  setup?: Record<string, unknown>;
  /** Any non-2xx, error or timeout: the numbers are suspect. */
  flagged: boolean;
}

/** One close and the waits it wakes (scenarios/waits.ts). */
export interface WakeRound {
  /** Time to get every wait into the service. */
  open: { seconds: number; perSecond: number };
  /** The app child's time from the first to the last of the closing answers' commits. */
  close: { commitMs: number; failures: string[] };
  /** Response latency of the waits that ended done:true: from the close command, and from their question's commit. */
  wakeMs: { fromClose: { p50: number; p99: number; max: number }; fromCommit: { p50: number; p99: number; max: number } };
  /** App-pool statements from the close until every wait answered, per waiter. */
  sqlPerWaiterAfterClose: number;
  /** App CPU (ms) from the close until every wait answered, per waiter. */
  cpuMsPerWaiterAfterClose: number;
  /** The measuring client (this process) from the close until every wait answered: its CPU, response body size, distinct bodies parsed. */
  client: { cpuMsAfterClose: number; bytesPerResponse: number; distinctBodies: number };
  /** sent: waits opened (fewer than waiters when opening ran out of time); notDone: sent but not ended done:true. */
  outcome: { sent: number; done: number; notDone: number; httpErrors: Record<string, number>; networkErrors: number; repolls: number; firstError: string | null };
  flagged: boolean;
  notes: string[];
}

/** The long-poll scenario (scenarios/waits.ts): memory and wake-up of many held waits. */
export interface WaitsReport extends WakeRound {
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
  /** The same number of waits on one question, opened and woken after the spread ones (null when `questions` is 1: the round above is that case). */
  oneQuestion: (WakeRound & { setupMs: number }) | null;
}

/** One phase of the webhooks scenario (scenarios/webhooks.ts): N asks from one account, and its endpoints' deliveries. */
export interface WebhookPhaseReport {
  id: 'no-endpoint' | 'one-endpoint' | 'with-hanging';
  title: string;
  asks: {
    sent: number;
    /** 201s with a question id. */
    created: number;
    statusCodes: Record<string, number>;
    errors: number;
    firstError: string | null;
    seconds: number;
    perSecond: number;
    latencyMs: { p50: number; p99: number; max: number };
    /** App-pool statements per ask while the asks ran, the webhook dispatcher's taken out. */
    sqlPerAsk: number;
    /** Statements on the app's other connections (job queue, LISTEN) per ask while they ran. */
    jobsSqlPerAsk: number;
  };
  /** App CPU from the first ask to the last delivery recorded, per ask (its deliveries included). */
  appCpuMsPerAsk: number;
  /** The answering endpoint's deliveries; null without an endpoint. */
  delivery: {
    expected: number;
    /** Requests that verified (standardwebhooks), a repeated one included. */
    verified: number;
    /** Asks whose question.reserved arrived, verified. */
    matched: number;
    missing: number;
    /** Verified requests carrying a webhook-id that had arrived before. */
    duplicates: number;
    /** Verified requests of another type or another question. */
    unmatched: number;
    invalid: number;
    firstInvalid: string | null;
    /** Matched deliveries per second from the first arrival to the last. */
    perSecond: number;
    firstAfterFirstAskMs: number;
    /** From the phase's last 201 to its last delivery: the backlog the dispatcher still had. */
    lastAfterLast201Ms: number;
    /** From each ask's 201 (read by the client) to its delivery's arrival (body read by the receiver). */
    latencyMs: { p50: number; p99: number; max: number };
    /** The dispatcher's app-pool statements from the first ask to the last attempt recorded, per matched delivery. */
    dispatcherSqlPerDelivery: number;
    claimsPerDelivery: number;
    /** The dispatcher's claims in that time that took nothing (all it saw due was busy or locked, or nothing was due). */
    emptyClaims: number;
    seconds: number;
    timedOut: boolean;
    /** The endpoint's deliveries in the database at the end of the scenario. */
    database: { succeeded: number; pending: number; failed: number; attempts: number } | null;
  } | null;
  /** The endpoint that never answers (with-hanging only). */
  hanging: {
    /** Requests it received (each verified) during the phase. */
    requests: number;
    distinctEvents: number;
    invalid: number;
    holdingAtEnd: number;
    database: { succeeded: number; pending: number; failed: number; attempts: number } | null;
  } | null;
  flagged: boolean;
}

/** The webhooks scenario (scenarios/webhooks.ts): delivery as a customer's receiver sees it. */
export interface WebhooksReport {
  id: string;
  title: string;
  events: number;
  concurrency: number;
  /** The dispatcher's settings in the app child (production's defaults). */
  dispatcher: { concurrency: number; perEndpoint: number; pollMs: number; timeoutMs: number } | null;
  phases: WebhookPhaseReport[];
  /** The `asks` row of the same run (autocannon, one account, no endpoint), when it ran. */
  asksRow: { requestsPerSecond: number; p50: number; sqlPerRequest: number | null; otherSqlPerRequest: number | null } | null;
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
  /** The webhooks scenario; null when not selected. */
  webhooks: WebhooksReport | null;
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
  const rows = [['scenario', 'request', 'req/s', 'bare req/s', 'vs bare', 'insert tx/s', 'vs insert', 'p50 ms', 'p99 ms', 'p50 vs bare', 'bytes/resp', 'SQL/req', '+jobs SQL', 'CPU ms/req', 'DB CPU ms', 'insert tx CPU', 'non-2xx/err']];
  for (const s of report.scenarios) {
    const r = s.result;
    rows.push([
      s.id + (s.flagged ? ' !' : ''),
      s.request,
      r.requestsPerSecond.toLocaleString('en-GB'),
      s.bare ? `${s.bare.requestsPerSecond.toLocaleString('en-GB')}${s.baseline && s.baseline !== 'bare' ? ` (${s.baseline})` : ''}` : '-',
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
      fixed(s.dbCpuMsPerRequest, 3),
      s.insertTxn ? `${s.insertTxn.appCpuMs.toFixed(3)}${s.insertTxn.dbCpuMs === null ? '' : ` + ${s.insertTxn.dbCpuMs.toFixed(3)}`}` : '-',
      `${r.non2xx}/${r.errors + r.timeouts}`,
    ]);
  }
  const summary = report.scenarios
    .filter((s) => s.id !== 'bare')
    .map((s) => `${s.id}: ${s.vsBare ? `${ratio(s.vsBare.requestsPerSecond)} ${s.baseline ?? 'bare'}` : ''}${s.vsBare && s.vsInsertTxn !== null ? ', ' : ''}${s.vsInsertTxn !== null ? `${ratio(s.vsInsertTxn)} insert tx` : ''}`)
    .join(' · ');
  const footer = summary ? [summary] : [];
  const setups = report.scenarios.filter((s) => s.setup).map((s) => `${s.id} ${JSON.stringify(s.setup)}`);
  if (setups.length) footer.push(`Set-up: ${setups.join(' · ')}`);
  const outcomes = report.scenarios.filter((s) => 'outcomes' in s.result && s.result.outcomes).map((s) => `${s.id} ${JSON.stringify((s.result as LoadResult).outcomes)}`);
  if (outcomes.length) footer.push(`Outcomes of the 2xx responses ("ok" = did its work): ${outcomes.join(' · ')}`);
  if (report.appServerRssMb !== null) footer.push(`App server RSS: ${report.appServerRssMb.ready} MB when ready, ${report.appServerRssMb.end} MB after the run`);
  const spread = report.baselineSpread;
  footer.push(
    `Bare route, re-measured after each HTTP row (rows with their own baseline excepted): ${spread.lowRequestsPerSecond.toLocaleString('en-GB')}–${spread.highRequestsPerSecond.toLocaleString('en-GB')} req/s (spread ${spread.percent}%)` +
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
    if (report.webhooks?.flagged) footer.push(`  ${report.webhooks.id}: see its section below`);
  }
  const sections = [...header, '', table(rows), '', ...footer];
  if (report.webhooks) sections.push('', ...formatWebhooks(report.webhooks));
  if (report.waits) sections.push('', ...formatWaits(report.waits));
  return sections.join('\n');
}

function formatWaits(w: WaitsReport): string[] {
  const lines = [
    `${w.id}${w.flagged ? ' !' : ''}: ${w.title} (set-up ${(w.setupMs / 1000).toFixed(1)} s)`,
    `  opened in ${w.open.seconds} s (${w.open.perSecond.toLocaleString('en-GB')} waits/s), ${w.open.sqlPerWait} SQL per wait on the way in`,
    `  app RSS ${w.memory.rssMbBefore} MB before → ${w.memory.rssMbWaiting} MB waiting (${w.memory.rssKbPerWaiter} KB per wait); heap ${w.memory.heapMbBefore} → ${w.memory.heapMbWaiting} MB (${w.memory.heapKbPerWaiter} KB per wait)`,
    `  while ${w.idle.waitingAtEnd.toLocaleString('en-GB')} wait and nothing changes (${w.idle.seconds} s${w.idle.repolls ? `, ${w.idle.repolls} re-polls` : ''}): ` +
      `${w.idle.sqlPerSecond.toLocaleString('en-GB')} SQL/s on the app pool, ${w.idle.otherSqlPerSecond} SQL/s on other connections, app CPU ${w.idle.appCpuPercent}% of a core`,
    `  close: last answer of all ${w.questions} questions recorded at once, commits spread over ${w.close.commitMs} ms`,
    ...formatWake(w, w.waiters),
  ];
  const one = w.oneQuestion;
  if (one) {
    lines.push(
      `  then ${w.waiters.toLocaleString('en-GB')} waits on one question (set-up ${(one.setupMs / 1000).toFixed(1)} s)${one.flagged ? ' !' : ''}: opened in ${one.open.seconds} s (${one.open.perSecond.toLocaleString('en-GB')} waits/s), its last answer committed in ${one.close.commitMs} ms`,
      ...formatWake(one, w.waiters).map((line) => `  ${line}`),
    );
  }
  return lines;
}

function formatWake(r: WakeRound, waiters: number): string[] {
  const o = r.outcome;
  const lines = [
    `  wake-up from the close command: p50 ${r.wakeMs.fromClose.p50} ms · p99 ${r.wakeMs.fromClose.p99} ms · max ${r.wakeMs.fromClose.max} ms`,
    `  wake-up from its question's commit: p50 ${r.wakeMs.fromCommit.p50} ms · p99 ${r.wakeMs.fromCommit.p99} ms · max ${r.wakeMs.fromCommit.max} ms`,
    `  from the close to the last response, per wait: ${r.sqlPerWaiterAfterClose} SQL statements, ${r.cpuMsPerWaiterAfterClose} ms of app CPU`,
    `  the measuring client meanwhile: ${r.client.cpuMsAfterClose.toLocaleString('en-GB')} ms of CPU, ${r.client.bytesPerResponse.toLocaleString('en-GB')} body bytes per response`,
    `  done:true ${o.done.toLocaleString('en-GB')} of ${waiters.toLocaleString('en-GB')}` +
      (o.sent < waiters ? ` · never sent ${(waiters - o.sent).toLocaleString('en-GB')}` : '') +
      (o.notDone ? ` · sent but not done ${o.notDone} (HTTP errors ${JSON.stringify(o.httpErrors)}, network errors ${o.networkErrors}${o.firstError ? `: ${o.firstError}` : ''}, the rest still waiting)` : '') +
      ` · re-polls after a wait ran out: ${o.repolls}`,
  ];
  for (const failure of r.close.failures.slice(0, 5)) lines.push(`  close failure: ${failure}`);
  for (const note of r.notes) lines.push(`  note: ${note}`);
  return lines;
}

function formatWebhooks(w: WebhooksReport): string[] {
  const d = w.dispatcher;
  const lines = [
    `${w.id}${w.flagged ? ' !' : ''}: ${w.title}` + (d ? `; dispatcher: ${d.concurrency} attempts at once, ${d.perEndpoint} per endpoint, polls every ${d.pollMs} ms, ${d.timeoutMs / 1000} s timeout` : ''),
  ];
  const rows = [['phase', 'asks/s', 'ask p50', 'ask p99', 'SQL/ask', '+jobs SQL', 'CPU ms/ask', 'deliv/s', '201→arrival p50', 'p99', 'max', 'drain ms', 'SQL/deliv', 'claims/deliv', 'verified', 'dup', 'other']];
  for (const p of w.phases) {
    const a = p.asks;
    const v = p.delivery;
    rows.push([
      p.id + (p.flagged ? ' !' : ''),
      a.perSecond.toLocaleString('en-GB'),
      a.latencyMs.p50.toFixed(1),
      a.latencyMs.p99.toFixed(1),
      a.sqlPerAsk.toFixed(3),
      a.jobsSqlPerAsk.toFixed(3),
      p.appCpuMsPerAsk.toFixed(3),
      v ? v.perSecond.toLocaleString('en-GB') : '-',
      v ? v.latencyMs.p50.toFixed(1) : '-',
      v ? v.latencyMs.p99.toFixed(1) : '-',
      v ? v.latencyMs.max.toFixed(1) : '-',
      v ? v.lastAfterLast201Ms.toFixed(0) : '-',
      v ? v.dispatcherSqlPerDelivery.toFixed(2) : '-',
      v ? v.claimsPerDelivery.toFixed(2) : '-',
      v ? `${v.matched}/${v.expected}` : '-',
      v ? String(v.duplicates) : '-',
      v ? `${v.unmatched + v.invalid + v.missing}` : '-',
    ]);
  }
  lines.push(...table(rows).split('\n').map((l) => `  ${l}`));
  const base = w.phases.find((p) => p.id === 'no-endpoint');
  for (const p of w.phases.filter((x) => x.delivery)) {
    const v = p.delivery!;
    const vsBase = base ? ` (${ratio(p.asks.perSecond / base.asks.perSecond)} the no-endpoint asks/s, ${(p.asks.sqlPerAsk - base.asks.sqlPerAsk >= 0 ? '+' : '') + (p.asks.sqlPerAsk - base.asks.sqlPerAsk).toFixed(2)} SQL/ask)` : '';
    lines.push(
      `  ${p.id}: asks ${p.asks.created}/${p.asks.sent} created${vsBase}; deliveries: ${v.verified} verified requests, ${v.matched} of ${v.expected} asks matched, ${v.missing} missing, ${v.duplicates} duplicates, ${v.unmatched} unmatched, ${v.invalid} invalid` +
        `${v.firstInvalid ? ` (${v.firstInvalid})` : ''}; ${v.emptyClaims} claims took nothing; first ${v.firstAfterFirstAskMs} ms after the first ask was sent, last ${v.lastAfterLast201Ms} ms after the last 201${v.timedOut ? ' (TIMED OUT)' : ''}` +
        (v.database ? `; in the database: ${JSON.stringify(v.database)}` : ''),
    );
    if (p.hanging) {
      const h = p.hanging;
      lines.push(
        `  ${p.id}, the hanging endpoint: ${h.requests} request(s) received (${h.distinctEvents} events, ${h.invalid} invalid), ${h.holdingAtEnd} held at the end` +
          (h.database ? `; in the database: ${JSON.stringify(h.database)}` : ''),
      );
    }
  }
  if (w.asksRow && base) {
    lines.push(
      `  the asks row of this run (autocannon, no endpoint): ${w.asksRow.requestsPerSecond.toLocaleString('en-GB')} req/s, ${fixed(w.asksRow.sqlPerRequest, 3)} SQL/req; ` +
        w.phases.map((p) => `${p.id} ${ratio(p.asks.perSecond / w.asksRow!.requestsPerSecond)}`).join(', '),
    );
  }
  for (const p of w.phases) if (p.asks.firstError) lines.push(`  ${p.id}: first ask error: ${p.asks.firstError.split('\n')[0]}`);
  for (const note of w.notes) lines.push(`  note: ${note}`);
  return lines;
}

export function writeJson(report: RunReport, file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
}
