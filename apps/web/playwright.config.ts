/**
 * End-to-end suite: Playwright on Debian's Chromium with a fake camera, against the real server
 * (one per worker, fresh data dir, embedded database). Run it with `npm run test:e2e` from the repo
 * root, which builds the web app first. Decisions: docs/decisions/009.
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
});
