// The start-up bundles (issue 15): the service's and the admin CLI's entry points, each with the
// modules it imports, in one file, made by scripts/build.mjs from the compiled dist/.
//
// Why: a start used to load ~900 ES modules (405 ours, 262 Kysely, 247 TypeBox, oidc-provider,
// Ajv, the MCP SDK's zod…). Node spends most of that time in its module loader (resolving each
// specifier, opening, reading and compiling each file), not in running them: loading the
// service's modules took 0.57–0.66 s on 2026-12-02's VM, their bundle 0.18 s (split at the lazy
// imports; 0.25 s as one 9.5 MB file). esbuild is what tsx already runs on; it makes the bundles
// in about two seconds.
//
// What stays outside (`EXTERNAL`): packages that find files beside their own code (WebAssembly,
// fonts, native binaries, worker scripts, their package.json) through __dirname or
// import.meta.url, which in a bundle would name the bundle instead; and the packages our code
// loads lazily through createRequire, which esbuild would not follow anyway. The build fails when
// a bundled package starts doing the same (`checkBundledInputs`), so a dependency's update cannot
// break the bundle silently: add it to EXTERNAL.
//
// Our own modules that resolve files from their place in dist/ (page assets, fonts, the embedded
// template, the PDF worker) keep doing so: in each of them `import.meta.url` is rewritten to the
// URL the module has in dist/ (`new URL('./modules/…/fonts.js', import.meta.url)`), so the
// bundle can stay where it is made, beside them.
import fs from 'node:fs';
import path from 'node:path';

/** Where the bundles go, under dist/: `main.js` (scripts/start.mjs) and `admin.js` (scripts/admin.mjs). */
export const BUNDLE_DIR = 'bundle';
/** Each bundle's name → its entry point in dist/. */
export const ENTRIES = { main: 'main.js', admin: 'cli/admin.js' };

const EXTERNAL = [
  '@electric-sql/pglite', // its WebAssembly and data files, by import.meta.url
  '@electric-sql/pglite-socket',
  '@electric-sql/pglite/*',
  'sharp', // native binaries
  '@resvg/resvg-js',
  'pdfkit', // its font metrics (data/*.afm), by __dirname
  'fontkit',
  'pino', // its transports run worker files by path
  'pino-pretty',
  'thread-stream',
  '@scalar/fastify-api-reference', // the reference page's JavaScript, read from its own folder
  '@fastify/swagger', // reads its package.json by __dirname
  'nodemailer', // loaded lazily through createRequire (mail, payments, Redis, text models)
  'stripe',
  'ioredis',
  'wink-nlp',
  'wink-eng-lite-web-model',
  'pg-native', // pg's optional native driver, not installed
  'undici', // CommonJS loaded with import() (see checkBundledInputs): outbound HTTP, the human check
  'pngjs', // the same: the heatmap's PNG
  'qrcode', // the same: the export's QR code
];

/**
 * A bundled package's use of its own location, which the bundle would get wrong. Lines that are
 * comments, or that test it with `typeof` first (undici: `typeof __filename !== 'undefined' ?
 * __filename : undefined`, for stack traces only), are not uses.
 */
const OWN_LOCATION = /\b(?:__dirname|__filename)\b|\bimport\.meta\b/;
const COMMENT_LINE = /^\s*(?:\/\/|\*|\/\*)/;
const GUARDED = /\btypeof\s+(?:__dirname|__filename)\b/;

function usesOwnLocation(source) {
  return source.split('\n').some((line) => OWN_LOCATION.test(line) && !COMMENT_LINE.test(line) && !GUARDED.test(line));
}

function rewriteOwnUrl(outDir) {
  return {
    name: 'own-module-url',
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = await fs.promises.readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const relative = `./${path.relative(outDir, args.path).split(path.sep).join('/')}`;
        return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`), loader: 'js' };
      });
    },
  };
}

/**
 * What the bundle would get wrong, as a failed build: a bundled package that finds files by its
 * own location; and a CommonJS module loaded with `import()`, whose split chunk esbuild gives a
 * default export only (`const { Agent } = await import('undici')` would get undefined; Node gives
 * CommonJS modules their named exports too). Either goes to EXTERNAL.
 */
function checkBundledInputs(metafile, root) {
  const problems = [];
  for (const [input, { imports }] of Object.entries(metafile.inputs)) {
    for (const { path: target, kind, external } of imports) {
      if (kind === 'dynamic-import' && !external && metafile.inputs[target]?.format === 'cjs') problems.push(`${target}: CommonJS, loaded with import() by ${input}`);
    }
    if (input.includes('node_modules/') && usesOwnLocation(fs.readFileSync(path.join(root, input), 'utf8'))) problems.push(`${input}: finds files by its own location`);
  }
  if (problems.length) throw new Error(`build: the bundle would break these; add their packages to EXTERNAL in scripts/bundle.mjs:\n  ${problems.join('\n  ')}`);
}

/** Makes the bundles of `distDir` (a compiled dist/) in its BUNDLE_DIR; `entries` for tests. */
export async function bundle(distDir, root, entries = ENTRIES) {
  // Loaded here, not at the top: start.mjs and admin.mjs import the build's staleness check,
  // and a start that needs no build should not load esbuild.
  const esbuild = await import('esbuild');
  const outdir = path.join(distDir, BUNDLE_DIR);
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(entries).map(([name, entry]) => [name, path.join(distDir, entry)])),
    outdir,
    bundle: true,
    // What is imported only when first needed (the MCP SDK, oidc-provider, the media readers,
    // csv-stringify: lib/load-once.ts) goes to chunks of its own, loaded then, as before: the
    // service's start file is ~2 MB instead of 9.5 (its load 0.18 s instead of 0.25).
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    // CommonJS packages in an ES module bundle call `require` for Node's own modules.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    // Errors' stacks name the bundle's lines; with `--enable-source-maps` they name dist/'s files
    // (not on by default: it costs a start ~0.25 s).
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    plugins: [rewriteOwnUrl(outdir)],
  });
  checkBundledInputs(result.metafile, root);
}
