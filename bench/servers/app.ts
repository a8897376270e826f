import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createContainer } from '../../src/container.ts';
import { buildApp } from '../../src/app.ts';
import { seedSimulatedPanel } from '../../src/modules/panel/panel-seed.ts';
import { createJobRunner, type JobRunner } from '../../src/jobs/job-runner.ts';
import { jobDefinitions } from '../../src/jobs/jobs.ts';
import { createLocalNotifier, createPostgresNotifier, type Notifier } from '../../src/lib/notifier.ts';
import { serveChild } from '../lib/serve-child.ts';
import { countQueries, countQueriesByApplication } from '../lib/query-counter.ts';
import { SITEVERIFY_SECRET, type AppServerOptions } from '../lib/protocol.ts';
import { BASELINE_APPLICATION, createAppControl } from './app-control.ts';

/**
 * The real app, started the way src/main.ts starts it (config → database → migrations → notifier
 * → container → panel → buildApp → job runner → listen), on a database the orchestrator made for
 * this run and removes afterwards. The job runner works (role "all"), so an ask schedules its
 * close timer as in production, and the notifier is the one main.ts picks: LISTEN/NOTIFY on a
 * PostgreSQL server, in-process on the embedded database. No simulator (production mode).
 * Control operations for the orchestrator: ./app-control.ts.
 */
const options = JSON.parse(process.argv[2] ?? '') as AppServerOptions;
/** The app's own pool, as named in src/db/database.ts. */
const APP_APPLICATION = 'headcount';

await serveChild(async () => {
  const ms = (since: number) => Math.round(performance.now() - since);
  // The environment is passed explicitly so nothing from the shell (DATABASE_URL, REDIS_URL, a
  // low rate limit) leaks into the run. Production mode: trustProxy on, no development seeding.
  // 1,000,000 per minute is the highest limit loadConfig accepts; a run stays far below it.
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: options.dataDir,
    PORT: '0',
    SIM_HEADS: '0',
    RATE_LIMIT_PER_IP: '1000000',
    RATE_LIMIT_PER_KEY: '1000000',
    // Every link answer of a run comes from 127.0.0.1, to a few links.
    LINK_ANSWERS_PER_IP: '1000000',
    LINK_ANSWERS_PER_LINK: '1000000',
    // Production requires the answer page's human check: link answers are verified by the
    // orchestrator's stand-in for siteverify (servers/siteverify.ts) when a scenario needs it.
    TURNSTILE_SECRET: SITEVERIFY_SECRET,
    TURNSTILE_SITE_KEY: 'bench-site-key',
    // Production requires SMTP too; no scenario sends mail, so nothing listens there.
    SMTP_URL: 'smtp://127.0.0.1:2525',
    SESSION_SECRET: 'bench-session-secret-of-32-characters+',
    STRIPE_SECRET_KEY: 'sk_test_benchmarks',
    STRIPE_WEBHOOK_SECRET: 'whsec_benchmarks',
    MAIL_FROM: 'Headcount bench <bench@localhost>',
    ...(options.turnstileVerifyUrl ? { TURNSTILE_VERIFY_URL: options.turnstileVerifyUrl } : {}),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
  });

  // Before anything connects: every client of the process, the job queue's pool included.
  const byApplication = countQueriesByApplication(pg);
  const otherQueries = () => Object.entries(byApplication()).reduce((sum, [name, count]) => (name === APP_APPLICATION || name === BASELINE_APPLICATION ? sum : sum + count), 0);
  let t = performance.now();
  const database: Database = await openDatabase(config);
  const queries = countQueries(database.pool);
  let notifier: Notifier | null = null;
  let jobs: JobRunner | null = null;
  const stopAll = async () => {
    await jobs?.stop();
    await notifier?.stop();
    await database.close();
  };
  try {
    const openMs = ms(t);
    t = performance.now();
    await migrateToLatest(database.db);
    const migrateMs = ms(t);
    notifier = database.kind === 'server' ? createPostgresNotifier(database.connection, database.pool, console) : createLocalNotifier();
    await notifier.start();
    jobs = createJobRunner(database.connection);
    const container = createContainer(config, database, undefined, { notifier, queue: jobs });
    t = performance.now();
    const heads = await seedSimulatedPanel(database.db, { size: options.heads, clock: container.clock });
    const seedMs = ms(t);
    const app = await buildApp(container);
    // Requests counted in the server as they arrive: SQL and CPU per request are divided by what
    // the server was asked to do, not by what the load generator saw finish (it abandons the
    // requests in flight when it stops, and the server still does their work).
    let requests = 0;
    app.addHook('onRequest', async () => void (requests += 1));
    t = performance.now();
    await jobs.start(jobDefinitions(container), { work: true, log: app.log });
    const jobsMs = ms(t);
    const control = createAppControl({ config, database, container, counters: { queries, otherQueries } });
    // A deep accept queue (the kernel caps it at net.core.somaxconn): the wait scenario opens
    // thousands of connections in bursts.
    await app.listen({ host: '127.0.0.1', port: 0, backlog: 4096 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('app server: no TCP address');
    return {
      port: address.port,
      info: {
        database: database.kind === 'server' ? 'postgresql' : 'embedded (PGlite)',
        heads,
        poolSize: config.databasePoolSize,
        notifier: database.kind === 'server' ? 'LISTEN/NOTIFY' : 'in-process',
        openMs,
        migrateMs,
        seedMs,
        jobsMs,
      },
      requests: () => requests,
      queries,
      otherQueries,
      control: (op, args) => control.run(op, args),
      async close() {
        try {
          await app.close();
          await control.close();
        } finally {
          await stopAll();
        }
      },
    };
  } catch (error) {
    await stopAll().catch(() => {});
    throw error;
  }
});
