import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { writeBackup, type BackupManifest } from './embedded-backup.ts';
import { embeddedPaths } from './embedded-paths.ts';
import { renameSynced } from '../lib/fsync.ts';

/**
 * The running service's admin socket (a Unix socket in DATA_DIR, mode 0600): how `admin backup`
 * reaches the one process that has the embedded database open, since PGlite's dump runs only
 * inside that process. It serves one request, `POST /backup`, answered with the backup's bytes
 * and its manifest in the `X-Headcount-Backup` header. Whoever can open this socket can read
 * DATA_DIR itself, so it asks for nothing more; it is never on a TCP port.
 */
const MANIFEST_HEADER = 'x-headcount-backup';

export interface AdminSocket {
  close(): Promise<void>;
}

export async function serveAdminSocket(db: PGlite, dataDir: string): Promise<AdminSocket> {
  const socketPath = embeddedPaths(dataDir).adminSocket;
  fs.rmSync(socketPath, { force: true });
  // One backup at a time: each reads the whole database.
  let queue: Promise<unknown> = Promise.resolve();
  const server = http.createServer((request, response) => {
    if (request.method !== 'POST' || request.url !== '/backup') {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'not_found', message: 'Only POST /backup is served here.' } }));
      return;
    }
    const file = path.join(dataDir, `.backup-${randomUUID()}.tar.gz`);
    const work = queue.then(async () => {
      try {
        const manifest = await writeBackup(db, dataDir, file);
        const size = (await fsp.stat(file)).size;
        response.writeHead(200, { 'content-type': 'application/gzip', 'content-length': size, [MANIFEST_HEADER]: JSON.stringify(manifest) });
        await pipeline(fs.createReadStream(file), response);
      } catch (error) {
        if (!response.headersSent) {
          response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'internal', message: `The backup failed: ${(error as Error).message}` } }));
        } else response.destroy();
      } finally {
        await fsp.rm(file, { force: true });
      }
    });
    queue = work.catch(() => undefined);
  });
  server.listen(socketPath);
  await once(server, 'listening');
  fs.chmodSync(socketPath, 0o600);
  return {
    async close() {
      await queue;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(socketPath, { force: true });
    },
  };
}

/** Asks the running service for a backup and writes it to `file` (whole, or not at all). */
export async function requestBackup(dataDir: string, file: string): Promise<BackupManifest | null> {
  const socketPath = embeddedPaths(dataDir).adminSocket;
  if (!fs.existsSync(socketPath)) return null;
  const target = path.resolve(file);
  const partial = `${target}.partial`;
  const request = http.request({ socketPath, method: 'POST', path: '/backup' });
  request.end();
  const [response] = (await once(request, 'response')) as [http.IncomingMessage];
  if (response.statusCode !== 200) {
    let body = '';
    for await (const chunk of response) body += chunk;
    const message = (JSON.parse(body || '{}') as { error?: { message?: string } }).error?.message;
    throw new Error(message ?? `The service answered ${response.statusCode} to the backup request.`);
  }
  const manifest = JSON.parse(String(response.headers[MANIFEST_HEADER])) as BackupManifest;
  try {
    await pipeline(response, fs.createWriteStream(partial));
    const expected = Number(response.headers['content-length']);
    if (Number.isFinite(expected) && (await fsp.stat(partial)).size !== expected) throw new Error('The backup stream ended early.');
    await renameSynced(partial, target);
    return manifest;
  } finally {
    await fsp.rm(partial, { force: true });
  }
}
