import { randomUUID } from 'node:crypto';
import { isObject, type Scenario } from './types.ts';

/**
 * POST /v1/public/link/{code}/answers (docs/answer-link.md): anonymous answers through answer
 * links, over HTTP, no key. Every request is a new page load: a fresh nonce, a valid
 * single-choice answer (a reason on a third of them), dwellMs, locale and a human-check token.
 * Per request: the question and the nonce's earlier answer in one read (one statement for the
 * answers arriving together), the answer checked against the question, the token verified over
 * HTTP with siteverify (production requires the check; here a stand-in in its own process,
 * servers/siteverify.ts, so Cloudflare's own tens of milliseconds are not in the figures), then
 * the recorder's transaction (question row locked,
 * nonce re-checked, answer inserted, count and tally moved, the account's hold spent).
 *
 * 20 live questions of one account, n = 5,000 each (100,000 answers of room: none fills during a
 * run), their links taken in turn, as many people answering several shared links at once. Like
 * the in-app `answers` row, every answer also updates that one account's balance row. The
 * per-IP and per-link limits are raised for the run (servers/app.ts); the per-link limit would
 * otherwise stop a link at 300 a minute. Each response's `accepted` is counted: an answer not
 * accepted (a question full or closed) flags the row. The answers stored during the measured run
 * are counted in the database too (they include requests the load generator abandoned at the end).
 */
const QUESTIONS = 20;
const N = 5000;

export const linkAnswers: Scenario = {
  id: 'link-answers',
  title: 'POST link answer, fresh nonce each, 20 live links of one account, human check against a local siteverify',
  target: 'app',
  method: 'POST',
  path: '/v1/public/link/{code}/answers',
  status: 200,
  humanCheck: true,
  insertBaseline: true,
  async prepare(app) {
    const { codes, questionIds, ms } = await app.call('links.prepare', { questions: QUESTIONS, n: N }, 300_000);
    const paths = codes.map((code) => `/v1/public/link/${code}/answers`);
    let nextPath = 0;
    let k = 0;
    let storedBefore = 0;
    const stored = async () => (await app.call('links.count', { questionIds })).answers;
    return {
      headers: () => ({}),
      path: () => paths[nextPath++ % paths.length],
      body: () => {
        k += 1;
        return {
          answer: k % 3 === 0 ? { option: k % 2, reason: 'Shorter and easier to say out loud' } : { option: k % 2 },
          nonce: randomUUID(),
          dwellMs: 2000 + (k % 9000),
          interrupted: false,
          humanCheckToken: 'bench-turnstile-token',
          locale: 'en-GB',
        };
      },
      measured: {
        async start() {
          storedBefore = await stored();
        },
        async end() {
          return { answersStored: (await stored()) - storedBefore };
        },
      },
      facts: { questions: QUESTIONS, n: N, accounts: 1, setupMs: ms },
    };
  },
  outcome: (body) => (isObject(body) && body.accepted === true ? 'ok' : `not accepted (${isObject(body) ? String(body.state) : '?'})`),
  check(body) {
    if (!isObject(body)) return ['body is not a JSON object'];
    const problems: string[] = [];
    if (body.accepted !== true) problems.push(`accepted is ${JSON.stringify(body.accepted)}, expected true`);
    if (body.state !== 'live') problems.push(`state is ${JSON.stringify(body.state)}, expected "live"`);
    return problems;
  },
};

/**
 * The same at 100 connections, and its plain insert transaction at 100: not a goal row. With 20
 * callers in a closed loop a link answer waits on the read, the human check's round trip and the
 * recorder's one batch at a time, so the row is bound by its latency as much as by the app's CPU
 * (docs/performance.md, the fifteenth session); people answering links are many more than 20.
 * With more callers at once, each batch carries more answers.
 */
export const linkAnswersMany: Scenario = {
  ...linkAnswers,
  id: 'link-answers-100',
  title: 'The same link answers, 100 connections (and the insert transaction at 100)',
  connections: 100,
};
