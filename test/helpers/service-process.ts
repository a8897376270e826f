import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real service as a child process, for suites that test what only a started process shows:
 * signals, exit codes, files left in DATA_DIR, start-up output. It runs as `npm start` runs it,
 * from dist/ (compiled at install; test/global-setup.ts brings it up to date with src/ before any
 * test starts), so the suites test what users run and no child pays for compiling TypeScript
 * (~2.4 s a start on two cores through tsx).
 */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The built service, as `npm start` runs it (scripts/start.mjs). */
export const MAIN = path.join(REPO_ROOT, 'dist', 'bundle', 'main.js');
/** The built admin CLI, as `npm run admin` runs it (scripts/admin.mjs). */
export const ADMIN_CLI = path.join(REPO_ROOT, 'dist', 'bundle', 'admin.js');

/** Variables of the outer environment that would point the child at another database or service. */
const INHERITED_OUT = ['DATABASE_URL', 'DATA_DIR', 'REDIS_URL', 'TEST_DATABASE_URL', 'TEST_REDIS_URL', 'PUBLIC_BASE_URL', 'ROLE', 'TURNSTILE_SECRET', 'TURNSTILE_SITE_KEY', 'SMTP_URL', 'MAIL_FROM', 'SESSION_SECRET', 'PAYMENTS_PROVIDER', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_URL', 'PORT', 'HOST', 'NODE_ENV', 'LOG_LEVEL'];

const handedOut = new Set<number>();

/**
 * A port free now, and never one this test process handed out before: the OS may offer a port it
 * just gave back again, so two children started one after the other (the multi-process test's A
 * and B) could both be told the same port, the second then failing to bind while its readiness
 * check was answered by the first (seen once in CI as A counting B's asks).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const server = net.createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as net.AddressInfo).port;
    server.close();
    await once(server, 'close');
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

/** The outer environment without anything that would point the service elsewhere, plus `env`. */
export function serviceEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_OUT) delete base[name];
  return { ...base, ...env };
}

export class ServiceProcess {
  readonly child: ChildProcess;
  readonly base: string;
  private output: string[] = [];
  exit: { code: number | null; signal: string | null; at: number } | null = null;
  private readonly exited: Promise<unknown>;

  /** `env` is the whole environment (see serviceEnv); PORT must be in it. */
  constructor(env: NodeJS.ProcessEnv, options: { command?: string[] } = {}) {
    this.base = `http://127.0.0.1:${env.PORT}`;
    const [file, ...args] = options.command ?? [process.execPath, MAIN];
    this.child = spawn(file, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer) => {
      this.output.push(...chunk.toString().split('\n').filter(Boolean));
      if (this.output.length > 2000) this.output.splice(0, this.output.length - 2000);
    };
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    this.exited = once(this.child, 'exit');
    this.child.on('exit', (code, signal) => (this.exit = { code, signal, at: Date.now() }));
  }

  /** Everything the process printed (stdout and stderr, by line). */
  lines(): string[] {
    return [...this.output];
  }

  tail(lines = 60): string {
    return this.output.slice(-lines).join('\n');
  }

  /** Until GET /readyz answers 200. */
  async ready(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.exit) throw new Error(`the service exited while starting (${JSON.stringify(this.exit)}):\n${this.tail()}`);
      try {
        const response = await fetch(`${this.base}/readyz`, { signal: AbortSignal.timeout(2_000) });
        if (response.status === 200) return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error(`the service was not ready within ${timeoutMs} ms:\n${this.tail()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Resolves with how the process ended; SIGKILLs it after `timeoutMs` (then the code is null). */
  async waitForExit(timeoutMs: number): Promise<{ code: number | null; signal: string | null; at: number }> {
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
    return this.exit!;
  }

  /** SIGKILL if still running (afterAll). */
  async kill(): Promise<void> {
    if (this.exit) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}
