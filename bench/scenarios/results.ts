import http from 'node:http';
import type { RunningServer } from '../lib/child.ts';
import type { ResultsSetup, ResultsWorkload } from '../lib/protocol.ts';
import { isObject, type RequestSetup, type Scenario, type Servers } from './types.ts';

/**
 * GET /v2/questions/{id}/result (docs/results.md "Caching and speed") on a single-choice question
 * with 5,000 answers from 5,000 panel heads (so every breakdown has real segments: country, tier,
 * age band, gender, tags), 70% with a reason (sentiment, the `q` filter), one account's key.
 * The answers are written in bulk in the app child (app-control.ts `results.prepare`: one
 * transaction, the question's count, tally, credits and the account's hold moved as the recorder
 * would), the last one through the recorder, which completes the question; its final summary
 * (insights) is made then too, or the insights job would make it during a measured run.
 *
 * The rows:
 * - `result`: the unfiltered result, every request after the first served from the result cache
 *   (same version): what a request costs beyond the cache is the key, one statement (the question
 *   row, the flags of the 50 answers shown, the summary's fingerprint) and sending ~89 KB of
 *   prepared bytes. Its ratio is to `result-bare`: bare Fastify sending the very same bytes (read
 *   from the app once in set-up), the least any server spends on this response;
 * - `result-br`: the same with `accept-encoding: gzip, br` (brotli, made once per Result), and
 *   `result-fields`: with `fields=status,nAccepted,distribution,summary` (an agent's small read);
 *   each compared with its own `-bare` row sending its bytes;
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
      return { keptHits: after.keptHits - before!.keptHits, cacheHits: after.hits - before!.hits, cacheLoads: after.loads - before!.loads, cacheRefreshes: after.refreshes - before!.refreshes };
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

/** One GET as it comes off the wire: no decompression (fetch would undo the coding). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/** A way of asking for the cached result: its query and Accept-Encoding. */
interface ResultVariant {
  id: string;
  query: string;
  acceptEncoding?: string;
  title: string;
  check(body: unknown): string[];
}

/** The request of a variant on the complete question, and its response as sent. */
async function variantRequest(app: RunningServer, variant: ResultVariant) {
  const setup = await app.call('results.prepare', COMPLETE, 600_000);
  const headers: Record<string, string> = { authorization: `Bearer ${setup.secret}`, ...(variant.acceptEncoding ? { 'accept-encoding': variant.acceptEncoding } : {}) };
  const path = pathOf(setup.questionId) + variant.query;
  const response = await rawGet(app.baseUrl + path, headers);
  if (response.status !== 200) throw new Error(`${variant.id}: GET ${path} answered ${response.status}: ${response.body.toString('utf8').slice(0, 300)}`);
  const coding = response.headers['content-encoding'] ?? null;
  if ((variant.acceptEncoding ? 'br' : null) !== coding) throw new Error(`${variant.id}: content-encoding ${coding}, expected ${variant.acceptEncoding ? 'br' : 'none'}`);
  return { setup, headers, path, response, facts: { ...factsOf(setup), bodyBytes: response.body.length, contentEncoding: coding } };
}

/** The app row of a variant; its baseline is the variant's `-bare` row. */
function appRow(variant: ResultVariant): Scenario {
  return {
    id: variant.id,
    title: variant.title,
    target: 'app',
    method: 'GET',
    path: `/v2/questions/{id}/result${variant.query}`,
    baseline: `${variant.id}-bare`,
    async prepare(app) {
      const { headers, path, facts } = await variantRequest(app, variant);
      return { headers: () => headers, path: () => path, measured: cacheDuringRun(app), facts };
    },
    check: variant.check,
  };
}

/** Bare Fastify sending the very bytes (and content headers) the app answered to the variant's request. */
function sameBytesRow(variant: ResultVariant): Scenario {
  const name = variant.id;
  return {
    id: `${variant.id}-bare`,
    title: `bare Fastify sending the bytes of ${variant.id} (read from the app once)`,
    target: 'bare',
    method: 'GET',
    path: `/same-bytes/${name}`,
    async prepare(bare: RunningServer, servers: Servers) {
      const app = servers.get('app');
      if (!app) throw new Error(`${name}-bare needs the app server`);
      const { response, facts } = await variantRequest(app, variant);
      const headers: Record<string, string> = {};
      for (const header of ['content-type', 'content-encoding', 'vary']) {
        const value = response.headers[header];
        if (typeof value === 'string') headers[header] = value;
      }
      await bare.call('bare.body', { name, base64: response.body.toString('base64'), headers });
      const acceptEncoding: Record<string, string> = variant.acceptEncoding ? { 'accept-encoding': variant.acceptEncoding } : {};
      return { headers: () => acceptEncoding, facts: { bodyBytes: facts.bodyBytes, contentEncoding: facts.contentEncoding } };
    },
    check: variant.check,
  };
}

const FIELDS = ['status', 'nAccepted', 'distribution', 'summary'];
const FULL: ResultVariant = {
  id: 'result',
  query: '',
  title: 'GET result, 5,000 answers with reasons and profiles, from the result cache',
  check: (body) => checkResult(body, { minAnswers: N, filtered: false }),
};
const BROTLI: ResultVariant = {
  id: 'result-br',
  query: '',
  acceptEncoding: 'gzip, br',
  title: 'GET result as `result`, with accept-encoding: gzip, br (brotli bytes made once)',
  check: (body) => checkResult(body, { minAnswers: N, filtered: false }),
};
const FIELDS_ONLY: ResultVariant = {
  id: 'result-fields',
  query: `?fields=${FIELDS.join(',')}`,
  title: `GET result ?fields=${FIELDS.join(',')}, same question`,
  check: (body) => {
    if (!isObject(body) || !isObject(body.result)) return ['expected {"result": {...}}'];
    const keys = Object.keys(body.result);
    return keys.length === FIELDS.length && FIELDS.every((f) => keys.includes(f)) ? [] : [`expected only ${FIELDS.join(', ')}, got ${keys.join(', ')}`];
  },
};

export const resultBare = sameBytesRow(FULL);
export const result = appRow(FULL);
export const resultBrBare = sameBytesRow(BROTLI);
export const resultBr = appRow(BROTLI);
export const resultFieldsBare = sameBytesRow(FIELDS_ONLY);
export const resultFields = appRow(FIELDS_ONLY);

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
