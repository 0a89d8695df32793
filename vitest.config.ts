import { defineConfig } from 'vitest/config';

// Pure unit tests (beside the code, src/**/*.test.ts) run once. Storage and API tests
// (test/**/*.test.ts) run twice: once on SQLite and once on PostgreSQL.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'] } },
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'], env: { TEST_DB: 'sqlite' } } },
      { extends: true, test: { name: 'postgres', include: ['test/**/*.test.ts'], env: { TEST_DB: 'postgres' } } },
    ],
  },
});
