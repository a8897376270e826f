import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The `startup` row (issue 15): the README's `npm start`, timed from the command to the first
 * `GET /readyz` that answers 200, on the embedded database, first on a fresh DATA_DIR and then
 * again on the same one (existing data), `runs` times each; and its limit on this machine in the
 * same run: `npm start` of a script that only imports Fastify and listens (LIMIT_SCRIPT), polled
 * the same way. Each process is stopped with SIGINT and its exit awaited before the next starts.
 * Development settings as a new user has them (the seeded panel and audiences included).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LIMIT_SCRIPT = fileURLToPath(new URL('../servers/bare-start.mjs', import.meta.url));
const POLL_MS = 25;
export const STARTUP_ID = 'startup';
/** Runs of each kind: three, a median worth reading without making the bench much longer (~30 s). */
export const STARTUP_RUNS = 3;

export interface StartupReport {
  runs: number;
  /** Milliseconds from spawning `npm start` to /readyz 200, each run. */
  freshMs: number[];
  existingMs: number[];
  /** The same for the bare Fastify process started through npm: the floor of any `npm start`. */
  limitMs: number[];
  medians: { fresh: number; existing: number; limit: number };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
};

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs `npm <args>` with `env` and resolves with the ms until http://127.0.0.1:port/readyz answered 200. */
async function timeToReady(args: string[], env: NodeJS.ProcessEnv, port: number): Promise<number> {
  const started = performance.now();
  // detached: its own process group, so the SIGINT reaches npm's child (the service) too.
  const child = spawn('npm', args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  try {
    for (;;) {
      if (gone) throw new Error(`npm ${args.join(' ')} exited before it was ready:\n${stderr}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status === 200, () => false);
      if (ok) return Math.round(performance.now() - started);
      if (performance.now() - started > 120_000) throw new Error(`npm ${args.join(' ')}: not ready within 120 s`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    if (!gone) process.kill(-child.pid!, 'SIGINT');
    await exited;
  }
}

export async function measureStartup(runs: number, log: (line: string) => void): Promise<StartupReport> {
  // The build `npm ci` made, brought up to date first (not timed: it is install, not start).
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('startup: the build failed');
  const base: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', LOG_LEVEL: 'warn', npm_config_update_notifier: 'false' };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'PUBLIC_BASE_URL', 'ROLE']) delete base[name];
  const report: StartupReport = { runs, freshMs: [], existingMs: [], limitMs: [], medians: { fresh: 0, existing: 0, limit: 0 } };
  for (let run = 0; run < runs; run++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-bench-start-'));
    try {
      const port = await freePort();
      const env = { ...base, DATA_DIR: dataDir, PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}` };
      report.freshMs.push(await timeToReady(['start'], env, port));
      report.existingMs.push(await timeToReady(['start'], env, port));
      const limitPort = await freePort();
      report.limitMs.push(await timeToReady(['exec', '--', 'node', LIMIT_SCRIPT], { ...base, PORT: String(limitPort) }, limitPort));
      log(`  startup run ${run + 1}: fresh ${report.freshMs.at(-1)} ms, existing ${report.existingMs.at(-1)} ms, bare Fastify ${report.limitMs.at(-1)} ms`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  report.medians = { fresh: median(report.freshMs), existing: median(report.existingMs), limit: median(report.limitMs) };
  return report;
}

export function formatStartup(report: StartupReport): string {
  const list = (values: number[]) => values.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ');
  return [
    `Start-up, \`npm start\` to /readyz 200 (embedded, development, ${report.runs} runs each):`,
    `  fresh DATA_DIR: ${list(report.freshMs)} (median ${(report.medians.fresh / 1000).toFixed(2)} s)`,
    `  existing DATA_DIR: ${list(report.existingMs)} (median ${(report.medians.existing / 1000).toFixed(2)} s)`,
    `  limit, bare Fastify started through npm: ${list(report.limitMs)} (median ${(report.medians.limit / 1000).toFixed(2)} s)`,
  ].join('\n');
}
