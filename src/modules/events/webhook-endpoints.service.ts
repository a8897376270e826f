import { TURNED_OFF } from './events.repository.ts';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { requireRole, sessionOf, type Actor } from '../../lib/actor.ts';
import type { Clock } from '../../lib/clock.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { AppError, notFound, validationError, type ValidationItem } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { OutboundError } from '../../lib/outbound-http.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { AttemptRow, DeliveryListRow, WebhookDeliveriesRepository } from './webhook-deliveries.repository.ts';
import type { EndpointRow, WebhookEndpointsRepository } from './webhook-endpoints.repository.ts';
import { maskedSecret, newWebhookSecret } from './webhook-signing.ts';
import { ENDPOINT_LIMITS, EVENT_NAMES } from './webhooks.schemas.ts';
import type {
  CreateWebhookEndpointInput,
  EventName,
  UpdateWebhookEndpointInput,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
} from './webhooks.schemas.ts';

/** After a rotation the previous secret signs beside the new one this long. */
export const PREVIOUS_SECRET_HOURS = 24;
const DELIVERIES_PAGE = 50;
const TEST_REF = 'test:';

export interface WebhookEndpointsDeps {
  db: Db;
  endpoints: WebhookEndpointsRepository;
  deliveries: WebhookDeliveriesRepository;
  box: SecretBox;
  clock: Clock;
  maxEndpoints: number;
  /** lib/outbound-http.ts's checkOutboundUrl with this deployment's address rules. */
  checkUrl(url: string): Promise<void>;
}

function endpointView(row: EndpointRow, secret: string, now: Date): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events as EventName[],
    secret,
    createdAt: row.created_at.toISOString(),
    lastDeliveryAt: row.last_delivery_at?.toISOString() ?? null,
    lastStatus: row.last_status,
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    lastSuccessAt: row.last_success_at?.toISOString() ?? null,
    previousSecretExpiresAt: row.previous_secret_until && row.previous_secret_until > now ? row.previous_secret_until.toISOString() : null,
  };
}

function deliveryView(row: DeliveryListRow): WebhookDelivery {
  return {
    eventId: row.event_id,
    type: row.type as EventName,
    test: row.unique_ref.startsWith(TEST_REF),
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
    lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
    lastStatus: row.last_status,
    lastError: row.last_error,
    responseTimeMs: row.last_duration_ms,
    createdAt: row.created_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}

function attemptView(row: AttemptRow): WebhookAttempt {
  return { attempt: row.attempt, at: row.at.toISOString(), status: row.status, error: row.error, responseTimeMs: row.duration_ms, responseBody: row.response_body };
}

/**
 * Webhook endpoints (docs/webhooks.md "Endpoints"), portal session only (spec "Webhook
 * endpoints"): any member of the account reads them and their deliveries, an owner or admin
 * changes them. The secret is in full only in the answer that made it (create, rotate).
 */
export function createWebhookEndpointsService(deps: WebhookEndpointsDeps) {
  const { endpoints, deliveries, box, clock } = deps;

  /** The view lists show; a secret no configured key opens shows as such (rotating it mends that). */
  function masked(row: EndpointRow): WebhookEndpoint {
    let shown: string;
    try {
      shown = maskedSecret(box.open(row.secret_box, row.id));
    } catch {
      shown = 'whsec_… (unreadable: rotate it)';
    }
    return endpointView(row, shown, clock.now());
  }

  async function readable(actor: Actor, id: string): Promise<EndpointRow> {
    sessionOf(actor);
    const row = await endpoints.find(actor.accountId, id);
    if (!row) throw notFound('No such webhook endpoint.');
    return row;
  }

  /**
   * The fields' own rules, as the route's schema states them, for callers that come without one
   * (the portal's forms, the CLI): known, distinct event kinds, at least one; lengths.
   */
  function checkFields(input: { url?: string; events?: readonly string[]; description?: string | null }): void {
    const problems: ValidationItem[] = [];
    if (input.url !== undefined && input.url.length > ENDPOINT_LIMITS.urlLength) problems.push({ field: 'url', code: 'too_long', message: `url must be at most ${ENDPOINT_LIMITS.urlLength} characters.` });
    if (input.events !== undefined) {
      if (input.events.length === 0) problems.push({ field: 'events', code: 'too_few', message: 'events must name at least one event kind.' });
      const unknown = input.events.filter((e) => !(EVENT_NAMES as readonly string[]).includes(e));
      if (unknown.length) problems.push({ field: 'events', code: 'unknown_value', message: `events has unknown kinds: ${unknown.join(', ')}.` });
      if (new Set(input.events).size !== input.events.length) problems.push({ field: 'events', code: 'not_allowed', message: 'events names a kind twice.' });
    }
    if (input.description != null && input.description.length > ENDPOINT_LIMITS.descriptionLength) problems.push({ field: 'description', code: 'too_long', message: `description must be at most ${ENDPOINT_LIMITS.descriptionLength} characters.` });
    if (problems.length) throw validationError(problems);
  }

  /** The URL's scheme and addresses, checked as a delivery would (and again at every delivery). */
  async function checkUrl(url: string): Promise<void> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw validationError([{ field: 'url', code: 'invalid_format', message: 'url is not a valid URL.' }]);
    }
    if (parsed.hash) throw validationError([{ field: 'url', code: 'not_allowed', message: 'url must not have a #fragment: it is never sent.' }]);
    try {
      await deps.checkUrl(url);
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      throw validationError([{ field: 'url', code: error.code === 'dns_failed' || error.code === 'timeout' ? 'invalid_format' : 'not_allowed', message: error.message }]);
    }
  }

  return {
    async list(actor: Actor): Promise<WebhookEndpoint[]> {
      sessionOf(actor);
      return (await endpoints.list(actor.accountId)).map(masked);
    },

    async get(actor: Actor, id: string): Promise<WebhookEndpoint> {
      return masked(await readable(actor, id));
    },

    async create(actor: Actor, input: CreateWebhookEndpointInput): Promise<WebhookEndpoint> {
      const session = requireRole(actor, 'admin', 'manage webhook endpoints');
      checkFields(input);
      await checkUrl(input.url);
      const id = newId('webhook');
      const secret = newWebhookSecret();
      const at = clock.now();
      const row = await inTransaction(deps.db, async (tx) => {
        await endpoints.lockAccountEndpoints(actor.accountId, tx);
        if ((await endpoints.count(actor.accountId, tx)) >= deps.maxEndpoints) {
          throw new AppError('conflict', `An account can have at most ${deps.maxEndpoints} webhook endpoints; delete one first.`, { limit: deps.maxEndpoints });
        }
        return endpoints.insert(
          { id, account_id: actor.accountId, url: input.url, events: [...input.events], description: input.description ?? null, secret_box: box.seal(secret, id), created_by: session.personId, created_at: at, updated_at: at },
          tx,
        );
      });
      return endpointView(row, secret, at);
    },

    async update(actor: Actor, id: string, input: UpdateWebhookEndpointInput): Promise<WebhookEndpoint> {
      requireRole(actor, 'admin', 'manage webhook endpoints');
      checkFields(input);
      if (input.url !== undefined) await checkUrl(input.url);
      const at = clock.now();
      const row = await inTransaction(deps.db, async (tx) => {
        const current = await endpoints.lock(actor.accountId, id, tx);
        if (!current) throw notFound('No such webhook endpoint.');
        const turningOn = input.enabled === true && !current.enabled;
        const turningOff = input.enabled === false && current.enabled;
        if (turningOff) await deliveries.failPending(id, TURNED_OFF, at, tx);
        return endpoints.update(
          id,
          {
            ...(input.url !== undefined && { url: input.url }),
            ...(input.events !== undefined && { events: [...input.events] }),
            ...(input.description !== undefined && { description: input.description }),
            ...(input.enabled !== undefined && { enabled: input.enabled }),
            ...(turningOn && { disabled_reason: null, failing_since: null }),
            ...(turningOff && { disabled_reason: 'Turned off by a person.' }),
            updated_at: at,
          },
          tx,
        );
      });
      return masked(row);
    },

    async remove(actor: Actor, id: string): Promise<void> {
      requireRole(actor, 'admin', 'manage webhook endpoints');
      if (!(await endpoints.delete(actor.accountId, id))) throw notFound('No such webhook endpoint.');
    },

    /** A new secret, shown once; the previous one keeps signing beside it for 24 hours. */
    async rotateSecret(actor: Actor, id: string): Promise<WebhookEndpoint> {
      requireRole(actor, 'admin', 'manage webhook endpoints');
      const secret = newWebhookSecret();
      const at = clock.now();
      const row = await inTransaction(deps.db, async (tx) => {
        const current = await endpoints.lock(actor.accountId, id, tx);
        if (!current) throw notFound('No such webhook endpoint.');
        return endpoints.update(id, { secret_box: box.seal(secret, id), previous_secret_box: current.secret_box, previous_secret_until: new Date(at.getTime() + PREVIOUS_SECRET_HOURS * 3_600_000), updated_at: at }, tx);
      });
      return endpointView(row, secret, at);
    },

    /** Queues a test event to this endpoint only; the delivery shows how it went. */
    async sendTest(actor: Actor, id: string, type: EventName = 'question.completed'): Promise<WebhookDelivery> {
      requireRole(actor, 'admin', 'send test events');
      const endpoint = await readable(actor, id);
      if (!endpoint.enabled) throw new AppError('conflict', 'This endpoint is turned off; turn it on to send a test event.');
      const eventId = newId('event');
      const at = clock.now();
      const payload = { id: eventId, type, createdAt: at.toISOString(), data: { test: true, endpointId: id } };
      await deliveries.insertTestEvent({ id: eventId, account_id: actor.accountId, type, payload: JSON.stringify(payload), unique_ref: `${TEST_REF}${eventId}`, created_at: at }, id, at);
      return this.delivery(actor, id, eventId).then((d) => d.delivery);
    },

    async deliveries(actor: Actor, id: string, cursor: string | undefined): Promise<{ deliveries: WebhookDelivery[]; nextCursor: string | null }> {
      await readable(actor, id);
      const after = cursor ? decodeCursor<[number, string]>(cursor, ['number', 'string']) : null;
      const rows = await deliveries.list(id, DELIVERIES_PAGE + 1, after ? { createdAt: new Date(after[0]), eventId: after[1] } : null);
      const page = rows.slice(0, DELIVERIES_PAGE);
      const last = page.at(-1);
      return { deliveries: page.map(deliveryView), nextCursor: rows.length > DELIVERIES_PAGE && last ? encodeCursor([last.created_at.getTime(), last.event_id]) : null };
    },

    /** One delivery with every attempt and the event as it is sent. */
    async delivery(actor: Actor, id: string, eventId: string): Promise<{ delivery: WebhookDelivery; attempts: WebhookAttempt[]; event: unknown }> {
      await readable(actor, id);
      const row = await deliveries.find(id, eventId);
      if (!row) throw notFound('No such delivery on this endpoint.');
      return { delivery: deliveryView(row), attempts: (await deliveries.attempts(id, eventId)).map(attemptView), event: row.payload };
    },

    /** Sends a delivery again now (same webhook-id), restarting its retry schedule. */
    async redeliver(actor: Actor, id: string, eventId: string): Promise<WebhookDelivery> {
      requireRole(actor, 'admin', 'redeliver webhook events');
      const endpoint = await readable(actor, id);
      if (!endpoint.enabled) throw new AppError('conflict', 'This endpoint is turned off; turn it on before redelivering.');
      if (!(await deliveries.find(id, eventId))) throw notFound('No such delivery on this endpoint.');
      if (!(await deliveries.redeliver(id, eventId, clock.now()))) throw new AppError('conflict', 'An attempt at this delivery is in flight; wait for it to finish.');
      return (await this.delivery(actor, id, eventId)).delivery;
    },
  };
}
export type WebhookEndpointsService = ReturnType<typeof createWebhookEndpointsService>;
