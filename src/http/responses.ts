import type { FastifyReply } from 'fastify';

/**
 * Response pieces every route file shares, written once: the OpenAPI entry of an error response
 * (the spec's envelope, component `Error`), a constant response header as @fastify/swagger wants
 * it, and the headers of responses no cache may keep.
 */
export function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: { $ref: 'Error#' } } } };
}

/** A response header with one constant value, documented as such (@fastify/swagger wraps the schema itself). */
export const constantHeader = (value: string) => ({ type: 'string', enum: [value], description: `Always \`${value}\`.` });

/** A JSON 200 sent as prepared bytes (http/prepared-json.ts): compressed when Accept-Encoding allows, so it says so. */
export function compressibleJson(description: string, schema: unknown) {
  return {
    description,
    headers: {
      Vary: constantHeader('accept-encoding'),
      'Content-Encoding': { type: 'string', enum: ['br', 'gzip'], description: 'Present when the body is compressed, as `Accept-Encoding` allowed.' },
    },
    content: { 'application/json': { schema } },
  };
}

/** Live or private state (the answer link's JSON): never stored by a cache, never indexed. */
export function notCached(reply: FastifyReply): void {
  reply.header('cache-control', 'no-store');
  reply.header('x-robots-tag', 'noindex');
}

/** Results behind a private share link: not cached, not indexed, and the token never sent on as a referrer. */
export function privatePage(reply: FastifyReply): void {
  notCached(reply);
  reply.header('referrer-policy', 'no-referrer');
}
