import fs from 'node:fs';
import path from 'node:path';
import type { LoadResult } from './load.ts';
import type { MachineInfo } from './machine.ts';

/**
 * The report: a table for people and the same numbers as JSON for comparing runs. Ratios are to
 * the bare route measured right after each row: requests/s (below 1 = slower) and p50 latency
 * (above 1 = slower).
 */
export interface ScenarioReport {
  id: string;
  title: string;
  request: string;
  result: LoadResult;
  /** The bare route measured right after this row, and this row relative to it. */
  bare: { requestsPerSecond: number; p50: number };
  vsBare: { requestsPerSecond: number; p50: number };
  /** SQL statements per completed request during the measured run; null for the bare server. */
  sqlPerRequest: number | null;
  /** Any non-2xx, error or timeout: the numbers are suspect. */
  flagged: boolean;
}

export interface RunReport {
  finishedAt: string;
  machine: MachineInfo;
  database: Record<string, unknown>;
  settings: { seconds: number; warmupSeconds: number; connections: number; loadGenerator: string };
  scenarios: ScenarioReport[];
  loadAverageAtEnd: number[];
  /** Resident memory of the app server when it was ready and after the last scenario. */
  appServerRssMb: { ready: number; end: number } | null;
  /**
   * The bare route's runs (one per row): other work on the machine moves every number, and a wide
   * spread says how much. Ratios stay usable longer than absolute numbers, but not forever.
   */
  baselineSpread: { lowRequestsPerSecond: number; highRequestsPerSecond: number; percent: number; noisy: boolean };
  /** Some row had non-2xx responses, errors or timeouts. */
  flagged: boolean;
}

const ratio = (value: number) => `${value.toFixed(2)}×`;

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) => r.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

export function formatReport(report: RunReport): string {
  const { machine, settings } = report;
  const header = [
    `Node ${machine.node} · ${machine.cpuModel} × ${machine.cpuCount} · ${machine.memoryGb} GB · ${machine.platform}`,
    'heads' in report.database
      ? `Database: ${String(report.database.database)} · ${String(report.database.heads)} heads` +
        ` (open ${String(report.database.openMs)} ms, migrate ${String(report.database.migrateMs)} ms, seed ${String(report.database.seedMs)} ms)`
      : 'Database: none (no app scenario selected)',
    `${settings.connections} connections · ${settings.warmupSeconds} s warm-up + ${settings.seconds} s measured per row · ${settings.loadGenerator}`,
  ];
  const rows = [['scenario', 'request', 'req/s', 'bare req/s', 'vs bare', 'p50 ms', 'p99 ms', 'p50 vs bare', 'bytes/resp', 'SQL/req', 'non-2xx/err']];
  for (const s of report.scenarios) {
    const r = s.result;
    rows.push([
      s.id + (s.flagged ? ' !' : ''),
      s.request,
      r.requestsPerSecond.toLocaleString('en-GB'),
      s.bare.requestsPerSecond.toLocaleString('en-GB'),
      ratio(s.vsBare.requestsPerSecond),
      r.latencyMs.p50.toFixed(2),
      r.latencyMs.p99.toFixed(2),
      ratio(s.vsBare.p50),
      r.bytesPerResponse.toLocaleString('en-GB'),
      s.sqlPerRequest === null ? '-' : s.sqlPerRequest.toFixed(3),
      `${r.non2xx}/${r.errors + r.timeouts}`,
    ]);
  }
  const summary = report.scenarios
    .filter((s) => s.id !== 'bare')
    .map((s) => `${s.id}: ${ratio(s.vsBare.requestsPerSecond)} bare`)
    .join(' · ');
  const footer = summary ? [summary] : [];
  if (report.appServerRssMb !== null) footer.push(`App server RSS: ${report.appServerRssMb.ready} MB when ready, ${report.appServerRssMb.end} MB after the run`);
  const spread = report.baselineSpread;
  footer.push(
    `Bare route, re-measured after each row: ${spread.lowRequestsPerSecond.toLocaleString('en-GB')}–${spread.highRequestsPerSecond.toLocaleString('en-GB')} req/s (spread ${spread.percent}%)` +
      (spread.noisy ? ': NOISY, something else was using the CPUs; trust the ratios more than the absolute numbers, and neither much.' : ''),
  );
  footer.push(`Load average at start ${report.machine.loadAverage.join(' ')}, at end ${report.loadAverageAtEnd.join(' ')} (${report.machine.cpuCount} CPUs)`);
  if (report.flagged) {
    footer.push('FLAGGED (!): some responses were not 2xx or failed; those rows are not trustworthy:');
    for (const s of report.scenarios.filter((x) => x.flagged)) {
      footer.push(`  ${s.id}: status codes ${JSON.stringify(s.result.statusCodes)}, errors ${s.result.errors}, timeouts ${s.result.timeouts}`);
    }
  }
  return [...header, '', table(rows), '', ...footer].join('\n');
}

export function writeJson(report: RunReport, file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
}
