/**
 * A new version of the web app never reloads a phone by itself (issue 12 item 1, decision 055):
 * when the server has a new build, its service worker installs in the background and waits; the
 * app offers 'Reload', and only that tap brings the new version in. The server here serves a copy
 * of the build, which the test changes as a deployment would.
 */
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './support/fixtures.ts';
import { openScannerForDay, startScanning } from './support/main-job.ts';
import { type GatecheckServer, startGatecheckServer } from './support/server.ts';

const WEB_DIST = fileURLToPath(new URL('../dist/', import.meta.url));

/** A server of this test's own on a copy of the web build (`webDir`), which the test may change. */
const withOwnBuild = test.extend<{ own: { server: GatecheckServer; webDir: string } }>({
  own: async ({}, use) => {
    const webDir = mkdtempSync(join(tmpdir(), 'gatecheck-web-build-'));
    cpSync(WEB_DIST, webDir, { recursive: true });
    // Only the plain files: the server would otherwise send the unchanged brotli copy of sw.js.
    rmSync(join(webDir, 'sw.js.br'), { force: true });
    rmSync(join(webDir, 'sw.js.gz'), { force: true });
    const server = await startGatecheckServer('app-update', { env: { WEB_DIST_DIR: webDir } });
    try {
      await use({ server, webDir });
    } finally {
      await server.stop();
      rmSync(webDir, { recursive: true, force: true });
    }
  },
  baseURL: async ({ own }, use) => {
    await use(own.server.url);
  },
});

withOwnBuild('a new version waits for a tap on Reload and never reloads the scanner by itself', async ({ page, own, saveScreen }) => {
  await openScannerForDay(page, 'today');
  // The first visit's worker controls this page at once (clientsClaim), so a new one must wait.
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  // Mid-scan: the scanner panel is open and a ticket ID is half typed.
  await startScanning(page);
  await page.getByLabel('Or enter ticket ID manually:').fill('GC-HALF-TYPED');
  // A mark on this page load: a reload would wipe it.
  await page.evaluate(() => {
    (window as unknown as { loadMark?: string }).loadMark = 'first load';
  });

  // A deployment: the server now has a different service worker.
  appendFileSync(join(own.webDir, 'sw.js'), `\n// a new version ${Date.now()}\n`);
  expect(readFileSync(join(own.webDir, 'sw.js'), 'utf8')).toContain('a new version');
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    await registration?.update();
  });

  const prompt = page.getByText('A new version of Gatecheck is ready');
  await expect(prompt).toBeVisible();
  await saveScreen(page, 'app-update-prompt', { fullPage: false });
  // Nothing reloaded: the same page load, the scan as it was, the new worker waiting.
  await page.waitForTimeout(2_000);
  expect(await page.evaluate(() => (window as unknown as { loadMark?: string }).loadMark)).toBe('first load');
  await expect(page.getByLabel('Or enter ticket ID manually:')).toHaveValue('GC-HALF-TYPED');
  expect(await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting))).toBe(true);

  // The tap: the new worker takes over and the app reloads once, back at the scanner.
  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Reload' }).click()]);
  await expect(page).toHaveURL(/\/scanner$/);
  await expect(page.getByText('Scanning For')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { loadMark?: string }).loadMark)).toBeUndefined();
  await expect(prompt).toHaveCount(0);
  expect(await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting))).toBe(false);
});
