/**
 * The committed openapi.ts as a whole (its being current is test/integration/sdk-openapi-types.test.ts):
 * every property documented with a `@default` is optional, in request bodies, query parameters
 * and responses alike, except the three the document itself lists as required (the service
 * refuses a targeting or clickTest object without them). This is the complaint of issue 16: an
 * independent generator, run with openapi-typescript's default `defaultNonNullable: true`, made
 * them required.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

const REQUIRED_WITH_DEFAULT = new Set(['countries', 'tags', 'maxTaps']);

describe('src/openapi.ts', () => {
  const text = fs.readFileSync(new URL('./openapi.ts', import.meta.url), 'utf8');

  it('says it is generated and how to regenerate it', () => {
    expect(text.slice(0, 400)).toMatch(/GENERATED FILE: do not edit/);
    expect(text.slice(0, 400)).toContain('node packages/sdk/scripts/generate-types.mjs');
  });

  it('has every property with a @default optional (but the three the document requires)', () => {
    const lines = text.split('\n');
    const withDefault: Array<{ line: number; property: string; optional: boolean }> = [];
    for (let i = 0; i < lines.length; i++) {
      if (!/^\s*(\/\*\*|\*) .*@default /.test(lines[i]!)) continue;
      // The property the JSDoc block belongs to: the first line after the block's end.
      let j = i;
      while (!lines[j]!.includes('*/')) j++;
      const declaration = /^\s*(?:readonly )?"?([\w$-]+)"?(\??):/.exec(lines[j + 1]!);
      if (!declaration) continue;
      withDefault.push({ line: j + 2, property: declaration[1]!, optional: declaration[2] === '?' });
    }
    expect(withDefault.length).toBeGreaterThan(40);
    const required = withDefault.filter((p) => !p.optional);
    expect(required.filter((p) => !REQUIRED_WITH_DEFAULT.has(p.property)), 'required although they have a default').toEqual([]);
    expect(new Set(required.map((p) => p.property))).toEqual(REQUIRED_WITH_DEFAULT);
  });
});
