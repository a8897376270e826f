import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript build script, without declarations
import { bundle } from '../../scripts/bundle.mjs';

/**
 * The start-up bundle's own rules (scripts/bundle.mjs), on small made-up projects: a module keeps
 * finding files from its place in dist/, and the build refuses what a bundle would break. The real
 * bundle is what every suite that starts the service or the admin CLI runs (test/helpers/
 * service-process.ts), and the smoke test fetches its exports and /docs.
 */
let project: string;

function write(files: Record<string, string>): string {
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-bundle-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(project, name)), { recursive: true });
    fs.writeFileSync(path.join(project, name), text);
  }
  return project;
}

const make = (root: string) => bundle(path.join(root, 'dist'), root, { main: 'main.js' });

afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

describe('the start-up bundle', () => {
  it('a bundled module\'s import.meta.url is still its own file in dist/, so the files it finds beside itself are found', async () => {
    const root = write({
      'dist/main.js': "export { here, asset } from './modules/deep/where.js';\nexport { default as guarded } from 'guarded';\n",
      'dist/modules/deep/where.js': "export const here = import.meta.url;\nexport const asset = new URL('../../assets/x.txt', import.meta.url).href;\n",
      // A CommonJS package bundled with it, guarded as undici guards its __filename.
      'dist/package.json': '{"type":"module"}\n',
      'node_modules/guarded/package.json': '{"name":"guarded","main":"index.js"}\n',
      'node_modules/guarded/index.js': "// __dirname would be the bundle's here\nmodule.exports = typeof __filename !== 'undefined' ? __filename : 'none';\n",
    });
    await make(root);
    const bundled = await import(pathToFileURL(path.join(root, 'dist', 'bundle', 'main.js')).href);
    expect(bundled.here).toBe(pathToFileURL(path.join(root, 'dist', 'modules', 'deep', 'where.js')).href);
    expect(bundled.asset).toBe(pathToFileURL(path.join(root, 'dist', 'assets', 'x.txt')).href);
    // The guarded package did not stop the build (what it reads is the loader's: vitest defines __filename).
    expect(typeof bundled.guarded).toBe('string');
  });

  it('refuses a CommonJS package loaded with import(), whose split chunk would have no named exports', async () => {
    const root = write({
      'dist/package.json': '{"type":"module"}\n',
      'dist/main.js': "export const load = async () => (await import('plain-cjs')).greet();\n",
      'node_modules/plain-cjs/package.json': '{"name":"plain-cjs","main":"index.js"}\n',
      'node_modules/plain-cjs/index.js': "exports.greet = () => 'hello';\n",
    });
    await expect(make(root)).rejects.toThrow(/node_modules\/plain-cjs\/index\.js: CommonJS, loaded with import\(\) by dist\/main\.js/);
  });

  it('refuses a bundled package that finds its files by __dirname', async () => {
    const root = write({
      'dist/package.json': '{"type":"module"}\n',
      'dist/main.js': "import data from 'reads-beside';\nexport { data };\n",
      'node_modules/reads-beside/package.json': '{"name":"reads-beside","main":"index.js"}\n',
      'node_modules/reads-beside/index.js': "module.exports = require('node:fs').readFileSync(__dirname + '/data.txt', 'utf8');\n",
      'node_modules/reads-beside/data.txt': 'beside\n',
    });
    await expect(make(root)).rejects.toThrow(/node_modules\/reads-beside\/index\.js: finds files by its own location/);
  });
});
