import { expect } from 'vitest';
import type { TestApp } from './test-app.ts';

/**
 * Signing in as a person would (docs/portal.md "Signing in"): ask for a code over HTTP, read it
 * from the dev mailbox (tests run without SMTP_URL, so mail stays in memory), and trade it for a
 * session. Every sign-in comes from its own made-up IP address unless one is given, so the
 * per-IP limit of one test does not spill into the next.
 */
export interface SignedInPerson {
  email: string;
  token: string;
  personId: string;
  personalAccountId: string;
  sessionId: string;
  /** Headers to spread into an inject call; `as(accountId)` adds Headcount-Account. */
  auth: { authorization: string };
  as(accountId: string): { authorization: string; 'headcount-account': string };
}

let people = 0;
let ips = 0;

/** A fresh address (`person-N@example.org` unless a name is given). */
export function newEmail(name = 'person'): string {
  people += 1;
  return `${name}-${people}-${Math.random().toString(36).slice(2, 8)}@example.org`;
}

/** A loopback-looking address of its own for each caller (inject's remoteAddress). */
export function newIp(): string {
  ips += 1;
  return `10.${(ips >> 16) & 255}.${(ips >> 8) & 255}.${ips & 255}`;
}

/** The newest mail to `email` in the dev mailbox. */
export function lastMailTo(t: TestApp, email: string) {
  const box = t.container.mailer.mailbox();
  if (!box) throw new Error('the test app has SMTP_URL set: there is no dev mailbox');
  const mail = box.list().find((m) => m.to === email);
  if (!mail) throw new Error(`no mail to ${email} in the dev mailbox`);
  return mail;
}

/** The code and the link token of the newest sign-in mail to `email`. */
export function signInMailOf(t: TestApp, email: string): { code: string; link: string; linkToken: string } {
  const mail = lastMailTo(t, email);
  const code = /\b(\d{6})\b/.exec(mail.subject)?.[1];
  const link = /(https?:\/\/\S+\/app\/sign-in\/link\?token=([A-Za-z0-9_-]+))/.exec(mail.text);
  if (!code || !link) throw new Error(`no code or link in: ${mail.subject}\n${mail.text}`);
  return { code, link: link[1], linkToken: link[2] };
}

export async function requestCode(t: TestApp, email: string, ip = newIp(), headers: Record<string, string> = {}) {
  return t.inject({ method: 'POST', url: '/v1/auth/sign-in', payload: { email }, remoteAddress: ip, headers });
}

export async function signIn(t: TestApp, email = newEmail(), options: { ip?: string; headers?: Record<string, string> } = {}): Promise<SignedInPerson> {
  const ip = options.ip ?? newIp();
  const started = await requestCode(t, email, ip, options.headers);
  expect(started.statusCode, started.body).toBe(202);
  const { code } = signInMailOf(t, email);
  const verified = await t.inject({ method: 'POST', url: '/v1/auth/sign-in/verify', payload: { email, code }, remoteAddress: ip, headers: options.headers });
  expect(verified.statusCode, verified.body).toBe(200);
  const body = verified.json();
  const auth = { authorization: `Bearer ${body.token}` };
  return {
    email: body.person.email,
    token: body.token,
    personId: body.person.id,
    personalAccountId: body.person.personalAccountId,
    sessionId: body.session.id,
    auth,
    as: (accountId: string) => ({ ...auth, 'headcount-account': accountId }),
  };
}
