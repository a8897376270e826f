import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';

/**
 * Saved drafts (spec "Drafts and uploads", "Draft record"; docs/drafts.md): only `type` required,
 * stored exactly as sent, newest-changed first, PUT replaces, DELETE removes.
 */
type Json = Record<string, any>;

let t: TestApp;
let key: TestKey;
beforeAll(async () => {
  t = await createTestApp();
  key = await t.makeKey(['questions:read', 'questions:write']);
});
afterAll(async () => {
  await t?.close();
});

const create = (draft: unknown, as: TestKey = key) => t.inject({ method: 'POST', url: '/v1/drafts', headers: as.auth, payload: draft as Json });
const replace = (id: string, draft: unknown, as: TestKey = key) => t.inject({ method: 'PUT', url: `/v1/drafts/${id}`, headers: as.auth, payload: draft as Json });
const read = (id: string, as: TestKey = key) => t.inject({ method: 'GET', url: `/v1/drafts/${id}`, headers: as.auth });
const remove = (id: string, as: TestKey = key) => t.inject({ method: 'DELETE', url: `/v1/drafts/${id}`, headers: as.auth });
const list = async (as: TestKey = key): Promise<Json[]> => {
  const response = await t.inject({ method: 'GET', url: '/v1/drafts', headers: as.auth });
  expect(response.statusCode).toBe(200);
  return response.json().drafts;
};

function created(response: LightMyRequestResponse): Json {
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function refused(response: LightMyRequestResponse, expected: Array<[field: string, code: string]>): void {
  expect(response.statusCode, response.body).toBe(400);
  const { error } = response.json();
  expect(error.code).toBe('validation_failed');
  expect(error.details.validation).toEqual(expect.arrayContaining(expected.map(([field, code]) => expect.objectContaining({ field, code }))));
}

describe('POST /v1/drafts', () => {
  it('needs only a type, and adds no defaults', async () => {
    const record = created(await create({ type: 'scale_1_5' }));
    expect(record.id).toMatch(/^drf_/);
    expect(record.draft).toEqual({ type: 'scale_1_5' });
    expect(record.updatedAt).toBe(t.clock.now().toISOString());
    expect(created(await read(record.id))).toEqual(record);
  });

  it('stores a full draft exactly as sent', async () => {
    const draft = {
      type: 'reaction',
      text: 'How did that make you feel?',
      context: 'A slogan for a bank',
      language: 'en-GB',
      options: [{ label: 'Curious' }, { label: 'Put off', imageUrl: 'https://img.example.com/off.png' }],
      neither: false,
      stimulus: { text: 'Banking that talks like a person.', exposureMs: 5000 },
      n: 120,
      tier: 2,
      rush: true,
      targeting: { countries: ['GB', 'IE'], tags: ['int_music'], ageBands: ['25-34', '35-44'], genders: ['woman'], verifiedAge: true },
      scheduledFor: '2026-02-01T09:30:00.500Z',
      publicResults: true,
      reason: 'optional',
      contentFlag: 'none',
      shownAs: 'Ada Labs',
    };
    const record = created(await create(draft));
    expect(record.draft).toEqual(draft);
    expect(created(await read(record.id)).draft).toEqual(draft);
    expect((await list()).find((d) => d.id === record.id)!.draft).toEqual(draft);
  });

  it('accepts the draft-only fields', async () => {
    const draft = {
      type: 'single_choice',
      interestAudienceId: 'aud_climbers',
      minGrade: 1,
      interestPrice: { creditsPerAnswer: 40, bonusCredits: 0 },
      answeredBy: 'heads',
      openForDays: 1,
      shownAs: 'The climbing club',
    };
    const record = created(await create(draft));
    expect(record.draft).toEqual(draft);
    expect(created(await create({ type: 'single_choice', interestPrice: { creditsPerAnswer: 10000, bonusCredits: 10000 } })).draft.interestPrice).toEqual({
      creditsPerAnswer: 10000,
      bonusCredits: 10000,
    });
  });

  it('does not apply per-type rules: work in progress is saved as it is', async () => {
    const draft = { type: 'ranking', text: 'Order these', options: [{ label: 'Only one' }], neither: true };
    expect(created(await create(draft)).draft).toEqual(draft);
  });

  it.each([
    ['no type', { text: 'Q?' }, [['type', 'required']]],
    ['an unknown type', { type: 'poll' }, [['type', 'unknown_value']]],
    ['minGrade 2', { type: 'single_choice', minGrade: 2 }, [['minGrade', 'out_of_range']]],
    ['minGrade 0', { type: 'single_choice', minGrade: 0 }, [['minGrade', 'out_of_range']]],
    ['text of 601 characters', { type: 'free_text', text: 'x'.repeat(601) }, [['text', 'too_long']]],
    ['an option label of 41 characters', { type: 'single_choice', options: [{ label: 'y'.repeat(41) }] }, [['options[0].label', 'too_long']]],
    ['nine options', { type: 'single_choice', options: Array.from({ length: 9 }, (_, i) => ({ label: `O${i}` })) }, [['options', 'too_many']]],
    ['openForDays 7', { type: 'single_choice', openForDays: 7 }, [['openForDays', 'out_of_range']]],
    ['interestPrice of 0 per answer', { type: 'single_choice', interestPrice: { creditsPerAnswer: 0, bonusCredits: 0 } }, [['interestPrice.creditsPerAnswer', 'out_of_range']]],
    ['interestPrice without its bonus', { type: 'single_choice', interestPrice: { creditsPerAnswer: 5 } }, [['interestPrice.bonusCredits', 'required']]],
    ['shownAs of 41 characters', { type: 'single_choice', shownAs: 'z'.repeat(41) }, [['shownAs', 'too_long']]],
    ['interestAudienceId of 41 characters', { type: 'single_choice', interestAudienceId: 'a'.repeat(41) }, [['interestAudienceId', 'too_long']]],
    ['answeredBy robots', { type: 'single_choice', answeredBy: 'robots' }, [['answeredBy', 'unknown_value']]],
    ['n as a string', { type: 'single_choice', n: '50' }, [['n', 'invalid_format']]],
    ['n of 5001', { type: 'single_choice', n: 5001 }, [['n', 'out_of_range']]],
    ['a bad language', { type: 'single_choice', language: 'English' }, [['language', 'invalid_format']]],
    ['an unknown field', { type: 'single_choice', owner: 'me' }, [['owner', 'not_allowed']]],
    ['two problems at once', { type: 'single_choice', minGrade: 2, text: 'x'.repeat(601) }, [['minGrade', 'out_of_range'], ['text', 'too_long']]],
  ] as Array<[string, Json, Array<[string, string]>]>)('refuses %s with 400 and stores nothing', async (_label, draft, expected) => {
    const before = await list();
    refused(await create(draft), expected);
    expect(await list()).toEqual(before);
  });

  it('refuses a body that is not a JSON object', async () => {
    const before = await list();
    expect((await t.inject({ method: 'POST', url: '/v1/drafts', headers: { ...key.auth, 'content-type': 'application/json' }, payload: '{"type":' })).statusCode).toBe(400);
    expect((await create(['single_choice'])).statusCode).toBe(400);
    expect((await t.inject({ method: 'POST', url: '/v1/drafts', headers: { ...key.auth, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'type=ranking' })).statusCode).toBe(415);
    expect(await list()).toEqual(before);
  });
});

describe('GET /v1/drafts', () => {
  it('lists the most recently changed first, and only this account’s', async () => {
    const own = await t.makeKey(['questions:read', 'questions:write']);
    const other = await t.makeKey(['questions:read', 'questions:write']);
    created(await create({ type: 'single_choice', text: 'Someone else' }, other));

    const a = created(await create({ type: 'single_choice', text: 'A' }, own));
    t.clock.advance(1_000);
    const b = created(await create({ type: 'single_choice', text: 'B' }, own));
    t.clock.advance(1_000);
    const c = created(await create({ type: 'single_choice', text: 'C' }, own));
    expect((await list(own)).map((d) => d.id)).toEqual([c.id, b.id, a.id]);

    t.clock.advance(1_000);
    const changed = created(await replace(a.id, { type: 'single_choice', text: 'A, changed' }, own));
    expect(changed.updatedAt).toBe(t.clock.now().toISOString());
    const drafts = await list(own);
    expect(drafts.map((d) => d.id)).toEqual([a.id, c.id, b.id]);
    expect(drafts[0]).toEqual(changed);
    expect(drafts.map((d) => d.draft.text)).not.toContain('Someone else');
  });

  it('is empty for an account without drafts', async () => {
    expect(await list(await t.makeKey(['questions:read']))).toEqual([]);
  });
});

describe('PUT /v1/drafts/{id}', () => {
  it('replaces the whole draft: fields left out are gone', async () => {
    const record = created(await create({ type: 'single_choice', text: 'Old', options: [{ label: 'A' }, { label: 'B' }], n: 200, shownAs: 'Old name' }));
    t.clock.advance(5_000);
    const replaced = created(await replace(record.id, { type: 'free_text', text: 'New' }));
    expect(replaced).toEqual({ id: record.id, draft: { type: 'free_text', text: 'New' }, updatedAt: t.clock.now().toISOString() });
    expect(created(await read(record.id))).toEqual(replaced);
  });

  it('refuses an invalid draft and keeps the stored one', async () => {
    const record = created(await create({ type: 'single_choice', text: 'Keep me' }));
    refused(await replace(record.id, { type: 'single_choice', minGrade: 2 }), [['minGrade', 'out_of_range']]);
    refused(await replace(record.id, { text: 'no type' }), [['type', 'required']]);
    expect(created(await read(record.id))).toEqual(record);
  });

  it('an unknown id → 404', async () => {
    const response = await replace('drf_doesNotExist0000000', { type: 'single_choice' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
  });
});

describe('DELETE /v1/drafts/{id}', () => {
  it('removes the draft: then GET, PUT and DELETE are 404 and it is no longer listed', async () => {
    const record = created(await create({ type: 'yes_mostly_no', text: 'Delete me' }));
    const deleted = await remove(record.id);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ ok: true });
    for (const response of [await read(record.id), await replace(record.id, { type: 'yes_mostly_no' }), await remove(record.id)]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
    expect((await list()).map((d) => d.id)).not.toContain(record.id);
  });
});
