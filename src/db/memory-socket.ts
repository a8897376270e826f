import { Duplex } from 'node:stream';

/**
 * A connection inside this process, as a pair of streams: what one end writes, the other reads.
 * The embedded database's own pool reaches PGlite's socket server through it (embedded.ts
 * `connect`) instead of through the Unix socket in DATA_DIR, which costs every statement a socket
 * write and a read at both ends, and the event loop's wake-up between them, all on the one thread
 * that runs the app and PGlite alike (docs/performance.md "The embedded socket server"). Other
 * programs (the admin CLI, psql) still come in through the Unix socket.
 *
 * Written by hand: Node 22.6 has `stream.duplexPair()`, but not Node 20, and node-postgres needs
 * the few net.Socket methods below as well. What one end writes in one turn of the event loop
 * reaches the other as one chunk in the next tick, as a socket's reader gets writes that met in
 * its buffer together: the socket server runs a chunk's complete messages in one call into PGlite
 * (pglite-socket-fix.ts).
 */
export class MemorySocket extends Duplex {
  /** What net.Socket tells a server of its client (pglite-socket logs it). */
  readonly remoteAddress = 'in-process';
  readonly remotePort = 0;
  private peer: MemorySocket | null = null;
  /** Written this turn and not yet delivered: a flush is due whenever it is not empty. */
  private pending: Buffer[] = [];

  /** Two ends joined to each other. */
  static pair(): [MemorySocket, MemorySocket] {
    const a = new MemorySocket();
    const b = new MemorySocket();
    a.peer = b;
    b.peer = a;
    return [a, b];
  }

  private constructor() {
    super({ allowHalfOpen: false });
  }

  override _read(): void {
    // Data is pushed by the peer as it writes; nothing to fetch.
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.send(chunk);
    done();
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, done: (error?: Error | null) => void): void {
    for (const { chunk } of chunks) this.send(chunk);
    done();
  }

  /** The end of this side's writing: the peer reads to the end of what was written, then its end. */
  override _final(done: (error?: Error | null) => void): void {
    process.nextTick(() => this.peer?.push(null));
    done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    const peer = this.peer;
    this.pending = [];
    if (peer && !peer.destroyed) process.nextTick(() => peer.destroy());
    done(error);
  }

  private send(chunk: Buffer): void {
    if (this.pending.push(chunk) === 1) process.nextTick(() => this.flush());
  }

  private flush(): void {
    const chunks = this.pending;
    this.pending = [];
    if (chunks.length === 0 || !this.peer || this.peer.destroyed) return;
    this.peer.push(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  }

  // --- what node-postgres and pglite-socket call on a net.Socket ------------------------------
  connect(): this {
    process.nextTick(() => this.emit('connect'));
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}
