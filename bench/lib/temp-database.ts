import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A database that exists for one benchmark run only. The orchestrator (not the server child) owns
 * it, so it is removed even when the child crashes:
 * - embedded (default): a fresh DATA_DIR under the OS temp directory, deleted afterwards;
 * - PostgreSQL (BENCH_DATABASE_URL): `CREATE DATABASE hc_bench_<random>` through that URL,
 *   dropped afterwards. The URL needs a role that may create databases; nothing else is touched.
 */
export interface TempDatabase {
  kind: 'embedded' | 'postgresql';
  dataDir: string;
  databaseUrl: string | null;
  dispose(): Promise<void>;
}

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000, application_name: 'headcount-bench' });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function createTempDatabase(adminUrl: string | null): Promise<TempDatabase> {
  // Set on a server too, so nothing is ever written to ./data.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-bench-'));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (!adminUrl) return { kind: 'embedded', dataDir, databaseUrl: null, dispose: async () => removeDir() };

  // Generated here, so it is safe to interpolate: [a-z0-9_] only.
  const name = `hc_bench_${randomBytes(5).toString('hex')}`;
  try {
    await adminQuery(adminUrl, `CREATE DATABASE "${name}"`);
  } catch (error) {
    removeDir();
    throw new Error(`Could not create a benchmark database through BENCH_DATABASE_URL: ${(error as Error).message}`);
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    kind: 'postgresql',
    dataDir,
    databaseUrl: url.toString(),
    async dispose() {
      removeDir();
      // WITH (FORCE) (PostgreSQL 13+) ends any connection a crashed child left behind.
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
