/**
 * Issue 10 item 8: the dark theme on a 360x740 phone whose device prefers dark — login, day select,
 * the scanner with the APPROVED and DENIED flashes and the result cards after them — saved as
 * e2e/artifacts/dark-*.png to be looked at. The theme follows the device until a choice is made on
 * the device, and that choice is kept across a reload. Axe in the dark theme on the screens that
 * accessibility.spec.ts does not walk (account screens) and on both flashes.
 */
import { axeViolations } from './support/axe.ts';
import { captureFlashes, capturedFlashes, clearFrozenFlashes, freezeNextFlash, frozenFlashContrast } from './support/flash-capture.ts';
import { expect, test } from './support/fixtures.ts';
import { chooseDay, chooseEvent, chooseOrganization, expectVerdict, openApp, signIn, startScanning, verifyByHand } from './support/main-job.ts';
import { findLiveThreeDayEvent, todaysDayNumber } from './support/demo-scope.ts';

test.use({ viewport: { width: 360, height: 740 }, colorScheme: 'dark', hasTouch: true });

test('a device that prefers dark gets the dark theme on every screen, flashes included', async ({ page, ticketPool, saveScreen }) => {
  await captureFlashes(page);
  const html = page.locator('html');
  await openApp(page);
  await expect(html).toHaveClass(/\bdark\b/);
  await expect(page.getByRole('radio', { name: 'System' })).toBeChecked();
  await saveScreen(page, 'dark-login', { fullPage: false });

  await signIn(page);
  const { organization, event } = await findLiveThreeDayEvent(page.request);
  await chooseOrganization(page, organization.name);
  await chooseEvent(page, event.title);
  await saveScreen(page, 'dark-day-select', { fullPage: false });

  await chooseDay(page, todaysDayNumber(event));
  await startScanning(page);
  const ticket = ticketPool.take(`for "${event.title}" on all days`, (candidate) => candidate.eventTitle === event.title && candidate.days === 'all');
  await freezeNextFlash(page);
  await verifyByHand(page, ticket.code);
  const approvedContrast = await frozenFlashContrast(page);
  await saveScreen(page, 'dark-flash-approved', { fullPage: false });
  await clearFrozenFlashes(page);
  expect(approvedContrast.violations).toEqual([]);
  expect(approvedContrast.checked).toBeGreaterThan(0);
  expect((await capturedFlashes(page)).at(-1)?.verdict).toBe('approved');
  await expect(page.locator('[data-verdict]')).toHaveCount(0, { timeout: 3_000 });
  await expectVerdict(page, { isValid: true, holderName: ticket.holderName });
  await saveScreen(page, 'dark-scanner-approved', { fullPage: false });

  await freezeNextFlash(page);
  await verifyByHand(page, ticket.code);
  const deniedContrast = await frozenFlashContrast(page);
  await saveScreen(page, 'dark-flash-denied', { fullPage: false });
  await clearFrozenFlashes(page);
  expect(deniedContrast.violations).toEqual([]);
  expect(deniedContrast.checked).toBeGreaterThan(0);
  expect((await capturedFlashes(page)).at(-1)?.verdict).toBe('denied');
  await expect(page.locator('[data-verdict]')).toHaveCount(0, { timeout: 3_000 });
  await expectVerdict(page, { isValid: false, because: /^Already checked in/ });
  await saveScreen(page, 'dark-scanner-denied', { fullPage: false });
  await saveScreen(page, 'dark-scanner-denied-full');

  // The choice on this device beats the device's setting, and is kept across a reload.
  await page.getByText('Light', { exact: true }).click();
  await expect(html).not.toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(page.getByText('Scanning For')).toBeVisible();
  await expect(html).not.toHaveClass(/\bdark\b/);
  await expect(page.getByRole('radio', { name: 'Light' })).toBeChecked();
  await saveScreen(page, 'light-scanner-chosen', { fullPage: false });
});

test('in the dark theme the account screens and the organization and event lists pass axe-core with no violations', async ({ page }) => {
  const found: string[] = [];
  await openApp(page);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  found.push(...(await axeViolations(page, 'dark forgot-password')));

  await openApp(page);
  await signIn(page);
  found.push(...(await axeViolations(page, 'dark organization-select')));
  const { organization } = await findLiveThreeDayEvent(page.request);
  await chooseOrganization(page, organization.name);
  found.push(...(await axeViolations(page, 'dark event-select')));

  await page.getByRole('link', { name: 'Change password' }).click();
  await expect(page.getByRole('heading', { name: 'Change password' })).toBeVisible();
  found.push(...(await axeViolations(page, 'dark change-password')));
  await expect(page.getByRole('radio', { name: 'System' })).toBeChecked();

  expect(found).toEqual([]);
});
