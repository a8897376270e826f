import type { MailMessage } from '../mail/mail.types.ts';
import type { QuestionLanguage } from '../draft/question-types.ts';
import { MAIL_STRINGS, type MailStrings } from './mail-strings.ts';
import { escapeMailHtml, fillTemplate as fill, mailHtml } from '../mail/mail-html.ts';

/**
 * The mail people get from the portal (docs/portal.md): the sign-in code with its link, and an
 * invitation into a team. Plain text first (every client shows it) and a small HTML part with the
 * same words (modules/mail/mail-html.ts escapes everything in it).
 */
export function stringsFor(language: string): MailStrings {
  return MAIL_STRINGS[(language in MAIL_STRINGS ? language : 'en') as QuestionLanguage];
}

export function signInMail(input: { to: string; code: string; link: string; minutes: number; language: string }): MailMessage {
  const s = stringsFor(input.language);
  const values = { code: input.code, minutes: input.minutes };
  return {
    to: input.to,
    subject: fill(s.signInSubject, values),
    text: [fill(s.signInCode, values), `${s.signInLinkIntro}\n${input.link}`, fill(s.signInExpiry, values), s.signInIgnore].join('\n\n') + '\n',
    html: mailHtml(
      [{ html: fill(escapeMailHtml(s.signInCode), { code: `<strong style="font-size:24px;letter-spacing:4px">${escapeMailHtml(input.code)}</strong>` }) }, s.signInLinkIntro, fill(s.signInExpiry, values), s.signInIgnore],
      { lead: true, action: { href: input.link, label: s.signInButton } },
    ),
  };
}

export function invitationMail(input: { to: string; team: string; inviter: string; role: string; url: string; language: string }): MailMessage {
  const s = stringsFor(input.language);
  const values = { team: input.team, inviter: input.inviter, role: s.roles[input.role as keyof MailStrings['roles']] ?? input.role };
  return {
    to: input.to,
    subject: fill(s.inviteSubject, values),
    text: [fill(s.inviteBody, values), `${s.inviteHow}\n${input.url}`].join('\n\n') + '\n',
    html: mailHtml([fill(s.inviteBody, values), s.inviteHow], { lead: true, action: { href: input.url, label: s.inviteButton } }),
  };
}
