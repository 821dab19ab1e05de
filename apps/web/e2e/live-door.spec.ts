/**
 * The live door end to end (docs/decisions/117), on the real server and database: the demo supervisor
 * watches /events/:id/live for today in one browser context at a 320 px phone; a gate in another
 * context scans a ticket with the fake camera; the arrival shows on the live page within 5 s, on
 * the line of the list it was scanned at ('All tickets', the demo event's one list), with no tap.
 * The page passes axe in the light and dark themes. Screens go to e2e/artifacts/live-door-*.png.
 */
import { axeViolations } from './support/axe.ts';
import { DEMO_COLLEAGUE, DEMO_SUPERVISOR, findLiveThreeDayEvent, todaysDayNumber } from './support/demo-scope.ts';
import { admitsDay } from './support/demo-tickets.ts';
import { expect, test } from './support/fixtures.ts';
import { chooseDay, chooseEvent, chooseOrganization, expectVerdict, openApp, scanWithCamera, signIn, startScanning } from './support/main-job.ts';

test.use({ viewport: { width: 320, height: 640 }, reducedMotion: 'reduce' });

/** The figure of a list's line: 'N / M (p %)'. */
function checkedInOf(text: string | null): number {
  const match = /(\d+) \/ \d+ \(\d+ %\)/.exec(text ?? '');
  if (!match) throw new Error(`no figure in "${text}"`);
  return Number(match[1]);
}

test('a scan at a gate in another browser shows on the live door within 5 s, on its list', async ({ page, browser, fakeCamera, ticketPool, saveScreen }) => {
  test.setTimeout(120_000);
  await openApp(page);
  await signIn(page, DEMO_SUPERVISOR);
  const { organization, event } = await findLiveThreeDayEvent(page.request);
  const today = todaysDayNumber(event);
  await page.goto(`/events/${event._id}/live?day=${today}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Live door' })).toBeVisible();
  const line = page.getByRole('list', { name: 'Check-in lists' }).getByRole('listitem').filter({ hasText: 'All tickets' });
  await expect(line).toHaveText(/\d+ \/ \d+/);
  const before = checkedInOf(await line.textContent());
  expect(await axeViolations(page, 'live door')).toEqual([]);

  // The gate: another browser context (its own session), the fake camera, a ticket for today.
  const gate = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const gatePage = await gate.newPage();
  await openApp(gatePage);
  await signIn(gatePage, DEMO_COLLEAGUE);
  await chooseOrganization(gatePage, organization.name);
  await chooseEvent(gatePage, event.title);
  await chooseDay(gatePage, today);
  await startScanning(gatePage);
  const ticket = ticketPool.take(`a ticket of "${event.title}" for day ${today}`, (candidate) => candidate.eventTitle === event.title && admitsDay(candidate, today));
  await scanWithCamera(gatePage, fakeCamera, ticket.code);
  await expectVerdict(gatePage, { isValid: true, holderName: ticket.holderName });
  const scannedAt = Date.now();

  // The live page, untouched, shows it within 5 s on the list's line.
  await expect.poll(async () => checkedInOf(await line.textContent()), { timeout: 5_000, intervals: [250] }).toBe(before + 1);
  expect(Date.now() - scannedAt).toBeLessThan(5_000);
  await page.getByText('Show arrivals as a table').click();
  const table = page.getByRole('table', { name: 'Arrivals per 5 minutes and check-in list' });
  await expect(table.getByRole('columnheader', { name: 'All tickets' })).toBeVisible();
  await expect(table.getByRole('row').last().getByRole('cell').first()).not.toHaveText('0');
  // The chart (uPlot, its own chunk) drawn beside the table.
  await expect(page.getByTestId('arrivals-chart').locator('canvas')).toBeVisible();
  await saveScreen(page, 'live-door-320');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  // The next figures (2 s) redraw the chart in the dark theme's text colour.
  await page.waitForTimeout(2_500);
  await saveScreen(page, 'live-door-320-dark');
  expect(await axeViolations(page, 'live door, dark')).toEqual([]);
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await gate.close();
});
