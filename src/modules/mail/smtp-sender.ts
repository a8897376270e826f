import { createRequire } from 'node:module';
import type nodemailerModule from 'nodemailer';
import type { Clock } from '../../lib/clock.ts';
import { MailError, type MailMessage } from './mail.types.ts';

/**
 * Sending through an SMTP server with nodemailer. `smtp://` upgrades with STARTTLS when the server
 * offers it, `smtps://` is TLS from the first byte (port 465); user and password come from the URL.
 * The timeouts are shorter than nodemailer's (2 minutes to connect, 10 idle) so a silent server
 * fails a sign-in mail within seconds instead of holding the request that sends it.
 */
export function createSmtpSender(smtpUrl: string, from: string, clock: Clock) {
  // Loaded only when SMTP_URL is set (development keeps mail in its own mailbox): issue 15, start-up.
  const nodemailer = createRequire(import.meta.url)('nodemailer') as typeof nodemailerModule;
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  const where = redactSmtpUrl(smtpUrl);
  return {
    async send(message: MailMessage): Promise<void> {
      try {
        await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html, date: clock.now() });
      } catch (error) {
        const e = error as { message?: string; code?: string; responseCode?: number; permanent?: boolean };
        throw new MailError(`SMTP ${where} did not take the message: ${e.message ?? String(error)}`, { code: e.code, responseCode: e.responseCode, permanent: e.permanent }, { cause: error });
      }
    },
  };
}

/** The SMTP URL with its password replaced, for messages and logs: the password is never written anywhere. */
export function redactSmtpUrl(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    if (url.password) url.password = '***';
    return url.toString().replace(/\/$/, '');
  } catch {
    return '(an invalid SMTP URL)';
  }
}
