import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, StringEnum } from '../../lib/typebox.ts';

export const EVENT_NAMES = [
  'question.reserved', 'question.completed', 'question.underfilled', 'question.cancelled', 'question.refused',
  'credits.purchased', 'credits.low', 'credits.expiring', 'dispute.resolved', 'connection.cap_warning',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** Limits of an endpoint's fields (docs/webhooks.md "Endpoints"). */
export const ENDPOINT_LIMITS = { urlLength: 2048, descriptionLength: 200 } as const;

const EventNameSchema = StringEnum(EVENT_NAMES);
const EventsField = Type.Array(EventNameSchema, { minItems: 1, maxItems: EVENT_NAMES.length, uniqueItems: true, description: 'The event kinds this endpoint receives (at least one).' });
const UrlField = Type.String({ format: 'uri', maxLength: ENDPOINT_LIMITS.urlLength, description: 'Where events are POSTed: https (http and private addresses only outside production), no credentials, no fragment.' });
const DescriptionField = Nullable(Type.String({ maxLength: ENDPOINT_LIMITS.descriptionLength }), { description: 'A note for people: what this endpoint is for.' });

export const WebhookEndpointSchema = Closed(
  {
    id: Type.String(),
    url: Type.String({ format: 'uri' }),
    events: Type.Array(EventNameSchema),
    secret: Type.String({ description: 'Signing secret (whsec_…): in full only in the response that created or rotated it; elsewhere masked (whsec_…last four).' }),
    createdAt: DateTime(),
    lastDeliveryAt: Nullable(DateTime()),
    lastStatus: Nullable(Type.Integer({ description: "HTTP status of the last attempt; null before the first, or when the last attempt got no response (see the delivery's error)." })),
    description: Type.Optional(Nullable(Type.String())),
    enabled: Type.Optional(Type.Boolean()),
    disabledReason: Type.Optional(Nullable(Type.String())),
    lastSuccessAt: Type.Optional(Nullable(DateTime())),
    previousSecretExpiresAt: Type.Optional(Nullable(DateTime({ description: 'Extension: after a rotation, until when the previous secret still signs beside the new one; null when only one secret signs.' }))),
  },
  { $id: 'WebhookEndpoint' },
);
export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;

export const CreateWebhookEndpointBody = Closed({
  url: UrlField,
  events: EventsField,
  description: Type.Optional(DescriptionField),
});
export type CreateWebhookEndpointInput = Static<typeof CreateWebhookEndpointBody>;

export const UpdateWebhookEndpointBody = Closed(
  {
    url: Type.Optional(UrlField),
    events: Type.Optional(EventsField),
    description: Type.Optional(DescriptionField),
    enabled: Type.Optional(Type.Boolean({ description: 'false turns the endpoint off (its pending deliveries fail); true turns it back on and clears disabledReason.' })),
  },
  { description: 'The fields to change; those left out stay as they are (an empty body changes nothing).' },
);
export type UpdateWebhookEndpointInput = Static<typeof UpdateWebhookEndpointBody>;

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const WebhookDeliverySchema = Closed(
  {
    eventId: Type.String({ description: 'The event id: the webhook-id header of every attempt, and the payload\'s id.' }),
    type: EventNameSchema,
    test: Type.Boolean({ description: 'A test event sent from the portal or POST …/test.' }),
    status: StringEnum(DELIVERY_STATUSES, { description: 'pending: an attempt is due or in flight; succeeded: a 2xx came back; failed: the schedule ran out, or the endpoint was turned off.' }),
    attempts: Type.Integer({ minimum: 0 }),
    nextAttemptAt: Nullable(DateTime()),
    lastAttemptAt: Nullable(DateTime()),
    lastStatus: Nullable(Type.Integer()),
    lastError: Nullable(Type.String({ description: 'Why the last attempt failed without an HTTP status (timeout, refused address, …).' })),
    responseTimeMs: Nullable(Type.Integer({ minimum: 0, description: 'How long the last attempt took.' })),
    createdAt: DateTime(),
    completedAt: Nullable(DateTime()),
  },
  { $id: 'WebhookDelivery' },
);
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>;

export const WebhookAttemptSchema = Closed(
  {
    attempt: Type.Integer({ minimum: 1 }),
    at: DateTime(),
    status: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    responseTimeMs: Type.Integer({ minimum: 0 }),
    responseBody: Nullable(Type.String({ description: 'The first 1,024 bytes of what the receiver answered.' })),
  },
  { $id: 'WebhookAttempt' },
);
export type WebhookAttempt = Static<typeof WebhookAttemptSchema>;

export const TestEventBody = Closed({
  type: Type.Optional(StringEnum(EVENT_NAMES, { description: 'The event kind the test event claims (default question.completed); its data is only {test: true, endpointId}.' })),
});
