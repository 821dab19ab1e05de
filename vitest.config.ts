import { configDefaults, defineConfig } from 'vitest/config';

/**
 * PostgreSQL server for the second run of the server suite: set by `scripts/with-postgres.ts`
 * (`npm test`, `npm run test:vitest`, `npm run test:server:pg`). Unset: the suite runs on PGlite only.
 */
const postgresUrl = process.env.DATABASE_URL || undefined;

/**
 * Server files that never reach the project's database: pure units, and files that open PGlite
 * themselves or start the server as a child process on an embedded database whatever DATABASE_URL
 * says (test/helpers/server-process.ts empties it). In 'server-pg' they would run the very same
 * code a second time (about 150 s of the suite), so they run in 'server' only. A file that starts
 * using the test database (test/helpers/test-app.ts) must leave this list; the list is checked by
 * tooling/server-pg-exclusions.test.ts.
 */
export const DATABASE_INDEPENDENT_SERVER_FILES = [
  'src/db/coalesce.test.ts',
  'src/db/prepared.test.ts',
  'src/services/csv-files.test.ts',
  'test/database.test.ts',
  'test/durability.test.ts',
  'test/https.test.ts',
  'test/pglite-named-statements.test.ts',
  'test/pglite-statistics.test.ts',
  'test/server-process.test.ts',
  'test/soak-flatness.test.ts',
  'test/tickets-pdf-pool.test.ts',
];

/**
 * One `vitest run` at the root runs every workspace's unit and integration tests (docs/decisions/064):
 * - project 'server' always runs on PGlite (DATABASE_URL emptied for its workers: empty means unset,
 *   apps/server/src/config.ts and the suite's helpers);
 * - project 'server-pg', only when DATABASE_URL is set, runs the same files on that PostgreSQL server
 *   (each file creates its own database there, test/helpers/test-app.ts); with several servers in
 *   DATABASE_URLS (`with-postgres.ts --clusters 2`), each worker uses its own
 *   (apps/server/test/helpers/postgres-per-worker.ts); the files that never reach that database
 *   (DATABASE_INDEPENDENT_SERVER_FILES) run in 'server' only;
 * - the web tests in two projects (docs/decisions/065): 'web' shares one module graph between the
 *   files of a worker (`isolate: false`), 'web-native' (the files on Capacitor's Android bridge)
 *   runs each file isolated;
 * - two test files at a time (`maxWorkers: 2`), not Vitest's default of cores − 1, which is one file
 *   at a time on our 2-core machines although most server files wait on child processes and sockets.
 */
export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      'packages/contract',
      { extends: './apps/server/vitest.config.ts', root: './apps/server', test: { name: 'server', env: { DATABASE_URL: '' } } },
      ...(postgresUrl
        ? [
            {
              extends: './apps/server/vitest.config.ts',
              root: './apps/server',
              test: {
                name: 'server-pg',
                env: { DATABASE_URL: postgresUrl },
                setupFiles: ['./test/helpers/postgres-per-worker.ts'],
                exclude: [...configDefaults.exclude, ...DATABASE_INDEPENDENT_SERVER_FILES],
              },
            },
          ]
        : []),
      'apps/web',
      'apps/web/vitest.native.config.ts',
      'tooling',
    ],
  },
});
