import type { Config } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { createDevMailbox } from './dev-mailbox.ts';
import { createSmtpSender } from './smtp-sender.ts';
import { MailError, type Mailer, type MailLog, type MailMessage } from './mail.types.ts';

/** One address, nothing around it: no list, no display name, no line break (so no added header or recipient). */
const PLAIN_ADDRESS = /^[^\s@,;<>"()]+@[^\s@,;<>"()]+$/;

/**
 * The mailer the container wires (docs/mail.md): SMTP when SMTP_URL is set, else the dev mailbox
 * (config allows that only outside production). Sign-in codes and support mail go through it.
 */
export function createMailer(config: Pick<Config, 'mail'>, log: MailLog, clock: Clock): Mailer {
  const checked = (message: MailMessage): MailMessage => {
    if (!PLAIN_ADDRESS.test(message.to)) throw new MailError('mail "to" must be one plain address (name@example.com)');
    return message;
  };
  const { smtpUrl, from } = config.mail;
  if (smtpUrl) {
    const smtp = createSmtpSender(smtpUrl, from, clock);
    return {
      send: async (message) => smtp.send(checked(message)),
      mailbox: () => null,
    };
  }
  const box = createDevMailbox(clock, log);
  return {
    send: async (message) => {
      box.keep(checked(message));
    },
    mailbox: () => box,
  };
}
