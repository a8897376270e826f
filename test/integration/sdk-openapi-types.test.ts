import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dumpOpenApi } from '../dump-openapi.ts';
import { GENERATE_COMMAND, OUTPUT_FILES, generateFiles } from '../../packages/sdk/scripts/generate-types.mjs';

/**
 * The SDK's generated files (packages/sdk/src/openapi.ts and operation-routes.ts) are what the
 * generator makes of the document the service serves today: change a route or a schema without
 * regenerating and this fails, naming the command. The document is dumped exactly as
 * /openapi.json serves it (test/dump-openapi.ts, on its own throwaway embedded database, so the
 * same on both CI databases).
 */
describe('the SDK types', () => {
  it('are current with /openapi.json', async () => {
    const files = await generateFiles(await dumpOpenApi());
    expect(Object.keys(files).sort()).toEqual([...OUTPUT_FILES].sort());
    for (const name of OUTPUT_FILES) {
      const committed = fs.readFileSync(new URL(`../../packages/sdk/src/${name}`, import.meta.url), 'utf8');
      // Not toBe(): a diff of 12,000 lines helps nobody; the message says what to do.
      const current = committed === files[name];
      expect(current, `packages/sdk/src/${name} is out of date with /openapi.json: run \`${GENERATE_COMMAND}\` and commit the result`).toBe(true);
    }
  }, 60_000);
});
