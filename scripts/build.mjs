// The build (issue 15, start-up): TypeScript compiled once, at install, instead of at every start.
// `npm ci` runs it (the `prepare` script); `npm start` (scripts/start.mjs) runs it again only when
// the sources are newer than the last build. Plain JavaScript so it needs nothing built to run.
//   node scripts/build.mjs           build when stale
//   node scripts/build.mjs --force   build now
//
// Steps: src/**/*.ts → dist/**/*.js with TypeScript itself (type checking is `npm run typecheck`,
// not the build's job: `noCheck`), the files beside the code that it loads at run time (page
// assets, the PDF worker's entry) copied to the same places under dist/, the start-up bundles of
// the service and the admin CLI (scripts/bundle.mjs), then the migrated
// embedded database a fresh DATA_DIR starts from (src/db/embedded-template.ts). dist/ is built
// beside the old one and swapped in whole, so a failed or interrupted build never leaves a mix.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from './bundle.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');
/** Written last: its presence says the build is whole; its time says how fresh. */
const STAMP = path.join(DIST, '.build-stamp');
/** Besides src/: a change of installed packages (PGlite's version decides the template's format). */
/** The workspace packages (packages/*), built after the service, in this order (the CLI imports the SDK). */
const PACKAGES = ['sdk', 'cli'];
const INPUTS = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs', 'scripts/bundle.mjs'];

function newestSource(dir, newest = 0) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = newestSource(file, newest);
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, fs.statSync(file).mtimeMs);
  }
  return newest;
}

/** Why dist/ needs building, or null when it is up to date. */
export function staleReason() {
  let built;
  try {
    built = fs.statSync(STAMP).mtimeMs;
  } catch {
    return 'no build yet';
  }
  if (newestSource(SRC) > built) return 'src/ changed since the last build';
  for (const name of PACKAGES) {
    if (newestSource(path.join(ROOT, 'packages', name, 'src')) > built) return `packages/${name}/src changed since the last build`;
  }
  for (const input of INPUTS) {
    const file = path.join(ROOT, input);
    if (fs.existsSync(file) && fs.statSync(file).mtimeMs > built) return `${input} changed since the last build`;
  }
  return null;
}

/** Copies what src/ holds besides TypeScript (page assets, .mjs entry points) to the same place under `out`. */
function copyAssets(from, to) {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyAssets(source, target);
    else if (!entry.name.endsWith('.ts')) {
      fs.mkdirSync(to, { recursive: true });
      fs.copyFileSync(source, target);
    }
  }
}

function run(step, args) {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`build: ${step} failed (exit ${result.status ?? result.signal})`);
}

/**
 * What the template is made from: the compiled migrations and the installed PGlite (whose version
 * decides the on-disk format). The previous build's template is kept when this is unchanged, so
 * an edit that touches no migration does not pay for a new one.
 */
function templateSource(distDir) {
  const hash = createHash('sha256');
  const dir = path.join(distDir, 'db', 'migrations');
  for (const name of fs.readdirSync(dir).sort()) hash.update(name).update(fs.readFileSync(path.join(dir, name)));
  const pglite = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')).version;
  return `${hash.digest('hex')} pglite ${pglite}\n`;
}

const SOURCE_FILE = 'template-source.txt';

function reusableTemplate(next) {
  const previous = path.join(DIST, 'embedded-template');
  try {
    return fs.readFileSync(path.join(previous, SOURCE_FILE), 'utf8') === templateSource(next) ? previous : null;
  } catch {
    return null;
  }
}

export async function build() {
  const next = `${DIST}.next`;
  fs.rmSync(next, { recursive: true, force: true });
  const t0 = Date.now();
  run('compiling TypeScript', [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', next]);
  copyAssets(SRC, next);
  // What `npm start` and `npm run admin` load: each entry point and its imports in one file
  // (scripts/bundle.mjs); the rest of dist/ stays as compiled, for the worker and the tests.
  await bundle(next, ROOT);
  const t1 = Date.now();
  const template = path.join(next, 'embedded-template');
  const previous = reusableTemplate(next);
  if (previous) fs.renameSync(previous, template);
  else {
    run('making the embedded database template', [path.join(next, 'cli', 'make-embedded-template.js'), template]);
    fs.writeFileSync(path.join(template, SOURCE_FILE), templateSource(next));
  }
  // The SDK and the CLI (packages/*): each compiled to its own dist/ with declarations, so the
  // workspace links in node_modules (`@headcount/sdk`, the `headcount` bin) work after `npm ci`.
  for (const name of PACKAGES) {
    run(`compiling packages/${name}`, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join('packages', name, 'tsconfig.json')]);
  }
  fs.writeFileSync(path.join(next, '.build-stamp'), `${new Date().toISOString()}\n`);
  const old = `${DIST}.old`;
  fs.rmSync(old, { recursive: true, force: true });
  if (fs.existsSync(DIST)) fs.renameSync(DIST, old);
  fs.renameSync(next, DIST);
  fs.rmSync(old, { recursive: true, force: true });
  const made = previous ? 'the embedded database template kept (no new migration)' : `embedded database template made in ${((Date.now() - t1) / 1000).toFixed(1)} s`;
  process.stderr.write(`build: dist/ compiled in ${((t1 - t0) / 1000).toFixed(1)} s, ${made}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const reason = process.argv.includes('--force') ? 'asked to' : staleReason();
  if (reason) await build();
}
