import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { PGlite } from '@electric-sql/pglite';
import { openDurablePGlite } from './pglite-durable.ts';
import { renameSynced, syncRename, syncTree } from '../lib/fsync.ts';
import * as tar from 'tar';
import { migrations } from './migrations/index.ts';
import { embeddedPaths } from './embedded-paths.ts';

/**
 * Backups of the embedded database (issue 16, docs/operations.md "Backups"): one .tar.gz file
 * holding
 *   manifest.json  what it is (BACKUP_FORMAT), when, PGlite's version, the migrations applied;
 *   pgdata.tar     PGlite's own dump of its data directory (`dumpDataDir`);
 *   uploads/       the uploaded files kept under DATA_DIR (UPLOAD_STORAGE=filesystem).
 *
 * Consistent while the service runs: PGlite is one session, and `dumpDataDir` runs alone in it
 * (no statement runs while the files are read), so the dump is the database at one instant, as a
 * crash would leave it; opening it replays the write-ahead log like any PostgreSQL after a crash.
 * Uploads are copied after the dump: a file is written before the row that names it commits, and
 * a finished upload's file is never removed (uploads.service.ts `sweep` removes only unfinished
 * ones, which no question can name), so every file the dumped database names is already there.
 *
 * Restoring swaps DATA_DIR's database and uploads for the backup's and moves the old ones aside
 * (nothing is deleted). Its caller holds DATA_DIR's lock (the service must be stopped).
 */
export const BACKUP_FORMAT = 'headcount-embedded-backup/1';

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  createdAt: string;
  pglite: string;
  /** The migrations the database had applied, by name. */
  migrations: string[];
  /** Uploaded files in the backup. */
  uploads: number;
  /** Bytes of the database's dump (uncompressed). */
  databaseBytes: number;
}

export interface RestoreSummary {
  manifest: BackupManifest;
  /** Where DATA_DIR's previous database and uploads were moved, or null when there were none. */
  movedAside: string | null;
}

/** A backup file that cannot be restored: not one of ours, damaged, or from a newer Headcount. */
export class BackupFileError extends Error {
  override readonly name = 'BackupFileError';
}

function stamp(now = new Date()): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

function pgliteVersion(): string {
  // Resolved from PGlite's own entry point: its package.json is not in its "exports".
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  let dir = path.dirname(entry);
  while (dir !== path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite') return pkg.version ?? 'unknown';
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}

async function countFiles(dir: string): Promise<number> {
  let n = 0;
  for (const entry of await fsp.readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) n++;
  return n;
}

/**
 * Writes a backup of `db` (open on `dataDir`) to `file`, atomically: it appears whole or not at
 * all. The staging files live beside `file` and are removed whatever happens.
 */
export async function writeBackup(db: PGlite, dataDir: string, file: string): Promise<BackupManifest> {
  const target = path.resolve(file);
  const staging = await fsp.mkdtemp(path.join(path.dirname(target), '.headcount-backup-'));
  const partial = `${target}.partial`;
  try {
    const applied = (await db.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')).rows.map((row) => row.name);
    const dump = await db.dumpDataDir('none');
    await pipeline(Readable.fromWeb(dump.stream() as WebReadableStream<Uint8Array>), fs.createWriteStream(path.join(staging, 'pgdata.tar')));
    const uploadsDir = path.join(dataDir, 'uploads');
    let uploads = 0;
    if (fs.existsSync(uploadsDir)) {
      await fsp.cp(uploadsDir, path.join(staging, 'uploads'), { recursive: true });
      uploads = await countFiles(path.join(staging, 'uploads'));
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      pglite: pgliteVersion(),
      migrations: applied,
      uploads,
      databaseBytes: dump.size,
    };
    await fsp.writeFile(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await tar.create({ gzip: true, file: partial, cwd: staging, portable: true }, ['manifest.json', 'pgdata.tar', ...(uploads ? ['uploads'] : [])]);
    // With --force it replaces the previous backup: whole, or the previous one kept.
    await renameSynced(partial, target);
    return manifest;
  } finally {
    await fsp.rm(partial, { force: true });
    await fsp.rm(staging, { recursive: true, force: true });
  }
}

function readManifest(staging: string): BackupManifest {
  let manifest: Partial<BackupManifest>;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(staging, 'manifest.json'), 'utf8')) as Partial<BackupManifest>;
  } catch {
    throw new BackupFileError('This is not a Headcount backup: it has no manifest.json.');
  }
  if (manifest.format !== BACKUP_FORMAT) throw new BackupFileError(`This backup's format is ${JSON.stringify(manifest.format)}; this Headcount reads ${BACKUP_FORMAT}.`);
  if (!fs.existsSync(path.join(staging, 'pgdata.tar'))) throw new BackupFileError('This backup has no database (pgdata.tar is missing).');
  const known = new Set(Object.keys(migrations));
  const unknown = (manifest.migrations ?? []).filter((name) => !known.has(name));
  if (unknown.length) {
    throw new BackupFileError(`This backup was made by a newer Headcount (it has migrations this one does not know: ${unknown.join(', ')}). Restore it with that version or newer.`);
  }
  return manifest as BackupManifest;
}

/**
 * Restores `file` into `dataDir`. The caller holds DATA_DIR's lock. The backup is unpacked and
 * opened in a staging directory inside DATA_DIR first, so a damaged file changes nothing; only
 * then are the current database and uploads moved to `before-restore-<time>/` and the restored
 * ones moved in (renames on one filesystem). Newer migrations are applied at the next start.
 */
export async function restoreBackup(dataDir: string, file: string): Promise<RestoreSummary> {
  const source = path.resolve(file);
  if (!fs.existsSync(source)) throw new BackupFileError(`No file at ${source}.`);
  fs.mkdirSync(dataDir, { recursive: true });
  const when = stamp();
  const staging = path.join(dataDir, `.restore-${when}`);
  await fsp.rm(staging, { recursive: true, force: true });
  await fsp.mkdir(staging);
  try {
    try {
      // tar refuses entries that would land outside `cwd` (absolute paths, ..) by default.
      await tar.extract({ file: source, cwd: staging, strict: true });
    } catch (error) {
      throw new BackupFileError(`This file cannot be read as a backup (${(error as Error).message}).`);
    }
    const manifest = readManifest(staging);
    const restoredPgdata = path.join(staging, 'pgdata');
    try {
      // Opened once here so a dump that does not open fails before anything in DATA_DIR moves.
      const db = await openDurablePGlite(restoredPgdata, { loadDataDir: await fs.openAsBlob(path.join(staging, 'pgdata.tar')) });
      try {
        await db.query('SELECT count(*) FROM kysely_migration');
      } finally {
        await db.close();
      }
    } catch (error) {
      throw new BackupFileError(`The backup's database does not open (${(error as Error).message}).`);
    }
    await fsp.rm(path.join(staging, 'pgdata.tar'));
    // On disk before anything moves: the renames below must not outlive, after a power cut,
    // files the kernel had not written yet.
    syncTree(staging);

    const { pgdata } = embeddedPaths(dataDir);
    const uploads = path.join(dataDir, 'uploads');
    const present = [pgdata, uploads].filter((dir) => fs.existsSync(dir));
    let movedAside: string | null = null;
    if (present.length) {
      movedAside = path.join(dataDir, `before-restore-${when}`);
      await fsp.mkdir(movedAside);
      for (const dir of present) await fsp.rename(dir, path.join(movedAside, path.basename(dir)));
    }
    await fsp.rename(restoredPgdata, pgdata);
    if (fs.existsSync(path.join(staging, 'uploads'))) await fsp.rename(path.join(staging, 'uploads'), uploads);
    syncRename(pgdata); // and uploads: both are entries of DATA_DIR
    return { manifest, movedAside };
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
}
