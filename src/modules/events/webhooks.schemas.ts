import { Type, type Static } from '@sinclair/typebox';
import { Closed, DateTime, Nullable, StringEnum } from '../../lib/typebox.ts';

export const EVENT_NAMES = [
  'question.reserved', 'question.completed', 'question.underfilled', 'question.cancelled', 'question.refused',
  'credits.purchased', 'credits.low', 'credits.expiring', 'dispute.resolved', 'connection.cap_warning',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export const WebhookEndpointSchema = Closed(
  {
    id: Type.String(),
    url: Type.String({ format: 'uri' }),
    events: Type.Array(StringEnum(EVENT_NAMES)),
    secret: Type.String({ description: 'Signing secret (whsec_…); shown in full only when the endpoint is created.' }),
    createdAt: DateTime(),
    lastDeliveryAt: Nullable(DateTime()),
    lastStatus: Nullable(Type.Integer()),
    description: Type.Optional(Nullable(Type.String())),
    enabled: Type.Optional(Type.Boolean()),
    disabledReason: Type.Optional(Nullable(Type.String())),
    lastSuccessAt: Type.Optional(Nullable(DateTime())),
  },
  { $id: 'WebhookEndpoint' },
);
export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;
