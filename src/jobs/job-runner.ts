import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Durable jobs and timers on pg-boss (ARCHITECTURE §2), in the same PostgreSQL as everything else
 * (embedded or a server) and through the same pool, so a job committed with a state change is
 * never lost on a crash. Any number of worker processes may run; pg-boss hands each job to one.
 */
export interface JobDefinition {
  name: string;
  /** Cron expression (UTC) for periodic jobs. */
  cron?: string;
  handler: (data: unknown) => Promise<unknown>;
}

export interface JobRunner {
  start(options: { work: boolean }): Promise<void>;
  send(name: string, data: object, options?: { startAfter?: Date; singletonKey?: string }): Promise<void>;
  stop(): Promise<void>;
}

export function createJobRunner(connection: pg.PoolConfig, jobs: JobDefinition[], log: Pick<FastifyBaseLogger, 'error' | 'info'>): JobRunner {
  // pg-boss keeps a small pool of its own: it sends multi-statement scripts that need the simple
  // query protocol, which a shared `pg.Pool.query(text, values)` would not use.
  const boss = new PgBoss({ ...(connection as PgBoss.ConstructorOptions), max: 3, schema: 'pgboss', application_name: 'headcount-jobs' } as PgBoss.ConstructorOptions);
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  let started = false;

  return {
    async start({ work }) {
      await boss.start();
      started = true;
      for (const job of jobs) {
        await boss.createQueue(job.name);
        if (job.cron) await boss.schedule(job.name, job.cron, {}, { tz: 'UTC' });
        if (work) {
          await boss.work(job.name, { pollingIntervalSeconds: 2 }, async (batch) => {
            for (const item of batch) await job.handler(item.data);
          });
        }
      }
    },
    async send(name, data, options = {}) {
      await boss.send(name, data, { startAfter: options.startAfter, singletonKey: options.singletonKey });
    },
    async stop() {
      if (started) await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
