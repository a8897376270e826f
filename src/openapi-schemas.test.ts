import { describe, expect, it } from 'vitest';
import { SHARED_SCHEMAS } from './openapi-schemas.ts';
import { bodyAjv } from './lib/validation.ts';

/**
 * The shared schemas are registered with Ajv without the meta-schema check (lib/validation.ts
 * `registerSharedSchema`: it cost every start ~70 ms), so it is made here, once per change.
 */
describe('the shared schemas (components.schemas)', () => {
  it('the check tells a broken schema', () => {
    expect(bodyAjv.validateSchema({ $id: 'Broken', type: 'strin', minLength: -1 })).toBe(false);
  });

  it.each(SHARED_SCHEMAS.map((schema) => [String(schema.$id), schema] as const))('%s is valid JSON Schema 2020-12', (_id, schema) => {
    const valid = bodyAjv.validateSchema(schema);
    expect(valid, JSON.stringify(bodyAjv.errors)).toBe(true);
  });
});
