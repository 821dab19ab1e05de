/**
 * Issue 3: every screen passes axe-core with no violations (all of axe's rules, experimental ones
 * aside). Each test walks its screens and reports all their violations at once, so one run shows
 * all that is left to fix.
 *
 * Issue 10 item 8: in both themes. Each walk runs three times: light (the device prefers light),
 * dark because the device prefers dark (`colorScheme: 'dark'`), and dark chosen with the theme
 * toggle on the login screen of a device that prefers light.
 */
import type { Page } from '@playwright/test';
import { axeViolations } from './support/axe.ts';
import { findEmptyStates, findLiveThreeDayEvent, todaysDayNumber } from './support/demo-scope.ts';
import { expect, test } from './support/fixtures.ts';
import {
  chooseDay,
  chooseEvent,
  chooseOrganization,
  expectVerdict,
  openApp,
  scanWithCamera,
  signIn,
  startScanning,
} from './support/main-job.ts';

// Axe judges the settled page: without motion, toasts do not fade in or out, so a half-transparent
// frame of a transition is not mistaken for a colour-contrast failure.
test.use({ reducedMotion: 'reduce' });

const themes = [
  { name: 'light', colorScheme: 'light', chooseDark: false },
  { name: 'dark (device)', colorScheme: 'dark', chooseDark: false },
  { name: 'dark (toggle)', colorScheme: 'light', chooseDark: true },
] as const;

/** Sets the theme of `theme` on the login screen and checks that <html> shows it. */
async function useTheme(page: Page, theme: (typeof themes)[number]): Promise<void> {
  if (theme.chooseDark) {
    await page.getByText('Dark', { exact: true }).click();
    await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
  }
  const isDark = theme.colorScheme === 'dark' || theme.chooseDark;
  await expect(page.locator('html')).toHaveClass(isDark ? /\bdark\b/ : /^(?!.*\bdark\b)/);
}

/** The verdict flash of the latest check has ended (axe judges the screen staff read after it). */
async function flashEnded(page: Page): Promise<void> {
  await expect(page.locator('[data-verdict]')).toHaveCount(0, { timeout: 5_000 });
}

for (const theme of themes) {
  test.describe(`${theme.name} theme`, () => {
    test.use({ colorScheme: theme.colorScheme });

    test('every screen of the main job passes axe-core with no violations', async ({ page, fakeCamera, ticketPool }) => {
      const found: string[] = [];

      await openApp(page);
      await useTheme(page, theme);
      found.push(...(await axeViolations(page, 'login')));

      await signIn(page);
      const { organization, event } = await findLiveThreeDayEvent(page.request);
      found.push(...(await axeViolations(page, 'organization-select')));

      await chooseOrganization(page, organization.name);
      await expect(page.getByText(event.title)).toBeVisible();
      found.push(...(await axeViolations(page, 'event-select')));

      await chooseEvent(page, event.title);
      found.push(...(await axeViolations(page, 'day-select')));

      // The day that is today: an all-day ticket is approved only on it (issue 15).
      await chooseDay(page, todaysDayNumber(event));
      found.push(...(await axeViolations(page, 'scanner')));

      await startScanning(page);
      found.push(...(await axeViolations(page, 'scanner-panel')));

      const ticket = ticketPool.take(`for "${event.title}" on all days`, (candidate) => candidate.eventTitle === event.title && candidate.days === 'all');
      await scanWithCamera(page, fakeCamera, ticket.code);
      await expectVerdict(page, { isValid: true, holderName: ticket.holderName });
      await flashEnded(page);
      found.push(...(await axeViolations(page, 'scanner-approved')));

      await scanWithCamera(page, fakeCamera, ticket.code);
      await expectVerdict(page, { isValid: false });
      await flashEnded(page);
      found.push(...(await axeViolations(page, 'scanner-denied')));

      await page.goto('/no-such-page');
      await expect(page.getByText('Oops! Page not found')).toBeVisible();
      found.push(...(await axeViolations(page, 'not-found')));

      expect(found).toEqual([]);
    });

    test('the empty states and the default-day scanner pass axe-core with no violations', async ({ page }) => {
      const found: string[] = [];
      await openApp(page);
      await useTheme(page, theme);
      await signIn(page);
      const { emptyOrganization, organization, eventWithoutDays } = await findEmptyStates(page.request);

      await chooseOrganization(page, emptyOrganization.name);
      await expect(page.getByText('No Events Found')).toBeVisible();
      found.push(...(await axeViolations(page, 'event-select-empty')));

      await page.getByRole('button', { name: 'Back' }).click();
      await chooseOrganization(page, organization.name);
      await chooseEvent(page, eventWithoutDays.title);
      await expect(page.getByText('No Event Days')).toBeVisible();
      found.push(...(await axeViolations(page, 'day-select-empty')));

      await page.getByRole('button', { name: 'Continue to Scanner' }).click();
      await expect(page.getByText('Scanning For')).toBeVisible();
      found.push(...(await axeViolations(page, 'scanner-default-day')));

      expect(found).toEqual([]);
    });
  });
}
