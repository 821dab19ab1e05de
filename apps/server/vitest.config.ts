import { defineProject } from 'vitest/config';

/**
 * Server suite: the real app through `app.inject` on a real database — PGlite in memory, or a fresh
 * database per test file on the PostgreSQL server at DATABASE_URL (test/helpers/test-app.ts). The
 * server is built first (test/helpers/build-server.ts) for the tests that start it as a process.
 */
export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The compiled server, for the tests that start it as a process (test/helpers/server-process.ts).
    globalSetup: ['./test/helpers/build-server.ts'],
  },
});
