import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { isId, newId } from '../../lib/ids.ts';
import { AppError, notFound, validationError, type ValidationItem } from '../../lib/errors.ts';
import { sessionOf, type Actor } from '../../lib/actor.ts';
import type { Mailer, MailMessage } from '../mail/mail.types.ts';
import { confirmationMail, mailLanguage, replyMail } from './support-mail.ts';
import type { CountedTicketRow, DropReason, MessageRow, SupportRepository } from './support.repository.ts';
import {
  SUPPORT_CATEGORIES,
  SUPPORT_LIMITS,
  type QueueTicket,
  type SupportCategory,
  type SupportTicketRequest,
  type Ticket,
  type TicketMessage,
  type TicketStatus,
  type TicketSummary,
} from './support.schemas.ts';

/**
 * The spam and flood rules of support tickets (docs/support.md): 10 posts an hour per sender,
 * dropped posts included; a post less than 3 seconds after its form was opened, or from a form
 * opened more than a minute in the future (a clock can be a little ahead, not that much), is
 * dropped silently, like one that filled the hidden `website` field.
 */
export const SUPPORT_RULES = { perHour: 10, fastestFormMs: 3_000, clockSkewMs: 60_000 } as const;
const HOUR_MS = 3_600_000;
/** The queue's page: the newest 50 unless asked, at most 200. */
export const QUEUE_LIMIT = { default: 50, max: 200 } as const;

/** Where a post came from, for the limit of posts without a credential. */
export interface SupportClient {
  ip: string;
}

/** Pino's shape: a mail that could not be sent is logged, never a failed request. */
export interface SupportLog {
  warn(obj: object, msg: string): void;
}

/** Why a post is dropped, or null to keep it. `openedAt` is milliseconds since the Unix epoch. */
function dropReason(input: Pick<SupportTicketRequest, 'website' | 'openedAt'>, now: Date): DropReason | null {
  if (input.website !== undefined && input.website.trim() !== '') return 'honeypot';
  if (input.openedAt === undefined) return null;
  const elapsed = now.getTime() - input.openedAt;
  if (elapsed < -SUPPORT_RULES.clockSkewMs) return 'opened_in_future';
  if (elapsed >= 0 && elapsed < SUPPORT_RULES.fastestFormMs) return 'too_fast';
  return null;
}

/** What the hourly limit counts a post against: the credential, or the client's address without one. */
function senderOf(actor: Actor | null, client: SupportClient): string {
  if (!actor) return `ip:${client.ip}`;
  if (actor.session) return `ses:${actor.session.id}`;
  return actor.keyId ? `key:${actor.keyId}` : `acc:${actor.accountId}`;
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();
const chars = (text: string) => Array.from(text).length;
const categoryOf = (value: string | null): SupportCategory | null => (SUPPORT_CATEGORIES as readonly string[]).includes(value ?? '') ? (value as SupportCategory) : null;
const NO_TICKET = 'No such ticket.';

const summaryView = (row: CountedTicketRow): TicketSummary => ({
  id: row.id,
  subject: row.subject,
  category: categoryOf(row.category),
  status: row.status,
  messageCount: row.message_count,
  replyCount: row.reply_count,
  createdAt: row.created_at.toISOString(),
  lastMessageAt: row.last_message_at.toISOString(),
});

const messageView = (row: MessageRow): TicketMessage => ({
  author: row.author,
  body: row.body,
  createdAt: row.created_at.toISOString(),
  mailedAt: row.mailed_at?.toISOString() ?? null,
});

const queueView = (row: CountedTicketRow, messages: MessageRow[]): QueueTicket => ({
  ...summaryView(row),
  messages: messages.map(messageView),
  replyTo: row.email,
  language: mailLanguage(row.language),
  locale: row.locale,
  appVersion: row.app_version,
  accountId: row.account_id,
  personId: row.person_id,
  keyId: row.key_id,
});

/** Subject and body are trimmed; the schema's minimums hold for what is left. */
function checkText(input: SupportTicketRequest, problems: ValidationItem[]): { subject: string; body: string } {
  const subject = input.subject.trim();
  const body = input.body.trim();
  const { subject: s, body: b } = SUPPORT_LIMITS;
  if (chars(subject) < s.min) problems.push({ field: 'subject', code: 'too_short', message: `subject must be at least ${s.min} characters (spaces around it do not count).` });
  if (chars(body) < b.min) problems.push({ field: 'body', code: 'too_short', message: `body must be at least ${b.min} characters (spaces around it do not count).` });
  return { subject, body };
}

export function createSupportService(deps: { db: Db; repo: SupportRepository; mailer: Mailer; clock: Clock; log: SupportLog }) {
  const { db, repo, mailer, clock, log } = deps;

  /**
   * Who the ticket is from and where the reply goes (spec "Support"): a session's person; a key's
   * account (its address, else the body's); without a credential, the body's address.
   */
  async function requester(actor: Actor | null, input: SupportTicketRequest, problems: ValidationItem[]) {
    const given = input.email === undefined ? null : normalizeEmail(input.email);
    if (actor?.session) {
      const person = await repo.person(actor.session.personId);
      if (!person) throw new AppError('unauthorized');
      return { email: person.email, language: mailLanguage(input.locale, person.language), accountId: actor.accountId, personId: actor.session.personId, keyId: null };
    }
    if (actor) {
      const account = await repo.account(actor.accountId);
      const email = account?.email ?? given;
      if (!email) problems.push({ field: 'email', code: 'required', message: 'This account has no email address, so the request must give one in email for the reply.' });
      return { email, language: mailLanguage(input.locale, account?.language), accountId: actor.accountId, personId: null, keyId: actor.keyId };
    }
    if (!given) problems.push({ field: 'email', code: 'required', message: 'email is required without a credential: it is where the reply goes.' });
    return { email: given, language: mailLanguage(input.locale), accountId: null, personId: null, keyId: null };
  }

  function tooMany(oldest: Date | null, now: Date): AppError {
    const seconds = oldest ? Math.max(1, Math.ceil((oldest.getTime() + HOUR_MS - now.getTime()) / 1000)) : 60;
    return new AppError(
      'rate_limited',
      `At most ${SUPPORT_RULES.perHour} support tickets an hour; try again in ${Math.ceil(seconds / 60)} minutes.`,
      { retryAfterSeconds: seconds },
      { 'retry-after': String(seconds) },
    );
  }

  /** Sends a ticket's mail and notes on the message that it went; a failure is logged and noted by its absence. */
  async function deliver(message: MailMessage, seq: number, ticketId: string): Promise<boolean> {
    try {
      await mailer.send(message);
    } catch (error) {
      log.warn({ err: error, ticketId }, 'support mail not sent; the ticket is kept (mailed_at stays null)');
      return false;
    }
    await repo.markMailed(seq, clock.now());
    return true;
  }

  async function personOf(actor: Actor): Promise<{ id: string; email: string }> {
    const session = sessionOf(actor);
    const person = await repo.person(session.personId);
    if (!person) throw new AppError('unauthorized');
    return { id: session.personId, email: person.email };
  }

  async function queueTicket(id: string): Promise<QueueTicket> {
    const row = await repo.find(id);
    if (!row) throw notFound(NO_TICKET);
    return queueView(row, await repo.messages(id));
  }

  return {
    /**
     * Opens a ticket (POST /v1/support/tickets; the portal's form). A dropped post (spam) gets an
     * answer like any other, with an id of the same shape, and leaves no ticket and no mail.
     */
    async open(actor: Actor | null, input: SupportTicketRequest, client: SupportClient): Promise<{ ticketId: string }> {
      const problems: ValidationItem[] = [];
      const text = checkText(input, problems);
      const from = await requester(actor, input, problems);
      if (problems.length || !from.email) throw validationError(problems);
      const email = from.email;
      const sender = senderOf(actor, client);
      const ticketId = newId('ticket');
      const opened = await inTransaction(db, async (tx) => {
        await repo.lockSender(sender, tx);
        const now = clock.now();
        const since = new Date(now.getTime() - HOUR_MS);
        const recent = await repo.countSince(sender, since, tx);
        if (recent.count >= SUPPORT_RULES.perHour) throw tooMany(recent.oldest, now);
        const dropped = dropReason(input, now);
        if (dropped) {
          await repo.recordDropped({ id: ticketId, sender, reason: dropped, created_at: now }, since, tx);
          return null;
        }
        await repo.insertTicket(
          {
            id: ticketId, account_id: from.accountId, person_id: from.personId, key_id: from.keyId, sender, email, language: from.language,
            locale: input.locale ?? null, category: input.category ?? null, subject: text.subject, app_version: input.appVersion ?? null,
            status: 'open', created_at: now, updated_at: now,
          },
          tx,
        );
        return repo.insertMessage({ ticket_id: ticketId, author: 'requester', body: text.body, created_at: now, mailed_at: null }, tx);
      });
      if (opened) await deliver(confirmationMail({ to: email, ticketId, subject: text.subject, language: from.language }), opened.seq, ticketId);
      return { ticketId };
    },

    /** The signed-in person's tickets (opened by them, or sent from their address), newest first. */
    async listForPerson(actor: Actor): Promise<TicketSummary[]> {
      const person = await personOf(actor);
      return (await repo.listForPerson(person.id, person.email)).map(summaryView);
    },

    /** One of the person's tickets with every message, oldest first; anyone else's is not found. */
    async getForPerson(actor: Actor, ticketId: string): Promise<Ticket> {
      const person = await personOf(actor);
      const row = isId('ticket', ticketId) ? await repo.find(ticketId) : undefined;
      if (!row || (row.person_id !== person.id && row.email !== person.email)) throw notFound(NO_TICKET);
      return { ...summaryView(row), messages: (await repo.messages(ticketId)).map(messageView) };
    },

    /** The support queue (admin CLI `ticket:list`), newest first; dropped posts are never in it. */
    async list(options: { status?: TicketStatus; limit?: number } = {}): Promise<QueueTicket[]> {
      const limit = options.limit ?? QUEUE_LIMIT.default;
      if (!Number.isInteger(limit) || limit < 1 || limit > QUEUE_LIMIT.max) {
        throw validationError([{ field: 'limit', code: 'out_of_range', message: `limit must be 1 to ${QUEUE_LIMIT.max}.` }]);
      }
      const rows = await repo.list({ status: options.status, limit });
      const messages = await repo.messagesOf(rows.map((r) => r.id));
      return rows.map((row) => queueView(row, messages.filter((m) => m.ticket_id === row.id)));
    },

    /**
     * A reply from support (admin CLI `ticket:reply`): stored as a message, the ticket becomes
     * `answered`, and the reply is emailed to the ticket's address in its language. `mailed` is
     * false when sending failed; the reply stays stored either way.
     */
    async reply(ticketId: string, body: string): Promise<{ ticket: QueueTicket; mailed: boolean }> {
      const text = body.trim();
      if (text === '') throw validationError([{ field: 'body', code: 'required', message: 'The reply must not be blank.' }]);
      if (chars(text) > SUPPORT_LIMITS.body.max) throw validationError([{ field: 'body', code: 'too_long', message: `The reply must be at most ${SUPPORT_LIMITS.body.max} characters.` }]);
      if (!isId('ticket', ticketId)) throw notFound(NO_TICKET);
      const stored = await inTransaction(db, async (tx) => {
        const ticket = await repo.lock(ticketId, tx);
        if (!ticket) return null;
        const now = clock.now();
        const message = await repo.insertMessage({ ticket_id: ticketId, author: 'support', body: text, created_at: now, mailed_at: null }, tx);
        await repo.setStatus(ticketId, 'answered', now, tx);
        return { ticket, message };
      });
      if (!stored) throw notFound(NO_TICKET);
      const { ticket, message } = stored;
      const mail = replyMail({ to: ticket.email, ticketId, subject: ticket.subject, reply: text, language: mailLanguage(ticket.language) });
      const mailed = await deliver(mail, message.seq, ticketId);
      return { ticket: await queueTicket(ticketId), mailed };
    },
  };
}
export type SupportService = ReturnType<typeof createSupportService>;
