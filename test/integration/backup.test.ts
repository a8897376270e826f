import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_CLI, REPO_ROOT, ServiceProcess, freePort, serviceEnv } from '../helpers/service-process.ts';
import { createEmptyDatabase, createTestDatabase, isServerRun } from '../helpers/test-database.ts';
import { png } from '../helpers/media.ts';
import { choiceDraft } from '../helpers/questions.ts';
import { balanceRow } from '../helpers/money.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { createContainer } from '../../src/container.ts';

/**
 * Backups (issue 16 point 4, docs/operations.md "Backups"), as an operator runs them: the admin
 * CLI's `backup` while the real service runs under load, the service stopped, `restore` into a new
 * DATA_DIR (last night's backup on a new machine), the service started on it: what was
 * acknowledged before the backup began is there, the uploaded file too, and the ledger
 * reconciles. Then what restore refuses, and on PostgreSQL the pg_dump / pg_restore round trip
 * the docs give. The embedded part runs on every run (it makes its own DATA_DIRs).
 */
/** The built admin CLI, as `npm run admin` runs it. */
const ADMIN = ADMIN_CLI;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-backup-'));
const services: ServiceProcess[] = [];

// A test that fails midway leaves its service running; the next ones need the DATA_DIR stopped,
// so each test's services are gone before the next starts (one failure, not three).
afterEach(async () => {
  for (const service of services) await service.kill();
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

interface AdminResult {
  code: number | null;
  json: Record<string, any>;
  stderr: string;
}

async function admin(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<AdminResult> {
  const child = spawn(process.execPath, [ADMIN, ...args], {
    cwd: REPO_ROOT,
    env: serviceEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'development', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  let json: Record<string, any>;
  try {
    json = JSON.parse(stdout);
  } catch {
    throw new Error(`admin ${args.join(' ')} printed no JSON (exit ${code}):\n${stdout}\n${stderr}`);
  }
  return { code, json, stderr };
}

async function adminOk(dataDir: string, args: string[]): Promise<Record<string, any>> {
  const result = await admin(dataDir, args);
  expect(result.code, `admin ${args.join(' ')}: ${JSON.stringify(result.json)}\n${result.stderr}`).toBe(0);
  return result.json;
}

async function startService(dataDir: string): Promise<ServiceProcess> {
  const port = await freePort();
  const service = new ServiceProcess(
    serviceEnv({
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // A small simulated panel answering fast: ledger rows move while the backup is taken.
      SIM_HEADS: '200',
      SIM_ANSWERS_PER_MINUTE: '3000',
      RATE_LIMIT_PER_KEY: '1000000',
      RATE_LIMIT_PER_IP: '1000000',
    }),
  );
  services.push(service);
  await service.ready();
  return service;
}

async function stopService(service: ServiceProcess): Promise<void> {
  service.child.kill('SIGTERM');
  const exit = await service.waitForExit(20_000);
  expect(exit.code, service.tail()).toBe(0);
}

/** Everything under `dir`, as relative paths with sizes: what "unchanged" means for a DATA_DIR. */
function listing(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return `${path.relative(dir, file)} ${fs.statSync(file).size}`;
    })
    .sort();
}

describe('embedded backups with the admin CLI', () => {
  const dirA = path.join(root, 'a');
  const dirB = path.join(root, 'b');
  const file = path.join(root, 'nightly.tar.gz');
  let key = '';
  let fileUrl = '';
  let fileBytes: Buffer;
  const acknowledged: Array<{ id: string; at: number }> = [];
  let backupStarted = 0;

  it('backs up while the service runs and asks keep arriving; restores into a new DATA_DIR that reconciles and has it all', async () => {
    const a = await startService(dirA);
    const account = (await adminOk(dirA, ['account:create', '--name', 'Backup Co'])).account;
    key = (await adminOk(dirA, ['key:create', '--account', account.id, '--scopes', 'questions:read,questions:write,account:read'])).secret;
    await adminOk(dirA, ['credits:grant', '--account', account.id, '--amount', '200000', '--reason', 'Backup test']);
    const auth = { authorization: `Bearer ${key}` };

    // An uploaded image: it lives in DATA_DIR/uploads, beside the database.
    fileBytes = await png(40, 20);
    const ticket = await fetch(`${a.base}/v1/uploads`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'image', contentType: 'image/png', bytes: fileBytes.length }),
    }).then((r) => r.json() as Promise<Record<string, any>>);
    const put = await fetch(ticket.uploadUrl, { method: 'PUT', headers: ticket.headers, body: new Uint8Array(fileBytes) });
    expect(put.status).toBe(200);
    fileUrl = new URL(ticket.publicUrl).pathname;
    fileBytes = Buffer.from(await (await fetch(`${a.base}${fileUrl}`)).arrayBuffer());

    // Asks one after another until told to stop; each acknowledged one noted with when it was.
    let loading = true;
    let loadFailed: Error | null = null;
    const load = (async () => {
      for (let i = 0; loading && !loadFailed; i++) {
        const response = await fetch(`${a.base}/v2/questions`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': `backup-load-${i}` },
          body: JSON.stringify({ draft: choiceDraft({ n: 10, text: `Backup load question ${i}?` }) }),
        });
        if (response.status !== 201) {
          loadFailed = new Error(`ask ${i} answered ${response.status}: ${await response.text()}`);
          break;
        }
        acknowledged.push({ id: ((await response.json()) as { question: { id: string } }).question.id, at: Date.now() });
      }
    })();
    const until = async (done: () => boolean) => {
      while (!done()) {
        if (loadFailed) throw loadFailed;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    await until(() => acknowledged.length >= 5);

    backupStarted = Date.now();
    const { backup } = await adminOk(dirA, ['backup', '--to', file]);
    const backupEnded = Date.now();
    await until(() => acknowledged.filter((q) => q.at > backupEnded).length >= 3);
    loading = false;
    await load;
    expect(backup).toMatchObject({ file, whileRunning: true, format: 'headcount-embedded-backup/1', uploads: 1 });
    expect(backup.bytes).toBe(fs.statSync(file).size);
    expect(backup.migrations.length).toBeGreaterThan(10);
    // Nothing of the backup's making is left behind in DATA_DIR or beside the file.
    expect(fs.readdirSync(dirA).filter((name) => name.startsWith('.backup-') || name.startsWith('.headcount-backup-'))).toEqual([]);
    expect(fs.readdirSync(root).filter((name) => name.endsWith('.partial'))).toEqual([]);
    await stopService(a);

    // A new machine: an empty DATA_DIR, last night's file.
    const { restored } = await adminOk(dirB, ['restore', '--from', file]);
    expect(restored).toMatchObject({ dataDir: dirB, movedAside: null, uploads: 1 });
    const b = await startService(dirB);
    // `<=`: the fifth ask may be acknowledged in the very millisecond the backup is started.
    const before = acknowledged.filter((q) => q.at <= backupStarted);
    expect(before.length).toBeGreaterThanOrEqual(5);
    for (const { id } of before) {
      const response = await fetch(`${b.base}/v2/questions/${id}`, { headers: auth });
      expect(response.status, `question ${id}, acknowledged before the backup began`).toBe(200);
    }
    const served = await fetch(`${b.base}${fileUrl}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(fileBytes)).toBe(true);
    expect(await adminOk(dirB, ['credits:reconcile'])).toEqual({ ok: true, problems: [] });
    // The restored service takes new work with the old key.
    const again = await fetch(`${b.base}/v2/questions`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'after-restore' },
      body: JSON.stringify({ draft: choiceDraft({ n: 10 }) }),
    });
    expect(again.status).toBe(201);

    // A restore while the service has the DATA_DIR open is refused and changes nothing.
    const refused = await admin(dirB, ['restore', '--from', file]);
    expect(refused.code).toBe(1);
    expect(refused.json.error.code).toBe('conflict');
    expect(refused.json.error.message).toMatch(/stop the service/);
    expect((await fetch(`${b.base}/readyz`)).status).toBe(200);
    await stopService(b);
  }, 180_000);

  it('refuses a file that is not a backup and leaves DATA_DIR as it was', async () => {
    const junk = path.join(root, 'junk.tar.gz');
    fs.writeFileSync(junk, 'this is not a backup');
    const was = listing(dirB);
    const result = await admin(dirB, ['restore', '--from', junk]);
    expect(result.code).toBe(1);
    expect(result.json.error).toMatchObject({ code: 'validation_failed', details: { validation: [{ field: 'from', code: 'invalid_format' }] } });
    expect(listing(dirB)).toEqual(was);
    const missing = await admin(dirB, ['restore', '--from', path.join(root, 'nowhere.tar.gz')]);
    expect(missing.json.error.code).toBe('validation_failed');
    expect(listing(dirB)).toEqual(was);
  }, 60_000);

  it('backs up a stopped DATA_DIR, will not overwrite a file without --force, and a restore over data moves the old aside', async () => {
    const exists = await admin(dirB, ['backup', '--to', file]);
    expect(exists.code).toBe(1);
    expect(exists.json.error.details.validation[0]).toMatchObject({ field: 'to', code: 'not_allowed' });
    const { backup } = await adminOk(dirB, ['backup', '--to', file, '--force']);
    expect(backup).toMatchObject({ whileRunning: false, uploads: 1 });
    // A folder that does not exist yet is made.
    const nested = path.join(root, 'new', 'folder', 'first.tar.gz');
    expect((await adminOk(dirB, ['backup', '--to', nested])).backup.bytes).toBe(fs.statSync(nested).size);

    const { restored } = await adminOk(dirB, ['restore', '--from', file]);
    expect(restored.movedAside).toMatch(/before-restore-\d{8}T\d{6}Z$/);
    expect(fs.existsSync(path.join(restored.movedAside, 'pgdata', 'PG_VERSION'))).toBe(true);
    expect(fs.readdirSync(path.join(restored.movedAside, 'uploads')).length).toBeGreaterThan(0);
    expect(await adminOk(dirB, ['credits:reconcile'])).toEqual({ ok: true, problems: [] });
  }, 120_000);

  it('on PostgreSQL (DATABASE_URL) backup and restore say to use pg_dump', async () => {
    const result = await admin(dirB, ['backup', '--to', path.join(root, 'pg.tar.gz')], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(result.code).toBe(1);
    expect(result.json.error.code).toBe('conflict');
    expect(result.json.error.message).toMatch(/pg_dump/);
  }, 30_000);
});

/** pg_dump and pg_restore of the PostgreSQL client matching the server (Debian's wrappers pick it). */
function tool(name: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

describe.skipIf(!isServerRun())('PostgreSQL: the pg_dump / pg_restore round trip of docs/operations.md', () => {
  it('a custom-format dump restored into an empty database reconciles and holds the same money', async () => {
    const pgDump = tool('pg_dump');
    const pgRestore = tool('pg_restore');
    expect(pgDump && pgRestore, 'pg_dump and pg_restore (postgresql-client) are needed for this test').toBeTruthy();
    const source = await createTestDatabase();
    const target = await createEmptyDatabase();
    const config = loadConfig({ NODE_ENV: 'test', SIM_HEADS: '0', LOG_LEVEL: 'silent', ...source.env });
    const database = await openDatabase(config);
    const container = createContainer(config, database);
    try {
      const account = await container.accounts.createAccount({ name: 'Dumped Co' });
      await container.credits.grant({ accountId: account.id, amount: 12_345, reason: 'Before the dump' });
      const dump = path.join(root, 'headcount.dump');
      // As docs/operations.md gives it.
      const dumped = spawnSync(pgDump!, ['--format=custom', '--file', dump, source.settings.databaseUrl!], { encoding: 'utf8' });
      expect(dumped.status, dumped.stderr).toBe(0);
      const restored = spawnSync(pgRestore!, ['--no-owner', '--exit-on-error', '--dbname', target.settings.databaseUrl!, dump], { encoding: 'utf8' });
      expect(restored.status, restored.stderr).toBe(0);

      const config2 = loadConfig({ NODE_ENV: 'test', SIM_HEADS: '0', LOG_LEVEL: 'silent', ...target.env });
      const database2 = await openDatabase(config2);
      try {
        const container2 = createContainer(config2, database2);
        expect(await container2.credits.reconcile()).toEqual([]);
        expect(await balanceRow(database2.db, account.id)).toMatchObject({ available: 12_345, reserved: 0 });
      } finally {
        await database2.close();
      }
    } finally {
      await database.close();
      await source.dispose();
      await target.dispose();
    }
  }, 120_000);
});
