import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { newEmail, signIn, type SignedInPerson } from '../helpers/people.ts';
import { answerAll, ask, choiceDraft, grant, seedHeads, type Head } from '../helpers/questions.ts';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { DAY_MS, HOUR_MS } from '../helpers/money.ts';
import { RETRY_DELAYS_MS } from '../../src/modules/events/webhook-schedule.ts';
import { createWebhookDispatcher } from '../../src/modules/events/webhook-dispatcher.ts';
import type { Actor } from '../../src/lib/actor.ts';

/** The actor a portal session of `s.person` on their own account is, as the routes hand it to services. */
const actorOf = (s: { person: SignedInPerson }): Actor => ({ accountId: s.person.personalAccountId, keyId: null, scopes: [], dailyCapCredits: null, session: { id: s.person.sessionId, personId: s.person.personId, role: 'owner' } });

/**
 * Webhooks end to end (issue 12; docs/webhooks.md): endpoints registered by a signed-in person,
 * events delivered to a real HTTP receiver that verifies them with the standardwebhooks library,
 * retried through faults (500s, resets, timeouts, a receiver that is down), and an endpoint that
 * keeps failing turned off with its owners told. The fake clock walks the retry schedule.
 */
let t: TestApp;
let heads: Head[];
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  t = await createTestApp({ env: { WEBHOOK_TIMEOUT_SECONDS: '1', WEBHOOK_MAX_ENDPOINTS: '3' } });
  heads = await seedHeads(t, 10);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop().catch(() => undefined)));
  await t?.close();
});

async function receiver(): Promise<WebhookReceiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

interface Setup {
  person: SignedInPerson;
  key: TestKey;
  endpointId: string;
  secret: string;
  receiver: WebhookReceiver;
}

/** A signed-in person with credits, a key on their account and an endpoint at a fresh receiver. */
async function setup(events: string[] = ['question.reserved', 'question.completed']): Promise<Setup> {
  const person = await signIn(t, newEmail('hooks'));
  const key = await t.makeKey(undefined, null, { accountId: person.personalAccountId });
  await grant(t, person.personalAccountId, 5_000);
  const r = await receiver();
  const created = await t.inject({ method: 'POST', url: '/v1/webhooks/endpoints', headers: person.auth, payload: { url: r.url, events } });
  expect(created.statusCode, created.body).toBe(200);
  const { endpoint } = created.json();
  r.secrets.push(endpoint.secret);
  return { person, key, endpointId: endpoint.id, secret: endpoint.secret, receiver: r };
}

const deliver = () => t.container.webhookDelivery.deliverDue();

async function deliveriesOf(s: Setup) {
  const response = await t.inject({ method: 'GET', url: `/v1/webhooks/endpoints/${s.endpointId}/deliveries`, headers: s.person.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().deliveries as Array<Record<string, any>>;
}

async function endpointOf(s: Setup) {
  const response = await t.inject({ method: 'GET', url: `/v1/webhooks/endpoints/${s.endpointId}`, headers: s.person.auth });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().endpoint as Record<string, any>;
}

/** Moves the clock past the next retry of every delivery that failed, then delivers. */
async function afterRetryDelay(step: number): Promise<void> {
  t.clock.advance(Math.ceil(RETRY_DELAYS_MS[step] * 1.1) + 1000);
  await deliver();
}

describe('endpoints (portal session only)', () => {
  it('creates one exactly as the spec says, the secret in full once and masked after', async () => {
    const person = await signIn(t, newEmail('hooks'));
    const created = await t.inject({ method: 'POST', url: '/v1/webhooks/endpoints', headers: person.auth, payload: { url: 'http://127.0.0.1:9/hook', events: ['question.completed'] } });
    expect(created.statusCode, created.body).toBe(200);
    const { endpoint } = created.json();
    expect(endpoint).toMatchObject({ url: 'http://127.0.0.1:9/hook', events: ['question.completed'], lastDeliveryAt: null, lastStatus: null, enabled: true, disabledReason: null, lastSuccessAt: null });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint.id).toMatch(/^whe_/);

    const listed = await t.inject({ method: 'GET', url: '/v1/webhooks/endpoints', headers: person.auth });
    expect(listed.statusCode).toBe(200);
    const [shown] = listed.json().endpoints;
    expect(shown.id).toBe(endpoint.id);
    expect(shown.secret).toBe(`whsec_…${endpoint.secret.slice(-4)}`);
    // Stored sealed, never in plain text.
    const row = await t.db.selectFrom('webhook_endpoints').select('secret_box').where('id', '=', endpoint.id).executeTakeFirstOrThrow();
    expect(row.secret_box).not.toContain(endpoint.secret.slice(6, 30));
  });

  it('refuses API keys, bad bodies and other accounts, and bounds the count', async () => {
    const person = await signIn(t, newEmail('hooks'));
    const key = await t.makeKey(undefined, null, { accountId: person.personalAccountId });
    const byKey = await t.inject({ method: 'GET', url: '/v1/webhooks/endpoints', headers: key.auth });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error.code).toBe('insufficient_scope');
    const post = (payload: unknown) => t.inject({ method: 'POST', url: '/v1/webhooks/endpoints', headers: person.auth, payload: payload as object });
    for (const bad of [{ url: 'http://127.0.0.1:9/h' }, { url: 'http://127.0.0.1:9/h', events: [] }, { url: 'http://127.0.0.1:9/h', events: ['question.nope'] }, { url: 'not a url', events: ['credits.low'] }, { url: 'http://127.0.0.1:9/h', events: ['credits.low'], secret: 'mine' }, { url: 'ftp://127.0.0.1/h', events: ['credits.low'] }, { url: 'http://a:b@127.0.0.1:9/h', events: ['credits.low'] }, { url: 'http://127.0.0.1:9/h#x', events: ['credits.low'] }]) {
      const response = await post(bad);
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(response.json().error.code).toBe('validation_failed');
    }
    expect(await t.db.selectFrom('webhook_endpoints').select('id').where('account_id', '=', person.personalAccountId).execute()).toEqual([]);
    for (let i = 0; i < 3; i++) expect((await post({ url: `http://127.0.0.1:9/h${i}`, events: ['credits.low'] })).statusCode).toBe(200);
    const fourth = await post({ url: 'http://127.0.0.1:9/h4', events: ['credits.low'] });
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json().error.message).toContain('at most 3');

    const other = await signIn(t, newEmail('other'));
    const mine = (await t.inject({ method: 'GET', url: '/v1/webhooks/endpoints', headers: person.auth })).json().endpoints[0].id;
    for (const [method, url] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/rotate-secret'], ['POST', '/test'], ['GET', '/deliveries']] as const) {
      const response = await t.inject({ method, url: `/v1/webhooks/endpoints/${mine}${url}`, headers: other.auth, ...(method === 'PATCH' ? { payload: { description: 'x' } } : {}) });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
  });

  it('changes, turns off and on, and deletes an endpoint', async () => {
    const s = await setup();
    const patch = (payload: object) => t.inject({ method: 'PATCH', url: `/v1/webhooks/endpoints/${s.endpointId}`, headers: s.person.auth, payload });
    const changed = await patch({ events: ['credits.low', 'question.completed'], description: 'Slack bridge' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().endpoint).toMatchObject({ events: ['credits.low', 'question.completed'], description: 'Slack bridge' });
    const unchanged = await patch({});
    expect(unchanged.statusCode).toBe(200);
    expect(unchanged.json().endpoint).toEqual(changed.json().endpoint);
    expect((await patch({ enabled: false })).json().endpoint).toMatchObject({ enabled: false, disabledReason: 'Turned off by a person.' });
    expect((await patch({ enabled: true })).json().endpoint).toMatchObject({ enabled: true, disabledReason: null });
    const removed = await t.inject({ method: 'DELETE', url: `/v1/webhooks/endpoints/${s.endpointId}`, headers: s.person.auth });
    expect(removed.json()).toEqual({ ok: true });
    expect((await t.inject({ method: 'GET', url: `/v1/webhooks/endpoints/${s.endpointId}`, headers: s.person.auth })).statusCode).toBe(404);
  });
});

describe('delivery to a real receiver', () => {
  it("delivers a question's life, reserved then completed, each verified by a Standard Webhooks library", async () => {
    const s = await setup();
    const question = await ask(t, s.key, choiceDraft());
    await deliver();
    t.clock.advance(60_000);
    await answerAll(t, question.id, heads.slice(0, 10));
    await deliver();
    const verified = s.receiver.received.map((r) => r.verified);
    expect(verified.map((v) => v?.type)).toEqual(['question.reserved', 'question.completed']);
    expect(verified.every((v) => v !== null)).toBe(true);
    expect(new Set(s.receiver.ids()).size).toBe(2);
    expect(s.receiver.received[0].userAgent).toMatch(/^Headcount-Webhooks\//);
    const completed = verified[1]!;
    expect(completed.id).toBe(s.receiver.received[1].id);
    expect(Date.parse(completed.createdAt)).not.toBeNaN();
    expect(JSON.stringify(completed.data)).toContain(question.id);

    const endpoint = await endpointOf(s);
    expect(endpoint).toMatchObject({ lastStatus: 204, enabled: true });
    expect(endpoint.lastSuccessAt).toBe(endpoint.lastDeliveryAt);
    const deliveries = await deliveriesOf(s);
    expect(deliveries.map((d) => [d.type, d.status, d.attempts, d.lastStatus])).toEqual([
      ['question.completed', 'succeeded', 1, 204],
      ['question.reserved', 'succeeded', 1, 204],
    ]);
    expect(deliveries[0].responseTimeMs).toBeGreaterThanOrEqual(0);
  });

  it('sends only the events an endpoint subscribed to, and nothing to a turned-off endpoint, whose log keeps what it missed to redeliver', async () => {
    const s = await setup(['question.completed']);
    await ask(t, s.key, choiceDraft());
    await deliver();
    expect(s.receiver.received).toEqual([]);
    expect(await deliveriesOf(s)).toEqual([]);
    await t.inject({ method: 'PATCH', url: `/v1/webhooks/endpoints/${s.endpointId}`, headers: s.person.auth, payload: { events: ['question.reserved'], enabled: false } });
    const missed = await ask(t, s.key, choiceDraft());
    await deliver();
    expect(s.receiver.received).toEqual([]);
    // Missed while off: in the log as failed, never attempted, and redelivered once it is back on.
    const [delivery] = await deliveriesOf(s);
    expect(delivery).toMatchObject({ type: 'question.reserved', status: 'failed', attempts: 0, lastError: 'The endpoint was turned off.', completedAt: expect.any(String) });
    const redeliver = () => t.inject({ method: 'POST', url: `/v1/webhooks/endpoints/${s.endpointId}/deliveries/${delivery.eventId}/redeliver`, headers: s.person.auth });
    expect((await redeliver()).statusCode).toBe(409);
    await t.inject({ method: 'PATCH', url: `/v1/webhooks/endpoints/${s.endpointId}`, headers: s.person.auth, payload: { enabled: true } });
    expect((await redeliver()).statusCode).toBe(202);
    await deliver();
    expect(s.receiver.received).toHaveLength(1);
    expect(JSON.stringify(s.receiver.received[0].verified?.data)).toContain(missed.id);
    expect((await deliveriesOf(s))[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('retries through 500s, resets and timeouts with the same webhook-id, then succeeds', async () => {
    const s = await setup(['question.reserved']);
    const faults = [500, 'reset', 'hang', { status: 503, headers: { 'retry-after': '1' } }] as const;
    s.receiver.behave = (_d, i) => faults[i] ?? 200;
    await ask(t, s.key, choiceDraft());
    await deliver();
    for (let step = 0; step < faults.length; step++) await afterRetryDelay(step);
    const ids = s.receiver.received.map((r) => r.id);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(1);
    expect(s.receiver.received.every((r) => r.verified !== null)).toBe(true);

    const [delivery] = await deliveriesOf(s);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 5, lastStatus: 200, lastError: null });
    const detail = await t.inject({ method: 'GET', url: `/v1/webhooks/endpoints/${s.endpointId}/deliveries/${delivery.eventId}`, headers: s.person.auth });
    const { attempts, event } = detail.json();
    expect(attempts.map((a: any) => a.status)).toEqual([500, null, null, 503, 200]);
    expect(attempts[1].error).toMatch(/reset|closed/i);
    expect(attempts[2].error).toMatch(/no complete response .* within 1000 ms/i);
    expect(event.id).toBe(delivery.eventId);
    expect((await endpointOf(s)).lastSuccessAt).not.toBeNull();
  });

  it('the pause before a retry counts from the end of the attempt: one that took long gets its full pause', async () => {
    const s = await setup(['question.reserved']);
    // The attempt takes 60 s of the service's clock (the receiver moves it on while it answers).
    s.receiver.behave = (_d, i) => {
      if (i === 0) t.clock.advance(60_000);
      return i === 0 ? 500 : 200;
    };
    await ask(t, s.key, choiceDraft());
    const started = t.clock.now().getTime();
    await deliver();
    const [delivery] = await deliveriesOf(s);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 500 });
    const wait = new Date(delivery.nextAttemptAt).getTime() - started;
    expect(wait).toBeGreaterThanOrEqual(60_000 + RETRY_DELAYS_MS[0] * 0.9);
    expect(wait).toBeLessThanOrEqual(60_000 + RETRY_DELAYS_MS[0] * 1.1 + 1);
  });

  it('a receiver down for a while gets every event once it is back, and none is lost', async () => {
    const s = await setup(['question.reserved']);
    await s.receiver.stop();
    const asked = [await ask(t, s.key, choiceDraft()), await ask(t, s.key, choiceDraft()), await ask(t, s.key, choiceDraft())];
    await deliver();
    await afterRetryDelay(0);
    const down = await deliveriesOf(s);
    expect(down.every((d) => d.status === 'pending' && d.attempts === 2 && d.lastStatus === null && /could not connect|refused/i.test(d.lastError))).toBe(true);
    await s.receiver.restart();
    await afterRetryDelay(1);
    expect(s.receiver.received).toHaveLength(3);
    expect(s.receiver.received.map((r) => JSON.stringify(r.verified?.data)).every((data, i, all) => all.indexOf(data) === i)).toBe(true);
    for (const q of asked) expect(s.receiver.received.some((r) => JSON.stringify(r.verified?.data).includes(q.id))).toBe(true);
  });

  it('an endpoint that fails for the whole schedule is turned off with a reason, and its owner is mailed', async () => {
    const s = await setup(['question.reserved']);
    s.receiver.behave = () => 500;
    await ask(t, s.key, choiceDraft());
    await deliver();
    for (let step = 0; step < RETRY_DELAYS_MS.length; step++) await afterRetryDelay(step);
    expect(s.receiver.received).toHaveLength(10);
    const endpoint = await endpointOf(s);
    expect(endpoint.enabled).toBe(false);
    expect(endpoint.disabledReason).toMatch(/^Every delivery failed for \d+ hours \(last: HTTP 500\)\.$/);
    expect(endpoint.lastStatus).toBe(500);
    const [delivery] = await deliveriesOf(s);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 10, nextAttemptAt: null });
    const mail = t.container.mailer.mailbox()!.list().find((m) => m.to === s.person.email && /webhook endpoint was turned off/.test(m.subject));
    expect(mail?.text).toContain(s.receiver.url);
    // Nothing more is sent to it.
    await ask(t, s.key, choiceDraft());
    t.clock.advance(DAY_MS);
    await deliver();
    expect(s.receiver.received).toHaveLength(10);
  });

  it('a delivery that ran out of retries does not turn off an endpoint that succeeds meanwhile', async () => {
    const s = await setup(['question.reserved']);
    s.receiver.behave = (d) => (d.body.includes('poison') ? 500 : 200);
    await ask(t, s.key, choiceDraft({ text: 'A poison question for the receiver?' }));
    await deliver();
    for (let step = 0; step < RETRY_DELAYS_MS.length; step++) {
      await ask(t, s.key, choiceDraft());
      await afterRetryDelay(step);
    }
    const endpoint = await endpointOf(s);
    expect(endpoint.enabled).toBe(true);
    const failed = (await deliveriesOf(s)).filter((d) => d.status === 'failed');
    expect(failed).toHaveLength(1);
  });

  it('410 Gone turns the endpoint off at once', async () => {
    const s = await setup(['question.reserved']);
    s.receiver.behave = () => 410;
    await ask(t, s.key, choiceDraft());
    await deliver();
    const endpoint = await endpointOf(s);
    expect(endpoint).toMatchObject({ enabled: false, lastStatus: 410 });
    expect(endpoint.disabledReason).toContain('410');
  });

  it('rotating the secret: both sign for 24 hours, then only the new one', async () => {
    const s = await setup(['question.reserved']);
    const rotated = await t.inject({ method: 'POST', url: `/v1/webhooks/endpoints/${s.endpointId}/rotate-secret`, headers: s.person.auth });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const fresh = rotated.json().endpoint.secret;
    expect(fresh).not.toBe(s.secret);
    expect(Date.parse(rotated.json().endpoint.previousSecretExpiresAt) - t.clock.now().getTime()).toBe(24 * HOUR_MS);
    await ask(t, s.key, choiceDraft());
    await deliver();
    const both = s.receiver.received[0];
    expect(both.signature.split(' ')).toHaveLength(2);
    s.receiver.secrets.splice(0, 1, fresh);
    t.clock.advance(25 * HOUR_MS);
    await ask(t, s.key, choiceDraft());
    await deliver();
    const after = s.receiver.received[1];
    expect(after.signature.split(' ')).toHaveLength(1);
    expect((await endpointOf(s)).previousSecretExpiresAt).toBeNull();
    expect(after.verified).not.toBeNull();
    s.receiver.secrets.splice(0, 1, s.secret);
    expect(s.receiver.received.length).toBe(2);
  });

  it('a test event with no body is the default kind; a JSON null body is a 400 and sends nothing', async () => {
    const s = await setup(['question.reserved']);
    const test = (extra: Record<string, unknown>) => t.inject({ method: 'POST', url: `/v1/webhooks/endpoints/${s.endpointId}/test`, ...extra });
    const nullBody = await test({ headers: { ...s.person.auth, 'content-type': 'application/json' }, payload: 'null' });
    expect(nullBody.statusCode, nullBody.body).toBe(400);
    expect(nullBody.json().error.code).toBe('validation_failed');
    expect(await deliveriesOf(s)).toEqual([]);
    const bare = await test({ headers: s.person.auth });
    expect(bare.statusCode, bare.body).toBe(202);
    expect(bare.json().delivery).toMatchObject({ test: true, status: 'pending' });
  });

  it('a test event reaches this endpoint only; a delivery can be sent again with the same id', async () => {
    const s = await setup(['question.reserved']);
    const other = await t.inject({ method: 'POST', url: '/v1/webhooks/endpoints', headers: s.person.auth, payload: { url: (await receiver()).url, events: ['question.reserved', 'question.completed'] } });
    expect(other.statusCode).toBe(200);
    const sent = await t.inject({ method: 'POST', url: `/v1/webhooks/endpoints/${s.endpointId}/test`, headers: s.person.auth, payload: { type: 'question.completed' } });
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.json().delivery).toMatchObject({ type: 'question.completed', test: true, status: 'pending' });
    await deliver();
    expect(s.receiver.received).toHaveLength(1);
    expect(s.receiver.received[0].verified).toMatchObject({ type: 'question.completed', data: { test: true, endpointId: s.endpointId } });
    expect(receivers.at(-1)!.received).toEqual([]);

    const eventId = sent.json().delivery.eventId;
    const again = await t.inject({ method: 'POST', url: `/v1/webhooks/endpoints/${s.endpointId}/deliveries/${eventId}/redeliver`, headers: s.person.auth });
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json().delivery).toMatchObject({ status: 'pending', attempts: 1 });
    await deliver();
    expect(s.receiver.received.map((r) => r.id)).toEqual([eventId, eventId]);
    expect((await deliveriesOf(s))[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
    const missing = await t.inject({ method: 'POST', url: `/v1/webhooks/endpoints/${s.endpointId}/deliveries/evt_nothing/redeliver`, headers: s.person.auth });
    expect(missing.statusCode).toBe(404);
  });

  it('a slow receiver does not delay another endpoint', async () => {
    const slow = await setup(['question.reserved']);
    slow.receiver.behave = () => 'hang';
    const fast = await receiver();
    const added = await t.inject({ method: 'POST', url: '/v1/webhooks/endpoints', headers: slow.person.auth, payload: { url: fast.url, events: ['question.reserved'] } });
    fast.secrets.push(added.json().endpoint.secret);
    await ask(t, slow.key, choiceDraft());
    const delivery = t.container.webhookDelivery;
    const claimed = await delivery.claim(4);
    expect(claimed).toHaveLength(2);
    const started = performance.now();
    const fastAttempt = delivery.attempt(claimed.find((c) => c.endpoint_id !== slow.endpointId)!);
    const slowAttempt = delivery.attempt(claimed.find((c) => c.endpoint_id === slow.endpointId)!);
    await fastAttempt;
    expect(performance.now() - started).toBeLessThan(900);
    expect(fast.received).toHaveLength(1);
    await slowAttempt;
  });

  it("a hanging receiver's backlog does not starve another endpoint (the dispatcher, as workers run it)", async () => {
    const slow = await setup(['question.reserved']);
    slow.receiver.behave = () => 'hang';
    const fast = await receiver();
    const added = await t.inject({ method: 'POST', url: '/v1/webhooks/endpoints', headers: slow.person.auth, payload: { url: fast.url, events: ['credits.low'] } });
    fast.secrets.push(added.json().endpoint.secret);
    const fastId = added.json().endpoint.id;
    // A backlog of 80 for the hanging endpoint, older than the 5 for the other one.
    for (let i = 0; i < 80; i++) await t.container.webhooks.sendTest(actorOf(slow), slow.endpointId);
    t.clock.advance(1000);
    for (let i = 0; i < 5; i++) await t.container.webhooks.sendTest(actorOf(slow), fastId);
    // Eight slots; the hanging endpoint may hold WEBHOOK_PER_ENDPOINT (4) of them, never more.
    const dispatcher = createWebhookDispatcher({ delivery: t.container.webhookDelivery, concurrency: 8, pollMs: 50, log: { error: () => undefined } });
    dispatcher.start();
    const started = performance.now();
    while (fast.received.length < 5 && performance.now() - started < 5000) await new Promise((r) => setTimeout(r, 50));
    await dispatcher.stop();
    expect(fast.received.filter((r) => r.verified)).toHaveLength(5);
    // At most four attempts at a time to the hanging endpoint, each cut by the 1 s timeout.
    expect(slow.receiver.received.length).toBeGreaterThanOrEqual(4);
    expect(slow.receiver.received.length).toBeLessThanOrEqual(4 * (Math.ceil((performance.now() - started) / 1000) + 1));
  });
});

