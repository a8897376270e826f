import { EventEmitter } from 'node:events';
import pg from 'pg';

/**
 * Cross-process wake-ups (ARCHITECTURE §1): "question X changed", "API key Y changed". On a
 * PostgreSQL server they go through LISTEN/NOTIFY, so a waiter on one API process wakes when
 * another process records the answer. The embedded database cannot carry NOTIFY through its
 * socket, and only one process owns it anyway, so there an in-process emitter is enough; what
 * other programs change through its socket (the admin CLI) is announced as "everything changed"
 * (db/embedded.ts). Waiters also re-check slowly as a safety net.
 *
 * On a server the database announces changes itself (migration 0022's triggers: a question from
 * its first change on (migration 0023), an answer, a flag, a summary, an API key, at commit), so
 * every writer is heard, the admin CLI and psql included. `publish` is the writing process's own
 * announcement, to its own listeners, at once, before it answers: the database's NOTIFY of its
 * change comes back only later (and is dropped as an echo).
 */
export interface Notifier {
  /** This process committed a change to the question: its own listeners hear it at once. */
  publish(questionId: string): void;
  subscribe(listener: (questionId: string) => void): () => void;
  /** An API key's row changed (revoked, deleted): lookups cached for it must go. */
  publishKey(keyId: string): void;
  /** Key changes, with EVERY_KEY when changes may have been missed. */
  subscribeKeys(listener: (keyId: string) => void): () => void;
  /**
   * True while every change made anywhere reaches this process's listeners: only then may a
   * cache skip the database (the API key cache, kept results: docs/performance.md "Caches that
   * skip the database"). False on a PostgreSQL server while the LISTEN connection is down, and
   * for a notifier that hears this process only.
   */
  hearsEveryChange(): boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const CHANNEL = 'hc_questions';
/** Payload: the key's id; written by the api_keys trigger (migration 0022), never by the app. */
const KEYS_CHANNEL = 'hc_keys';

/**
 * Published instead of a question id when changes may have been missed: after the LISTEN
 * connection came back from a loss, other processes' NOTIFYs of the gap never arrived, so
 * every listener should treat every question as changed (re-check cached results, wake waiters).
 */
export const EVERY_QUESTION = '*';
/** Published instead of a key id when key changes may have been missed: drop every cached key. */
export const EVERY_KEY = '*';

/**
 * One process's notifier. With `foreignChanges` (the process that owns the embedded database:
 * db/embedded.ts tells it of every statement another program runs through the socket, each
 * announced as EVERY_QUESTION and EVERY_KEY) it hears every change; without, it hears this
 * process only (a process on a PostgreSQL server without LISTEN: tests), and caches that rely
 * on hearsEveryChange() always ask the database.
 */
export function createLocalNotifier(options: { foreignChanges?: (listener: () => void) => unknown } = {}): Notifier & { everythingChanged(): void } {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const on = (event: string, listener: (id: string) => void) => {
    emitter.on(event, listener);
    return () => void emitter.off(event, listener);
  };
  function everythingChanged(): void {
    emitter.emit('changed', EVERY_QUESTION);
    emitter.emit('key', EVERY_KEY);
  }
  const hearsEverything = options.foreignChanges !== undefined;
  options.foreignChanges?.(everythingChanged);
  return {
    publish: (id) => void emitter.emit('changed', id),
    subscribe: (listener) => on('changed', listener),
    publishKey: (id) => void emitter.emit('key', id),
    subscribeKeys: (listener) => on('key', listener),
    hearsEveryChange: () => hearsEverything,
    everythingChanged,
    async start() {},
    async stop() {},
  };
}

/**
 * On a PostgreSQL server a change is delivered to this process's own listeners at once (its
 * services announce what they committed, before they answer), and to the other processes by the
 * database itself: migration 0022's triggers NOTIFY at commit, inside the writing transaction, so
 * the app sends no NOTIFY of its own (that was one more statement per ask and per answer batch).
 * The echo of this process's own writes is dropped: delivering it again would make every cached
 * result that was just refreshed for the change check the database once more for nothing.
 */
export function createPostgresNotifier(connection: pg.ClientConfig, pool: pg.Pool, log: { error(obj: unknown, msg: string): void }): Notifier {
  const local = createLocalNotifier();
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  let listenedBefore = false;
  /**
   * The backend process ids of this process's pool, whose triggers' NOTIFYs are its own echo.
   * Connections opened before the notifier (the migrations') are not known: their echo counts as
   * another's, which costs a cache check, never a stale read, and the pool replaces idle ones.
   */
  const ownBackends = new Set<number>();
  pool.on('connect', (pooled) => {
    const pid = (pooled as unknown as { processID?: number }).processID;
    if (pid) ownBackends.add(pid);
  });
  pool.on('remove', (pooled) => {
    const pid = (pooled as unknown as { processID?: number }).processID;
    if (pid) ownBackends.delete(pid);
  });

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
      if (!message.payload) return;
      if (message.channel === KEYS_CHANNEL) {
        local.publishKey(message.payload);
        return;
      }
      if (message.channel !== CHANNEL) return;
      // A change made by one of this process's connections: this process knows it already (its
      // caches count its own writes, db/write-count.ts, and its services announced it locally).
      if (ownBackends.has(message.processId)) return;
      // (Processes before migration 0022 sent `id|token` themselves; the id is what counts.)
      const [id] = message.payload.split('|');
      if (id) local.publish(id);
    });
    next.on('error', (error) => {
      // Only the connection in use reconnects (a half-made one fails its connect() instead).
      if (client !== next) return;
      log.error({ err: error }, 'LISTEN connection lost; reconnecting');
      client = null;
      reconnect(1000);
    });
    // An end without an error (the server closed it cleanly) is a loss all the same.
    next.on('end', () => {
      if (client !== next || stopped) return;
      log.error({}, 'LISTEN connection ended; reconnecting');
      client = null;
      reconnect(1000);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}; LISTEN ${KEYS_CHANNEL}`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    // Back after a loss: whatever other processes announced meanwhile was not heard. Caches are
    // emptied before hearsEveryChange() turns true again, so nothing kept from before the gap is served.
    if (listenedBefore) local.everythingChanged();
    client = next;
    listenedBefore = true;
  }

  return {
    publish: local.publish,
    subscribe: local.subscribe,
    publishKey: local.publishKey,
    subscribeKeys: local.subscribeKeys,
    hearsEveryChange: () => client !== null,
    start: connect,
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      const last = client;
      client = null;
      await last?.end().catch(() => {});
    },
  };
}

/**
 * The notifier of a serving process (main.ts, the bench's app): LISTEN/NOTIFY on a PostgreSQL
 * server; on the embedded database it owns, a local one that hears the socket's other programs.
 */
export function notifierFor(
  database: { kind: string; connection: pg.ClientConfig; pool: pg.Pool; onForeignChange: ((listener: () => void) => unknown) | null },
  log: { error(obj: unknown, msg: string): void },
): Notifier {
  return database.kind === 'server'
    ? createPostgresNotifier(database.connection, database.pool, log)
    : createLocalNotifier({ foreignChanges: database.onForeignChange ?? undefined });
}
