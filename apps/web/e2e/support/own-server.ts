/**
 * A test with a server of its own (`ownServer.current`), which the test may stop for real and start
 * again on the same port and data (`startGatecheckServer(name, { dataDir, port })`), with the page's
 * `baseURL` pointing at it. For outages: failures.spec.ts, offline.spec.ts (issue 12).
 */
import { test } from './fixtures.ts';
import { type GatecheckServer, startGatecheckServer } from './server.ts';

/** `test` with `ownServer`, a server named `name` (its log is `e2e/artifacts/server-<name>.log`). */
export function testWithOwnServer(name: string) {
  return test.extend<{ ownServer: { current: GatecheckServer } }>({
    ownServer: async ({}, use) => {
      const holder = { current: await startGatecheckServer(name) };
      try {
        await use(holder);
      } finally {
        await holder.current.stop();
      }
    },
    baseURL: async ({ ownServer }, use) => {
      await use(ownServer.current.url);
    },
  });
}
