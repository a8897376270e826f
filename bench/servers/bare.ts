import Fastify from 'fastify';
import { serveChild } from '../lib/serve-child.ts';
import type { BareControls } from '../lib/protocol.ts';

/**
 * The baseline: Fastify 5 with one route answering a small constant JSON, no logger, no hooks, no
 * plugins. Whatever the app costs beyond this is ours (validation, hooks, rate limit, database).
 *
 * Beside it, GET /same-bytes/{name} sends a body the orchestrator handed over (`bare.body`, the
 * bytes an app route answered, compressed or not, with their content headers), so a row can be
 * compared with the least any server spends sending the same bytes (scenarios/results.ts).
 */
await serveChild(async () => {
  const app = Fastify({ logger: false });
  let requests = 0;
  const bodies = new Map<string, { bytes: Buffer; headers: Record<string, string> }>();
  app.addHook('onRequest', async () => void (requests += 1));
  app.get('/bare', {
    // A response schema, like every app route has, so the baseline also serialises with fast-json-stringify.
    schema: { response: { 200: { type: 'object', properties: { hello: { type: 'string' } }, required: ['hello'] } } },
  }, async () => ({ hello: 'world' }));
  app.get<{ Params: { name: string } }>('/same-bytes/:name', async (request, reply) => {
    const body = bodies.get(request.params.name);
    if (!body) return reply.code(404).send({ error: `no body "${request.params.name}" (bare.body first)` });
    return reply.headers(body.headers).send(body.bytes);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('bare server: no TCP address');
  return {
    port: address.port,
    info: { fastify: app.version },
    requests: () => requests,
    queries: () => 0,
    async control(op, args) {
      if (op !== 'bare.body') throw new Error(`the bare server has no control operation "${op}"`);
      const { name, base64, headers } = args as BareControls['bare.body']['args'];
      const bytes = Buffer.from(base64, 'base64');
      bodies.set(name, { bytes, headers });
      return { bytes: bytes.length } satisfies BareControls['bare.body']['result'];
    },
    close: () => app.close(),
  };
});
