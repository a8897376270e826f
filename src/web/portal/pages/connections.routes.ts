import type { FastifyReply } from 'fastify';
import { AppError } from '../../../lib/errors.ts';
import { isScope } from '../../../lib/actor.ts';
import { KEY_LIMITS } from '../../../modules/accounts/accounts.schemas.ts';
import { contentSecurityPolicy } from '../../../http/page-headers.ts';
import type { PendingAuthorization } from '../../../oauth/oauth-interactions.ts';
import { buttonForm, csrfField, escapeHtml, fill, formatters, notice } from '../portal-html.ts';
import { formField, queryParam, type PageRequest, type PortalPages } from '../portal-kit.ts';
import type { PortalContext } from '../portal-context.ts';
import type { PortalStrings } from '../strings/index.ts';

const scopeLabel = (s: PortalStrings, scope: string) => s[`scope_${scope.replace(':', '_')}` as keyof PortalStrings] ?? scope;
/** The consent form's suggestion: enough for a few questions a day, far from an open cheque. */
const DEFAULT_CAP = 1000;

/** Where the browser goes after the answer, as a person reads it (the app's host, or its scheme for a desktop app). */
function destination(uri: string | null): { label: string; formAction: string } | null {
  if (!uri) return null;
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' || url.protocol === 'https:' ? { label: url.host, formAction: url.origin } : { label: `${url.protocol}//`, formAction: url.protocol };
  } catch {
    return null;
  }
}

/** A whole number of credits from a form field, within 0..max; '' is `empty`. */
function credits(text: string, empty: number | null, label: string): number | null {
  const value = text.trim();
  if (value === '') return empty;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0 || n > KEY_LIMITS.cap) throw new AppError('validation_failed', `${label}: a whole number from 0 to ${KEY_LIMITS.cap}.`);
  return n;
}

/**
 * Agents' consent and connected apps (issue 11 point 2; docs/agents.md "Consent"):
 * - `/app/oauth/{uid}`: where the authorization server sends the browser (authorization code and
 *   device grant alike). A signed-out person signs in first and comes back. The page names the
 *   app (unverified unless a client ID metadata document vouches for it), the scopes it asked
 *   for, and lets the person pick the account, the scopes, a daily cap and the auto-approve
 *   amount. Its CSP lets the form's answer redirect on to the app's own address (form-action).
 * - `/app/connections`: the person's connected apps, each disconnectable at once.
 */
export const connectionsPages: PortalPages = (app, kit) => {
  const routes = kit.routes(app);
  const { oauth, connections, config } = kit.deps;
  const raw = (request: PageRequest, reply: FastifyReply) => ({ req: request.raw, res: reply.raw });

  function consentPage(request: PageRequest, reply: FastifyReply, ctx: PortalContext, pending: PendingAuthorization, error?: string) {
    const { s } = ctx;
    const csrf = kit.csrf(reply);
    const app = pending.client.name;
    const to = destination(pending.redirectUri);
    const base = contentSecurityPolicy(config);
    reply.header('content-security-policy', to ? base.replace("form-action 'self'", `form-action 'self' ${to.formAction}`) : base);
    const trust = pending.client.verifiedDomain
      ? `<p>${fill(s.oauthVerified, { domain: pending.client.verifiedDomain })}</p>`
      : `<p class="notice notice-error" role="note" data-testid="unverified">${escapeHtml(s.oauthUnverified)}</p>`;
    const accounts = ctx.accounts
      .map((a) => `<option value="${escapeHtml(a.accountId)}"${a.accountId === ctx.acting.accountId ? ' selected' : ''}>${escapeHtml(a.personal ? `${s.personalAccount} · ${a.name}` : a.name)}</option>`)
      .join('');
    const scopes = pending.scopes.map((scope) => `<label class="check"><input type="checkbox" name="scopes" value="${scope}" checked> ${escapeHtml(scopeLabel(s, scope))}</label>`).join('\n');
    const body = `${error ? notice('error', error) : ''}<p class="lead">${fill(s.oauthLead, { app })}</p>
${trust}
<section class="card"><form method="post" action="/app/oauth/${escapeHtml(pending.uid)}" class="stack">${csrfField(csrf)}
<label for="account">${escapeHtml(s.oauthAccount)}</label><select id="account" name="account">${accounts}</select>
<fieldset><legend>${escapeHtml(s.oauthScopes)}</legend>${scopes}</fieldset>
<label for="cap">${escapeHtml(s.oauthCap)}</label><input id="cap" name="cap" type="number" min="0" max="${KEY_LIMITS.cap}" step="1" inputmode="numeric" value="${DEFAULT_CAP}"><small class="muted">${escapeHtml(s.oauthCapHint)}</small>
<label for="auto">${escapeHtml(s.oauthAutoApprove)}</label><input id="auto" name="autoApprove" type="number" min="0" max="${KEY_LIMITS.cap}" step="1" inputmode="numeric" value="0"><small class="muted">${escapeHtml(s.oauthAutoApproveHint)}</small>
${to ? `<p class="muted">${fill(s.oauthReturnTo, { where: to.label })}</p>` : ''}
<div class="actions"><button type="submit" name="decision" value="allow" class="button">${escapeHtml(s.oauthAllow)}</button>
<button type="submit" name="decision" value="deny" class="button secondary">${escapeHtml(s.oauthDeny)}</button></div>
</form></section>`;
    return kit.page(request, reply, ctx, s.oauthTitle.replace('{app}', app), body);
  }

  routes.get('/oauth/:uid', async (request, reply, ctx) => {
    const pending = await oauth.pending(raw(request, reply), request.params.uid);
    return consentPage(request, reply, ctx, pending);
  });

  routes.post('/oauth/:uid', async (request, reply, ctx) => {
    const uid = request.params.uid;
    if (formField(request, 'decision') !== 'allow') return reply.redirect(await oauth.deny(raw(request, reply), uid), 303);
    const pending = await oauth.pending(raw(request, reply), uid);
    try {
      const account = ctx.accounts.find((a) => a.accountId === formField(request, 'account'));
      if (!account) throw new AppError('validation_failed', `${ctx.s.oauthAccount}: choose one of yours.`);
      const approval = {
        personId: ctx.person.id,
        accountId: account.accountId,
        scopes: (request.body?.getAll('scopes') ?? []).filter(isScope),
        dailyCapCredits: credits(formField(request, 'cap'), null, ctx.s.oauthCap),
        autoApproveCredits: credits(formField(request, 'autoApprove'), 0, ctx.s.oauthAutoApprove) ?? 0,
      };
      return reply.redirect(await oauth.approve(raw(request, reply), pending, approval), 303);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500 || error.code === 'not_found') throw error;
      reply.status(error.status);
      return consentPage(request, reply, ctx, pending, error.message);
    }
  });

  routes.get('/connections', async (request, reply, ctx) => {
    const { s } = ctx;
    const f = formatters(ctx.lang);
    const csrf = kit.csrf(reply);
    const rows = (await connections.list(ctx.actor)).map((c) => {
      const used = c.lastUsedAt ? fill(s.keyLastUsed, { date: f.dateTime(c.lastUsedAt) }) : escapeHtml(s.keyNeverUsed);
      const confirm = c.autoApproveCredits > 0 ? fill(s.connectionAutoApprove, { credits: f.int(c.autoApproveCredits) }) : escapeHtml(s.connectionAlwaysConfirm);
      return `<li class="row" data-testid="connection">
<strong>${escapeHtml(c.clientName)}</strong> ${fill(s.connectionOn, { account: c.account.name })}
<span class="row-meta">${escapeHtml(c.scopes.join(', '))} · ${escapeHtml(c.dailyCapCredits === null ? s.keyNoCap : `${s.keyCap}: ${f.int(c.dailyCapCredits)}`)} · ${confirm} · ${fill(s.keyCreated, { date: f.date(c.createdAt) })} · ${used}</span>
${buttonForm({ action: `/app/connections/${c.id}/revoke`, csrf, label: s.disconnect, style: 'danger' })}
</li>`;
    });
    const empty = `<li>${fill(s.connectionsEmpty, { url: `${config.publicBaseUrl}/mcp` })}</li>`;
    const done = queryParam(request, 'done') === 'revoked' ? notice('ok', s.done) : '';
    return kit.page(request, reply, ctx, s.connectionsTitle, `${done}<p class="lead">${escapeHtml(s.connectionsLead)}</p>
<section class="card"><ul class="rows">${rows.length ? rows.join('\n') : empty}</ul></section>`);
  });

  routes.post('/connections/:id/revoke', async (request, reply, ctx) => {
    await connections.revoke(ctx.actor, request.params.id);
    return reply.redirect('/app/connections?done=revoked', 303);
  });
};
