import { createPollers, epochNow, type PollOutcome } from '../lib/long-poll.ts';
import type { RunningServer } from '../lib/child.ts';
import type { WaitsReport } from '../lib/report.ts';
import type { WaitScenario, WaitSettings } from './types.ts';

/**
 * 10,000 concurrent GET /v2/questions/{id}/wait?seconds=25, spread over 100 live questions of one
 * account, each question one answer short of its n. Measured:
 * - opening: how fast the app takes them in (auth + one read each), flow-controlled so at most
 *   MAX_AHEAD requests are in flight but not yet waiting (a burst of 10,000 SYNs would overflow the
 *   accept queue and measure TCP retransmits instead);
 * - memory: the app child's RSS and heap after full collections, before and while they wait;
 * - idle cost: SQL statements per second while nothing happens but the waiting;
 * - wake-up: the orchestrator asks the app child (IPC) to record the last answer of every
 *   question at once, which completes them; latency of every response from that command, and
 *   from its own question's commit (both processes read the same wall clock), and that every one
 *   of them ends with done: true. A waiter whose 25 s ran out before the close asks again, as a
 *   client should, and the re-polls are counted.
 * Bounded: opening stops after OPEN_TIMEOUT_MS (the close then goes ahead with whoever waits, and
 * the section says so), and responses are awaited WAKE_TIMEOUT_MS after the close. On the embedded
 * database both can take most of that: every wait costs round trips on one single-threaded database.
 */
const N = 10;
const MAX_AHEAD = 500;
const OPEN_TIMEOUT_MS = 120_000;
/** Longer than the wait service's safety re-check (5 s), so every waiter re-checks in it. */
const IDLE_SECONDS = 6;
/** Responses must all be in this long after the close command. */
const WAKE_TIMEOUT_MS = 120_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number) => Math.round((bytes / 1024 ** 2) * 10) / 10;
const round = (ms: number) => Math.round(ms * 10) / 10;

function percentiles(values: number[]): { p50: number; p99: number; max: number } {
  if (values.length === 0) return { p50: 0, p99: 0, max: 0 };
  const sorted = Float64Array.from(values).sort();
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return { p50: round(at(50)), p99: round(at(99)), max: round(sorted[sorted.length - 1]) };
}

async function run(app: RunningServer, settings: WaitSettings, log: (line: string) => void): Promise<WaitsReport> {
  const { waiters, questions, waitSeconds } = settings;
  const notes: string[] = [];
  const prep = await app.call('waits.prepare', { questions, n: N }, 600_000);
  const memoryBefore = await app.call('memory', { gc: true });
  const beforeOpen = await app.stats();

  const pollers = createPollers(app.baseUrl, `Bearer ${prep.secret}`, waiters);
  const outcomes: Array<Promise<PollOutcome>> = [];
  const finished: PollOutcome[] = [];
  const openStart = performance.now();
  let waiting = 0;
  try {
    // Open, keeping at most MAX_AHEAD requests between "sent" and "waiting in the service".
    let timedOut = false;
    while (outcomes.length < waiters && !timedOut) {
      waiting = (await app.call('waits.count', {})).waiting;
      const inFlight = outcomes.length - waiting - finished.length;
      for (let room = MAX_AHEAD - inFlight; room > 0 && outcomes.length < waiters; room--) {
        const index = outcomes.length;
        const path = `/v2/questions/${prep.questionIds[index % questions]}/wait?seconds=${waitSeconds}`;
        // Generous: a slow wake-up is measured, not cut off (the scenario has its own bounds).
        const outcome = pollers.poll(index, path, OPEN_TIMEOUT_MS + WAKE_TIMEOUT_MS);
        void outcome.then((o) => finished.push(o));
        outcomes.push(outcome);
      }
      timedOut = performance.now() - openStart > OPEN_TIMEOUT_MS;
      await sleep(10);
    }
    while (!timedOut) {
      waiting = (await app.call('waits.count', {})).waiting;
      if (waiting + finished.length >= outcomes.length) break;
      timedOut = performance.now() - openStart > OPEN_TIMEOUT_MS;
      await sleep(20);
    }
    const openSeconds = (performance.now() - openStart) / 1000;
    const afterOpen = await app.stats();
    const sentAtOpen = pollers.sent();
    log(`  waits: ${waiting} waiting after ${openSeconds.toFixed(1)} s (${outcomes.length} sent, ${sentAtOpen - outcomes.length} re-polls, ${finished.length} ended)`);
    if (timedOut) notes.push(`opening stopped after ${OPEN_TIMEOUT_MS / 1000} s with ${outcomes.length} of ${waiters} sent and ${waiting} waiting; the close went ahead with them.`);
    if (sentAtOpen > outcomes.length) notes.push(`${sentAtOpen - outcomes.length} waits ran out of their ${waitSeconds} s while the others were still being opened, and asked again.`);
    if (finished.length) notes.push(`${finished.length} waits ended before the close (errors).`);

    const memoryWaiting = await app.call('memory', { gc: true });
    // Idle: only the waiting happens (and the job queue's polling, re-polls if opening was slow).
    const idleSeconds = IDLE_SECONDS;
    const idleStart = await app.stats();
    const sentBeforeIdle = pollers.sent();
    await sleep(idleSeconds * 1000);
    const idleEnd = await app.stats();
    const idleRepolls = pollers.sent() - sentBeforeIdle;
    if (idleRepolls) notes.push(`${idleRepolls} re-polls fell in the idle window; its SQL rate includes them.`);
    waiting = (await app.call('waits.count', {})).waiting;

    // The close: every question gets its last answer at once.
    const commandAt = epochNow();
    const closed = await app.call('waits.complete', {}, WAKE_TIMEOUT_MS);
    let giveUp: NodeJS.Timeout | undefined;
    const all = await Promise.race([Promise.all(outcomes), new Promise<null>((resolve) => (giveUp = setTimeout(() => resolve(null), WAKE_TIMEOUT_MS)))]);
    clearTimeout(giveUp);
    pollers.stop();
    const afterWake = await app.stats();
    const results = all ?? finished;
    if (!all) notes.push(`only ${finished.length} of ${waiters} waits had answered ${WAKE_TIMEOUT_MS / 1000} s after the close.`);
    const questionOf = (path: string) => path.split('/')[3];
    const done = results.filter((o) => o.done);
    const httpErrors: Record<string, number> = {};
    for (const o of results) if (!o.done && o.status !== 0) httpErrors[o.status] = (httpErrors[o.status] ?? 0) + 1;
    const networkErrors = results.filter((o) => o.status === 0);
    // Wake-up latency of the waits answered after the close (a wait that failed before it has none).
    const fromClose = done.filter((o) => o.endedAt >= commandAt).map((o) => o.endedAt - commandAt);
    const fromCommit = done.filter((o) => closed.committedAt[questionOf(o.path)] !== undefined).map((o) => o.endedAt - closed.committedAt[questionOf(o.path)]);
    const report: WaitsReport = {
      id: 'waits',
      title: `${waiters.toLocaleString('en-GB')} concurrent GET /v2/questions/{id}/wait?seconds=${waitSeconds} over ${questions} questions`,
      waiters,
      questions,
      waitSeconds,
      setupMs: prep.ms,
      open: {
        seconds: round(openSeconds),
        perSecond: Math.round(waiters / openSeconds),
        sqlPerWait: Math.round(((afterOpen.queries - beforeOpen.queries) / waiters) * 100) / 100,
      },
      memory: {
        rssMbBefore: mb(memoryBefore.rss),
        rssMbWaiting: mb(memoryWaiting.rss),
        heapMbBefore: mb(memoryBefore.heapUsed),
        heapMbWaiting: mb(memoryWaiting.heapUsed),
        rssKbPerWaiter: Math.round(((memoryWaiting.rss - memoryBefore.rss) / 1024 / waiters) * 10) / 10,
        heapKbPerWaiter: Math.round(((memoryWaiting.heapUsed - memoryBefore.heapUsed) / 1024 / waiters) * 10) / 10,
      },
      idle: {
        seconds: idleSeconds,
        repolls: idleRepolls,
        waitingAtEnd: waiting,
        sqlPerSecond: idleSeconds ? Math.round((idleEnd.queries - idleStart.queries) / idleSeconds) : 0,
        otherSqlPerSecond: idleSeconds ? Math.round((idleEnd.otherQueries - idleStart.otherQueries) / idleSeconds) : 0,
        appCpuPercent: Math.round((idleEnd.cpuMicros - idleStart.cpuMicros) / 1e4 / idleSeconds),
      },
      close: { commitMs: round(closed.finishedAt - closed.startedAt), failures: closed.failures },
      wakeMs: { fromClose: percentiles(fromClose), fromCommit: percentiles(fromCommit) },
      sqlPerWaiterAfterClose: Math.round(((afterWake.queries - idleEnd.queries) / waiters) * 100) / 100,
      cpuMsPerWaiterAfterClose: Math.round(((afterWake.cpuMicros - idleEnd.cpuMicros) / 1000 / waiters) * 1000) / 1000,
      outcome: {
        sent: outcomes.length,
        done: done.length,
        notDone: outcomes.length - done.length,
        httpErrors,
        networkErrors: networkErrors.length,
        repolls: pollers.sent() - outcomes.length,
        firstError: networkErrors[0]?.error ?? null,
      },
      flagged: false,
      notes,
    };
    report.flagged = report.outcome.done !== waiters || closed.failures.length > 0 || timedOut;
    return report;
  } finally {
    pollers.stop();
    pollers.close();
  }
}

export const waits: WaitScenario = {
  kind: 'waits',
  id: 'waits',
  title: 'concurrent long-polls: memory and wake-up',
  target: 'app',
  run,
};
