import type { FastifyPluginAsync } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Container } from '../../container.ts';
import { migrationsApplied } from '../../db/migrate.ts';
import { sql } from 'kysely';
import { Closed, StringEnum } from '../../lib/typebox.ts';

const HealthSchema = Closed({ status: StringEnum(['ok']) });
const ReadySchema = Closed({
  status: StringEnum(['ready', 'not_ready']),
  database: StringEnum(['ok', 'unreachable']),
  migrations: StringEnum(['applied', 'pending', 'unknown']),
});

export function healthRoutes(container: Container): FastifyPluginAsync {
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
      let database: 'ok' | 'unreachable' = 'ok';
      let migrations: 'applied' | 'pending' | 'unknown' = 'unknown';
      try {
        await sql`SELECT 1`.execute(container.db);
        migrations = (await migrationsApplied(container.db)) ? 'applied' : 'pending';
      } catch {
        database = 'unreachable';
      }
      const ready = database === 'ok' && migrations === 'applied';
      return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', database, migrations });
    });
  };
}
void Type;
