import fs from 'node:fs';
import path from 'node:path';
import { openDurablePGlite } from './pglite-durable.ts';
import { syncTree } from '../lib/fsync.ts';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { keepExtendedQueriesTogether, serveInProcess } from './pglite-socket-fix.ts';
import { MemorySocket } from './memory-socket.ts';
import { startFromTemplate } from './embedded-template.ts';
import { embeddedPaths, SOCKET_PORT } from './embedded-paths.ts';
import { serveAdminSocket, type AdminSocket } from './embedded-admin-socket.ts';
import { restoreBackup, writeBackup, type BackupManifest, type RestoreSummary } from './embedded-backup.ts';

export { embeddedPaths, SOCKET_PORT, type EmbeddedPaths } from './embedded-paths.ts';

/**
 * The embedded default (ARCHITECTURE §1): PGlite keeps its files under DATA_DIR and is served
 * over the PostgreSQL wire protocol, so the rest of the code talks to it through `pg` exactly as
 * it talks to a real server: this process's pools through connections in memory (`connect`,
 * memory-socket.ts), other programs (the admin CLI, psql) on a Unix socket inside DATA_DIR.
 *
 * PGlite is single-process: two processes opening the same files would corrupt them. A lock file
 * holding the owner's pid stops a second server with a clear error, and lets the admin CLI find
 * the running instance and go through its socket instead.
 */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      (pid === process.pid ? `DATA_DIR ${dataDir} is already open in this process (pid ${pid}). ` : `DATA_DIR ${dataDir} is in use by another Headcount process (pid ${pid}). `) +
        'The embedded database can only be opened by one process: stop that process, use another DATA_DIR, ' +
        'or set DATABASE_URL to share a PostgreSQL server between processes.',
    );
    this.name = 'DataDirInUseError';
  }
}

interface LockInfo {
  pid: number;
  startedAt: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * DATA_DIRs this process has open. The lock file cannot say: a lock holding our own pid may be a
 * stale one left by an earlier process that had the same pid (pid 1 in a container).
 */
const openHere = new Set<string>();

/** The pid of a live process holding DATA_DIR, or null when it is free (a stale lock counts as free). */
export function lockHolder(dataDir: string): number | null {
  if (openHere.has(path.resolve(dataDir))) return process.pid;
  try {
    const info = JSON.parse(fs.readFileSync(embeddedPaths(dataDir).lockFile, 'utf8')) as LockInfo;
    return Number.isInteger(info.pid) && info.pid !== process.pid && isAlive(info.pid) ? info.pid : null;
  } catch {
    return null;
  }
}

/** Takes DATA_DIR's lock (DataDirInUseError when a live process has it); returns its release. */
export function acquireLock(dataDir: string): () => void {
  const { lockFile } = embeddedPaths(dataDir);
  const key = path.resolve(dataDir);
  if (openHere.has(key)) throw new DataDirInUseError(dataDir, process.pid);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockFile, 'wx');
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() } satisfies LockInfo));
      fs.closeSync(fd);
      openHere.add(key);
      return () => {
        openHere.delete(key);
        try {
          const info = JSON.parse(fs.readFileSync(lockFile, 'utf8')) as LockInfo;
          if (info.pid === process.pid) fs.unlinkSync(lockFile);
        } catch {
          /* already gone */
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = lockHolder(dataDir);
      if (holder !== null) throw new DataDirInUseError(dataDir, holder);
      // Stale lock left by a process that died: remove it and try again.
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock DATA_DIR ${dataDir}`);
}

/**
 * The application_name of the admin CLI's connections to a running instance. Every other
 * connection whose name starts with "headcount" is this process's own (its pool, the job queue);
 * the rest (the admin CLI, psql, any other program) are another program's, whose changes the
 * process cannot know of: each of their statements is announced as "everything may have changed".
 */
export const ADMIN_APPLICATION = 'headcount-admin';
const isOwnApplication = (name: string) => name.startsWith('headcount') && name !== ADMIN_APPLICATION;

export interface EmbeddedDatabase {
  /** Connection settings for `pg` (host is the socket directory). */
  connection: { host: string; port: number; user: string; database: string };
  /**
   * A new connection to the same server inside this process (memory-socket.ts), for `pg`'s
   * `stream` option: this process's own pools use it, other programs the socket.
   */
  connect(): MemorySocket;
  /** The connections the server is serving now, in-process and through the socket (pglite-socket's count). */
  connections(): number;
  /** Called after each statement another program (the admin CLI, psql) ran through the socket. */
  onForeignChange(listener: () => void): () => void;
  /** True when this start made the database as a copy of the install's template. */
  fromTemplate: boolean;
  stop(): Promise<void>;
}

export interface StartOptions {
  maxConnections?: number;
  /** Copy the install's migrated template when DATA_DIR has no database yet (embedded-template.ts). */
  fromTemplate?: boolean;
  /** Serve backups on DATA_DIR's admin socket (the service: embedded-admin-socket.ts). */
  adminSocket?: boolean;
}

export async function startEmbedded(dataDir: string, options: StartOptions = {}): Promise<EmbeddedDatabase> {
  const { maxConnections = 100, fromTemplate = false, adminSocket = false } = options;
  fs.mkdirSync(dataDir, { recursive: true });
  const paths = embeddedPaths(dataDir);
  const release = acquireLock(dataDir);
  try {
    // We hold the lock, so any socket file left behind belongs to a dead process.
    fs.rmSync(paths.socketFile, { force: true });
    const copied = fromTemplate && startFromTemplate(paths.pgdata);
    const made = !copied && !fs.existsSync(path.join(paths.pgdata, 'PG_VERSION'));
    const db = await openDurablePGlite(paths.pgdata);
    // A database PGlite's initdb just made (no template) was written without syncs: on disk once,
    // before anything is committed on it (pglite-durable.ts).
    if (made) syncTree(paths.pgdata);
    // Migration 0022's triggers announce changes with NOTIFY for the processes of a server; here
    // no session listens (other programs on the socket are heard through it, below), and each
    // NOTIFY made answers 4× slower. The setting lasts for the one session PGlite has.
    await db.exec(`SET headcount.announce_changes = 'off'`);
    const server = new PGLiteSocketServer({ db, path: paths.socketFile, maxConnections });
    const foreign = new Set<() => void>();
    keepExtendedQueriesTogether(server, { isOwn: isOwnApplication, foreignMessage: () => foreign.forEach((listener) => listener()) });
    await server.start();
    const admin: AdminSocket | null = adminSocket ? await serveAdminSocket(db, dataDir) : null;
    let stopped = false;
    return {
      connection: { host: paths.socketDir, port: SOCKET_PORT, user: 'postgres', database: 'postgres' },
      connect() {
        const [client, served] = MemorySocket.pair();
        serveInProcess(server, served);
        return client;
      },
      connections: () => server.getStats().activeConnections,
      fromTemplate: copied,
      onForeignChange(listener) {
        foreign.add(listener);
        return () => void foreign.delete(listener);
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        await admin?.close();
        await server.stop();
        await db.close();
        fs.rmSync(paths.socketFile, { force: true });
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** Connection settings for reaching a running instance's embedded database through its socket. */
export function runningInstanceConnection(dataDir: string): EmbeddedDatabase['connection'] | null {
  const paths = embeddedPaths(dataDir);
  if (lockHolder(dataDir) === null || !fs.existsSync(paths.socketFile)) return null;
  return { host: paths.socketDir, port: SOCKET_PORT, user: 'postgres', database: 'postgres' };
}

/**
 * A backup of DATA_DIR when no process has it open (docs/operations.md "Backups"); while the
 * service runs, the admin CLI asks it instead (embedded-admin-socket.ts `requestBackup`).
 */
export async function backupClosedDataDir(dataDir: string, file: string): Promise<BackupManifest> {
  const release = acquireLock(dataDir);
  try {
    const { pgdata } = embeddedPaths(dataDir);
    if (!fs.existsSync(path.join(pgdata, 'PG_VERSION'))) throw new Error(`DATA_DIR ${dataDir} has no database to back up.`);
    const db = await openDurablePGlite(pgdata);
    try {
      return await writeBackup(db, dataDir, file);
    } finally {
      await db.close();
    }
  } finally {
    release();
  }
}

/** Restores a backup into DATA_DIR, which no process may have open (embedded-backup.ts). */
export async function restoreDataDir(dataDir: string, file: string): Promise<RestoreSummary> {
  fs.mkdirSync(dataDir, { recursive: true });
  const release = acquireLock(dataDir);
  try {
    return await restoreBackup(dataDir, file);
  } finally {
    release();
  }
}
