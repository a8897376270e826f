import { describe, expect, it } from 'vitest';
import type { Json } from '../helpers/questions.ts';
import { browserPagesSuite, expectNoSidewaysScroll, shot } from '../helpers/results-pages.ts';
import { chromiumMissing, type Phone } from './browser.ts';

/**
 * The public results page for people, `/r/{code}` (docs/sharing.md), in Debian's Chromium on a
 * narrow phone: reached from the answer page's thank-you link, readable at 360 px, no script and
 * nothing loaded from elsewhere. ANSWER_PAGE_SCREENSHOTS=/some/dir keeps screenshots.
 */
const missing = chromiumMissing();
if (missing) console.warn(`\n*** SKIPPED: ${missing}\n`);

describe.skipIf(Boolean(missing))('public results page in a browser', () => {
  const pages = browserPagesSuite({ fixtures: true });
  const { answerAll, narrowPhone } = pages;
  /** Every question here has a public results page. */
  const ask = (draft: Json) => pages.ask({ publicResults: true, ...draft });

  function expectClean(phone: Phone) {
    expect(phone.problems).toEqual([]);
    expect(phone.external).toEqual([]);
  }

  it('answer on the answer page, follow "See the results", and find the answer in its bar', async () => {
    const q = await ask({
      type: 'single_choice',
      text: 'Which name would you pick for a savings app?',
      context: 'Pick the one you would trust.',
      options: [{ label: 'Penny' }, { label: 'Pocket' }],
      neither: true,
    });
    // Two panel answers first, so the bar shows the person's answer added to others.
    await answerAll(q.id, pages.heads.slice(0, 2), (i) => ({ option: i }));

    const phone = await narrowPhone();
    const { page } = phone;
    await page.goto(`/a/${q.linkCode}`);
    await page.getByRole('heading', { name: 'Which name would you pick for a savings app?' }).waitFor();
    await page.getByRole('radio', { name: 'Pocket', exact: true }).tap();
    await page.getByRole('button', { name: 'Send' }).tap();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    const link = page.getByRole('link', { name: 'See the results' });
    expect(await link.getAttribute('href')).toBe(`/r/${q.publicCode}`);

    const [response] = await Promise.all([page.waitForNavigation(), link.tap()]);
    expect(response!.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe(`/r/${q.publicCode}`);
    expect(response!.headers()['content-security-policy']).toContain("script-src 'none'");

    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Which name would you pick for a savings app?');
    await expect(page.getByText('Pick the one you would trust.').isVisible()).resolves.toBe(true);
    await expect(page.getByText('3 of 10 answers received').isVisible()).resolves.toBe(true);
    await expect(page.getByRole('heading', { level: 2, name: 'How people answered' }).isVisible()).resolves.toBe(true);

    // The chosen option's bar, as text and as drawn: Pocket got the panel's one and this answer.
    const pocket = page.getByRole('listitem').filter({ hasText: 'Pocket:' });
    expect((await pocket.innerText()).replace(/\s+/g, ' ').trim()).toBe('Pocket: 67% (2 answers)');
    const penny = page.getByRole('listitem').filter({ hasText: 'Penny:' });
    expect((await penny.innerText()).replace(/\s+/g, ' ').trim()).toBe('Penny: 33% (1 answer)');
    const neither = page.getByRole('listitem').filter({ hasText: 'Neither:' });
    expect((await neither.innerText()).replace(/\s+/g, ' ').trim()).toBe('Neither: 0% (0 answers)');
    const drawn = await pocket.locator('svg.bar').evaluate((svg) => {
      const fill = svg.querySelector('rect')!.getBoundingClientRect().width;
      return { ratio: fill / svg.getBoundingClientRect().width, colour: getComputedStyle(svg.querySelector('rect')!).fill };
    });
    expect(drawn.ratio).toBeCloseTo(2 / 3, 2);
    expect(drawn.colour).toBe('rgb(51, 66, 200)'); // --accent (light)
    // The bars are decoration: the accessibility tree has the text only.
    expect(await pocket.ariaSnapshot()).toMatch(/Pocket.*67%.*\(2 answers\)/s);
    expect(await pocket.ariaSnapshot()).not.toMatch(/img|graphics/);

    // The verification line is always there (here: the development simulator answered some).
    const verification = await pages.t.container.sharing.publicResults(q.publicCode);
    await expect(page.getByText(verification.result.verificationLine).isVisible()).resolves.toBe(true);

    await expectNoSidewaysScroll(page);
    await shot(page, 'results-single-choice');
    expect(await page.locator('script').count()).toBe(0);
    expectClean(phone);
  });

  it('dark phones get the dark palette; a long unbroken question still fits 360 px', async () => {
    const long = `Which of these ${'supercalifragilistic'.repeat(6)} names do you prefer?`;
    const q = await ask({ type: 'multi_choice', text: long, options: [{ label: 'Averyveryverylongunbrokenoptionlabel!!' }, { label: 'Short' }] });
    await answerAll(q.id, pages.heads.slice(0, 3), (i) => ({ options: i === 0 ? [0, 1] : [0] }));
    const phone = await narrowPhone({ colorScheme: 'dark' });
    const { page } = phone;
    const response = await page.goto(`/r/${q.publicCode}`);
    expect(response!.status()).toBe(200);
    expect(response!.headers()['cache-control']).toMatch(/^public, max-age=\d+$/);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const colours = await page.evaluate(() => ({
      background: getComputedStyle(document.body).backgroundColor,
      text: getComputedStyle(document.body).color,
      bar: getComputedStyle(document.querySelector('.bar-fill')!).fill,
    }));
    expect(colours).toEqual({ background: 'rgb(17, 19, 26)', text: 'rgb(236, 238, 245)', bar: 'rgb(154, 166, 255)' });
    const first = page.getByRole('listitem').filter({ hasText: 'Averyvery' });
    expect((await first.innerText()).replace(/\s+/g, ' ').trim()).toBe('Averyveryverylongunbrokenoptionlabel!!: 100% (3 answers)');
    await expectNoSidewaysScroll(page);
    await shot(page, 'results-dark-multi');
    expectClean(phone);
  });

  it('a question its rule stopped early: the stop is said in a box near the top, each bar with its anytime-valid interval, within 360 px', async () => {
    const q = await ask({
      type: 'single_choice',
      text: 'Which name is best for a savings app?',
      options: [{ label: 'Penny' }, { label: 'Pocket' }],
      n: 50,
      stopWhen: { rule: 'leader', floor: 1 },
    });
    await answerAll(q.id, pages.heads.slice(0, 8), { option: 0 });
    const phone = await narrowPhone();
    const { page } = phone;
    const response = await page.goto(`/r/${q.publicCode}`);
    expect(response!.status()).toBe(200);
    const line = page.getByTestId('settlement');
    await line.waitFor();
    expect(await line.isVisible()).toBe(true);
    expect((await line.innerText()).replace(/\s+/g, ' ').trim()).toBe('Stopped early at 8 of 50 answers: Penny is the favourite at 95% confidence.');
    // Near the top: above the answers card, and in the first screenful of the phone.
    const [box, card] = await Promise.all([line.boundingBox(), page.getByRole('heading', { level: 2, name: 'How people answered' }).boundingBox()]);
    expect(box!.y).toBeLessThan(card!.y);
    expect(box!.y + box!.height).toBeLessThan(740);
    // Drawn as a box: the accent border of the stylesheet (no inline style).
    expect(await line.evaluate((el) => getComputedStyle(el).borderTopColor)).toBe('rgb(51, 66, 200)');
    const penny = page.getByRole('listitem').filter({ hasText: 'Penny:' });
    // Read as one sentence (a hidden comma before the interval, which is drawn on a line of its own).
    expect((await penny.textContent())!.replace(/\s+/g, ' ').trim()).toMatch(/^Penny: 100% \(8 answers\), interval \d+% to 100%$/);
    expect(await penny.locator('.bar-interval').isVisible()).toBe(true);
    await expect(page.getByText('Intervals: anytime-valid at 95%, valid however often the result was checked.').isVisible()).resolves.toBe(true);
    expect(await page.content()).not.toMatch(/credit/i);
    await expectNoSidewaysScroll(page);
    await shot(page, 'results-stopped-early');
    expectClean(phone);
  });

  it('click test: the image with the taps over it (the heatmap, or the busiest areas as boxes), within 360 px', async () => {
    const q = await ask({ type: 'click_test', text: 'Where would you tap to buy?', stimulus: { imageUrl: pages.fixtures.url('/grid.svg') }, clickTest: { maxTaps: 1 } });
    await answerAll(q.id, pages.heads.slice(0, 6), (i) => ({ taps: [{ x: 0.5 + (i % 2) * 0.01, y: 0.5 }] }));
    const phone = await narrowPhone();
    const { page } = phone;
    await page.goto(`/r/${q.publicCode}`);
    const image = page.getByRole('img', { name: 'The image for this question' });
    await image.waitFor();
    await page.waitForLoadState('load');
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const layer = page.locator('.heatmap-layer');
    expect(await layer.count()).toBe(1);
    if ((await layer.evaluate((el) => el.tagName)) === 'IMG') {
      expect(await layer.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    } else {
      expect(await layer.locator('rect.hotspot-box').count()).toBeGreaterThan(0);
    }
    // Laid exactly over the image.
    const [a, b] = await Promise.all([image.boundingBox(), layer.boundingBox()]);
    expect(b).toEqual(a);
    await expect(page.getByText('Taps: 6').isVisible()).resolves.toBe(true);
    await expect(page.getByText(/^Area 1: 100% of taps \(6\)/).isVisible()).resolves.toBe(true);
    await expectNoSidewaysScroll(page);
    await shot(page, 'results-click-test');
    expectClean(phone);
  });
});
