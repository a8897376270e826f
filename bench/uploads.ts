import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { loadConfig, type UploadStorage } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createContainer } from '../src/container.ts';
import { buildApp } from '../src/app.ts';
import { createTempDatabase } from './lib/temp-database.ts';

/**
 * `node --import tsx bench/uploads.ts`: the file storage drivers (docs/uploads.md "Storage")
 * measured through HTTP on each database. For each database (embedded PGlite; PostgreSQL when
 * BENCH_DATABASE_URL is set) × driver (postgres, filesystem), the real app listens on 127.0.0.1
 * on a throwaway database, and this process, over keep-alive connections:
 *
 * 1. uploads N distinct ~300 KB JPEGs (POST /v1/uploads, then the PUT: check, re-encode, store);
 * 2. reads each back from its publicUrl (GET /v1/files/…: a row and the bytes from storage);
 * 3. times the driver alone, in process: N puts and N gets of 300 KB.
 *
 * Each phase runs with BENCH_UPLOAD_CONCURRENCY callers (default 4). Prints one table (uploads/s,
 * MB/s, p50 and p95 per phase). Settings: BENCH_UPLOADS (default 200), BENCH_DATABASE_URL.
 */
const N = Number(process.env.BENCH_UPLOADS ?? 200);
const CONCURRENCY = Number(process.env.BENCH_UPLOAD_CONCURRENCY ?? 4);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? null;
const DRIVERS: UploadStorage[] = ['postgres', 'filesystem'];
const log = (line: string) => process.stderr.write(`${line}\n`);

interface Phase {
  count: number;
  bytes: number;
  seconds: number;
  latencies: number[];
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Runs `work(i)` for i in 0..count-1 with `concurrency` callers; each call's time is one latency. */
async function measure(count: number, work: (i: number) => Promise<number>): Promise<Phase> {
  const latencies: number[] = [];
  let next = 0;
  let bytes = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    for (let i = next++; i < count; i = next++) {
      const t0 = performance.now();
      const done = await work(i);
      bytes += done;
      latencies.push(performance.now() - t0);
    }
  }));
  return { count, bytes, seconds: (performance.now() - started) / 1000, latencies: latencies.sort((a, b) => a - b) };
}

/** N distinct JPEGs of about 300 KB (noise compresses poorly, as photos do). */
async function images(): Promise<Buffer[]> {
  const width = 740;
  const height = 540;
  const out: Buffer[] = [];
  for (let n = 0; n < N; n++) {
    const raw = Buffer.alloc(width * height * 3);
    let state = 1 + n;
    for (let i = 0; i < raw.length; i++) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      raw[i] = ((i / 3) % width) + (state & 0xff);
    }
    out.push(await sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 92 }).toBuffer());
  }
  return out;
}

async function run(kind: 'embedded' | 'postgresql', driver: UploadStorage, files: Buffer[]): Promise<Record<string, Phase>> {
  const temp = await createTempDatabase(kind === 'postgresql' ? ADMIN_URL : null);
  const config = loadConfig({
    NODE_ENV: 'test', LOG_LEVEL: 'silent', SIM_HEADS: '0', DATA_DIR: temp.dataDir, ...(temp.databaseUrl ? { DATABASE_URL: temp.databaseUrl } : {}),
    UPLOAD_STORAGE: driver, RATE_LIMIT_PER_KEY: '1000000', RATE_LIMIT_PER_IP: '1000000',
  });
  const database = await openDatabase(config);
  try {
    await migrateToLatest(database.db);
    const container = createContainer(config, database);
    const app = await buildApp(container, { logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const account = await container.accounts.createAccount({ name: 'bench' });
      const { secret } = await container.accounts.createKey({ accountId: account.id, scopes: ['questions:write'], dailyCapCredits: null, name: 'bench' });
      const auth = { authorization: `Bearer ${secret}` };
      const publicUrls: string[] = [];

      const put = await measure(files.length, async (i) => {
        const made = await fetch(`${base}/v1/uploads`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'image', contentType: 'image/jpeg', bytes: files[i].length }) });
        if (made.status !== 201) throw new Error(`POST /v1/uploads → ${made.status} ${await made.text()}`);
        const ticket = (await made.json()) as { uploadUrl: string; publicUrl: string; headers: Record<string, string> };
        const sent = await fetch(base + new URL(ticket.uploadUrl).pathname, { method: 'PUT', headers: ticket.headers, body: new Uint8Array(files[i]) });
        if (sent.status !== 200) throw new Error(`PUT → ${sent.status} ${await sent.text()}`);
        await sent.arrayBuffer();
        publicUrls[i] = new URL(ticket.publicUrl).pathname;
        return files[i].length;
      });
      const get = await measure(files.length, async (i) => {
        const response = await fetch(base + publicUrls[i]);
        if (response.status !== 200) throw new Error(`GET → ${response.status}`);
        return (await response.arrayBuffer()).byteLength;
      });
      // The driver alone, without HTTP or the image check: the same sizes, new keys.
      const storage = config.uploads.storage === 'filesystem'
        ? (await import('../src/modules/uploads/file-storage.ts')).createFilesystemStorage(config.uploads.dir)
        : (await import('../src/modules/uploads/upload-blobs.repository.ts')).createPostgresStorage(database.db);
      const keyOf = (i: number) => `bench_${String(i).padStart(6, '0')}`;
      const storePut = await measure(files.length, async (i) => {
        await storage.put(keyOf(i), files[i]);
        return files[i].length;
      });
      const storeGet = await measure(files.length, async (i) => (await storage.get(keyOf(i)))!.length);
      return { 'PUT upload (HTTP)': put, 'GET file (HTTP)': get, 'driver put': storePut, 'driver get': storeGet };
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    await temp.dispose();
  }
}

const files = await images();
const average = files.reduce((sum, f) => sum + f.length, 0) / files.length;
log(`bench/uploads: ${N} JPEGs of ${Math.round(average / 1024)} KB on average, ${CONCURRENCY} callers`);
const rows: string[] = ['| database | driver | phase | per s | MB/s | p50 ms | p95 ms |', '|---|---|---|---|---|---|---|'];
for (const kind of ADMIN_URL ? (['embedded', 'postgresql'] as const) : (['embedded'] as const)) {
  for (const driver of DRIVERS) {
    log(`${kind} × ${driver}…`);
    const phases = await run(kind, driver, files);
    for (const [name, phase] of Object.entries(phases)) {
      rows.push(`| ${kind} | ${driver} | ${name} | ${(phase.count / phase.seconds).toFixed(1)} | ${(phase.bytes / phase.seconds / 1024 ** 2).toFixed(1)} | ${percentile(phase.latencies, 50).toFixed(1)} | ${percentile(phase.latencies, 95).toFixed(1)} |`);
    }
  }
}
process.stdout.write(`${rows.join('\n')}\n`);
