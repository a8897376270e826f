import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { PNG } from 'pngjs';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { answer, ask, choiceDraft, DAY, errorOf, fundedKey, NO_RATE_LIMITS, seedHeads, sleep, type Head, type Json } from '../helpers/questions.ts';
import type { AnswerInput } from '../../src/modules/draft/answer-format.ts';
import { ASPECT_LADDER, MAX_ASPECT_ERROR } from '../../src/modules/exports/heatmap.ts';

/**
 * The click-test heatmap (spec Exports GET /v2/questions/{id}/heatmap.png; docs/results.md
 * "Heatmap") and its public variants (docs/sharing.md), every response checked against
 * /openapi.json: size by aspect, result filters, Result.clicks.heatmapUrl, security (no key,
 * wrong scope, another account's question, R5.4), a question that is not a click test, bad
 * input, and the public page and share link variants dying with the page or the link.
 */
const BASE = 'https://headcount.test';
let t: TestApp;
let key: TestKey;
let other: TestKey;
let heads: Head[];
/** The two countries with the most heads, for country filters (5 answers or more each). */
let countryA: string;
let countryB: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ...NO_RATE_LIMITS, PUBLIC_BASE_URL: BASE } });
  heads = await seedHeads(t, 300);
  const counts = new Map<string, number>();
  for (const h of heads) counts.set(h.country, (counts.get(h.country) ?? 0) + 1);
  [countryA, countryB] = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([country]) => country);
  key = await fundedKey(t, 1_000_000);
  other = await fundedKey(t, 1_000_000);
}, 120_000);
afterAll(async () => {
  await Promise.race([t?.close(), sleep(5_000)]);
});

const used = new Set<string>();
function pick(count: number, country?: string): Head[] {
  const chosen = heads.filter((h) => !used.has(h.id) && (!country || h.country === country)).slice(0, count);
  if (chosen.length < count) throw new Error(`only ${chosen.length} unused heads`);
  for (const h of chosen) used.add(h.id);
  return chosen;
}

async function tapAll(questionId: string, group: Head[], taps: AnswerInput['taps']): Promise<void> {
  for (const head of group) {
    const outcome = await answer(t, questionId, head, { taps });
    expect(outcome.accepted, JSON.stringify(outcome)).toBe(true);
  }
}

const clickDraft = (overrides: Json = {}): Json => ({
  type: 'click_test',
  text: 'Where would you tap to sign up?',
  stimulus: { imageUrl: 'https://img.example.com/home.png' },
  clickTest: { maxTaps: 2 },
  n: 40,
  ...overrides,
});

const TOP_RIGHT = { x: 0.85, y: 0.15 };
const BOTTOM_LEFT = { x: 0.15, y: 0.85 };

function decode(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  expect(response.headers['content-type']).toBe('image/png');
  const png = PNG.sync.read(response.rawPayload);
  const under = (p: { x: number; y: number }) => {
    const i = (Math.min(png.height - 1, Math.round(p.y * png.height)) * png.width + Math.min(png.width - 1, Math.round(p.x * png.width))) * 4;
    const [r, g, b, a] = png.data.subarray(i, i + 4);
    return { r, g, b, a };
  };
  return { png, under, corners: [under({ x: 0, y: 0 }), under({ x: 1, y: 0 }), under({ x: 0, y: 1 }), under({ x: 1, y: 1 })].map((p) => p.a) };
}

const heatmap = (id: string, query = '', as: TestKey | null = key) =>
  t.inject({ method: 'GET', url: `/v2/questions/${id}/heatmap.png${query}`, headers: as ? as.auth : {} });
const pathOf = (url: string) => url.slice(BASE.length);

async function result(id: string, query = ''): Promise<Json> {
  const response = await t.inject({ method: 'GET', url: `/v2/questions/${id}/result${query}`, headers: key.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().result;
}

describe('GET /v2/questions/{id}/heatmap.png', () => {
  let q: Json;

  beforeAll(async () => {
    q = await ask(t, key, clickDraft());
    // countryA taps the top right (6 people), countryB the bottom left (5 people, one also taps the top right).
    await tapAll(q.id, pick(6, countryA), [TOP_RIGHT]);
    await tapAll(q.id, pick(4, countryB), [BOTTOM_LEFT]);
    await tapAll(q.id, pick(1, countryB), [BOTTOM_LEFT, { x: 0.86, y: 0.16 }]);
  });

  it('a transparent PNG, 800 px on its longer side and shaped by the aspect, hot where people tapped', async () => {
    const response = await heatmap(q.id);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const { png, under, corners } = decode(response);
    expect([png.width, png.height]).toEqual([800, 800]);
    expect(corners).toEqual([0, 0, 0, 0]);
    const busy = under(TOP_RIGHT);
    expect(busy.a).toBe(255);
    expect(busy.r).toBeGreaterThan(200); // 7 taps: the hottest colour
    expect(busy.b).toBeLessThan(40);
    expect(under(BOTTOM_LEFT).a).toBeGreaterThan(200); // 5 taps
    expect(under({ x: 0.5, y: 0.5 }).a).toBe(0);

    for (const [aspect, width, height] of [[0.5, 400, 800], [1.5, 800, 533], [4, 800, 200], [0.25, 200, 800], [1.45, 800, 533], [0.3, 267, 800]] as const) {
      const sized = decode(await heatmap(q.id, `?aspect=${aspect}`));
      expect([sized.png.width, sized.png.height]).toEqual([width, height]);
      expect(sized.under(TOP_RIGHT).a).toBe(255);
      expect(sized.corners).toEqual([0, 0, 0, 0]);
    }
  });

  it('Result.clicks.heatmapUrl links to it, with the result filter', async () => {
    const r = await result(q.id);
    expect(r.clicks.heatmapUrl).toBe(`${BASE}/v2/questions/${q.id}/heatmap.png`);
    const viaUrl = await heatmap(q.id, '');
    const fetched = await t.inject({ method: 'GET', url: pathOf(r.clicks.heatmapUrl), headers: key.auth });
    expect(fetched.rawPayload.equals(viaUrl.rawPayload)).toBe(true);

    const filtered = await result(q.id, `?country=${countryB.toLowerCase()}&tier=${heads.find((h) => h.country === countryB)!.tier}`);
    const url = new URL(filtered.clicks.heatmapUrl);
    expect(url.pathname).toBe(`/v2/questions/${q.id}/heatmap.png`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ country: countryB, tier: String(filtered.filter.tier) });
  });

  it('wait carries the same heatmapUrl', async () => {
    const waitedFor = await ask(t, key, clickDraft({ n: 10 }));
    await tapAll(waitedFor.id, pick(1), [TOP_RIGHT]);
    const waited = await t.inject({ method: 'GET', url: `/v2/questions/${waitedFor.id}/wait?seconds=1&minAnswers=1`, headers: key.auth });
    expect(waited.statusCode, waited.body).toBe(200);
    expect(waited.json()).toMatchObject({ done: true, result: { clicks: { taps: 1, heatmapUrl: `${BASE}/v2/questions/${waitedFor.id}/heatmap.png` } } });
  });

  it('the result filters change the picture; a filter that suppresses draws nothing', async () => {
    const a = decode(await heatmap(q.id, `?country=${countryA}`));
    expect(a.under(TOP_RIGHT).a).toBe(255);
    expect(a.under(BOTTOM_LEFT).a).toBe(0);
    const b = decode(await heatmap(q.id, `?country=${countryB.toLowerCase()}`));
    expect(b.under(BOTTOM_LEFT).a).toBe(255);
    expect(b.under(TOP_RIGHT).a).toBeGreaterThan(0); // the one countryB tap up there: cool, not hot
    expect(b.under(TOP_RIGHT).b).toBeGreaterThan(200);
    // A country with fewer than 5 answers is suppressed, as in the result.
    const rare = heads.find((h) => h.country !== countryA && h.country !== countryB)!.country;
    const none = decode(await heatmap(q.id, `?country=${rare}`));
    expect(new Set(Array.from(none.png.data.filter((_, i) => i % 4 === 3)))).toEqual(new Set([0]));
    expect((await result(q.id, `?country=${rare}`)).suppressed).toBe(true);
  });

  it('uses the result cache: no answer query for a heatmap of a cached question', async () => {
    await result(q.id);
    const before = t.container.results.cacheStats();
    const renders = t.container.heatmaps.stats().renders;
    decode(await heatmap(q.id, '?aspect=3'));
    decode(await heatmap(q.id, '?aspect=3'));
    const after = t.container.results.cacheStats();
    expect(after.loads).toBe(before.loads);
    expect(after.refreshes).toBe(before.refreshes);
    expect(t.container.heatmaps.stats().renders).toBe(renders + 1);
  });

  it('a new answer shows at once', async () => {
    const spot = { x: 0.5, y: 0.9 };
    expect(decode(await heatmap(q.id)).under(spot).a).toBe(0);
    await tapAll(q.id, pick(1), [spot]);
    expect(decode(await heatmap(q.id)).under(spot).a).toBeGreaterThan(50);
  });

  it('no taps yet: a fully transparent picture of the right size', async () => {
    const fresh = await ask(t, key, clickDraft({ n: 10 }));
    const { png } = decode(await heatmap(fresh.id, '?aspect=2'));
    expect([png.width, png.height]).toEqual([800, 400]);
    expect(new Set(Array.from(png.data.filter((_, i) => i % 4 === 3)))).toEqual(new Set([0]));
    expect((await result(fresh.id)).clicks.heatmapUrl).toBe(`${BASE}/v2/questions/${fresh.id}/heatmap.png`);
  });

  it('400 for a bad aspect or filter, in the error envelope', async () => {
    for (const aspect of ['0.2', '4.01', '0', '-1', 'wide', '']) {
      const response = await heatmap(q.id, `?aspect=${aspect}`);
      expect(response.statusCode, `aspect=${aspect}: ${response.body}`).toBe(400);
      expect(errorOf(response)).toMatchObject({ code: 'validation_failed', details: { validation: [expect.objectContaining({ field: 'aspect' })] } });
    }
    for (const query of ['?option=0', '?tier=4', '?country=GBR', '?size=square']) {
      const response = await heatmap(q.id, query);
      expect(response.statusCode, `${query}: ${response.body}`).toBe(400);
      expect(errorOf(response).code).toBe('validation_failed');
    }
  });

  it('401 without a key, 403 without questions:read, 404 for another account’s question or an unknown id', async () => {
    const anonymous = await heatmap(q.id, '', null);
    expect(anonymous.statusCode).toBe(401);
    const writeOnly = await t.makeKey(['questions:write'], null, { accountId: key.accountId });
    const forbidden = await heatmap(q.id, '', writeOnly);
    expect(forbidden.statusCode).toBe(403);
    expect(errorOf(forbidden).code).toBe('insufficient_scope');
    for (const response of [await heatmap(q.id, '', other), await heatmap('q_doesnotexist')]) {
      expect(response.statusCode).toBe(404);
      expect(errorOf(response)).toMatchObject({ code: 'not_found', message: 'No such question on this account.' });
    }
  });

  it('404 for a question that is not a click test; its result has no clicks', async () => {
    const choice = await ask(t, key, choiceDraft());
    const response = await heatmap(choice.id);
    expect(response.statusCode).toBe(404);
    expect(errorOf(response)).toMatchObject({ code: 'not_found', message: expect.stringMatching(/not a click test/) });
    expect(await result(choice.id)).not.toHaveProperty('clicks');
  });
});

describe('public variants', () => {
  let q: Json;

  beforeAll(async () => {
    q = await ask(t, key, clickDraft({ n: 20 }));
    await tapAll(q.id, pick(5), [TOP_RIGHT]);
  });

  it('public results page: its heatmapUrl needs no key, is cached like the page, and dies when the page is turned off', async () => {
    const on = await t.inject({ method: 'POST', url: `/v2/questions/${q.id}/share`, headers: key.auth, payload: { public: true } });
    expect(on.statusCode, on.body).toBe(200);
    const code = on.json().question.publicCode as string;
    const page = await t.inject({ method: 'GET', url: `/v1/public/results/${code}` });
    expect(page.statusCode, page.body).toBe(200);
    const url = page.json().result.clicks.heatmapUrl as string;
    expect(url).toBe(`${BASE}/v1/public/results/${code}/heatmap.png`);
    expect(page.body).not.toContain(`/v2/questions/${q.id}/heatmap.png`);

    const response = await t.inject({ method: 'GET', url: `${pathOf(url)}?aspect=2` });
    expect(response.headers['cache-control']).toBe('public, max-age=60');
    const { png, under, corners } = decode(response);
    expect([png.width, png.height]).toEqual([800, 400]);
    expect(under(TOP_RIGHT).a).toBe(255);
    expect(corners).toEqual([0, 0, 0, 0]);
    // Same picture as the requester's.
    expect(response.rawPayload.equals((await heatmap(q.id, '?aspect=2')).rawPayload)).toBe(true);

    const badAspect = await t.inject({ method: 'GET', url: `${pathOf(url)}?aspect=9` });
    expect(badAspect.statusCode).toBe(400);
    const filtered = await t.inject({ method: 'GET', url: `${pathOf(url)}?country=${countryA}` });
    expect(filtered.statusCode).toBe(400);

    const off = await t.inject({ method: 'POST', url: `/v2/questions/${q.id}/share`, headers: key.auth, payload: { public: false } });
    expect(off.statusCode).toBe(200);
    const gone = await t.inject({ method: 'GET', url: pathOf(url) });
    expect(gone.statusCode).toBe(404);
    expect(errorOf(gone).code).toBe('not_found');
    expect((await t.inject({ method: 'GET', url: '/v1/public/results/Unknown1234/heatmap.png' })).statusCode).toBe(404);
  });

  it('100 distinct aspects on the keyless routes cost at most one render per step of the aspect ladder; each picture has the shape asked for, within a step (issue 8, point 8)', async () => {
    const code = (await t.inject({ method: 'POST', url: `/v2/questions/${q.id}/share`, headers: key.auth, payload: { public: true } })).json().question.publicCode as string;
    const { token } = (await t.inject({ method: 'POST', url: `/v2/questions/${q.id}/share-links`, headers: key.auth, payload: {} })).json().shareLink;
    // Warm the result cache, so the renders counted are the heatmaps' own.
    await t.inject({ method: 'GET', url: `/v1/public/results/${code}` });
    const before = t.container.heatmaps.stats().renders;
    // 100 distinct aspects from 1:4 to 4:1, as a cache-busting client would send them.
    const aspects = Array.from({ length: 100 }, (_, i) => (0.25 * 16 ** (i / 99)).toFixed(4));
    expect(new Set(aspects).size).toBe(100);
    for (const [i, aspect] of aspects.entries()) {
      const url = i % 2 ? `/v1/public/results/${code}/heatmap.png?aspect=${aspect}` : `/v1/public/shared/${token}/heatmap.png?aspect=${aspect}`;
      const { png, under } = decode(await t.inject({ method: 'GET', url }));
      expect(Math.max(png.width, png.height)).toBe(800);
      const shape = png.width / png.height;
      // Within the ladder's step (and a pixel of rounding).
      expect(Math.max(shape / Number(aspect), Number(aspect) / shape), `aspect ${aspect}: ${png.width} × ${png.height}`).toBeLessThanOrEqual(MAX_ASPECT_ERROR * 1.01);
      expect(under(TOP_RIGHT).a).toBe(255);
    }
    const renders = t.container.heatmaps.stats().renders - before;
    expect(renders).toBeLessThanOrEqual(ASPECT_LADDER.length);
    // The requester's route shares the same pictures (the same answers, no filter).
    for (const aspect of aspects.slice(0, 20)) decode(await heatmap(q.id, `?aspect=${aspect}`));
    expect(t.container.heatmaps.stats().renders - before).toBe(renders);
  }, 60_000);

  it('public page of a question that is not a click test: no heatmap (404)', async () => {
    const choice = await ask(t, key, choiceDraft());
    const on = await t.inject({ method: 'POST', url: `/v2/questions/${choice.id}/share`, headers: key.auth, payload: { public: true } });
    const response = await t.inject({ method: 'GET', url: `/v1/public/results/${on.json().question.publicCode}/heatmap.png` });
    expect(response.statusCode).toBe(404);
    expect(errorOf(response).message).toMatch(/not a click test/);
  });

  it('private share link: its heatmapUrl works while the link does (no-store, noindex), 404 once revoked or expired', async () => {
    const created = await t.inject({ method: 'POST', url: `/v2/questions/${q.id}/share-links`, headers: key.auth, payload: { expiresInDays: 1 } });
    expect(created.statusCode, created.body).toBe(201);
    const { token, id: linkId } = created.json().shareLink;
    const sharedPage = await t.inject({ method: 'GET', url: `/v1/public/shared/${token}` });
    expect(sharedPage.statusCode, sharedPage.body).toBe(200);
    const url = sharedPage.json().result.clicks.heatmapUrl as string;
    expect(url).toBe(`${BASE}/v1/public/shared/${token}/heatmap.png`);

    const response = await t.inject({ method: 'GET', url: pathOf(url) });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-robots-tag']).toBe('noindex');
    const { png, under } = decode(response);
    expect([png.width, png.height]).toEqual([800, 800]);
    expect(under(TOP_RIGHT).a).toBe(255);

    for (const bad of ['x'.repeat(32), `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`]) {
      const unknown = await t.inject({ method: 'GET', url: `/v1/public/shared/${bad}/heatmap.png` });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.headers['cache-control']).toBe('no-store');
    }

    // Expiry by the clock, then revocation of a second link.
    t.clock.advance(DAY + 1000);
    const expired = await t.inject({ method: 'GET', url: pathOf(url) });
    expect(expired.statusCode).toBe(404);
    expect(linkId).toMatch(/^shl_/);

    const second = (await t.inject({ method: 'POST', url: `/v2/questions/${q.id}/share-links`, headers: key.auth, payload: {} })).json().shareLink;
    const secondUrl = `/v1/public/shared/${second.token}/heatmap.png`;
    expect((await t.inject({ method: 'GET', url: secondUrl })).statusCode).toBe(200);
    const revoked = await t.inject({ method: 'DELETE', url: `/v2/questions/${q.id}/share-links/${second.id}`, headers: key.auth });
    expect(revoked.statusCode).toBe(200);
    const after = await t.inject({ method: 'GET', url: secondUrl });
    expect(after.statusCode).toBe(404);
    expect(after.headers['cache-control']).toBe('no-store');
    expect(after.headers['x-robots-tag']).toBe('noindex');
  });
});
