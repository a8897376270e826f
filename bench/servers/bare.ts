import Fastify from 'fastify';
import { serveChild } from '../lib/serve-child.ts';

/**
 * The baseline: Fastify 5 with one route answering a small constant JSON, no logger, no hooks, no
 * plugins. Whatever the app costs beyond this is ours (validation, hooks, rate limit, database).
 */
await serveChild(async () => {
  const app = Fastify({ logger: false });
  let requests = 0;
  app.addHook('onRequest', async () => void (requests += 1));
  app.get('/bare', {
    // A response schema, like every app route has, so the baseline also serialises with fast-json-stringify.
    schema: { response: { 200: { type: 'object', properties: { hello: { type: 'string' } }, required: ['hello'] } } },
  }, async () => ({ hello: 'world' }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('bare server: no TCP address');
  return { port: address.port, info: { fastify: app.version }, requests: () => requests, queries: () => 0, close: () => app.close() };
});
