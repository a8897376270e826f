import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { failure } from '../helpers/questions.ts';
import { SCOPES, type Actor } from '../../src/lib/actor.ts';

/**
 * The safe sender in production mode (issue 12 point 5; R5.1): endpoint URLs must be https and
 * public when registered, and every delivery checks again the address it actually connects to,
 * so a name that moves to 127.0.0.1 after registration (DNS rebinding) reaches nothing.
 */
let t: TestApp;
let receiver: WebhookReceiver;
let owner: Actor;
/** What hooks.example.com resolves to: public until the test rebinds it. */
let rebound = false;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      NODE_ENV: 'production',
      TURNSTILE_SECRET: 'webhooks-production-test',
      TURNSTILE_SITE_KEY: '0x4AAAAAAAwebhooks',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      MAIL_FROM: 'no-reply@localhost',
      SESSION_SECRET: 'webhooks-production-test-session-secret-32+',
      STRIPE_SECRET_KEY: 'sk_test_webhooksproduction',
      STRIPE_WEBHOOK_SECRET: 'whsec_webhooksproduction',
    },
    outboundLookup: async (host) => {
      if (host === 'hooks.example.com') return [{ address: rebound ? '127.0.0.1' : '93.184.216.34', family: 4 }];
      if (host === 'intranet.example.com') return [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.5', family: 4 }];
      if (host === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    },
  });
  receiver = await startReceiver();
  const { accountId } = await t.makeKey();
  // A portal session's actor, as the routes hand it to the service (sign-in needs SMTP in production).
  owner = { accountId, keyId: null, scopes: SCOPES, dailyCapCredits: null, session: { id: 'ses_webhooks', personId: 'per_webhooks', role: 'owner' } };
});
afterAll(async () => {
  await receiver?.stop();
  await t?.close();
});

const create = (url: string) => t.container.webhooks.create(owner, { url, events: ['question.completed'] });

describe('webhooks in production', () => {
  it.each([
    ['http://hooks.example.com/h', /must use https/],
    ['https://127.0.0.1/h', /not public/],
    ['https://[::1]/h', /not public/],
    ['https://[::ffff:127.0.0.1]/h', /not public/],
    ['https://169.254.169.254/latest/meta-data', /not public/],
    ['https://10.1.2.3/h', /not public/],
    ['https://localhost/h', /not public/],
    ['https://intranet.example.com/h', /not public/],
    ['https://nowhere.example.com/h', /could not be resolved/],
  ])('refuses %s when it is registered', async (url, why) => {
    const error = await failure(create(url));
    expect(error.code).toBe('validation_failed');
    const [item] = (error.details as { validation: Array<{ field: string; message: string }> }).validation;
    expect(item.field).toBe('url');
    expect(item.message).toMatch(why);
  });

  it('checks the address again at delivery: a name rebound to 127.0.0.1 reaches nothing', async () => {
    const endpoint = await create(`https://hooks.example.com:${receiver.port}/hooks/headcount`);
    rebound = true;
    await t.container.webhooks.sendTest(owner, endpoint.id);
    await t.container.webhookDelivery.deliverDue();
    expect(receiver.received).toEqual([]);
    const { deliveries } = await t.container.webhooks.deliveries(owner, endpoint.id, undefined);
    expect(deliveries[0]).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null });
    expect(deliveries[0].lastError).toMatch(/hooks\.example\.com.*not public/);
    // The message names the host given, never the internal address it resolved to.
    expect(deliveries[0].lastError).not.toContain('127.0.0.1');
  });
});

describe('secrets at rest', () => {
  it('a secret sealed under a key no longer configured fails its deliveries with a reason, and rotating mends it', async () => {
    rebound = false;
    const endpoint = await t.container.webhooks.create(owner, { url: `https://hooks.example.com:${receiver.port}/h`, events: ['question.completed'] });
    // As if WEBHOOK_SECRETS_KEY had changed with no WEBHOOK_SECRETS_KEY_PREVIOUS: a box from another key.
    const { createSecretBox } = await import('../../src/lib/secret-box.ts');
    await t.db.updateTable('webhook_endpoints').set({ secret_box: createSecretBox(['another key of thirty-two characters!']).seal('whsec_x', endpoint.id) }).where('id', '=', endpoint.id).execute();
    const [listed] = (await t.container.webhooks.list(owner)).filter((e) => e.id === endpoint.id);
    expect(listed.secret).toMatch(/unreadable/);
    await t.container.webhooks.sendTest(owner, endpoint.id);
    await t.container.webhookDelivery.deliverDue();
    const { deliveries } = await t.container.webhooks.deliveries(owner, endpoint.id, undefined);
    expect(deliveries[0].lastError).toMatch(/signing secret cannot be read/);
    const rotated = await t.container.webhooks.rotateSecret(owner, endpoint.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect((await t.container.webhooks.get(owner, endpoint.id)).secret).toBe(`whsec_…${rotated.secret.slice(-4)}`);
    // The next attempt signs with the new secret (it fails at TLS: the receiver speaks plain http).
    t.clock.advance(60_000);
    await t.container.webhooks.sendTest(owner, endpoint.id);
    await t.container.webhookDelivery.deliverDue();
    const after = await t.container.webhooks.deliveries(owner, endpoint.id, undefined);
    expect(after.deliveries[0].lastError).not.toMatch(/signing secret/);
  });
});
