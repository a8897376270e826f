import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { seedSimulatedPanel } from '../../src/modules/panel/panel-seed.ts';
import { QUESTION_TYPES, type QuestionType } from '../../src/modules/draft/question-types.ts';

/**
 * POST /v1/billing/estimate (spec "Pricing and config"; docs/pricing.md, docs/question-types.md):
 * public, prices and validates any draft of the right JSON shape with a 200, refuses only a body
 * of the wrong shape with a 400.
 */
const PANEL_SIZE = 500;
const OPEN_WINDOW_MINUTES = 7 * 24 * 60;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // Seeded before the first estimate: pool counts are cached for 30 s (of the fake clock) per targeting.
  expect(await seedSimulatedPanel(t.db, { size: PANEL_SIZE, clock: t.clock })).toBe(PANEL_SIZE);
});
afterAll(async () => {
  await t?.close();
});

type Json = Record<string, any>;

function estimate(body: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return t.inject({ method: 'POST', url: '/v1/billing/estimate', payload: body as Json, headers });
}

async function ok(draft: Json): Promise<Json> {
  const response = await estimate({ draft });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function count(where: ReturnType<typeof sql>): Promise<number> {
  const result = await sql<{ n: number }>`SELECT count(*)::int AS n FROM heads WHERE ${where}`.execute(t.db);
  return result.rows[0].n;
}

const img = (name: string) => `https://img.example.com/${name}.png`;

/** One valid draft of each type, as a requester would write it. */
const VALID: Record<QuestionType, Json> = {
  single_choice: { type: 'single_choice', text: 'Which name would you pick for a budgeting app?', options: [{ label: 'Penny' }, { label: 'Pocket' }], neither: true },
  multi_choice: { type: 'multi_choice', text: 'Which of these would you use?', options: [{ label: 'Offline mode' }, { label: 'Voice notes' }, { label: 'Web clipper' }], reason: 'optional', n: 120 },
  ab_image: { type: 'ab_image', text: 'Which logo looks more trustworthy?', options: [{ label: 'Blue', imageUrl: img('a') }, { label: 'Green', imageUrl: img('b') }] },
  pairwise: { type: 'pairwise', text: 'Which line makes you more likely to try it?', options: [{ label: 'Fast' }, { label: 'Fresh' }, { label: 'Local' }] },
  scale_1_5: { type: 'scale_1_5', text: 'How clear is this sentence?', context: '1 = very unclear, 5 = perfectly clear', tier: 2 },
  ranking: { type: 'ranking', text: 'Order these by what matters most.', options: [{ label: 'Price' }, { label: 'Coverage' }, { label: 'Data' }, { label: 'Contract' }], rush: true },
  yes_mostly_no: { type: 'yes_mostly_no', text: 'Would you pay £3 a month for plant reminders?', reason: 'required', language: 'en-GB' },
  free_text: { type: 'free_text', text: 'What would you want to know before switching bank?', n: 30, tier: 3 },
  click_test: { type: 'click_test', text: 'Where would you tap to pay?', stimulus: { imageUrl: img('checkout') }, clickTest: { maxTaps: 3 }, n: 10 },
  reaction: {
    type: 'reaction',
    text: 'How did that slogan make you feel?',
    options: [{ label: 'Curious' }, { label: 'Indifferent' }, { label: 'Put off' }],
    stimulus: { text: 'Banking that talks like a person.', exposureMs: 5000 },
    n: 5000,
  },
};

const PRICE_FIELDS = ['creditsPerAnswer', 'creditsTotal', 'payPerAnswer', 'etaMinutes', 'traits'] as const;

function expectConsistentPrice(body: Json, n: number): void {
  for (const field of PRICE_FIELDS) {
    expect(Number.isSafeInteger(body[field]), `${field} = ${body[field]}`).toBe(true);
    expect(body[field], field).toBeGreaterThanOrEqual(0);
  }
  expect(body.creditsPerAnswer).toBeGreaterThan(0);
  expect(body.creditsTotal).toBe(body.creditsPerAnswer * n);
  const values = (body.breakdown as Json[]).map((line) => {
    expect(line.value).toMatch(/^\d+ credits$/);
    expect(line.label.length).toBeGreaterThan(0);
    return Number.parseInt(line.value, 10);
  });
  expect(values.length).toBeGreaterThanOrEqual(2);
  expect(values.reduce((a, b) => a + b, 0)).toBe(body.creditsTotal);
  expect(body.breakdownLine).toContain(`${n.toLocaleString('en-GB')} answers`);
}

describe('a valid draft of each type', () => {
  it('covers all ten question types', () => {
    expect(Object.keys(VALID).sort()).toEqual([...QUESTION_TYPES].sort());
  });

  it.each(QUESTION_TYPES)('%s: 200 with no validation items and a consistent price', async (type) => {
    const draft = VALID[type];
    const body = await ok(draft);
    expect(body.validation).toEqual([]);
    expectConsistentPrice(body, draft.n ?? 50);
    expect(Number.isSafeInteger(body.poolSize)).toBe(true);
    expect(body.poolSize).toBeGreaterThan(0);
  });

  it('needs no credential, and ignores a bad one', async () => {
    const plain = await ok(VALID.single_choice);
    const withBadKey = await estimate({ draft: VALID.single_choice }, { authorization: 'Bearer hc_live_not-a-key' });
    expect(withBadKey.statusCode).toBe(200);
    expect(withBadKey.json()).toEqual(plain);
  });

  it('prices the documented example exactly (docs/pricing.md: single choice, tier 1, 50 answers)', async () => {
    const body = await ok({ type: 'single_choice', text: 'Which name is best?', options: [{ label: 'Penny' }, { label: 'Pocket' }] });
    expect(body).toMatchObject({ creditsPerAnswer: 12, creditsTotal: 600, payPerAnswer: 8, traits: 0 });
    expect(body.breakdown).toEqual([
      { label: 'Head pay: 8 credits × 50 answers (single choice, tier 1)', value: '400 credits' },
      { label: 'Headcount fee: 4 credits × 50 answers', value: '200 credits' },
    ]);
    expect(body.breakdownLine).toBe('50 answers × 12 credits = 600 credits');
  });

  it('charges more for more work, a higher tier, rush and targeting traits', async () => {
    const base = { type: 'single_choice', text: 'Pick one', options: [{ label: 'A' }, { label: 'B' }] };
    const plain = await ok(base);
    expect((await ok({ ...base, type: 'ranking', options: [{ label: 'A' }, { label: 'B' }, { label: 'C' }] })).creditsPerAnswer).toBeGreaterThan(plain.creditsPerAnswer);
    expect((await ok({ ...base, tier: 2 })).payPerAnswer).toBeGreaterThan(plain.payPerAnswer);
    expect((await ok({ ...base, rush: true })).creditsPerAnswer).toBeGreaterThan(plain.creditsPerAnswer);
    const targeted = await ok({ ...base, targeting: { countries: ['GB'], tags: ['pet_dog', 'int_music'], ageBands: ['25-34'] } });
    expect(targeted.traits).toBe(3);
    expect(targeted.creditsPerAnswer).toBe(plain.creditsPerAnswer + 3);
    // Targeting by country alone is free (docs/pricing.md).
    expect((await ok({ ...base, targeting: { countries: ['GB', 'US'], tags: [] } })).creditsPerAnswer).toBe(plain.creditsPerAnswer);
  });

  it('prices an n outside 10–5000 as the nearest allowed n, and says what is wrong', async () => {
    const body = await ok({ ...VALID.yes_mostly_no, n: 6000 });
    expect(body.validation).toEqual([expect.objectContaining({ field: 'draft.n', code: 'out_of_range' })]);
    expectConsistentPrice(body, 5000);
  });
});

describe('poolSize and etaMinutes come from the panel', () => {
  const base = { type: 'single_choice', text: 'Pick one', options: [{ label: 'A' }, { label: 'B' }] };

  it('untargeted, the pool is every head of at least the tier', async () => {
    expect((await ok(base)).poolSize).toBe(PANEL_SIZE);
    const tier2 = await ok({ ...base, tier: 2 });
    expect(tier2.poolSize).toBe(await count(sql`tier >= 2`));
    expect(tier2.poolSize).toBeGreaterThan(0);
    expect(tier2.poolSize).toBeLessThan(PANEL_SIZE);
  });

  it('targeting a country and a tag shrinks the pool to the heads that match both', async () => {
    const gb = await ok({ ...base, targeting: { countries: ['GB'], tags: [] } });
    expect(gb.poolSize).toBe(await count(sql`country = 'GB'`));
    expect(gb.poolSize).toBeGreaterThan(0);
    expect(gb.poolSize).toBeLessThan(PANEL_SIZE);

    const gbDogs = await ok({ ...base, targeting: { countries: ['GB'], tags: ['pet_dog'] } });
    expect(gbDogs.poolSize).toBe(await count(sql`country = 'GB' AND 'pet_dog' = ANY(tags)`));
    expect(gbDogs.poolSize).toBeGreaterThan(0);
    expect(gbDogs.poolSize).toBeLessThan(gb.poolSize);
  });

  it('tags of different groups are AND (one tag per group: spec, one trait per group)', async () => {
    const one = await ok({ ...base, targeting: { countries: [], tags: ['int_music'] } });
    expect(one.poolSize).toBe(await count(sql`'int_music' = ANY(tags)`));
    const both = await ok({ ...base, targeting: { countries: [], tags: ['int_music', 'pet_cat'] } });
    expect(both.poolSize).toBe(await count(sql`'int_music' = ANY(tags) AND 'pet_cat' = ANY(tags)`));
    expect(both.poolSize).toBeLessThan(one.poolSize);
  });

  it('a narrow target reaches few or no heads, and then the estimate says the whole open window', async () => {
    const broad = await ok(base);
    expect(broad.etaMinutes).toBeGreaterThanOrEqual(2);
    expect(broad.etaMinutes).toBeLessThan(OPEN_WINDOW_MINUTES);

    const narrow = await ok({
      ...base,
      tier: 3,
      targeting: { countries: ['GB'], tags: ['pet_dog', 'student', 'income_high'], ageBands: ['65+'], genders: ['non_binary'], verifiedAge: true },
    });
    expect(narrow.validation).toEqual([]);
    expect(narrow.poolSize).toBeLessThanOrEqual(2);
    // Fewer heads than the 50 answers wanted: the panel cannot fill it on its own.
    expect(narrow.etaMinutes).toBe(OPEN_WINDOW_MINUTES);
  });

  it('is null while the targeting has errors', async () => {
    const body = await ok({ ...base, targeting: { countries: ['XX'], tags: [] } });
    expect(body.poolSize).toBeNull();
    expect(body.validation).toEqual([expect.objectContaining({ field: 'draft.targeting.countries[0]', code: 'unknown_value' })]);
  });
});

describe('a broken draft is a 200 listing what to fix', () => {
  type Case = [label: string, draft: Json, expected: Array<[field: string, code: string]>];
  const t3 = [{ label: 'A' }, { label: 'B' }, { label: 'C' }];
  const CASES: Case[] = [
    ['single_choice with one option', { type: 'single_choice', text: 'Q?', options: [{ label: 'Yes' }] }, [['draft.options', 'too_few']]],
    ['multi_choice with a blank text and repeated labels', { type: 'multi_choice', text: '   ', options: [{ label: 'Red' }, { label: 'red' }] }, [['draft.text', 'required'], ['draft.options[1].label', 'not_allowed']]],
    ['ab_image with an option lacking its image', { type: 'ab_image', text: 'Q?', options: [{ label: 'A' }, { label: 'B', imageUrl: img('b') }] }, [['draft.options[0].imageUrl', 'required']]],
    ['pairwise with two options and neither', { type: 'pairwise', text: 'Q?', options: [{ label: 'A' }, { label: 'B' }], neither: true }, [['draft.options', 'too_few'], ['draft.neither', 'not_allowed']]],
    ['scale_1_5 with options', { type: 'scale_1_5', text: 'Q?', options: [{ label: '1' }] }, [['draft.options', 'not_allowed']]],
    [
      'ranking with nine options, one label too long',
      { type: 'ranking', text: 'Q?', options: [{ label: 'x'.repeat(41) }, ...Array.from({ length: 8 }, (_, i) => ({ label: `Option ${i}` }))] },
      [['draft.options', 'too_many'], ['draft.options[0].label', 'too_long']],
    ],
    ['yes_mostly_no with a stimulus and n below 10', { type: 'yes_mostly_no', text: 'Q?', stimulus: { text: 'Look' }, n: 5 }, [['draft.stimulus', 'not_allowed'], ['draft.n', 'out_of_range']]],
    ['free_text asking for a reason, context too long', { type: 'free_text', text: 'Q?', reason: 'required', context: 'c'.repeat(121) }, [['draft.reason', 'not_allowed'], ['draft.context', 'too_long']]],
    ['click_test without image or clickTest', { type: 'click_test', text: 'Q?' }, [['draft.stimulus', 'required'], ['draft.clickTest', 'required']]],
    [
      'click_test with exposureMs and 6 taps',
      { type: 'click_test', text: 'Q?', stimulus: { imageUrl: img('x'), exposureMs: 3000 }, clickTest: { maxTaps: 6 } },
      [['draft.stimulus.exposureMs', 'not_allowed'], ['draft.clickTest.maxTaps', 'out_of_range']],
    ],
    ['reaction without exposureMs', { type: 'reaction', text: 'Q?', options: t3, stimulus: { text: 'Slogan' } }, [['draft.stimulus.exposureMs', 'required']]],
    ['reaction with nothing to show and a 1 s exposure', { type: 'reaction', text: 'Q?', options: t3, stimulus: { exposureMs: 1000 } }, [['draft.stimulus', 'required'], ['draft.stimulus.exposureMs', 'out_of_range']]],
    ['no type and no text', { n: 50 }, [['draft.type', 'required'], ['draft.text', 'required']]],
    ['an unknown type', { type: 'poll', text: 'Q?' }, [['draft.type', 'unknown_value']]],
    ['text over 600 characters', { type: 'yes_mostly_no', text: 'q'.repeat(601) }, [['draft.text', 'too_long']]],
    ['n not whole', { type: 'yes_mostly_no', text: 'Q?', n: 50.5 }, [['draft.n', 'invalid_format']]],
    ['tier 4', { type: 'yes_mostly_no', text: 'Q?', tier: 4 }, [['draft.tier', 'unknown_value']]],
    ['a language that is not offered, a bad URI', { type: 'ab_image', text: 'Q?', language: 'nl', options: [{ label: 'A', imageUrl: 'not a uri' }, { label: 'B', imageUrl: img('b') }] }, [['draft.language', 'unknown_value'], ['draft.options[0].imageUrl', 'invalid_format']]],
    ['a language in the wrong case', { type: 'yes_mostly_no', text: 'Q?', language: 'EN' }, [['draft.language', 'invalid_format']]],
    ['a lower-case country', { type: 'yes_mostly_no', text: 'Q?', targeting: { countries: ['gb'], tags: [] } }, [['draft.targeting.countries[0]', 'unknown_value']]],
    ['targeting without tags', { type: 'yes_mostly_no', text: 'Q?', targeting: { countries: ['GB'] } }, [['draft.targeting.tags', 'required']]],
    ['an unknown tag', { type: 'yes_mostly_no', text: 'Q?', targeting: { countries: [], tags: ['no_such_tag'] } }, [['draft.targeting.tags[0]', 'unknown_value']]],
    ['two interests (max 1: one trait per group)', { type: 'yes_mostly_no', text: 'Q?', targeting: { countries: [], tags: ['int_music', 'int_travel'] } }, [['draft.targeting.tags', 'too_many']]],
    ['two life stages (max 1)', { type: 'yes_mostly_no', text: 'Q?', targeting: { countries: [], tags: ['student', 'retired'] } }, [['draft.targeting.tags', 'too_many']]],
    ['tier 2 where tier 2 is not offered', { type: 'yes_mostly_no', text: 'Q?', tier: 2, targeting: { countries: ['ID'], tags: [] } }, [['draft.tier', 'not_allowed']]],
    ['a date that does not exist', { type: 'yes_mostly_no', text: 'Q?', scheduledFor: '2026-02-30T09:00:00Z' }, [['draft.scheduledFor', 'invalid_format']]],
    ['a date without Z', { type: 'yes_mostly_no', text: 'Q?', scheduledFor: '2026-03-01T09:00:00+01:00' }, [['draft.scheduledFor', 'invalid_format']]],
    ['a date more than 90 days ahead', { type: 'yes_mostly_no', text: 'Q?', scheduledFor: '2026-06-01T00:00:00Z' }, [['draft.scheduledFor', 'out_of_range']]],
  ];

  it('has a broken draft of every type', () => {
    const types = new Set(CASES.map(([, draft]) => draft.type));
    expect(QUESTION_TYPES.filter((type) => !types.has(type))).toEqual([]);
  });

  it.each(CASES)('%s', async (_label, draft, expected) => {
    const body = await ok(draft);
    const items = body.validation as Json[];
    expect(items).toEqual(expect.arrayContaining(expected.map(([field, code]) => expect.objectContaining({ field, code }))));
    // One item per field, each with a sentence a person can act on.
    expect(new Set(items.map((item) => item.field)).size).toBe(items.length);
    for (const item of items) expect(item.message.trim().length).toBeGreaterThan(5);
    // Still priced, so a form can show a price while the draft is fixed.
    for (const field of PRICE_FIELDS) expect(Number.isSafeInteger(body[field]) && body[field] >= 0, field).toBe(true);
    expect(body.breakdown.reduce((sum: number, line: Json) => sum + Number.parseInt(line.value, 10), 0)).toBe(body.creditsTotal);
  });
});

describe('scheduledFor is judged by the service clock', () => {
  const draft = (scheduledFor: string) => ({ type: 'yes_mostly_no', text: 'Q?', scheduledFor });
  const start = '2026-01-01T00:00:00.000Z';

  it('before the clock is in_past, after it is fine', async () => {
    expect(t.clock.now().toISOString()).toBe(start);
    expect((await ok(draft('2025-12-31T23:59:59Z'))).validation).toEqual([expect.objectContaining({ field: 'draft.scheduledFor', code: 'in_past' })]);
    expect((await ok(draft(start.replace('.000', '')))).validation).toEqual([expect.objectContaining({ field: 'draft.scheduledFor', code: 'in_past' })]);
    expect((await ok(draft('2026-01-01T00:00:01Z'))).validation).toEqual([]);
    expect((await ok(draft('2026-03-01T09:00:00.250Z'))).validation).toEqual([]);
  });

  it('moving the clock past the instant makes it in_past', async () => {
    try {
      t.clock.set('2026-03-02T00:00:00Z');
      expect((await ok(draft('2026-03-01T09:00:00Z'))).validation).toEqual([expect.objectContaining({ field: 'draft.scheduledFor', code: 'in_past' })]);
    } finally {
      t.clock.set(start);
    }
  });
});

describe('a body of the wrong shape is a 400', () => {
  async function refused(response: LightMyRequestResponse, field: string, code: string): Promise<void> {
    expect(response.statusCode, response.body).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('validation_failed');
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.details.validation).toEqual(expect.arrayContaining([expect.objectContaining({ field, code })]));
  }

  it.each([
    ['text is a number', { draft: { type: 'yes_mostly_no', text: 42 } }, 'draft.text', 'invalid_format'],
    ['n is a string', { draft: { type: 'yes_mostly_no', text: 'Q?', n: '50' } }, 'draft.n', 'invalid_format'],
    ['an option label is a number', { draft: { type: 'single_choice', text: 'Q?', options: [{ label: 1 }, { label: 'B' }] } }, 'draft.options[0].label', 'invalid_format'],
    ['options is an object', { draft: { type: 'single_choice', text: 'Q?', options: { label: 'A' } } }, 'draft.options', 'invalid_format'],
    ['targeting.countries is a string', { draft: { type: 'yes_mostly_no', text: 'Q?', targeting: { countries: 'GB', tags: [] } } }, 'draft.targeting.countries', 'invalid_format'],
    ['draft is null', { draft: null }, 'draft', 'invalid_format'],
    ['an unknown field in the draft', { draft: { type: 'yes_mostly_no', text: 'Q?', colour: 'red' } }, 'draft.colour', 'not_allowed'],
    ['an unknown field in an option', { draft: { type: 'single_choice', text: 'Q?', options: [{ label: 'A', colour: 'red' }, { label: 'B' }] } }, 'draft.options[0].colour', 'not_allowed'],
    ['an unknown field at the top level', { draft: { type: 'yes_mostly_no', text: 'Q?' }, price: 0 }, 'price', 'not_allowed'],
    ['an unknown surface', { draft: { type: 'yes_mostly_no', text: 'Q?' }, surface: 'tv' }, 'surface', 'unknown_value'],
    ['no draft', { surface: 'web' }, 'draft', 'required'],
  ])('%s', async (_label, body, field, code) => {
    await refused(await estimate(body), field, code);
  });

  it('accepts both surfaces, at the same price', async () => {
    const draft = VALID.pairwise;
    const app = await estimate({ draft, surface: 'app' });
    const web = await estimate({ draft, surface: 'web' });
    expect(app.statusCode).toBe(200);
    expect(web.json()).toEqual(app.json());
  });

  it('malformed JSON', async () => {
    const response = await t.inject({ method: 'POST', url: '/v1/billing/estimate', payload: '{"draft": {"type": "yes_mostly_no",', headers: { 'content-type': 'application/json' } });
    await refused(response, 'body', 'invalid_format');
  });

  it('an empty JSON body', async () => {
    const response = await t.inject({ method: 'POST', url: '/v1/billing/estimate', headers: { 'content-type': 'application/json' } });
    await refused(response, 'body', 'required');
  });

  it('a JSON array', async () => {
    await refused(await estimate([{ draft: VALID.single_choice }]), 'body', 'invalid_format');
  });

  it.each(['application/x-www-form-urlencoded', 'text/plain', 'application/xml'])('a body sent as %s is 415 unsupported_media_type', async (contentType) => {
    const response = await t.inject({
      method: 'POST',
      url: '/v1/billing/estimate',
      payload: contentType.includes('urlencoded') ? 'draft=1' : JSON.stringify({ draft: VALID.single_choice }),
      headers: { 'content-type': contentType },
    });
    expect(response.statusCode, response.body).toBe(415);
    expect(response.json().error.code).toBe('unsupported_media_type');
  });

  it('a body over the limit (256 KiB by default) is 413 payload_too_large', async () => {
    const response = await estimate({ draft: { type: 'yes_mostly_no', text: 'q'.repeat(300 * 1024) } });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatchObject({ code: 'payload_too_large', details: { limit: 256 * 1024 }, message: 'The request body is larger than this endpoint takes (262,144 bytes).' });
  });

  it('a body just under the limit is read and validated', async () => {
    const response = await estimate({ draft: { type: 'yes_mostly_no', text: 'q'.repeat(200 * 1024) } });
    expect(response.statusCode).toBe(200);
    expect(response.json().validation).toEqual([expect.objectContaining({ field: 'draft.text', code: 'too_long' })]);
  });
});
