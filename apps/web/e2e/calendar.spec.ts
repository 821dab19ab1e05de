/**
 * Issue 15 item 4, end to end: check-ins follow the event's calendar. A draft event is listed but
 * cannot be chosen; the day list marks the day that is today at the venue and warns on the others;
 * the scanner header warns when the chosen day is not today, and a ticket scanned on it is DENIED
 * with the words naming today's day. The demo seed keeps the live event's day that is today.
 */
import { formatEventDate } from '@gatecheck/contract';
import { findEventsWithStatus, findLiveThreeDayEvent, todaysDayNumber } from './support/demo-scope.ts';
import { expect, test } from './support/fixtures.ts';
import { chooseDay, chooseEvent, chooseOrganization, dayCard, expectVerdict, openApp, screen, signIn, startScanning, verifyByHand } from './support/main-job.ts';

test('a draft event is shown but cannot be chosen, and says why', async ({ page, saveScreen }) => {
  await openApp(page);
  await signIn(page);
  const [draft] = await findEventsWithStatus(page.request, 'draft');
  if (!draft) throw new Error('The demo seed needs a draft event.');
  await chooseOrganization(page, draft.organization.name);
  await expect(page.getByText('Loading events...')).toHaveCount(0);

  const card = screen(page).getByRole('button', { name: new RegExp(draft.event.title) });
  await expect(card).toBeVisible();
  await expect(card).toBeDisabled();
  await expect(card.getByText('Draft — not open for scanning yet')).toBeVisible();
  await saveScreen(page, 'event-select-draft');
  await card.click({ force: true });
  await expect(page).toHaveURL(/\/event-select$/);
});

test("the day list marks today at the venue and warns on another day; the scanner header warns, and a ticket there is denied naming today's day", async ({
  page,
  ticketPool,
  saveScreen,
}) => {
  await openApp(page);
  await signIn(page);
  const { organization, event } = await findLiveThreeDayEvent(page.request);
  const today = todaysDayNumber(event);
  const other = event.eventDays.find((day) => day.day !== today);
  const todays = event.eventDays.find((day) => day.day === today);
  if (!other || !todays) throw new Error('The live demo event needs today and another day.');
  await chooseOrganization(page, organization.name);
  await chooseEvent(page, event.title);

  await expect(dayCard(page, today).getByText('Today', { exact: true })).toBeVisible();
  await expect(dayCard(page, today).getByRole('note')).toHaveCount(0);
  const otherWarning = dayCard(page, other.day).getByRole('note');
  await expect(otherWarning).toContainText(`Not today — Day ${other.day} (${other.name})`);
  await expect(otherWarning).toContainText(`Today is Day ${today}, ${formatEventDate(todays.date)}. Tickets will be denied.`);
  await saveScreen(page, 'day-select-not-today');

  await chooseDay(page, other.day);
  const header = page.locator('header');
  await expect(header.getByRole('note')).toContainText(`Not today — Day ${other.day} (${other.name})`);
  await saveScreen(page, 'scanner-not-today');

  await startScanning(page);
  const ticket = ticketPool.take(`for "${event.title}" on all days`, (candidate) => candidate.eventTitle === event.title && candidate.days === 'all');
  await verifyByHand(page, ticket.code);
  await expectVerdict(page, { isValid: false, because: `Today is Day ${today}, ${formatEventDate(todays.date)}.` });

  // The same ticket on the day that is today: no warning, APPROVED.
  await page.getByRole('button', { name: 'Back' }).click();
  await chooseDay(page, today);
  await expect(page.locator('header').getByRole('note')).toHaveCount(0);
  await startScanning(page);
  await verifyByHand(page, ticket.code);
  await expectVerdict(page, { isValid: true, holderName: ticket.holderName });
});
