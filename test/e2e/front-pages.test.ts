import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testConfig, type TestApp } from '../helpers/test-app.ts';
import { createContainer } from '../../src/container.ts';
import { buildApp } from '../../src/app.ts';
import { chromiumMissing, launchBrowser, openPhone, type Phone } from './browser.ts';

/**
 * The pages a newcomer opens first (issue 8, point 22): `GET /` and the API reference at `/docs`,
 * in Debian's Chromium on a 390-px phone, against the app listening on 127.0.0.1. The reference
 * is checked on an app started with NODE_ENV=production (it stays the public reference there):
 * every request the page makes is recorded, and none may go to another host, fail, or be refused
 * by the page's Content-Security-Policy. Set ANSWER_PAGE_SCREENSHOTS=/some/dir to keep screenshots.
 */
const missing = chromiumMissing();
if (missing) console.warn(`\n*** SKIPPED: ${missing}\n`);
const SHOTS = process.env.ANSWER_PAGE_SCREENSHOTS;

interface Watched extends Phone {
  /** Requests that failed (refused, aborted, unreachable) and responses of 400 or more. */
  failed: string[];
  /** Every URL the page requested. */
  requested: string[];
}

describe.skipIf(Boolean(missing))('the front page and the API reference in a browser', () => {
  let t: TestApp;
  let base: string;
  let production: FastifyInstance;
  let productionBase: string;
  let productionUrl: string;
  let browser: Browser;
  const phones: Phone[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // The same database behind an app configured for production.
    const config = testConfig({ ...t.testDatabase.env, NODE_ENV: 'production', HOST: '127.0.0.1', TURNSTILE_SECRET: 'test-secret', TURNSTILE_SITE_KEY: 'test-site-key', SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'no-reply@localhost', SESSION_SECRET: 'front-pages-session-secret-32-chars+', STRIPE_SECRET_KEY: 'sk_test_frontpages', STRIPE_WEBHOOK_SECRET: 'whsec_frontpages' });
    productionUrl = config.publicBaseUrl;
    production = await buildApp(createContainer(config, t.database, t.clock), { logger: false });
    productionBase = await production.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser();
  });

  afterEach(async () => {
    for (const phone of phones.splice(0)) await phone.context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await production?.close();
    await t?.close();
  });

  async function open(on: string): Promise<Watched> {
    const phone = await openPhone(browser, on);
    phones.push(phone);
    const failed: string[] = [];
    const requested: string[] = [];
    phone.page.on('request', (request) => requested.push(request.url()));
    phone.page.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
    phone.page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.url()}: ${response.status()}`);
    });
    // CSP refusals never reach the network: the page reports them as events.
    await phone.page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const w = window as unknown as { __violations?: string[] };
        (w.__violations ??= []).push(`${event.effectiveDirective} ${event.blockedURI}`);
      });
    });
    return { ...phone, failed, requested };
  }

  const violations = (page: Page) => page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? []);

  /** Nothing wider than the screen: no sideways scrolling of the page itself. */
  async function expectNoSidewaysScroll(page: Page, width = 390) {
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.body.scrollWidth]);
    expect(Math.max(...widths)).toBeLessThanOrEqual(width);
  }

  async function shot(page: Page, name: string) {
    if (!SHOTS) return;
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  }

  describe('GET /', () => {
    it('is a small page: what Headcount is, links to /docs, /openapi.json and /healthz, and how to start', async () => {
      const phone = await open(base);
      const { page } = phone;
      const response = (await page.goto('/'))!;
      expect(response.status()).toBe(200);
      const headers = response.headers();
      expect(headers['content-type']).toBe('text/html; charset=utf-8');
      expect(headers['content-security-policy']).toContain("default-src 'none'");
      expect(headers['content-security-policy']).toContain("script-src 'none'");
      expect(headers['x-content-type-options']).toBe('nosniff');

      await page.getByRole('heading', { level: 1, name: 'Headcount' }).waitFor();
      expect(await page.title()).toMatch(/^Headcount/);
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      expect(await page.locator('meta[name="viewport"]').getAttribute('content')).toContain('width=device-width');
      // The answer page's stylesheet: one visual language.
      expect(await page.locator('link[rel="stylesheet"]').getAttribute('href')).toMatch(/^\/a\/assets\/[0-9a-f]{12}\/answer\.css$/);
      expect(await page.locator('main').innerText()).toMatch(/verified people/);

      const links = { 'API reference': '/docs', 'OpenAPI description': '/openapi.json', Health: '/healthz' };
      for (const [name, href] of Object.entries(links)) {
        const link = page.getByRole('link', { name: new RegExp(`^${name}`) });
        expect(await link.getAttribute('href')).toBe(href);
        expect((await fetch(`${base}${href}`)).status).toBe(200);
      }
      // The quickstart essentials, with this server's address in the commands.
      const text = await page.locator('main').innerText();
      expect(text).toContain('npm run --silent admin -- account:create');
      expect(text).toContain('npm run --silent admin -- key:create');
      expect(text).toContain(`${t.config.publicBaseUrl}/v1/billing/estimate`);
      expect(text).toContain(`${t.config.publicBaseUrl}/v2/questions`);
      expect(text).toContain('/wait?seconds=25');

      await expectNoSidewaysScroll(page);
      await page.setViewportSize({ width: 360, height: 740 });
      await expectNoSidewaysScroll(page, 360);
      await shot(page, 'front-page');

      // The link to the reference works from the page.
      await page.getByRole('link', { name: /^API reference/ }).tap();
      await page.waitForURL(/\/docs\/$/);
      expect(await page.title()).toContain('Headcount');

      expect(phone.problems).toEqual([]);
      expect(phone.external).toEqual([]);
      expect(phone.failed).toEqual([]);
      expect(phone.requested.every((url) => url.startsWith(base))).toBe(true);
    });

    it('is hidden from /openapi.json and answers HEAD; in production too', async () => {
      const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, unknown> };
      expect(Object.keys(doc.paths)).not.toContain('/');
      expect(Object.keys(doc.paths).some((p) => p.startsWith('/docs'))).toBe(false);
      const head = await fetch(`${base}/`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const prod = await fetch(`${productionBase}/`);
      expect(prod.status).toBe(200);
      expect(await prod.text()).toContain('<h1');
    });
  });

  describe('/docs', () => {
    it('in production: names Headcount, renders an operation with a request sample at 390 px, and loads nothing from other hosts', async () => {
      const redirect = await fetch(`${productionBase}/docs`, { redirect: 'manual' });
      expect(redirect.status).toBe(301);
      expect(redirect.headers.get('location')).toBe('/docs/');

      const phone = await open(productionBase);
      const { page } = phone;
      const response = (await page.goto('/docs/'))!;
      expect(response.status()).toBe(200);
      const csp = response.headers()['content-security-policy'];
      // Only this origin (and the page's own inline configuration, by hash) may run or be fetched.
      expect(csp).toContain("default-src 'none'");
      expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*')+;/);
      expect(csp).toContain("connect-src 'self'");
      expect(csp).not.toMatch(/https?:|\*/);

      expect(await page.title()).toBe('Headcount API reference');
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      expect(await page.locator('meta[name="viewport"]').getAttribute('content')).toContain('width=device-width');
      await page.getByRole('heading', { level: 1, name: 'Headcount API' }).waitFor({ timeout: 60_000 });
      await expectNoSidewaysScroll(page);
      await shot(page, 'docs');

      // An operation and its request sample (curl first), reached by its link.
      await page.goto('/docs/#tag/questions/POST/v2/questions');
      await page.getByRole('heading', { name: /^Ask a question/ }).waitFor({ timeout: 60_000 });
      const sample = page.locator('pre', { hasText: /curl .*\/v2\/questions/ }).first();
      await sample.waitFor({ timeout: 30_000 });
      const sampleText = await sample.innerText();
      expect(sampleText).toContain(`curl ${productionUrl}/v2/questions`);
      expect(sampleText).toContain('--request POST');
      await page.waitForTimeout(500);
      await expectNoSidewaysScroll(page);
      await shot(page, 'docs-operation');

      expect(phone.external).toEqual([]);
      expect(phone.failed).toEqual([]);
      expect(phone.requested.filter((url) => !url.startsWith(`${productionBase}/`))).toEqual([]);
      expect([...new Set(phone.requested.map((url) => new URL(url).pathname))].sort()).toEqual(['/docs/', '/docs/js/scalar.js', '/openapi.json']);
      // The only refusal is the bundle's own probe for eval (zod checks `Function('')` in a
      // try/catch and works without it); nothing else is blocked.
      expect((await violations(page)).filter((v) => !/^script-src eval$/.test(v))).toEqual([]);
      expect(phone.problems).toEqual([]);
    }, 120_000);

    it('serves the bundle compressed and revalidates it with an ETag', async () => {
      const response = await fetch(`${productionBase}/docs/js/scalar.js`, { headers: { 'accept-encoding': 'br' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-encoding')).toBe('br');
      expect(response.headers.get('content-type')).toMatch(/javascript/);
      const etag = response.headers.get('etag')!;
      expect(etag).toMatch(/^"[\w-]{22}"$/);
      // About a quarter of the 4.3 MB the browser unpacks.
      expect(Number(response.headers.get('content-length'))).toBeLessThan(1_500_000);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(4_000_000);
      const again = await fetch(`${productionBase}/docs/js/scalar.js`, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
    }, 60_000);
  });
});
