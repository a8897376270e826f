import { defineConfig } from 'vitest/config';

/**
 * Two projects (ARCHITECTURE §5):
 * - unit: `src/**\/*.test.ts`, beside the code, no database;
 * - integration: `test/integration/**\/*.test.ts`, each file on its own fresh copy of one migrated
 *   template database made once by test/global-setup.ts (embedded PGlite by default, PostgreSQL
 *   when TEST_DATABASE_URL is set).
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
          include: ['src/**/*.test.ts'],
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
    ],
  },
});
