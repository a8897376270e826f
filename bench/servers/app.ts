import { loadConfig } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createContainer } from '../../src/container.ts';
import { buildApp } from '../../src/app.ts';
import { seedSimulatedPanel } from '../../src/modules/panel/panel-seed.ts';
import { serveChild } from '../lib/serve-child.ts';
import { countQueries } from '../lib/query-counter.ts';
import type { AppServerOptions } from '../lib/protocol.ts';

/**
 * The real app, started the way src/main.ts starts it (config → database → migrations → panel →
 * buildApp → listen), on a database the orchestrator made for this run and removes afterwards.
 * Not started yet: the job runner and the PostgreSQL notifier, which the current scenarios never
 * reach (public GETs and the estimate); scenarios for asks, answers and long-polls will need both.
 */
const options = JSON.parse(process.argv[2] ?? '') as AppServerOptions;

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
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
  });

  let t = performance.now();
  const database: Database = await openDatabase(config);
  const queries = countQueries(database.pool);
  try {
    const openMs = ms(t);
    t = performance.now();
    await migrateToLatest(database.db);
    const migrateMs = ms(t);
    const container = createContainer(config, database);
    t = performance.now();
    const heads = await seedSimulatedPanel(database.db, { size: options.heads, clock: container.clock });
    const seedMs = ms(t);
    const app = await buildApp(container);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('app server: no TCP address');
    return {
      port: address.port,
      info: { database: database.kind === 'server' ? 'postgresql' : 'embedded (PGlite)', heads, openMs, migrateMs, seedMs },
      queries,
      async close() {
        try {
          await app.close();
        } finally {
          await database.close();
        }
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
});
