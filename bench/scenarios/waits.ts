import { createPollers, epochNow, type PollOutcome } from '../lib/long-poll.ts';
import type { RunningServer } from '../lib/child.ts';
import type { WaitsReport, WakeRound } from '../lib/report.ts';
import type { WaitScenario, WaitSettings } from './types.ts';

/**
 * 10,000 concurrent GET /v2/questions/{id}/wait?seconds=25, first spread over 100 live questions
 * of one account, each question one answer short of its n; then 10,000 on one question (issue 15:
 * "10,000 waiters of one question get their answer with p99 ≤ 1 s after the close"). Measured:
 * - opening: how fast the app takes them in (auth + one read each), flow-controlled so at most
 *   MAX_AHEAD requests are in flight but not yet waiting (a burst of 10,000 SYNs would overflow the
 *   accept queue and measure TCP retransmits instead);
 * - memory: the app child's RSS and heap after full collections, before and while they wait;
 * - idle cost: SQL statements per second while nothing happens but the waiting;
 * - wake-up: the orchestrator asks the app child (IPC) to record the last answer of every
 *   question at once, which completes them; latency of every response from that command, and
 *   from its own question's commit (both processes read the same wall clock), and that every one
 *   of them ends with done: true. A waiter whose 25 s ran out before the close asks again, as a
 *   client should, and the re-polls are counted. The one-question round measures opening and
 *   wake-up only (with BENCH_WAIT_QUESTIONS=1 the first round is that case, and runs alone).
 * The clients are plain sockets that note each response's arrival as its last byte is read
 * (lib/long-poll.ts): the measuring process must not be the bottleneck. A warm-up wait first makes
 * the route compile its response serializer, as every other row has its warm-up.
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

type Pollers = ReturnType<typeof createPollers>;

/** Opens `waiters` waits (the i-th on `pathOf(i)`), flow-controlled, until all wait or OPEN_TIMEOUT_MS. */
async function openWaits(app: RunningServer, pollers: Pollers, waiters: number, pathOf: (index: number) => string) {
  const outcomes: Array<Promise<PollOutcome>> = [];
  const finished: PollOutcome[] = [];
  const sentBefore = pollers.sent();
  const started = performance.now();
  let waiting = 0;
  let timedOut = false;
  // Open, keeping at most MAX_AHEAD requests between "sent" and "waiting in the service".
  while (outcomes.length < waiters && !timedOut) {
    waiting = (await app.call('waits.count', {})).waiting;
    const inFlight = outcomes.length - waiting - finished.length;
    for (let room = MAX_AHEAD - inFlight; room > 0 && outcomes.length < waiters; room--) {
      // Generous: a slow wake-up is measured, not cut off (the scenario has its own bounds).
      const outcome = pollers.poll(outcomes.length, pathOf(outcomes.length), OPEN_TIMEOUT_MS + WAKE_TIMEOUT_MS);
      void outcome.then((o) => finished.push(o));
      outcomes.push(outcome);
    }
    timedOut = performance.now() - started > OPEN_TIMEOUT_MS;
    await sleep(10);
  }
  while (!timedOut) {
    waiting = (await app.call('waits.count', {})).waiting;
    if (waiting + finished.length >= outcomes.length) break;
    timedOut = performance.now() - started > OPEN_TIMEOUT_MS;
    await sleep(20);
  }
  const seconds = (performance.now() - started) / 1000;
  const notes: string[] = [];
  const repolls = pollers.sent() - sentBefore - outcomes.length;
  if (timedOut) notes.push(`opening stopped after ${OPEN_TIMEOUT_MS / 1000} s with ${outcomes.length} of ${waiters} sent and ${waiting} waiting; the close went ahead with them.`);
  if (repolls > 0) notes.push(`${repolls} waits ran out of their seconds while the others were still being opened, and asked again.`);
  if (finished.length) notes.push(`${finished.length} waits ended before the close (errors).`);
  return { outcomes, finished, waiting, seconds, timedOut, repolls, notes, sentBefore };
}

/** The close (the last answer of every prepared question at once) and every wait's answer to it. */
async function closeAndWake(app: RunningServer, pollers: Pollers, opened: Awaited<ReturnType<typeof openWaits>>, waiters: number, statsBefore: Awaited<ReturnType<RunningServer['stats']>>): Promise<WakeRound> {
  const { outcomes, finished, notes } = opened;
  const commandAt = epochNow();
  const clientCpuBefore = process.cpuUsage();
  const clientBytesBefore = pollers.received().bytes;
  const closed = await app.call('waits.complete', {}, WAKE_TIMEOUT_MS);
  let giveUp: NodeJS.Timeout | undefined;
  const all = await Promise.race([Promise.all(outcomes), new Promise<null>((resolve) => (giveUp = setTimeout(() => resolve(null), WAKE_TIMEOUT_MS)))]);
  clearTimeout(giveUp);
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const clientBytes = pollers.received().bytes - clientBytesBefore;
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
  const wake: WakeRound = {
    open: { seconds: round(opened.seconds), perSecond: Math.round(outcomes.length / opened.seconds) },
    close: { commitMs: round(closed.finishedAt - closed.startedAt), failures: closed.failures },
    wakeMs: { fromClose: percentiles(fromClose), fromCommit: percentiles(fromCommit) },
    sqlPerWaiterAfterClose: Math.round(((afterWake.queries - statsBefore.queries) / waiters) * 100) / 100,
    cpuMsPerWaiterAfterClose: Math.round(((afterWake.cpuMicros - statsBefore.cpuMicros) / 1000 / waiters) * 1000) / 1000,
    client: {
      cpuMsAfterClose: Math.round((clientCpu.user + clientCpu.system) / 1000),
      bytesPerResponse: fromClose.length ? Math.round(clientBytes / fromClose.length) : 0,
      distinctBodies: pollers.received().distinctBodies,
    },
    outcome: {
      sent: outcomes.length,
      done: done.length,
      notDone: outcomes.length - done.length,
      httpErrors,
      networkErrors: networkErrors.length,
      repolls: pollers.sent() - opened.sentBefore - outcomes.length,
      firstError: networkErrors[0]?.error ?? null,
    },
    flagged: false,
    notes,
  };
  wake.flagged = wake.outcome.done !== waiters || closed.failures.length > 0 || opened.timedOut;
  return wake;
}

/** Prepares `questions` questions and clients for them, and warms the route up (one wait that runs out). */
async function prepare(app: RunningServer, questions: number) {
  const prep = await app.call('waits.prepare', { questions, n: N }, 600_000);
  const pollers = createPollers(app.baseUrl, `Bearer ${prep.secret}`);
  const warm = await pollers.poll(-1, `/v2/questions/${prep.questionIds[0]}/wait?seconds=1`, 30_000, { once: true });
  if (warm.status !== 200 || warm.done) throw new Error(`waits: the warm-up wait answered ${warm.status}${warm.done ? ' done' : ''} (${warm.error ?? 'no error'})`);
  return { prep, pollers };
}

/** 10,000 waiters of one question: opening and wake-up only. */
async function oneQuestion(app: RunningServer, settings: WaitSettings, log: (line: string) => void): Promise<WakeRound & { setupMs: number }> {
  const { waiters, waitSeconds } = settings;
  const { prep, pollers } = await prepare(app, 1);
  try {
    const path = `/v2/questions/${prep.questionIds[0]}/wait?seconds=${waitSeconds}`;
    const opened = await openWaits(app, pollers, waiters, () => path);
    log(`  waits, one question: ${opened.waiting} waiting after ${opened.seconds.toFixed(1)} s`);
    return { setupMs: prep.ms, ...(await closeAndWake(app, pollers, opened, waiters, await app.stats())) };
  } finally {
    pollers.stop();
    pollers.close();
  }
}

async function run(app: RunningServer, settings: WaitSettings, log: (line: string) => void): Promise<WaitsReport> {
  const { waiters, questions, waitSeconds } = settings;
  const { prep, pollers } = await prepare(app, questions);
  let spread: Omit<WaitsReport, 'oneQuestion'>;
  try {
    const memoryBefore = await app.call('memory', { gc: true });
    const beforeOpen = await app.stats();
    const opened = await openWaits(app, pollers, waiters, (index) => `/v2/questions/${prep.questionIds[index % questions]}/wait?seconds=${waitSeconds}`);
    const afterOpen = await app.stats();
    log(`  waits: ${opened.waiting} waiting after ${opened.seconds.toFixed(1)} s (${opened.outcomes.length} sent, ${opened.repolls} re-polls, ${opened.finished.length} ended)`);

    const memoryWaiting = await app.call('memory', { gc: true });
    // Idle: only the waiting happens (and the job queue's polling, re-polls if opening was slow).
    const idleSeconds = IDLE_SECONDS;
    const idleStart = await app.stats();
    const sentBeforeIdle = pollers.sent();
    await sleep(idleSeconds * 1000);
    const idleEnd = await app.stats();
    const idleRepolls = pollers.sent() - sentBeforeIdle;
    if (idleRepolls) opened.notes.push(`${idleRepolls} re-polls fell in the idle window; its SQL rate includes them.`);
    const waitingAtEnd = (await app.call('waits.count', {})).waiting;

    const wake = await closeAndWake(app, pollers, opened, waiters, idleEnd);
    spread = {
      id: 'waits',
      title: `${waiters.toLocaleString('en-GB')} concurrent GET /v2/questions/{id}/wait?seconds=${waitSeconds} over ${questions} questions`,
      waiters,
      questions,
      waitSeconds,
      setupMs: prep.ms,
      ...wake,
      open: { ...wake.open, sqlPerWait: Math.round(((afterOpen.queries - beforeOpen.queries) / waiters) * 100) / 100 },
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
        waitingAtEnd,
        sqlPerSecond: idleSeconds ? Math.round((idleEnd.queries - idleStart.queries) / idleSeconds) : 0,
        otherSqlPerSecond: idleSeconds ? Math.round((idleEnd.otherQueries - idleStart.otherQueries) / idleSeconds) : 0,
        appCpuPercent: Math.round((idleEnd.cpuMicros - idleStart.cpuMicros) / 1e4 / idleSeconds),
      },
    };
  } finally {
    // Its sockets go before the next round opens as many again.
    pollers.stop();
    pollers.close();
  }
  const single = questions > 1 ? await oneQuestion(app, settings, log) : null;
  return { ...spread, oneQuestion: single, flagged: spread.flagged || (single?.flagged ?? false) };
}

export const waits: WaitScenario = {
  kind: 'waits',
  id: 'waits',
  title: 'concurrent long-polls: memory and wake-up',
  target: 'app',
  run,
};
