import { isDeepStrictEqual } from 'node:util';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { CapturedStatement, JobDefinition, JobQueue } from '../lib/job.ts';
import type { PoolStats } from '../lib/metrics.ts';
import { withSessionLock } from '../db/session-lock.ts';

/**
 * Durable jobs and timers on pg-boss (ARCHITECTURE §2), in the same PostgreSQL as everything else
 * (embedded or a server) and through the same pool, so a job committed with a state change is
 * never lost on a crash. Any number of worker processes may run; pg-boss hands each job to one.
 *
 * Made before the container (services send timers through it as a JobQueue) and started once the
 * container exists, with the jobs it declares (src/jobs/jobs.ts).
 */
type Log = Pick<FastifyBaseLogger, 'error' | 'info'>;

export interface JobRunner extends JobQueue {
  /** `work: false` on API-only nodes: they send jobs and never run them. */
  start(jobs: JobDefinition[], options: { work: boolean; log: Log }): Promise<void>;
  stop(): Promise<void>;
  /** The queue's own connection pool, for the metrics (`pool="jobs"`); zeros until it starts. */
  readonly pool: PoolStats;
}

/** pg-boss's pool: its Db keeps it as `pool` once started (pg-boss 10's src/db.js; not in its types). */
const JOBS_POOL_SIZE = 3;

/** What every schedule is made with (a cron job carries no data; its times are UTC); frozen, as pg-boss is handed these very objects. */
const SCHEDULE = Object.freeze({ data: Object.freeze({}), options: Object.freeze({ tz: 'UTC' }) });

/** A schedule as pg-boss keeps it (its row; the types leave out `timezone`). */
type ScheduleRow = PgBoss.Schedule & { timezone?: string };

/** The schedule `cron` would write is there already, exactly. */
function isScheduled(row: ScheduleRow | undefined, cron: string): boolean {
  return row !== undefined && row.cron === cron && row.timezone === SCHEDULE.options.tz && isDeepStrictEqual(row.data, SCHEDULE.data) && isDeepStrictEqual(row.options, SCHEDULE.options);
}

/** The advisory lock (db/session-lock.ts) held while a process sets up the job queue. */
const START_LOCK = 'headcount job queue set-up';

/**
 * `exclusiveStart` (main: on a PostgreSQL server, where several processes may start at once):
 * set up the queue under START_LOCK. The embedded database belongs to one process.
 */
export function createJobRunner(connection: pg.PoolConfig, options: { exclusiveStart?: boolean } = {}): JobRunner {
  const { exclusiveStart = false } = options;
  // The app's logger exists only once the container does; start() hands it in.
  let log: Log | null = null;
  // pg-boss keeps a small pool of its own: it sends multi-statement scripts that need the simple
  // query protocol, which a shared `pg.Pool.query(text, values)` would not use.
  const boss = new PgBoss({ ...(connection as PgBoss.ConstructorOptions), max: JOBS_POOL_SIZE, schema: 'pgboss', application_name: 'headcount-jobs' } as PgBoss.ConstructorOptions);
  boss.on('error', (error) => log?.error({ err: error }, 'job queue error'));
  let started = false;
  const bossPool = () => (boss.getDb() as { pool?: pg.Pool }).pool;

  return {
    pool: {
      get totalCount() {
        return bossPool()?.totalCount ?? 0;
      },
      get idleCount() {
        return bossPool()?.idleCount ?? 0;
      },
      get waitingCount() {
        return bossPool()?.waitingCount ?? 0;
      },
      options: { max: JOBS_POOL_SIZE },
    },
    async start(jobs, options) {
      log = options.log;
      const { work } = options;
      // One process at a time makes the schema, the queues and the schedules: pg-boss's
      // create_queue() adds a foreign key to its queue table in the transaction that inserted the
      // queue's row, so two processes creating queues at once (a new database, a release with a
      // new job) deadlock and one of them failed to start (test/integration/job-queue-start.test.ts).
      // Where everything exists already this costs one connection and an uncontended lock.
      const setUp = async () => {
        await boss.start();
        started = true;
        // Where the database was set up before, everything is there: two reads instead of a
        // statement per queue and per schedule (~0.15 s of every start on the embedded database,
        // issue 15). A new job's queue, or a schedule whose cron changed, is still written.
        const [queues, schedules] = await Promise.all([boss.getQueues(), boss.getSchedules()]);
        const queueNames = new Set(queues.map((queue) => queue.name));
        const scheduleRows = new Map((schedules as ScheduleRow[]).map((row) => [row.name, row]));
        for (const job of jobs) {
          if (!queueNames.has(job.name)) await boss.createQueue(job.name);
          if (job.cron && !isScheduled(scheduleRows.get(job.name), job.cron)) await boss.schedule(job.name, job.cron, SCHEDULE.data, SCHEDULE.options);
        }
        // A release that drops a periodic job (or its cron) drops its schedule: pg-boss would
        // otherwise go on making a job at every tick that no worker takes. The schedules are
        // the ones the newest process to start declares; an older one started later (a
        // rollback) writes its own back.
        const periodic = new Set(jobs.filter((job) => job.cron).map((job) => job.name));
        for (const name of scheduleRows.keys()) if (!periodic.has(name)) await boss.unschedule(name);
      };
      if (exclusiveStart) await withSessionLock(connection, START_LOCK, setUp);
      else await setUp();
      for (const job of jobs) {
        if (work) {
          await boss.work(job.name, { pollingIntervalSeconds: 2 }, async (batch) => {
            for (const item of batch) {
              // A payload that does not fit would fail the same way on every retry.
              if (!job.accepts(item.data)) {
                options.log.error({ job: job.name, data: item.data }, 'job payload does not fit its schema; dropped');
                continue;
              }
              await job.handler(item.data);
            }
          });
        }
      }
    },
    async send(name, data, options = {}) {
      await boss.send(name, data, { startAfter: options.startAfter, singletonKey: options.singletonKey });
    },
    async sendStatement(name, data, options = {}) {
      // pg-boss's own send, handed a `db` that keeps the one statement send runs instead of
      // running it: its options, defaults and SQL stay pg-boss's (a new version's are taken as
      // they come), and test/integration/ask-timers.test.ts checks the job written from it is the
      // one send writes. send then sees no row back, as when a singleton already exists.
      let captured: CapturedStatement | null = null;
      const keep = {
        async executeSql(text: string, values: unknown[]) {
          if (captured) throw new Error('pg-boss sent a job with more than one statement: review sendStatement (src/jobs/job-runner.ts)');
          captured = { text, values };
          return { rows: [] };
        },
      };
      await boss.send(name, data, { startAfter: options.startAfter, singletonKey: options.singletonKey, db: keep });
      if (!captured) throw new Error('pg-boss sent a job without a statement: review sendStatement (src/jobs/job-runner.ts)');
      return captured;
    },
    async stop() {
      if (started) await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
