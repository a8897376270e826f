import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core (ARCHITECTURE §5): no browser download, nothing
 * from the network. `launch()` gives every run a fresh temporary profile (user-data-dir), and each
 * test gets its own context (cookies, storage, locale) on a phone-sized touch screen.
 */
export const CHROMIUM = '/usr/bin/chromium';

/** Present, or why the browser tests cannot run: a skip locally, a failure under CI. */
export function chromiumMissing(): string | null {
  if (fs.existsSync(CHROMIUM)) return null;
  const message = `${CHROMIUM} is missing: the answer-page browser tests need Debian's chromium ` +
    '(apt-get install -y --no-install-recommends chromium; .ci/run installs it).';
  if (process.env.CI === 'true') throw new Error(`${message} Under CI this is a failure, not a skip.`);
  return message;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface Phone {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions (a CSP violation is one): a test ends expecting none. */
  problems: string[];
  /** Requests that tried to leave 127.0.0.1 (they are blocked). */
  external: string[];
  /** Every POST the page made, from the first page load on. */
  posts: Array<{ url: string; headers: Record<string, string>; body: any }>;
}

export interface PhoneOptions {
  locale?: string;
  timezoneId?: string;
  reducedMotion?: 'reduce' | 'no-preference';
  colorScheme?: 'light' | 'dark';
  /** Handle requests to Cloudflare's Turnstile instead of blocking them (a fake widget). */
  turnstile?: (url: string) => { body: string; contentType: string } | null;
}

export async function openPhone(browser: Browser, baseURL: string, options: PhoneOptions = {}): Promise<Phone> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: options.locale ?? 'en-GB',
    timezoneId: options.timezoneId ?? 'Europe/Berlin',
    reducedMotion: options.reducedMotion ?? 'no-preference',
    colorScheme: options.colorScheme ?? 'light',
  });
  const problems: string[] = [];
  const external: string[] = [];
  // Only this machine: anything else is recorded and refused (the page must need no network).
  await context.route(/^(?!https?:\/\/127\.0\.0\.1[:/]).*/, async (route) => {
    const url = route.request().url();
    const fake = options.turnstile?.(url);
    if (fake) return route.fulfill({ status: 200, contentType: fake.contentType, body: fake.body });
    external.push(url);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  const posts: Phone['posts'] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push({ url: request.url(), headers: request.headers(), body: request.postDataJSON() });
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return { context, page, problems, external, posts };
}
