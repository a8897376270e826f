import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { freePort } from '../helpers/service-process.ts';
import { signInMailOf } from '../helpers/people.ts';
import { NO_RATE_LIMITS } from '../helpers/questions.ts';
import { shot } from '../helpers/results-pages.ts';
import { chromiumMissing, launchBrowser, openPhone, type Phone } from './browser.ts';

/**
 * The portal's Webhooks pages in Debian's Chromium (issue 12), on a 390-px phone, against a real
 * receiver: a node:http server on 127.0.0.1 that checks every delivery's signature with the
 * `standardwebhooks` library and the secrets read off the page (and answers 400 when one does not
 * verify, so "HTTP 200" on the page means the signature was right). Add an endpoint and see its
 * secret once; send a test event, deliver it, see it succeeded, open its attempts and event,
 * redeliver; rotate the secret (both secrets sign the next delivery); turn it off; delete it.
 * Every page: no sideways scroll, no CSP refusal, no console error, nothing from another host.
 */
const missing = chromiumMissing();
if (missing) console.warn(`\n*** SKIPPED: ${missing}\n`);

/** The receiver: every secret in `secrets` must verify a delivery for it to answer 200. */
interface Receiver {
  url: string;
  secrets: string[];
  got: Array<{ body: string; verified: boolean; signatures: number }>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const receiver: Omit<Receiver, 'url' | 'close'> = { secrets: [], got: [] };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
      let verified = receiver.secrets.length > 0;
      for (const secret of receiver.secrets) {
        try {
          new Webhook(secret).verify(body, headers);
        } catch {
          verified = false;
        }
      }
      receiver.got.push({ body, verified, signatures: (headers['webhook-signature'] ?? '').split(' ').filter(Boolean).length });
      response.writeHead(verified ? 200 : 400, { 'content-type': 'text/plain' }).end(verified ? 'verified' : 'bad signature');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/headcount`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

describe.skipIf(Boolean(missing))('the Webhooks page in a browser', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let receiver: Receiver;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // The clock starts at the real time: receivers refuse signatures more than five minutes off theirs.
    t = await createTestApp({ env: { ...NO_RATE_LIMITS, PORT: String(port), PUBLIC_BASE_URL: base }, now: new Date() });
    await t.app.listen({ port, host: '127.0.0.1' });
    receiver = await startReceiver();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  async function expectTidy(page: Page, name: string) {
    const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    expect(scroll, `${name}: page wider than the screen`).toBeLessThanOrEqual(width);
    expect(await page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? []), name).toEqual([]);
    await shot(page, `portal-webhooks-${name}`);
  }

  async function signIn(page: Page, email: string) {
    await page.goto('/app/sign-in');
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.waitForURL(/\/app\/sign-in\/code/);
    await page.getByLabel('The code').fill(signInMailOf(t, email).code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/app`);
  }

  it('add an endpoint, see its secret once, deliver a signed test event, redeliver, rotate, turn off, delete', async () => {
    const phone: Phone = await openPhone(browser, base);
    const { page } = phone;
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const w = window as unknown as { __violations?: string[] };
        (w.__violations ??= []).push(`${event.effectiveDirective} ${event.blockedURI}`);
      });
    });
    try {
      await signIn(page, `hook-${randomUUID().slice(0, 8)}@example.org`);
      await page.getByRole('navigation').getByRole('link', { name: 'Webhooks' }).click();
      await page.waitForURL(`${base}/app/webhooks`);
      await expect.poll(() => page.getByText('No endpoints yet.').count()).toBe(1);
      await expectTidy(page, 'empty');

      // Add: the URL of the receiver, a description, two kinds of event.
      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByLabel('Description (optional)').fill('Our order system');
      await page.getByLabel('credits.low').check();
      expect(await page.getByLabel('question.completed').isChecked()).toBe(true);
      await page.getByRole('button', { name: 'Add an endpoint' }).click();
      const secret = await page.getByTestId('new-secret').innerText();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      await expect.poll(() => page.locator('.secret-card').innerText()).toContain('Copy it now: this is the only time it is shown.');
      await expectTidy(page, 'secret');
      receiver.secrets = [secret];

      // Its page: on, never delivered; the secret only masked from now on.
      await page.getByRole('link', { name: 'Open the endpoint' }).click();
      await page.waitForURL(/\/app\/webhooks\/whe_/);
      const endpointUrl = page.url();
      expect(await page.content()).not.toContain(secret);
      expect(await page.getByTestId('endpoint-state').innerText()).toBe('On');
      expect(await page.getByTestId('endpoint-url').innerText()).toBe(receiver.url);

      // A test event: queued, then delivered and verified by the receiver.
      await page.getByRole('button', { name: 'Send a test event' }).click();
      await expect.poll(() => page.getByText('Test event queued.').count()).toBe(1);
      expect(await page.getByTestId('delivery-status').innerText()).toBe('Pending');
      expect(await t.container.webhookDelivery.deliverDue()).toBe(1);
      expect(receiver.got).toHaveLength(1);
      expect(receiver.got[0]).toMatchObject({ verified: true, signatures: 1 });
      expect(JSON.parse(receiver.got[0].body)).toMatchObject({ type: 'question.completed', data: { test: true } });
      await page.reload();
      await expect.poll(() => page.getByTestId('delivery-status').innerText()).toBe('Succeeded');
      expect(await page.getByTestId('delivery-result').innerText()).toBe('HTTP 200');
      expect(await page.getByTestId('endpoint-last-status').innerText()).toBe('HTTP 200');
      await expectTidy(page, 'delivered');

      // The delivery's own page: the attempt with the receiver's answer, the event as sent; redeliver.
      await page.getByTestId('delivery').getByRole('link').click();
      await page.waitForURL(/\/deliveries\/evt_/);
      expect(await page.getByTestId('attempts').innerText()).toContain('verified');
      expect(JSON.parse(await page.getByTestId('event-json').innerText())).toEqual(JSON.parse(receiver.got[0].body));
      await expectTidy(page, 'delivery');
      await page.getByRole('button', { name: 'Redeliver' }).click();
      await expect.poll(() => page.getByText('Redelivery queued.').count()).toBe(1);
      await t.container.webhookDelivery.deliverDue();
      expect(receiver.got.at(-1)).toMatchObject({ verified: true });
      expect(JSON.parse(receiver.got.at(-1)!.body).id).toBe(JSON.parse(receiver.got[0].body).id);
      await page.reload();
      await expect.poll(() => page.getByTestId('attempts').locator('li').count()).toBe(2);

      // Rotate: a new secret once; the next delivery is signed with both for a day.
      await page.goto(endpointUrl);
      await page.getByRole('button', { name: 'Rotate the secret' }).click();
      const rotated = await page.getByTestId('new-secret').innerText();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      expect(await page.locator('.secret-card').innerText()).toContain('The old secret keeps signing every delivery beside the new one for 24 hours');
      await expectTidy(page, 'rotated');
      receiver.secrets = [secret, rotated];
      await page.goto(endpointUrl);
      await page.getByRole('button', { name: 'Send a test event' }).click();
      await expect.poll(() => page.getByText('Test event queued.').count()).toBe(1);
      await t.container.webhookDelivery.deliverDue();
      expect(receiver.got.at(-1)).toMatchObject({ verified: true, signatures: 2 });

      // Turn it off: the state and its reason stand out, on its page and in the list.
      await page.getByRole('button', { name: 'Turn off' }).click();
      await expect.poll(() => page.getByTestId('endpoint-state').innerText()).toContain('Turned off');
      expect(await page.getByTestId('disabled-reason').innerText()).toBe('Turned off by a person.');
      expect(await page.getByRole('button', { name: 'Send a test event' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Turn on' }).count()).toBe(1);
      await expectTidy(page, 'off');
      await page.getByRole('link', { name: 'All endpoints' }).click();
      await expect.poll(() => page.getByTestId('endpoint').innerText()).toContain('Turned off by a person.');

      // Delete, after a confirmation page.
      await page.getByTestId('endpoint').getByRole('link').click();
      await page.getByRole('link', { name: 'Delete', exact: true }).click();
      await expect.poll(() => page.locator('h1').innerText()).toBe('Delete this endpoint?');
      await expectTidy(page, 'delete');
      await page.getByRole('button', { name: 'Delete the endpoint' }).click();
      await page.waitForURL(`${base}/app/webhooks?done=deleted`);
      expect(await page.getByText('The endpoint was deleted.').count()).toBe(1);
      expect(await page.getByText('No endpoints yet.').count()).toBe(1);

      expect(phone.problems).toEqual([]);
      expect(phone.external).toEqual([]);
    } finally {
      await phone.context.close();
    }
  });
});
