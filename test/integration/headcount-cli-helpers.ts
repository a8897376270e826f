import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Running the built `headcount` command (packages/cli/dist/main.js) as a subprocess, the way a
 * person or a script runs it: its own HOME and XDG_CONFIG_HOME in a temporary directory, the
 * service named by HEADCOUNT_BASE_URL, nothing inherited that could change what it does
 * (HEADCOUNT_API_KEY, NO_COLOR, TERM). Not a test file itself: the headcount-cli*.test.ts use it.
 */
const run = promisify(execFile);
export const ROOT = path.resolve(import.meta.dirname, '../..');
export const CLI = path.join(ROOT, 'packages/cli/dist/main.js');

async function newestIn(dir: string, filter: (name: string) => boolean): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !filter(entry.name)) continue;
    newest = Math.max(newest, (await stat(path.join(entry.parentPath, entry.name))).mtimeMs);
  }
  return newest;
}

/** Builds the SDK and the CLI when their dist is missing or older than their sources (as `npm ci` leaves them built). */
export async function ensureBuilt(): Promise<void> {
  for (const name of ['sdk', 'cli']) {
    const dir = path.join(ROOT, 'packages', name);
    const sources = await newestIn(path.join(dir, 'src'), (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    const built = await newestIn(path.join(dir, 'dist'), (file) => file.endsWith('.js')).catch(() => 0);
    if (built < sources) await run('npm', ['run', 'build', '-w', `packages/${name}`], { cwd: ROOT });
  }
}

export interface CliHome {
  dir: string;
  configHome: string;
  env(extra?: Record<string, string>): Record<string, string>;
  dispose(): Promise<void>;
}

/** A home of its own for the command: credentials land in `<dir>/config/headcount/credentials.json`. */
export async function cliHome(baseUrl: string): Promise<CliHome> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'headcount-cli-test-'));
  const configHome = path.join(dir, 'config');
  return {
    dir,
    configHome,
    env: (extra = {}) => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, XDG_CONFIG_HOME: configHome, HEADCOUNT_BASE_URL: baseUrl, TZ: 'UTC', LANG: 'C.UTF-8', ...extra }),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningCli {
  child: ChildProcess;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves with the first match of `pattern` in the stream (rejects when the process ends first or after `ms`). */
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr', ms?: number): Promise<RegExpExecArray>;
  done: Promise<CliRun>;
}

/** Starts `headcount <args>` (never blocks the event loop: the service answers from this same process). */
export function startCli(args: string[], env: Record<string, string>, input?: string): RunningCli {
  const child = spawn(process.execPath, [CLI, ...args], { env, cwd: env.HOME, stdio: ['pipe', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  const listeners = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    output.stdout += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    output.stderr += chunk;
    for (const listener of listeners) listener();
  });
  child.stdin!.end(input ?? '');
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      for (const listener of listeners) listener();
      resolve({ code, signal, stdout: output.stdout, stderr: output.stderr });
    });
  });
  let ended = false;
  void done.then(() => (ended = true));
  return {
    child,
    get stdout() {
      return output.stdout;
    },
    get stderr() {
      return output.stderr;
    },
    done,
    waitFor(pattern, stream = 'stdout', ms = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output[stream]);
          if (match) {
            cleanup();
            resolve(match);
          } else if (ended || child.exitCode !== null) {
            cleanup();
            reject(new Error(`headcount ${args.join(' ')} ended without ${pattern} on ${stream}:\n--- stdout\n${output.stdout}\n--- stderr\n${output.stderr}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${pattern} on ${stream} within ${ms} ms:\n--- stdout\n${output.stdout}\n--- stderr\n${output.stderr}`));
        }, ms);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** `headcount <args>` to the end. */
export function runCli(args: string[], env: Record<string, string>, input?: string): Promise<CliRun> {
  return startCli(args, env, input).done;
}

/** A port nothing listens on (taken and let go at once). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
