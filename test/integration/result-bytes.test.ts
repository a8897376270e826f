import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { answerAll, ask, choiceDraft, errorOf, fundedKey, seedHeads, type Head, type Json, NO_RATE_LIMITS } from '../helpers/questions.ts';
import { RESULT_FIELDS } from '../../src/modules/results/results.schemas.ts';
import { MIN_COMPRESS_BYTES } from '../../src/http/prepared-json.ts';

/**
 * GET /v2/questions/{id}/result as bytes (docs/results.md "Fewer bytes", "Caching and speed"):
 * compression for clients that accept it (the same JSON once decoded), `fields`, and prepared
 * bytes that never outlive what they show: a new answer, a flag and its review, a removal, a new
 * summary, all seen on the next read, compressed or not, even when nothing announced the change.
 * Uncompressed responses go through t.inject (checked against /openapi.json); compressed ones
 * through app.inject, and are compared with them once decoded.
 */
let t: TestApp;
let key: TestKey;
let heads: Head[];
let used = 0;

beforeAll(async () => {
  t = await createTestApp({ env: NO_RATE_LIMITS });
  heads = await seedHeads(t, 60);
  key = await fundedKey(t, 100_000);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const REASONS = ['Short and friendly, easy to remember.', 'Sounds safe and familiar.', 'I worry about hidden fees.', 'Cute name.', 'Feels safe.'];

/** `count` answers from fresh heads, each with a reason (written answers, for the summary). */
async function answerSome(id: string, count: number): Promise<void> {
  const some = heads.slice(used, used + count);
  used += count;
  await answerAll(t, id, some, (i) => ({ option: i % 2, reason: REASONS[i % REASONS.length] }));
}

const url = (id: string, query = '') => `/v2/questions/${id}/result${query}`;

/** The identity body, checked against /openapi.json. */
async function plain(id: string, query = '', as: TestKey = key) {
  const response = await t.inject({ method: 'GET', url: url(id, query), headers: as.auth });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-encoding']).toBeUndefined();
  expect(response.headers.vary).toMatch(/accept-encoding/i);
  return response;
}

const DECODE = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync } as const;

/** A compressed body, decoded; the coding it came in must be `coding`. */
async function decoded(id: string, acceptEncoding: string, coding: 'br' | 'gzip', query = ''): Promise<Buffer> {
  const response = await t.app.inject({ method: 'GET', url: url(id, query), headers: { ...key.auth, 'accept-encoding': acceptEncoding } });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-encoding']).toBe(coding);
  expect(response.headers.vary).toMatch(/accept-encoding/i);
  expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
  return DECODE[coding](response.rawPayload);
}

/** The result as every kind of client reads it: identity, br and gzip must all say the same (small bodies go out as they are). */
async function everyWay(id: string, query = ''): Promise<Json> {
  const identity = (await plain(id, query)).rawPayload;
  if (identity.length >= MIN_COMPRESS_BYTES) {
    expect((await decoded(id, 'gzip, deflate, br', 'br', query)).equals(identity)).toBe(true);
    expect((await decoded(id, 'gzip', 'gzip', query)).equals(identity)).toBe(true);
  } else {
    const small = await t.app.inject({ method: 'GET', url: url(id, query), headers: { ...key.auth, 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.rawPayload.equals(identity)).toBe(true);
  }
  return JSON.parse(identity.toString('utf8')).result;
}

describe('compression', () => {
  let q: Json;
  beforeAll(async () => {
    q = await ask(t, key, choiceDraft({ reason: 'optional', n: 40 }));
    await answerSome(q.id, 12);
  });

  it('the same bytes once decoded, br or gzip as Accept-Encoding allows, none without it', async () => {
    const identity = (await plain(q.id)).rawPayload;
    expect(identity.length).toBeGreaterThan(1024);
    expect((await decoded(q.id, 'br', 'br')).equals(identity)).toBe(true);
    expect((await decoded(q.id, 'gzip;q=1, br;q=0.5', 'gzip')).equals(identity)).toBe(true);
    expect((await decoded(q.id, 'br;q=0, *', 'gzip')).equals(identity)).toBe(true);
    for (const refused of ['identity', 'deflate', 'gzip;q=0, br;q=0']) {
      const response = await t.app.inject({ method: 'GET', url: url(q.id), headers: { ...key.auth, 'accept-encoding': refused } });
      expect(response.headers['content-encoding'], refused).toBeUndefined();
      expect(response.rawPayload.equals(identity), refused).toBe(true);
    }
    // HEAD says what GET would send.
    const head = await t.app.inject({ method: 'HEAD', url: url(q.id), headers: { ...key.auth, 'accept-encoding': 'br' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
  });

  it('without fields the body is the full Result, byte for byte what wait sends inside {result, done}', async () => {
    const closed = await ask(t, key, choiceDraft({ reason: 'optional', n: 10 }));
    await answerSome(closed.id, 10);
    const body = (await plain(closed.id)).body;
    const wait = await t.inject({ method: 'GET', url: `/v2/questions/${closed.id}/wait?seconds=1`, headers: key.auth });
    expect(wait.json().done).toBe(true);
    expect(wait.body.startsWith(`${body.slice(0, -1)},"done":`)).toBe(true);
    expect(Object.keys(JSON.parse(body).result)).toEqual(expect.arrayContaining(['questionId', 'status', 'distribution', 'summary', 'answers', 'facets']));
  });

  it('errors are not compressed and stay the same envelope: another account, no such question', async () => {
    const stranger = await fundedKey(t, 10);
    for (const [as, id] of [[stranger, q.id], [key, 'q_doesnotexist000000']] as const) {
      for (const query of ['', '?fields=status']) {
        const response = await t.inject({ method: 'GET', url: url(id, query), headers: { ...as.auth } });
        expect(response.statusCode).toBe(404);
        expect(errorOf(response).code).toBe('not_found');
      }
    }
  });
});

describe('fields', () => {
  let q: Json;
  beforeAll(async () => {
    q = await ask(t, key, choiceDraft({ reason: 'optional', n: 40 }));
    await answerSome(q.id, 6);
  });

  it('returns only the properties named, each as in the full Result', async () => {
    const full = JSON.parse((await plain(q.id)).body).result;
    const part = JSON.parse((await plain(q.id, '?fields=distribution,nAccepted')).body).result;
    expect(Object.keys(part)).toEqual(['nAccepted', 'distribution']);
    expect(part).toEqual({ nAccepted: full.nAccepted, distribution: full.distribution });
    // Spaces, repeats and order do not matter; the filters still apply.
    const filtered = JSON.parse((await plain(q.id, '?fields=summary,%20nAccepted,summary&option=0')).body).result;
    expect(Object.keys(filtered)).toEqual(['nAccepted', 'summary']);
    expect(filtered.nAccepted).toBe(3);
    // Every property can be asked for: all of them is the full Result again.
    expect(JSON.parse((await plain(q.id, `?fields=${RESULT_FIELDS.join(',')}`)).body).result).toEqual(full);
    // A property this Result leaves out (clicks of a choice question) stays out.
    expect(JSON.parse((await plain(q.id, '?fields=clicks,status')).body).result).toEqual({ status: full.status });
  });

  it('a big selection is compressed like the full Result', async () => {
    const identity = (await plain(q.id, '?fields=answers,facets,breakdowns')).rawPayload;
    expect((await decoded(q.id, 'br', 'br', '?fields=answers,facets,breakdowns')).equals(identity)).toBe(true);
  });

  it.each([
    ['an unknown name', 'distribution,n', 'unknown_value'],
    ['another unknown name', 'colour', 'unknown_value'],
    ['an empty value', '', 'required'],
    ['an empty name', 'distribution,,summary', 'invalid_format'],
    ['not a name', 'summary.note', 'invalid_format'],
  ])('%s is a 400 in the error envelope', async (_label, fields, code) => {
    const response = await t.inject({ method: 'GET', url: url(q.id, `?fields=${encodeURIComponent(fields)}`), headers: key.auth });
    expect(response.statusCode, response.body).toBe(400);
    expect(errorOf(response)).toMatchObject({ code: 'validation_failed', details: { validation: [{ field: 'fields', code }] } });
  });
});

describe('prepared bytes never outlive what they show', () => {
  let q: Json;
  beforeAll(async () => {
    q = await ask(t, key, choiceDraft({ reason: 'optional', n: 40 }));
    await answerSome(q.id, 5);
  });

  it('a new answer', async () => {
    const before = await everyWay(q.id);
    await answerSome(q.id, 1);
    const after = await everyWay(q.id);
    expect(after.nAccepted).toBe(before.nAccepted + 1);
  });

  it('a flag, and its status changed with nothing announcing it', async () => {
    const before = await everyWay(q.id);
    const ref = before.answers[0].attestationRef;
    const flagged = await t.inject({ method: 'POST', url: `/v2/questions/${q.id}/answers/${ref}/flag`, headers: key.auth, payload: { reason: 'low_effort' } });
    expect(flagged.statusCode, flagged.body).toBe(201);
    const open = await everyWay(q.id);
    expect(open.answers.find((a: Json) => a.attestationRef === ref).flag).toMatchObject({ reason: 'low_effort', status: 'open' });
    // Written straight to the table: no question row change, no notifier. The next read sees it.
    await t.db.updateTable('answer_flags').set({ status: 'dismissed', decided_at: new Date('2030-01-02T03:04:05.678Z') }).where('attestation_ref', '=', ref).execute();
    const dismissed = await everyWay(q.id);
    expect(dismissed.answers.find((a: Json) => a.attestationRef === ref).flag).toEqual(expect.objectContaining({ status: 'dismissed', decidedAt: '2030-01-02T03:04:05.678Z' }));
    expect((await everyWay(q.id, '?fields=answers')).answers).toEqual(dismissed.answers);
  });

  it('a removal after review', async () => {
    const before = await everyWay(q.id);
    const ref = before.answers[1].attestationRef;
    const flagged = await t.inject({ method: 'POST', url: `/v2/questions/${q.id}/answers/${ref}/flag`, headers: key.auth, payload: { reason: 'abusive' } });
    expect(flagged.statusCode, flagged.body).toBe(201);
    await t.container.moderation.decideFlag(flagged.json().flag.id, 'uphold');
    const after = await everyWay(q.id);
    expect(after.nAccepted).toBe(before.nAccepted - 1);
    expect(after.answers.some((a: Json) => a.attestationRef === ref)).toBe(false);
    expect(after.refundCredits).toBeGreaterThan(before.refundCredits);
  });

  it('a new summary, and a summary changed with nothing announcing it', async () => {
    const before = await everyWay(q.id);
    const made = await t.inject({ method: 'POST', url: `/v2/questions/${q.id}/insights`, headers: key.auth });
    expect(made.statusCode, made.body).toBe(200);
    const withSummary = await everyWay(q.id);
    expect(before.insights ?? null).not.toEqual(withSummary.insights);
    expect(withSummary.insights).toEqual(made.json().insights);
    await sql`UPDATE insights SET payload = jsonb_set(payload, '{takeaway}', '"Changed behind the cache."') WHERE question_id = ${q.id}`.execute(t.db);
    const changed = await everyWay(q.id);
    expect(changed.insights.takeaway).toBe('Changed behind the cache.');
    expect((await everyWay(q.id, '?fields=insights')).insights.takeaway).toBe('Changed behind the cache.');
  });

  it('the question’s state: closing it', async () => {
    const before = await everyWay(q.id);
    expect(before.status).toBe('in_progress');
    const cancelled = await t.inject({ method: 'POST', url: `/v2/questions/${q.id}/cancel`, headers: key.auth });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const after = await everyWay(q.id);
    expect(after.status).toBe('cancelled');
    expect(after.refundCredits).toBeGreaterThan(before.refundCredits);
  });
});
