import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { newEmail, newIp } from '../helpers/people.ts';
import { csrfOf, PortalBrowser } from '../helpers/portal-browser.ts';
import { NO_RATE_LIMITS } from '../helpers/questions.ts';

/**
 * The portal's Webhooks pages over HTTP (issue 12; src/web/portal/pages/webhooks.routes.ts): the
 * service's refusals on the form (400, 409, never a 500), the secret once, changes by POST-redirect-
 * GET, a delivery's attempts and event, a member's read-only view, the delete confirmation. The
 * browser test (test/e2e/portal-webhooks.test.ts) walks the same pages in Chromium with a receiver
 * that checks the signature.
 */
let t: TestApp;
let receiver: http.Server;
let hook: string;
const received: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ env: { ...NO_RATE_LIMITS, WEBHOOK_MAX_ENDPOINTS: '2' } });
  receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push(body);
      response.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  await t?.close();
});

const browser = () => new PortalBrowser(t, newIp());
const endpointIdIn = (html: string) => /href="\/app\/webhooks\/(whe_[0-9A-Za-z]+)"/.exec(html)![1];

describe('the Webhooks pages', () => {
  it('add (refusals on the form, the secret once), change, test, deliveries, redeliver, turn off, delete', async () => {
    const b = browser();
    await b.signIn(newEmail());
    const empty = await b.get('/app/webhooks');
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('No endpoints yet.');
    expect(empty.body).toMatch(/<a href="\/app\/webhooks" aria-current="page">Webhooks<\/a>/);
    const token = csrfOf(empty.body);

    // Refusals come back on the form with what was typed, not as an error page.
    const noEvents = await b.post('/app/webhooks', { _csrf: token, url: hook, description: 'Orders' });
    expect(noEvents.statusCode).toBe(400);
    expect(noEvents.body).toContain('Choose at least one event.');
    expect(noEvents.body).toContain(`value="${hook}"`);
    expect(noEvents.body).toContain('value="Orders"');
    expect(noEvents.body).toMatch(/<fieldset aria-invalid="true"/);
    const badUrl = await b.post('/app/webhooks', { _csrf: token, url: 'ftp://example.org/x', events: ['question.completed'] });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.body).toContain('The URL must start with https:// (or http://).'); // http is allowed outside production
    expect(badUrl.body).toMatch(/id="webhook-url"[^>]*aria-invalid="true"/);
    const fragment = await b.post('/app/webhooks', { _csrf: token, url: `${hook}#x`, events: ['question.completed'] });
    expect(fragment.statusCode).toBe(400);
    expect(fragment.body).toContain('#fragment');

    // Made: the secret once, in a page nobody caches.
    const made = await b.post('/app/webhooks', { _csrf: token, url: hook, description: 'Orders', events: ['question.completed', 'credits.low', 'nonsense'] });
    expect(made.statusCode).toBe(201);
    expect(made.headers['cache-control']).toBe('no-store');
    const secret = /data-testid="new-secret">(whsec_[A-Za-z0-9+/=]+)</.exec(made.body)![1];
    expect(made.body).toContain('this is the only time it is shown');
    const id = endpointIdIn(made.body);
    const list = (await b.get('/app/webhooks')).body;
    expect(list).not.toContain(secret);
    expect(list).toContain('Events: question.completed, credits.low');
    expect(list).toContain('No delivery yet');

    // The limit (2 here) is the service's 409, shown on the form.
    expect((await b.post('/app/webhooks', { _csrf: token, url: `${hook}/2`, events: ['credits.low'] })).statusCode).toBe(201);
    const third = await b.post('/app/webhooks', { _csrf: token, url: `${hook}/3`, events: ['credits.low'] });
    expect(third.statusCode).toBe(409);
    expect(third.body).toContain('at most 2 webhook endpoints');

    // Change it: redirect, then the page says so.
    const page = `/app/webhooks/${id}`;
    const endpointPage = (await b.get(page)).body;
    expect(endpointPage).toContain(`whsec_…${secret.slice(-4)}`);
    expect(endpointPage).not.toContain(secret);
    const saved = await b.post(page, { _csrf: csrfOf(endpointPage), url: hook, description: 'Orders and refunds', events: ['question.completed', 'question.cancelled'] });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`${page}?done=saved`);
    const after = (await b.get(`${page}?done=saved`)).body;
    expect(after).toContain('Saved.');
    expect(after).toContain('Orders and refunds');
    expect(after).toContain('question.completed, question.cancelled');
    const refused = await b.post(page, { _csrf: csrfOf(after), url: 'not a url', events: ['question.completed'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('value="not a url"');

    // A test event: queued, delivered, its attempts and event one click away, redeliverable.
    const test = await b.post(`${page}/test`, { _csrf: csrfOf(after), type: 'question.cancelled' });
    expect(test.headers.location).toBe(`${page}?done=test`);
    const queued = (await b.get(`${page}?done=test`)).body;
    expect(queued).toContain('Test event queued.');
    expect(queued).toMatch(/data-testid="delivery-status">Pending</);
    await t.container.webhookDelivery.deliverDue();
    expect(JSON.parse(received.at(-1)!)).toMatchObject({ type: 'question.cancelled', data: { test: true, endpointId: id } });
    const delivered = (await b.get(page)).body;
    expect(delivered).toMatch(/data-testid="delivery-status">Succeeded</);
    expect(delivered).toMatch(/data-testid="delivery-result">HTTP 200</);
    expect(delivered).toMatch(/data-testid="endpoint-last-status">HTTP 200</);
    const eventId = /data-event-id="(evt_[0-9A-Za-z]+)"/.exec(delivered)![1];
    const detail = (await b.get(`${page}/deliveries/${eventId}`)).body;
    expect(detail).toContain('thanks');
    expect(detail).toContain(`&quot;endpointId&quot;: &quot;${id}&quot;`);
    const again = await b.post(`${page}/deliveries/${eventId}/redeliver`, { _csrf: csrfOf(detail), back: 'delivery' });
    expect(again.headers.location).toBe(`${page}/deliveries/${eventId}?done=redelivered`);
    await t.container.webhookDelivery.deliverDue();
    expect((await b.get(`${page}/deliveries/${eventId}`)).body.match(/<li class="row"><strong>#/g)).toHaveLength(2);

    // Rotate: the new secret once, the old one said to sign on for 24 hours.
    const rotated = await b.post(`${page}/rotate-secret`, { _csrf: csrfOf(detail) });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.headers['cache-control']).toBe('no-store');
    const newSecret = /data-testid="new-secret">(whsec_[A-Za-z0-9+/=]+)</.exec(rotated.body)![1];
    expect(newSecret).not.toBe(secret);
    expect(rotated.body).toContain('for 24 hours');

    // Off: the reason shows; a test event is refused on the page (409), not as an error page.
    expect((await b.post(`${page}/turn-off`, { _csrf: csrfOf(detail) })).headers.location).toBe(`${page}?done=off`);
    const off = (await b.get(page)).body;
    expect(off).toContain('Turned off by a person.');
    expect(off).not.toContain(`action="${page}/test"`);
    const refusedTest = await b.post(`${page}/test`, { _csrf: csrfOf(off) });
    expect(refusedTest.statusCode).toBe(409);
    expect(refusedTest.body).toContain('turn it on to send a test event');
    expect((await b.get('/app/webhooks')).body).toContain('data-testid="disabled-reason">Turned off by a person.<');
    expect((await b.post(`${page}/turn-on`, { _csrf: csrfOf(off) })).headers.location).toBe(`${page}?done=on`);

    // Delete: a confirmation page first, then gone.
    const confirm = await b.get(`${page}/delete`);
    expect(confirm.body).toContain('Delete this endpoint?');
    const deleted = await b.post(`${page}/delete`, { _csrf: csrfOf(confirm.body) });
    expect(deleted.headers.location).toBe('/app/webhooks?done=deleted');
    expect((await b.get('/app/webhooks?done=deleted')).body).toContain('The endpoint was deleted.');
    expect((await b.get(page)).statusCode).toBe(404);
    expect((await b.get('/app/webhooks/..%2F..%2Fapp')).statusCode).toBe(404);
  });

  it('the add form and the rotate form act once: sent again (a reload), they add no second endpoint and rotate no second time', async () => {
    const b = browser();
    await b.signIn(newEmail());
    const bearer = { authorization: `Bearer ${b.jar.get('hc_session')!.value}` };
    const endpoints = async () => (await t.inject({ url: '/v1/webhooks/endpoints', headers: bearer })).json().endpoints as Array<{ id: string; secret: string; previousSecretExpiresAt: string | null }>;
    const nonceIn = (html: string, action: string) => new RegExp(`action="${action}"[^>]*>(?:<input type="hidden"[^>]*>)*?<input type="hidden" name="nonce" value="([0-9a-f-]{36})"`).exec(html)![1];

    const list = (await b.get('/app/webhooks')).body;
    const form = { _csrf: csrfOf(list), nonce: nonceIn(list, '/app/webhooks'), url: hook, description: 'Once', events: ['credits.low'] };
    // A refused post uses nothing up: the same form, corrected, still adds.
    expect((await b.post('/app/webhooks', { ...form, events: [] })).statusCode).toBe(400);
    const made = await b.post('/app/webhooks', form);
    expect(made.statusCode).toBe(201);
    const secret = /data-testid="new-secret">(whsec_[A-Za-z0-9+/=]+)</.exec(made.body)![1];
    const again = await b.post('/app/webhooks', form);
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('This form already added an endpoint, and its secret was shown once');
    expect(again.body).not.toContain('data-testid="new-secret"');
    expect(again.body).not.toContain(secret);
    expect(again.body.match(/data-testid="endpoint"/g)).toHaveLength(1);
    expect(await endpoints()).toHaveLength(1);

    const id = endpointIdIn(made.body);
    const page = `/app/webhooks/${id}`;
    const before = (await b.get(page)).body;
    const rotate = { _csrf: csrfOf(before), nonce: nonceIn(before, `${page}/rotate-secret`) };
    const rotated = await b.post(`${page}/rotate-secret`, rotate);
    expect(rotated.statusCode).toBe(200);
    const newSecret = /data-testid="new-secret">(whsec_[A-Za-z0-9+/=]+)</.exec(rotated.body)![1];
    const [once] = await endpoints();
    expect(once.secret).toBe(`whsec_…${newSecret.slice(-4)}`);
    expect(once.previousSecretExpiresAt).not.toBeNull();

    const twice = await b.post(`${page}/rotate-secret`, rotate);
    expect(twice.statusCode).toBe(409);
    expect(twice.body).toContain('This form already rotated the secret, and the new one was shown once');
    expect(twice.body).not.toContain('data-testid="new-secret"');
    // Still the first rotation's secret, and the old one's 24 hours unchanged.
    expect(await endpoints()).toEqual([once]);

    // The page that said so carries a fresh form: rotating on purpose still works.
    const fresh = await b.post(`${page}/rotate-secret`, { _csrf: csrfOf(twice.body), nonce: nonceIn(twice.body, `${page}/rotate-secret`) });
    expect(fresh.statusCode).toBe(200);
    expect((await endpoints())[0].secret).not.toBe(once.secret);
  });

  it('a member of a team reads everything and changes nothing; crafted forms never get a 500', async () => {
    const owner = browser();
    await owner.signIn(newEmail());
    await owner.submit('/app/team', '/app/teams', { name: 'Hook Team', currency: 'EUR' });
    const made = await owner.submit('/app/webhooks', '/app/webhooks', { url: hook, events: ['credits.low'] });
    expect(made.statusCode).toBe(201);
    const id = endpointIdIn(made.body);
    const guest = newEmail('guest');
    await owner.submit('/app/team', '/app/team/invite', { email: guest, role: 'member' });
    const member = browser();
    await member.signIn(guest);
    const invitations = (await member.get('/app/invitations')).body;
    await member.post(/action="(\/app\/invitations\/inv_[0-9A-Za-z]+\/accept)"/.exec(invitations)![1], { _csrf: csrfOf(invitations) });

    const list = (await member.get('/app/webhooks')).body;
    expect(list).toContain(hook);
    expect(list).toContain('Only owners and admins of this account');
    expect(list).not.toContain('action="/app/webhooks"');
    const page = (await member.get(`/app/webhooks/${id}`)).body;
    expect(page).toContain('Only owners and admins of this account');
    expect(page).not.toMatch(new RegExp(`action="/app/webhooks/${id}`));
    const refused = await member.post(`/app/webhooks/${id}/turn-off`, { _csrf: csrfOf(page) });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('Only an owner or an admin of this account can manage webhook endpoints.');

    const token = csrfOf((await owner.get(`/app/webhooks/${id}`)).body);
    const statuses: number[] = [];
    const crafted: Array<Record<string, string | string[]>> = [{ _csrf: token }, { _csrf: token, url: [hook, hook], events: ['x', 'credits.low', 'credits.low'], description: 'y'.repeat(300) }, { _csrf: token, url: 'z'.repeat(3000), events: 'credits.low' }];
    for (const fields of crafted) {
      for (const path of ['/app/webhooks', `/app/webhooks/${id}`, `/app/webhooks/${id}/test`, `/app/webhooks/${id}/deliveries/evt_nope/redeliver`, '/app/webhooks/whe_nope/delete']) {
        statuses.push((await owner.post(path, fields)).statusCode);
      }
    }
    statuses.push((await owner.get(`/app/webhooks/${id}?cursor=nonsense`)).statusCode);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
  });
});
