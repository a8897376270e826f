import type { RunningServer } from '../lib/child.ts';
import type { ResultsSetup, ResultsWorkload } from '../lib/protocol.ts';
import { isObject, type RequestSetup, type Scenario } from './types.ts';

/**
 * GET /v2/questions/{id}/result (docs/results.md "Caching and speed") on a single-choice question
 * with 5,000 answers from 5,000 panel heads (so every breakdown has real segments: country, tier,
 * age band, gender, tags), 70% with a reason (sentiment, the `q` filter), one account's key.
 * The answers are written in bulk in the app child (app-control.ts `results.prepare`: one
 * transaction, the question's count, tally, credits and the account's hold moved as the recorder
 * would), the last one through the recorder, which completes the question; its final summary
 * (insights) is made then too, or the insights job would make it during a measured run.
 *
 * Three rows:
 * - `result`: the unfiltered result, every request after the first served from the result cache
 *   (same version): what a request costs beyond the cache is the question row, the flags of the
 *   50 answers shown, the latest summary, and serialising a big Result;
 * - `result-filtered`: `?country=<the country with most answers>&tier=1`, the filtered view kept
 *   per question version (computed once, then served from the entry);
 * - `result-after-answer`: a live question with 4,000 answers (n = 5,000); every ANSWER_EVERY-th
 *   request also has the app child record one more panel answer through the recorder (IPC, not
 *   awaited, one at a time), so the next read of the new version takes the incremental refresh
 *   path (the new rows, removals and pins checked, aggregates recomputed over 4,000+ rows). That
 *   answer's own statements (about 10) are in the row's SQL/req, about 10 / ANSWER_EVERY; when the
 *   question fills (1,000 answers of room), interleaving stops and the facts say so.
 * Each row reports the cache's hits, loads and refreshes during its measured run.
 */
const N = 5000;
/** Distinct heads for 5,000 answers, and spare ones for the answers recorded during the run. */
const HEADS = 6000;
const COMPLETE: ResultsWorkload = { id: 'results-complete', n: N, answers: N, heads: HEADS };
/** Room for 1,000 answers during the sample, warm-up and measured run (at 20 requests each: 20,000 requests). */
const LIVE: ResultsWorkload = { id: 'results-live', n: N, answers: 4000, heads: HEADS };
/** One read in 20 finds a new version (fewer when an answer is still being recorded when the next falls due). */
const ANSWER_EVERY = 20;

const pathOf = (id: string) => `/v2/questions/${id}/result`;

/** The result cache's counters during the measured run. */
function cacheDuringRun(app: RunningServer): NonNullable<RequestSetup['measured']> {
  let before: Awaited<ReturnType<typeof cacheStats>> | null = null;
  const cacheStats = () => app.call('results.cache', {});
  return {
    async start() {
      before = await cacheStats();
    },
    async end() {
      const after = await cacheStats();
      return { cacheHits: after.hits - before!.hits, cacheLoads: after.loads - before!.loads, cacheRefreshes: after.refreshes - before!.refreshes };
    },
  };
}

function factsOf(setup: ResultsSetup): Record<string, unknown> {
  return { answers: setup.answers, withReason: setup.withReason, status: setup.status, setupMs: setup.ms };
}

function checkResult(body: unknown, expect: { minAnswers: number; filtered: boolean }): string[] {
  if (!isObject(body) || !isObject(body.result)) return ['expected {"result": {...}}'];
  const r = body.result;
  const problems: string[] = [];
  const n = r.nAccepted as number;
  if (typeof r.nUnfiltered !== 'number' || r.nUnfiltered < expect.minAnswers) problems.push(`nUnfiltered is ${JSON.stringify(r.nUnfiltered)}, expected at least ${expect.minAnswers}`);
  if (expect.filtered) {
    if (typeof n !== 'number' || n <= 0 || n >= (r.nUnfiltered as number)) problems.push(`a filtered nAccepted should be between 0 and nUnfiltered, got ${JSON.stringify(n)}`);
    if (!isObject(r.filter) || typeof r.filter.country !== 'string' || r.filter.tier !== 1) problems.push(`filter not echoed: ${JSON.stringify(r.filter)}`);
    if (r.suppressed === true) problems.push('the filtered view is suppressed: pick a bigger country');
  } else if (n !== r.nUnfiltered) problems.push(`nAccepted ${JSON.stringify(n)} differs from nUnfiltered ${JSON.stringify(r.nUnfiltered)} without a filter`);
  if (!Array.isArray(r.distribution) || r.distribution.length !== 4) problems.push('distribution does not have the 4 options');
  if (!Array.isArray(r.answers) || r.answers.length !== 50) problems.push(`expected the 50 latest answers, got ${Array.isArray(r.answers) ? r.answers.length : 'none'}`);
  const dimensions = Array.isArray(r.breakdowns) ? new Set(r.breakdowns.map((b) => (isObject(b) ? b.dimension : null))) : new Set();
  for (const dimension of ['country', 'age_band', 'gender', 'tag']) if (!dimensions.has(dimension)) problems.push(`no ${dimension} breakdown`);
  if (!isObject(r.sentiment)) problems.push('no sentiment (the reasons were not read)');
  return problems;
}

export const result: Scenario = {
  id: 'result',
  title: 'GET result, 5,000 answers with reasons and profiles, from the result cache',
  target: 'app',
  method: 'GET',
  path: '/v2/questions/{id}/result',
  async prepare(app) {
    const setup = await app.call('results.prepare', COMPLETE, 600_000);
    const headers = { authorization: `Bearer ${setup.secret}` };
    const path = pathOf(setup.questionId);
    return { headers: () => headers, path: () => path, measured: cacheDuringRun(app), facts: factsOf(setup) };
  },
  check: (body) => checkResult(body, { minAnswers: N, filtered: false }),
};

export const resultFiltered: Scenario = {
  id: 'result-filtered',
  title: 'GET result ?country=<largest>&tier=1, same question, filtered view from the cache',
  target: 'app',
  method: 'GET',
  path: '/v2/questions/{id}/result?country={largest}&tier=1',
  async prepare(app) {
    // The same question as `result` (made once per run, whichever row runs first).
    const setup = await app.call('results.prepare', COMPLETE, 600_000);
    const headers = { authorization: `Bearer ${setup.secret}` };
    const path = `${pathOf(setup.questionId)}?country=${setup.topCountry}&tier=1`;
    return {
      headers: () => headers,
      path: () => path,
      measured: cacheDuringRun(app),
      facts: { ...factsOf(setup), country: setup.topCountry, countryAnswers: setup.topCountryAnswers, matching: setup.topCountryTier1 },
    };
  },
  check: (body) => checkResult(body, { minAnswers: N, filtered: true }),
};

export const resultAfterAnswer: Scenario = {
  id: 'result-after-answer',
  title: `GET result, live question with 4,000+ answers, one new answer every ${ANSWER_EVERY} requests (incremental refresh)`,
  target: 'app',
  method: 'GET',
  path: '/v2/questions/{id}/result',
  async prepare(app) {
    const setup = await app.call('results.prepare', LIVE, 600_000);
    const headers = { authorization: `Bearer ${setup.secret}` };
    const path = pathOf(setup.questionId);
    const cache = cacheDuringRun(app);
    // Answers are recorded one at a time: a request that falls due while one is being recorded skips its turn.
    const answers = { recorded: 0, refused: 0, failed: 0, skipped: 0, answered: setup.answers, full: false, firstProblem: null as string | null };
    let sent = 0;
    let recording = false;
    function interleave() {
      if (++sent % ANSWER_EVERY !== 0 || answers.full) return;
      if (recording) return void (answers.skipped += 1);
      recording = true;
      app
        .call('results.answer', { id: LIVE.id }, 60_000)
        .then(
          (outcome) => {
            if (outcome.accepted) answers.recorded += 1;
            else {
              answers.refused += 1;
              answers.firstProblem ??= outcome.reason;
              if (outcome.reason === 'full') answers.full = true;
            }
            answers.answered = Math.max(answers.answered, outcome.answered);
          },
          (error: Error) => {
            answers.failed += 1;
            answers.firstProblem ??= error.message.split('\n')[0];
          },
        )
        .finally(() => (recording = false));
    }
    let at = { ...answers };
    return {
      headers: () => {
        interleave();
        return headers;
      },
      path: () => path,
      measured: {
        async start() {
          at = { ...answers };
          await cache.start();
        },
        async end() {
          return {
            ...(await cache.end()),
            answersRecorded: answers.recorded - at.recorded,
            answersSkipped: answers.skipped - at.skipped,
            answersRefused: answers.refused - at.refused,
            answersFailed: answers.failed - at.failed,
            answeredAtEnd: answers.answered,
            ...(answers.firstProblem ? { firstProblem: answers.firstProblem } : {}),
          };
        },
      },
      facts: { ...factsOf(setup), n: LIVE.n, answerEvery: ANSWER_EVERY },
    };
  },
  check: (body) => checkResult(body, { minAnswers: LIVE.answers, filtered: false }),
};
