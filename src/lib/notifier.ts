import { EventEmitter } from 'node:events';
import pg from 'pg';

/**
 * Cross-process wake-ups (ARCHITECTURE §1): "question X changed". On a PostgreSQL server they go
 * through LISTEN/NOTIFY, so a waiter on one API process wakes when another process records the
 * answer. The embedded database cannot carry NOTIFY through its socket, and only one process owns
 * it anyway, so there an in-process emitter is enough. Waiters also re-check slowly as a safety
 * net (changes made by the admin CLI through the socket, a dropped LISTEN connection).
 */
export interface Notifier {
  publish(questionId: string): void;
  subscribe(listener: (questionId: string) => void): () => void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const CHANNEL = 'hc_questions';

export function createLocalNotifier(): Notifier {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (id) => void emitter.emit('changed', id),
    subscribe(listener) {
      emitter.on('changed', listener);
      return () => emitter.off('changed', listener);
    },
    async start() {},
    async stop() {},
  };
}

export function createPostgresNotifier(connection: pg.ClientConfig, pool: pg.Pool, log: { error(obj: unknown, msg: string): void }): Notifier {
  const local = createLocalNotifier();
  let client: pg.Client | null = null;
  let stopped = false;

  async function connect(): Promise<void> {
    const next = new pg.Client(connection);
    next.on('notification', (message) => {
      if (message.channel === CHANNEL && message.payload) local.publish(message.payload);
    });
    next.on('error', (error) => {
      log.error({ err: error }, 'LISTEN connection lost; reconnecting');
      client = null;
      if (!stopped) setTimeout(() => void connect().catch(() => {}), 1000).unref();
    });
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    client = next;
  }

  return {
    publish(id) {
      pool.query('SELECT pg_notify($1, $2)', [CHANNEL, id]).catch((error: unknown) => {
        log.error({ err: error }, 'NOTIFY failed; waking local waiters only');
        local.publish(id);
      });
    },
    subscribe: local.subscribe,
    start: connect,
    async stop() {
      stopped = true;
      await client?.end().catch(() => {});
    },
  };
}
