import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { newEmail, newIp, signIn } from '../helpers/people.ts';
import { adminCommands, serviceCommand } from '../../src/cli/admin-commands.ts';
import { AppError } from '../../src/lib/errors.ts';
import { SCOPES, type Actor } from '../../src/lib/actor.ts';
import { createSupportRepository } from '../../src/modules/support/support.repository.ts';
import { createSupportService } from '../../src/modules/support/support.service.ts';
import { MailError } from '../../src/modules/mail/mail.types.ts';
import type { SupportTicketRequest } from '../../src/modules/support/support.schemas.ts';

/**
 * Support tickets (spec "Support"; docs/support.md): who a ticket is from and where the reply
 * goes (key, session, none), the hourly limit per credential or IP address counted in the
 * database, the honeypot and the too-fast form dropped silently, validation, the confirmation
 * and reply mail in the ticket's language, the admin CLI's queue and replies, and the portal's
 * service calls. Every response is checked against /openapi.json (t.inject).
 */
type Json = Record<string, any>;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const URL = '/v1/support/tickets';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const errorOf = (response: LightMyRequestResponse) => response.json().error;
const admin = (name: string, values: Record<string, string | boolean | undefined>) => serviceCommand(adminCommands[name]).run(t.container, values) as Promise<Json>;

let subjects = 0;
/** A valid body with a subject of its own, so a ticket can be found in the queue. */
function ticket(extra: Json = {}): Json {
  subjects += 1;
  return { subject: `Payout missing #${subjects}`, body: 'My payout from last week never arrived.', ...extra };
}

function post(payload: Json, options: { headers?: Record<string, string>; ip?: string } = {}) {
  return t.inject({ method: 'POST', url: URL, payload, headers: options.headers, remoteAddress: options.ip ?? newIp() });
}

async function created(response: LightMyRequestResponse): Promise<string> {
  expect(response.statusCode, response.body).toBe(201);
  const body = response.json();
  expect(Object.keys(body)).toEqual(['ticketId']);
  expect(body.ticketId).toMatch(/^tkt_[0-9A-Za-z]{20}$/);
  return body.ticketId;
}

const mailsTo = (email: string) => t.container.mailer.mailbox()!.list().filter((m) => m.to === email);

async function queued(ticketId: string): Promise<Json | undefined> {
  const { tickets } = await admin('ticket:list', { limit: '200' });
  return (tickets as Json[]).find((x) => x.id === ticketId);
}

function expectValidation(response: LightMyRequestResponse, field: string, code: string): Json {
  expect(response.statusCode, response.body).toBe(400);
  const error = errorOf(response);
  expect(error.code).toBe('validation_failed');
  expect(error.details.validation).toEqual(expect.arrayContaining([expect.objectContaining({ field, code })]));
  return error;
}

describe('who a ticket is from and where the reply goes', () => {
  it("an API key: the ticket records the account and the key; the reply goes to the account's address, not the body's", async () => {
    const person = await signIn(t);
    const key = await t.makeKey(['questions:read'], null, { accountId: person.personalAccountId });
    const id = await created(await post(ticket({ email: newEmail('ignored'), category: 'payout', appVersion: '3.2.1' }), { headers: key.auth }));

    const row = await queued(id);
    expect(row).toMatchObject({ replyTo: person.email, accountId: person.personalAccountId, keyId: key.keyId, personId: null, status: 'open', category: 'payout', appVersion: '3.2.1' });
    const [mail] = mailsTo(person.email);
    expect(mail.subject).toBe(`We got your message [${id}]`);
    expect(mail.text).toContain(id);
    expect(mail.text).toContain(row!.subject);
    expect(mail.text).toContain('We will reply to this email address');
    expect(row!.messages).toEqual([{ author: 'requester', body: 'My payout from last week never arrived.', createdAt: t.clock.now().toISOString(), mailedAt: t.clock.now().toISOString() }]);
  });

  it('a key whose account has no address (made by the admin CLI) needs email in the body: 400 without it, the body\'s address with it', async () => {
    const key = await t.makeKey(['account:read']);
    const refused = await post(ticket(), { headers: key.auth });
    const error = expectValidation(refused, 'email', 'required');
    expect(error.message).toMatch(/account has no email address/);

    const email = newEmail('cli-account');
    const id = await created(await post(ticket({ email: email.toUpperCase() }), { headers: key.auth }));
    expect(await queued(id)).toMatchObject({ replyTo: email, accountId: key.accountId, keyId: key.keyId });
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('no credential: email is required; with it, 201 and a confirmation in the dev mailbox', async () => {
    expectValidation(await post(ticket()), 'email', 'required');

    const email = newEmail('anonymous');
    const id = await created(await post(ticket({ email })));
    expect(await queued(id)).toMatchObject({ replyTo: email, accountId: null, keyId: null, personId: null, language: 'en' });
    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(id);
    expect(mails[0].html).toContain(id);
  });

  it("a bad credential on this public route counts as none: email required, then counted per IP address", async () => {
    const headers = { authorization: 'Bearer hc_live_nonsense' };
    expectValidation(await post(ticket(), { headers }), 'email', 'required');
    const email = newEmail('bad-credential');
    const id = await created(await post(ticket({ email }), { headers }));
    expect(await queued(id)).toMatchObject({ replyTo: email, accountId: null, keyId: null });
  });

  it("a portal session: the ticket records the person and the account; the reply goes to the person's address", async () => {
    const person = await signIn(t);
    const id = await created(await post(ticket({ email: newEmail('ignored') }), { headers: person.auth }));
    expect(await queued(id)).toMatchObject({ replyTo: person.email, personId: person.personId, accountId: person.personalAccountId, keyId: null });
    expect(mailsTo(person.email).map((m) => m.subject)).toContain(`We got your message [${id}]`);
  });
});

describe('the language of the mail', () => {
  it("the ticket's locale when it is one of the eight (pt-BR → pt), else the account's language, else English", async () => {
    const account = await t.container.accounts.createAccount({ name: 'Berlin GmbH', language: 'de' });
    const key = await t.makeKey(['account:read'], null, { accountId: account.id });

    const pt = newEmail('pt');
    const ptId = await created(await post(ticket({ email: pt, locale: 'pt-BR' })));
    expect(mailsTo(pt)[0].subject).toBe(`Recebemos a sua mensagem [${ptId}]`);

    const de = newEmail('de');
    const deId = await created(await post(ticket({ email: de, locale: 'xx' }), { headers: key.auth }));
    expect(mailsTo(de)[0].subject).toBe(`Wir haben deine Nachricht erhalten [${deId}]`);
    expect(await queued(deId)).toMatchObject({ language: 'de', locale: 'xx' });

    const en = newEmail('en');
    await created(await post(ticket({ email: en, locale: 'sv-SE' })));
    expect(mailsTo(en)[0].subject).toMatch(/^We got your message/);
  });

  it('a typed subject is escaped in the HTML part and kept to one line in the mail subject', async () => {
    const email = newEmail('html');
    const id = await created(await post(ticket({ email, subject: '<b>Broken</b>\r\nBcc: x@example.org' })));
    const reply = await admin('ticket:reply', { id, body: 'Thanks, <fixed> now.' });
    expect(reply.mailed).toBe(true);
    const [replyMail, confirmation] = mailsTo(email);
    expect(confirmation.html).toContain('&lt;b&gt;Broken&lt;/b&gt;');
    expect(confirmation.html).not.toContain('<b>Broken');
    expect(replyMail.subject).toBe(`Re: <b>Broken</b> Bcc: x@example.org [${id}]`);
    expect(replyMail.html).toContain('Thanks, &lt;fixed&gt; now.');
  });
});

describe('validation', () => {
  it.each([
    ['a 2-character subject', { subject: 'ab' }, 'subject', 'too_short'],
    ['a 9-character body', { body: '123456789' }, 'body', 'too_short'],
    ['a subject that is 3 characters only with its spaces', { subject: '  ab  ' }, 'subject', 'too_short'],
    ['a 141-character subject', { subject: 'x'.repeat(141) }, 'subject', 'too_long'],
    ['an unknown category', { category: 'refund' }, 'category', 'unknown_value'],
    ['an unknown property', { priority: 'high' }, 'priority', 'not_allowed'],
    ['an address that is not one', { email: 'not an address' }, 'email', 'invalid_format'],
    ['a negative openedAt', { openedAt: -1 }, 'openedAt', 'out_of_range'],
    ['an appVersion of 41 characters', { appVersion: '1'.repeat(41) }, 'appVersion', 'too_long'],
  ])('%s → 400', async (_name, change, field, code) => {
    const email = newEmail('invalid');
    expectValidation(await post({ ...ticket({ email }), ...change }), field, code);
    expect(mailsTo(email)).toEqual([]);
  });

  it('the subject and body are stored trimmed', async () => {
    const id = await created(await post(ticket({ email: newEmail(), subject: '  Hello there  ', body: '\n  Ten chars!!  \n' })));
    expect(await queued(id)).toMatchObject({ subject: 'Hello there', messages: [expect.objectContaining({ body: 'Ten chars!!' })] });
  });
});

describe('spam: the honeypot and the too-fast form', () => {
  it('a filled website field, a post 2 s after openedAt, and openedAt 2 minutes ahead: 201 like any ticket, but nothing queued and no mail', async () => {
    const now = t.clock.now().getTime();
    const cases = [{ website: 'https://spam.example' }, { openedAt: now - 2_000 }, { openedAt: now + 2 * MINUTE }];
    for (const extra of cases) {
      const email = newEmail('spam');
      const id = await created(await post(ticket({ email, ...extra })));
      expect(await queued(id), JSON.stringify(extra)).toBeUndefined();
      expect(mailsTo(email), JSON.stringify(extra)).toEqual([]);
    }
    // What is kept of a dropped post: its id, sender, reason and time, for the hourly limit.
    const kept = await t.db.selectFrom('support_dropped_posts').select('reason').orderBy('created_at').execute();
    expect(kept.map((r) => r.reason)).toEqual(expect.arrayContaining(['honeypot', 'too_fast', 'opened_in_future']));
  });

  it('a form opened 10 s ago, a blank website field, and a client clock 30 s ahead are real tickets', async () => {
    const now = t.clock.now().getTime();
    for (const extra of [{ openedAt: now - 10_000 }, { website: '' }, { website: '   ' }, { openedAt: now + 30_000 }]) {
      const email = newEmail('human');
      const id = await created(await post(ticket({ email, ...extra })));
      expect(await queued(id), JSON.stringify(extra)).toBeDefined();
      expect(mailsTo(email), JSON.stringify(extra)).toHaveLength(1);
    }
  });
});

describe('10 tickets an hour', () => {
  it('per key: the 11th is 429 with Retry-After until the oldest is an hour old; then it works again', async () => {
    const key = await t.makeKey(['account:read']);
    const email = newEmail('busy');
    await created(await post(ticket({ email }), { headers: key.auth }));
    t.clock.advance(10 * MINUTE);
    for (let i = 2; i <= 10; i++) await created(await post(ticket({ email }), { headers: key.auth }));

    const refused = await post(ticket({ email }), { headers: key.auth });
    expect(refused.statusCode, refused.body).toBe(429);
    expect(errorOf(refused).code).toBe('rate_limited');
    expect(refused.headers['retry-after']).toBe(String(50 * 60));
    expect(mailsTo(email)).toHaveLength(10);

    t.clock.advance(50 * MINUTE);
    await created(await post(ticket({ email }), { headers: key.auth }));
    // Another key of the same account has its own budget.
    const other = await t.makeKey(['account:read'], null, { accountId: key.accountId });
    await created(await post(ticket({ email }), { headers: other.auth }));
  });

  it('per IP address without a credential, dropped posts counted too; another address is not affected', async () => {
    const ip = newIp();
    for (let i = 0; i < 4; i++) await created(await post(ticket({ email: newEmail(), website: 'x' }), { ip }));
    for (let i = 0; i < 6; i++) await created(await post(ticket({ email: newEmail() }), { ip }));
    const refused = await post(ticket({ email: newEmail() }), { ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(60 * 60));
    // A spam post over the limit is refused the same way: the limit comes first.
    expect((await post(ticket({ email: newEmail(), website: 'x' }), { ip })).statusCode).toBe(429);
    await created(await post(ticket({ email: newEmail() })));

    t.clock.advance(HOUR);
    await created(await post(ticket({ email: newEmail() }), { ip }));
  });

  it('per session: each session of a person has its own budget', async () => {
    const person = await signIn(t);
    for (let i = 0; i < 10; i++) await created(await post(ticket(), { headers: person.auth }));
    expect((await post(ticket(), { headers: person.auth })).statusCode).toBe(429);
    const again = await signIn(t, person.email);
    await created(await post(ticket(), { headers: again.auth }));
  });

  it('holds under concurrent posts: 15 at once from one key give exactly 10 tickets', async () => {
    const key = await t.makeKey(['account:read']);
    const responses = await Promise.all(Array.from({ length: 15 }, () => post(ticket({ email: newEmail() }), { headers: key.auth })));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([...Array(10).fill(201), ...Array(5).fill(429)]);
    const rows = await t.db.selectFrom('support_tickets').select('id').where('key_id', '=', key.keyId).execute();
    expect(rows).toHaveLength(10);
  });
});

describe('replies and the portal service calls', () => {
  it('ticket:reply stores the reply, marks the ticket answered, emails the person in their language, and getForPerson shows it', async () => {
    const person = await signIn(t);
    const actor: Actor = { accountId: person.personalAccountId, keyId: null, scopes: SCOPES, dailyCapCredits: null, session: { id: person.sessionId, personId: person.personId, role: 'owner' } };
    const id = await created(await post(ticket({ locale: 'fr' }), { headers: person.auth }));

    const answered = await admin('ticket:reply', { id, body: '  We found it: the payout went out today.  ' });
    expect(answered.mailed).toBe(true);
    expect(answered.ticket).toMatchObject({ id, status: 'answered', messageCount: 2, replyCount: 1, language: 'fr' });
    const [mail] = mailsTo(person.email);
    expect(mail.subject).toMatch(new RegExp(`^Re: .* \\[${id}\\]$`));
    expect(mail.text).toContain('We found it: the payout went out today.');
    expect(mail.text).toContain('Le support de Headcount a répondu à votre message.');

    const list = await t.container.support.listForPerson(actor);
    expect(list[0]).toEqual({ id, subject: expect.any(String), category: null, status: 'answered', messageCount: 2, replyCount: 1, createdAt: expect.any(String), lastMessageAt: t.clock.now().toISOString() });
    const one = await t.container.support.getForPerson(actor, id);
    expect(one.messages.map((m) => [m.author, m.body])).toEqual([
      ['requester', 'My payout from last week never arrived.'],
      ['support', 'We found it: the payout went out today.'],
    ]);
    expect((await admin('ticket:list', { status: 'answered' })).tickets.map((x: Json) => x.id)).toContain(id);
    expect((await admin('ticket:list', { status: 'open' })).tickets.map((x: Json) => x.id)).not.toContain(id);
  });

  it("a person's list has the tickets sent from their address without a credential too; another person's ticket is not found", async () => {
    const ada = await signIn(t);
    const bob = await signIn(t);
    const asAda: Actor = { accountId: ada.personalAccountId, keyId: null, scopes: SCOPES, dailyCapCredits: null, session: { id: ada.sessionId, personId: ada.personId, role: 'owner' } };
    const anonymous = await created(await post(ticket({ email: ada.email.toUpperCase() })));
    const bobs = await created(await post(ticket(), { headers: bob.auth }));

    expect((await t.container.support.listForPerson(asAda)).map((x) => x.id)).toEqual([anonymous]);
    expect((await t.container.support.getForPerson(asAda, anonymous)).messages).toHaveLength(1);
    for (const id of [bobs, 'tkt_doesNotExist', 'nonsense']) {
      const error = await t.container.support.getForPerson(asAda, id).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('not_found');
    }
    const key = await t.makeKey(['account:read']);
    const byKey = await t.container.support.listForPerson({ accountId: key.accountId, keyId: key.keyId, scopes: SCOPES, dailyCapCredits: null }).then(() => null, (e: unknown) => e);
    expect((byKey as AppError).code).toBe('insufficient_scope');
  });

  it('ticket:reply to an unknown ticket is not_found; a blank reply or an unknown --status is validation_failed', async () => {
    for (const [name, values, code] of [
      ['ticket:reply', { id: 'tkt_aaaaaaaaaaaaaaaaaaaa', body: 'Hello' }, 'not_found'],
      ['ticket:reply', { id: 'nope', body: 'Hello' }, 'not_found'],
      ['ticket:reply', { id: 'tkt_aaaaaaaaaaaaaaaaaaaa' }, 'validation_failed'],
      ['ticket:reply', { id: 'tkt_aaaaaaaaaaaaaaaaaaaa', body: 'x'.repeat(5001) }, 'validation_failed'],
      ['ticket:list', { status: 'pending' }, 'validation_failed'],
      ['ticket:list', { limit: '0' }, 'validation_failed'],
      ['ticket:list', { limit: 'ten' }, 'validation_failed'],
    ] as const) {
      const error = await admin(name, values).then(() => null, (e: unknown) => e);
      expect(error, `${name} ${JSON.stringify(values)}`).toBeInstanceOf(AppError);
      expect((error as AppError).code, `${name} ${JSON.stringify(values)}`).toBe(code);
    }
  });

  it('ticket:list is newest first and honours --limit', async () => {
    t.clock.advance(1000);
    const first = await created(await post(ticket({ email: newEmail() })));
    t.clock.advance(1000);
    const second = await created(await post(ticket({ email: newEmail() })));
    const { tickets } = await admin('ticket:list', { limit: '2' });
    expect(tickets.map((x: Json) => x.id)).toEqual([second, first]);
  });
});

describe('when mail fails', () => {
  it('the ticket and the reply are still stored (mailedAt null), the request succeeds and a warning is logged', async () => {
    const warnings: Array<{ obj: Json; msg: string }> = [];
    const support = createSupportService({
      db: t.db,
      repo: createSupportRepository(t.db),
      clock: t.clock,
      mailer: { send: async () => Promise.reject(new MailError('SMTP smtp://mail.example did not take the message: 421')), mailbox: () => null },
      log: { warn: (obj, msg) => warnings.push({ obj: obj as Json, msg }) },
    });
    const { ticketId } = await support.open(null, ticket({ email: newEmail('unlucky') }) as SupportTicketRequest, { ip: newIp() });
    const reply = await support.reply(ticketId, 'We are on it.');
    expect(reply.mailed).toBe(false);
    expect(reply.ticket.messages.map((m) => m.mailedAt)).toEqual([null, null]);
    expect(reply.ticket.status).toBe('answered');
    expect(warnings).toHaveLength(2);
    expect(warnings[0].obj.ticketId).toBe(ticketId);
  });
});
