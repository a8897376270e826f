import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * Works around electric-sql/pglite#1046 (fixed upstream by PR #977, not yet released in the
 * pglite-socket version pinned here): the socket server multiplexes every connection into
 * PGlite's single session one protocol message at a time, and outside a transaction it may run
 * another connection's Parse between this connection's Parse, Bind and Execute. The unnamed
 * statement then belongs to the wrong query: wrong results, "bind message supplies N
 * parameters" errors. No maintained package fixes it, so this replaces the queue's loop with the
 * same loop plus one rule: once a connection starts an extended-protocol query, its messages run
 * until its Sync before anyone else's. It also keeps the loop alive after a failed message
 * (the original returns with `processing` left true and stalls every connection).
 */
const EXTENDED = new Set([0x50 /* P */, 0x42 /* B */, 0x44 /* D */, 0x45 /* E */, 0x43 /* C */, 0x48 /* H */]);
const SYNC = 0x53; /* S */

interface QueueItem {
  handlerId: number;
  message: Uint8Array;
  resolve(bytes: number): void;
  reject(error: unknown): void;
  onData(data: Uint8Array): void;
}

interface Queue {
  queue: QueueItem[];
  processing: boolean;
  lastHandlerId: number | null;
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
}

interface Db {
  isInTransaction(): boolean;
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
  execProtocolRawStream(message: Uint8Array, options: { onRawData(data: Uint8Array): void }): Promise<unknown>;
}

/** The protocol 3.0 startup message: length, then this code, then name/value C strings. */
const PROTOCOL_3 = 196608;

/** A startup message's application_name, '' when it names none; null when the message is not a startup. */
export function startupApplicationName(message: Uint8Array): string | null {
  if (message.length < 8) return null;
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
  if (view.getInt32(4) !== PROTOCOL_3) return null;
  const parts = Buffer.from(message.buffer, message.byteOffset + 8, message.byteLength - 8).toString('utf8').split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) if (parts[i] === 'application_name') return parts[i + 1]!;
  return '';
}

export interface SocketWatch {
  /** Whether a connection that started with this application_name is one of this process's own. */
  isOwn(applicationName: string): boolean;
  /** Called after every message of another program's connection has run (and when one goes away). */
  foreignMessage(): void;
}

export function keepExtendedQueriesTogether(server: PGLiteSocketServer, watch?: SocketWatch): void {
  const queue = (server as unknown as { queryQueue: Queue }).queryQueue;
  const db = server.db as unknown as Db;
  if (!queue || typeof queue.processQueue !== 'function') throw new Error('pglite-socket changed: review src/db/pglite-socket-fix.ts');
  let midQuery: number | null = null;
  /** Connections of other programs (the admin CLI, psql), by handler id. */
  const foreign = new Set<number>();

  queue.processQueue = async function processQueue(this: Queue) {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const owner = midQuery ?? (db.isInTransaction() && this.lastHandlerId !== null ? this.lastHandlerId : null);
        let item: QueueItem | undefined;
        if (owner !== null) {
          const index = this.queue.findIndex((q) => q.handlerId === owner);
          if (index === -1) break; // its next message has not arrived yet: wait for it
          item = this.queue.splice(index, 1)[0];
        } else {
          item = this.queue.shift();
        }
        if (!item) break;
        const type = item.message[0];
        const name = watch ? startupApplicationName(item.message) : null;
        if (name !== null && !watch!.isOwn(name)) foreign.add(item.handlerId);
        let bytes = 0;
        try {
          await db.runExclusive(() => db.execProtocolRawStream(item!.message, { onRawData: (data) => { bytes += data.length; item!.onData(data); } }));
        } catch (error) {
          item.reject(error);
          if (foreign.has(item.handlerId)) watch!.foreignMessage();
          continue;
        }
        // What another program changed is announced before this thread reads any more I/O (only
        // promise callbacks ran since the statement), so no request that comes after it, the
        // program's own user acting on its answer included, is served from a cache of the old state.
        if (foreign.has(item.handlerId)) watch!.foreignMessage();
        if (type === SYNC) midQuery = null;
        else if (EXTENDED.has(type)) midQuery = item.handlerId;
        this.lastHandlerId = item.handlerId;
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }.bind(queue);

  const clear = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId: number) => {
    clear(handlerId);
    if (foreign.delete(handlerId)) watch!.foreignMessage();
    // A connection that went away mid-query must not hold the others back.
    if (midQuery === handlerId) midQuery = null;
    void queue.processQueue();
  };
}
