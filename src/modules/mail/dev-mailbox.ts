import { randomUUID } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import type { DevMailbox, KeptMessage, MailLog, MailMessage } from './mail.types.ts';

/** Enough to find the last few sign-in codes, small enough that a long-running dev server stays small. */
export const DEV_MAILBOX_SIZE = 100;

/**
 * Mail with no SMTP server (development and test only: config refuses production without
 * SMTP_URL). Messages are kept in memory, newest first, for the dev mailbox page and tests, and
 * logged whole, because in development the log is where a person reads their sign-in code.
 */
export function createDevMailbox(clock: Clock, log: MailLog): DevMailbox & { keep(message: MailMessage): KeptMessage } {
  const messages: KeptMessage[] = [];
  return {
    keep(message) {
      const kept: KeptMessage = Object.freeze({
        id: randomUUID(),
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
        sentAt: clock.now(),
      });
      messages.unshift(kept);
      if (messages.length > DEV_MAILBOX_SIZE) messages.length = DEV_MAILBOX_SIZE;
      log.info({ mail: { id: kept.id, to: kept.to, subject: kept.subject, text: kept.text } }, 'mail kept in the dev mailbox (no SMTP_URL)');
      return kept;
    },
    list: () => messages.slice(),
    get: (id) => messages.find((m) => m.id === id) ?? null,
  };
}
