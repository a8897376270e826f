import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SDK_VERSION } from './version.ts';

describe('SDK_VERSION', () => {
  it("is package.json's version (sent as X-Headcount-Client: sdk-ts/<version>)", () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(SDK_VERSION).toBe(pkg.version);
  });
});
