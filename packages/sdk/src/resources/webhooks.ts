/**
 * hc.webhooks: webhook endpoints (docs/webhooks.md). Portal session only: construct the client
 * with the session token as `accessToken`; an API key gets 403 `insufficient_scope`.
 */
import type { Headcount } from '../client.ts';
import type { BodyOf, CallOptions, ResponseOf, Schemas } from '../types.ts';

export type CreateWebhookBody = BodyOf<'createWebhookEndpoint'>;
export type UpdateWebhookBody = BodyOf<'updateWebhookEndpoint'>;
export type WebhookTestBody = BodyOf<'sendWebhookTest'>;

export class Webhooks {
  constructor(private readonly client: Headcount) {}

  /** GET /v1/webhooks/endpoints. */
  async list(options: CallOptions = {}): Promise<Schemas['WebhookEndpoint'][]> {
    const { endpoints } = await this.client.request('listWebhookEndpoints', { ...options });
    return endpoints;
  }

  /** POST /v1/webhooks/endpoints: its `secret` is shown in this answer only. */
  async create(body: CreateWebhookBody, options: CallOptions = {}): Promise<Schemas['WebhookEndpoint']> {
    const { endpoint } = await this.client.request('createWebhookEndpoint', { ...options, body });
    return endpoint;
  }

  /** GET /v1/webhooks/endpoints/{id}. */
  async get(id: string, options: CallOptions = {}): Promise<Schemas['WebhookEndpoint']> {
    const { endpoint } = await this.client.request('getWebhookEndpoint', { ...options, path: { id } });
    return endpoint;
  }

  /** PATCH /v1/webhooks/endpoints/{id}: url, events, description, enabled. */
  async update(id: string, body: UpdateWebhookBody, options: CallOptions = {}): Promise<Schemas['WebhookEndpoint']> {
    const { endpoint } = await this.client.request('updateWebhookEndpoint', { ...options, path: { id }, body });
    return endpoint;
  }

  /** DELETE /v1/webhooks/endpoints/{id}: `{ok: true}`. */
  delete(id: string, options: CallOptions = {}): Promise<ResponseOf<'deleteWebhookEndpoint'>> {
    return this.client.request('deleteWebhookEndpoint', { ...options, path: { id } });
  }

  /** POST …/rotate-secret: a new secret (shown in this answer); the old one keeps working for a while. */
  async rotateSecret(id: string, options: CallOptions = {}): Promise<Schemas['WebhookEndpoint']> {
    const { endpoint } = await this.client.request('rotateWebhookSecret', { ...options, path: { id } });
    return endpoint;
  }

  /** POST …/test: sends a test event (`type`, default question.completed); the delivery it queued. */
  async test(id: string, body: WebhookTestBody = {}, options: CallOptions = {}): Promise<Schemas['WebhookDelivery']> {
    const { delivery } = await this.client.request('sendWebhookTest', { ...options, path: { id }, body });
    return delivery;
  }
}
