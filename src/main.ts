import { ConfigError, loadConfig } from './config.ts';
import { createTableUpkeep } from './db/table-upkeep.ts';
import { openDatabase } from './db/database.ts';
import { DataDirInUseError } from './db/embedded.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createContainer } from './container.ts';
import { buildApp } from './app.ts';
import { seedSimulatedPanel } from './modules/panel/panel-seed.ts';
import { seedSimulatedAudiences } from './modules/audiences/audience-seed.ts';
import { createJobRunner } from './jobs/job-runner.ts';
import { createWebhookDispatcher } from './modules/events/webhook-dispatcher.ts';
import { jobDefinitions } from './jobs/jobs.ts';
import { createSimulator } from './modules/panel/simulator.ts';
import { notifierFor } from './lib/notifier.ts';
import { warmUpSoonAfterReady } from './warm-up.ts';
import { loggerOptions, wantsPrettyLogs } from './lib/logger.ts';
import { startMetricsServer } from './http/metrics.ts';
import pino from 'pino';

/** The command the ready line points a person at (the admin CLI's usage). */
const ADMIN_CLI = 'npm run --silent admin -- help';

/**
 * Start-up: configuration → database (embedded unless DATABASE_URL) → migrations → synthetic panel
 * (development) → HTTP. SIGTERM/SIGINT stop accepting, answer open waits at once (done false:
 * the wait route's preClose hook), let in-flight requests finish, stop the simulator, jobs and
 * notifier, close the database (embedded: its lock and socket files go) and exit 0;
 * SHUTDOWN_GRACE_SECONDS is the hard bound (exit 1).
 */
async function main(): Promise<void> {
  const started = Date.now();
  const config = loadConfig();
  const database = await openDatabase(config, { fromTemplate: true, adminSocket: true });
  const applied = await migrateToLatest(database.db);
  const notifier = notifierFor(database, console);
  await notifier.start();
  // The job queue is made first: the container's timers send through it; it starts below, with
  // the jobs the container's services declare.
  // On a server several processes may start at once: one at a time sets the queue up.
  const jobs = createJobRunner(database.connection, { exclusiveStart: database.kind === 'server' });
  const prettyLogs = wantsPrettyLogs(config.nodeEnv, process.stdout.isTTY);
  // The services' own log lines (mail, OAuth) in the same format as the requests' (readable on a
  // terminal in development, JSON lines anywhere else).
  const { stream, ...options } = loggerOptions({ level: config.logLevel, pretty: prettyLogs });
  const container = createContainer(config, database, undefined, { notifier, queue: jobs, metricsPools: { jobs: jobs.pool }, log: stream ? pino(options, stream) : pino(options) });
  const app = await buildApp(container, { prettyLogs });
  if (database.fromTemplate) app.log.info({ dataDir: config.dataDir }, 'new embedded database, copied from the migrated template made at install');
  if (applied.length) app.log.info({ migrations: applied }, 'migrations applied');
  if (config.simHeads > 0) {
    const seeded = await seedSimulatedPanel(database.db, { size: config.simHeads, clock: container.clock });
    if (seeded) app.log.info({ heads: seeded }, 'seeded a simulated panel (development only)');
    // Its audiences too (docs/audiences.md), also on a panel seeded before audiences existed.
    const audiences = await seedSimulatedAudiences(database.db, { clock: container.clock });
    if (audiences) app.log.info({ audiences }, 'seeded simulated interest audiences (development only)');
  }

  await jobs.start(jobDefinitions(container), { work: config.role !== 'api', log: app.log });
  // Development only (config refuses it in production); one per worker, never on API-only nodes.
  const simulator =
    config.simAnswersPerMinute > 0 && config.role !== 'api'
      ? createSimulator({ heads: container.heads, clock: container.clock, recorder: container.answers, answersPerMinute: config.simAnswersPerMinute, seed: config.simSeed, log: app.log.child({ module: 'simulator' }) })
      : null;
  simulator?.start(1000);
  // Webhook deliveries (docs/webhooks.md): sent by every worker, never by API-only nodes.
  const webhookDispatcher = config.role !== 'api'
    ? createWebhookDispatcher({ delivery: container.webhookDelivery, concurrency: config.webhooks.concurrency, pollMs: config.webhooks.pollMs, log: app.log.child({ module: 'webhooks' }) })
    : null;
  webhookDispatcher?.start();
  // PGlite has no autovacuum: its tables are analyzed and vacuumed here (db/table-upkeep.ts).
  const tableUpkeep = database.kind === 'embedded' ? createTableUpkeep({ client: database.pool, log: app.log.child({ module: 'table-upkeep' }) }) : null;
  tableUpkeep?.start();
  // METRICS_PORT (docs/operations.md "Metrics"): /metrics on a listener of its own, workers included.
  const metricsServer = config.metrics.port !== null ? await startMetricsServer(container.metrics, { host: config.metrics.host, port: config.metrics.port }) : null;
  if (metricsServer) app.log.info({ host: config.metrics.host, port: metricsServer.port }, 'metrics served at /metrics on their own port');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('in-flight requests did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownGraceSeconds * 1000);
    force.unref();
    // server.close() ends only the connections idle at that moment; one that becomes idle later
    // (a released wait, a finished ask) would keep the close waiting for its keep-alive timeout.
    const idle = setInterval(() => app.server.closeIdleConnections(), 100);
    try {
      await app.close();
      clearInterval(idle);
      await metricsServer?.close();
      await simulator?.stop();
      await webhookDispatcher?.stop();
      await tableUpkeep?.stop();
      await jobs.stop();
      await notifier.stop();
      await database.close();
      app.log.info('stopped');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error while stopping');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  if (config.role === 'worker') {
    app.log.info('worker started: running jobs, not serving HTTP');
    return;
  }
  await app.listen({ port: config.port, host: config.host });
  warmUpSoonAfterReady(container, app.log);
  const facts = { url: config.publicBaseUrl, database: database.kind === 'server' ? 'PostgreSQL server' : `embedded, ${config.dataDir}`, ms: Date.now() - started };
  // The last line of start-up, for a person: where to go next. On a terminal the facts are in
  // the words only; JSON keeps them as fields too, for programs.
  const ready =
    `Headcount is ready in ${(facts.ms / 1000).toFixed(1)} s (database: ${facts.database}): ${facts.url} · ` +
    `API reference: ${facts.url}/docs · admin CLI: ${ADMIN_CLI}`;
  if (prettyLogs) app.log.info(ready);
  else app.log.info(facts, ready);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Headcount failed to start: ${(error as Error)?.stack ?? String(error)}\n`);
  }
  process.exit(1);
});
