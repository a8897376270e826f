import type { FastifyReply } from 'fastify';
import { AppError } from '../../../lib/errors.ts';
import { SUPPORT_CATEGORIES, SUPPORT_LIMITS, type SupportCategory } from '../../../modules/support/support.schemas.ts';
import { csrfField, escapeHtml, formatters, notice } from '../portal-html.ts';
import { formField, queryParam, type PageRequest, type PortalPages } from '../portal-kit.ts';
import type { PortalContext } from '../portal-context.ts';
import type { PortalStrings } from '../strings/index.ts';


const categoryLabel = (s: PortalStrings, c: string) => s[`category_${c}` as keyof PortalStrings] ?? c;
const statusLabel = (s: PortalStrings, st: string) => s[`ticketStatus_${st}` as keyof PortalStrings] ?? st;

/**
 * Support (`/app/support`): the person's tickets and replies, and a form to write a new one
 * through the same service as POST /v1/support/tickets (docs/support.md): the reply goes to the
 * person's address. The form carries the honeypot field (`website`, hidden from people) and the
 * time it was opened (`openedAt`), so a bot that fills every field or posts at once is dropped.
 */
export const supportPages: PortalPages = (app, kit) => {
  const routes = kit.routes(app);
  const { support, clock } = kit.deps;

  async function page(request: PageRequest, reply: FastifyReply, ctx: PortalContext, shown: { error?: string; sent?: boolean; status?: number; form?: Record<string, string> } = {}) {
    const { s } = ctx;
    const f = formatters(ctx.lang);
    const tickets = await support.listForPerson(ctx.actor);
    const form = shown.form ?? {};
    const rows = tickets.map(
      (t) => `<li class="row"><a href="/app/support/${escapeHtml(t.id)}"><strong>${escapeHtml(t.subject)}</strong></a><span class="row-meta"><span class="status-pill">${escapeHtml(statusLabel(s, t.status))}</span> ${escapeHtml(f.date(t.createdAt))} · ${escapeHtml(t.id)}</span></li>`,
    );
    if (shown.status) reply.status(shown.status);
    return kit.page(
      request,
      reply,
      ctx,
      s.supportTitle,
      `${shown.error ? notice('error', shown.error) : shown.sent ? notice('ok', s.ticketSent) : ''}<p class="lead">${escapeHtml(s.supportLead)}</p>
<section class="card" aria-labelledby="new-ticket"><h2 id="new-ticket" class="visually-hidden">${escapeHtml(s.ticketSend)}</h2>
<form method="post" action="/app/support" class="stack">${csrfField(kit.csrf(reply))}<input type="hidden" name="openedAt" value="${clock.now().getTime()}">
<label for="ticket-subject">${escapeHtml(s.ticketSubject)}</label><input id="ticket-subject" name="subject" required minlength="${SUPPORT_LIMITS.subject.min}" maxlength="${SUPPORT_LIMITS.subject.max}" value="${escapeHtml(form.subject ?? '')}">
<label for="ticket-category">${escapeHtml(s.ticketCategory)}</label><select id="ticket-category" name="category">${SUPPORT_CATEGORIES.map((c) => `<option value="${c}"${(form.category ?? 'other') === c ? ' selected' : ''}>${escapeHtml(categoryLabel(s, c))}</option>`).join('')}</select>
<label for="ticket-body">${escapeHtml(s.ticketBody)}</label><textarea id="ticket-body" name="body" required minlength="${SUPPORT_LIMITS.body.min}" maxlength="${SUPPORT_LIMITS.body.max}" rows="6">${escapeHtml(form.body ?? '')}</textarea>
<div class="honeypot" aria-hidden="true"><label for="ticket-website">${escapeHtml(s.website)}</label><input id="ticket-website" name="website" tabindex="-1" autocomplete="off"></div>
<button type="submit" class="button">${escapeHtml(s.ticketSend)}</button>
</form></section>
<section class="card" aria-labelledby="tickets"><h2 id="tickets">${escapeHtml(s.yourTickets)}</h2>${rows.length ? `<ul class="rows">${rows.join('\n')}</ul>` : `<p>${escapeHtml(s.ticketsEmpty)}</p>`}</section>`,
    );
  }

  routes.get('/support', async (request, reply, ctx) => {
    return page(request, reply, ctx, { sent: queryParam(request, 'sent') === '1' });
  });

  routes.post('/support', async (request, reply, ctx) => {
    const field = (name: string) => formField(request, name);
    const openedAt = Number(field('openedAt') || NaN);
    const category = (SUPPORT_CATEGORIES as readonly string[]).includes(field('category')) ? (field('category') as SupportCategory) : undefined;
    try {
      await support.open(
        ctx.actor,
        {
          subject: field('subject'),
          body: field('body'),
          ...(category ? { category } : {}),
          locale: ctx.lang,
          ...(field('website') ? { website: field('website').slice(0, SUPPORT_LIMITS.website) } : {}),
          ...(Number.isSafeInteger(openedAt) && openedAt >= 0 ? { openedAt } : {}),
        },
        { ip: request.ip },
      );
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      if (error.headers) reply.headers(error.headers);
      return page(request, reply, ctx, { error: error.message, status: error.status, form: { subject: field('subject'), body: field('body'), category: field('category') } });
    }
    return reply.redirect('/app/support?sent=1', 303);
  });

  routes.get('/support/:id', async (request, reply, ctx) => {
    const { s } = ctx;
    const f = formatters(ctx.lang);
    const ticket = await support.getForPerson(ctx.actor, request.params.id);
    const messages = ticket.messages.map(
      (m) => `<li class="message ${m.author === 'support' ? 'from-support' : 'from-you'}"><p class="row-meta"><strong>${escapeHtml(m.author === 'support' ? s.fromSupport : s.fromYou)}</strong> · ${escapeHtml(f.dateTime(m.createdAt))}</p><p class="message-body">${escapeHtml(m.body)}</p></li>`,
    );
    return kit.page(
      request,
      reply,
      ctx,
      ticket.subject,
      `<p class="status-line"><span class="status-pill">${escapeHtml(statusLabel(s, ticket.status))}</span> ${escapeHtml(ticket.id)}${ticket.category ? ` · ${escapeHtml(categoryLabel(s, ticket.category))}` : ''}</p>
<ul class="messages">${messages.join('\n')}</ul>
<p><a href="/app/support">${escapeHtml(s.back)}</a></p>`,
    );
  });
};
