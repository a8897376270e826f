import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, isServerRun, type TestDatabase } from '../helpers/test-database.ts';
import { adminCommands } from '../../src/cli/admin-commands.ts';
import { ADMIN_CLI, MAIN, REPO_ROOT } from '../helpers/service-process.ts';

/**
 * The admin CLI and the service as real processes (README "Admin CLI", "The database";
 * ARCHITECTURE §1): one JSON object per command on stdout, the CLI joining a running service's
 * embedded database through its socket, one owner per DATA_DIR, SIGTERM, and data surviving a
 * restart. On the embedded default the database is a copy of the migrated template DATA_DIR
 * (creating a new one takes ~5 s); with TEST_DATABASE_URL it is a fresh PostgreSQL database.
 * Every process started here is killed in afterAll, whatever happened.
 */
const PROCESS_TIMEOUT_MS = 90_000;
const SLOW = 180_000;

/** Settings from the real environment that must not leak into the processes under test. */
const SCRUBBED = [
  'DATABASE_URL', 'REDIS_URL', 'DATA_DIR', 'PORT', 'HOST', 'PUBLIC_BASE_URL', 'ROLE', 'LOG_LEVEL', 'SIM_HEADS',
  'RATE_LIMIT_PER_KEY', 'RATE_LIMIT_PER_IP', 'DATABASE_POOL_SIZE', 'BODY_LIMIT_BYTES', 'SHUTDOWN_GRACE_SECONDS', 'NODE_ENV',
];

let target: TestDatabase;
const running = new Set<ChildProcessWithoutNullStreams>();

beforeAll(async () => {
  target = await createTestDatabase();
});
afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await Promise.all([...running].map((child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)))));
  await target?.dispose();
}, 60_000);

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SCRUBBED) delete out[name];
  return { ...out, ...target.env, NODE_ENV: 'test', SIM_HEADS: '0', ...extra };
}

/** Starts a built program (dist/: the admin CLI or the service, as users run them). */
function start(script: string, args: string[], extraEnv: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [script, ...args], { cwd: REPO_ROOT, env: env(extraEnv), stdio: 'pipe' });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  json: Record<string, any>;
}

/** Runs the admin CLI and collects what it printed. */
async function runAdmin(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = start(ADMIN_CLI, args);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), PROCESS_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** Runs one admin command; checks that stdout is exactly one JSON object on one line. */
async function admin(...args: string[]): Promise<CliResult> {
  const { code, stdout, stderr } = await runAdmin(args);
  const where = `admin ${args.join(' ')} (exit ${code})\nstdout: ${stdout}\nstderr: ${stderr}`;
  expect(stdout.endsWith('\n'), where).toBe(true);
  expect(stdout.slice(0, -1).includes('\n'), `more than one line on stdout: ${where}`).toBe(false);
  let json: unknown;
  expect(() => (json = JSON.parse(stdout)), where).not.toThrow();
  expect(json !== null && typeof json === 'object' && !Array.isArray(json), where).toBe(true);
  return { code, stdout, stderr, json: json as Record<string, any> };
}

async function adminOk(...args: string[]): Promise<Record<string, any>> {
  const result = await admin(...args);
  expect(result.code, `${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(0);
  expect(result.json.error).toBeUndefined();
  return result.json;
}

async function adminFails(args: string[], code: string): Promise<CliResult> {
  const result = await admin(...args);
  expect(result.code, `${args.join(' ')}: ${result.stdout}`).not.toBe(0);
  expect(result.code).not.toBeNull();
  expect(Object.keys(result.json)).toEqual(['error']);
  expect(result.json.error.code).toBe(code);
  expect(typeof result.json.error.message).toBe('string');
  return result;
}

interface Service {
  url: string;
  child: ChildProcessWithoutNullStreams;
  output(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `src/main.ts` on a free port and resolves once it says it is ready. */
async function startService(): Promise<Service> {
  const child = start(MAIN, [], { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let listening: string | null = null;
    const timer = setTimeout(() => reject(new Error(`the service did not start in time:\n${output}`)), PROCESS_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      listening ??= /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1] ?? null;
      if (listening && /Headcount is ready/.test(output)) {
        clearTimeout(timer);
        resolve(listening);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (${code}) before it was ready:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

async function balance(service: Service, secret: string): Promise<{ status: number; body: Record<string, any> }> {
  const response = await fetch(`${service.url}/v1/billing/balance`, { headers: { authorization: `Bearer ${secret}` } });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('the admin CLI and the service as processes', () => {
  const state: { accountId?: string; secret?: string } = {};

  it('account:create → key:create → key:list, one JSON object each, the secret shown only once', async () => {
    const { account } = await adminOk('account:create', '--name', 'Ada Labs', '--currency', 'EUR');
    expect(account).toMatchObject({ name: 'Ada Labs', kind: 'person', currency: 'EUR', language: 'en' });
    expect(account.id).toMatch(/^acc_/);
    state.accountId = account.id;

    const created = await adminOk('key:create', '--account', account.id, '--scopes', 'account:read,questions:read', '--cap', '2500', '--name', 'CI key');
    expect(created.secret).toMatch(/^hc_live_[0-9A-Za-z]{49}$/);
    expect(created.key).toMatchObject({ accountId: account.id, name: 'CI key', mode: 'live', scopes: ['account:read', 'questions:read'], dailyCapCredits: 2500, revokedAt: null });
    expect(created.key.id).toMatch(/^key_/);
    expect(JSON.stringify(created.key)).not.toContain(created.secret.slice(14, -4));
    state.secret = created.secret;

    const listed = await admin('key:list', '--account', account.id);
    expect(listed.code).toBe(0);
    expect(listed.json.keys).toEqual([expect.objectContaining({ id: created.key.id, prefix: created.key.prefix, revokedAt: null })]);
    // No secret anywhere in the output: not whole, not its random part.
    expect(listed.stdout).not.toContain(created.secret);
    expect(listed.stdout).not.toContain(created.secret.slice(14, -4));
  }, SLOW);

  it('an unknown command or option prints one JSON error and exits non-zero', async () => {
    const [unknown, badOption] = await Promise.all([
      adminFails(['account:destroy', '--name', 'x'], 'unknown_command'),
      adminFails(['account:create', '--name', 'x', '--colour', 'red'], 'validation_failed'),
    ]);
    expect(unknown.json.error.message).toContain('account:destroy');
    expect(unknown.json.error.details.usage).toContain('key:create');
    expect(badOption.json.error.message).toContain('--colour');
  }, SLOW);

  describe('help is plain text; mistakes stay one JSON error', () => {
    /** Help: exit 0, plain text on stdout (not JSON), nothing on stderr. */
    async function help(...args: string[]): Promise<string> {
      const { code, stdout, stderr } = await runAdmin(args);
      expect(code, `admin ${args.join(' ')}\nstdout: ${stdout}\nstderr: ${stderr}`).toBe(0);
      expect(stderr).toBe('');
      expect(() => JSON.parse(stdout)).toThrow();
      return stdout;
    }

    it('--help lists every command with its options and a one-line description', async () => {
      const [text, bare] = await Promise.all([help('--help'), help('help')]);
      expect(bare).toBe(text);
      expect(text).toMatch(/^Usage: npm run --silent admin -- <command> \[options\]\n/);
      for (const [name, command] of Object.entries(adminCommands)) {
        const line = text.split('\n').findIndex((l) => l.trim().startsWith(`${name} `) || l.trim() === name);
        expect(line, `${name} in\n${text}`).toBeGreaterThan(-1);
        // The command, its options, then its description (no line wider than a terminal).
        expect(text).toContain(`${name} ${command.usage}`.trim());
        expect(text.replace(/\s+/g, ' ')).toContain(command.summary);
      }
      expect(text).toContain('help [command]');
      for (const l of text.split('\n')) expect(l.length, l).toBeLessThanOrEqual(100);
    }, SLOW);

    it('help COMMAND and COMMAND --help print that command\'s usage and every option, described', async () => {
      const [viaHelp, viaFlag] = await Promise.all([help('help', 'credits:grant'), help('credits:grant', '--help')]);
      expect(viaFlag).toBe(viaHelp);
      const text = viaHelp;
      expect(text).toMatch(/^Usage: npm run --silent admin -- credits:grant --account ID --amount N --reason TEXT/);
      expect(text.replace(/\s+/g, ' ')).toContain(adminCommands['credits:grant'].summary);
      for (const name of Object.keys(adminCommands['credits:grant'].options)) {
        const line = text.split('\n').find((l) => l.trim().startsWith(`--${name} `));
        expect(line, `--${name} in\n${text}`).toBeDefined();
        // Each option has a description after its name.
        expect(line!.trim().replace(/^--\S+( \S+)?\s+/, '').length, line).toBeGreaterThan(10);
      }
      // Every command has its own help.
      const all = await Promise.all(Object.keys(adminCommands).map((name) => help(name, '--help')));
      all.forEach((out, i) => expect(out).toContain(`Usage: npm run --silent admin -- ${Object.keys(adminCommands)[i]}`));
    }, SLOW);

    it('no command, help for an unknown command, a missing value and a stray argument are JSON errors', async () => {
      const [none, unknownHelp, missingValue, stray, typo] = await Promise.all([
        adminFails([], 'unknown_command'),
        adminFails(['help', 'account:destroy'], 'unknown_command'),
        adminFails(['account:create', '--name'], 'validation_failed'),
        adminFails(['key:list', 'acc_1'], 'validation_failed'),
        adminFails(['acount:create'], 'unknown_command'),
      ]);
      expect(none.json.error.details.usage).toContain('account:create');
      expect(unknownHelp.json.error.message).toContain('account:destroy');
      expect(missingValue.json.error.message).toContain('--name');
      expect(missingValue.json.error.details.usage).toContain('account:create --name NAME');
      expect(stray.json.error.message).toContain('acc_1');
      // A near miss names the command meant.
      expect(typo.json.error.message).toContain('account:create');
      for (const r of [none, unknownHelp, missingValue, stray, typo]) expect(r.code).toBe(2);
    }, SLOW);
  });

  describe('while the service runs', () => {
    let service: Service;
    beforeAll(async () => {
      service = await startService();
    }, SLOW);
    afterAll(async () => {
      if (service && service.child.exitCode === null) await service.stop();
    }, 60_000);

    it('a key made by the CLI before the start authenticates over HTTP', async () => {
      const { status, body } = await balance(service, state.secret!);
      expect(status).toBe(200);
      expect(body).toEqual({ credits: 0, reserved: 0, expiring: [], currency: 'EUR', capRemaining: 2500, freeQuestionToday: true, account: { id: state.accountId, name: 'Ada Labs', kind: 'person' } });
    });

    it('credits:grant through the running service adds a bonus, and "--amount -100" takes credits away', async () => {
      const added = await adminOk('credits:grant', '--account', state.accountId!, '--amount', '500', '--reason', 'Welcome credits');
      expect(added.entry).toMatchObject({ kind: 'bonus', amount: 500, title: 'Bonus: Welcome credits' });
      expect(added.balance).toEqual({ available: 500, reserved: 0 });

      const removed = await adminOk('credits:grant', '--account', state.accountId!, '--amount', '-100', '--reason', 'Correction');
      expect(removed.entry).toMatchObject({ kind: 'adjustment', amount: -100 });
      expect(removed.balance).toEqual({ available: 400, reserved: 0 });

      const { status, body } = await balance(service, state.secret!);
      expect(status).toBe(200);
      expect(body.credits).toBe(400);
    }, SLOW);

    it('the CLI joins the running service: what it creates is live at once, a revoked key fails on its next request', async () => {
      const { account } = await adminOk('account:create', '--name', 'Made while running', '--kind', 'team');
      const { key, secret } = await adminOk('key:create', '--account', account.id, '--scopes', 'account:read');

      const before = await balance(service, secret);
      expect(before.status).toBe(200);
      expect(before.body).toMatchObject({ credits: 0, capRemaining: null, currency: 'GBP' });

      const revoked = await adminOk('key:revoke', '--key', key.id);
      expect(revoked.key).toMatchObject({ id: key.id, revokedAt: expect.any(String) });
      const after = await balance(service, secret);
      expect(after.status).toBe(401);
      expect(after.body.error.code).toBe('unauthorized');

      // The service keeps serving after the CLI's connections close.
      expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
    }, SLOW);

    it('an operator runs a private audience with the CLI: a draft nobody sees, opened and sponsored, seen only by its team', async () => {
      const grades = JSON.stringify([{ name: 'Tester', proves: 'Signed up to test the beta.', payPence: 20 }, { name: 'Power tester', proves: 'Filed five bug reports.', payPence: 40 }]);
      const created = await adminOk('audience:create', '--slug', 'cli-testers', '--name', 'CLI testers', '--description', 'People testing the CLI.', '--category', 'tech', '--grades', grades, '--tags', 'tech_early_adopter', '--countries', 'gb,us', '--private');
      expect(created.audience).toMatchObject({ slug: 'cli-testers', status: 'draft', sizeBand: 'under_50', countries: ['GB', 'US'], grades: [{ grade: 1, payPence: 20, creditsPerAnswer: 30 }, { grade: 2, payPence: 40, creditsPerAnswer: 60 }] });
      expect((await fetch(`${service.url}/v1/interest-audiences/cli-testers`)).status).toBe(404);

      const { account } = await adminOk('account:create', '--name', 'Sponsor', '--kind', 'team');
      const { secret } = await adminOk('key:create', '--account', account.id, '--scopes', 'questions:read');
      await adminOk('audience:open', '--audience', 'cli-testers');
      const sponsored = await adminOk('audience:sponsor', '--audience', 'cli-testers', '--account', account.id);
      expect(sponsored.sponsors).toEqual([account.id]);
      const seen = await fetch(`${service.url}/v1/interest-audiences/cli-testers`, { headers: { authorization: `Bearer ${secret}` } });
      expect(seen.status).toBe(200);
      expect((await seen.json()).audience).toMatchObject({ status: 'open', sponsored: true });
      expect((await fetch(`${service.url}/v1/interest-audiences/cli-testers`)).status).toBe(404);

      const [badGrades, unknownHead, both] = await Promise.all([
        adminFails(['audience:create', '--slug', 'x', '--name', 'X', '--description', 'X', '--category', 'knitting', '--grades', 'not json'], 'validation_failed'),
        adminFails(['audience:grade', '--audience', 'cli-testers', '--head', 'hd_nobody', '--grade', '1'], 'not_found'),
        adminFails(['audience:grade', '--audience', 'cli-testers', '--head', 'hd_nobody', '--grade', '1', '--remove'], 'validation_failed'),
      ]);
      expect(badGrades.json.error.message).toContain('--grades');
      expect(unknownHead.json.error.message).toContain('hd_nobody');
      expect(both.json.error.message).toContain('--remove');

      await adminOk('audience:close', '--audience', 'cli-testers');
      const { audiences } = await adminOk('audience:list');
      expect(audiences.find((a: Record<string, any>) => a.slug === 'cli-testers')).toMatchObject({ status: 'closed', private: true, sponsors: [account.id] });
    }, SLOW);

    it('CLI errors about data: a missing --name, an unknown account', async () => {
      const [noName, noAccount] = await Promise.all([
        adminFails(['account:create'], 'validation_failed'),
        adminFails(['key:create', '--account', 'acc_doesNotExist', '--scopes', 'account:read'], 'not_found'),
      ]);
      expect(noName.json.error.message).toContain('--name');
      expect(noAccount.json.error.message).toMatch(/account/i);
    }, SLOW);

    it.skipIf(isServerRun())('a second service on the same DATA_DIR exits non-zero naming the DATA_DIR', async () => {
      const second = start(MAIN, [], { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' });
      let output = '';
      second.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      second.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const timer = setTimeout(() => second.kill('SIGKILL'), PROCESS_TIMEOUT_MS);
      const code = await new Promise<number | null>((resolve) => second.once('exit', (c) => resolve(c)));
      clearTimeout(timer);
      expect(code, output).not.toBe(0);
      expect(code, output).not.toBeNull();
      expect(output).toContain(target.settings.dataDir);
      expect(output).toContain(`pid ${service.child.pid}`);
      // The first one is unharmed.
      expect((await balance(service, state.secret!)).status).toBe(200);
    }, SLOW);

    it('SIGTERM stops it with exit code 0', async () => {
      expect(await service.stop()).toBe(0);
      await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();
    }, 60_000);
  });

  it('after a restart the data is still there', async () => {
    const service = await startService();
    try {
      const { status, body } = await balance(service, state.secret!);
      expect(status).toBe(200);
      expect(body.credits).toBe(400);
      // The ledger written by the CLI is served too.
      const ledger = await fetch(`${service.url}/v1/billing/ledger`, { headers: { authorization: `Bearer ${state.secret}` } });
      expect(ledger.status).toBe(200);
      const { rows } = (await ledger.json()) as { rows: Array<{ kind: string; amount: number }> };
      expect(rows.map((r) => [r.kind, r.amount])).toEqual([
        ['adjustment', -100],
        ['bonus', 500],
      ]);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, SLOW);
});
