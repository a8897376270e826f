import type pg from 'pg';
import type { RawBuilder } from 'kysely';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { createTestDatabase } from './test-database.ts';

type Socket = { _write: (...args: unknown[]) => unknown; _writev?: (...args: unknown[]) => unknown; on(event: 'data', listener: () => void): void };

export interface SocketCounts {
  /** Writes on the socket so far. */
  readonly writes: number;
  /**
   * Round trips so far: runs of writes with no answer read in between (statements sent without
   * waiting for the ones before them count once).
   */
  readonly roundTrips: number;
  /** The writes and round trips `work` made. */
  during(work: () => Promise<unknown>): Promise<{ writes: number; roundTrips: number }>;
}

/**
 * Counts the writes, and the round trips, on the socket of a pool of ONE connection (so every
 * statement goes through it): where round trips show, below every layer of ours
 * (docs/performance.md "Round trips").
 */
export async function countSocketWrites(pool: pg.Pool): Promise<SocketCounts> {
  const client = await pool.connect();
  const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream;
  client.release();
  let writing = false;
  const counts = {
    writes: 0,
    roundTrips: 0,
    async during(work: () => Promise<unknown>) {
      const before = { writes: counts.writes, roundTrips: counts.roundTrips };
      await work();
      return { writes: counts.writes - before.writes, roundTrips: counts.roundTrips - before.roundTrips };
    },
  };
  for (const method of ['_write', '_writev'] as const) {
    const original = socket[method];
    if (!original) continue;
    socket[method] = function (this: unknown, ...args: unknown[]) {
      counts.writes += 1;
      if (!writing) counts.roundTrips += 1;
      writing = true;
      return original.apply(this, args);
    };
  }
  socket.on('data', () => (writing = false));
  return counts;
}

export interface OneConnectionDatabase {
  database: Database;
  socket: SocketCounts;
  close(): Promise<void>;
}

/**
 * A new test database opened with a pool of ONE connection, `setup` run on it, and that
 * connection's socket counted: every statement a test makes afterwards goes through it.
 */
export async function openOneConnectionDatabase(setup: RawBuilder<unknown>): Promise<OneConnectionDatabase> {
  const target = await createTestDatabase();
  const database = await openDatabase({ ...target.settings, databasePoolSize: 1 });
  await setup.execute(database.db);
  const socket = await countSocketWrites(database.pool);
  return {
    database,
    socket,
    async close() {
      await database.close();
      await target.dispose();
    },
  };
}
