import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { Config } from '../config.ts';
import type { DB } from './schema.ts';
import { ADMIN_APPLICATION, lockHolder, runningInstanceConnection, startEmbedded, type EmbeddedDatabase } from './embedded.ts';
import { prepareRepeatedStatements } from './prepared-statements.ts';
import { sendBeginWithFirstStatement } from './pipelined-begin.ts';
import { countWrites } from './write-count.ts';

// PostgreSQL returns BIGINT (int8) as text because it can exceed 2^53; our counts and sums stay
// far below that, and the spec promises safe integers, so parse them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));
// A DATE is a calendar day, not an instant: keep it as 'YYYY-MM-DD' instead of a local-midnight Date.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export type Db = Kysely<DB>;

/**
 * The running instance's socket, waiting a little when that instance is still starting (it holds
 * the lock a few seconds before its socket is up), so the CLI works right after `npm start`.
 */
async function joinableInstance(dataDir: string, waitMs = 15_000): Promise<EmbeddedDatabase['connection'] | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const running = runningInstanceConnection(dataDir);
    if (running || lockHolder(dataDir) === null || Date.now() > deadline) return running;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface Database {
  db: Db;
  pool: pg.Pool;
  /** 'embedded' when this process serves PGlite, 'embedded-client' when it uses another process's. */
  kind: 'server' | 'embedded' | 'embedded-client';
  /** How to open more connections to the same database (the job queue keeps its own pool). */
  connection: pg.PoolConfig;
  /** This start made the embedded database from the install's template (embedded-template.ts). */
  fromTemplate: boolean;
  /**
   * The embedded database this process owns: called after each statement another program (the
   * admin CLI, psql) runs through its socket, whose changes this process cannot otherwise know.
   * Null elsewhere (on a PostgreSQL server such changes are heard through NOTIFY).
   */
  onForeignChange: EmbeddedDatabase['onForeignChange'] | null;
  /** Statements of this process's pool that may have changed data, finished so far (write-count.ts). */
  writes(): number;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** The admin CLI joins a running instance's embedded database instead of failing on the lock. */
  joinRunningInstance?: boolean;
  poolSize?: number;
  /** A fresh DATA_DIR starts as a copy of the install's migrated template (main and the admin CLI; tests and the template itself start empty). */
  fromTemplate?: boolean;
  /** Serve backups on DATA_DIR's admin socket while open (the service; embedded only). */
  adminSocket?: boolean;
}

export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'databasePoolSize'>, options: OpenOptions = {}): Promise<Database> {
  const max = options.poolSize ?? config.databasePoolSize;
  let embedded: EmbeddedDatabase | null = null;
  let poolConfig: pg.PoolConfig;
  let kind: Database['kind'];
  if (config.databaseUrl) {
    poolConfig = { connectionString: config.databaseUrl, max };
    kind = 'server';
  } else {
    const running = options.joinRunningInstance ? await joinableInstance(config.dataDir) : null;
    if (running) {
      poolConfig = { ...running, max };
      kind = 'embedded-client';
    } else {
      embedded = await startEmbedded(config.dataDir, { fromTemplate: options.fromTemplate ?? false, adminSocket: options.adminSocket ?? false });
      // This process's connections reach PGlite in memory (memory-socket.ts); the socket is for other programs.
      poolConfig = { ...embedded.connection, stream: embedded.connect, max };
      kind = 'embedded';
    }
  }
  // Pipeline mode: a client may send a query before the one before it is answered (pipelined-begin.ts).
  // The admin CLI names itself apart on a running instance's socket, which then treats what it does as another program's change (embedded.ts).
  const pool = new pg.Pool({ ...poolConfig, application_name: kind === 'embedded-client' ? ADMIN_APPLICATION : 'headcount', pipeline: true });
  // A client that loses its connection (idle, or checked out between two statements: a
  // PostgreSQL restart, a terminated backend) must not crash the process: its query fails, the
  // request gets a 500 or a retry, and the pool replaces the client.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  // Statements sent again and again are prepared once per connection (PGlite: once in its one session).
  // Each wraps the client's query: BEGIN's first (the inner one), so the prepared statements see it too.
  sendBeginWithFirstStatement(pool);
  if (kind !== 'embedded-client') prepareRepeatedStatements(pool, { sharedSession: kind === 'embedded' });
  // Last, so it sees each statement as sent: what caches of this process's own reads must know.
  const writes = countWrites(pool);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  return {
    db,
    pool,
    kind,
    connection: poolConfig,
    fromTemplate: embedded?.fromTemplate ?? false,
    onForeignChange: embedded ? embedded.onForeignChange : null,
    writes,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      await embedded?.stop();
    },
  };
}
