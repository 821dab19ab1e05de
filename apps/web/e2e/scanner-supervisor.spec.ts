/**
 * Issue 11 on the scanner screen itself, on the real server and database, at phone size (360 x 740):
 * the demo supervisor finds a guest by name with 'Find attendee' and checks them in (the verdict shows
 * as a scan's), undoes it from 'Recent scans' with a reason, types the code again (APPROVED, then
 * DENIED as already checked in), and the scan log lists all four. A staff member of the same
 * organization sees none of it, and the server refuses the search. Screens go to e2e/artifacts/.
 */
import { API_PREFIX, supervisorPaths } from '@gatecheck/contract';
import type { Page } from '@playwright/test';
import { axeViolations } from './support/axe.ts';
import { DEMO_COLLEAGUE, DEMO_SUPERVISOR, findLiveThreeDayEvent, todaysDayNumber } from './support/demo-scope.ts';
import { admitsDay } from './support/demo-tickets.ts';
import { expect, test } from './support/fixtures.ts';
import { chooseDay, chooseEvent, chooseOrganization, expectVerdict, openApp, screen, signIn, startScanning, verifyByHand } from './support/main-job.ts';

// A phone; axe judges the settled page (no half-faded toast mistaken for a contrast failure).
test.use({ viewport: { width: 360, height: 740 }, reducedMotion: 'reduce' });

/** Signs in as `account` and walks to the scanner of the live 3-day event for today; returns the event. */
async function openTodaysScannerAs(page: Page, account: { email: string; password: string }) {
  await openApp(page);
  await signIn(page, account);
  const scope = await findLiveThreeDayEvent(page.request);
  const today = todaysDayNumber(scope.event);
  await chooseOrganization(page, scope.organization.name);
  await chooseEvent(page, scope.event.title);
  await chooseDay(page, today);
  return { ...scope, today };
}

test('on the scanner a supervisor finds a guest by name, checks them in, undoes it with a reason; the code scans again and the log shows all four', async ({
  page,
  ticketPool,
  saveScreen,
}) => {
  const { event, today } = await openTodaysScannerAs(page, DEMO_SUPERVISOR);
  const ticket = ticketPool.take(`a ticket of "${event.title}" admitting day ${today}`, (candidate) => candidate.eventTitle === event.title && admitsDay(candidate, today));

  // Find by name, in lower case, from the scanner screen.
  await saveScreen(page, 'scanner-supervisor-idle', { fullPage: false });
  await screen(page).getByRole('button', { name: 'Find attendee' }).click();
  const sheet = page.getByRole('dialog', { name: 'Find attendee' });
  await sheet.getByLabel('Name or ticket code').fill(ticket.holderName.toLowerCase());
  const result = sheet.getByRole('listitem', { name: ticket.holderName }).filter({ hasText: ticket.code });
  await expect(result.getByText('Not checked in')).toBeVisible();
  await saveScreen(page, 'scanner-find-attendee', { fullPage: false });
  expect(await axeViolations(page, 'find attendee sheet')).toEqual([]);
  // The device's dark theme (theme 'System'): the sheet follows it and stays readable.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await saveScreen(page, 'scanner-find-attendee-dark', { fullPage: false });
  expect(await axeViolations(page, 'find attendee sheet, dark')).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });
  await result.getByRole('button', { name: 'Check in' }).click();

  // The sheet closes and the manual check-in shows as a scan's verdict.
  await expect(sheet).toHaveCount(0);
  await expectVerdict(page, { isValid: true, holderName: ticket.holderName });
  await saveScreen(page, 'scanner-manual-check-in-flash', { fullPage: false });
  // The full-screen flash ends by itself; then the result card is on the screen as after a scan.
  await expect(page.getByText('APPROVED', { exact: true })).toHaveCount(1);
  await saveScreen(page, 'scanner-manual-check-in', { fullPage: false });
  const counted = /Checked in (\d+) \/ (\d+)/.exec((await screen(page).getByText(/^Checked in \d+ \/ \d+$/).textContent()) ?? '');
  expect(counted).not.toBeNull();
  const [, checkedIn = '', validTickets = ''] = counted ?? [];

  // Undo it from 'Recent scans', with a reason.
  await screen(page).locator('summary', { hasText: 'Recent scans' }).click();
  const row = screen(page).getByRole('list', { name: 'Recent scans' }).getByRole('listitem').filter({ hasText: ticket.holderName });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Undo check-in' }).click();
  await row.getByLabel('Reason').fill('Admitted the wrong guest');
  await row.getByLabel('Reason').scrollIntoViewIfNeeded();
  await saveScreen(page, 'scanner-undo-reason', { fullPage: false });
  expect(await axeViolations(page, 'scanner undo reason')).toEqual([]);
  await row.getByRole('button', { name: 'Confirm undo' }).click();
  await expect(row.getByText(/^Check-in undone at \d\d:\d\d: Admitted the wrong guest$/)).toBeVisible();
  await expect(row.getByRole('button', { name: 'Undo check-in' })).toHaveCount(0);
  // The counts leave the undone check-in out.
  await expect(screen(page).getByText(`Checked in ${Number(checkedIn) - 1} / ${validTickets}`, { exact: true })).toBeVisible();
  await saveScreen(page, 'scanner-undone', { fullPage: false });

  // Typed at the gate again: admitted once more, then denied as already checked in.
  await startScanning(page);
  await verifyByHand(page, ticket.code);
  await expectVerdict(page, { isValid: true, holderName: ticket.holderName });
  await verifyByHand(page, ticket.code);
  await expectVerdict(page, { isValid: false, because: /Already checked in/i });

  // The scan log (supervisor tools) holds all four, newest first.
  await page.goBack();
  await expect(page).toHaveURL(/\/day-select$/);
  await page.getByRole('link', { name: `Supervisor tools (Day ${today})` }).click();
  const entries = page.getByRole('list', { name: 'Scan log entries' }).getByRole('listitem').filter({ hasText: ticket.code });
  await expect(entries).toHaveCount(4);
  await expect(entries.nth(0)).toContainText('Denied: Already checked in');
  await expect(entries.nth(1)).toContainText('Approved');
  await expect(entries.nth(1)).not.toContainText('(manual)');
  await expect(entries.nth(2)).toContainText('Undone: Admitted the wrong guest');
  await expect(entries.nth(3)).toContainText('Approved (manual)');
  await entries.nth(0).scrollIntoViewIfNeeded();
  await saveScreen(page, 'scanner-supervisor-scan-log', { fullPage: false });
});

test('a staff member sees no Find attendee and no Undo check-in, and the server refuses the search', async ({ page, ticketPool }) => {
  const { event, today } = await openTodaysScannerAs(page, DEMO_COLLEAGUE);
  const ticket = ticketPool.take(`a ticket of "${event.title}" admitting day ${today}`, (candidate) => candidate.eventTitle === event.title && admitsDay(candidate, today));

  await startScanning(page);
  await verifyByHand(page, ticket.code);
  await expectVerdict(page, { isValid: true, holderName: ticket.holderName });
  await screen(page).locator('summary', { hasText: 'Recent scans' }).click();
  const row = screen(page).getByRole('list', { name: 'Recent scans' }).getByRole('listitem').filter({ hasText: ticket.holderName });
  await expect(row.getByText('APPROVED')).toBeVisible();
  await expect(row.getByRole('button', { name: 'Undo check-in' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Find attendee' })).toHaveCount(0);

  await page.goBack();
  await expect(page).toHaveURL(/\/day-select$/);
  await expect(page.getByRole('link', { name: /Supervisor tools/ })).toHaveCount(0);
  const search = await page.request.get(`${API_PREFIX}${supervisorPaths.attendeeSearch(event._id)}?q=${encodeURIComponent(ticket.holderName)}&day=${today}`);
  expect(search.status()).toBe(403);
});
