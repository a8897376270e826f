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

export function keepExtendedQueriesTogether(server: PGLiteSocketServer): void {
  const queue = (server as unknown as { queryQueue: Queue }).queryQueue;
  const db = server.db as unknown as Db;
  if (!queue || typeof queue.processQueue !== 'function') throw new Error('pglite-socket changed: review src/db/pglite-socket-fix.ts');
  let midQuery: number | null = null;

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
        let bytes = 0;
        try {
          await db.runExclusive(() => db.execProtocolRawStream(item!.message, { onRawData: (data) => { bytes += data.length; item!.onData(data); } }));
        } catch (error) {
          item.reject(error);
          continue;
        }
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
    // A connection that went away mid-query must not hold the others back.
    if (midQuery === handlerId) midQuery = null;
    void queue.processQueue();
  };
}
