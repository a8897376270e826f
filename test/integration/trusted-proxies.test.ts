import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestKey } from '../helpers/test-app.ts';
import { ask, choiceDraft, grant, sleep } from '../helpers/questions.ts';
import { call, listen, startFakeSiteverify, type FakeSiteverify, type Reply } from '../helpers/real-http.ts';

/**
 * TRUSTED_PROXIES (RELIABILITY R8.3; README "Configuration"): a client-set X-Forwarded-For never
 * changes who the client is unless the hop that sent it is trusted. Checked as an attacker would,
 * over real sockets from distinct loopback addresses (127.0.0.x: the server sees each as the peer),
 * in production, where the header used to be believed from anyone. What is observed: the per-IP
 * rate limit (its `x-ratelimit-remaining`), the answer link's per-IP limit, and the `remoteip` the
 * server sends to a local stand-in for Cloudflare's siteverify.
 */
const SECRET = '0x4AAAAAAAproxysecret';
const PER_IP = 4;
const LINK_PER_IP = 2;

let verifier: FakeSiteverify;
beforeAll(async () => {
  verifier = await startFakeSiteverify(SECRET);
});
afterAll(async () => {
  await verifier?.close();
});

interface Served {
  t: TestApp;
  base: string;
  owner: TestKey;
  close(): Promise<void>;
}

async function serve(env: Record<string, string>): Promise<Served> {
  const t = await createTestApp({
    env: {
      NODE_ENV: 'production',
      TURNSTILE_SECRET: SECRET,
      TURNSTILE_SITE_KEY: '0x4AAAAAAAproxysite',
      TURNSTILE_VERIFY_URL: verifier.url,
      // Production requires SMTP; nothing here sends mail.
      SMTP_URL: 'smtp://127.0.0.1:2525',
      SESSION_SECRET: 'trusted-proxies-test-session-secret-32+',
      STRIPE_SECRET_KEY: 'sk_test_trustedproxies',
      STRIPE_WEBHOOK_SECRET: 'whsec_trustedproxies',
      MAIL_FROM: 'no-reply@localhost',
      RATE_LIMIT_PER_IP: String(PER_IP),
      RATE_LIMIT_PER_KEY: '100000',
      LINK_ANSWERS_PER_IP: String(LINK_PER_IP),
      ...env,
    },
  });
  const base = await listen(t.app);
  const owner = await t.makeKey();
  await grant(t, owner.accountId, 100_000);
  return { t, base, owner, close: () => Promise.race([t.close(), sleep(5_000)]).then(() => undefined) };
}

let spoofs = 0;
/** An address no request has claimed before. */
const spoof = () => `203.0.113.${++spoofs}`;

const config = (s: Served, from: string, forwardedFor?: string) => call(s.base, '/v1/config', { from, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });

function answer(s: Served, code: string, from: string, forwardedFor?: string): Promise<Reply> {
  return call(s.base, `/v1/public/link/${code}/answers`, {
    method: 'POST',
    from,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    json: { answer: { option: 0 }, nonce: randomUUID(), humanCheckToken: verifier.token() },
  });
}

const remaining = (reply: Reply) => Number(reply.headers['x-ratelimit-remaining']);
const lastRemoteIp = () => verifier.calls.at(-1)?.remoteip;

function expectLimited(reply: Reply): void {
  expect(reply.status, reply.body.slice(0, 200)).toBe(429);
  expect(JSON.parse(reply.body).error.code).toBe('rate_limited');
  expect(Number(reply.headers['retry-after'])).toBeGreaterThan(0);
}

describe('by default no proxy is trusted, in production too', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({});
  });
  afterAll(async () => {
    await s?.close();
  });

  it('a new X-Forwarded-For on every request does not make a new client: the per-IP limit trips', async () => {
    const from = '127.0.0.11';
    for (let i = 1; i <= PER_IP; i++) {
      const reply = await config(s, from, spoof());
      expect(reply.status, reply.body).toBe(200);
      expect(remaining(reply), `request ${i}`).toBe(PER_IP - i);
    }
    expectLimited(await config(s, from, spoof()));
    expectLimited(await config(s, from, `${spoof()}, ${spoof()}`));
    // Another real client is not affected.
    expect((await config(s, '127.0.0.12')).status).toBe(200);
  });

  it("the answer link's per-IP limit holds whatever the header says", async () => {
    const question = await ask(s.t, s.owner, choiceDraft({ n: 20 }));
    const from = '127.0.0.13';
    for (let i = 0; i < LINK_PER_IP; i++) {
      const reply = await answer(s, question.linkCode, from, spoof());
      expect(reply.status, reply.body).toBe(200);
      expect(JSON.parse(reply.body).accepted).toBe(true);
    }
    expectLimited(await answer(s, question.linkCode, from, spoof()));
  });

  it('the human check is sent the socket address as remoteip, not the header', async () => {
    const question = await ask(s.t, s.owner, choiceDraft({ n: 20 }));
    const reply = await answer(s, question.linkCode, '127.0.0.14', '198.51.100.99');
    expect(reply.status, reply.body).toBe(200);
    expect(lastRemoteIp()).toBe('127.0.0.14');
  });
});

describe('TRUSTED_PROXIES=127.0.0.1: the header counts only when that hop sent it', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({ TRUSTED_PROXIES: '127.0.0.1' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('through the proxy, each forwarded client has its own budget; one client still trips its own', async () => {
    for (let i = 0; i < 3; i++) {
      const reply = await config(s, '127.0.0.1', spoof());
      expect(reply.status).toBe(200);
      expect(remaining(reply)).toBe(PER_IP - 1);
    }
    const client = spoof();
    for (let i = 0; i < PER_IP; i++) expect((await config(s, '127.0.0.1', client)).status).toBe(200);
    expectLimited(await config(s, '127.0.0.1', client));
    // What a client wrote before the proxy appended the address it saw is not believed either.
    expectLimited(await config(s, '127.0.0.1', `${spoof()}, ${client}`));
  });

  it('from any other address the header is ignored', async () => {
    const from = '127.0.0.21';
    for (let i = 0; i < PER_IP; i++) expect((await config(s, from, spoof())).status).toBe(200);
    expectLimited(await config(s, from, spoof()));
  });

  it('the human check gets the forwarded client through the proxy, the socket address otherwise', async () => {
    const question = await ask(s.t, s.owner, choiceDraft({ n: 20 }));
    expect((await answer(s, question.linkCode, '127.0.0.1', 'spoofed-by-client, 198.51.100.7')).status).toBe(200);
    expect(lastRemoteIp()).toBe('198.51.100.7');
    expect((await answer(s, question.linkCode, '127.0.0.22', '198.51.100.8')).status).toBe(200);
    expect(lastRemoteIp()).toBe('127.0.0.22');
  });
});

describe('TRUSTED_PROXIES=1: one hop, whoever it is', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({ TRUSTED_PROXIES: '1' });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('the client is the last address in the header; anything before it is the client talking', async () => {
    const client = spoof();
    const first = await config(s, '127.0.0.31', `${spoof()}, ${client}`);
    const second = await config(s, '127.0.0.32', `${spoof()}, ${spoof()}, ${client}`);
    expect([remaining(first), remaining(second)]).toEqual([PER_IP - 1, PER_IP - 2]);
    expect(remaining(await config(s, '127.0.0.31', spoof()))).toBe(PER_IP - 1);
  });
});
