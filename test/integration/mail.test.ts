import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { createContainer } from '../../src/container.ts';
import { createMailer } from '../../src/modules/mail/mail.service.ts';
import { MailError, type MailLog } from '../../src/modules/mail/mail.types.ts';
import { createTestApp, testConfig, type TestApp } from '../helpers/test-app.ts';
import { freePort } from '../helpers/service-process.ts';

/**
 * Outgoing mail (issue 10, point 1; docs/mail.md) against a real SMTP server on 127.0.0.1
 * (smtp-server, the same project as nodemailer): what arrives is parsed back (mailparser) and
 * checked as a person would: From, To, Subject, the text and the html, and the login used.
 * Plain SMTP with AUTH and no TLS, as a local relay would be; smtps:// differs only in the socket.
 */
const USER = 'headcount';
// Characters a URL must percent-encode: the password arrives decoded at the server.
const PASSWORD = 's3cret@pa:ss/word';

interface Received {
  user: string | undefined;
  envelopeFrom: string | false;
  envelopeTo: string[];
  mail: ParsedMail;
}

const received: Received[] = [];
const logins: { user: string | undefined; ok: boolean }[] = [];
let server: SMTPServer;
let port: number;
let t: TestApp;

const smtpUrl = (password = PASSWORD) => `smtp://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}`;

beforeAll(async () => {
  server = new SMTPServer({
    secure: false,
    hideSTARTTLS: true, // no certificate here: nodemailer must not try to upgrade
    allowInsecureAuth: true, // AUTH over plain TCP, on 127.0.0.1 only
    authOptional: false,
    logger: false,
    onAuth(auth, _session, callback) {
      const ok = auth.username === USER && auth.password === PASSWORD;
      logins.push({ user: auth.username, ok });
      if (!ok) return callback(new Error('Invalid username or password'));
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({ user: session.user as string | undefined, envelopeFrom: session.envelope.mailFrom && session.envelope.mailFrom.address, envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        })
        .catch(callback);
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  port = (server.server.address() as AddressInfo).port;
  t = await createTestApp({ env: { SMTP_URL: smtpUrl(), MAIL_FROM: 'Headcount <no-reply@headcount.test>' }, now: '2026-03-01T10:00:00.000Z' });
});

afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

beforeEach(() => {
  received.length = 0;
  logins.length = 0;
});

function recorder(): MailLog & { lines: { obj: object; msg: string }[] } {
  const lines: { obj: object; msg: string }[] = [];
  return { lines, info: (obj, msg) => lines.push({ obj, msg }) };
}

describe('mail through SMTP (SMTP_URL set)', () => {
  it('the container\'s mailer delivers one message with the configured From, the To, Subject, text and html, logged in as the URL\'s user', async () => {
    expect(t.container.mailer.mailbox()).toBeNull();
    await t.container.mailer.send({ to: 'ada@example.org', subject: 'Your sign-in code: 123456', text: 'Your code is 123456.\nIt works for 10 minutes.', html: '<p>Your code is <b>123456</b>.</p>' });

    expect(logins).toEqual([{ user: USER, ok: true }]);
    expect(received).toHaveLength(1);
    const [{ user, envelopeFrom, envelopeTo, mail }] = received;
    expect(user).toBe(USER);
    expect(envelopeFrom).toBe('no-reply@headcount.test');
    expect(envelopeTo).toEqual(['ada@example.org']);
    expect(mail.from?.value).toEqual([{ name: 'Headcount', address: 'no-reply@headcount.test' }]);
    expect(mail.to).toMatchObject({ value: [{ address: 'ada@example.org' }] });
    expect(mail.subject).toBe('Your sign-in code: 123456');
    expect(mail.text?.trimEnd()).toBe('Your code is 123456.\nIt works for 10 minutes.');
    expect(mail.html).toBe('<p>Your code is <b>123456</b>.</p>');
    expect(mail.date?.toISOString()).toBe('2026-03-01T10:00:00.000Z'); // the injected clock
  });

  it('sends text only when no html is given, and non-ASCII subjects arrive intact', async () => {
    await t.container.mailer.send({ to: 'zoë@example.org', subject: 'Réponse à votre demande ✓', text: 'Merci — nous revenons vers vous.' });
    expect(received).toHaveLength(1);
    expect(received[0].mail.subject).toBe('Réponse à votre demande ✓');
    expect(received[0].mail.text?.trimEnd()).toBe('Merci — nous revenons vers vous.');
    expect(received[0].mail.html).toBe(false);
  });

  it('a wrong password rejects send with a MailError that names the SMTP problem and hides the password; nothing is delivered', async () => {
    const mailer = createMailer(testConfig({ SMTP_URL: smtpUrl('wrong-pass'), MAIL_FROM: 'no-reply@headcount.test' }), recorder(), t.clock);
    const error = await mailer.send({ to: 'ada@example.org', subject: 's', text: 't' }).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(MailError);
    const mailError = error as MailError;
    expect(mailError.message).toContain(`SMTP smtp://${USER}:***@127.0.0.1:${port} did not take the message`);
    expect(mailError.message).toMatch(/Invalid login|535/);
    expect(mailError.message).not.toContain('wrong-pass');
    expect(mailError.details).toMatchObject({ code: 'EAUTH', responseCode: 535, permanent: true });
    expect(logins).toEqual([{ user: USER, ok: false }]);
    expect(received).toEqual([]);
  });

  it('a server that is not there rejects send with a connection error', async () => {
    const closedPort = await freePort();
    const mailer = createMailer(testConfig({ SMTP_URL: `smtp://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${closedPort}` }), recorder(), t.clock);
    const error = await mailer.send({ to: 'ada@example.org', subject: 's', text: 't' }).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(MailError);
    expect((error as MailError).message).toMatch(/ECONNREFUSED/);
    expect((error as MailError).message).not.toContain(encodeURIComponent(PASSWORD));
    expect((error as MailError).message).toContain(`${USER}:***@`);
  });

  it('refuses a "to" that is not one plain address before connecting', async () => {
    await expect(t.container.mailer.send({ to: 'ada@example.org, eve@example.org', subject: 's', text: 't' })).rejects.toThrow(MailError);
    expect(logins).toEqual([]);
    expect(received).toEqual([]);
  });
});

describe('the dev mailbox (no SMTP_URL, development and test)', () => {
  it('is what the container wires without SMTP_URL: nothing reaches an SMTP server', async () => {
    const container = createContainer(testConfig(t.testDatabase.env), t.database, t.clock);
    await container.mailer.send({ to: 'ada@example.org', subject: 'Your sign-in code', text: 'Your code is 654321' });
    expect(container.mailer.mailbox()!.list()).toMatchObject([{ to: 'ada@example.org', subject: 'Your sign-in code', text: 'Your code is 654321', html: null, sentAt: t.clock.now() }]);
    expect(received).toEqual([]);
  });

  it('keeps messages newest first, at most 100, and logs each one with its text', async () => {
    const log = recorder();
    const mailer = createMailer(testConfig(), log, t.clock);
    for (let i = 1; i <= 103; i++) await mailer.send({ to: `p${i}@example.org`, subject: `Code ${i}`, text: `Your code is ${String(i).padStart(6, '0')}` });
    const list = mailer.mailbox()!.list();
    expect(list).toHaveLength(100);
    expect(list.map((m) => m.subject).slice(0, 2)).toEqual(['Code 103', 'Code 102']);
    expect(list.at(-1)!.subject).toBe('Code 4');
    expect(mailer.mailbox()!.get(list[0].id)!.text).toBe('Your code is 000103');
    expect(log.lines).toHaveLength(103);
    expect(log.lines.at(-1)).toEqual({ obj: { mail: { id: list[0].id, to: 'p103@example.org', subject: 'Code 103', text: 'Your code is 000103' } }, msg: 'mail kept in the dev mailbox (no SMTP_URL)' });
  });
});
