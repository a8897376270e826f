import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { answerAll, ask, choiceDraft, errorOf, fundedKey, grant, NO_RATE_LIMITS, seedHeads, type Head, type Json } from '../helpers/questions.ts';

/**
 * Page cursors (issue 8, point 11; docs/api.md "Ids and cursors"): every `nextCursor` names the last
 * row of its own list, never a number shared by the whole service, so a cursor tells nothing about
 * how many questions, answers or ledger rows Headcount holds. Pages stay exact when many rows share
 * one timestamp and while new rows arrive; a cursor from another list, question or account, or one
 * that was changed, is a 400 item on `cursor`.
 */

let t: TestApp;
let heads: Head[];

beforeAll(async () => {
  t = await createTestApp({ env: { ...NO_RATE_LIMITS } });
  heads = await seedHeads(t, 60);
});
afterAll(async () => {
  await t?.close();
});

/** What is inside a cursor, as anyone can read it. */
const decoded = (cursor: string): unknown => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));

/** Every number inside a decoded cursor. */
function numbersIn(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.flatMap(numbersIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(numbersIn);
  return [];
}

/** A cursor holds nothing but the id of the last row of its page: no number, nothing the caller did not see. */
function expectOnlyLastId(cursor: string, lastId: string): void {
  const inside = decoded(cursor);
  expect(numbersIn(inside)).toEqual([]);
  expect(inside).toEqual([lastId]);
}

async function get(key: TestKey, url: string): Promise<Json> {
  const response = await t.inject({ method: 'GET', url, headers: key.auth });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json();
}

async function refusedCursor(key: TestKey, url: string): Promise<void> {
  const response = await t.inject({ method: 'GET', url, headers: key.auth });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
  expect(errorOf(response)).toMatchObject({ code: 'validation_failed', details: { validation: [{ field: 'cursor', code: 'invalid_format' }] } });
}

const withCursor = (url: string, cursor: string | null) => (cursor ? `${url}${url.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}` : url);

/** Reads every page of a list; returns the ids in order and every cursor given out. */
async function allPages(key: TestKey, url: string, items: string, idOf: (row: Json) => string, between?: (page: number) => Promise<void>, start: string | null = null) {
  const ids: string[] = [];
  const cursors: string[] = [];
  let cursor: string | null = start;
  for (let page = 0; page < 50; page++) {
    const body = await get(key, withCursor(url, cursor));
    ids.push(...body[items].map(idOf));
    cursor = body.nextCursor;
    if (cursor === null) return { ids, cursors };
    expectOnlyLastId(cursor, ids[ids.length - 1]);
    cursors.push(cursor);
    await between?.(page);
  }
  throw new Error('too many pages');
}

describe('GET /v2/questions', () => {
  let key: TestKey;
  let asked: string[];
  beforeAll(async () => {
    key = await fundedKey(t, 100_000);
    asked = [];
    // 30 questions with the same createdAt (the fake clock does not move): ties everywhere.
    for (let i = 0; i < 30; i++) asked.push((await ask(t, key, choiceDraft({ text: `Question ${i + 1}: which name is best?` }))).id);
  });

  it('pages through rows sharing one timestamp without duplicates or gaps, newest first, while new questions arrive', async () => {
    const arrived: string[] = [];
    const { ids, cursors } = await allPages(key, '/v2/questions?limit=7', 'questions', (q) => q.id, async () => {
      arrived.push((await ask(t, key, choiceDraft({ text: 'A newer question: which name is best?' }))).id);
    });
    expect(ids).toEqual([...asked].reverse());
    expect(cursors).toHaveLength(4);
    // The ones asked meanwhile are on a new first page, newest first.
    expect((await get(key, `/v2/questions?limit=${arrived.length}`)).questions.map((q: Json) => q.id)).toEqual([...arrived].reverse());
  });

  it('a cursor carries no number: only the id of the last question of its page', async () => {
    const first = await get(key, '/v2/questions?limit=5');
    expectOnlyLastId(first.nextCursor, first.questions[4].id);
    // Another account's cursor says nothing about this one's, however many questions either has.
    const other = await fundedKey(t, 10_000);
    await ask(t, other, choiceDraft());
    await ask(t, other, choiceDraft());
    const theirs = await get(other, '/v2/questions?limit=1');
    expectOnlyLastId(theirs.nextCursor, theirs.questions[0].id);
  });

  it("a cursor from another account, another list or changed by hand is a 400 on cursor", async () => {
    const mine = (await get(key, '/v2/questions?limit=3')).nextCursor;
    const other = await fundedKey(t, 10_000);
    await ask(t, other, choiceDraft());
    await refusedCursor(other, withCursor('/v2/questions', mine));
    const ledger = (await get(key, '/v1/billing/ledger')).nextCursor ?? Buffer.from(JSON.stringify(['led_AAAAAAAAAAAAAAAAAAAA'])).toString('base64url');
    await refusedCursor(key, withCursor('/v2/questions', ledger));
    for (const forged of ['not-a-cursor', mine.slice(1), `${mine}!!`, Buffer.from('[12]').toString('base64url'), Buffer.from('["q_nope"]').toString('base64url')]) {
      await refusedCursor(key, withCursor('/v2/questions', forged));
    }
  });
});

describe('GET /v1/billing/ledger', () => {
  it('120 rows in one instant page 50, 50, 20 with none twice, newest first; cursors carry no number; foreign ones are 400', async () => {
    const key = await fundedKey(t, 0);
    for (let i = 1; i <= 120; i++) await grant(t, key.accountId, i);
    const { ids, cursors } = await allPages(key, '/v1/billing/ledger', 'rows', (r) => r.id);
    expect(ids).toHaveLength(120);
    expect(new Set(ids).size).toBe(120);
    const rows = (await t.db.selectFrom('ledger_entries').select(['id', 'amount']).where('account_id', '=', key.accountId).execute()).map((r) => [r.id, Number(r.amount)] as const);
    const amountOf = new Map(rows);
    expect(ids.map((id) => amountOf.get(id))).toEqual(Array.from({ length: 120 }, (_, i) => 120 - i));
    expect(cursors).toHaveLength(2);
    const other = await fundedKey(t, 5);
    await refusedCursor(other, withCursor('/v1/billing/ledger', cursors[0]));
  });
});

describe('GET /v2/questions/{id}/answers', () => {
  let key: TestKey;
  let question: Json;
  beforeAll(async () => {
    key = await fundedKey(t, 100_000);
    question = await ask(t, key, choiceDraft({ n: 60 }));
    // 45 answers in one instant.
    await answerAll(t, question.id, heads.slice(0, 45), (i) => ({ option: i % 2 }));
  });

  it('pages answers sharing one timestamp without duplicates or gaps, filters included; cursors carry no number', async () => {
    const all = await get(key, `/v2/questions/${question.id}/answers?limit=200`);
    expect(all.answers).toHaveLength(45);
    const { ids, cursors } = await allPages(key, `/v2/questions/${question.id}/answers?limit=7`, 'answers', (a) => a.attestationRef);
    expect(ids).toEqual(all.answers.map((a: Json) => a.attestationRef));
    expect(cursors).toHaveLength(6);
    const filtered = await allPages(key, `/v2/questions/${question.id}/answers?limit=4&option=1`, 'answers', (a) => a.attestationRef);
    expect(filtered.ids).toEqual(all.answers.filter((a: Json) => a.option === 'Pocket').map((a: Json) => a.attestationRef));
  });

  it('new answers between pages do not shift the pages being read', async () => {
    const first = await get(key, `/v2/questions/${question.id}/answers?limit=10`);
    await answerAll(t, question.id, heads.slice(45, 50));
    const rest = await allPages(key, `/v2/questions/${question.id}/answers?limit=10`, 'answers', (a) => a.attestationRef, undefined, first.nextCursor);
    const seen = [...first.answers.map((a: Json) => a.attestationRef), ...rest.ids];
    expect(seen).toHaveLength(45);
    expect(new Set(seen).size).toBe(45);
  });

  it("a cursor from another question is a 400; the cursor of an answer removed since still works", async () => {
    const other = await ask(t, key, choiceDraft({ n: 20 }));
    await answerAll(t, other.id, heads.slice(0, 3));
    const theirs = (await get(key, `/v2/questions/${other.id}/answers?limit=1`)).nextCursor;
    await refusedCursor(key, withCursor(`/v2/questions/${question.id}/answers`, theirs));

    const page = await get(key, `/v2/questions/${question.id}/answers?limit=5`);
    const last = page.answers[4].attestationRef;
    const flagged = await t.inject({ method: 'POST', url: `/v2/questions/${question.id}/answers/${last}/flag`, headers: key.auth, payload: { reason: 'low_effort' } });
    expect(flagged.statusCode, flagged.body).toBe(201);
    await t.container.moderation.decideFlag(flagged.json().flag.id, 'uphold');
    const next = await get(key, withCursor(`/v2/questions/${question.id}/answers?limit=5`, page.nextCursor));
    const after = await get(key, `/v2/questions/${question.id}/answers?limit=200`);
    const index = after.answers.findIndex((a: Json) => a.attestationRef === page.answers[3].attestationRef);
    expect(next.answers.map((a: Json) => a.attestationRef)).toEqual(after.answers.slice(index + 1, index + 6).map((a: Json) => a.attestationRef));
  });
});
