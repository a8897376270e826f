import { defineConfig } from 'vitest/config';

/**
 * Two projects (ARCHITECTURE §5):
 * - unit: `src/**\/*.test.ts` and the same under each `packages/<name>/src`, beside the code, no database, and the layout check
 *   (`test/architecture/`);
 * - integration: `test/integration/**\/*.test.ts`, each file on its own fresh copy of one migrated
 *   template database made once by test/global-setup.ts (embedded PGlite by default, PostgreSQL
 *   when TEST_DATABASE_URL is set).
 * - e2e: `test/e2e/**\/*.test.ts`, pages in a real browser (Playwright driving Debian's Chromium
 *   at /usr/bin/chromium) against the app listening on 127.0.0.1, on the same per-file databases.
 *   One fork for all of them (a browser per file already takes a core).
 * Forks, at most two at a time: the machine has two cores and every PGlite costs memory.
 */
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    minWorkers: 1,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'test/architecture/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/global-setup.ts'],
          poolOptions: { forks: { singleFork: true } },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
