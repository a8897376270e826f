import type { MailMessage } from '../mail/mail.types.ts';
import { QUESTION_LANGUAGES, type QuestionLanguage } from '../draft/question-types.ts';
import { SUPPORT_MAIL_STRINGS } from './support-mail-strings.ts';
import { fillTemplate as fill, mailHtml as html } from '../mail/mail-html.ts';

/**
 * The mail a ticket's requester gets (docs/support.md "Mail"): the confirmation that the ticket
 * arrived, and each reply from support. Plain text first (every client shows it) and a small HTML
 * part with the same words (modules/mail/mail-html.ts escapes everything a person typed).
 */
/** A subject typed with line breaks or runs of spaces becomes one line in a mail's Subject header. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The language of a ticket's mail: its `locale` when that names one of the eight languages
 * (`pt-BR` names `pt`), else the fallback (the person's or the account's), else English.
 */
export function mailLanguage(locale: string | null | undefined, ...fallbacks: Array<string | null | undefined>): QuestionLanguage {
  const known = (tag: string | null | undefined): QuestionLanguage | null => {
    const base = tag?.trim().toLowerCase().split(/[-_]/)[0];
    return base && (QUESTION_LANGUAGES as readonly string[]).includes(base) ? (base as QuestionLanguage) : null;
  };
  for (const tag of [locale, ...fallbacks]) {
    const language = known(tag);
    if (language) return language;
  }
  return 'en';
}

export function confirmationMail(input: { to: string; ticketId: string; subject: string; language: QuestionLanguage }): MailMessage {
  const s = SUPPORT_MAIL_STRINGS[input.language];
  const values = { ticketId: input.ticketId, subject: oneLine(input.subject) };
  const paragraphs = [s.receivedIntro, `${fill(s.ticketNumber, values)}\n${fill(s.subjectLine, values)}`, s.replyByEmail, s.signature];
  return { to: input.to, subject: fill(s.receivedSubject, values), text: paragraphs.join('\n\n') + '\n', html: html(paragraphs) };
}

export function replyMail(input: { to: string; ticketId: string; subject: string; reply: string; language: QuestionLanguage }): MailMessage {
  const s = SUPPORT_MAIL_STRINGS[input.language];
  const values = { ticketId: input.ticketId, subject: oneLine(input.subject) };
  const paragraphs = [s.replyIntro, input.reply, `${fill(s.ticketNumber, values)}\n${fill(s.subjectLine, values)}`, fill(s.replyMore, values), s.signature];
  return { to: input.to, subject: fill(s.replySubject, values), text: paragraphs.join('\n\n') + '\n', html: html(paragraphs) };
}
