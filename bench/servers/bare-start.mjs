// The start-up row's limit (bench/lib/startup.ts): a Node process that loads Fastify, answers
// GET /readyz and listens on PORT. Plain JavaScript, so nothing is compiled; the floor of any
// Fastify service's start on this machine.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/readyz', async () => ({ status: 'ready' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
const stop = () => app.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
