import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testConfig, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { grant, type Json } from '../helpers/questions.ts';
import { createContainer } from '../../src/container.ts';
import { buildApp } from '../../src/app.ts';
import { SCOPES } from '../../src/lib/actor.ts';
import type { AskBody } from '../../src/modules/questions/ask.schemas.ts';
import { chromiumMissing, launchBrowser, openPhone, type Phone, type PhoneOptions } from './browser.ts';
import { FAKE_TURNSTILE, GOOD_TOKEN, startFixtures, type Fixtures } from './fixtures.ts';

/**
 * The answer page (docs/answer-link.md "The page") in Debian's Chromium on a phone-sized touch
 * screen, against the real app listening on 127.0.0.1 with this file's own database. Each type is
 * answered the way a person would (tapping, typing, dragging, the keyboard) and the answer is
 * then read back from the database. Set ANSWER_PAGE_SCREENSHOTS=/some/dir to keep screenshots.
 */
const missing = chromiumMissing();
if (missing) console.warn(`\n*** SKIPPED: ${missing}\n`);

const SITE_KEY = '1x00000000000000000000AA';
const SHOTS = process.env.ANSWER_PAGE_SCREENSHOTS;

describe.skipIf(Boolean(missing))('answer page in a browser', () => {
  let t: TestApp;
  let key: TestKey;
  let base: string;
  let guarded: FastifyInstance;
  let guardedBase: string;
  let browser: Browser;
  let fixtures: Fixtures;
  const phones: Phone[] = [];

  beforeAll(async () => {
    fixtures = await startFixtures();
    t = await createTestApp();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // The same database behind a second app with the human check on (TURNSTILE_* set; its
    // siteverify is the local fixture server).
    const config = testConfig({ ...t.testDatabase.env, TURNSTILE_SECRET: 'test-secret', TURNSTILE_SITE_KEY: SITE_KEY, TURNSTILE_VERIFY_URL: fixtures.url('/siteverify') });
    guarded = await buildApp(createContainer(config, t.database, t.clock), { logger: false });
    guardedBase = await guarded.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
    key = await t.makeKey();
    await grant(t, key.accountId, 1_000_000);
  });

  afterEach(async () => {
    for (const phone of phones.splice(0)) await phone.context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await guarded?.close();
    await t?.close();
    await fixtures?.close();
  });

  const actor = () => ({ accountId: key.accountId, keyId: key.keyId, scopes: SCOPES, dailyCapCredits: null });

  async function ask(draft: Json, extra: Json = {}): Promise<{ id: string; linkCode: string; publicCode: string | null }> {
    const result = await t.container.asks.ask(actor(), { draft: { n: 10, ...draft }, ...extra } as AskBody, randomUUID());
    return result.body.question as never;
  }

  async function open(linkCode: string, options: PhoneOptions & { on?: string } = {}) {
    const phone = await openPhone(browser, options.on ?? base, options);
    phones.push(phone);
    const response = await phone.page.goto(`/a/${linkCode}`);
    return { ...phone, response: response! };
  }

  const answersOf = (questionId: string) => t.db.selectFrom('answers').selectAll().where('question_id', '=', questionId).orderBy('seq').execute();

  /** Send, wait for the thank-you, and return the one answer stored. */
  async function sendAndRead(page: Page, questionId: string) {
    await page.getByRole('button', { name: 'Send' }).tap();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor().catch(async (error) => {
      // Say what the page shows instead (an error message, a state) rather than only "timeout".
      throw new Error(`${error.message}\npage shows: ${(await page.locator('main').innerText()).slice(0, 500)}`);
    });
    const rows = await answersOf(questionId);
    expect(rows).toHaveLength(1);
    return rows[0];
  }

  /** No console errors (CSP violations are reported there), no request off this machine. */
  function expectClean(phone: Phone, allowed: RegExp | null = null) {
    expect(phone.problems.filter((p) => !allowed || !allowed.test(p))).toEqual([]);
    expect(phone.external).toEqual([]);
  }

  /** Every control has an accessible name (the accessibility tree as Chromium computes it). */
  async function expectNamedControls(page: Page) {
    const controls = await page.locator('input, textarea, button, select, a[href], [role="application"]').all();
    expect(controls.length).toBeGreaterThan(0);
    for (const control of controls) {
      if (!(await control.isVisible())) continue;
      const snapshot = (await control.ariaSnapshot()).split('\n')[0];
      expect(snapshot, await control.evaluate((el) => el.outerHTML.slice(0, 200))).toMatch(/^- [\w-]+ "[^"]+"/);
    }
    for (const img of await page.locator('img').all()) expect(await img.getAttribute('alt')).toBeTruthy();
  }

  /** Readable at 360 px: nothing wider than the screen (no sideways scrolling). */
  async function expectFitsNarrowPhone(page: Page) {
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.setViewportSize({ width: 390, height: 844 });
  }

  async function shot(page: Page, name: string) {
    if (!SHOTS) return;
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  }

  const tapLabel = (page: Page, name: string) => page.getByRole('radio', { name, exact: true }).tap();

  describe('each type, answered as a person would', () => {
    it('single choice: tap, optional reason, send; the visit is measured and counted once', async () => {
      const q = await ask({ type: 'single_choice', text: 'Which name would you pick for a savings app?', context: 'Pick the one you would trust.', options: [{ label: 'Penny' }, { label: 'Pocket' }], reason: 'optional', publicResults: true });
      const phone = await open(q.linkCode);
      const { page, response } = phone;

      expect(response.status()).toBe(200);
      const headers = response.headers();
      expect(headers['content-type']).toMatch(/^text\/html/);
      expect(headers['cache-control']).toBe('no-store');
      expect(headers['x-robots-tag']).toBe('noindex');
      expect(headers['referrer-policy']).toBe('no-referrer');
      expect(headers['content-security-policy']).toContain("script-src 'self';");
      expect(headers['content-security-policy']).not.toContain('challenges.cloudflare.com');
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      expect(await page.locator('script[src*="challenges.cloudflare.com"]').count()).toBe(0);

      await page.getByRole('heading', { name: 'Which name would you pick for a savings app?' }).waitFor();
      await expectNamedControls(page);
      await shot(page, 'single-choice');
      await tapLabel(page, 'Pocket');
      await page.getByLabel('Why? (optional)').fill('Sounds like something I carry');
      await page.waitForTimeout(250);
      const row = await sendAndRead(page, q.id);
      await shot(page, 'thank-you');

      expect(row.answer).toEqual({ option: 1, reason: 'Sounds like something I carry' });
      expect(row.option_label).toBe('Pocket');
      expect(row.reason).toBe('Sounds like something I carry');
      expect(row.source).toBe('link');
      expect(row.locale).toBe('en-GB');
      expect(row.interrupted).toBe(false);
      expect(row.dwell_ms).toBeGreaterThanOrEqual(250);
      expect(row.nonce).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

      // One page load: started once, with the nonce as Idempotency-Key, and no human check token.
      const started = phone.posts.filter((r) => r.url.endsWith('/started'));
      expect(started).toHaveLength(1);
      expect(started[0].headers['idempotency-key']).toBe(row.nonce);
      expect(started[0].body).toEqual({ nonce: row.nonce });
      const posted = phone.posts.find((r) => r.url.endsWith('/answers'))!;
      expect(posted.body).not.toHaveProperty('humanCheckToken');
      const starts = await t.db.selectFrom('link_starts').selectAll().where('question_id', '=', q.id).execute();
      expect(starts.map((s) => s.nonce)).toEqual([row.nonce]);

      // showResult: the thank-you links the public result.
      const link = page.getByRole('link', { name: 'See the results' });
      expect(await link.getAttribute('href')).toBe(`/r/${q.publicCode}`);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Thank you');
      expectClean(phone);
    });

    it('single choice with the keyboard only: Tab, arrows, Space, Enter', async () => {
      const q = await ask({ type: 'single_choice', text: 'Which colour for the button?', options: [{ label: 'Green' }, { label: 'Orange' }, { label: 'Blue' }] });
      const phone = await open(q.linkCode);
      const { page } = phone;
      await page.getByRole('heading', { name: 'Which colour for the button?' }).waitFor();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('0');
      // The focused card shows a visible focus ring.
      const ring = await page.evaluate(() => getComputedStyle(document.activeElement!.nextElementSibling!).outlineStyle);
      expect(ring).toBe('solid');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Space');
      await shot(page, 'keyboard-focus');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Send');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Thank you' }).waitFor();
      const [row] = await answersOf(q.id);
      expect(row.answer).toEqual({ option: 2 });
      expectClean(phone);
    });

    it('single choice: "Neither" is the index after the choices', async () => {
      const q = await ask({ type: 'single_choice', text: 'Which logo looks more modern?', options: [{ label: 'Round' }, { label: 'Square' }], neither: true });
      const phone = await open(q.linkCode);
      await tapLabel(phone.page, 'Neither');
      const row = await sendAndRead(phone.page, q.id);
      expect(row.answer).toEqual({ option: 2 });
      expect(row.option_label).toBe('Neither');
      expectClean(phone);
    });

    it('multiple choice: ticks, "Neither" excludes the others, and leaving the page marks it interrupted', async () => {
      const q = await ask({ type: 'multi_choice', text: 'Which of these would you use?', options: [{ label: 'Budgets' }, { label: 'Goals' }, { label: 'Round-ups' }], neither: true });
      const phone = await open(q.linkCode);
      const { page } = phone;
      const box = (name: string) => page.getByRole('checkbox', { name, exact: true });
      await box('Budgets').tap();
      await box('Round-ups').tap();
      await box('Neither').tap();
      expect([await box('Budgets').isChecked(), await box('Round-ups').isChecked(), await box('Neither').isChecked()]).toEqual([false, false, true]);
      await box('Budgets').tap();
      await box('Round-ups').tap();
      expect(await box('Neither').isChecked()).toBe(false);
      await shot(page, 'multi-choice');
      // The phone went to another app and came back before sending.
      await page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
        Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      const row = await sendAndRead(page, q.id);
      expect(row.answer).toEqual({ options: [0, 2] });
      expect(row.interrupted).toBe(true);
      expectClean(phone);
    });

    it('A/B images: two images with labels and alt text; tap one', async () => {
      const q = await ask({ type: 'ab_image', text: 'Which banner makes you want to click?', options: [{ label: 'Red banner', imageUrl: fixtures.url('/a.svg') }, { label: 'Blue banner', imageUrl: fixtures.url('/b.svg') }] });
      const phone = await open(q.linkCode);
      const { page } = phone;
      const images = page.locator('img.choice-img');
      expect(await images.count()).toBe(2);
      await page.waitForFunction(() => [...document.querySelectorAll('img.choice-img')].every((img) => (img as HTMLImageElement).naturalWidth > 0));
      expect(await images.evaluateAll((els) => els.map((e) => e.getAttribute('alt')))).toEqual(['Red banner', 'Blue banner']);
      // Side by side on a phone: same row.
      const [a, b] = [await images.nth(0).boundingBox(), await images.nth(1).boundingBox()];
      expect(Math.abs(a!.y - b!.y)).toBeLessThan(2);
      expect(b!.x).toBeGreaterThan(a!.x + a!.width);
      await expectNamedControls(page);
      await expectFitsNarrowPhone(page);
      await shot(page, 'ab-image');
      await page.getByRole('radio', { name: 'Blue banner' }).tap();
      expect(await page.getByRole('radio', { name: 'Blue banner' }).isChecked()).toBe(true);
      const row = await sendAndRead(page, q.id);
      expect(row.answer).toEqual({ option: 1 });
      expectClean(phone);
    });

    it('pairwise: the page shows a random pair and sends it with the one picked', async () => {
      const labels = ['Mango', 'Lime', 'Cherry', 'Plum'];
      const q = await ask({ type: 'pairwise', text: 'Which flavour would you rather have?', options: labels.map((label) => ({ label })) });
      const phone = await open(q.linkCode, { colorScheme: 'dark' });
      const { page } = phone;
      const shown = await page.locator('.choice-label').allTextContents();
      expect(shown).toHaveLength(2);
      expect(new Set(shown).size).toBe(2);
      shown.forEach((label) => expect(labels).toContain(label));
      await tapLabel(page, shown[1]);
      await shot(page, 'pairwise-dark');
      const row = await sendAndRead(page, q.id);
      expect(row.answer).toEqual({ pair: shown.map((l) => labels.indexOf(l)), option: labels.indexOf(shown[1]) });
      expect(row.option_label).toBe(shown[1]);
      expectClean(phone);
    });

    it('ranking with the move buttons (keyboard), the new place announced', async () => {
      const q = await ask({ type: 'ranking', text: 'Rank these features, most useful first.', options: ['Alerts', 'Budgets', 'Charts', 'Dark mode'].map((label) => ({ label })), reason: 'optional' });
      const phone = await open(q.linkCode);
      const { page } = phone;
      await page.getByText('Drag or use the arrow buttons to order').waitFor();
      const up = page.getByRole('button', { name: 'Move Dark mode up' });
      await up.focus();
      for (let i = 0; i < 3; i++) await page.keyboard.press('Enter');
      // Focus stays on the button that moved with its item.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move Dark mode up');
      await page.getByRole('button', { name: 'Move Alerts down' }).focus();
      await page.keyboard.press('Space');
      await page.waitForFunction(() => document.getElementById('announcer')?.textContent === 'Alerts: now 3 of 4.');
      expect(await page.locator('.rank-label').allTextContents()).toEqual(['Dark mode', 'Budgets', 'Alerts', 'Charts']);
      await expectNamedControls(page);
      await expectFitsNarrowPhone(page);
      await shot(page, 'ranking');
      const row = await sendAndRead(page, q.id);
      expect(row.answer).toEqual({ order: [3, 1, 0, 2] });
      expect(row.option_label).toBe('Dark mode');
      expectClean(phone);
    });

    it('ranking by dragging a handle with a finger', async () => {
      const q = await ask({ type: 'ranking', text: 'Rank these names.', options: ['Alpha', 'Bravo', 'Charlie', 'Delta'].map((label) => ({ label })) });
      const phone = await open(q.linkCode);
      const { page } = phone;
      const handle = page.locator('.rank-item', { hasText: 'Charlie' }).locator('.rank-handle');
      const from = (await handle.boundingBox())!;
      const top = (await page.locator('.rank-item').first().boundingBox())!;
      const x = from.x + from.width / 2;
      const y0 = from.y + from.height / 2;
      const y1 = top.y + 6;
      // Real touch input (touchstart/move/end through the browser, so pointer events of type touch).
      const cdp = await phone.context.newCDPSession(page);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y: y0 }] });
      for (let i = 1; i <= 12; i++) {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y0 + ((y1 - y0) * i) / 12 }] });
        await page.waitForTimeout(16);
      }
      // The finger rests before lifting, as a person's does: lifting at full speed is a fling,
      // and Chrome swallows the next tap to stop it.
      await page.waitForTimeout(150);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y1 }] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      expect(await page.locator('.rank-label').allTextContents()).toEqual(['Charlie', 'Alpha', 'Bravo', 'Delta']);
      const row = await sendAndRead(page, q.id);
      expect(row.answer).toEqual({ order: [2, 0, 1, 3] });
      expectClean(phone);
    });

    it('1–5 scale: tap a number', async () => {
      const q = await ask({ type: 'scale_1_5', text: 'How easy was it to sign up?' });
      const phone = await open(q.linkCode);
      await phone.page.getByText('1 is the lowest, 5 the highest.').waitFor();
      await expectNamedControls(phone.page);
      await expectFitsNarrowPhone(phone.page);
      await shot(phone.page, 'scale');
      await tapLabel(phone.page, '4');
      const row = await sendAndRead(phone.page, q.id);
      expect(row.answer).toEqual({ option: 3 });
      expect(row.option_label).toBe('4');
      expectClean(phone);
    });

    it('yes / mostly / no (and no motion when the phone asks for less)', async () => {
      const q = await ask({ type: 'yes_mostly_no', text: 'Is the price clear?' });
      const phone = await open(q.linkCode, { reducedMotion: 'reduce' });
      expect(await phone.page.locator('.choice-box').first().evaluate((el) => getComputedStyle(el).transitionDuration)).toBe('0s');
      expect(await phone.page.getByRole('radio').evaluateAll((els) => els.map((e) => e.closest('label')!.textContent))).toEqual(['Yes', 'Mostly', 'No']);
      await tapLabel(phone.page, 'Mostly');
      const row = await sendAndRead(phone.page, q.id);
      expect(row.answer).toEqual({ option: 1 });
      expect(row.option_label).toBe('mostly');
      expectClean(phone);
    });

    it('free text: type, see what is left, send', async () => {
      const q = await ask({ type: 'free_text', text: 'What would make you switch banks?' });
      const phone = await open(q.linkCode);
      const { page } = phone;
      const box = page.getByRole('textbox', { name: 'Your answer' });
      expect(await box.getAttribute('maxlength')).toBe('2000');
      await box.tap();
      await page.keyboard.type('Lower fees and a better app.');
      await page.getByText('1972 characters left').waitFor();
      await expectNamedControls(page);
      await shot(page, 'free-text');
      const row = await sendAndRead(page, q.id);
      expect(row.answer).toEqual({ text: 'Lower fees and a better app.' });
      expect(row.text).toBe('Lower fees and a better app.');
      expectClean(phone);
    });

    it('click test: tap two points, a third is refused, undo, tap again', async () => {
      const q = await ask({ type: 'click_test', text: 'Where would you tap to buy?', stimulus: { imageUrl: fixtures.url('/grid.svg') }, clickTest: { maxTaps: 2 } });
      const phone = await open(q.linkCode);
      const { page } = phone;
      await page.getByText('0 of 2 taps').waitFor();
      await page.waitForFunction(() => (document.querySelector('img.tap-img') as HTMLImageElement)?.naturalWidth > 0);
      const img = (await page.locator('img.tap-img').boundingBox())!;
      const at = (fx: number, fy: number) => page.touchscreen.tap(img.x + img.width * fx, img.y + img.height * fy);
      await at(0.25, 0.25);
      await at(0.5, 0.5);
      await page.getByText('2 of 2 taps').waitFor();
      await at(0.9, 0.9);
      expect(await page.locator('.tap-mark').count()).toBe(2);
      await page.waitForFunction(() => document.getElementById('announcer')?.textContent?.startsWith('No taps left'));
      await shot(page, 'click-test');
      await page.getByRole('button', { name: 'Undo last tap' }).tap();
      await page.getByText('1 of 2 taps').waitFor();
      await at(0.75, 0.6);
      await expectNamedControls(page);
      const row = await sendAndRead(page, q.id);
      const taps = (row.answer as { taps: Array<{ x: number; y: number }> }).taps;
      expect(taps).toHaveLength(2);
      expect(taps[0].x).toBeCloseTo(0.25, 2);
      expect(taps[0].y).toBeCloseTo(0.25, 2);
      expect(taps[1].x).toBeCloseTo(0.75, 2);
      expect(taps[1].y).toBeCloseTo(0.6, 2);
      expectClean(phone);
    });

    it('click test with the keyboard: arrows move the marker, Enter taps', async () => {
      const q = await ask({ type: 'click_test', text: 'Where is the logo?', stimulus: { imageUrl: fixtures.url('/grid.svg') }, clickTest: { maxTaps: 1 } });
      const phone = await open(q.linkCode);
      const { page } = phone;
      await page.getByText('0 of 1 taps').waitFor();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Tap the image');
      await page.keyboard.press('Shift+ArrowRight');
      await page.keyboard.press('Shift+ArrowRight');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Enter');
      await page.getByText('1 of 1 taps').waitFor();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Send');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Thank you' }).waitFor();
      const [row] = await answersOf(q.id);
      expect(row.answer).toEqual({ taps: [{ x: 0.7, y: 0.48 }] });
      expectClean(phone);
    });

    it('reaction: the stimulus shows for exposureMs, then the choices; required reason blocks sending until written', async () => {
      const q = await ask({ type: 'reaction', text: 'What is your first impression of this logo?', options: [{ label: 'Trustworthy' }, { label: 'Playful' }, { label: 'Cheap' }], stimulus: { imageUrl: fixtures.url('/stimulus.svg'), exposureMs: 2000 }, reason: 'required' });
      const phone = await open(q.linkCode);
      const { page } = phone;
      await page.getByText('You will see something for 2 seconds. Then choose.').waitFor();
      expect(await page.getByRole('radio').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Send' }).isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Show it' }).tap();
      const shownAt = Date.now();
      await page.locator('img.stimulus-img').waitFor({ state: 'visible' });
      await shot(page, 'reaction-stimulus');
      await page.getByRole('radio', { name: 'Playful' }).waitFor({ state: 'visible' });
      expect(Date.now() - shownAt).toBeGreaterThanOrEqual(1900);
      expect(await page.locator('img.stimulus-img').count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Now choose.');

      await tapLabel(page, 'Playful');
      await page.getByRole('button', { name: 'Send' }).tap();
      await page.getByText('Please say why before sending.').waitFor();
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
      expect(await page.getByLabel('Why?', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      await shot(page, 'reason-required');
      expect(await answersOf(q.id)).toHaveLength(0);

      await page.getByLabel('Why?', { exact: true }).fill('The colours are fun');
      const row = await sendAndRead(page, q.id);
      expect(row.answer).toEqual({ option: 1, reason: 'The colours are fun' });
      expectClean(phone);
    });
  });

  describe('states', () => {
    it('scheduled: "opens at" in local time; "Check again" shows the question once it is live', async () => {
      const opensAt = new Date(t.clock.now().getTime() + 3600_000);
      const q = await ask({ type: 'yes_mostly_no', text: 'Would you come to the launch?', scheduledFor: opensAt.toISOString() });
      const phone = await open(q.linkCode, { timezoneId: 'Asia/Kolkata' });
      const { page } = phone;
      await page.getByRole('heading', { name: 'This question is not open yet' }).waitFor();
      const time = page.locator('time');
      expect(await time.getAttribute('datetime')).toBe(opensAt.toISOString());
      // 01:00 UTC is 06:30 in India: the phone's time zone, not the server's.
      expect((await time.textContent())!.replace(/\s+/g, ' ')).toMatch(/^Opens at .*6:30/);
      await shot(page, 'scheduled');

      t.clock.advance(3600_000);
      expect(await t.container.lifecycle.goLive(q.id)).toBe(true);
      await page.getByRole('button', { name: 'Check again' }).tap();
      await page.getByRole('heading', { name: 'Would you come to the launch?' }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Would you come to the launch?');
      await tapLabel(page, 'Yes');
      const row = await sendAndRead(page, q.id);
      expect(row.answer).toEqual({ option: 0 });
      expectClean(phone);
    });

    it('closed, full and paused say so', async () => {
      const closed = await ask({ type: 'yes_mostly_no', text: 'Closed question?' });
      await t.container.lifecycle.cancel(actor(), closed.id);
      const full = await ask({ type: 'yes_mostly_no', text: 'Full question?', n: 10 });
      for (let i = 0; i < 10; i++) await t.container.answers.record(full.id, { headId: null, source: 'link', tier: 1 }, { option: 0 });
      const parent = await ask({ type: 'yes_mostly_no', text: 'First question?' }, { then: [{ type: 'free_text', text: 'Why did you answer that way?' }] });
      const child = await t.db.selectFrom('questions').select('link_code').where('parent_id', '=', parent.id).executeTakeFirstOrThrow();

      for (const [code, heading, name] of [
        [closed.linkCode, 'This question is closed', 'closed'],
        [full.linkCode, 'This question has all its answers', 'full'],
        [child.link_code, 'This question is not open yet', 'paused'],
      ] as const) {
        const phone = await open(code);
        await phone.page.getByRole('heading', { name: heading }).waitFor();
        expect(await phone.page.locator('form').count()).toBe(0);
        await shot(phone.page, `state-${name}`);
        expectClean(phone);
      }
    });

    it('an answer that comes back accepted: false shows the state', async () => {
      const q = await ask({ type: 'single_choice', text: 'Cancelled while answering?', options: [{ label: 'One' }, { label: 'Two' }] });
      const phone = await open(q.linkCode);
      await tapLabel(phone.page, 'Two');
      await t.container.lifecycle.cancel(actor(), q.id);
      await phone.page.getByRole('button', { name: 'Send' }).tap();
      await phone.page.getByRole('heading', { name: 'This question is closed' }).waitFor();
      expect(await answersOf(q.id)).toHaveLength(0);
      expectClean(phone);
    });

    it('an unknown link is a friendly 404 page in the browser language', async () => {
      const phone = await open('NoSuchCode123', { locale: 'de-DE' });
      expect(phone.response.status()).toBe(404);
      expect(phone.response.headers()['cache-control']).toBe('no-store');
      await phone.page.getByRole('heading', { name: 'Dieser Link führt zu keiner Frage' }).waitFor();
      expect(await phone.page.locator('html').getAttribute('lang')).toBe('de');
      await shot(phone.page, 'not-found');
      expectClean(phone, /status of 404/);
    });
  });

  describe('languages, errors and the human check', () => {
    it("the page speaks the question's language", async () => {
      const en = await ask({ type: 'single_choice', text: 'Which one?', options: [{ label: 'A' }, { label: 'B' }], neither: true, reason: 'optional' });
      const es = await ask({ type: 'single_choice', text: '¿Cuál prefieres?', options: [{ label: 'A' }, { label: 'B' }], neither: true, reason: 'optional', language: 'es' });
      const hi = await ask({ type: 'yes_mostly_no', text: 'क्या कीमत साफ़ है?', language: 'hi' });

      const first = await open(en.linkCode);
      await first.page.getByRole('button', { name: 'Send' }).waitFor();

      const second = await open(es.linkCode);
      const { page } = second;
      expect(await page.locator('html').getAttribute('lang')).toBe('es');
      await page.getByRole('button', { name: 'Enviar' }).waitFor();
      await page.getByRole('radio', { name: 'Ninguna' }).waitFor();
      await page.getByLabel('¿Por qué? (opcional)').waitFor();
      await page.getByRole('button', { name: 'Enviar' }).tap();
      await page.getByText('Primero elige una respuesta.').waitFor();
      await shot(page, 'spanish');
      await tapLabel(page, 'B');
      await page.getByRole('button', { name: 'Enviar' }).tap();
      await page.getByRole('heading', { name: 'Gracias' }).waitFor();
      expect((await answersOf(es.id))[0].answer).toEqual({ option: 1 });

      const third = await open(hi.linkCode);
      expect(await third.page.locator('html').getAttribute('lang')).toBe('hi');
      expect(await third.page.getByRole('radio').evaluateAll((els) => els.map((e) => e.closest('label')!.textContent))).toEqual(['हाँ', 'ज़्यादातर', 'नहीं']);
      await third.page.getByRole('button', { name: 'भेजें' }).waitFor();
      await shot(third.page, 'hindi');
      for (const phone of [first, second, third]) expectClean(phone);
    });

    it('network failure, 429 and 400 are shown politely; a retry sends once', async () => {
      const q = await ask({ type: 'single_choice', text: 'Retry me?', options: [{ label: 'One' }, { label: 'Two' }] });
      const phone = await open(q.linkCode);
      const { page } = phone;
      await tapLabel(page, 'One');

      await page.route('**/answers', (route) => route.abort('internetdisconnected'));
      await page.getByRole('button', { name: 'Send' }).tap();
      await page.getByText('Could not send: check your connection and try again.').waitFor();
      await shot(page, 'error-network');
      await page.unrouteAll();

      await page.route('**/answers', (route) => route.fulfill({ status: 429, headers: { 'retry-after': '7' }, contentType: 'application/json', body: JSON.stringify({ error: { code: 'rate_limited', message: 'Too many requests.' } }) }));
      await page.getByRole('button', { name: 'Try again' }).tap();
      await page.getByText('Please wait 7 seconds and try again.').waitFor();
      await page.unrouteAll();

      await page.route('**/answers', (route) => route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: { code: 'validation_failed', message: 'no' } }) }));
      await page.getByRole('button', { name: 'Try again' }).tap();
      await page.getByText('This answer could not be accepted. Please check it and try again.').waitFor();
      expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
      await page.unrouteAll();

      const row = await sendAndRead(page, q.id);
      expect(row.answer).toEqual({ option: 0 });
      expectClean(phone, /Failed to load resource|net::ERR_/);
    });

    it('with a Turnstile site key the widget is rendered and its token checked by the server', async () => {
      const q = await ask({ type: 'single_choice', text: 'Human?', options: [{ label: 'Yes' }, { label: 'Also yes' }] });
      const turnstile = (url: string) => (url.startsWith('https://challenges.cloudflare.com/turnstile/v0/api.js') ? { body: FAKE_TURNSTILE, contentType: 'text/javascript' } : null);
      const phone = await open(q.linkCode, { on: guardedBase, turnstile });
      const { page, response } = phone;
      const csp = response.headers()['content-security-policy'];
      expect(csp).toContain("script-src 'self' https://challenges.cloudflare.com;");
      expect(csp).toContain('frame-src https://challenges.cloudflare.com;');
      await page.getByText('Human check (test stand-in)').waitFor();
      expect(await page.evaluate(() => (window as never as { __turnstileOptions: { sitekey: string } }).__turnstileOptions.sitekey)).toBe(SITE_KEY);
      await tapLabel(page, 'Also yes');
      const row = await sendAndRead(page, q.id);
      expect(phone.posts.find((p) => p.url.endsWith('/answers'))!.body.humanCheckToken).toBe(GOOD_TOKEN);
      expect(fixtures.verifications.at(-1)).toMatchObject({ secret: 'test-secret', response: GOOD_TOKEN });
      expect(row.answer).toEqual({ option: 1 });
      expectClean(phone);
    });
  });

  describe('messages that follow what the person does (issue 8, point 24)', () => {
    it('"Choose an answer first" goes as soon as an answer is picked; "say why" as soon as something is written', async () => {
      const q = await ask({ type: 'single_choice', text: 'Pick before sending?', options: [{ label: 'One' }, { label: 'Two' }], reason: 'required' });
      const phone = await open(q.linkCode);
      const { page } = phone;
      const alert = page.getByRole('alert');
      await page.getByRole('button', { name: 'Send' }).tap();
      await page.getByText('Choose an answer first.').waitFor();
      await tapLabel(page, 'Two');
      await alert.waitFor({ state: 'hidden' });
      expect(await page.getByText('Choose an answer first.').isVisible()).toBe(false);

      await page.getByRole('button', { name: 'Send' }).tap();
      await page.getByText('Please say why before sending.').waitFor();
      await page.getByLabel('Why?', { exact: true }).pressSequentially('Shorter');
      await alert.waitFor({ state: 'hidden' });
      const row = await sendAndRead(page, q.id);
      expect(row.answer).toEqual({ option: 1, reason: 'Shorter' });
      expectClean(phone);
    });

    it('the same for multiple choice, free text and a click test tapped with the keyboard', async () => {
      const multi = await ask({ type: 'multi_choice', text: 'Tick first?', options: [{ label: 'A' }, { label: 'B' }] });
      const text = await ask({ type: 'free_text', text: 'Write first?' });
      const click = await ask({ type: 'click_test', text: 'Tap first?', stimulus: { imageUrl: fixtures.url('/grid.svg') }, clickTest: { maxTaps: 1 } });

      const first = await open(multi.linkCode);
      await first.page.getByRole('button', { name: 'Send' }).tap();
      await first.page.getByText('Choose an answer first.').waitFor();
      await first.page.getByRole('checkbox', { name: 'B', exact: true }).tap();
      await first.page.getByRole('alert').waitFor({ state: 'hidden' });

      const second = await open(text.linkCode);
      await second.page.getByRole('button', { name: 'Send' }).tap();
      await second.page.getByText('Write your answer first.').waitFor();
      // Only characters no one can see (zero-width space, bidi override) are nothing written either.
      await second.page.getByRole('textbox', { name: 'Your answer' }).fill('\u200B\u202E\u200B');
      const sends: string[] = [];
      second.page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().endsWith('/answers')) sends.push(request.url());
      });
      await second.page.getByRole('button', { name: 'Send' }).tap();
      await second.page.getByText('Write your answer first.').waitFor();
      await second.page.waitForTimeout(300);
      expect(sends).toEqual([]);
      expect(await answersOf(text.id)).toHaveLength(0);
      await second.page.getByRole('textbox', { name: 'Your answer' }).fill('');
      await second.page.getByRole('textbox', { name: 'Your answer' }).pressSequentially('Hi');
      await second.page.getByRole('alert').waitFor({ state: 'hidden' });

      const third = await open(click.linkCode);
      await third.page.waitForFunction(() => (document.querySelector('img.tap-img') as HTMLImageElement)?.naturalWidth > 0);
      await third.page.getByRole('button', { name: 'Send' }).tap();
      await third.page.getByText('Tap the image first.').waitFor();
      await third.page.getByRole('application', { name: 'Tap the image' }).focus();
      await third.page.keyboard.press('Enter');
      await third.page.getByRole('alert').waitFor({ state: 'hidden' });
      const row = await sendAndRead(third.page, click.id);
      expect(row.answer).toEqual({ taps: [{ x: 0.5, y: 0.5 }] });
      for (const phone of [first, second, third]) expectClean(phone);
    });

    it('the ranking hint is punctuated', async () => {
      const q = await ask({ type: 'ranking', text: 'Order these?', options: ['X', 'Y', 'Z'].map((label) => ({ label })) });
      const phone = await open(q.linkCode);
      const hint = phone.page.locator('.ranking .hint');
      await hint.waitFor();
      expect((await hint.innerText()).split('\n').map((line) => line.trim())).toEqual(['Drag or use the arrow buttons to order.', 'Most preferred at the top.']);
      expectClean(phone);
    });

    it('a click test whose image does not load says so and cannot be sent, in the question\'s language', async () => {
      for (const [language, says, send] of [
        ['en', 'The image for this question did not load', 'Send'],
        ['es', 'La imagen de esta pregunta no se cargó', 'Enviar'],
      ] as const) {
        const q = await ask({ type: 'click_test', text: `Broken image (${language})?`, stimulus: { imageUrl: fixtures.url('/missing.svg') }, clickTest: { maxTaps: 1 }, language });
        const phone = await open(q.linkCode);
        const { page } = phone;
        const alert = page.getByRole('alert').filter({ hasText: says });
        await alert.waitFor();
        await shot(page, `click-test-broken-image-${language}`);
        // Nothing to tap and no Send button; Enter on the page sends nothing either.
        expect(await page.getByRole('application').isVisible()).toBe(false);
        expect(await page.getByRole('button', { name: send }).isVisible()).toBe(false);
        await page.keyboard.press('Enter');
        await page.waitForTimeout(300);
        expect(phone.posts.filter((p) => p.url.endsWith('/answers'))).toEqual([]);
        expect(await answersOf(q.id)).toHaveLength(0);
        await expectNamedControls(page);
        // The browser reports the failed image load (a 404) and nothing else.
        expectClean(phone, /status of 404/);
      }

      // "Try again" loads the image anew; once it shows, the question can be answered.
      const q = await ask({ type: 'click_test', text: 'Image back?', stimulus: { imageUrl: fixtures.url('/flaky.svg') }, clickTest: { maxTaps: 1 } });
      const phone = await open(q.linkCode);
      const { page } = phone;
      await page.getByRole('alert').filter({ hasText: 'did not load' }).waitFor();
      const grid = await (await fetch(fixtures.url('/grid.svg'))).text();
      await page.route('**/flaky.svg', (route) => route.fulfill({ status: 200, contentType: 'image/svg+xml', body: grid }));
      await page.getByRole('button', { name: 'Try again' }).tap();
      await page.getByRole('application', { name: 'Tap the image' }).waitFor();
      expect(await page.getByRole('alert').isVisible()).toBe(false);
      const img = (await page.locator('img.tap-img').boundingBox())!;
      await page.touchscreen.tap(img.x + img.width / 2, img.y + img.height / 2);
      const row = await sendAndRead(page, q.id);
      expect((row.answer as { taps: unknown[] }).taps).toHaveLength(1);
      expectClean(phone, /status of 404/);
    });
  });

  describe('assets', () => {
    it('are served with their content type, a year of cache under the versioned path, and an ETag', async () => {
      const html = await (await fetch(`${base}/a/NoSuchCode123`)).text();
      const css = html.match(/href="(\/a\/assets\/[0-9a-f]{12}\/answer\.css)"/)![1];
      const response = await fetch(`${base}${css}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/css; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const etag = response.headers.get('etag')!;
      expect((await fetch(`${base}${css}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
      const js = await fetch(`${base}${css.replace('answer.css', 'answer.js')}`);
      expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      const stale = await fetch(`${base}/a/assets/000000000000/answer.js`);
      expect(stale.headers.get('cache-control')).toBe('no-cache');
      expect((await fetch(`${base}/a/assets/000000000000/nope.js`)).status).toBe(404);
      expect((await fetch(`${base}/a/assets/000000000000/..%2Fhtml.ts`)).status).toBe(404);
    });
  });
});
