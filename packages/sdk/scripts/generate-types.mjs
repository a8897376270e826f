// Generates the SDK's two files that come from the served OpenAPI document:
//   src/openapi.ts           every path, operation and schema as TypeScript types (openapi-typescript 7)
//   src/operation-routes.ts  operationId -> method, path and idempotency header, the one thing the
//                            client needs at run time that types cannot carry
//
//   node packages/sdk/scripts/generate-types.mjs                  # from the service's own document
//   node packages/sdk/scripts/generate-types.mjs --from doc.json  # from a dumped /openapi.json
//
// Without --from it dumps the document exactly as /openapi.json serves it
// (`node --import tsx test/dump-openapi.ts`, which needs the repository and its `npm ci`).
// test/integration/sdk-openapi-types.test.ts fails when the committed files differ from what this
// script makes of the current document, and names this command.
//
// Plain JavaScript (no build step) importing only openapi-typescript, a root devDependency.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const SDK = fileURLToPath(new URL('..', import.meta.url));
const ROOT = path.resolve(SDK, '../..');

export const GENERATE_COMMAND = 'node packages/sdk/scripts/generate-types.mjs';
export const OUTPUT_FILES = ['openapi.ts', 'operation-routes.ts'];

/**
 * openapi-typescript's options, and why:
 * - defaultNonNullable: false. Its default (true) makes a property that has a `default` required
 *   in every schema of `components` (it exempts only inline request bodies and parameters), so
 *   `QuestionDraft.n` or `.tier` had to be sent although the service fills them in. With false,
 *   optional is exactly "not in `required`", everywhere: request fields with a default are
 *   optional, and response fields are as the document says. (Three properties carry a `default`
 *   and are also listed in `required`: targeting.countries, targeting.tags, clickTest.maxTaps;
 *   the service refuses a body without them, so they stay required, as the document says.)
 * - silent: the document's own lint warnings are the service's business (npm run lint:openapi).
 */
export const OPENAPI_TS_OPTIONS = { defaultNonNullable: false, silent: true };

function header(what) {
  return [
    '/**',
    ` * GENERATED FILE: do not edit. ${what}`,
    ' * Made from the service\'s OpenAPI document (/openapi.json) by packages/sdk/scripts/generate-types.mjs.',
    ` * Regenerate after changing the API:  ${GENERATE_COMMAND}`,
    ' */',
    '',
  ].join('\n');
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** operationId -> { method, path, idempotencyKey? } for every operation that has an id, in document order. */
export function operationRoutes(doc) {
  const routes = {};
  for (const [route, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation?.operationId) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])];
      const key = parameters.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
      routes[operation.operationId] = {
        method: method.toUpperCase(),
        path: route,
        // 'required': the operation refuses a request without one; 'optional': it takes one
        // (POST /heads needs it unless dryRun). The client sends a fresh key for both.
        ...(key ? { idempotencyKey: key.required ? 'required' : 'optional' } : {}),
      };
    }
  }
  return routes;
}

/** The text of each generated file, by name under src/. */
export async function generateFiles(doc) {
  const ast = await openapiTS(structuredClone(doc), OPENAPI_TS_OPTIONS);
  const types = astToString(ast);
  const routes = operationRoutes(doc);
  const literal = (value) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const lines = Object.entries(routes).map(
    ([id, route]) => `  ${id}: { ${Object.entries(route).map(([k, v]) => `${k}: ${literal(v)}`).join(', ')} },`,
  );
  return {
    'openapi.ts': `${header(`The types of Headcount API ${doc.info?.version ?? ''} (openapi-typescript, defaultNonNullable: false).`)}\n${types}`,
    'operation-routes.ts': [
      header('Where each operation lives: its method, path template and Idempotency-Key header.'),
      "import type { operations } from './openapi.ts';",
      '',
      'export interface OperationRoute {',
      "  readonly method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE';",
      '  readonly path: string;',
      "  readonly idempotencyKey?: 'required' | 'optional';",
      '}',
      '',
      'export const operationRoutes = {',
      ...lines,
      '} as const satisfies { readonly [K in keyof operations]: OperationRoute };',
      '',
    ].join('\n'),
  };
}

/** The served document, dumped by the repository's own script into a temporary file. */
export function dumpServedDocument() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-sdk-openapi-'));
  try {
    const out = path.join(dir, 'openapi.json');
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'test/dump-openapi.ts', out], { cwd: ROOT, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`test/dump-openapi.ts failed (exit ${run.status ?? run.signal}):\n${run.stderr}`);
    return JSON.parse(fs.readFileSync(out, 'utf8'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(argv) {
  const from = argv.indexOf('--from');
  const doc = from >= 0 ? JSON.parse(fs.readFileSync(argv[from + 1], 'utf8')) : dumpServedDocument();
  const files = await generateFiles(doc);
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(SDK, 'src', name);
    fs.writeFileSync(file, text);
    process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await main(process.argv.slice(2));
}
