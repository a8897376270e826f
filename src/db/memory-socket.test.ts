import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySocket } from './memory-socket.ts';
import { startEmbedded, type EmbeddedDatabase } from './embedded.ts';

const chunksOf = (socket: MemorySocket) => {
  const chunks: string[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  return chunks;
};
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const closed = (socket: MemorySocket) => new Promise<void>((resolve) => (socket.closed ? resolve() : socket.once('close', () => resolve())));

describe('MemorySocket', () => {
  it('carries bytes both ways, what one side wrote in one turn as one chunk, in order', async () => {
    const [a, b] = MemorySocket.pair();
    const atB = chunksOf(b);
    const atA = chunksOf(a);
    a.write('Parse');
    a.write('Bind');
    a.write('Sync');
    await nextTurn();
    b.write('answer');
    await nextTurn();
    a.write('next');
    await nextTurn();
    expect(atB).toEqual(['ParseBindSync', 'next']);
    expect(atA).toEqual(['answer']);
    a.destroy();
    await Promise.all([closed(a), closed(b)]);
  });

  it('an end reaches the other side after what was written before it, and both close', async () => {
    const [a, b] = MemorySocket.pair();
    const atB = chunksOf(b);
    const ended = new Promise<void>((resolve) => b.once('end', () => resolve()));
    a.end('last words');
    await ended;
    expect(atB).toEqual(['last words']);
    await Promise.all([closed(a), closed(b)]);
  });

  it('destroying one side closes the other, and what it had not delivered is dropped', async () => {
    const [a, b] = MemorySocket.pair();
    const atB = chunksOf(b);
    a.write('never read');
    a.destroy();
    await Promise.all([closed(a), closed(b)]);
    expect(b.destroyed).toBe(true);
    expect(atB).toEqual([]);
  });

  it('answers connect as a socket does', async () => {
    const [a, b] = MemorySocket.pair();
    const connected = new Promise<void>((resolve) => a.once('connect', () => resolve()));
    expect(a.connect().setNoDelay().setKeepAlive()).toBe(a);
    await connected;
    a.destroy();
    await Promise.all([closed(a), closed(b)]);
  });
});

describe('the embedded database inside its process', () => {
  let dataDir: string;
  let embedded: EmbeddedDatabase;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-memory-socket-'));
    embedded = await startEmbedded(dataDir);
  });
  afterAll(async () => {
    await embedded.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const served = () => embedded.connections();

  it('a pool of in-process connections and a client through the Unix socket see the same database', async () => {
    const pool = new pg.Pool({ ...embedded.connection, stream: embedded.connect, max: 4 });
    const socket = new pg.Client({ ...embedded.connection, application_name: 'psql' });
    try {
      await pool.query('CREATE TABLE seen (id int PRIMARY KEY, by text NOT NULL)');
      // Four connections at once, each with its own transaction: the server keeps them apart.
      await Promise.all(
        [1, 2, 3, 4].map(async (id) => {
          const client = await pool.connect();
          try {
            expect((client as unknown as { connection: { stream: unknown } }).connection.stream).toBeInstanceOf(MemorySocket);
            await client.query('BEGIN');
            await client.query('INSERT INTO seen VALUES ($1, $2)', [id, 'memory']);
            await client.query('COMMIT');
          } finally {
            client.release();
          }
        }),
      );
      await socket.connect();
      await socket.query("INSERT INTO seen VALUES (5, 'socket')");
      expect((await pool.query('SELECT count(*)::int AS n FROM seen')).rows[0].n).toBe(5);
      expect((await socket.query("SELECT count(*)::int AS n FROM seen WHERE by = 'memory'")).rows[0].n).toBe(4);
      // A failed statement fails its connection's query alone.
      await expect(pool.query('INSERT INTO seen VALUES (1, $1)', ['again'])).rejects.toThrow(/duplicate key/);
      expect((await pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);
    } finally {
      await socket.end();
      await pool.end();
    }
  });

  it('a connection that ends is no longer served, nor one that is dropped mid-transaction', async () => {
    // The connections of the test before have gone (a handler leaves a turn after its client).
    await expect.poll(() => served(), { timeout: 5000 }).toBe(0);
    const before = served();
    const ending = new pg.Client({ ...embedded.connection, stream: embedded.connect });
    await ending.connect();
    const dropped = new pg.Client({ ...embedded.connection, stream: embedded.connect });
    dropped.on('error', () => {});
    await dropped.connect();
    expect(served()).toBe(before + 2);
    await ending.end();
    await dropped.query('BEGIN');
    await dropped.query('CREATE TABLE left_open (id int)');
    (dropped as unknown as { connection: { stream: MemorySocket } }).connection.stream.destroy();
    await expect.poll(() => served(), { timeout: 5000 }).toBe(before);
    // The dropped transaction was rolled back, so the next connection finds no table and no open transaction.
    const after = new pg.Client({ ...embedded.connection, stream: embedded.connect });
    await after.connect();
    try {
      expect((await after.query("SELECT to_regclass('left_open') AS t")).rows[0].t).toBeNull();
    } finally {
      await after.end();
    }
  });
});
