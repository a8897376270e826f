import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { createLinksRepository, type LinksRepository } from '../../src/modules/links/links.repository.ts';
import { createLinkService } from '../../src/modules/links/links.service.ts';
import { ask, choiceDraft, DAY, errorOf, expectReconciled, getQuestion, grant, sleep, type Json } from '../helpers/questions.ts';

/**
 * The answer link over HTTP (docs/answer-link.md; spec "Answer-page endpoints"; RELIABILITY R5.6,
 * R6.3, R7.3): what the page is shown, anonymous answers (nonce replay before the human check,
 * states after close and fill, bad input), page-load counts, the Cloudflare Turnstile check against
 * a local stand-in for siteverify, and the per-IP-per-link and per-link limits.
 *
 * Every response goes through t.inject, so it is also checked against the served /openapi.json.
 */

// ---------------------------------------------------------------------------------------------
// A stand-in for https://challenges.cloudflare.com/turnstile/v0/siteverify

const SECRET = '0x4AAAAAAAtestsecret';
const SITE_KEY = '0x4AAAAAAAtestsitekey';

interface Siteverify {
  url: string;
  /** Every call, as the form fields it received. */
  calls: Array<Record<string, string>>;
  /** A token the stand-in accepts once, as Cloudflare does (a second use is `timeout-or-duplicate`). */
  token(): string;
  /** ok: answers by the token; down: 503; drop: closes the connection; garbage: 200 that is not JSON. */
  mode: 'ok' | 'down' | 'drop' | 'garbage';
  close(): Promise<void>;
}

async function startSiteverify(): Promise<Siteverify> {
  const issued = new Set<string>();
  const spent = new Set<string>();
  const calls: Array<Record<string, string>> = [];
  const state: Siteverify = {
    url: '',
    calls,
    mode: 'ok',
    token() {
      const token = `good.${randomUUID()}`;
      issued.add(token);
      return token;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const fields = Object.fromEntries(new URLSearchParams(body));
      calls.push(fields);
      if (state.mode === 'drop') return void request.socket.destroy();
      if (state.mode === 'down') return void response.writeHead(503, { 'content-type': 'text/plain' }).end('down');
      if (state.mode === 'garbage') return void response.writeHead(200, { 'content-type': 'application/json' }).end('<html>oops');
      let errors: string[] = [];
      if (request.method !== 'POST' || request.headers['content-type'] !== 'application/x-www-form-urlencoded') errors = ['bad-request'];
      else if (fields.secret !== SECRET) errors = ['invalid-input-secret'];
      else if (!issued.has(fields.response)) errors = ['invalid-input-response'];
      else if (spent.has(fields.response)) errors = ['timeout-or-duplicate'];
      if (errors.length === 0) spent.add(fields.response);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ success: errors.length === 0, 'error-codes': errors }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/turnstile/v0/siteverify`;
  return state;
}

// ---------------------------------------------------------------------------------------------

let t: TestApp;
let verifier: Siteverify;
let owner: TestKey;

beforeAll(async () => {
  verifier = await startSiteverify();
  t = await createTestApp({
    env: {
      RATE_LIMIT_PER_IP: '100000',
      RATE_LIMIT_PER_KEY: '100000',
      PUBLIC_BASE_URL: 'https://headcount.test',
      TURNSTILE_SECRET: SECRET,
      TURNSTILE_SITE_KEY: SITE_KEY,
      TURNSTILE_VERIFY_URL: verifier.url,
    },
  });
  owner = await t.makeKey();
  await grant(t, owner.accountId, 1_000_000);
});
afterAll(async () => {
  await Promise.race([t?.close(), sleep(5_000)]);
  await verifier?.close();
});

let clients = 0;
/** A client address no other request has used. */
const newIp = () => `203.0.113.${++clients}`;

/** Asks as the owner; the question with its linkCode. */
async function linked(draft: Json = choiceDraft(), extra: Json = {}): Promise<Json> {
  const question = await ask(t, owner, { draft, ...extra });
  expect(question.linkCode).toMatch(/^[A-Za-z0-9]{4,32}$/);
  return question;
}

const view = (code: string) => t.inject({ method: 'GET', url: `/v1/public/link/${code}` });

interface SubmitOptions {
  nonce?: string;
  /** The human-check token; a fresh good one unless given (null: none at all). */
  token?: string | null;
  ip?: string;
  extra?: Json;
}

function submit(code: string, answer: Json, options: SubmitOptions = {}): Promise<LightMyRequestResponse> {
  const token = options.token === undefined ? verifier.token() : options.token;
  const payload: Json = { answer, nonce: options.nonce ?? randomUUID(), dwellMs: 4200, interrupted: false, locale: 'en-GB', ...options.extra };
  if (token !== null) payload.humanCheckToken = token;
  return t.inject({ method: 'POST', url: `/v1/public/link/${code}/answers`, payload, remoteAddress: options.ip ?? newIp() });
}

function expectOutcome(response: LightMyRequestResponse, outcome: Json): void {
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json()).toEqual({ showResult: false, resultCode: null, ...outcome });
  expectPrivate(response);
}

function expectPrivate(response: LightMyRequestResponse): void {
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['x-robots-tag']).toBe('noindex');
}

function expectError(response: LightMyRequestResponse, status: number, code: string): Json {
  expect(response.statusCode, response.body).toBe(status);
  const error = errorOf(response);
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  return error;
}

/** What the database holds for a question: its answers (by nonce) and counts. */
async function stored(questionId: string) {
  const answers = await t.db.selectFrom('answers').select(['nonce', 'option_label', 'source', 'tier', 'dwell_ms', 'locale', 'interrupted', 'country']).where('question_id', '=', questionId).orderBy('seq').execute();
  const q = await t.db.selectFrom('questions').select(['answered', 'credits_spent', 'tally', 'status']).where('id', '=', questionId).executeTakeFirstOrThrow();
  const starts = await t.db.selectFrom('link_starts').select('nonce').where('question_id', '=', questionId).execute();
  return { answers, answered: q.answered, spent: Number(q.credits_spent), tally: q.tally, status: q.status, starts: starts.length };
}

const patch = (id: string, payload: Json) => t.inject({ method: 'PATCH', url: `/v2/questions/${id}`, headers: owner.auth, payload });
const cancel = (id: string) => t.inject({ method: 'POST', url: `/v2/questions/${id}/cancel`, headers: owner.auth });

// ---------------------------------------------------------------------------------------------

describe('GET /v1/public/link/{code}', () => {
  it('shows every field of the question as a person sees it, and nothing about the owner, the price or the counts', async () => {
    const saved = await t.inject({ method: 'POST', url: '/v1/drafts', headers: owner.auth, payload: { type: 'single_choice', shownAs: 'Ada Labs' } });
    expect(saved.statusCode, saved.body).toBe(200);
    const question = await linked(
      choiceDraft({ context: 'For a savings app', neither: true, reason: 'optional', publicResults: true, language: 'en-GB' }),
      { fromDraftId: saved.json().id },
    );
    expect(question.publicCode).toMatch(/\w+/);
    await submit(question.linkCode, { option: 0 });

    const response = await view(question.linkCode);
    expect(response.statusCode, response.body).toBe(200);
    expectPrivate(response);
    expect(response.json()).toEqual({
      state: 'live',
      shownAs: 'Ada Labs',
      question: {
        type: 'single_choice',
        text: 'Which name is best for a savings app?',
        context: 'For a savings app',
        language: 'en-GB',
        choices: [
          { label: 'Penny', imageUrl: null },
          { label: 'Pocket', imageUrl: null },
        ],
        neither: true,
        stimulus: null,
        maxTaps: null,
        reason: 'optional',
      },
      opensAt: null,
      showResult: true,
      resultCode: question.publicCode,
    });
    // Nothing that names the owner's account, the question, its price or its counts.
    for (const secret of [owner.accountId, question.id, 'credits', 'answered', '"n"', 'Test account', 'accountId', 'askedBy', 'linkCode']) {
      expect(response.body, secret).not.toContain(secret);
    }
  });

  it('fixed choices, click tests and stimuli', async () => {
    const scale = await linked({ type: 'scale_1_5', text: 'How easy was it?', n: 10 });
    expect((await view(scale.linkCode)).json().question).toMatchObject({
      choices: ['1', '2', '3', '4', '5'].map((label) => ({ label, imageUrl: null })),
      neither: false,
      maxTaps: null,
      reason: 'off',
      context: null,
      language: 'en',
    });
    const yesNo = await linked({ type: 'yes_mostly_no', text: 'Would you use it?', n: 10 });
    expect((await view(yesNo.linkCode)).json().question.choices.map((c: Json) => c.label)).toEqual(['yes', 'mostly', 'no']);

    const click = await linked({ type: 'click_test', text: 'Where would you tap to pay?', stimulus: { imageUrl: 'https://img.example.com/checkout.png' }, clickTest: { maxTaps: 3 }, n: 10 });
    const body = (await view(click.linkCode)).json();
    expect(body.shownAs).toBeNull();
    expect(body.question).toMatchObject({
      type: 'click_test',
      choices: [],
      maxTaps: 3,
      stimulus: { imageUrl: 'https://img.example.com/checkout.png', audioUrl: null, text: null, exposureMs: null },
    });
  });

  it('an unknown code is 404 not_found, and so is a malformed one (it names nothing either)', async () => {
    expectError(await view('NoSuchCode123'), 404, 'not_found');
    expectError(await view('no-dashes!'), 404, 'not_found');
  });
});

describe('states (docs/answer-link.md: full only when every answer came in)', () => {
  it('scheduled shows opensAt; an answer is accepted: false, scheduled, and the human check is not spent', async () => {
    const opens = new Date(t.clock.now().getTime() + DAY).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const question = await linked(choiceDraft({ scheduledFor: opens }));
    const body = (await view(question.linkCode)).json();
    expect(body).toMatchObject({ state: 'scheduled', opensAt: new Date(opens).toISOString() });
    const calls = verifier.calls.length;
    expectOutcome(await submit(question.linkCode, { option: 0 }), { accepted: false, state: 'scheduled' });
    expect(verifier.calls.length).toBe(calls);
    expect((await stored(question.id)).answers).toEqual([]);
  });

  it('a scheduled question whose time has come opens when the link is opened, before its timer runs', async () => {
    const opens = new Date(t.clock.now().getTime() + DAY).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const question = await linked(choiceDraft({ scheduledFor: opens }));
    t.clock.advance(DAY + 1_000); // the go-live timer has not run (no job runner in tests)
    const body = (await view(question.linkCode)).json();
    expect(body).toMatchObject({ state: 'live', opensAt: null });
    expectOutcome(await submit(question.linkCode, { option: 1 }), { accepted: true, state: 'live' });
    expect((await stored(question.id)).answers).toHaveLength(1);
    const row = await t.db.selectFrom('questions').select(['status', 'live_at']).where('id', '=', question.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('live');
    expect(row.live_at?.toISOString()).toBe(new Date(t.clock.now()).toISOString());
  });

  it('a follow-up waiting for its first question is paused', async () => {
    const parent = await linked(choiceDraft(), { then: [{ text: 'Why did you pick that name?' }] });
    const child = await t.db.selectFrom('questions').select(['id', 'link_code']).where('parent_id', '=', parent.id).executeTakeFirstOrThrow();
    expect((await view(child.link_code)).json()).toMatchObject({ state: 'paused', opensAt: null });
    expectOutcome(await submit(child.link_code, { text: 'Because' }), { accepted: false, state: 'paused' });
    expect((await stored(child.id)).answers).toEqual([]);
  });

  it('the n-th answer makes it full; later answers are accepted: false, full', async () => {
    const question = await linked(choiceDraft({ n: 10 }));
    for (let i = 0; i < 9; i++) expectOutcome(await submit(question.linkCode, { option: i % 2 }), { accepted: true, state: 'live' });
    expectOutcome(await submit(question.linkCode, { option: 1 }), { accepted: true, state: 'full' });
    expect((await view(question.linkCode)).json().state).toBe('full');
    const calls = verifier.calls.length;
    expectOutcome(await submit(question.linkCode, { option: 0 }), { accepted: false, state: 'full' });
    expect(verifier.calls.length).toBe(calls);
    expect(await stored(question.id)).toMatchObject({ answered: 10, status: 'complete' });
    expect((await stored(question.id)).answers).toHaveLength(10);
  });

  it('closed early by minAnswers (complete with fewer than n) is closed, not full — on GET and in the answer that closes it', async () => {
    const early = await linked(choiceDraft({ n: 10 }));
    await submit(early.linkCode, { option: 0 });
    await submit(early.linkCode, { option: 1 });
    expect((await patch(early.id, { minAnswers: 2 })).statusCode).toBe(200);
    expect(await getQuestion(t, owner, early.id)).toMatchObject({ status: 'complete', answered: 2, n: 10 });
    expect((await view(early.linkCode)).json().state).toBe('closed');
    expectOutcome(await submit(early.linkCode, { option: 0 }), { accepted: false, state: 'closed' });

    // minAnswers set ahead: the answer that reaches it closes the question and says closed.
    const ahead = await linked(choiceDraft({ n: 10 }));
    expect((await patch(ahead.id, { minAnswers: 2 })).statusCode).toBe(200);
    expectOutcome(await submit(ahead.linkCode, { option: 0 }), { accepted: true, state: 'live' });
    expectOutcome(await submit(ahead.linkCode, { option: 1 }), { accepted: true, state: 'closed' });
    expect(await getQuestion(t, owner, ahead.id)).toMatchObject({ status: 'complete', answered: 2 });
    expect((await view(ahead.linkCode)).json().state).toBe('closed');
  });

  it('cancelled by its owner is closed', async () => {
    const question = await linked();
    await submit(question.linkCode, { option: 0 });
    expect((await cancel(question.id)).statusCode).toBe(200);
    expect((await view(question.linkCode)).json().state).toBe('closed');
    expectOutcome(await submit(question.linkCode, { option: 0 }), { accepted: false, state: 'closed' });
    expect(await stored(question.id)).toMatchObject({ answered: 1 });
  });

  it('past its open window it is closed, before and after the expiry job (underfilled)', async () => {
    const question = await linked();
    await submit(question.linkCode, { option: 0 });
    t.clock.advance(8 * DAY);
    expect((await view(question.linkCode)).json().state).toBe('closed');
    expectOutcome(await submit(question.linkCode, { option: 0 }), { accepted: false, state: 'closed' });
    await t.db.updateTable('questions').set({ status: 'underfilled', closed_at: t.clock.now() }).where('id', '=', question.id).execute();
    expect((await view(question.linkCode)).json().state).toBe('closed');
    expect(await stored(question.id)).toMatchObject({ answered: 1 });
  });
});

describe('POST /v1/public/link/{code}/answers', () => {
  it('an accepted answer is a tier-1 answer with no profile, in the result', async () => {
    const question = await linked(choiceDraft({ reason: 'optional' }));
    const nonce = randomUUID();
    const response = await submit(question.linkCode, { option: 1, reason: 'Shorter' }, { nonce, extra: { dwellMs: 8400, interrupted: true, locale: 'pt-BR' } });
    expectOutcome(response, { accepted: true, state: 'live' });

    expect((await stored(question.id)).answers).toEqual([
      { nonce, option_label: 'Pocket', source: 'link', tier: 1, dwell_ms: 8400, locale: 'pt-BR', interrupted: true, country: null },
    ]);
    const result = await t.inject({ method: 'GET', url: `/v2/questions/${question.id}/result`, headers: owner.auth });
    expect(result.statusCode, result.body).toBe(200);
    const body = result.json().result;
    expect(body.nAccepted).toBe(1);
    expect(body.distribution).toEqual(expect.arrayContaining([expect.objectContaining({ option: 'Pocket', count: 1 })]));
    expect(body.answers).toEqual([expect.objectContaining({ option: 'Pocket', reason: 'Shorter', tier: 1, attestationRef: expect.stringMatching(/^att_/) })]);
    expect(await getQuestion(t, owner, question.id)).toMatchObject({ answered: 1, creditsSpent: question.creditsPerAnswer });
    await expectReconciled(t);
  });

  it('a retry with the same nonce returns the first outcome before the human check, and records once', async () => {
    const question = await linked();
    const nonce = randomUUID();
    const token = verifier.token();
    expectOutcome(await submit(question.linkCode, { option: 0 }, { nonce, token }), { accepted: true, state: 'live' });
    const calls = verifier.calls.length;
    const before = await stored(question.id);

    // The reply was lost: the page retries with the same nonce and its (now spent) token.
    expectOutcome(await submit(question.linkCode, { option: 0 }, { nonce, token }), { accepted: true, state: 'live' });
    // Or without a token, or with another answer: still the first outcome, nothing new recorded.
    expectOutcome(await submit(question.linkCode, { option: 1 }, { nonce, token: null }), { accepted: true, state: 'live' });
    expect(verifier.calls.length).toBe(calls);
    expect(await stored(question.id)).toEqual(before);
    expect(before.answers).toHaveLength(1);
    expect(before.tally).toEqual({ Penny: 1 });
  });

  it('a replay shows the state as it is now', async () => {
    const question = await linked();
    const nonce = randomUUID();
    await submit(question.linkCode, { option: 0 }, { nonce });
    expect((await cancel(question.id)).statusCode).toBe(200);
    expectOutcome(await submit(question.linkCode, { option: 0 }, { nonce, token: null }), { accepted: true, state: 'closed' });
  });

  it('a nonce cannot carry a new answer past the human check', async () => {
    const first = await linked();
    const second = await linked();
    const nonce = randomUUID();
    expectOutcome(await submit(first.linkCode, { option: 0 }, { nonce }), { accepted: true, state: 'live' });
    // The same nonce on another link is a new answer there: it needs the check.
    expectError(await submit(second.linkCode, { option: 0 }, { nonce, token: null }), 403, 'human_check_failed');
    // A new nonce without a token, or with the token the first answer spent.
    expectError(await submit(first.linkCode, { option: 1 }, { token: null }), 403, 'human_check_failed');
    expect((await stored(first.id)).answers).toHaveLength(1);
    expect((await stored(second.id)).answers).toEqual([]);
  });

  it('the page shows the public result when the requester made it public', async () => {
    const question = await linked(choiceDraft({ publicResults: true }));
    const response = await submit(question.linkCode, { option: 0 });
    expect(response.json()).toEqual({ accepted: true, state: 'live', showResult: true, resultCode: question.publicCode });
  });

  it('answers sent together read their questions and nonces in one statement, and each is answered as if it came alone', async () => {
    const [first, second] = [await linked(), await linked()];
    const replayed = randomUUID();
    expectOutcome(await submit(first.linkCode, { option: 0 }, { nonce: replayed }), { accepted: true, state: 'live' });
    // The service as the container makes it, on a repository that counts the reads it is asked for.
    const repo = createLinksRepository(t.db);
    const reads: number[] = [];
    const counting: LinksRepository = { ...repo, findQuestionsByCodeAndNonce: (loads) => (reads.push(loads.length), repo.findQuestionsByCodeAndNonce(loads)) };
    const links = createLinkService({ repo: counting, clock: t.clock, recorder: t.container.answers, humanCheck: { enabled: false, verify: async () => true }, lifecycle: t.container.lifecycle });
    const body = (option: number, nonce = randomUUID()) => ({ answer: { option }, nonce, dwellMs: 3000, interrupted: false, locale: 'en-GB' });

    const fresh = Array.from({ length: 12 }, (_, i) => links.submit(i % 2 ? first.linkCode : second.linkCode, body(i % 2), newIp()));
    const replay = links.submit(first.linkCode, body(1, replayed), newIp());
    const unknown = links.submit('NoSuchCode123', body(0), newIp()).then(() => null, (error: unknown) => error);

    for (const outcome of await Promise.all(fresh)) expect(outcome).toEqual({ accepted: true, state: 'live', showResult: false, resultCode: null });
    expect(await replay).toEqual({ accepted: true, state: 'live', showResult: false, resultCode: null });
    expect(await unknown).toMatchObject({ code: 'not_found', status: 404 });
    expect(reads).toEqual([14]);
    // The replay recorded nothing: the first link has its first answer and six new ones.
    expect((await stored(first.id)).answers.map((a) => a.nonce).filter((n) => n === replayed)).toHaveLength(1);
    expect((await stored(first.id)).answered).toBe(7);
    expect((await stored(second.id)).answered).toBe(6);
    await expectReconciled(t);
  });

  it('an unknown code is 404 and no human check is spent', async () => {
    const calls = verifier.calls.length;
    expectError(await submit('NoSuchCode123', { option: 0 }), 404, 'not_found');
    expect(verifier.calls.length).toBe(calls);
  });

  describe('every bad input is a 4xx in the error envelope and changes nothing', () => {
    let question: Json;
    let click: Json;
    beforeAll(async () => {
      question = await linked(choiceDraft({ reason: 'required' }));
      click = await linked({ type: 'click_test', text: 'Where would you tap to pay?', stimulus: { imageUrl: 'https://img.example.com/pay.png' }, clickTest: { maxTaps: 2 }, n: 10 });
      await submit(question.linkCode, { option: 0, reason: 'First' });
    });

    const point = { x: 0.5, y: 0.5 };
    it.each<[string, 'choice' | 'click', Json, number, string]>([
      ['a nonce that is not a UUID', 'choice', { answer: { option: 0, reason: 'x' }, nonce: 'not-a-uuid' }, 400, 'validation_failed'],
      ['no nonce', 'choice', { answer: { option: 0, reason: 'x' } }, 400, 'validation_failed'],
      ['no answer', 'choice', { nonce: randomUUID() }, 400, 'validation_failed'],
      ['an unknown answer field', 'choice', { answer: { option: 0, reason: 'x', colour: 'red' }, nonce: randomUUID() }, 400, 'validation_failed'],
      ['an unknown body field', 'choice', { answer: { option: 0, reason: 'x' }, nonce: randomUUID(), headId: 'hd_x' }, 400, 'validation_failed'],
      ['an option beyond 8', 'choice', { answer: { option: 9, reason: 'x' }, nonce: randomUUID() }, 400, 'validation_failed'],
      ['an option the question does not have', 'choice', { answer: { option: 2, reason: 'x' }, nonce: randomUUID() }, 400, 'validation_failed'],
      ['a negative option', 'choice', { answer: { option: -1, reason: 'x' }, nonce: randomUUID() }, 400, 'validation_failed'],
      ['a required reason left out', 'choice', { answer: { option: 0 }, nonce: randomUUID() }, 400, 'validation_failed'],
      ['an answer of another type', 'choice', { answer: { text: 'Penny', reason: 'x' }, nonce: randomUUID() }, 400, 'validation_failed'],
      ['a locale longer than 12', 'choice', { answer: { option: 0, reason: 'x' }, nonce: randomUUID(), locale: 'en-GB-x-private' }, 400, 'validation_failed'],
      ['dwellMs over a day', 'choice', { answer: { option: 0, reason: 'x' }, nonce: randomUUID(), dwellMs: 86_400_001 }, 400, 'validation_failed'],
      ['a reason over 1000 characters', 'choice', { answer: { option: 0, reason: 'x'.repeat(1001) }, nonce: randomUUID() }, 400, 'validation_failed'],
      ['a token over 2048 characters', 'choice', { answer: { option: 0, reason: 'x' }, nonce: randomUUID(), humanCheckToken: 'x'.repeat(2049) }, 400, 'validation_failed'],
      ['more taps than the schema allows', 'click', { answer: { taps: Array(6).fill(point) }, nonce: randomUUID() }, 400, 'validation_failed'],
      ['more taps than maxTaps', 'click', { answer: { taps: [point, point, point] }, nonce: randomUUID() }, 400, 'validation_failed'],
      ['a tap outside the image', 'click', { answer: { taps: [{ x: 1.5, y: 0.5 }] }, nonce: randomUUID() }, 400, 'validation_failed'],
      ['an answer that is not an object', 'choice', { answer: [0], nonce: randomUUID() }, 400, 'validation_failed'],
    ])('%s', async (_label, which, body, status, code) => {
      const target = which === 'choice' ? question : click;
      const before = await stored(target.id);
      const calls = verifier.calls.length;
      const payload = { humanCheckToken: verifier.token(), ...body };
      const response = await t.inject({ method: 'POST', url: `/v1/public/link/${target.linkCode}/answers`, payload, remoteAddress: newIp() });
      expectError(response, status, code);
      expect(await stored(target.id)).toEqual(before);
      // A bad answer does not spend the person's human-check token.
      expect(verifier.calls.length).toBe(calls);
    });

    it('a body that is not JSON is 415, too large is 413', async () => {
      const before = await stored(question.id);
      const url = `/v1/public/link/${question.linkCode}/answers`;
      expectError(await t.inject({ method: 'POST', url, headers: { 'content-type': 'text/plain' }, payload: 'option=0' }), 415, 'unsupported_media_type');
      const huge = { answer: { option: 0, reason: 'x' }, nonce: randomUUID(), locale: 'x'.repeat(300_000) };
      expect((await t.inject({ method: 'POST', url, payload: huge })).statusCode).toBe(413);
      expect(await stored(question.id)).toEqual(before);
    });
  });
});

describe('POST /v1/public/link/{code}/started', () => {
  const started = (code: string, nonce: string, headers: Record<string, string> = { 'idempotency-key': nonce }) =>
    t.inject({ method: 'POST', url: `/v1/public/link/${code}/started`, headers, payload: { nonce } });

  it('counts a page load once per nonce', async () => {
    const question = await linked();
    const nonce = randomUUID();
    const first = await started(question.linkCode, nonce);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ ok: true });
    expectPrivate(first);
    expect((await started(question.linkCode, nonce)).json()).toEqual({ ok: true });
    expect((await started(question.linkCode, nonce, { 'idempotency-key': randomUUID() })).statusCode).toBe(200);
    expect((await stored(question.id)).starts).toBe(1);
    await started(question.linkCode, randomUUID());
    expect((await stored(question.id)).starts).toBe(2);
  });

  it('requires an Idempotency-Key and a UUID nonce; an unknown code is 404; nothing is counted', async () => {
    const question = await linked();
    expectError(await started(question.linkCode, randomUUID(), {}), 400, 'validation_failed');
    expectError(await started(question.linkCode, 'not-a-uuid'), 400, 'validation_failed');
    expectError(
      await t.inject({ method: 'POST', url: `/v1/public/link/${question.linkCode}/started`, headers: { 'idempotency-key': 'k' }, payload: { nonce: randomUUID(), extra: 1 } }),
      400,
      'validation_failed',
    );
    expectError(await started('NoSuchCode123', randomUUID()), 404, 'not_found');
    expect((await stored(question.id)).starts).toBe(0);
  });
});

describe('the human check through HTTP (R5.6)', () => {
  it('no token → 403 human_check_failed, nothing recorded', async () => {
    const question = await linked();
    const calls = verifier.calls.length;
    expectError(await submit(question.linkCode, { option: 0 }, { token: null }), 403, 'human_check_failed');
    expect(verifier.calls.length).toBe(calls);
    expect(await stored(question.id)).toMatchObject({ answers: [], answered: 0, spent: 0 });
  });

  it('a bad token → 403; a spent token → 403; nothing recorded', async () => {
    const question = await linked();
    expectError(await submit(question.linkCode, { option: 0 }, { token: 'forged.token' }), 403, 'human_check_failed');
    expect(verifier.calls.at(-1)).toMatchObject({ response: 'forged.token' });
    const token = verifier.token();
    expectOutcome(await submit(question.linkCode, { option: 0 }, { token }), { accepted: true, state: 'live' });
    expectError(await submit(question.linkCode, { option: 1 }, { token }), 403, 'human_check_failed');
    expect((await stored(question.id)).answers).toHaveLength(1);
  });

  it('a good token → accepted; siteverify received the secret, the token and the remote IP', async () => {
    const question = await linked();
    const token = verifier.token();
    const ip = newIp();
    const calls = verifier.calls.length;
    expectOutcome(await submit(question.linkCode, { option: 0 }, { token, ip }), { accepted: true, state: 'live' });
    expect(verifier.calls.slice(calls)).toEqual([{ secret: SECRET, response: token, remoteip: ip }]);
  });

  it.each([
    ['down (503)', 'down'],
    ['unreachable (connection closed)', 'drop'],
    ['answering garbage', 'garbage'],
  ] as const)('siteverify %s → 403: it fails closed', async (_label, mode) => {
    const question = await linked();
    verifier.mode = mode;
    try {
      const calls = verifier.calls.length;
      expectError(await submit(question.linkCode, { option: 0 }), 403, 'human_check_failed');
      expect(verifier.calls.length).toBe(calls + 1);
    } finally {
      verifier.mode = 'ok';
    }
    expect((await stored(question.id)).answers).toEqual([]);
    expectOutcome(await submit(question.linkCode, { option: 0 }), { accepted: true, state: 'live' });
  });

  it('a nonce replay with the spent token → the first outcome, siteverify not called again', async () => {
    const question = await linked();
    const nonce = randomUUID();
    const token = verifier.token();
    expectOutcome(await submit(question.linkCode, { option: 1 }, { nonce, token }), { accepted: true, state: 'live' });
    const calls = verifier.calls.length;
    verifier.mode = 'down';
    try {
      expectOutcome(await submit(question.linkCode, { option: 1 }, { nonce, token }), { accepted: true, state: 'live' });
    } finally {
      verifier.mode = 'ok';
    }
    expect(verifier.calls.length).toBe(calls);
    expect((await stored(question.id)).answers).toHaveLength(1);
  });

  it('a retry sent while the first attempt is still being recorded gets the first outcome once it commits', async () => {
    const question = await linked();
    const nonce = randomUUID();
    const token = verifier.token();
    const [a, b] = await Promise.all([
      submit(question.linkCode, { option: 0 }, { nonce, token }),
      submit(question.linkCode, { option: 0 }, { nonce, token }),
    ]);
    // One of them spent the token; the other either replays the first outcome or, if it ran
    // entirely before the first committed, fails the check. Never two answers.
    const outcomes = [a, b].map((r) => (r.statusCode === 200 ? JSON.stringify(r.json()) : errorOf(r).code));
    expect(outcomes).toContain(JSON.stringify({ accepted: true, state: 'live', showResult: false, resultCode: null }));
    for (const outcome of outcomes) expect([JSON.stringify({ accepted: true, state: 'live', showResult: false, resultCode: null }), 'human_check_failed']).toContain(outcome);
    expect((await stored(question.id)).answers).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------

describe('limits per IP and link, and per link (R5.6, R6.3)', () => {
  const PER_IP = 3;
  const PER_LINK = 5;
  let lim: TestApp;
  let key: TestKey;
  beforeAll(async () => {
    lim = await createTestApp({ env: { LINK_ANSWERS_PER_IP: String(PER_IP), LINK_ANSWERS_PER_LINK: String(PER_LINK), RATE_LIMIT_PER_KEY: '100000' } });
    key = await lim.makeKey();
    await grant(lim, key.accountId, 100_000);
  });
  afterAll(async () => {
    await Promise.race([lim?.close(), sleep(5_000)]);
  });

  const send = (code: string, ip: string, nonce = randomUUID()) =>
    lim.inject({ method: 'POST', url: `/v1/public/link/${code}/answers`, payload: { answer: { option: 0 }, nonce }, remoteAddress: ip });
  const count = async (id: string) => (await lim.db.selectFrom('answers').select('id').where('question_id', '=', id).execute()).length;

  function expectLimited(response: LightMyRequestResponse): void {
    expect(response.statusCode, response.body).toBe(429);
    expect(errorOf(response).code).toBe('rate_limited');
    const retryAfter = Number(response.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter > 0, `Retry-After ${response.headers['retry-after']}`).toBe(true);
  }

  it(`${PER_IP} answers per IP address per link, then 429 with Retry-After; another IP, and the same IP on another link, still pass`, async () => {
    const question = await ask(lim, key, choiceDraft({ n: 20 }));
    const other = await ask(lim, key, choiceDraft({ n: 20 }));
    const ip = '198.51.100.10';
    for (let i = 0; i < PER_IP; i++) expect((await send(question.linkCode, ip)).json()).toMatchObject({ accepted: true });
    expectLimited(await send(question.linkCode, ip));
    // A retry of the same page load is limited too (the limit comes before anything else).
    expectLimited(await send(question.linkCode, ip));
    expect(Number((await send(question.linkCode, ip)).headers['retry-after'])).toBeLessThanOrEqual(600);
    expect(await count(question.id)).toBe(PER_IP);

    expect((await send(question.linkCode, '198.51.100.11')).json()).toMatchObject({ accepted: true });
    expect((await send(other.linkCode, ip)).json()).toMatchObject({ accepted: true });
    expect(await count(question.id)).toBe(PER_IP + 1);
    expect((await getQuestion(lim, key, question.id)).answered).toBe(PER_IP + 1);
  });

  it(`${PER_LINK} answers a minute per link, then 429 for every IP address; other links still pass`, async () => {
    const question = await ask(lim, key, choiceDraft({ n: 20 }));
    const other = await ask(lim, key, choiceDraft({ n: 20 }));
    for (let i = 0; i < PER_LINK; i++) expect((await send(question.linkCode, `192.0.2.${i + 1}`)).json()).toMatchObject({ accepted: true });
    for (const ip of ['192.0.2.50', '192.0.2.51', '2001:db8::1']) expectLimited(await send(question.linkCode, ip));
    expect(await count(question.id)).toBe(PER_LINK);
    expect((await send(other.linkCode, '192.0.2.50')).json()).toMatchObject({ accepted: true });
    await expectReconciled(lim);
  });
});
