import net from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { grant, type Json } from '../helpers/questions.ts';
import { jpeg, png, upload } from '../helpers/media.ts';
import { SCOPES } from '../../src/lib/actor.ts';
import type { AskBody } from '../../src/modules/questions/ask.schemas.ts';
import { chromiumMissing, launchBrowser, openPhone, type Phone } from './browser.ts';

/**
 * Uploaded images on the answer page, in Debian's Chromium (issue 13 point 8; docs/uploads.md):
 * the app runs with NODE_ENV=development, whose page CSP allows images from `'self'` and https
 * only (no test-only http://127.0.0.1 source), and PUBLIC_BASE_URL is the address the page is
 * opened at, so the files load exactly as they would for a person: from the page's own origin.
 */
const missing = chromiumMissing();
if (missing) console.warn(`\n*** SKIPPED: ${missing}\n`);

/** A port nobody is listening on just now, so PUBLIC_BASE_URL can name it before the app listens. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(Boolean(missing))('uploaded images on the answer page', () => {
  let t: TestApp;
  let key: TestKey;
  let base: string;
  let browser: Browser;
  const phones: Phone[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ env: { NODE_ENV: 'development', PUBLIC_BASE_URL: base } });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchBrowser();
    key = await t.makeKey();
    await grant(t, key.accountId, 1_000_000);
  });

  afterAll(async () => {
    for (const phone of phones) await phone.context.close();
    await browser?.close();
    await t?.close();
  });

  async function ask(draft: Json): Promise<{ id: string; linkCode: string }> {
    const actor = { accountId: key.accountId, keyId: key.keyId, scopes: SCOPES, dailyCapCredits: null };
    return (await t.container.asks.ask(actor, { draft: { n: 10, ...draft } } as AskBody, randomUUID())).body.question as never;
  }

  async function open(linkCode: string): Promise<Phone> {
    const phone = await openPhone(browser, base);
    phones.push(phone);
    const response = await phone.page.goto(`/a/${linkCode}`);
    expect(response!.status()).toBe(200);
    expect(response!.headers()['content-security-policy']).toContain("img-src 'self' https:;");
    return phone;
  }

  it('a click test shows its uploaded image, and a tap on it is recorded', async () => {
    const { publicUrl } = await upload(t, key, 'image', 'image/png', await png(1200, 600));
    expect(publicUrl.startsWith(`${base}/v1/files/`)).toBe(true);
    const q = await ask({ type: 'click_test', text: 'Where would you tap to pay?', stimulus: { imageUrl: publicUrl }, clickTest: { maxTaps: 1 } });
    const phone = await open(q.linkCode);
    const { page } = phone;
    await page.waitForFunction(() => (document.querySelector('img.tap-img') as HTMLImageElement)?.naturalWidth > 0);
    expect(await page.locator('img.tap-img').evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight, img.currentSrc])).toEqual([1200, 600, publicUrl]);
    const box = (await page.locator('img.tap-img').boundingBox())!;
    await page.touchscreen.tap(box.x + box.width * 0.8, box.y + box.height * 0.3);
    await page.getByText('1 of 1 taps').waitFor();
    await page.getByRole('button', { name: 'Send' }).tap();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    const rows = await t.db.selectFrom('answers').select('answer').where('question_id', '=', q.id).execute();
    expect(rows).toHaveLength(1);
    const [tap] = (rows[0].answer as { taps: Array<{ x: number; y: number }> }).taps;
    expect(tap.x).toBeCloseTo(0.8, 2);
    expect(tap.y).toBeCloseTo(0.3, 2);
    expect(phone.problems).toEqual([]);
    expect(phone.external).toEqual([]);
  });

  it('an A/B image question shows both uploaded images', async () => {
    const a = (await upload(t, key, 'image', 'image/jpeg', await jpeg(400, 300))).publicUrl;
    const b = (await upload(t, key, 'image', 'image/png', await png(400, 300))).publicUrl;
    const q = await ask({ type: 'ab_image', text: 'Which box would you pick up?', options: [{ label: 'Green box', imageUrl: a }, { label: 'Blue box', imageUrl: b }] });
    const phone = await open(q.linkCode);
    await phone.page.waitForFunction(() => {
      const images = [...document.querySelectorAll('img.choice-img')] as HTMLImageElement[];
      return images.length === 2 && images.every((img) => img.naturalWidth > 0);
    });
    expect(await phone.page.locator('img.choice-img').evaluateAll((images: HTMLImageElement[]) => images.map((img) => img.currentSrc))).toEqual([a, b]);
    expect(phone.problems).toEqual([]);
  });
});
