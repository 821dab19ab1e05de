import { defineConfig } from 'vitest/config';

/**
 * The fault suite (`npm run test:faults`, issue 27): tests that stop databases, fill disks and kill
 * a Patroni cluster's primary for real and take minutes, so they stay out of `npm test`'s projects;
 * `.ci/run` runs them after it. One file at a time: each owns a PostgreSQL cluster or a mount and
 * measures answer times.
 */
export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'faults',
    include: ['test/faults/**/*.faults.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    globalSetup: ['./test/helpers/build-server.ts'],
  },
});
