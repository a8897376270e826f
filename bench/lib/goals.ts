import type { RunReport, ScenarioReport } from './report.ts';
import type { StartupReport } from './startup.ts';

/**
 * Issue 15's table: each figure of this run beside its goal and its limit, the same machine in the
 * same run. A goal is either a ratio to the limit (the limit is then the thing measured beside the
 * row: a plain INSERT transaction at the same concurrency, a bare route sending the same bytes) or
 * an absolute bound (start-up, wake-up, the embedded rate) shown with what bounds it from below.
 * A row whose scenario did not run is left out; `met` is null when its figure was flagged (its
 * numbers are not trustworthy: see the scenario rows).
 */
export interface GoalRow {
  figure: string;
  /** This run's figure, as printed (a ratio "0.41×", a time "1.6 s", a rate "720/s"). */
  value: string;
  goal: string;
  /** What the figure is measured against, with its own number. */
  limit: string;
  met: boolean | null;
  /** A line under a goal that helps read it, not a goal of its own (no `met`). */
  context?: true;
}

const ratio = (value: number) => `${value >= 0.1 ? value.toFixed(2) : value.toPrecision(2)}×`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function vsInsert(row: ScenarioReport | undefined, figure: string, goal: number): GoalRow | null {
  if (!row?.insertTxn || row.vsInsertTxn === null) return null;
  return {
    figure,
    value: `${ratio(row.vsInsertTxn)} (${row.result.requestsPerSecond}/s)`,
    goal: `≥ ${goal}×`,
    limit: `plain insert transaction ${row.insertTxn.perSecond}/s`,
    met: row.flagged ? null : row.vsInsertTxn >= goal,
  };
}

export function goalRows(report: RunReport, startup: StartupReport | null): GoalRow[] {
  const row = (id: string) => report.scenarios.find((s) => s.id === id);
  const embedded = String(report.database.database).startsWith('embedded');
  const rows: Array<GoalRow | null> = [];
  if (startup) {
    const limit = `bare Fastify through npm ${seconds(startup.medians.limit)}`;
    rows.push({ figure: '`npm start` to /readyz, fresh data dir (embedded)', value: `${seconds(startup.medians.fresh)} (median of ${startup.runs})`, goal: '≤ 5 s', limit, met: startup.medians.fresh <= 5000 });
    rows.push({ figure: 'the same on an existing data dir', value: `${seconds(startup.medians.existing)} (median of ${startup.runs})`, goal: '≤ 2 s', limit, met: startup.medians.existing <= 2000 });
  }
  rows.push(vsInsert(row('answers'), 'answers through the recorder / plain insert transaction', 0.5));
  rows.push(vsInsert(row('link-answers'), 'link answers over HTTP (human check) / plain insert transaction', 0.3));
  // Not a goal of issue 15: the same at 100 connections against the insert at 100 (scenarios/links.ts).
  const many = row('link-answers-100');
  if (many?.insertTxn && many.vsInsertTxn !== null) {
    rows.push({
      figure: '  the same at 100 connections / the insert transaction at 100',
      value: `${ratio(many.vsInsertTxn)} (${many.result.requestsPerSecond}/s)`,
      goal: '-',
      limit: `plain insert transaction ${many.insertTxn.perSecond}/s at 100 connections`,
      met: null,
      context: true,
    });
  }
  rows.push(vsInsert(row('asks-20-accounts'), 'asks over HTTP, 20 accounts / plain insert transaction', 0.25));
  // Not a goal of issue 15: the asks' second limit, so the row above can be read against what the
  // ask's own writes cost the database (servers/ask-rows.ts).
  const asks = row('asks-20-accounts');
  if (asks?.askRowsTxn && asks.vsAskRowsTxn !== undefined && asks.insertTxn) {
    rows.push({
      figure: "  the same asks / the ask's own rows in one transaction",
      value: `${ratio(asks.vsAskRowsTxn)} (${asks.result.requestsPerSecond}/s)`,
      goal: '-',
      limit:
        `the ask's rows ${asks.askRowsTxn.perSecond}/s = ${ratio(asks.askRowsTxn.perSecond / asks.insertTxn.perSecond)} the insert` +
        (asks.askRowsTxn.dbCpuMs !== null && asks.insertTxn.dbCpuMs !== null ? ` (database CPU ${asks.askRowsTxn.dbCpuMs.toFixed(2)} ms against ${asks.insertTxn.dbCpuMs.toFixed(2)})` : ''),
      met: null,
      context: true,
    });
  }
  // The result row's own baseline is the bare server sending its bytes, re-measured right after it.
  const result = row('result');
  if (result?.vsBare && result.bare && result.baseline === 'result-bare') {
    const value = result.vsBare.requestsPerSecond;
    rows.push({
      figure: '`GET result`, 5,000 answers, cached / a bare route sending the same bytes',
      value: `${ratio(value)} (${result.result.requestsPerSecond} req/s, p50 ${result.result.latencyMs.p50.toFixed(1)} ms)`,
      goal: '≥ 0.5×',
      limit: `the same bytes from bare Fastify ${result.bare.requestsPerSecond} req/s`,
      met: result.flagged ? null : value >= 0.5,
    });
  }
  // Issue 15 names 10,000 waiters of one question: the scenario's one-question round (its only
  // round with BENCH_WAIT_QUESTIONS=1). The waits spread over many questions are in its section.
  const oneQuestion = report.waits?.oneQuestion ?? (report.waits?.questions === 1 ? report.waits : null);
  if (report.waits && oneQuestion) {
    const { p50, p99 } = oneQuestion.wakeMs.fromClose;
    rows.push({
      figure: `${report.waits.waiters.toLocaleString('en')} waiters of one question woken by its close: p99 wake-up`,
      value: `${seconds(p99)} (p50 ${seconds(p50)})`,
      goal: '≤ 1 s',
      limit: 'the close command itself (the clock starts when it is sent)',
      met: oneQuestion.flagged ? null : p99 <= 1000,
    });
  }
  const link = row('link-answers');
  if (embedded && link?.insertTxn) {
    rows.push({
      figure: 'embedded database: link answers',
      value: `${link.result.requestsPerSecond}/s`,
      goal: '≥ 600/s',
      limit: `plain insert transaction ${link.insertTxn.perSecond}/s`,
      met: link.flagged ? null : link.result.requestsPerSecond >= 600,
    });
  }
  return rows.filter((r): r is GoalRow => r !== null);
}

export function formatGoals(rows: GoalRow[]): string {
  if (!rows.length) return '';
  const header = ['figure', 'this run', 'goal', 'limit (same run)', 'met'];
  const cells = rows.map((r) => [r.figure, r.value, r.goal, r.limit, r.context ? '' : r.met === null ? 'flagged' : r.met ? 'yes' : 'NO']);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd();
  return ['Issue 15 goals', line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
