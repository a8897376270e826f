import type { FastifyReply } from 'fastify';

/**
 * Sends a response body that many requests share, serialized once. Waiters of one question wake
 * together and get the same Result object (wait.service.ts builds it once); serializing it for
 * each of 10,000 long-polls was most of the wake-up time. The body is serialized with the route's
 * own response serializer (`reply.serialize`, the schema's fast-json-stringify), so what goes out
 * is byte for byte what the route would have sent, and kept until the shared object is collected.
 */
export function createSharedJson() {
  const cache = new WeakMap<object, Map<string, string>>();
  return function sendShared(reply: FastifyReply, shared: object, variant: string, body: unknown): FastifyReply {
    let byVariant = cache.get(shared);
    if (!byVariant) cache.set(shared, (byVariant = new Map()));
    let json = byVariant.get(variant);
    if (json === undefined) byVariant.set(variant, (json = String(reply.serialize(body))));
    return reply.type('application/json; charset=utf-8').send(json);
  };
}
