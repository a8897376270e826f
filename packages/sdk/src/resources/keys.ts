/**
 * hc.keys: API keys (docs/api.md "Authentication"). Portal session only: construct the client
 * with the session token as `accessToken`; an API key gets 403 `insufficient_scope`.
 */
import type { Headcount } from '../client.ts';
import type { BodyOf, CallOptions, ResponseOf, Schemas } from '../types.ts';

export type CreateKeyBody = BodyOf<'createKey'>;
export type CreatedKey = ResponseOf<'createKey'>;

export class Keys {
  constructor(private readonly client: Headcount) {}

  /** GET /v1/keys. */
  async list(options: CallOptions = {}): Promise<Schemas['ApiKey'][]> {
    const { keys } = await this.client.request('listKeys', { ...options });
    return keys;
  }

  /** POST /v1/keys: `{key, secret}`; the secret is shown this once. */
  create(body: CreateKeyBody, options: CallOptions = {}): Promise<CreatedKey> {
    return this.client.request('createKey', { ...options, body });
  }

  /** DELETE /v1/keys/{id}: the key stops working at its next request. */
  async revoke(id: string, options: CallOptions = {}): Promise<Schemas['ApiKey']> {
    const { key } = await this.client.request('revokeKey', { ...options, path: { id } });
    return key;
  }
}
