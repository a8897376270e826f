import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../lib/errors.ts';
import type { SignedIn } from '../../../modules/people/people.schemas.ts';
import { signInClient, signInVerifyLimit } from '../../../modules/people/people.routes.ts';
import { cookieOptions, safeNext, SESSION_COOKIE, signedOutLanguage } from '../portal-context.ts';
import { csrfField, escapeHtml, fill, formatters, notice } from '../portal-html.ts';
import { formField, PAGE, queryParam, type PageRequest, type PortalPages } from '../portal-kit.ts';
import { PORTAL_STRINGS } from '../strings/index.ts';

/** The address being signed in, between the two steps: signed (tamper-proof), HttpOnly, on the sign-in pages only, 15 minutes. */
const PENDING_COOKIE = 'hc_signin';
const PENDING_MINUTES = 15;


/**
 * Signing in on the portal (docs/portal.md "Signing in"): an address, then the six-digit code from
 * the email, or the link in it (confirmed with a button, so a mail scanner opening the link uses
 * nothing). A successful sign-in always sets a new session cookie, whatever cookie came before (no
 * fixation). In development without SMTP the mail is on the dev mailbox page.
 */
export const signInPages: PortalPages = (app, kit) => {
  const { signIn, sessions, mailer, config } = kit.deps;
  const secure = config.sessions.secureCookies;
  const devMailbox = mailer.mailbox() !== null;
  const s = (request: FastifyRequest) => PORTAL_STRINGS[signedOutLanguage(request)];

  const devHint = (request: FastifyRequest) => (devMailbox ? `<p class="notice notice-ok">${escapeHtml(s(request).devMailboxHint)} <a href="/app/dev/mailbox">${escapeHtml(s(request).devMailboxTitle)}</a></p>` : '');

  function emailForm(request: FastifyRequest, reply: FastifyReply, next: string, error?: string, email = ''): string {
    const t = s(request);
    return kit.signedOut(
      request,
      t.signInTitle,
      `<p class="lead">${escapeHtml(t.signInLead)}</p>
${error ? notice('error', error) : ''}<form method="post" action="/app/sign-in" class="stack">
${csrfField(kit.csrf(reply))}<input type="hidden" name="next" value="${escapeHtml(next)}">
<label for="email">${escapeHtml(t.emailLabel)}</label>
<input id="email" name="email" type="email" autocomplete="email" inputmode="email" required maxlength="254" value="${escapeHtml(email)}" autofocus>
<button type="submit" class="button">${escapeHtml(t.sendCode)}</button>
</form>
${devHint(request)}`,
    );
  }

  function codeForm(request: FastifyRequest, reply: FastifyReply, email: string, next: string, error?: string): string {
    const t = s(request);
    const csrf = kit.csrf(reply);
    return kit.signedOut(
      request,
      t.codeTitle,
      `<p class="lead">${fill(t.codeLead, { email: `<strong>${escapeHtml(email)}</strong>` }, ['email'])}</p>
${error ? notice('error', error) : ''}<form method="post" action="/app/sign-in/code" class="stack">
${csrfField(csrf)}<input type="hidden" name="next" value="${escapeHtml(next)}">
<label for="code">${escapeHtml(t.codeLabel)}</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="\\s*[0-9](\\s*[0-9]){5}\\s*" maxlength="12" required autofocus class="code-input">
<button type="submit" class="button">${escapeHtml(t.signIn)}</button>
</form>
<form method="post" action="/app/sign-in" class="inline-form">${csrfField(csrf)}<input type="hidden" name="email" value="${escapeHtml(email)}"><input type="hidden" name="next" value="${escapeHtml(next)}"><button type="submit" class="button secondary">${escapeHtml(t.newCode)}</button></form>
<a class="text-link" href="/app/sign-in?next=${encodeURIComponent(next)}">${escapeHtml(t.otherAddress)}</a>
${devHint(request)}`,
    );
  }

  /** The session becomes the cookie, for the session's whole life; the address cookie goes. */
  function startSession(reply: FastifyReply, signedIn: SignedIn, next: string) {
    const expires = new Date(Date.now() + config.sessions.maxDays * 86_400_000);
    reply.setCookie(SESSION_COOKIE, signedIn.token, cookieOptions(secure, expires));
    reply.clearCookie(PENDING_COOKIE, { ...cookieOptions(secure), path: '/app/sign-in' });
    return reply.redirect(safeNext(next), 303);
  }

  const pendingEmail = (request: FastifyRequest): string | null => {
    const raw = request.cookies[PENDING_COOKIE];
    if (!raw) return null;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid ? unsigned.value : null;
  };

  app.get('/sign-in', PAGE, async (request: PageRequest, reply) => {
    if (request.portal) return reply.redirect(safeNext(queryParam(request, 'next')), 303);
    return emailForm(request, reply, safeNext(queryParam(request, 'next')));
  });

  app.post('/sign-in', PAGE, async (request: PageRequest, reply) => {
    const email = formField(request, 'email').trim();
    const next = safeNext(formField(request, 'next'));
    try {
      await signIn.requestCode({ email, ip: request.ip ?? null, language: signedOutLanguage(request) });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500 && error.code !== 'service_unavailable') throw error;
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.status).send(emailForm(request, reply, next, error.message, email));
    }
    reply.setCookie(PENDING_COOKIE, email.toLowerCase(), { ...cookieOptions(secure), path: '/app/sign-in', signed: true, maxAge: PENDING_MINUTES * 60 });
    return reply.redirect(`/app/sign-in/code?next=${encodeURIComponent(next)}`, 303);
  });

  app.get('/sign-in/code', PAGE, async (request: PageRequest, reply) => {
    const email = pendingEmail(request);
    if (!email) return reply.redirect('/app/sign-in', 303);
    return codeForm(request, reply, email, safeNext(queryParam(request, 'next')));
  });

  const verifyLimit = signInVerifyLimit(app);
  app.post('/sign-in/code', PAGE, async (request: PageRequest, reply) => {
    const email = pendingEmail(request);
    const next = safeNext(formField(request, 'next'));
    if (!email) return reply.redirect('/app/sign-in', 303);
    try {
      await verifyLimit(request);
      return startSession(reply, await signIn.verifyCode({ email, code: formField(request, 'code') }, signInClient(request)), next);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.status).send(codeForm(request, reply, email, next, error.message));
    }
  });

  app.get('/sign-in/link', PAGE, async (request: PageRequest, reply) => {
    const t = s(request);
    const token = queryParam(request, 'token') ?? '';
    const email = await signIn.linkAddress(token);
    if (!email) {
      return reply.status(410).send(kit.signedOut(request, t.linkDeadTitle, `<p>${escapeHtml(t.linkDeadBody)}</p>\n<p><a class="button" href="/app/sign-in">${escapeHtml(t.signInTitle)}</a></p>`));
    }
    return kit.signedOut(
      request,
      t.linkTitle.replace('{email}', email),
      `<p class="lead">${escapeHtml(t.linkLead)}</p>
<form method="post" action="/app/sign-in/link" class="stack">${csrfField(kit.csrf(reply))}<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit" class="button">${escapeHtml(t.signIn)}</button></form>`,
    );
  });

  app.post('/sign-in/link', PAGE, async (request: PageRequest, reply) => {
    const t = s(request);
    try {
      return startSession(reply, await signIn.verifyLink(formField(request, 'token'), signInClient(request)), '/app');
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      return reply.status(410).send(kit.signedOut(request, t.linkDeadTitle, `<p>${escapeHtml(t.linkDeadBody)}</p>\n<p><a class="button" href="/app/sign-in">${escapeHtml(t.signInTitle)}</a></p>`));
    }
  });

  app.post('/sign-out', PAGE, async (request, reply) => {
    if (request.portal) await sessions.signOut(request.portal.actor);
    reply.clearCookie(SESSION_COOKIE, cookieOptions(secure));
    return reply.redirect('/app/sign-in', 303);
  });

  // Development without SMTP: where a person reads the mail the server would have sent.
  if (devMailbox) {
    const box = mailer.mailbox()!;
    app.get('/dev/mailbox', PAGE, async (request) => {
      const t = s(request);
      const f = formatters(signedOutLanguage(request));
      const items = box.list().map((m) => `<li class="row"><a href="/app/dev/mailbox/${m.id}"><strong>${escapeHtml(m.subject)}</strong></a><span class="row-meta">${escapeHtml(t.mailTo)} ${escapeHtml(m.to)} · ${escapeHtml(f.dateTime(m.sentAt.toISOString()))}</span></li>`);
      return kit.signedOut(request, t.devMailboxTitle, `<p class="lead">${escapeHtml(t.devMailboxLead)}</p>\n${items.length ? `<ul class="rows">${items.join('\n')}</ul>` : `<p>${escapeHtml(t.devMailboxEmpty)}</p>`}`);
    });
    app.get<{ Params: { id: string } }>('/dev/mailbox/:id', PAGE, async (request, reply) => {
      const t = s(request);
      const mail = box.get(request.params.id);
      if (!mail) return reply.status(404).send(kit.signedOut(request, t.notFoundTitle, `<p><a href="/app/dev/mailbox">${escapeHtml(t.back)}</a></p>`));
      // The text part, escaped, with its links made clickable (the only HTML added).
      const body = escapeHtml(mail.text).replace(/(https?:\/\/[^\s<]+)/g, (url) => `<a href="${url}">${url}</a>`);
      return kit.signedOut(request, mail.subject, `<p class="muted">${escapeHtml(t.mailTo)} ${escapeHtml(mail.to)}</p>\n<pre class="mail-text">${body}</pre>\n<p><a href="/app/dev/mailbox">${escapeHtml(t.back)}</a></p>`);
    });
  }
};
