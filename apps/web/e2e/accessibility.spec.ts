/**
 * Issue 3: every screen passes axe-core with no violations (all of axe's rules, experimental ones
 * aside). Each test walks its screens and reports all their violations at once, so one run shows
 * all that is left to fix.
 */
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

test('every screen of the main job passes axe-core with no violations', async ({ page, fakeCamera, ticketPool }) => {
  const found: string[] = [];

  await openApp(page);
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
  found.push(...(await axeViolations(page, 'scanner-approved')));

  await scanWithCamera(page, fakeCamera, ticket.code);
  await expectVerdict(page, { isValid: false });
  found.push(...(await axeViolations(page, 'scanner-denied')));

  await page.goto('/no-such-page');
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  found.push(...(await axeViolations(page, 'not-found')));

  expect(found).toEqual([]);
});

test('the empty states and the default-day scanner pass axe-core with no violations', async ({ page }) => {
  const found: string[] = [];
  await openApp(page);
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
