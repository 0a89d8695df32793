import { defineConfig } from 'vitest/config';

// Pure unit tests (beside the code, src/**/*.test.ts) run once. Storage and API tests
// (test/**/*.test.ts) run twice: once on SQLite and once on PostgreSQL; tests of what only
// PostgreSQL has (row locks, several nodes) run on it alone.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          exclude: ['test/browser/**', '**/node_modules/**', 'test/e2e/nodes*.test.ts', 'test/**/*.postgres.test.ts'],
          env: { TEST_DB: 'sqlite' },
        },
      },
      {
        extends: true,
        test: { name: 'postgres', include: ['test/**/*.test.ts'], exclude: ['test/browser/**', '**/node_modules/**'], env: { TEST_DB: 'postgres' } },
      },
      // The dashboard in Debian's Chromium against the real server (SQLite), driven by playwright-core.
      {
        extends: true,
        test: {
          name: 'browser',
          hookTimeout: 120_000,
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/browser/global-setup.ts'],
          env: { TEST_DB: 'sqlite' },
          fileParallelism: false,
        },
      },
    ],
  },
});
