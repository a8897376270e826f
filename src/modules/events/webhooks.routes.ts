import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed, IdParams, Nullable, RefOf } from '../../lib/typebox.ts';
import { actorOf, PORTAL_SESSION_ONLY } from '../../http/auth.ts';
import { errorResponse } from '../../http/responses.ts';
import type { WebhookEndpointsService } from './webhook-endpoints.service.ts';
import {
  CreateWebhookEndpointBody,
  TestEventBody,
  UpdateWebhookEndpointBody,
  WebhookAttemptSchema,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
} from './webhooks.schemas.ts';

const TAG = ['Webhooks'];
const EndpointBody = Closed({ endpoint: RefOf(WebhookEndpointSchema) });
const DeliveryBody = Closed({ delivery: RefOf(WebhookDeliverySchema) });
const DeliveryParams = Closed({ id: IdParams.properties.id, eventId: Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$', description: 'The event id (the webhook-id header the receiver got).' }) });

/**
 * Webhook endpoints (spec "Webhook endpoints (portal session only)"; docs/webhooks.md): list and
 * create exactly as the spec, and the parts it leaves open: read, change, delete, rotate the
 * secret, send a test event, list deliveries with their attempts, redeliver.
 */
export function webhooksRoutes(deps: { webhooks: WebhookEndpointsService }): FastifyPluginAsync {
  const { webhooks } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v1/webhooks/endpoints', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'listWebhookEndpoints',
        tags: TAG,
        summary: "The account's webhook endpoints, oldest first (secrets masked)",
        response: { 200: Closed({ endpoints: Type.Array(RefOf(WebhookEndpointSchema)) }) },
      },
    }, async (request) => ({ endpoints: await webhooks.list(actorOf(request)) }));

    app.post('/v1/webhooks/endpoints', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'createWebhookEndpoint',
        tags: TAG,
        summary: 'Register an endpoint; its signing secret is in this answer only',
        description: 'The URL is checked as every delivery will check it: https (http only outside production), no user name or password, no #fragment, and in production every address the name resolves to must be public. At most WEBHOOK_MAX_ENDPOINTS (default 10) per account: 409 conflict past it. Owners and admins only.',
        body: CreateWebhookEndpointBody,
        response: { 200: EndpointBody, 409: errorResponse('The account has as many endpoints as it may (`conflict`, `details.limit`).') },
      },
    }, async (request) => ({ endpoint: await webhooks.create(actorOf(request), request.body) }));

    app.get('/v1/webhooks/endpoints/:id', {
      config: PORTAL_SESSION_ONLY,
      schema: { operationId: 'getWebhookEndpoint', tags: TAG, summary: 'One endpoint (secret masked)', params: IdParams, response: { 200: EndpointBody } },
    }, async (request) => ({ endpoint: await webhooks.get(actorOf(request), request.params.id) }));

    app.patch('/v1/webhooks/endpoints/:id', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'updateWebhookEndpoint',
        tags: TAG,
        summary: 'Change the URL, events, description, or turn the endpoint off or on',
        description: 'Turning an endpoint off fails its pending deliveries; turning it on clears disabledReason (redeliver what it missed). Owners and admins only.',
        params: IdParams,
        body: UpdateWebhookEndpointBody,
        response: { 200: EndpointBody },
      },
    }, async (request) => ({ endpoint: await webhooks.update(actorOf(request), request.params.id, request.body) }));

    app.delete('/v1/webhooks/endpoints/:id', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'deleteWebhookEndpoint',
        tags: TAG,
        summary: 'Delete an endpoint with its delivery log',
        params: IdParams,
        response: { 200: Closed({ ok: Type.Literal(true) }) },
      },
    }, async (request) => {
      await webhooks.remove(actorOf(request), request.params.id);
      return { ok: true as const };
    });

    app.post('/v1/webhooks/endpoints/:id/rotate-secret', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'rotateWebhookSecret',
        tags: TAG,
        summary: 'A new signing secret, in this answer only; the old one keeps signing for 24 hours',
        description: 'Until then every delivery carries two signatures in webhook-signature (new, then old), so receivers switch at their own pace.',
        params: IdParams,
        response: { 200: EndpointBody },
      },
    }, async (request) => ({ endpoint: await webhooks.rotateSecret(actorOf(request), request.params.id) }));

    app.post('/v1/webhooks/endpoints/:id/test', {
      config: PORTAL_SESSION_ONLY,
      // The body is optional: a POST without one is {} (the default event kind). A JSON `null`
      // is a body, and not the object the schema asks for: a 400 like any other route's.
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
      schema: {
        operationId: 'sendWebhookTest',
        tags: TAG,
        summary: 'Send a test event to this endpoint only',
        description: 'Delivered like any event (signed, retried); its data is {test: true, endpointId}. 202: the delivery, pending; follow it in the deliveries list.',
        params: IdParams,
        body: TestEventBody,
        response: { 202: DeliveryBody, 409: errorResponse('The endpoint is turned off (`conflict`).') },
      },
    }, async (request, reply) => {
      reply.code(202);
      return { delivery: await webhooks.sendTest(actorOf(request), request.params.id, request.body?.type) };
    });

    app.get('/v1/webhooks/endpoints/:id/deliveries', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'listWebhookDeliveries',
        tags: TAG,
        summary: "The endpoint's deliveries, newest first, 50 a page",
        params: IdParams,
        querystring: Closed({ cursor: Type.Optional(Type.String({ maxLength: 200 })) }),
        response: { 200: Closed({ deliveries: Type.Array(RefOf(WebhookDeliverySchema)), nextCursor: Nullable(Type.String()) }) },
      },
    }, async (request) => webhooks.deliveries(actorOf(request), request.params.id, request.query.cursor));

    app.get('/v1/webhooks/endpoints/:id/deliveries/:eventId', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'getWebhookDelivery',
        tags: TAG,
        summary: 'One delivery: every attempt, and the event exactly as it is sent',
        params: DeliveryParams,
        response: { 200: Closed({ delivery: RefOf(WebhookDeliverySchema), attempts: Type.Array(RefOf(WebhookAttemptSchema)), event: Type.Unknown({ description: 'The payload: {id, type, createdAt, data}.' }) }) },
      },
    }, async (request) => webhooks.delivery(actorOf(request), request.params.id, request.params.eventId));

    app.post('/v1/webhooks/endpoints/:id/deliveries/:eventId/redeliver', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'redeliverWebhook',
        tags: TAG,
        summary: 'Send a delivery again now, with the same webhook-id',
        description: 'Whatever its status; the retry schedule starts again from this attempt. 409 while an attempt is in flight or the endpoint is turned off.',
        params: DeliveryParams,
        response: { 202: DeliveryBody, 409: errorResponse('An attempt is in flight, or the endpoint is turned off (`conflict`).') },
      },
    }, async (request, reply) => {
      reply.code(202);
      return { delivery: await webhooks.redeliver(actorOf(request), request.params.id, request.params.eventId) };
    });
  };
}
