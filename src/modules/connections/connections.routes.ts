import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Closed, IdParams, RefOf } from '../../lib/typebox.ts';
import { actorOf, PORTAL_SESSION_ONLY } from '../../http/auth.ts';
import type { ConnectionsService } from './connections.service.ts';
import { ConnectionSchema } from './connections.schemas.ts';

const TAG = ['Connected apps'];

/**
 * The apps a person connected with OAuth (extension; the portal's Connected apps page over the
 * API, docs/agents.md): list and disconnect. Portal session only: a connection is the person's.
 */
export function connectionsRoutes(deps: { connections: ConnectionsService }): FastifyPluginAsync {
  const { connections } = deps;
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/v1/connections', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'listConnections',
        tags: TAG,
        summary: "The signed-in person's connected apps, newest first",
        response: { 200: Closed({ connections: Type.Array(RefOf(ConnectionSchema)) }) },
      },
    }, async (request) => ({ connections: await connections.list(actorOf(request)) }));

    app.delete('/v1/connections/:id', {
      config: PORTAL_SESSION_ONLY,
      schema: {
        operationId: 'disconnectApp',
        tags: TAG,
        summary: 'Disconnect an app: its tokens stop working at once',
        description: 'Revokes the connection and every token issued under it; the app must ask its person again. 404 for a connection that is not this person\'s or is already disconnected.',
        params: IdParams,
        response: { 200: Closed({ ok: Type.Literal(true) }) },
      },
    }, async (request) => {
      await connections.revoke(actorOf(request), request.params.id);
      return { ok: true as const };
    });
  };
}
