import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, StringEnum } from '../../lib/typebox.ts';
import { QUESTION_LANGUAGES } from '../draft/question-types.ts';

/** Support tickets (spec "Support", docs/support.md). The limits are the spec's ("Limits": support tickets). */
export const SUPPORT_LIMITS = { subject: { min: 3, max: 140 }, body: { min: 10, max: 5000 }, appVersion: 40, locale: 10, website: 2000, email: 254 } as const;

export const SUPPORT_CATEGORIES = [
  'payout', 'payout_failed', 'account', 'account_frozen', 'verification', 'question', 'billing', 'api', 'security', 'privacy', 'other',
] as const;
export type SupportCategory = (typeof SUPPORT_CATEGORIES)[number];

/** `closed` is a state the queue may use; nothing sets it yet (docs/support.md "States"). */
export const TICKET_STATUSES = ['open', 'answered', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const isTicketStatus = (value: string): value is TicketStatus => (TICKET_STATUSES as readonly string[]).includes(value);

/** Who wrote a message: the person who opened the ticket, or support replying. */
export const MESSAGE_AUTHORS = ['requester', 'support'] as const;
export type MessageAuthor = (typeof MESSAGE_AUTHORS)[number];

/**
 * The body of POST /v1/support/tickets, exactly the spec's fields. Shared ($id) so /openapi.json
 * names it, as QuestionDraft is named.
 */
export const SupportTicketRequestSchema = Closed(
  {
    subject: Type.String({ minLength: SUPPORT_LIMITS.subject.min, maxLength: SUPPORT_LIMITS.subject.max, description: 'What the message is about, in a line.' }),
    body: Type.String({ minLength: SUPPORT_LIMITS.body.min, maxLength: SUPPORT_LIMITS.body.max, description: 'The message.' }),
    appVersion: Type.Optional(Type.String({ maxLength: SUPPORT_LIMITS.appVersion, description: 'The version of the app or client the person uses, if any.' })),
    category: Type.Optional(StringEnum(SUPPORT_CATEGORIES, { description: 'What kind of problem it is.' })),
    email: Type.Optional(
      Type.String({
        format: 'email',
        maxLength: SUPPORT_LIMITS.email,
        description: 'Where the reply goes. Required without a credential. With a key or a session it is ignored: the reply goes to the account\'s (key) or the person\'s (session) address; a key whose account has no address needs it.',
      }),
    ),
    locale: Type.Optional(Type.String({ maxLength: SUPPORT_LIMITS.locale, description: 'The language of the confirmation and the reply, e.g. `pt-BR`; one of en, es, pt, hi, fr, de, id, tl is used, else the account\'s language, else English.' })),
    website: Type.Optional(Type.String({ maxLength: SUPPORT_LIMITS.website, description: 'Leave empty. A hidden form field: a post that fills it is answered like any other and dropped.' })),
    openedAt: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'When the form was opened, in milliseconds since the Unix epoch (1970-01-01T00:00:00Z). A post less than 3 seconds after it, or with openedAt more than a minute in the future, is answered like any other and dropped.',
      }),
    ),
  },
  { $id: 'SupportTicketRequest', description: 'A message to support (spec "Support"; docs/support.md).' },
);
export type SupportTicketRequest = Static<typeof SupportTicketRequestSchema>;

export const TicketCreatedSchema = Closed({ ticketId: Type.String({ description: 'tkt_…: the number the confirmation email quotes.' }) });

/** A ticket in a list: what the portal's list of a person's tickets shows. */
export const TicketSummarySchema = Closed({
  id: Type.String({ description: 'tkt_…' }),
  subject: Type.String(),
  category: Nullable(StringEnum(SUPPORT_CATEGORIES)),
  status: StringEnum(TICKET_STATUSES),
  messageCount: Type.Integer({ minimum: 1, description: 'The opening message and every reply.' }),
  replyCount: Type.Integer({ minimum: 0, description: 'Replies from support.' }),
  createdAt: DateTime(),
  lastMessageAt: DateTime(),
});
export type TicketSummary = Static<typeof TicketSummarySchema>;

export const TicketMessageSchema = Closed({
  author: StringEnum(MESSAGE_AUTHORS),
  body: Type.String(),
  createdAt: DateTime(),
  mailedAt: Nullable(DateTime({ description: 'When the confirmation (opening message) or the reply was emailed; null when sending failed.' })),
});
export type TicketMessage = Static<typeof TicketMessageSchema>;

/** One ticket with its messages, oldest first: the portal's ticket page. */
export const TicketSchema = Closed({ ...TicketSummarySchema.properties, messages: Type.Array(TicketMessageSchema) });
export type Ticket = Static<typeof TicketSchema>;

/** What the support queue (the admin CLI) sees of a ticket: who sent it and where the reply goes. */
export const QueueTicketSchema = Closed({
  ...TicketSchema.properties,
  replyTo: Type.String({ description: 'The address replies are emailed to.' }),
  language: StringEnum(QUESTION_LANGUAGES, { description: 'The language of the mail this ticket gets.' }),
  locale: Nullable(Type.String()),
  appVersion: Nullable(Type.String()),
  accountId: Nullable(Type.String()),
  personId: Nullable(Type.String()),
  keyId: Nullable(Type.String()),
});
export type QueueTicket = Static<typeof QueueTicketSchema>;
