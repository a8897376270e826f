import type { FastifyPluginAsync } from 'fastify';
import { Closed, StringEnum } from '../../lib/typebox.ts';
import type { Readiness } from '../../db/readiness.ts';

const HealthSchema = Closed({ status: StringEnum(['ok']) });
const ReadySchema = Closed({
  status: StringEnum(['ready', 'not_ready']),
  database: StringEnum(['ok', 'unreachable']),
  migrations: StringEnum(['applied', 'pending', 'unknown']),
});

/** `readiness` asks the database (db/readiness.ts; app.ts hands it in). */
export function healthRoutes(readiness: () => Promise<Readiness>): FastifyPluginAsync {
  return async (app) => {
    app.get('/healthz', {
      config: { scope: null },
      schema: { operationId: 'getHealth', tags: ['Health'], summary: 'Liveness: the process is up', response: { 200: HealthSchema } },
    }, async () => ({ status: 'ok' as const }));

    app.get('/readyz', {
      config: { scope: null },
      schema: {
        operationId: 'getReadiness',
        tags: ['Health'],
        summary: 'Readiness: the database answers and every migration is applied',
        response: { 200: ReadySchema, 503: ReadySchema },
      },
    }, async (_request, reply) => {
      const { database, migrations } = await readiness();
      const ready = database === 'ok' && migrations === 'applied';
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', database, migrations });
    });
  };
}
