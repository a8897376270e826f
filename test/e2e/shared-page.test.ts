import { describe, expect, it } from 'vitest';
import type { Json } from '../helpers/questions.ts';
import { browserPagesSuite, expectNoSidewaysScroll, shot } from '../helpers/results-pages.ts';
import { chromiumMissing } from './browser.ts';

/**
 * The page behind a private share link, `/s/{token}` (docs/sharing.md), in Debian's Chromium on a
 * 360 px phone: a link made through the API opens on the question, its bars and the written
 * reasons; revoked, the same address is the 404 page at the next load. No script, nothing loaded
 * from elsewhere. ANSWER_PAGE_SCREENSHOTS=/some/dir keeps screenshots.
 */
const missing = chromiumMissing();
if (missing) console.warn(`\n*** SKIPPED: ${missing}\n`);

describe.skipIf(Boolean(missing))('share link page in a browser', () => {
  const pages = browserPagesSuite();
  const { ask, answerAll, narrowPhone } = pages;

  /** The API over HTTP, as a requester would call it. */
  async function api(method: string, url: string, body?: Json): Promise<{ status: number; json: Json }> {
    const response = await fetch(`${pages.base}${url}`, {
      method,
      headers: { ...pages.key.auth, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, json: (await response.json()) as Json };
  }

  it('open a share link made through the API: the question, a bar, the insights, the written reasons; revoked, the 404 page at the next load', async () => {
    const q = await ask({
      type: 'single_choice',
      text: 'Which name would you pick for a savings app?',
      context: 'Pick the one you would trust.',
      options: [{ label: 'Penny' }, { label: 'Pocket' }],
      reason: 'optional',
    });
    const long = `Pocket, because ${'unbelievablytrustworthy'.repeat(4)} and it feels like money you can reach.`;
    await answerAll(q.id, pages.heads.slice(0, 3), (i) => ({ option: i === 0 ? 0 : 1, reason: i === 0 ? 'Penny is short and friendly.' : i === 1 ? long : 'Pocket sounds safe.' }));

    // A summary of the reasons, so the page shows its insights section too.
    expect((await api('POST', `/v2/questions/${q.id}/insights`)).status).toBe(200);

    const created = await api('POST', `/v2/questions/${q.id}/share-links`, { label: 'For the board', expiresInDays: 7 });
    expect(created.status).toBe(201);
    const { id: linkId, url } = created.json.shareLink;
    const pathname = new URL(url).pathname;
    expect(pathname).toMatch(/^\/s\/[0-9A-Za-z]{32}$/);

    const phone = await narrowPhone();
    const { page } = phone;
    const response = await page.goto(pathname);
    expect(response!.status()).toBe(200);
    expect(response!.headers()['cache-control']).toBe('no-store');
    expect(response!.headers()['referrer-policy']).toBe('no-referrer');
    expect(response!.headers()['content-security-policy']).toContain("script-src 'none'");

    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Which name would you pick for a savings app?');
    await expect(page.getByText('Shared results', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByText('3 of 10 answers received').isVisible()).resolves.toBe(true);

    // A bar: the text and the drawn fill agree.
    const pocket = page.getByRole('listitem').filter({ hasText: 'Pocket:' }).filter({ has: page.locator('svg.bar') });
    expect((await pocket.innerText()).replace(/\s+/g, ' ').trim()).toBe('Pocket: 67% (2 answers)');
    const ratio = await pocket.locator('svg.bar').evaluate((svg) => svg.querySelector('rect')!.getBoundingClientRect().width / svg.getBoundingClientRect().width);
    expect(ratio).toBeCloseTo(2 / 3, 2);

    await expect(page.getByRole('heading', { level: 2, name: 'What people wrote' }).isVisible()).resolves.toBe(true);
    await expect(page.getByText('Based on 3 written answers.', { exact: false }).isVisible()).resolves.toBe(true);

    // The written answers, newest first, each with its option and reason.
    await expect(page.getByRole('heading', { level: 2, name: 'Individual answers' }).isVisible()).resolves.toBe(true);
    const answers = page.locator('li.answer');
    expect(await answers.count()).toBe(3);
    await expect(page.getByText('Why: Pocket sounds safe.').isVisible()).resolves.toBe(true);
    await expect(page.getByText('Why: Penny is short and friendly.').isVisible()).resolves.toBe(true);
    const first = (await answers.first().innerText()).replace(/\s+/g, ' ');
    expect(first).toMatch(/^Tier \d · answered .+ UTC Chose: Pocket Why: Pocket sounds safe\.$/);
    await expectNoSidewaysScroll(page);
    await shot(page, 'shared-single-choice');
    expect(await page.locator('script').count()).toBe(0);
    expect(phone.problems).toEqual([]);
    expect(phone.external).toEqual([]);

    // Revoked: the same address is the friendly 404 page at the next load.
    expect((await api('DELETE', `/v2/questions/${q.id}/share-links/${linkId}`)).status).toBe(200);
    const gone = await page.reload();
    expect(gone!.status()).toBe(404);
    expect(gone!.headers()['cache-control']).toBe('no-store');
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('This share link does not work');
    await expect(page.getByText('Pocket sounds safe.').count()).resolves.toBe(0);
    await expectNoSidewaysScroll(page);
    await shot(page, 'shared-revoked');
    // The browser reports the 404 document itself; nothing else went wrong.
    expect(phone.problems.filter((p) => !/status of 404/.test(p))).toEqual([]);
    expect(phone.external).toEqual([]);
  });
});
