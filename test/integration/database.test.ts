import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Db } from '../../src/db/database.ts';
import { DataDirInUseError, embeddedPaths } from '../../src/db/embedded.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { migrations } from '../../src/db/migrations/index.ts';
import { startFromTemplate, writeTemplateManifest } from '../../src/db/embedded-template.ts';
import { createEmptyDatabase, createTestDatabase, isServerRun, type TestDatabase } from '../helpers/test-database.ts';

const ALL_MIGRATIONS = Object.keys(migrations);
const HOLDER = fileURLToPath(new URL('../helpers/hold-data-dir.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Everything opened in a test is closed after it, even when an assertion fails half way. */
const opened: Database[] = [];
async function open(...args: Parameters<typeof openDatabase>): Promise<Database> {
  const database = await openDatabase(...args);
  opened.push(database);
  return database;
}
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

const markers = async (db: Db) => (await db.selectFrom('system_markers').select('name').orderBy('name').execute()).map((r) => r.name);
const mark = (db: Db, name: string) => db.insertInto('system_markers').values({ name }).execute();
const appliedMigrations = async (db: Db) =>
  (await db.selectFrom('kysely_migration' as never).select('name' as never).orderBy('name' as never).execute()).map((r) => (r as { name: string }).name);

describe.skipIf(isServerRun())('the embedded database', () => {
  let target: TestDatabase;
  beforeAll(async () => {
    target = await createTestDatabase();
  });
  afterAll(async () => {
    await target?.dispose();
  });

  it('keeps data across closing and reopening the same DATA_DIR', async () => {
    const first = await open(target.settings);
    await mark(first.db, 'survives-restart');
    await first.close();
    expect(fs.existsSync(embeddedPaths(target.settings.dataDir).lockFile)).toBe(false);
    expect(fs.existsSync(embeddedPaths(target.settings.dataDir).socketFile)).toBe(false);

    const second = await open(target.settings);
    expect(second.kind).toBe('embedded');
    expect(await markers(second.db)).toContain('survives-restart');
  });

  it('refuses a second open while the first is open, and lets a client join through its socket', async () => {
    const owner = await open(target.settings);
    await mark(owner.db, 'owner-wrote');

    const second = await openDatabase(target.settings).then(
      () => null,
      (error: unknown) => error,
    );
    expect(second).toBeInstanceOf(DataDirInUseError);
    expect((second as DataDirInUseError).message).toContain(target.settings.dataDir);
    expect((second as DataDirInUseError).message).toMatch(/DATABASE_URL/);

    const client = await open(target.settings, { joinRunningInstance: true });
    expect(client.kind).toBe('embedded-client');
    expect(await markers(client.db)).toContain('owner-wrote');
    await mark(client.db, 'client-wrote');
    expect(await markers(owner.db)).toContain('client-wrote');
    // Closing the client leaves the owner serving.
    await client.close();
    expect(await markers(owner.db)).toContain('owner-wrote');
  });

  it('refuses a DATA_DIR another process holds, naming its pid, and joins that process through its socket', async () => {
    const holder = await holdInChild(target.settings.dataDir);
    try {
      const refused = await openDatabase(target.settings).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(DataDirInUseError);
      expect((refused as DataDirInUseError).pid).toBe(holder.pid);
      expect((refused as Error).message).toContain(`pid ${holder.pid}`);
      expect((refused as Error).message).toContain(target.settings.dataDir);

      const client = await open(target.settings, { joinRunningInstance: true });
      expect(client.kind).toBe('embedded-client');
      await mark(client.db, 'through-the-socket');
      expect(await markers(client.db)).toContain('through-the-socket');
      await client.close();
    } finally {
      await holder.stop();
    }
    // The holder closed cleanly: the directory is free and kept what the client wrote.
    const after = await open(target.settings);
    expect(after.kind).toBe('embedded');
    expect(await markers(after.db)).toContain('through-the-socket');
  });

  it('treats a lock left by a process that died as stale', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    fs.writeFileSync(embeddedPaths(target.settings.dataDir).lockFile, JSON.stringify({ pid: dead, startedAt: new Date().toISOString() }));
    const database = await open(target.settings);
    expect(database.kind).toBe('embedded');
    const lock = JSON.parse(fs.readFileSync(embeddedPaths(target.settings.dataDir).lockFile, 'utf8'));
    expect(lock.pid).toBe(process.pid);
  });

  it('without a running instance, joinRunningInstance opens the directory itself', async () => {
    const database = await open(target.settings, { joinRunningInstance: true });
    expect(database.kind).toBe('embedded');
  });

  // Issue 15: `npm ci` makes a migrated template (scripts/build.mjs); a fresh DATA_DIR is a copy.
  it('starts a fresh DATA_DIR as a copy of a template made by this PGlite, never over an existing one', async () => {
    const runDir = fs.mkdtempSync(path.join(path.dirname(target.settings.dataDir), 'template-'));
    try {
      const templateDir = path.join(runDir, 'template');
      fs.mkdirSync(templateDir);
      fs.cpSync(embeddedPaths(target.settings.dataDir).pgdata, path.join(templateDir, 'pgdata'), { recursive: true });
      writeTemplateManifest(templateDir, ALL_MIGRATIONS);

      const fresh = path.join(runDir, 'fresh');
      fs.mkdirSync(fresh);
      expect(startFromTemplate(embeddedPaths(fresh).pgdata, templateDir)).toBe(true);
      expect(fs.existsSync(`${embeddedPaths(fresh).pgdata}.partial`)).toBe(false);
      const database = await open({ ...target.settings, dataDir: fresh });
      expect(await appliedMigrations(database.db)).toEqual(ALL_MIGRATIONS);
      expect(await migrateToLatest(database.db)).toEqual([]);
      await mark(database.db, 'own-data');
      await database.close();
      // The copy is the DATA_DIR's own: a second start keeps it.
      expect(startFromTemplate(embeddedPaths(fresh).pgdata, templateDir)).toBe(false);
      expect(await markers((await open({ ...target.settings, dataDir: fresh })).db)).toContain('own-data');

      // A template another PGlite made is not used (the on-disk format follows its version).
      const manifest = path.join(templateDir, 'template.json');
      fs.writeFileSync(manifest, JSON.stringify({ ...JSON.parse(fs.readFileSync(manifest, 'utf8')), pglite: '0.0.1' }));
      expect(startFromTemplate(path.join(runDir, 'other', 'pgdata'), templateDir)).toBe(false);
      expect(fs.existsSync(path.join(runDir, 'other', 'pgdata'))).toBe(false);
    } finally {
      while (opened.length) await opened.pop()!.close();
      fs.rmSync(runDir, { recursive: true, force: true });
    }
  });
});

describe('migrations', () => {
  it('are a no-op when run again on a migrated database', async () => {
    const target = await createTestDatabase();
    try {
      const database = await open(target.settings);
      expect(await appliedMigrations(database.db)).toEqual(ALL_MIGRATIONS);
      expect(await migrateToLatest(database.db)).toEqual([]);
      expect(await migrateToLatest(database.db)).toEqual([]);
      expect(await appliedMigrations(database.db)).toEqual(ALL_MIGRATIONS);
      await database.close();
    } finally {
      await target.dispose();
    }
  });

  // On the embedded default, test/global-setup.ts migrates a fresh directory on every run (which
  // takes seconds); on PostgreSQL a fresh database is cheap, so check the names it reports too.
  it.runIf(isServerRun())('apply every migration once on an empty database, then nothing', async () => {
    const target = await createEmptyDatabase();
    try {
      const database = await open(target.settings);
      expect(await migrateToLatest(database.db)).toEqual(ALL_MIGRATIONS);
      expect(await migrateToLatest(database.db)).toEqual([]);
      expect(await appliedMigrations(database.db)).toEqual(ALL_MIGRATIONS);
      await database.close();
    } finally {
      await target.dispose();
    }
  });

  it.runIf(isServerRun())('run from two pools at once (two processes starting together) on a fresh PostgreSQL database, both succeed and each migration applies once', async () => {
    for (let round = 0; round < 3; round++) {
      const target = await createEmptyDatabase();
      try {
        const a = await open(target.settings, { poolSize: 2 });
        const b = await open(target.settings, { poolSize: 2 });
        const [fromA, fromB] = await Promise.all([migrateToLatest(a.db), migrateToLatest(b.db)]);
        expect([...fromA, ...fromB].sort()).toEqual([...ALL_MIGRATIONS].sort());
        expect(await appliedMigrations(a.db)).toEqual(ALL_MIGRATIONS);
        await a.close();
        await b.close();
      } finally {
        await target.dispose();
      }
    }
  });
});

interface Holder {
  pid: number;
  stop(): Promise<void>;
}

/** Opens dataDir in a child process (as a running server would) and resolves once it holds it. */
async function holdInChild(dataDir: string): Promise<Holder> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--import', 'tsx', HOLDER, dataDir], {
    cwd: REPO_ROOT,
    stdio: 'pipe',
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the holder process did not start in time:\n${output}`)), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/ready \d+/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the holder process exited (${code}) before opening ${path.basename(dataDir)}:\n${output}`));
    });
  });
  return {
    pid: child.pid!,
    async stop() {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw new Error(`the holder process exited with ${code}:\n${output}`);
    },
  };
}
