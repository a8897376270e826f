import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { DB } from '../../src/db/schema.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createContainer } from '../../src/container.ts';
import { buildApp } from '../../src/app.ts';
import { warmUpSoonAfterReady } from '../../src/warm-up.ts';
import { seedSimulatedPanel } from '../../src/modules/panel/panel-seed.ts';
import { createJobRunner, type JobRunner } from '../../src/jobs/job-runner.ts';
import { createTableUpkeep, type TableUpkeep } from '../../src/db/table-upkeep.ts';
import { createWebhookDispatcher, type WebhookDispatcher } from '../../src/modules/events/webhook-dispatcher.ts';
import { jobDefinitions } from '../../src/jobs/jobs.ts';
import { notifierFor, type Notifier } from '../../src/lib/notifier.ts';
import { serveChild } from '../lib/serve-child.ts';
import { countQueries, countQueriesByApplication } from '../lib/query-counter.ts';
import { SITEVERIFY_SECRET, type AppServerOptions } from '../lib/protocol.ts';
import { BASELINE_APPLICATION, createAppControl } from './app-control.ts';

/**
 * The real app, started the way src/main.ts starts it (config → database → migrations → notifier
 * → container → panel → buildApp → job runner → listen), on a database the orchestrator made for
 * this run and removes afterwards. The job runner works (role "all"), so an ask schedules its
 * close timer as in production, and the notifier is the one main.ts picks: LISTEN/NOTIFY on a
 * PostgreSQL server, in-process on the embedded database. No simulator (production mode). The
 * webhook dispatcher runs as on a worker; webhook endpoints may be on 127.0.0.1 over http here
 * (the one change to production's config, for the webhooks scenario's receiver).
 * Control operations for the orchestrator: ./app-control.ts.
 */
const options = JSON.parse(process.argv[2] ?? '') as AppServerOptions;
/** The app's own pool, as named in src/db/database.ts. */
const APP_APPLICATION = 'headcount';
/** The webhook dispatcher's pool (below). */
const DISPATCHER_APPLICATION = 'headcount-dispatcher';

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
  const notOther = new Set([APP_APPLICATION, BASELINE_APPLICATION, DISPATCHER_APPLICATION]);
  const otherQueries = () => Object.entries(byApplication()).reduce((sum, [name, count]) => (notOther.has(name) ? sum : sum + count), 0);
  let t = performance.now();
  const database: Database = await openDatabase(config);
  const queries = countQueries(database.pool);
  let dispatcherPool: pg.Pool | null = null;
  let notifier: Notifier | null = null;
  let jobs: JobRunner | null = null;
  let webhooks: WebhookDispatcher | null = null;
  let tableUpkeep: TableUpkeep | null = null;
  const stopAll = async () => {
    await webhooks?.stop();
    await tableUpkeep?.stop();
    await dispatcherPool?.end();
    await jobs?.stop();
    await notifier?.stop();
    await database.close();
  };
  try {
    const openMs = ms(t);
    t = performance.now();
    await migrateToLatest(database.db);
    const migrateMs = ms(t);
    notifier = notifierFor(database, console);
    await notifier.start();
    jobs = createJobRunner(database.connection);
    // The one departure from production's config: webhook endpoints on this machine over plain
    // http are allowed (production refuses private addresses and http:, config.ts allowPrivate /
    // allowHttp), because the webhooks scenario's receiver listens on 127.0.0.1 in the
    // orchestrator. Everything else about delivery (signing, the address check at every attempt,
    // timeouts, retries, the dispatcher's concurrency and polling) is production's.
    const containerConfig: Config = { ...config, webhooks: { ...config.webhooks, allowPrivate: true, allowHttp: true } };
    const container = createContainer(containerConfig, database, undefined, { notifier, queue: jobs });
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
    // The webhook dispatcher, as main.ts runs it on a worker, on a pool of its own (as a worker
    // process would have), so its statements are told apart by application_name. (They used to
    // be told apart by an AsyncLocalStorage scope, which turns on Node's promise hooks for every
    // promise of the process: every row of the run paid for them, and production does not.)
    dispatcherPool = new pg.Pool({ ...database.connection, max: config.databasePoolSize, application_name: DISPATCHER_APPLICATION });
    dispatcherPool.on('error', () => {});
    const dispatcherDatabase: Database = { ...database, pool: dispatcherPool, db: new Kysely<DB>({ dialect: new PostgresDialect({ pool: dispatcherPool }) }) };
    const dispatcherContainer = createContainer(containerConfig, dispatcherDatabase, undefined, { notifier, queue: jobs });
    const dispatcherCounts = { claims: 0, emptyClaims: 0, claimed: 0, attemptsEnded: {} as Record<string, number> };
    const delivery: Pick<typeof container.webhookDelivery, 'claim' | 'attempt'> = {
      claim: async (limit) => {
        const claimed = await dispatcherContainer.webhookDelivery.claim(limit);
        dispatcherCounts.claims += 1;
        if (claimed.length === 0) dispatcherCounts.emptyClaims += 1;
        dispatcherCounts.claimed += claimed.length;
        return claimed;
      },
      attempt: (row) =>
        dispatcherContainer.webhookDelivery.attempt(row).finally(() => void (dispatcherCounts.attemptsEnded[row.endpoint_id] = (dispatcherCounts.attemptsEnded[row.endpoint_id] ?? 0) + 1)),
    };
    webhooks = createWebhookDispatcher({ delivery, concurrency: config.webhooks.concurrency, pollMs: config.webhooks.pollMs, log: app.log });
    webhooks.start();
    // As main.ts: the embedded database's autovacuum stand-in.
    tableUpkeep = database.kind === 'embedded' ? createTableUpkeep({ client: database.pool, log: app.log }) : null;
    tableUpkeep?.start();
    const jobsMs = ms(t);
    const dispatcher = () => ({ dispatcherQueries: byApplication()[DISPATCHER_APPLICATION] ?? 0, claims: dispatcherCounts.claims, emptyClaims: dispatcherCounts.emptyClaims, claimed: dispatcherCounts.claimed, attemptsEnded: { ...dispatcherCounts.attemptsEnded } });
    const control = createAppControl({ config: containerConfig, database, container, counters: { queries, otherQueries }, dispatcher });
    // A deep accept queue (the kernel caps it at net.core.somaxconn): the wait scenario opens
    // thousands of connections in bursts.
    await app.listen({ host: '127.0.0.1', port: 0, backlog: 4096 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('app server: no TCP address');
    // As main.ts: the sentiment model and the OAuth server, made soon after ready rather than by
    // the first row's requests (the model's load once landed in link-answers' measured seconds).
    warmUpSoonAfterReady(container, app.log);
    return {
      port: address.port,
      info: {
        database: database.kind === 'server' ? 'postgresql' : 'embedded (PGlite)',
        heads,
        poolSize: config.databasePoolSize,
        notifier: database.kind === 'server' ? 'LISTEN/NOTIFY' : 'in-process',
        webhooks: { concurrency: config.webhooks.concurrency, perEndpoint: config.webhooks.perEndpoint, pollMs: config.webhooks.pollMs, timeoutMs: config.webhooks.timeoutMs },
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
