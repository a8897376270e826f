import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp, TestKey } from './test-app.ts';
import { seedSimulatedPanel } from '../../src/modules/panel/panel-seed.ts';
import type { AnswerInput } from '../../src/modules/draft/answer-format.ts';
import type { RecordOutcome } from '../../src/modules/answers/answer-recording.service.ts';

/**
 * Shared steps of the question suites (asking, questions, lifecycle, wait): asking over HTTP with
 * an Idempotency-Key, granting credits, seeding the panel, answering through the one
 * answer-recording service, and reading the money back the way a user would (balance, ledger).
 */
export type Json = Record<string, any>;

/** A valid single-choice draft: 10 answers × 12 credits = 120 credits at tier 1. */
export function choiceDraft(overrides: Json = {}): Json {
  return {
    type: 'single_choice',
    text: 'Which name is best for a savings app?',
    options: [{ label: 'Penny' }, { label: 'Pocket' }],
    n: 10,
    ...overrides,
  };
}

export interface AskOptions {
  /** The Idempotency-Key; a fresh UUID when left out, no header at all when null. */
  idempotencyKey?: string | null;
}

/** POST /v2/questions with a body (`{draft, ...}`); returns the response as is. */
export function askRaw(t: TestApp, key: TestKey, body: Json, options: AskOptions = {}): Promise<LightMyRequestResponse> {
  const idempotencyKey = options.idempotencyKey === undefined ? randomUUID() : options.idempotencyKey;
  return t.inject({
    method: 'POST',
    url: '/v2/questions',
    headers: { ...key.auth, ...(idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey }) },
    payload: body,
  });
}

/** Asks and expects a 201; returns the question. `draftOrBody` is a draft, or a whole body when it has a `draft`. */
export async function ask(t: TestApp, key: TestKey, draftOrBody: Json = choiceDraft(), options: AskOptions = {}): Promise<Json> {
  const body = 'draft' in draftOrBody ? draftOrBody : { draft: draftOrBody };
  const response = await askRaw(t, key, body, options);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().question;
}

/** An operator's grant (a `bonus` ledger row). */
export async function grant(t: TestApp, accountId: string, credits: number): Promise<void> {
  await t.container.credits.grant({ accountId, amount: credits, reason: 'Credits for the test' });
}

/** Environment for suites that make many requests with one key: the per-key and per-IP limits out of the way. */
export const NO_RATE_LIMITS = { RATE_LIMIT_PER_KEY: '100000', RATE_LIMIT_PER_IP: '100000' } as const;

/** A key of a new account with every scope and `credits` granted (none when 0); `cap` is its daily cap. */
export async function fundedKey(t: TestApp, credits = 10_000, cap: number | null = null): Promise<TestKey> {
  const key = await t.makeKey(undefined, cap);
  if (credits) await grant(t, key.accountId, credits);
  return key;
}

export interface Head {
  id: string;
  tier: number;
  country: string;
}

/**
 * The simulated panel (seeded once per database: a second call returns the heads already there),
 * at least `n` heads, ordered by id so a file always gets the same ones.
 */
export async function seedHeads(t: TestApp, n: number): Promise<Head[]> {
  await seedSimulatedPanel(t.db, { size: Math.max(n, 300), clock: t.clock, seed: 11 });
  const heads = await t.db.selectFrom('heads').select(['id', 'tier', 'country']).orderBy('id').execute();
  if (heads.length < n) throw new Error(`the panel has ${heads.length} heads; ${n} wanted`);
  return heads;
}

/** One answer by a panel head, through the answer-recording service. */
export function answer(t: TestApp, questionId: string, head: Head, answerObject: AnswerInput = { option: 0 }): Promise<RecordOutcome> {
  return t.container.answers.record(questionId, { headId: head.id, source: 'panel', tier: head.tier, country: head.country }, answerObject);
}

/** Answers with the given heads one after another, expecting each to be accepted. */
export async function answerAll(t: TestApp, questionId: string, heads: Head[], answerObject: AnswerInput | ((i: number) => AnswerInput) = { option: 0 }): Promise<RecordOutcome[]> {
  const outcomes: RecordOutcome[] = [];
  for (const [i, head] of heads.entries()) {
    const outcome = await answer(t, questionId, head, typeof answerObject === 'function' ? answerObject(i) : answerObject);
    expect(outcome.accepted, JSON.stringify(outcome)).toBe(true);
    outcomes.push(outcome);
  }
  return outcomes;
}

export async function getQuestion(t: TestApp, key: TestKey, id: string): Promise<Json> {
  const response = await t.inject({ method: 'GET', url: `/v2/questions/${id}`, headers: key.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().question;
}

export async function balanceOf(t: TestApp, key: TestKey): Promise<Json> {
  const response = await t.inject({ method: 'GET', url: '/v1/billing/balance', headers: key.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Every ledger row of the account, newest first (all pages). */
export async function ledgerOf(t: TestApp, key: TestKey): Promise<Json[]> {
  const rows: Json[] = [];
  let cursor: string | null = null;
  do {
    const url: string = cursor === null ? '/v1/billing/ledger' : `/v1/billing/ledger?cursor=${encodeURIComponent(cursor)}`;
    const response = await t.inject({ method: 'GET', url, headers: key.auth });
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json();
    rows.push(...page.rows);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return rows;
}

/** Ledger rows that refer to one question (asks and refunds), oldest first. */
export async function ledgerRowsOf(t: TestApp, key: TestKey, questionId: string): Promise<Json[]> {
  return (await ledgerOf(t, key)).filter((row) => row.ref === questionId).reverse();
}

/** The money of an account as a user reads it, and the invariants that tie it together. */
export async function money(t: TestApp, key: TestKey): Promise<{ credits: number; reserved: number; available: number; ledger: Json[] }> {
  const balance = await balanceOf(t, key);
  const ledger = await ledgerOf(t, key);
  const available = balance.credits - balance.reserved;
  // docs/credits.md: the sum of all amounts of an account equals credits − reserved at every moment.
  expect(ledger.reduce((sum, row) => sum + row.amount, 0)).toBe(available);
  expect(available).toBeGreaterThanOrEqual(0);
  return { credits: balance.credits, reserved: balance.reserved, available, ledger };
}

/** R3.1: every balance equals what its entries, lots and question holds say. */
export async function expectReconciled(t: TestApp): Promise<void> {
  expect(await t.container.credits.reconcile()).toEqual([]);
}

/** POST /v1/billing/estimate for a draft; the 200 body. */
export async function estimate(t: TestApp, draft: Json): Promise<Json> {
  const response = await t.inject({ method: 'POST', url: '/v1/billing/estimate', payload: { draft } });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  expect(body.validation).toEqual([]);
  return body;
}

/** Outbox events of a question (its question.* events, whose data holds the Question, and its dispute.resolved), oldest first. */
export async function eventsOf(t: TestApp, questionId: string): Promise<Array<{ type: string; data: Json }>> {
  const rows = await t.db.selectFrom('outbox_events').select(['type', 'payload']).orderBy('seq').execute();
  return rows
    .map((row) => ({ type: row.type, data: (row.payload as unknown as { data: Json }).data }))
    .filter((event) => event.data.question?.id === questionId || event.data.questionId === questionId);
}

/** Every outbox event of an account, oldest first: type, unique reference and the payload's data. */
export async function accountEvents(t: TestApp, accountId: string, type?: string): Promise<Array<{ type: string; uniqueRef: string; data: Json }>> {
  let query = t.db.selectFrom('outbox_events').select(['type', 'unique_ref', 'payload']).where('account_id', '=', accountId);
  if (type) query = query.where('type', '=', type);
  const rows = await query.orderBy('seq').execute();
  return rows.map((row) => ({ type: row.type, uniqueRef: row.unique_ref, data: (row.payload as unknown as { data: Json }).data }));
}

/** What a thrown AppError (or anything else) looks like, for expect(). */
export async function failure(promise: Promise<unknown>): Promise<{ code?: string; status?: number; details?: Json }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; status?: number; details?: Json };
  }
  throw new Error('expected the call to fail');
}

export function errorOf(response: LightMyRequestResponse): Json {
  return response.json().error;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const DAY = 86_400_000;
