import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp, type TestKey } from './test-app.ts';
import { answerAll, ask, choiceDraft, fundedKey, NO_RATE_LIMITS, seedHeads, sleep, type Head, type Json } from './questions.ts';
import type { AnswerInput } from '../../src/modules/draft/answer-format.ts';
import type { RecordOutcome } from '../../src/modules/answers/answer-recording.service.ts';
import { SCOPES } from '../../src/lib/actor.ts';
import type { AskBody } from '../../src/modules/questions/ask.schemas.ts';
import type { Phone, PhoneOptions } from '../e2e/browser.ts';
import { startFixtures, type Fixtures } from '../e2e/fixtures.ts';

/**
 * The set-up shared by the suites of the two results pages for people, the public `/r/{code}` and
 * the private share link's `/s/{token}` (docs/sharing.md), in the integration tests (app.inject)
 * and the e2e tests (Debian's Chromium): an app on this file's database, 10 panel heads, a funded
 * key, and the steps around the pages (publish a question, make and revoke a share link, load a
 * page). A suite function registers the hooks that build and close all this (call it once, at
 * the top of the file or of its describe); the fields of what it returns (t, key, heads…) are set
 * when its beforeAll has run, while its functions can be destructured at once.
 */

/** A share link as POST /v2/questions/{id}/share-links gives it, with its page's path. */
export interface ShareLink {
  id: string;
  token: string;
  path: string;
  expiresAt: string;
}

interface PagesApp {
  t: TestApp;
  key: TestKey;
  heads: Head[];
  /** Asks with the suite's key; the question as the API gives it. */
  ask(draft: Json): Promise<Json>;
  /** answerAll of questions.ts on the suite's app: the heads answer one after another, each accepted. */
  answerAll(questionId: string, heads: Head[], answer: AnswerInput | ((i: number) => AnswerInput)): Promise<RecordOutcome[]>;
}

/** The app, the panel (10 heads) and a key with `credits`, for one file. */
async function openPagesApp(env: Record<string, string> | undefined, credits: number): Promise<Pick<PagesApp, 't' | 'key' | 'heads'>> {
  const t = await createTestApp(env ? { env } : {});
  const heads = await seedHeads(t, 10);
  const key = await fundedKey(t, credits);
  return { t, key, heads };
}

export interface PagesSuite extends PagesApp {
  /** Over HTTP, expecting a 201 (`ask` of questions.ts). */
  ask(draft?: Json): Promise<Json>;
  /** GET a path as a browser would (no key). */
  page(path: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** The public results page of a code, `/r/{code}`. */
  resultsPage(code: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Asks a choice question (`draft` over choiceDraft) with public results; expects its code. */
  publicQuestion(draft?: Json): Promise<Json>;
  /** Turns a question's public results page on or off (POST /v2/questions/{id}/share). */
  share(id: string, on: boolean): Promise<LightMyRequestResponse>;
  /** A share link, expecting a 201; its page's path is the `url` the API gave, less the public base. */
  link(id: string, payload?: Json): Promise<ShareLink>;
  /** Revokes a share link (DELETE /v2/questions/{id}/share-links/{linkId}). */
  revoke(id: string, linkId: string): Promise<LightMyRequestResponse>;
  /** The paths of the API description, /openapi.json. */
  documentedPaths(): Promise<string[]>;
}

/**
 * Integration: the app with its public base at https://headcount.test and the rate limits out of
 * the way, 10 heads, a key with 100,000 credits; pages through app.inject.
 */
export function pagesSuite(): PagesSuite {
  const suite = {
    ask: (draft = choiceDraft()) => ask(suite.t, suite.key, draft),
    answerAll: (questionId, heads, answer) => answerAll(suite.t, questionId, heads, answer),
    page: (path, headers = {}) => suite.t.inject({ method: 'GET', url: path, headers }),
    resultsPage: (code, headers = {}) => suite.page(`/r/${code}`, headers),
    async publicQuestion(draft = {}) {
      const question = await suite.ask(choiceDraft({ publicResults: true, ...draft }));
      expect(question.publicCode).toMatch(/^[0-9A-Za-z]{12}$/);
      return question;
    },
    share: (id, on) => suite.t.inject({ method: 'POST', url: `/v2/questions/${id}/share`, headers: suite.key.auth, payload: { public: on } }),
    async link(id, payload = {}) {
      const response = await suite.t.inject({ method: 'POST', url: `/v2/questions/${id}/share-links`, headers: suite.key.auth, payload });
      expect(response.statusCode, response.body).toBe(201);
      const { shareLink } = response.json();
      expect(shareLink.url).toBe(`https://headcount.test/s/${shareLink.token}`);
      return { ...shareLink, path: new URL(shareLink.url).pathname };
    },
    revoke: (id, linkId) => suite.t.inject({ method: 'DELETE', url: `/v2/questions/${id}/share-links/${linkId}`, headers: suite.key.auth }),
    documentedPaths: async () => Object.keys((await suite.t.inject({ method: 'GET', url: '/openapi.json' })).json().paths),
  } as PagesSuite;

  beforeAll(async () => {
    Object.assign(suite, await openPagesApp({ ...NO_RATE_LIMITS, PUBLIC_BASE_URL: 'https://headcount.test' }, 100_000));
  });
  afterAll(async () => {
    await Promise.race([suite.t?.close(), sleep(5_000)]);
  });
  return suite;
}

export interface BrowserPagesSuite extends PagesApp {
  /** Where the app listens, http://127.0.0.1:port. */
  base: string;
  browser: Browser;
  /** The local image server, when the suite asked for it. */
  fixtures: Fixtures;
  /** Through the ask service, 10 answers unless `draft` says otherwise. */
  ask(draft: Json): Promise<Json>;
  /** A phone 360 px wide (the narrowest the pages are made for), closed after the test. */
  narrowPhone(options?: PhoneOptions): Promise<Phone>;
}

/**
 * E2e: the app listening on 127.0.0.1 with the test defaults, 10 heads, a key with 1,000,000
 * credits, a browser, and with `fixtures` the local image server.
 */
export function browserPagesSuite(options: { fixtures?: boolean } = {}): BrowserPagesSuite {
  const phones: Phone[] = [];
  // Loaded here, not at the top: the integration suites share this file and need no browser.
  const browserModule = () => import('../e2e/browser.ts');
  const actor = () => ({ accountId: suite.key.accountId, keyId: suite.key.keyId, scopes: SCOPES, dailyCapCredits: null });
  const suite = {
    async ask(draft): Promise<Json> {
      const result = await suite.t.container.asks.ask(actor(), { draft: { n: 10, ...draft } } as AskBody, randomUUID());
      return result.body.question;
    },
    answerAll: (questionId, heads, answer) => answerAll(suite.t, questionId, heads, answer),
    async narrowPhone(phoneOptions = {}) {
      const phone = await (await browserModule()).openPhone(suite.browser, suite.base, phoneOptions);
      phones.push(phone);
      await phone.page.setViewportSize({ width: 360, height: 740 });
      return phone;
    },
  } as BrowserPagesSuite;

  beforeAll(async () => {
    if (options.fixtures) suite.fixtures = await startFixtures();
    const { t, key, heads } = await openPagesApp(undefined, 1_000_000);
    Object.assign(suite, { t, key, heads });
    suite.base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    suite.browser = await (await browserModule()).launchBrowser();
  });
  afterEach(async () => {
    for (const phone of phones.splice(0)) await phone.context.close();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.t?.close();
    await suite.fixtures?.close();
  });
  return suite;
}

/** The four questions of early stopping's lines on the results pages (docs/early-stopping.md), asked by `settlementCases`. */
export interface SettlementCases {
  /** n 50, the leader rule from the first answer: 8 answers for Penny stop it (42 × 12 = 504 credits refunded). */
  stopped: Json;
  /** n 40, stopped the same way at 8 (384 credits refunded), then two of its answers removed in review: the claim is withdrawn. */
  withdrawn: Json;
  /** n 50, the leader rule with its default floor (10), 3 answers: live, not settled. */
  live: Json;
  /** n 10 without stopWhen, all 10 for Penny: the reference rule would have settled at 10. */
  plain: Json;
}

/** What the early-stopping line (or box) of a results page says, as text; '' when the page has none. */
export function settlementLineOf(html: string): string {
  const inner = /<p class="[^"]*settlement[^"]*" data-testid="settlement">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '';
  return inner.replace(/<[^>]+>/g, '').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').trim();
}

/**
 * Asks the four questions of SettlementCases with `key` (`draft` laid over each, e.g.
 * `{publicResults: true}`) and answers them with panel heads through the answer-recording service,
 * which reads the rule after every accepted answer; the withdrawn one has two answers flagged and
 * the flags upheld, as an operator would.
 */
export async function settlementCases(t: TestApp, key: TestKey, heads: Head[], draft: Json = {}): Promise<SettlementCases> {
  const leader = (n: number, stopWhen: Json) => ask(t, key, choiceDraft({ n, stopWhen, ...draft }));
  const [stopped, withdrawn, live, plain] = await Promise.all([
    leader(50, { rule: 'leader', floor: 1 }),
    leader(40, { rule: 'leader', floor: 1 }),
    leader(50, { rule: 'leader' }),
    ask(t, key, choiceDraft({ n: 10, ...draft })),
  ]);
  await answerAll(t, stopped.id, heads.slice(0, 8), { option: 0 });
  const removed = await answerAll(t, withdrawn.id, heads.slice(0, 8), { option: 0 });
  await answerAll(t, live.id, heads.slice(0, 3), { option: 0 });
  await answerAll(t, plain.id, heads.slice(0, 10), { option: 0 });
  for (const outcome of removed.slice(0, 2)) {
    const flagged = await t.inject({ method: 'POST', url: `/v2/questions/${withdrawn.id}/answers/${outcome.attestationRef}/flag`, headers: key.auth, payload: { reason: 'automated' } });
    expect(flagged.statusCode, flagged.body).toBe(201);
    await t.container.moderation.decideFlag(flagged.json().flag.id, 'uphold');
  }
  return { stopped, withdrawn, live, plain };
}

export async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

/** A full-page screenshot into ANSWER_PAGE_SCREENSHOTS, when set. */
export async function shot(page: Page, name: string) {
  const shots = process.env.ANSWER_PAGE_SCREENSHOTS;
  if (!shots) return;
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}
