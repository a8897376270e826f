import { randomUUID } from 'node:crypto';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { answer, ask, askRaw, fundedKey, NO_RATE_LIMITS, seedHeads, sleep, type Head, type Json } from '../helpers/questions.ts';
import { jpeg, pathOf, png, ticket, upload, wav } from '../helpers/media.ts';
import { MAX_ASPECT_ERROR } from '../../src/modules/exports/heatmap.ts';

/**
 * Questions that use uploaded images, end to end (issue 13 point 8; docs/uploads.md "Click tests"):
 * a click test on an uploaded 1200 × 600 image is asked, shown on the answer page (its CSP lets
 * the page load same-origin files), answered through the link and by heads, and its result's
 * `clicks.heatmapUrl` carries the image's aspect, so the heatmap PNG comes out in its shape; the
 * same on the public results page. An A/B image question on two uploads is asked and shown.
 */
let t: TestApp;
let key: TestKey;
let heads: Head[];
let wide: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ...NO_RATE_LIMITS, LINK_ANSWERS_PER_IP: '100000' } });
  heads = await seedHeads(t, 30);
  key = await fundedKey(t, 1_000_000);
  wide = (await upload(t, key, 'image', 'image/png', await png(1200, 600))).publicUrl;
}, 120_000);
afterAll(async () => {
  await Promise.race([t?.close(), sleep(5_000)]);
});

const clickTest = (imageUrl: string, overrides: Json = {}): Json => ({
  type: 'click_test',
  text: 'Where would you tap to check out?',
  stimulus: { imageUrl },
  clickTest: { maxTaps: 1 },
  n: 10,
  ...overrides,
});

function shapeOf(body: Buffer): { width: number; height: number } {
  const picture = PNG.sync.read(body);
  return { width: picture.width, height: picture.height };
}

describe('a click test on an uploaded image', () => {
  let question: Json;

  beforeAll(async () => {
    question = await ask(t, key, clickTest(wide, { publicResults: true }));
  });

  it('stores the image size with the question at ask time', async () => {
    const row = await t.db.selectFrom('questions').select(['stimulus_width', 'stimulus_height']).where('id', '=', question.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ stimulus_width: 1200, stimulus_height: 600 });
  });

  it('is shown on the answer page, whose CSP allows the same-origin file', async () => {
    const page = await t.inject({ method: 'GET', url: `/a/${question.linkCode}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(wide);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/img-src 'self'/);
    // The file is on the page's own origin (PUBLIC_BASE_URL), so 'self' covers it.
    expect(new URL(wide).origin).toBe(new URL(t.config.publicBaseUrl).origin);
    const view = (await t.inject({ method: 'GET', url: `/v1/public/link/${question.linkCode}` })).json();
    expect(JSON.stringify(view.question)).toContain(wide);
    const file = await t.inject({ method: 'GET', url: pathOf(wide) });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
  });

  it('is answered through the link and by heads; the result heatmap is drawn on the image aspect', async () => {
    const linkAnswer = await t.inject({ method: 'POST', url: `/v1/public/link/${question.linkCode}/answers`, payload: { answer: { taps: [{ x: 0.8, y: 0.2 }] }, nonce: randomUUID() } });
    expect(linkAnswer.statusCode, linkAnswer.body).toBe(200);
    expect(linkAnswer.json().accepted).toBe(true);
    for (const head of heads.slice(0, 5)) expect((await answer(t, question.id, head, { taps: [{ x: 0.75, y: 0.25 }] })).accepted).toBe(true);

    const result = (await t.inject({ method: 'GET', url: `/v2/questions/${question.id}/result`, headers: key.auth })).json().result;
    expect(result.clicks.taps).toBe(6);
    const heatmapUrl = new URL(result.clicks.heatmapUrl);
    expect(heatmapUrl.searchParams.get('aspect')).toBe('2');
    const heatmap = await t.inject({ method: 'GET', url: heatmapUrl.pathname + heatmapUrl.search, headers: key.auth });
    expect(heatmap.statusCode).toBe(200);
    expect(heatmap.headers['content-type']).toBe('image/png');
    const { width, height } = shapeOf(heatmap.rawPayload);
    expect(width / height).toBeGreaterThan(2 / MAX_ASPECT_ERROR);
    expect(width / height).toBeLessThan(2 * MAX_ASPECT_ERROR);

    // The public results page's heatmap has the same shape.
    const shared = (await t.inject({ method: 'GET', url: `/v1/public/results/${question.publicCode}` })).json();
    const publicHeatmap = new URL(shared.result.clicks.heatmapUrl);
    expect(publicHeatmap.searchParams.get('aspect')).toBe('2');
    const { width: w, height: h } = shapeOf((await t.inject({ method: 'GET', url: publicHeatmap.pathname + publicHeatmap.search })).rawPayload);
    expect(w / h).toBeGreaterThan(2 / MAX_ASPECT_ERROR);
  });

  it('an image from elsewhere, or one of ours past the heatmap range, is handled', async () => {
    const elsewhere = await ask(t, key, clickTest('https://img.example.com/checkout.png'));
    await answer(t, elsewhere.id, heads[10], { taps: [{ x: 0.5, y: 0.5 }] });
    const plain = (await t.inject({ method: 'GET', url: `/v2/questions/${elsewhere.id}/result`, headers: key.auth })).json().result;
    expect(new URL(plain.clicks.heatmapUrl).searchParams.has('aspect')).toBe(false);

    // 4000 × 500 is stored as 2048 × 256 (aspect 8): the heatmap draws at most 4.
    const banner = (await upload(t, key, 'image', 'image/jpeg', await jpeg(4000, 500))).publicUrl;
    const tall = await ask(t, key, clickTest(banner));
    await answer(t, tall.id, heads[11], { taps: [{ x: 0.5, y: 0.5 }] });
    const clamped = (await t.inject({ method: 'GET', url: `/v2/questions/${tall.id}/result`, headers: key.auth })).json().result;
    expect(new URL(clamped.clicks.heatmapUrl).searchParams.get('aspect')).toBe('4');
  });
});

describe('an A/B image question on two uploads', () => {
  it('is asked and shown with both images', async () => {
    const a = (await upload(t, key, 'image', 'image/jpeg', await jpeg(400, 300))).publicUrl;
    const b = (await upload(t, key, 'image', 'image/png', await png(400, 300))).publicUrl;
    const question = await ask(t, key, {
      type: 'ab_image',
      text: 'Which box would you pick up?',
      options: [{ label: 'Green box', imageUrl: a }, { label: 'Blue box', imageUrl: b }],
      n: 10,
    });
    const view = (await t.inject({ method: 'GET', url: `/v1/public/link/${question.linkCode}` })).json();
    expect(view.question.choices.map((c: Json) => c.imageUrl)).toEqual([a, b]);
    const page = await t.inject({ method: 'GET', url: `/a/${question.linkCode}` });
    expect(page.body).toContain(a);
    expect(page.body).toContain(b);
    for (const url of [a, b]) expect((await t.inject({ method: 'GET', url: pathOf(url) })).statusCode).toBe(200);
    const voted = await t.inject({ method: 'POST', url: `/v1/public/link/${question.linkCode}/answers`, payload: { answer: { option: 1 }, nonce: randomUUID() } });
    expect(voted.json().accepted).toBe(true);
  });
});

describe('media of ours must be a finished upload of the right kind', () => {
  it('an unfinished upload, a made-up file and an audio file as an image are refused, and nothing is spent', async () => {
    const unfinished = await ticket(t, key, 'image', 'image/png', 100);
    const audio = (await upload(t, key, 'audio', 'audio/wav', wav(1))).publicUrl;
    const madeUp = unfinished.publicUrl.replace(/upl_[A-Za-z0-9]+/, 'upl_AAAAAAAAAAAAAAAAAAAA');
    const before = (await t.inject({ method: 'GET', url: '/v1/billing/balance', headers: key.auth })).json();
    for (const [imageUrl, says] of [[unfinished.publicUrl, 'names no finished upload'], [madeUp, 'names no finished upload'], [audio, 'names an audio upload']]) {
      const refused = await askRaw(t, key, { draft: clickTest(imageUrl) });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.details.validation[0]).toMatchObject({ field: 'draft.stimulus.imageUrl', code: 'not_allowed' });
      expect(refused.json().error.details.validation[0].message).toContain(says);
    }
    const followUp = await askRaw(t, key, { draft: clickTest(wide), then: [{ type: 'ab_image', text: 'Which box would you pick?', options: [{ label: 'A', imageUrl: wide }, { label: 'B', imageUrl: madeUp }] }] });
    expect(followUp.statusCode, followUp.body).toBe(400);
    expect(followUp.json().error.details.validation[0].field).toBe('then[0].options[1].imageUrl');
    const after = (await t.inject({ method: 'GET', url: '/v1/billing/balance', headers: key.auth })).json();
    expect(after).toEqual(before);
  });

  it("another account's finished upload is refused: its publicUrl shows to anyone, but only its own account puts it in a question", async () => {
    const other = await fundedKey(t, 100_000);
    const before = (await t.inject({ method: 'GET', url: '/v1/billing/balance', headers: other.auth })).json();
    const refused = await askRaw(t, other, { draft: clickTest(wide) });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.details.validation[0]).toMatchObject({ field: 'draft.stimulus.imageUrl', code: 'not_allowed' });
    expect(refused.json().error.details.validation[0].message).toContain("another account's upload");
    expect((await t.inject({ method: 'GET', url: '/v1/billing/balance', headers: other.auth })).json()).toEqual(before);
    // The file itself stays public, and the account's own copy of it is accepted.
    expect((await t.inject({ method: 'GET', url: pathOf(wide) })).statusCode).toBe(200);
    const own = (await upload(t, other, 'image', 'image/png', await png(1200, 600))).publicUrl;
    const asked = await askRaw(t, other, { draft: clickTest(own) });
    expect(asked.statusCode, asked.body).toBe(201);
  });
});
