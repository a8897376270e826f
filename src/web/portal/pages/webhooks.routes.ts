import { fillTemplate } from '../../../modules/mail/mail-html.ts';
import type { FastifyReply } from 'fastify';
import { AppError, notFound, validationError, type ValidationItem } from '../../../lib/errors.ts';
import { MEMBER_ROLES } from '../../../lib/actor.ts';
import { PREVIOUS_SECRET_HOURS } from '../../../modules/events/webhook-endpoints.service.ts';
import { ENDPOINT_LIMITS, EVENT_NAMES, type EventName, type UpdateWebhookEndpointInput, type WebhookDelivery, type WebhookEndpoint } from '../../../modules/events/webhooks.schemas.ts';
import { buttonForm, csrfField, escapeHtml, fill, formatters, notice, type Formatters } from '../portal-html.ts';
import { formField, queryParam, type PageRequest, type PortalPages } from '../portal-kit.ts';
import { FormSentAgain, nonceField, nonceHidden, sentOnce } from '../form-nonce.ts';
import type { PortalContext } from '../portal-context.ts';
import type { PortalStrings } from '../strings/index.ts';

const eventLabel = (s: PortalStrings, event: string) => s[`event_${event.replace('.', '_')}` as keyof PortalStrings] ?? event;
const isEvent = (value: string): value is EventName => (EVENT_NAMES as readonly string[]).includes(value);
/** Endpoint and event ids as the service makes them (`whe_…`, `evt_…`); anything else is no page at all. */
const ID = /^[A-Za-z0-9_]{1,64}$/;
const DEFAULT_EVENTS: readonly EventName[] = ['question.completed'];
const DEFAULT_TEST_EVENT: EventName = 'question.completed';
/** A template's `{name}`s filled as plain text (for messages that are escaped where they are shown). */

/** What a form posted, kept to show it again when the service refuses it. */
interface EndpointForm {
  url: string;
  description: string;
  events: string[];
}

/** A refusal shown on the page: the message, and the fields it names (marked on the form). */
interface Refusal {
  message: string;
  fields: Set<string>;
  /** Which form it belongs to on the endpoint's page: the edit form, or the page's actions. */
  at: 'form' | 'page';
  status: number;
}

function refusal(error: unknown, at: Refusal['at'] = 'form'): Refusal {
  // Not-found (another account's endpoint, a deleted one) and anything of ours that broke are the error handler's.
  if (!(error instanceof AppError) || error.status >= 500 || error.code === 'not_found') throw error;
  const items = (error.details?.validation ?? []) as ValidationItem[];
  return { message: error.message, fields: new Set(items.map((item) => item.field)), at, status: error.status };
}

/** The form's fields as the service takes them, checked as the API's schema checks them (the service trusts its callers for that). */
/**
 * The form's own checks, before the service's: the same rules (webhook-endpoints.service.ts
 * checkFields), said in the person's language and marked on the form.
 */
function readForm(request: PageRequest, s: PortalStrings): { form: EndpointForm; input: { url: string; description: string | null; events: EventName[] } } {
  const form: EndpointForm = {
    url: formField(request, 'url').trim(),
    description: formField(request, 'description').trim(),
    events: [...new Set((request.body?.getAll('events') ?? []).filter(isEvent))],
  };
  const problems: ValidationItem[] = [];
  if (!form.url) problems.push({ field: 'url', code: 'required', message: s.webhookUrlRequired });
  else if (form.url.length > ENDPOINT_LIMITS.urlLength) problems.push({ field: 'url', code: 'too_long', message: fillTemplate(s.webhookTooLong, { field: s.webhookUrl, n: ENDPOINT_LIMITS.urlLength }) });
  if (form.description.length > ENDPOINT_LIMITS.descriptionLength) {
    problems.push({ field: 'description', code: 'too_long', message: fillTemplate(s.webhookTooLong, { field: s.webhookDescription, n: ENDPOINT_LIMITS.descriptionLength }) });
  }
  if (form.events.length === 0) problems.push({ field: 'events', code: 'too_few', message: s.webhookEventsRequired });
  if (problems.length) throw validationError(problems, problems.map((p) => p.message).join(' '));
  return { form, input: { url: form.url, description: form.description || null, events: form.events as EventName[] } };
}

/**
 * Webhooks (`/app/webhooks`, issue 12; the API's "Webhook endpoints (portal session only)"): the
 * account's endpoints with how their deliveries go, adding one (its signing secret shown once, on
 * the answer to the form that made it: never stored, never in a URL), and per endpoint its own
 * page: change it, turn it off or on, rotate the secret (the new one shown once, the old one
 * signing beside it for 24 hours), send a test event, delete it after a confirmation page, and the
 * delivery log with each delivery's attempts and event, each redeliverable. Every member reads;
 * owners and admins change (the service's rule: the page only leaves out what it would refuse).
 * The two forms that answer with a secret (add, rotate) act once (form-nonce.ts): a reload sends
 * them again, and must not add a second endpoint or rotate again (which would end the first new
 * secret's grace).
 */
export const webhooksPages: PortalPages = (app, kit) => {
  const routes = kit.routes(app);
  const { webhooks, formNonces } = kit.deps;

  const canManage = (ctx: PortalContext) => MEMBER_ROLES.indexOf(ctx.acting.role) >= MEMBER_ROLES.indexOf('admin');
  const endpointPath = (id: string) => `/app/webhooks/${id}`;
  const idOf = (request: PageRequest, name = 'id') => {
    const value = request.params[name] ?? '';
    if (!ID.test(value)) throw notFound();
    return value;
  };

  const invalid = (refused: Refusal | undefined, field: string) => (refused?.fields.has(field) ? ' aria-invalid="true" aria-describedby="form-error"' : '');
  const formError = (refused: Refusal | undefined) => (refused ? `<p id="form-error" class="notice notice-error" role="alert">${escapeHtml(refused.message)}</p>` : '');

  function secretCard(s: PortalStrings, secret: string, rotated: boolean, extra = ''): string {
    return `<section class="card secret-card" aria-labelledby="secret-heading">
<h2 id="secret-heading">${escapeHtml(rotated ? s.webhookRotatedTitle : s.webhookSecretTitle)}</h2>
<p>${rotated ? fill(s.webhookRotatedBody, { hours: PREVIOUS_SECRET_HOURS }) : escapeHtml(s.webhookSecretBody)}</p>
<div class="secret"><code id="new-secret" data-testid="new-secret">${escapeHtml(secret)}</code><button type="button" class="button secondary small copy" data-copy="#new-secret" data-copied="${escapeHtml(s.copied)}" hidden>${escapeHtml(s.copy)}</button></div>
${extra}</section>\n`;
  }

  /** The fields of the add and the change form: URL, description, a checkbox per event kind. */
  function endpointFields(s: PortalStrings, form: EndpointForm, refused: Refusal | undefined): string {
    const checks = EVENT_NAMES.map(
      (event) => `<label class="check"><input type="checkbox" name="events" value="${event}"${form.events.includes(event) ? ' checked' : ''}> <span><code>${event}</code>: ${escapeHtml(eventLabel(s, event))}</span></label>`,
    ).join('\n');
    return `<label for="webhook-url">${escapeHtml(s.webhookUrl)}</label><input id="webhook-url" name="url" inputmode="url" autocomplete="off" spellcheck="false" required maxlength="${ENDPOINT_LIMITS.urlLength}" placeholder="https://example.com/webhooks/headcount" value="${escapeHtml(form.url)}"${invalid(refused, 'url')}>
<small class="muted">${escapeHtml(s.webhookUrlHint)}</small>
<label for="webhook-description">${escapeHtml(s.webhookDescription)}</label><input id="webhook-description" name="description" maxlength="${ENDPOINT_LIMITS.descriptionLength}" value="${escapeHtml(form.description)}"${invalid(refused, 'description')}>
<fieldset${invalid(refused, 'events')}><legend>${escapeHtml(s.webhookEvents)}</legend>${checks}</fieldset>`;
  }

  function stateOf(s: PortalStrings, endpoint: WebhookEndpoint): string {
    if (endpoint.enabled !== false) return `<span class="status-pill" data-testid="endpoint-state">${escapeHtml(s.webhookOn)}</span>`;
    return `<div class="notice notice-error" role="note" data-testid="endpoint-state"><strong>${escapeHtml(s.webhookOff)}</strong>${endpoint.disabledReason ? `: <span data-testid="disabled-reason">${escapeHtml(endpoint.disabledReason)}</span>` : ''}
<br>${escapeHtml(s.webhookOffHint)}</div>`;
  }

  const statusText = (s: PortalStrings, status: number | null | undefined) => (status === null || status === undefined ? s.webhookNoResponse : `HTTP ${status}`);

  function lastLine(s: PortalStrings, f: Formatters, e: WebhookEndpoint): string {
    if (!e.lastDeliveryAt) return escapeHtml(s.webhookNoDelivery);
    const success = e.lastSuccessAt ? fill(s.webhookLastSuccess, { date: f.dateTime(e.lastSuccessAt) }) : escapeHtml(s.webhookNoSuccess);
    return `${fill(s.webhookLastDelivery, { date: f.dateTime(e.lastDeliveryAt) })} · ${fill(s.webhookLastStatus, { status: statusText(s, e.lastStatus) })} · ${success}`;
  }

  // ---- the list, and adding an endpoint -------------------------------------------------------

  async function listPage(request: PageRequest, reply: FastifyReply, ctx: PortalContext, shown: { made?: WebhookEndpoint; refused?: Refusal; form?: EndpointForm; done?: string } = {}) {
    const { s } = ctx;
    const f = formatters(ctx.lang);
    const csrf = kit.csrf(reply);
    const endpoints = await webhooks.list(ctx.actor);
    const made = shown.made
      ? secretCard(s, shown.made.secret, false, `<p><a class="button secondary" href="${endpointPath(shown.made.id)}">${escapeHtml(s.webhookOpen)}</a></p>\n`)
      : '';
    const rows = endpoints.map((e) => {
      const off = e.enabled === false;
      return `<li class="row${off ? ' revoked' : ''}" data-testid="endpoint">
<a href="${endpointPath(e.id)}"><strong>${escapeHtml(e.url)}</strong></a> ${off ? '' : stateOf(s, e)}
${e.description ? `<span class="row-meta">${escapeHtml(e.description)}</span>` : ''}
<span class="row-meta">${fill(s.webhookEventsLine, { events: e.events.join(', ') })}</span>
<span class="row-meta">${lastLine(s, f, e)}</span>
${off ? stateOf(s, e) : ''}</li>`;
    });
    const form = shown.form ?? { url: '', description: '', events: [...DEFAULT_EVENTS] };
    const add = canManage(ctx)
      ? `<section class="card" aria-labelledby="add-endpoint"><h2 id="add-endpoint">${escapeHtml(s.webhookAdd)}</h2>
${formError(shown.refused)}<form method="post" action="/app/webhooks" class="stack">${csrfField(csrf)}${nonceField()}
${endpointFields(s, form, shown.refused)}
<button type="submit" class="button">${escapeHtml(s.webhookAdd)}</button>
</form></section>`
      : `<p class="muted" data-testid="read-only">${escapeHtml(s.webhooksAdminOnly)}</p>`;
    const done = shown.done === 'deleted' ? notice('ok', s.webhookDeleted) : '';
    // A refusal belongs on the form; without the form (a member), at the top.
    const refusedTop = shown.refused && !canManage(ctx) ? notice('error', shown.refused.message) : '';
    if (shown.refused) reply.status(shown.refused.status);
    return kit.page(request, reply, ctx, s.webhooksTitle, `${done}${refusedTop}${made}<p class="lead">${escapeHtml(s.webhooksLead)}</p>
<section class="card"><ul class="rows">${rows.length ? rows.join('\n') : `<li>${escapeHtml(s.webhooksEmpty)}</li>`}</ul></section>
${add}`);
  }

  routes.get('/webhooks', async (request, reply, ctx) => listPage(request, reply, ctx, { done: queryParam(request, 'done') }));

  routes.post('/webhooks', async (request, reply, ctx) => {
    let form: EndpointForm = { url: formField(request, 'url').trim(), description: formField(request, 'description').trim(), events: (request.body?.getAll('events') ?? []).filter(isEvent) };
    try {
      const read = readForm(request, ctx.s);
      form = read.form;
      const made = await sentOnce(formNonces, request, ctx, ctx.s.webhookAddedAlready, () => webhooks.create(ctx.actor, read.input));
      // The secret is in this answer only: never cached, never in a URL.
      reply.header('cache-control', 'no-store');
      reply.status(201);
      return listPage(request, reply, ctx, { made });
    } catch (error) {
      // Sent again (a reload): the endpoint it added is in the list, and the form starts afresh.
      return listPage(request, reply, ctx, { refused: refusal(error), form: error instanceof FormSentAgain ? undefined : form });
    }
  });

  // ---- one endpoint ---------------------------------------------------------------------------

  async function endpointPage(
    request: PageRequest,
    reply: FastifyReply,
    ctx: PortalContext,
    id: string,
    shown: { secret?: string; refused?: Refusal; form?: EndpointForm; done?: string } = {},
  ) {
    const { s } = ctx;
    const f = formatters(ctx.lang);
    const csrf = kit.csrf(reply);
    const endpoint = await webhooks.get(ctx.actor, id);
    const cursor = queryParam(request, 'cursor');
    const { deliveries, nextCursor } = await webhooks.deliveries(ctx.actor, id, cursor);
    const manage = canManage(ctx);
    const on = endpoint.enabled !== false;
    const path = endpointPath(id);

    const doneText: Record<string, string> = { saved: s.webhookSaved, on: s.webhookTurnedOn, off: s.webhookTurnedOff, test: s.webhookTestQueued, redelivered: s.webhookRedelivered };
    const top = [
      shown.done && doneText[shown.done] ? notice('ok', doneText[shown.done]) : '',
      shown.refused && (shown.refused.at === 'page' || !manage) ? notice('error', shown.refused.message) : '',
      shown.secret ? secretCard(s, shown.secret, true) : '',
    ].join('');

    const facts = `<dl class="kv-list">
<div class="kv"><dt>${escapeHtml(s.webhookUrl)}</dt><dd data-testid="endpoint-url">${escapeHtml(endpoint.url)}</dd></div>
${endpoint.description ? `<div class="kv"><dt>${escapeHtml(s.webhookDescriptionLabel)}</dt><dd>${escapeHtml(endpoint.description)}</dd></div>` : ''}
<div class="kv"><dt>${escapeHtml(s.webhookEvents)}</dt><dd>${escapeHtml(endpoint.events.join(', '))}</dd></div>
<div class="kv"><dt>${escapeHtml(s.webhookSecret)}</dt><dd><code>${escapeHtml(endpoint.secret)}</code></dd></div>
<div class="kv"><dt>${escapeHtml(s.webhookCreated)}</dt><dd>${escapeHtml(f.dateTime(endpoint.createdAt))}</dd></div>
<div class="kv"><dt>${escapeHtml(s.webhookLastDeliveryLabel)}</dt><dd>${escapeHtml(endpoint.lastDeliveryAt ? f.dateTime(endpoint.lastDeliveryAt) : s.never)}</dd></div>
<div class="kv"><dt>${escapeHtml(s.webhookLastStatusLabel)}</dt><dd data-testid="endpoint-last-status">${escapeHtml(endpoint.lastDeliveryAt ? statusText(s, endpoint.lastStatus) : s.none)}</dd></div>
<div class="kv"><dt>${escapeHtml(s.webhookLastSuccessLabel)}</dt><dd>${escapeHtml(endpoint.lastSuccessAt ? f.dateTime(endpoint.lastSuccessAt) : s.never)}</dd></div>
</dl>`;

    const testForm = on
      ? `<form method="post" action="${path}/test" class="stack">${csrfField(csrf)}
<label for="test-type">${escapeHtml(s.webhookTestType)}</label><select id="test-type" name="type">${EVENT_NAMES.map((e) => `<option value="${e}"${e === (endpoint.events[0] ?? DEFAULT_TEST_EVENT) ? ' selected' : ''}>${e}</option>`).join('')}</select>
<small class="muted">${escapeHtml(s.webhookTestHint)}</small>
<button type="submit" class="button">${escapeHtml(s.webhookSendTest)}</button>
</form>`
      : '';
    const actions = manage
      ? `<section class="card" aria-labelledby="actions"><h2 id="actions">${escapeHtml(s.webhookActions)}</h2>
${testForm}
<div class="actions">${on ? buttonForm({ action: `${path}/turn-off`, csrf, label: s.webhookTurnOff }) : buttonForm({ action: `${path}/turn-on`, csrf, label: s.webhookTurnOn, style: 'primary' })}
${buttonForm({ action: `${path}/rotate-secret`, csrf, label: s.webhookRotate, hidden: nonceHidden() })}
<a class="button danger" href="${path}/delete">${escapeHtml(s.webhookDelete)}</a></div>
<p class="muted">${fill(s.webhookRotateHint, { hours: PREVIOUS_SECRET_HOURS })}</p>
</section>`
      : `<p class="muted" data-testid="read-only">${escapeHtml(s.webhooksAdminOnly)}</p>`;

    const editRefused = shown.refused?.at === 'form' ? shown.refused : undefined;
    const form = shown.form ?? { url: endpoint.url, description: endpoint.description ?? '', events: [...endpoint.events] };
    const edit = manage
      ? `<section class="card" aria-labelledby="edit-endpoint"><h2 id="edit-endpoint">${escapeHtml(s.webhookEdit)}</h2>
${formError(editRefused)}<form method="post" action="${path}" class="stack">${csrfField(csrf)}
${endpointFields(s, form, editRefused)}
<button type="submit" class="button">${escapeHtml(s.save)}</button>
</form></section>`
      : '';

    const deliveryRows = deliveries.map((d) => deliveryRow(s, f, d, path, csrf, manage && on));
    const older = nextCursor ? `<p><a class="text-link" href="${path}?cursor=${encodeURIComponent(nextCursor)}">${escapeHtml(s.olderRows)}</a></p>` : '';
    const log = `<section class="card" aria-labelledby="deliveries"><h2 id="deliveries">${escapeHtml(s.webhookDeliveries)}</h2>
<p class="muted">${escapeHtml(s.webhookDeliveriesHint)}</p>
${deliveryRows.length ? `<ul class="rows" data-testid="deliveries">${deliveryRows.join('\n')}</ul>${older}` : `<p>${escapeHtml(cursor ? s.ledgerEmpty : s.webhookDeliveriesEmpty)}</p>`}
</section>`;

    if (shown.refused) reply.status(shown.refused.status);
    return kit.page(request, reply, ctx, s.webhookEndpointTitle, `${top}<p><a class="text-link" href="/app/webhooks">← ${escapeHtml(s.backToWebhooks)}</a></p>
<section class="card">${stateOf(s, endpoint)}${facts}</section>
${actions}
${log}
${edit}`);
  }

  function deliveryRow(s: PortalStrings, f: Formatters, d: WebhookDelivery, path: string, csrf: string, redeliver: boolean): string {
    const result = d.lastStatus !== null ? `HTTP ${d.lastStatus}` : (d.lastError ?? (d.attempts === 0 ? null : s.webhookNoResponse));
    const meta = [
      escapeHtml(f.dateTime(d.createdAt)),
      `${escapeHtml(s.deliveryAttempts)}: ${f.int(d.attempts)}`,
      ...(result ? [`<span data-testid="delivery-result">${escapeHtml(result)}</span>`] : []),
      ...(d.responseTimeMs !== null ? [fill(s.deliveryMs, { ms: f.int(d.responseTimeMs) })] : []),
      ...(d.status === 'pending' && d.nextAttemptAt ? [fill(s.deliveryNextAttempt, { date: f.dateTime(d.nextAttemptAt) })] : []),
    ];
    return `<li class="row" data-testid="delivery" data-event-id="${escapeHtml(d.eventId)}">
<strong>${escapeHtml(d.type)}</strong>${d.test ? ` <span class="status-pill">${escapeHtml(s.deliveryTest)}</span>` : ''} <span class="status-pill" data-testid="delivery-status">${escapeHtml(deliveryStatus(s, d.status))}</span>
<span class="row-meta">${escapeHtml(s.deliveryEventId)}: <a href="${path}/deliveries/${escapeHtml(d.eventId)}"><code>${escapeHtml(d.eventId)}</code></a></span>
<span class="row-meta">${meta.join(' · ')}</span>
${redeliver ? buttonForm({ action: `${path}/deliveries/${d.eventId}/redeliver`, csrf, label: s.redeliver }) : ''}</li>`;
  }

  const deliveryStatus = (s: PortalStrings, status: WebhookDelivery['status']) => s[`deliveryStatus_${status}`];

  /** Runs a change to an endpoint, then back to its page with `done`; a refusal is shown on the page. */
  async function change(request: PageRequest, reply: FastifyReply, ctx: PortalContext, work: (id: string) => Promise<unknown>, done: string) {
    const id = idOf(request);
    try {
      await work(id);
    } catch (error) {
      return endpointPage(request, reply, ctx, id, { refused: refusal(error, 'page') });
    }
    return reply.redirect(`${endpointPath(id)}?done=${done}`, 303);
  }

  routes.get('/webhooks/:id', async (request, reply, ctx) => endpointPage(request, reply, ctx, idOf(request), { done: queryParam(request, 'done') }));

  routes.post('/webhooks/:id', async (request, reply, ctx) => {
    const id = idOf(request);
    let form: EndpointForm | undefined;
    try {
      const read = readForm(request, ctx.s);
      form = read.form;
      const current = await webhooks.get(ctx.actor, id);
      // Only what changed: an unchanged URL is not checked again (its name may resolve differently today).
      const changes: UpdateWebhookEndpointInput = {
        ...(read.input.url !== current.url && { url: read.input.url }),
        ...(read.input.description !== (current.description ?? null) && { description: read.input.description }),
        ...((read.input.events.length !== current.events.length || read.input.events.some((e) => !current.events.includes(e))) && { events: read.input.events }),
      };
      if (Object.keys(changes).length) await webhooks.update(ctx.actor, id, changes);
    } catch (error) {
      const refused = refusal(error);
      return endpointPage(request, reply, ctx, id, { refused, form: form ?? { url: formField(request, 'url').trim(), description: formField(request, 'description').trim(), events: (request.body?.getAll('events') ?? []).filter(isEvent) } });
    }
    return reply.redirect(`${endpointPath(id)}?done=saved`, 303);
  });

  routes.post('/webhooks/:id/turn-off', async (request, reply, ctx) => change(request, reply, ctx, (id) => webhooks.update(ctx.actor, id, { enabled: false }), 'off'));
  routes.post('/webhooks/:id/turn-on', async (request, reply, ctx) => change(request, reply, ctx, (id) => webhooks.update(ctx.actor, id, { enabled: true }), 'on'));

  routes.post('/webhooks/:id/test', async (request, reply, ctx) => {
    const type = formField(request, 'type');
    return change(request, reply, ctx, (id) => webhooks.sendTest(ctx.actor, id, isEvent(type) ? type : DEFAULT_TEST_EVENT), 'test');
  });

  routes.post('/webhooks/:id/rotate-secret', async (request, reply, ctx) => {
    const id = idOf(request);
    let rotated: WebhookEndpoint;
    try {
      rotated = await sentOnce(formNonces, request, ctx, ctx.s.webhookRotatedAlready, () => webhooks.rotateSecret(ctx.actor, id));
    } catch (error) {
      return endpointPage(request, reply, ctx, id, { refused: refusal(error, 'page') });
    }
    // The new secret is in this answer only, as when the endpoint was added.
    reply.header('cache-control', 'no-store');
    return endpointPage(request, reply, ctx, id, { secret: rotated.secret });
  });

  routes.get('/webhooks/:id/delete', async (request, reply, ctx) => {
    const { s } = ctx;
    const id = idOf(request);
    const endpoint = await webhooks.get(ctx.actor, id);
    const confirm = canManage(ctx)
      ? `<div class="actions">${buttonForm({ action: `${endpointPath(id)}/delete`, csrf: kit.csrf(reply), label: s.webhookDeleteConfirm, style: 'danger' })}
<a class="button secondary" href="${endpointPath(id)}">${escapeHtml(s.cancel)}</a></div>`
      : `<p class="muted" data-testid="read-only">${escapeHtml(s.webhooksAdminOnly)}</p>`;
    return kit.page(request, reply, ctx, s.webhookDeleteTitle, `<p class="lead">${fill(s.webhookDeleteBody, { url: endpoint.url })}</p>\n${confirm}`);
  });

  routes.post('/webhooks/:id/delete', async (request, reply, ctx) => {
    const id = idOf(request);
    try {
      await webhooks.remove(ctx.actor, id);
    } catch (error) {
      return endpointPage(request, reply, ctx, id, { refused: refusal(error, 'page') });
    }
    return reply.redirect('/app/webhooks?done=deleted', 303);
  });

  // ---- one delivery ---------------------------------------------------------------------------

  routes.get('/webhooks/:id/deliveries/:eventId', async (request, reply, ctx) => {
    const { s } = ctx;
    const f = formatters(ctx.lang);
    const id = idOf(request);
    const eventId = idOf(request, 'eventId');
    const endpoint = await webhooks.get(ctx.actor, id);
    const { delivery: d, attempts, event } = await webhooks.delivery(ctx.actor, id, eventId);
    const path = endpointPath(id);
    const done = queryParam(request, 'done') === 'redelivered' ? notice('ok', s.webhookRedelivered) : '';
    const kv = (label: string, value: string, testid = '') => `<div class="kv"><dt>${escapeHtml(label)}</dt><dd${testid ? ` data-testid="${testid}"` : ''}>${value}</dd></div>`;
    const facts = `<dl class="kv-list">
${kv(s.webhookUrl, escapeHtml(endpoint.url))}
${kv(s.deliveryEvent, `${escapeHtml(d.type)}${d.test ? ` <span class="status-pill">${escapeHtml(s.deliveryTest)}</span>` : ''}`)}
${kv(s.deliveryEventId, `<code>${escapeHtml(d.eventId)}</code>`)}
${kv(s.deliveryStatus, escapeHtml(deliveryStatus(s, d.status)), 'delivery-status')}
${kv(s.deliveryAttempts, f.int(d.attempts))}
${kv(s.deliveryQueued, escapeHtml(f.dateTime(d.createdAt)))}
${d.nextAttemptAt ? kv(s.deliveryNext, escapeHtml(f.dateTime(d.nextAttemptAt))) : ''}
${d.completedAt ? kv(s.deliveryFinished, escapeHtml(f.dateTime(d.completedAt))) : ''}
</dl>`;
    const attemptRows = attempts.map(
      (a) => `<li class="row"><strong>#${f.int(a.attempt)}</strong> · ${escapeHtml(a.status !== null ? `HTTP ${a.status}` : (a.error ?? s.webhookNoResponse))} · ${fill(s.deliveryMs, { ms: f.int(a.responseTimeMs) })}
<span class="row-meta">${escapeHtml(f.dateTime(a.at))}</span>
${a.responseBody ? `<span class="row-meta">${escapeHtml(s.deliveryResponse)}:</span><pre class="code"><code>${escapeHtml(a.responseBody)}</code></pre>` : ''}</li>`,
    );
    const attemptsList = attemptRows.length ? `<ul class="rows" data-testid="attempts">${attemptRows.join('\n')}</ul>` : `<p>${escapeHtml(s.deliveryNoAttempts)}</p>`;
    const payload = typeof event === 'string' ? event : JSON.stringify(event, null, 2);
    const redeliver = canManage(ctx) && endpoint.enabled !== false
      ? buttonForm({ action: `${path}/deliveries/${d.eventId}/redeliver`, csrf: kit.csrf(reply), label: s.redeliver, style: 'primary', hidden: { back: 'delivery' } })
      : '';
    return kit.page(request, reply, ctx, s.deliveryTitle, `${done}<p><a class="text-link" href="${path}">← ${escapeHtml(s.backToEndpoint)}</a></p>
<section class="card">${facts}${redeliver}</section>
<section class="card" aria-labelledby="attempts-heading"><h2 id="attempts-heading">${escapeHtml(s.deliveryAttemptsTitle)}</h2>${attemptsList}</section>
<section class="card" aria-labelledby="payload-heading"><h2 id="payload-heading">${escapeHtml(s.deliveryPayload)}</h2><pre class="code"><code data-testid="event-json">${escapeHtml(payload)}</code></pre></section>`);
  });

  routes.post('/webhooks/:id/deliveries/:eventId/redeliver', async (request, reply, ctx) => {
    const id = idOf(request);
    const eventId = idOf(request, 'eventId');
    try {
      await webhooks.redeliver(ctx.actor, id, eventId);
    } catch (error) {
      return endpointPage(request, reply, ctx, id, { refused: refusal(error, 'page') });
    }
    const back = formField(request, 'back') === 'delivery' ? `${endpointPath(id)}/deliveries/${eventId}` : endpointPath(id);
    return reply.redirect(`${back}?done=redelivered`, 303);
  });
};
