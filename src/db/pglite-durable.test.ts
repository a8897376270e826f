import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { embeddedPaths, startEmbedded, type EmbeddedDatabase } from './embedded.ts';
import { startFromTemplate, usableTemplate } from './embedded-template.ts';
import { fsyncsDuring } from '../../test/helpers/syncs.ts';

/**
 * A commit on the embedded database is on disk before it returns (pglite-durable.ts): what a
 * power cut would test, observed as the syncs the kernel is asked for. PGlite as published makes
 * none, so each of these fails without the patch.
 */

const filesUnder = async (dir: string) => (await fsp.readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));

describe('the embedded database commits durably', () => {
  let dataDir: string;
  let embedded: EmbeddedDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hc-durable-')));
    embedded = await startEmbedded(dataDir);
    client = new pg.Client({ ...embedded.connection, stream: embedded.connect });
    await client.connect();
    await client.query('CREATE TABLE kept (id int PRIMARY KEY, what text NOT NULL)');
  });
  afterAll(async () => {
    await client.end();
    await embedded.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs PostgreSQL with fsync on, through the sync method PGlite implements', async () => {
    const show = async (name: string) => (await client.query(`SHOW ${name}`)).rows[0][name];
    expect(await show('fsync')).toBe('on');
    expect(await show('synchronous_commit')).toBe('on');
    expect(await show('wal_sync_method')).toBe('fsync');
  });

  it('a COMMIT returns only after its write-ahead log was synced; a read syncs nothing', async () => {
    const wal = path.join(fs.realpathSync(embeddedPaths(dataDir).pgdata), 'pg_wal');
    const committed = await fsyncsDuring(async () => {
      await client.query('BEGIN');
      await client.query("INSERT INTO kept VALUES (1, 'credits bought')");
      await client.query('COMMIT');
    });
    expect(committed.some((p) => p.startsWith(`${wal}/`))).toBe(true);
    // One statement, committed on its own, the same.
    expect(await fsyncsDuring(() => client.query("INSERT INTO kept VALUES (2, 'an answer')"))).toEqual(expect.arrayContaining([expect.stringContaining(`${wal}/`)]));
    expect(await fsyncsDuring(() => client.query('SELECT count(*) FROM kept'))).toEqual([]);
  });

  it('a checkpoint syncs the data files, so the log that covered them can be recycled', async () => {
    const synced = await fsyncsDuring(() => client.query('CHECKPOINT'));
    expect(synced.some((p) => p.includes(`${path.sep}base${path.sep}`))).toBe(true);
  });
});

describe('the files a fresh embedded database starts from are synced before use', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hc-durable-files-')));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a fresh DATA_DIR copied from the template: every file synced, then the rename', async () => {
    const template = usableTemplate();
    expect(template, 'the install builds the template (npm ci)').not.toBeNull();
    const pgdata = path.join(tempDir(), 'pgdata');
    const synced = await fsyncsDuring(async () => expect(startFromTemplate(pgdata)).toBe(true));
    const files = await filesUnder(pgdata);
    const syncedNames = new Set(synced.map((p) => p.replace(`${pgdata}.partial`, pgdata)));
    expect(files.filter((f) => !syncedNames.has(f))).toEqual([]);
    // The directory holding pgdata, after the rename.
    expect(synced.at(-1)).toBe(path.dirname(pgdata));
  });
});

describe('a database PGlite makes itself (no template)', () => {
  it('is synced, every file, before it is used', async () => {
    const dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hc-durable-initdb-')));
    try {
      let embedded: EmbeddedDatabase | null = null;
      const synced = new Set(await fsyncsDuring(async () => (embedded = await startEmbedded(dataDir))));
      const { pgdata } = embeddedPaths(dataDir);
      await embedded!.stop();
      const files = await filesUnder(pgdata);
      // postmaster.pid and the like come and go with the running server; the database's files stay.
      const kept = files.filter((f) => f.includes(`${path.sep}base${path.sep}`) || f.endsWith('PG_VERSION') || f.includes(`${path.sep}global${path.sep}`));
      expect(kept.length).toBeGreaterThan(100);
      expect(kept.filter((f) => !synced.has(f))).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
