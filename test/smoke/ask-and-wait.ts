/**
 * Start-up smoke test over HTTP, for Node versions the full suites do not run on (.ci/run runs it
 * with Node 22 and 24; README "Node.js 20.11 or newer"):
 *
 *   node --import tsx test/smoke/ask-and-wait.ts
 *
 * With the Node running this script: starts the service as `npm start` does (scripts/start.mjs:
 * the JavaScript built at install, rebuilt first if src/ changed) on the embedded database in a
 * fresh DATA_DIR (made from the install's migrated template) on a free port, in development with a small, fast simulated panel; waits for
 * /readyz; makes an account, key and credits with the admin CLI (through the running instance's
 * socket); estimates and asks over HTTP; calls `wait` until done; checks the result and the
 * balance; stops it with SIGTERM (exit 0, no lock or socket left). Prints one line per step and
 * exits non-zero on the first failure.
 */
import { spawn, execFile } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const N = 10;
const started = Date.now();

function step(what: string): void {
  console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${what}`);
}

function fail(message: string): never {
  throw new Error(message);
}

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-smoke-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SIM_HEADS: '300', SIM_ANSWERS_PER_MINUTE: '600', LOG_LEVEL: 'info' };
for (const name of ['DATABASE_URL', 'REDIS_URL', 'PUBLIC_BASE_URL', 'ROLE', 'TEST_DATABASE_URL', 'TEST_REDIS_URL']) delete env[name];

const output: string[] = [];
const service = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
service.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
service.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
let exit: { code: number | null; signal: string | null } | null = null;
const exited = once(service, 'exit').then(([code, signal]) => (exit = { code, signal }));

function admin(...args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    // As `npm run admin` runs it (scripts/admin.mjs: the built CLI).
    execFile(process.execPath, [path.join(ROOT, 'scripts', 'admin.mjs'), ...args], { cwd: ROOT, env }, (error, stdout, stderr) => {
      if (error) reject(new Error(`admin ${args[0]} failed: ${stdout}${stderr}`));
      else resolve(JSON.parse(stdout) as Record<string, unknown>);
    });
  });
}

async function http(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, any> }> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(40_000),
  });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

try {
  step(`node ${process.version}: starting the service on port ${port}, DATA_DIR ${dataDir}`);
  for (;;) {
    if (exit) fail(`the service exited while starting: ${JSON.stringify(exit)}`);
    const ready = await fetch(`${base}/readyz`).then((r) => r.status === 200, () => false);
    if (ready) break;
    if (Date.now() - started > 120_000) fail('not ready within 120 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  step('ready (/readyz 200)');
  if (!output.join('').includes('copied from the migrated template')) fail('the fresh DATA_DIR was not made from the install\'s template (dist/embedded-template)');

  const account = (await admin('account:create', '--name', 'Smoke test')).account as { id: string };
  const { secret } = (await admin('key:create', '--account', account.id, '--scopes', 'questions:read,questions:write,account:read')) as { secret: string };
  await admin('credits:grant', '--account', account.id, '--amount', '10000', '--reason', 'Smoke test');
  const auth = { authorization: `Bearer ${secret}` };
  step(`account ${account.id} with a key and 10000 credits (admin CLI through the running instance)`);

  const draft = { type: 'single_choice', text: 'Which name sounds better for a savings app?', options: [{ label: 'Penny' }, { label: 'Pocket' }], n: N };
  const estimate = await http('POST', '/v1/billing/estimate', { draft });
  if (estimate.status !== 200 || estimate.json.validation.length) fail(`estimate: ${estimate.status} ${JSON.stringify(estimate.json)}`);
  const asked = await http('POST', '/v2/questions', { draft }, { ...auth, 'idempotency-key': randomUUID() });
  if (asked.status !== 201) fail(`ask: ${asked.status} ${JSON.stringify(asked.json)}`);
  const id = asked.json.question.id as string;
  step(`asked ${id} for ${estimate.json.creditsTotal} credits`);

  let done = false;
  let result: Record<string, any> = {};
  for (let call = 1; !done; call++) {
    if (call > 10) fail(`not done after ${call - 1} waits: ${JSON.stringify(result)}`);
    const waited = await http('GET', `/v2/questions/${id}/wait?seconds=25`, undefined, auth);
    if (waited.status !== 200) fail(`wait: ${waited.status} ${JSON.stringify(waited.json)}`);
    ({ done, result } = waited.json as { done: boolean; result: Record<string, any> });
    step(`wait ${call}: done ${done}, ${result.nAccepted} of ${result.nRequested} answers`);
  }
  if (result.status !== 'complete' || result.nAccepted !== N) fail(`result: ${JSON.stringify(result)}`);
  const balance = await http('GET', '/v1/billing/balance', undefined, auth);
  if (balance.json.credits + result.creditsSpent !== 10000 || balance.json.reserved !== 0) fail(`balance: ${JSON.stringify(balance.json)} after spending ${result.creditsSpent}`);
  step(`complete: ${result.distribution.map((d: { option: string; count: number }) => `${d.option} ${d.count}`).join(', ')}; balance ${balance.json.credits}`);

  // What the service finds beside its own code, which its start-up bundle must still find
  // (scripts/bundle.mjs): the fonts and the PDF worker of an export, the API reference's script.
  for (const [format, magic] of [['pdf', '%PDF-'], ['png', '\x89PNG']] as const) {
    const made = await http('POST', `/v2/questions/${id}/exports`, { format }, auth);
    if (made.status !== 201) fail(`${format} export: ${made.status} ${JSON.stringify(made.json)}`);
    const link = new URL(made.json.export.url as string);
    const file = await fetch(`${base}${link.pathname}${link.search}`, { signal: AbortSignal.timeout(40_000) });
    const bytes = Buffer.from(await file.arrayBuffer());
    if (file.status !== 200 || bytes.subarray(0, magic.length).toString('latin1') !== magic) fail(`${format} export file: ${file.status}, starts ${JSON.stringify(bytes.subarray(0, 8).toString('latin1'))}`);
    step(`${format} export: ${bytes.length} bytes`);
  }
  const docs = await fetch(`${base}/docs`, { signal: AbortSignal.timeout(40_000) });
  if (docs.status !== 200 || !(await docs.text()).includes('<script')) fail(`/docs: ${docs.status}`);
  step('/docs: the API reference page');

  service.kill('SIGTERM');
  const timer = setTimeout(() => service.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
  if (exit!.code !== 0) fail(`stopped with ${JSON.stringify(exit)}`);
  const left = fs.readdirSync(dataDir).filter((name) => name !== 'pgdata');
  if (left.length) fail(`left in DATA_DIR after the stop: ${left.join(', ')}`);
  step('stopped: exit 0, DATA_DIR clean');
} catch (error) {
  console.error(`SMOKE TEST FAILED on node ${process.version}: ${(error as Error).message}\n--- service output ---\n${output.join('').slice(-4000)}`);
  process.exitCode = 1;
} finally {
  if (!exit) {
    service.kill('SIGKILL');
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}
