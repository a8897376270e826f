import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed, IdParams, RefOf } from '../../lib/typebox.ts';
import { actorOf, PORTAL_SESSION_ONLY } from '../../http/auth.ts';
import { notCached } from '../../http/responses.ts';
import type { DeveloperKeysService } from './developer-keys.service.ts';
import { ApiKeySchema, CreatedKeySchema, CreateKeyBodySchema } from './accounts.schemas.ts';

const TAG = ['Developers'];

export function keysRoutes(deps: { developerKeys: DeveloperKeysService }): FastifyPluginAsync {
  const { developerKeys } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v1/keys', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'listKeys',
        tags: TAG,
        summary: "The API keys of the account, newest first, with when each was last used (never a secret)",
        response: { 200: Closed({ keys: Type.Array(RefOf(ApiKeySchema)) }) },
      },
    }, async (request) => ({ keys: await developerKeys.list(actorOf(request)) }));

    app.post('/v1/keys', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'createKey',
        tags: TAG,
        summary: 'Make an API key with chosen scopes and daily cap; the secret is in this response only',
        description: 'Owners and admins of the account only (403 `insufficient_scope` for members).',
        body: CreateKeyBodySchema,
        response: { 201: CreatedKeySchema },
      },
    }, async (request, reply) => {
      notCached(reply);
      const created = await developerKeys.create(actorOf(request), request.body);
      return reply.status(201).send(created);
    });

    app.delete('/v1/keys/:id', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'revokeKey',
        tags: TAG,
        summary: 'Revoke an API key: its next request is refused with 401',
        description: 'Owners and admins of the account only. Revoking a revoked key changes nothing and answers the same.',
        params: IdParams,
        response: { 200: Closed({ key: RefOf(ApiKeySchema) }) },
      },
    }, async (request) => ({ key: await developerKeys.revoke(actorOf(request), request.params.id) }));
  };
}
