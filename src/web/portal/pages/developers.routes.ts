import type { FastifyReply } from 'fastify';
import { AppError } from '../../../lib/errors.ts';
import { MEMBER_ROLES, SCOPES, isScope } from '../../../lib/actor.ts';
import { KEY_LIMITS } from '../../../modules/accounts/accounts.schemas.ts';
import { buttonForm, csrfField, escapeHtml, fill, formatters, notice } from '../portal-html.ts';
import { formField, queryParam, type PageRequest, type PortalPages } from '../portal-kit.ts';
import { formNonce, nonceField } from '../form-nonce.ts';
import type { PortalContext } from '../portal-context.ts';
import type { PortalStrings } from '../strings/index.ts';


const scopeLabel = (s: PortalStrings, scope: string) => s[`scope_${scope.replace(':', '_')}` as keyof PortalStrings] ?? scope;
const DEFAULT_SCOPES = ['questions:read', 'questions:write', 'account:read'];

/**
 * Developers (`/app/developers`, the spec's "created in the portal under Developers"): the
 * account's keys with their scopes, cap and last use; owners and admins make and revoke them. A new
 * key's secret is shown once, on the answer to the form that made it (never stored, never in a
 * URL), with a copy button and a first request to try. The form acts once (form-nonce.ts): sending
 * it again (a reload) makes no second key.
 */
export const developersPages: PortalPages = (app, kit) => {
  const routes = kit.routes(app);
  const { developerKeys, config } = kit.deps;

  async function page(request: PageRequest, reply: FastifyReply, ctx: PortalContext, shown: { secret?: string; error?: string; done?: string; status?: number }) {
    const { s } = ctx;
    const f = formatters(ctx.lang);
    const csrf = kit.csrf(reply);
    const canManage = MEMBER_ROLES.indexOf(ctx.acting.role) >= MEMBER_ROLES.indexOf('admin');
    const keys = await developerKeys.list(ctx.actor);
    const made = shown.secret
      ? `<section class="card secret-card" aria-labelledby="secret-heading">
<h2 id="secret-heading">${escapeHtml(s.keyMadeTitle)}</h2>
<p>${escapeHtml(s.keyMadeBody)}</p>
<div class="secret"><code id="new-secret" data-testid="new-secret">${escapeHtml(shown.secret)}</code><button type="button" class="button secondary small copy" data-copy="#new-secret" data-copied="${escapeHtml(s.copied)}" hidden>${escapeHtml(s.copy)}</button></div>
<p>${escapeHtml(s.tryIt)}</p>
<pre class="code"><code>${escapeHtml(`curl -s ${config.publicBaseUrl}/v1/billing/balance -H "Authorization: Bearer ${shown.secret}"`)}</code></pre>
</section>\n`
      : '';
    const rows = keys.map((k) => {
      const used = k.lastUsedAt ? fill(s.keyLastUsed, { date: f.dateTime(k.lastUsedAt) }) : escapeHtml(s.keyNeverUsed);
      const state = k.revokedAt ? `<span class="status-pill closed">${fill(s.keyRevoked, { date: f.date(k.revokedAt) })}</span>` : '';
      return `<li class="row${k.revokedAt ? ' revoked' : ''}">
<strong>${escapeHtml(k.name ?? k.prefix)}</strong> <code>${escapeHtml(k.prefix)}</code> ${state}
<span class="row-meta">${escapeHtml(k.scopes.join(', '))} · ${escapeHtml(k.dailyCapCredits === null ? s.keyNoCap : `${s.keyCap}: ${f.int(k.dailyCapCredits)}`)} · ${fill(s.keyCreated, { date: f.date(k.createdAt) })} · ${used}</span>
${canManage && !k.revokedAt ? buttonForm({ action: `/app/developers/${k.id}/revoke`, csrf, label: s.revoke, style: 'danger' }) : ''}
</li>`;
    });
    const form = canManage
      ? `<section class="card" aria-labelledby="make-key"><h2 id="make-key">${escapeHtml(s.makeKey)}</h2>
<form method="post" action="/app/developers" class="stack">${csrfField(csrf)}${nonceField()}
<label for="key-name">${escapeHtml(s.keyName)}</label><input id="key-name" name="name" required maxlength="${KEY_LIMITS.name}" placeholder="CI">
<fieldset><legend>${escapeHtml(s.keyScopes)}</legend>${SCOPES.map((scope) => `<label class="check"><input type="checkbox" name="scopes" value="${scope}"${DEFAULT_SCOPES.includes(scope) ? ' checked' : ''}> ${escapeHtml(scopeLabel(s, scope))}</label>`).join('\n')}</fieldset>
<label for="key-cap">${escapeHtml(s.keyCap)}</label><input id="key-cap" name="cap" type="number" min="0" max="${KEY_LIMITS.cap}" step="1" inputmode="numeric" value="5000"><small class="muted">${escapeHtml(s.keyCapHint)}</small>
<button type="submit" class="button">${escapeHtml(s.makeKey)}</button>
</form></section>`
      : `<p class="muted">${escapeHtml(s.keysAdminOnly)}</p>`;
    const body = `${shown.error ? notice('error', shown.error) : shown.done ? notice('ok', s.done) : ''}${made}<p class="lead">${escapeHtml(s.developersLead)}</p>
<section class="card"><ul class="rows">${rows.length ? rows.join('\n') : `<li>${escapeHtml(s.keysEmpty)}</li>`}</ul></section>
${form}`;
    if (shown.status) reply.status(shown.status);
    return kit.page(request, reply, ctx, s.developersTitle, body);
  }

  routes.get('/developers', async (request, reply, ctx) => {
    return page(request, reply, ctx, { done: queryParam(request, 'done') === 'revoked' ? 'revoked' : undefined });
  });

  routes.post('/developers', async (request, reply, ctx) => {
    const scopes = (request.body?.getAll('scopes') ?? []).filter(isScope);
    const capText = formField(request, 'cap').trim();
    const cap = capText === '' ? null : Number(capText);
    const nonce = formNonce(request);
    try {
      if (cap !== null && (!Number.isSafeInteger(cap) || cap < 0 || cap > KEY_LIMITS.cap)) throw new AppError('validation_failed', `${ctx.s.keyCap}: 0 to ${KEY_LIMITS.cap}.`);
      const name = formField(request, 'name').trim();
      if (!name || name.length > KEY_LIMITS.name) throw new AppError('validation_failed', `${ctx.s.keyName}: 1 to ${KEY_LIMITS.name}.`);
      const { secret } = await developerKeys.create(ctx.actor, { name, scopes, dailyCapCredits: cap }, nonce);
      // The secret is in this answer only: never cached, never in a URL.
      reply.header('cache-control', 'no-store');
      return page(request, reply, ctx, { secret, status: 201 });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      // A conflict here is this form sent again (a reload): said in the person's language, with the fresh form below.
      return page(request, reply, ctx, { error: error.code === 'conflict' ? ctx.s.keyMadeAlready : error.message, status: error.status });
    }
  });

  routes.post('/developers/:id/revoke', async (request, reply, ctx) => {
    await developerKeys.revoke(ctx.actor, request.params.id);
    return reply.redirect('/app/developers?done=revoked', 303);
  });
};
