/**
 * `npm run lint:openapi`: lints the description the app serves with Redocly's `recommended`
 * ruleset (.redocly.yaml) and validates it against the OpenAPI 3.1 schema
 * (@seriousme/openapi-schema-validator). Exits non-zero on any error; warnings are printed.
 * Runs offline: Redocly's telemetry and update check are switched off.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { dumpOpenApi } from './dump-openapi.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const doc = await dumpOpenApi();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-lint-'));
const file = path.join(dir, 'openapi.json');
fs.writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);

let failed = false;
try {
  process.stdout.write('== redocly lint (recommended) ==\n');
  const redocly = spawnSync(
    path.join(root, 'node_modules', '.bin', 'redocly'),
    ['lint', file, '--config', path.join(root, '.redocly.yaml'), '--format', 'stylish'],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  if (redocly.error) throw redocly.error;
  if (redocly.status !== 0) {
    process.stderr.write(`redocly lint failed (exit ${redocly.status ?? redocly.signal})\n`);
    failed = true;
  }

  process.stdout.write('\n== OpenAPI 3.1 schema (@seriousme/openapi-schema-validator) ==\n');
  const validator = new Validator();
  const result = await validator.validate(doc);
  if (!result.valid || validator.version !== '3.1') {
    process.stderr.write(`not a valid OpenAPI 3.1 description (version ${validator.version}):\n${JSON.stringify(result.errors, null, 2)}\n`);
    failed = true;
  } else {
    process.stdout.write('valid OpenAPI 3.1\n');
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
