/**
 * Playwright fixtures of the end-to-end suite. Import `test` and `expect` from here, not from
 * `@playwright/test`.
 *
 * Per worker (a worker runs its spec files one after another): a real server on a fresh data dir
 * and a free port, a fake camera file, and Debian's Chromium playing that file as its camera.
 * Per test: `baseURL` pointing at the worker's server, a pool of unused demo tickets, and
 * `saveScreen(page, name, options?)`, which stores a screenshot (full page by default) as `e2e/artifacts/<name>.png` and
 * attaches it to the report.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Page, test as base, expect } from '@playwright/test';
import { chromiumArgs, findChromium } from './chromium.ts';
import { TicketPool, readDemoTickets } from './demo-tickets.ts';
import { type FakeCamera, createFakeCamera } from './fake-camera.ts';
import { type GatecheckServer, startGatecheckServer } from './server.ts';

/** Where screenshots of every screen go (gitignored); the README copies `scanner-approved.png`. */
const ARTIFACTS_DIR = fileURLToPath(new URL('../artifacts/', import.meta.url));

interface WorkerFixtures {
  gatecheckServer: GatecheckServer;
  fakeCamera: FakeCamera;
  ticketPool: TicketPool;
}

interface TestFixtures {
  /**
   * Saves a screenshot of `page` as `e2e/artifacts/<name>.png` and attaches it to the test: the
   * full page, or with `{ fullPage: false }` only what is in the viewport (what staff see).
   */
  saveScreen: (page: Page, name: string, options?: { fullPage?: boolean }) => Promise<void>;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  fakeCamera: [
    async ({}, use, workerInfo) => {
      const path = join(tmpdir(), `gatecheck-camera-${process.pid}-${workerInfo.workerIndex}.y4m`);
      await use(createFakeCamera(path));
      rmSync(path, { force: true });
    },
    { scope: 'worker' },
  ],

  launchOptions: [
    async ({ fakeCamera }, use) => {
      await use({ executablePath: findChromium(), args: chromiumArgs(fakeCamera.path) });
    },
    { scope: 'worker' },
  ],

  gatecheckServer: [
    async ({}, use, workerInfo) => {
      const server = await startGatecheckServer(`worker-${workerInfo.workerIndex}`);
      try {
        await use(server);
      } finally {
        await server.stop();
      }
    },
    { scope: 'worker', timeout: 180_000 },
  ],

  ticketPool: [
    async ({ gatecheckServer }, use) => {
      await use(new TicketPool(readDemoTickets(gatecheckServer.dataDir)));
    },
    { scope: 'worker' },
  ],

  baseURL: async ({ gatecheckServer }, use) => {
    await use(gatecheckServer.url);
  },

  saveScreen: async ({}, use, testInfo) => {
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await use(async (page, name, { fullPage = true } = {}) => {
      const path = join(ARTIFACTS_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage, animations: 'disabled' });
      await testInfo.attach(name, { path, contentType: 'image/png' });
    });
  },
});

export { expect };
