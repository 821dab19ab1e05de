/**
 * A Playwright `test` with a server of the test's own (`ownServer.current`), for specs that stop the
 * server for real and start it again on the same port and data (an outage, a restart). The page's
 * `baseURL` is that server; the fixture stops whatever server is current when the test ends.
 */
import { test } from './fixtures.ts';
import { type GatecheckServer, type StartOptions, startGatecheckServer } from './server.ts';

/** `test` with `ownServer`, started as `name` (its data dir and log file) with `options`. */
export function testWithOwnServer(name: string, options: StartOptions = {}) {
  return test.extend<{ ownServer: { current: GatecheckServer } }>({
    ownServer: async ({}, use) => {
      const holder = { current: await startGatecheckServer(name, options) };
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
