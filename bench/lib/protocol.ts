/**
 * Messages between the orchestrator (bench/run.ts) and a server child (bench/servers/*.ts).
 *
 * Servers run in child processes so that the load generator (autocannon, in the orchestrator) and
 * the server under test never share an event loop: in one process every request would also pay
 * for autocannon's own work and the numbers would measure both.
 */

/** What a server child reports once it listens. */
export interface ReadyMessage {
  type: 'ready';
  port: number;
  /** Free-form facts about the server (database kind, heads seeded, start-up timings). */
  info: Record<string, unknown>;
}

/** Counters the orchestrator samples before and after each measured run. */
export interface StatsMessage {
  type: 'stats';
  /** SQL statements sent to the database since start (0 for servers without one). */
  queries: number;
  rssBytes: number;
}

export interface FailedMessage {
  type: 'failed';
  message: string;
}

export type ChildMessage = ReadyMessage | StatsMessage | FailedMessage;
export type ParentMessage = { type: 'stats' } | { type: 'stop' };

/** Options handed to a server child as its one command-line argument (JSON). */
export interface AppServerOptions {
  dataDir: string;
  /** A PostgreSQL database made for this run; null = embedded PGlite under dataDir. */
  databaseUrl: string | null;
  heads: number;
}
