import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { listen } from '../helpers/real-http.ts';
import { answerAll, fundedKey, NO_RATE_LIMITS, seedHeads, sleep } from '../helpers/questions.ts';

/**
 * The SDK as a new user gets it: built (`npm run build -w packages/sdk`), packed (`npm pack`),
 * installed from the tarball into an empty project, and the README's ten-line example
 * type-checked there through the package name under `strict` (plus exactOptionalPropertyTypes
 * and noUncheckedIndexedAccess), then run with node against the listening service while heads
 * answer. A wrong program must fail to compile (the types are real, not `any`), and the built
 * JavaScript uses nothing Node-only (it is meant for browsers and Deno too).
 */
const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSC = path.join(ROOT, 'node_modules', '.bin', 'tsc');

let t: TestApp;
let base: string;
let work: string;
let app: string;

/** The ```ts block under "## Ten lines" in packages/sdk/README.md. */
function tenLines(): string {
  const readme = fs.readFileSync(path.join(ROOT, 'packages/sdk/README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Ten lines'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('no ```ts block under "## Ten lines" in packages/sdk/README.md');
  return block[1]!;
}

function tsconfig(files: string[], skipLibCheck = false) {
  return {
    compilerOptions: {
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2022', 'DOM'],
      outDir: 'out',
      // The package's own declarations are checked too; @types/node (for process.env) from the repository.
      skipLibCheck,
      typeRoots: [path.join(ROOT, 'node_modules/@types')],
      types: ['node'],
    },
    files,
  };
}

async function tsc(project: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(TSC, ['-p', project], { cwd: app });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: `${failed.stdout}${failed.stderr}` };
  }
}

beforeAll(async () => {
  t = await createTestApp({ env: { ...NO_RATE_LIMITS } });
  base = await listen(t.app);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-sdk-package-'));
  app = path.join(work, 'app');
  fs.mkdirSync(app);
}, 120_000);
afterAll(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  await Promise.race([t?.close(), sleep(5_000)]);
});

describe('the built package', () => {
  it('packs dist and the README (no tests), and installs from the tarball', async () => {
    await run('npm', ['run', 'build', '-w', 'packages/sdk'], { cwd: ROOT });
    const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work, '-w', 'packages/sdk'], { cwd: ROOT });
    const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed!.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/openapi.d.ts', 'dist/client.js']));
    expect(files.filter((f) => f.endsWith('.test.ts'))).toEqual([]);

    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'first-app', private: true, type: 'module' }));
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', path.join(work, packed!.filename)], { cwd: app });
    expect(fs.existsSync(path.join(app, 'node_modules/@headcount/sdk/dist/index.js'))).toBe(true);
  }, 120_000);

  it('uses nothing Node-only in its JavaScript (for browsers and Deno)', () => {
    const dist = path.join(app, 'node_modules/@headcount/sdk/dist');
    const offenders: string[] = [];
    for (const file of fs.readdirSync(dist, { recursive: true }) as string[]) {
      if (!file.endsWith('.js')) continue;
      const code = fs.readFileSync(path.join(dist, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      for (const pattern of [/from ['"]node:/, /\brequire\(/, /\bprocess\./, /\bBuffer\b/, /\bimport\(['"](?!\.)/, /from ['"](?!\.)/]) {
        if (pattern.test(code)) offenders.push(`${file}: ${pattern}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("type-checks the README's ten lines under strict through @headcount/sdk, and refuses a wrong program", async () => {
    fs.writeFileSync(path.join(app, 'ask.ts'), tenLines());
    fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify(tsconfig(['ask.ts'])));
    const good = await tsc('tsconfig.json');
    expect(good.output).toBe('');
    expect(good.code).toBe(0);

    fs.writeFileSync(
      path.join(app, 'wrong.ts'),
      [
        "import { Headcount, HeadcountError } from '@headcount/sdk';",
        "const hc = new Headcount({ apiKey: 'hc_test_x' });",
        "await hc.questions.ask({ draft: { type: 'single_choice', text: 42 } });",
        "await hc.questions.ask({ draft: { type: 'poll', text: 'Which?' } });",
        "const result = await hc.waitForResult('q_1');",
        'console.log(result.winner);',
        "try { await hc.billing.balance(); } catch (e) { if (HeadcountError.is(e, 'no_such_code')) console.log(e); }",
        '',
      ].join('\n'),
    );
    fs.writeFileSync(path.join(app, 'tsconfig.wrong.json'), JSON.stringify(tsconfig(['wrong.ts'], true)));
    const wrong = await tsc('tsconfig.wrong.json');
    expect(wrong.code).not.toBe(0);
    expect(wrong.output).toMatch(/wrong\.ts\(3,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/);
    expect(wrong.output).toMatch(/wrong\.ts\(4,\d+\): error TS2322: Type '"poll"' is not assignable/);
    expect(wrong.output).toMatch(/wrong\.ts\(6,\d+\): error TS2339: Property 'winner' does not exist/);
    expect(wrong.output).toMatch(/wrong\.ts\(7,\d+\): error TS2345: Argument of type '"no_such_code"'/);
  }, 60_000);

  it('runs the ten lines with node against the service while heads answer', async () => {
    const key = await fundedKey(t, 10_000);
    const heads = await seedHeads(t, 20);
    const child = spawn(process.execPath, ['out/ask.js'], {
      cwd: app,
      env: { PATH: process.env.PATH ?? '', HEADCOUNT_API_KEY: key.secret, HEADCOUNT_BASE_URL: base },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      // The program asked: find its question, then answer it (12 of 20 for Pocket).
      let questionId: string | undefined;
      await expect
        .poll(
          async () => {
            const row = await t.db.selectFrom('questions').select('id').where('account_id', '=', key.accountId).executeTakeFirst();
            questionId = row?.id;
            return questionId;
          },
          { timeout: 20_000, interval: 100 },
        )
        .toBeTruthy();
      await answerAll(t, questionId!, heads.slice(0, 20), (i) => ({ option: i < 12 ? 1 : 0 }));
      expect(await exited, stderr).toBe(0);
    } finally {
      child.kill();
    }
    expect(stdout).toMatch(/^20 of 20 answered$/m);
    expect(stdout).toMatch(/^Pocket leads with 60% \((low|medium|high|no) confidence\)$/m);
  }, 120_000);
});
