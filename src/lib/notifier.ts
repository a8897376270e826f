import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
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

/**
 * Published instead of a question id when changes may have been missed: after the LISTEN
 * connection came back from a loss, other processes' NOTIFYs of the gap never arrived, so
 * every listener should treat every question as changed (re-check cached results, wake waiters).
 */
export const EVERY_QUESTION = '*';

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

/**
 * On a PostgreSQL server a change is delivered to this process's own listeners at once, and to
 * the other processes through NOTIFY. The payload carries this process's token, and the echo of
 * its own NOTIFY is dropped: delivering it again would make every cached result that was just
 * refreshed for the change check the database once more for nothing (and the local wake-up would
 * wait for the round trip). A payload without a token (an older process) counts as another's.
 */
export function createPostgresNotifier(connection: pg.ClientConfig, pool: pg.Pool, log: { error(obj: unknown, msg: string): void }): Notifier {
  const local = createLocalNotifier();
  const token = randomBytes(9).toString('base64url');
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  let listenedBefore = false;

  // Reconnecting until it works (test/integration/postgres-restart.test.ts): a PostgreSQL restart
  // keeps the server away for longer than one retry, and a single failed attempt used to leave
  // the process without LISTEN for good (its waiters only woke at the 5-s re-check). One retry
  // at a time: pg emits 'error' twice for one lost connection (the server's FATAL message, then
  // "Connection terminated unexpectedly"), which used to open two LISTEN connections.
  function reconnect(delayMs: number): void {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = null;
      connect().catch((error: unknown) => {
        log.error({ err: error }, `LISTEN reconnection failed; trying again in ${Math.min(delayMs * 2, 5000)} ms`);
        reconnect(Math.min(delayMs * 2, 5000));
      });
    }, delayMs);
    retry.unref();
  }

  async function connect(): Promise<void> {
    const next = new pg.Client(connection);
    next.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      const [id, from] = message.payload.split('|');
      if (id && from !== token) local.publish(id);
    });
    next.on('error', (error) => {
      // Only the connection in use reconnects (a half-made one fails its connect() instead).
      if (client !== next) return;
      log.error({ err: error }, 'LISTEN connection lost; reconnecting');
      client = null;
      reconnect(1000);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    // Back after a loss: whatever other processes announced meanwhile was not heard.
    if (listenedBefore) local.publish(EVERY_QUESTION);
    listenedBefore = true;
  }

  /**
   * Changes announced in one turn of the event loop go out in one statement (a batch of answers
   * touches many questions at once): one round trip instead of one per question.
   */
  let outgoing: Set<string> | null = null;
  function sendOutgoing(): void {
    const ids = [...(outgoing ?? [])];
    outgoing = null;
    const payloads = ids.map((id) => `${id}|${token}`);
    pool.query('SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload', [CHANNEL, payloads]).catch((error: unknown) => {
      log.error({ err: error }, 'NOTIFY failed: only this process heard of the change (waiters elsewhere re-check within 5 s)');
    });
  }

  return {
    publish(id) {
      local.publish(id);
      if (!outgoing) {
        outgoing = new Set();
        setImmediate(sendOutgoing);
      }
      outgoing.add(id);
    },
    subscribe: local.subscribe,
    start: connect,
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
