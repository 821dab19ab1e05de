/**
 * End-to-end suite: Playwright on Debian's Chromium with a fake camera, against the real server
 * (one per worker, fresh data dir, embedded database). Run it with `npm run test:e2e` from the repo
 * root, which builds the web app first. Three projects: 'web' (every spec but the next two),
 * 'native' (native.spec.ts, issue 9) and 'phone-origin' (phone-origin.spec.ts, issue 25).
 * Decisions: docs/decisions/009, 030, 090.
 */
import { defineConfig } from '@playwright/test';
import { findChromium } from './e2e/support/chromium.ts';

// Fail at once, with the install command, rather than per test.
findChromium();

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results',
  // Two cores: two workers, each with its own server and browser.
  workers: 2,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['html', { outputFolder: './playwright-report', open: 'never' }]],
  use: {
    browserName: 'chromium',
    // The scanner is mobile-oriented (SPEC intro): a phone-sized viewport.
    viewport: { width: 412, height: 915 },
    permissions: ['camera'],
    locale: 'en-US',
    timezoneId: 'UTC',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    video: 'off',
  },
  projects: [
    // The browser app, as every browser runs it.
    { name: 'web', testIgnore: ['**/native.spec.ts', '**/phone-origin.spec.ts'] },
    // The native app's paths: the same build on Capacitor's real bridge with a stand-in of the Java side (docs/native.md).
    { name: 'native', testMatch: '**/native.spec.ts' },
    // The native app as a phone runs it: the build at the WebView's origin against the server at its
    // own address, one run on a WebView at the browser floor (issue 25, docs/decisions/090).
    { name: 'phone-origin', testMatch: '**/phone-origin.spec.ts' },
  ],
});
