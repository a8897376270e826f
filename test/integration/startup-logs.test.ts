import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.ts';
import { freePort, MAIN, ServiceProcess, serviceEnv } from '../helpers/service-process.ts';

/**
 * Readable start-up in a terminal (issue 8, point 21): `npm start` in development on a terminal
 * prints human-readable lines (pino-pretty), and anywhere else (no terminal: a pipe, a file, a
 * log collector; or NODE_ENV test or production) one JSON object a line. Either way start-up
 * ends with a line naming the URL, /docs and the admin CLI's command.
 *
 * The terminal is a real pseudo-terminal: the service runs under `script` (util-linux), which
 * gives it one, so process.stdout.isTTY is true as in a person's shell.
 */
const SCRIPT = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const CI = process.env.CI === 'true';
if (!SCRIPT && !CI) console.warn('startup-logs.test.ts: the terminal cases are skipped: `script` (util-linux) is not installed');

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const ADMIN = 'npm run --silent admin -- help';

let testDatabase: TestDatabase;
beforeAll(async () => {
  testDatabase = await createTestDatabase();
});
afterAll(async () => {
  await testDatabase?.dispose();
});

/** Starts the service (under a pseudo-terminal when `tty`), waits for /readyz, stops it, returns its output lines. */
async function startAndStop(options: { tty: boolean; nodeEnv: 'development' | 'test' }): Promise<string[]> {
  const port = await freePort();
  const env = serviceEnv({
    ...testDatabase.env,
    NODE_ENV: options.nodeEnv,
    PORT: String(port),
    HOST: '127.0.0.1',
    SIM_HEADS: '0',
    SIM_ANSWERS_PER_MINUTE: '0',
    // NODE_ENV=test is silent by default.
    LOG_LEVEL: 'info',
    // What a person's shell has; pino-pretty colours only where colour is possible.
    TERM: 'xterm-256color',
  });
  const node = `${JSON.stringify(process.execPath)} ${JSON.stringify(MAIN)}`;
  // -e: script exits with the service's code; -f: flush each write; -q: no "Script started" lines.
  const service = new ServiceProcess(env, { command: options.tty ? ['script', '-qefc', node, '/dev/null'] : undefined });
  try {
    await service.ready();
    // The ready line comes just after the server listens; give it a moment to be written.
    const deadline = Date.now() + 5_000;
    while (!service.lines().some((line) => line.includes('/docs')) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    // Under `script` the service is a grandchild: stop it, not `script` (which would print its own line).
    const pid = options.tty ? serviceUnder(service.child.pid!) : service.child.pid!;
    process.kill(pid, 'SIGTERM');
    await service.waitForExit(15_000);
    return service.lines().map((line) => line.replace(ANSI, '').replace(/\r$/, ''));
  } finally {
    await service.kill();
  }
}

/** The node process under `script` (its child, or the shell's child): the deepest descendant. */
function serviceUnder(pid: number): number {
  const children = (p: number) =>
    fs
      .readFileSync(`/proc/${p}/task/${p}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
  let current = pid;
  for (let next = children(current); next.length > 0; next = children(current)) current = next[0];
  if (current === pid) throw new Error('the service did not start under script');
  return current;
}

function readyLine(lines: string[]): string {
  const line = lines.find((l) => l.includes('Headcount is ready'));
  expect(line, lines.join('\n')).toBeDefined();
  return line!;
}

describe.skipIf(!SCRIPT && !CI)('in development on a terminal', () => {
  it('prints readable lines, not JSON, ending start-up with the URL, /docs and the admin CLI', async () => {
    if (!SCRIPT) throw new Error('`script` (util-linux) is required under CI to run the service on a pseudo-terminal');
    const lines = await startAndStop({ tty: true, nodeEnv: 'development' });
    const logLines = lines.filter((l) => l.trim() !== '');
    expect(logLines.length, lines.join('\n')).toBeGreaterThan(1);
    for (const line of logLines) expect(line.trimStart().startsWith('{'), `a raw JSON line: ${line}`).toBe(false);
    // A level word and a time on each log line, as a person reads them.
    expect(logLines.filter((l) => /^\[\d{2}:\d{2}:\d{2}(\.\d{3})?\] (INFO|WARN|ERROR)/.test(l)).length).toBeGreaterThan(1);
    const ready = readyLine(lines);
    const url = ready.match(/http:\/\/localhost:\d+/)?.[0];
    expect(url, ready).toBeDefined();
    expect(ready).toContain(`${url}/docs`);
    expect(ready).toContain(ADMIN);
    // It is the last line of start-up: after it come only requests (the test's /readyz) and the stop.
    const after = logLines.slice(logLines.indexOf(ready) + 1);
    for (const line of after) expect(line).toMatch(/stop|request/i);
  }, 90_000);
});

describe('anywhere else: one JSON object a line', () => {
  it('development without a terminal (a pipe): JSON, ending start-up with the URL, /docs and the admin CLI in the message', async () => {
    const lines = await startAndStop({ tty: false, nodeEnv: 'development' });
    const objects = lines.map((line) => {
      try {
        return JSON.parse(line) as { level: number; msg: string; url?: string };
      } catch {
        throw new Error(`not a JSON line: ${line}\n${lines.join('\n')}`);
      }
    });
    const ready = objects.find((o) => o.msg.includes('Headcount is ready'));
    expect(ready, lines.join('\n')).toBeDefined();
    expect(ready!.msg).toMatch(/http:\/\/localhost:\d+\/docs/);
    expect(ready!.msg).toContain(ADMIN);
    expect(ready!.url).toMatch(/^http:\/\/localhost:\d+$/);
  }, 90_000);

  it.skipIf(!SCRIPT && !CI)('NODE_ENV=test on a terminal: JSON', async () => {
    const lines = (await startAndStop({ tty: true, nodeEnv: 'test' })).filter((l) => l.trim() !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
  }, 90_000);
});
