import type { FastifyReply } from 'fastify';
import { AppError } from '../../../lib/errors.ts';
import { CREDIT_PACKS } from '../../../modules/credits/credit-packs.ts';
import type { Checkout } from '../../../modules/billing/billing.schemas.ts';
import { csrfField, escapeHtml, fill, formatters, notice, type Formatters } from '../portal-html.ts';
import { formField, queryParam, type PageRequest, type PortalPages } from '../portal-kit.ts';
import type { PortalContext } from '../portal-context.ts';
import type { PortalStrings } from '../strings/index.ts';


const packTitle = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

/** What a checkout's state means for the person, with where to pay when it still can be. */
function checkoutStatus(checkout: Checkout, s: PortalStrings, f: Formatters, localUrl: (url: string) => string): string {
  const amount = f.money(checkout.amount, checkout.currency);
  switch (checkout.status) {
    case 'paid':
      return notice('ok', s.checkoutPaid.replace('{n}', f.int(checkout.credits)));
    case 'failed':
      return notice('error', s.checkoutFailed);
    case 'expired':
      return notice('error', s.checkoutExpired);
    case 'pending':
      return `${notice('ok', s.checkoutPending.replace('{amount}', amount))}\n${transferDetails(checkout, s, f)}${checkout.url ? `\n<p><a class="button secondary" href="${escapeHtml(localUrl(checkout.url))}">${escapeHtml(s.payNow)}</a></p>` : ''}`;
    case 'open':
      return `<p>${escapeHtml(s.checkoutOpen)}</p>${checkout.url ? `\n<p><a class="button" href="${escapeHtml(localUrl(checkout.url))}" data-testid="pay-now">${escapeHtml(s.payNow)}: ${escapeHtml(amount)}</a></p>` : ''}`;
  }
}

function transferDetails(checkout: Checkout, s: PortalStrings, f: Formatters): string {
  const t = checkout.bankTransfer;
  if (!t) return '';
  const row = (label: string, value: string | undefined) => (value ? `<div class="kv"><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd></div>` : '');
  return `<dl class="kv-list">${[
    row(s.payee, t.payee),
    row(s.sortCode, t.sortCode),
    row(s.accountNumber, t.accountNumber),
    row(s.iban, t.iban),
    row(s.bic, t.bic),
    row(s.routingNumber, t.routingNumber),
    row(s.reference, t.reference),
    row(s.amount, f.money(t.amount, t.currency)),
  ].join('')}</dl>`;
}

/**
 * Buying credits (`/app/credits`) and the ledger (`/app/ledger`). A pack is bought with a form
 * that starts the checkout and comes back here (`?checkout=chk_…`), where a "Pay now" link goes
 * to the provider's page: a link, not a redirect from the form, so the CSP's `form-action 'self'`
 * holds. The provider sends the person back here, where the checkout's state is shown.
 */
export const creditsPages: PortalPages = (app, kit) => {
  const routes = kit.routes(app);
  const { checkouts, credits, config } = kit.deps;
  const localUrl = (url: string) => (url.startsWith(`${config.publicBaseUrl}/`) ? url.slice(config.publicBaseUrl.length) : url);

  async function creditsPage(request: PageRequest, reply: FastifyReply, ctx: PortalContext, shown: { checkoutId?: string; error?: string }): Promise<string> {
    const { s } = ctx;
    const f = formatters(ctx.lang);
    const currency = ctx.acting.currency;
    const csrf = kit.csrf(reply);
    const recent = await checkouts.recent(ctx.actor, 10);
    const current = shown.checkoutId ? await checkouts.get(ctx.actor, shown.checkoutId).catch(() => null) : null;
    const face = CREDIT_PACKS[0].prices[currency] / CREDIT_PACKS[0].credits;
    const packs = CREDIT_PACKS.map((pack) => {
      const price = pack.prices[currency];
      const saving = Math.round((1 - price / pack.credits / face) * 100);
      return `<li class="pack card">
<h3>${escapeHtml(packTitle(pack.id))}</h3>
<p class="big">${escapeHtml(s.packCredits.replace('{n}', f.int(pack.credits)))}</p>
<p class="muted">${escapeHtml(f.money(price, currency))}${saving > 0 ? ` · ${escapeHtml(s.packSaving.replace('{percent}', `${saving}%`))}` : ''}</p>
<form method="post" action="/app/credits/checkout" class="stack">${csrfField(csrf)}<input type="hidden" name="pack" value="${escapeHtml(pack.id)}">
<fieldset class="methods"><legend>${escapeHtml(s.payMethod)}</legend>
<label><input type="radio" name="method" value="card" checked> ${escapeHtml(s.payByCard)}</label>
${currency === 'CAD' ? `<span class="muted">${escapeHtml(s.transferNotInCad)}</span>` : `<label><input type="radio" name="method" value="bank_transfer"> ${escapeHtml(s.payByTransfer)}</label>`}
</fieldset>
<button type="submit" class="button" data-pack="${escapeHtml(pack.id)}">${escapeHtml(s.buy.replace('{price}', f.money(price, currency)))}</button>
</form>
</li>`;
    });
    // A paid checkout stays paid; what its payment lost since is said beside it.
    const moneyBack = (c: Checkout) =>
      [c.refundedAmount > 0 ? fill(s.checkoutRefunded, { amount: f.money(c.refundedAmount, c.currency) }) : null, c.disputedAmount > 0 ? fill(s.checkoutDisputed, { amount: f.money(c.disputedAmount, c.currency) }) : null]
        .filter((text) => text !== null)
        .map((text) => ` <span class="status-pill">${escapeHtml(text)}</span>`)
        .join('');
    const history = recent.length
      ? `<section class="card"><h2>${escapeHtml(s.recentCheckouts)}</h2><ul class="rows">${recent
          .map(
            (c) => `<li class="row"><a href="/app/credits?checkout=${escapeHtml(c.id)}"><strong>${escapeHtml(`${packTitle(c.pack)} · ${s.packCredits.replace('{n}', f.int(c.credits))}`)}</strong></a><span class="row-meta">${escapeHtml(`${f.money(c.amount, c.currency)} · ${c.method === 'card' ? s.payByCard : s.payByTransfer} · ${f.date(c.createdAt)}`)} · <span class="status-pill">${escapeHtml(s[`checkoutState_${c.status}`])}</span>${moneyBack(c)}</span></li>`,
          )
          .join('\n')}</ul></section>`
      : '';
    const test = config.payments.provider === 'test' ? `<p class="notice test-banner">${escapeHtml(s.testProviderNote)}</p>\n` : '';
    return kit.page(
      request,
      reply,
      ctx,
      s.creditsTitle,
      `${test}${shown.error ? notice('error', shown.error) : ''}${current ? `<section class="card" aria-live="polite" data-testid="checkout-status">${checkoutStatus(current, s, f, localUrl)}</section>\n` : ''}<p class="lead">${escapeHtml(fill(s.creditsLead, { currency, days: CREDIT_PACKS[0].validForDays }))}</p>
<ul class="packs">${packs.join('\n')}</ul>
${history}`,
    );
  }

  routes.get('/credits', async (request, reply, ctx) => {
    const id = queryParam(request, 'checkout');
    return creditsPage(request, reply, ctx, { checkoutId: id && /^chk_[0-9A-Za-z]{20}$/.test(id) ? id : undefined });
  });

  routes.post('/credits/checkout', async (request, reply, ctx) => {
    const method = formField(request, 'method') === 'bank_transfer' ? 'bank_transfer' : 'card';
    try {
      const checkout = await checkouts.start(ctx.actor, { pack: formField(request, 'pack'), currency: ctx.acting.currency, method, returnPath: '/app/credits' });
      return reply.redirect(`/app/credits?checkout=${checkout.id}`, 303);
    } catch (error) {
      if (!(error instanceof AppError) || (error.status >= 500 && error.code !== 'service_unavailable')) throw error;
      return reply.status(error.status).send(await creditsPage(request, reply, ctx, { error: error.message }));
    }
  });

  routes.get('/ledger', async (request, reply, ctx) => {
    const { s } = ctx;
    const f = formatters(ctx.lang);
    const cursor = queryParam(request, 'cursor');
    const page = await credits.ledger(ctx.actor, cursor && cursor.length <= 200 ? cursor : undefined);
    const stateLabel = (state: string) => (s[`state_${state}` as keyof PortalStrings] as string | undefined) ?? state;
    const rows = page.rows.map(
      (r) => `<tr class="ledger-${escapeHtml(r.state)}"><td>${escapeHtml(f.dateTime(r.at))}</td><td>${escapeHtml(r.title)}${r.state === 'paid' || r.state === 'available' ? '' : ` <span class="status-pill">${escapeHtml(stateLabel(r.state))}</span>`}</td><td class="num ${r.amount < 0 ? 'negative' : 'positive'}">${escapeHtml(`${r.amount > 0 ? '+' : ''}${f.int(r.amount)}`)}</td></tr>`,
    );
    const table = rows.length
      ? `<div class="table-wrap"><table class="ledger"><thead><tr><th scope="col">${escapeHtml(s.when)}</th><th scope="col">${escapeHtml(s.what)}</th><th scope="col" class="num">${escapeHtml(s.credits)}</th></tr></thead><tbody>${rows.join('\n')}</tbody></table></div>`
      : `<p>${escapeHtml(s.ledgerEmpty)}</p>`;
    const more = page.nextCursor ? `<p><a class="button secondary" href="/app/ledger?cursor=${encodeURIComponent(page.nextCursor)}">${escapeHtml(s.olderRows)}</a></p>` : '';
    return kit.page(request, reply, ctx, s.ledgerTitle, `<p class="lead">${escapeHtml(s.ledgerLead)}</p>\n${table}\n${more}`);
  });
};

