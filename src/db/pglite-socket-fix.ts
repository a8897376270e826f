import type { Duplex } from 'node:stream';
import { PGLiteSocketHandler, type PGLiteSocketServer } from '@electric-sql/pglite-socket';

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
 *
 * And it runs what a connection sent together together (issue 15, docs/performance.md "The
 * embedded socket server"): the original hands PGlite one message at a time, so a statement
 * (Parse, Bind, Describe, Execute, Sync) was five calls into the WebAssembly backend, five turns
 * of the queue and five socket writes. Every complete message of a connection's read goes to
 * PGlite in one call (PGlite's backend reads them in order, as PostgreSQL reads its socket) and
 * the answers go back in one write. A startup message still goes alone (it names the connection).
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

/**
 * The bytes at the front of `buffer` that form complete messages to run together: a startup
 * message alone, else every complete typed message (type byte, then a length that counts itself).
 * 0 when the first message is not complete yet. The startup test is the original handler's.
 */
export function completeMessages(buffer: Uint8Array): number {
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  if (buffer.length >= 8 && view.getInt32(4) === PROTOCOL_3) {
    const length = view.getInt32(0);
    return buffer.length >= length ? length : 0;
  }
  let end = 0;
  while (buffer.length - end >= 5) {
    const length = 1 + view.getInt32(end + 1);
    if (length < 5 || buffer.length - end < length) break;
    end += length;
  }
  return end;
}

/** Whether a run of typed messages leaves an extended-protocol query open (no Sync after its last extended message); null when it has neither. */
function leavesQueryOpen(messages: Uint8Array): boolean | null {
  if (startupApplicationName(messages) !== null) return null;
  const view = new DataView(messages.buffer, messages.byteOffset, messages.byteLength);
  let open: boolean | null = null;
  for (let at = 0; at + 5 <= messages.length; at += 1 + view.getInt32(at + 1)) {
    const type = messages[at];
    if (type === SYNC) open = false;
    else if (EXTENDED.has(type)) open = true;
  }
  return open;
}

/** What this file needs of a connection's handler (pglite-socket's private fields). */
interface Handler {
  id: number;
  socket: { writable: boolean; write(data: Uint8Array): boolean } | null;
  active: boolean;
  messageBuffer: Buffer;
  queryQueue: { enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> };
  handleSslRequest(): boolean;
  handleCancelRequest(): boolean;
  dispatchEvent(event: Event): boolean;
}

/** The handler's `handleData`, with a read's complete messages run in one call and answered in one write. */
async function handleData(this: Handler, data: Buffer): Promise<number> {
  if (!this.socket || !this.active) return 0;
  this.messageBuffer = this.messageBuffer.length === 0 ? data : Buffer.concat([this.messageBuffer, data]);
  let outgoing = 0;
  while (this.messageBuffer.length > 0) {
    if (this.handleSslRequest() || this.handleCancelRequest()) continue;
    const length = completeMessages(this.messageBuffer);
    if (length === 0) break;
    const messages = new Uint8Array(this.messageBuffer.subarray(0, length));
    this.messageBuffer = this.messageBuffer.subarray(length);
    if (!this.active || !this.socket) break;
    const answers: Buffer[] = [];
    // Copied: PGlite reuses the memory it hands out.
    await this.queryQueue.enqueue(this.id, messages, (answer) => {
      if (answer.length > 0) answers.push(Buffer.from(answer));
    });
    const bytes = answers.length === 1 ? answers[0] : Buffer.concat(answers);
    outgoing += bytes.length;
    if (bytes.length > 0 && this.socket?.writable && this.active) this.socket.write(bytes);
  }
  this.dispatchEvent(new CustomEvent('data', { detail: { incoming: data.length, outgoing } }));
  return outgoing;
}

export function keepExtendedQueriesTogether(server: PGLiteSocketServer, watch?: SocketWatch): void {
  // On the class: the server makes a handler per connection, and offers no hook to make them.
  const handlerProto = PGLiteSocketHandler.prototype as unknown as { handleData?: unknown };
  if (typeof handlerProto.handleData !== 'function') throw new Error('pglite-socket changed: review src/db/pglite-socket-fix.ts');
  handlerProto.handleData = handleData;
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
        const open = leavesQueryOpen(item.message);
        if (open !== null) midQuery = open ? item.handlerId : null;
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

/**
 * Serves a connection made inside this process (memory-socket.ts) as the server serves one that
 * came in through its socket: the same handler, limits and queue (pglite-socket's connection
 * handler, which offers no public way in but its net.Server).
 */
export function serveInProcess(server: PGLiteSocketServer, socket: Duplex): void {
  const handle = (server as unknown as { handleConnection?: (socket: Duplex) => Promise<void> }).handleConnection;
  if (typeof handle !== 'function') throw new Error('pglite-socket changed: review src/db/pglite-socket-fix.ts');
  void handle.call(server, socket);
}
