import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../lib/clock.ts';
import { createMailer } from './mail.service.ts';
import { DEV_MAILBOX_SIZE } from './dev-mailbox.ts';
import type { MailLog } from './mail.types.ts';

const DEV = { mail: { smtpUrl: null, from: 'Headcount <no-reply@localhost>' } };

function recorder(): MailLog & { lines: { obj: object; msg: string }[] } {
  const lines: { obj: object; msg: string }[] = [];
  return { lines, info: (obj, msg) => lines.push({ obj, msg }) };
}

describe('the dev mailbox (no SMTP_URL)', () => {
  it('keeps a message with an id, its fields and the clock\'s time, and logs what a person reads', async () => {
    const clock = new FakeClock('2026-03-01T10:00:00.000Z');
    const log = recorder();
    const mailer = createMailer(DEV, log, clock);
    await mailer.send({ to: 'ada@example.org', subject: 'Your sign-in code', text: 'Your code is 123456', html: '<p>Your code is <b>123456</b></p>' });
    const [kept] = mailer.mailbox()!.list();
    expect(kept).toEqual({ id: expect.any(String), to: 'ada@example.org', subject: 'Your sign-in code', text: 'Your code is 123456', html: '<p>Your code is <b>123456</b></p>', sentAt: new Date('2026-03-01T10:00:00.000Z') });
    expect(mailer.mailbox()!.get(kept.id)).toEqual(kept);
    expect(mailer.mailbox()!.get('nope')).toBeNull();
    expect(log.lines).toEqual([{ obj: { mail: { id: kept.id, to: 'ada@example.org', subject: 'Your sign-in code', text: 'Your code is 123456' } }, msg: 'mail kept in the dev mailbox (no SMTP_URL)' }]);
  });

  it('keeps the newest first and at most DEV_MAILBOX_SIZE, with html null when none was given', async () => {
    const clock = new FakeClock();
    const mailer = createMailer(DEV, recorder(), clock);
    for (let i = 1; i <= DEV_MAILBOX_SIZE + 5; i++) {
      await mailer.send({ to: `p${i}@example.org`, subject: `#${i}`, text: 'x' });
      clock.advance(1000);
    }
    const list = mailer.mailbox()!.list();
    expect(list).toHaveLength(100);
    expect(list[0]).toMatchObject({ subject: `#${DEV_MAILBOX_SIZE + 5}`, html: null });
    expect(list.at(-1)!.subject).toBe('#6');
    expect(new Set(list.map((m) => m.id)).size).toBe(100);
  });

  it('hands out a copy of the list: a caller cannot change what is kept', async () => {
    const mailer = createMailer(DEV, recorder(), new FakeClock());
    await mailer.send({ to: 'a@example.org', subject: 's', text: 't' });
    (mailer.mailbox()!.list() as unknown[]).length = 0;
    expect(mailer.mailbox()!.list()).toHaveLength(1);
  });

  it('refuses a "to" that is not one plain address, so user input cannot add a recipient or a header', async () => {
    const mailer = createMailer(DEV, recorder(), new FakeClock());
    for (const to of ['', 'ada', 'a@x.org, b@y.org', 'a@x.org;b@y.org', 'Ada <a@x.org>', 'a@x.org\r\nBcc: b@y.org']) {
      await expect(mailer.send({ to, subject: 's', text: 't' }), to).rejects.toThrow('mail "to" must be one plain address');
    }
    expect(mailer.mailbox()!.list()).toEqual([]);
  });
});
