/**
 * Door devices end to end (docs/decisions/107, 108, 116) on the real server and database: the demo
 * admin makes a setup QR code on the devices page in /manage (320 px, dark, axe clean); a phone in
 * a browser context of its own opens the code's link, is set up without any password, gives the
 * name of whoever scans ('Anna'), scans a ticket APPROVED and, with its network cut, another one
 * APPROVED offline. The admin moves it to a new VIP gate, unknown to the phone, which admits a third
 * offline at its old list (decision 129: the phone is that gate until it is told, so the second and
 * the third are recorded at the list they were made at, not at the VIP gate), and then to another
 * event, and the phone admits a fourth at its old event (decision 139: recorded there). The admin
 * sees it online and removes it. The phone's next tap shows 'This device was removed by your
 * organizer', its door list is gone, and its four check-ins are on the server, the scan log naming
 * 'Anna (North gate 2)'.
 */
import { API_PREFIX, AttendeeSearchResponse, CheckInLists, checkInListsPath, ScanLogPage, supervisorPaths } from '@gatecheck/contract';
import type { Page } from '@playwright/test';
import { axeViolations } from './support/axe.ts';
import { todaysDayNumber, findLiveThreeDayEvent } from './support/demo-scope.ts';
import { readDemoTickets, TicketPool } from './support/demo-tickets.ts';
import { expect, test } from './support/fixtures.ts';
import { chooseDay, chooseEvent, chooseOrganization, expectVerdict, openApp, signIn, startScanning, verdictCard, verifyByHand } from './support/main-job.ts';
import { testWithOwnServer } from './support/own-server.ts';

const withOwnServer = testWithOwnServer('devices');
withOwnServer.use({ viewport: { width: 320, height: 640 }, hasTouch: true, isMobile: true });

/** The door lists kept in this page's IndexedDB (the offline store of the scanner). */
function doorListCount(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const opened = indexedDB.open('gatecheck-offline');
        opened.onerror = () => reject(new Error('cannot open the offline store'));
        opened.onsuccess = () => {
          const db = opened.result;
          const counted = db.transaction('doorLists').objectStore('doorLists').count();
          counted.onsuccess = () => {
            resolve(counted.result);
            db.close();
          };
        };
      }),
  );
}

withOwnServer('an admin sets a phone up by a QR code, it scans without a password, and once removed it stops with its offline scans kept', async ({ page, browser, ownServer, saveScreen }) => {
  test.setTimeout(180_000);
  const tickets = new TicketPool(readDemoTickets(ownServer.current.dataDir));

  // The admin makes a setup code on the devices page.
  await page.emulateMedia({ colorScheme: 'dark' });
  await openApp(page);
  await signIn(page);
  const { organization, event } = await findLiveThreeDayEvent(page.request);
  const day = todaysDayNumber(event);
  await chooseOrganization(page, organization.name);
  await page.getByRole('link', { name: 'Manage events' }).click();
  await page.getByRole('link', { name: 'Door devices' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Door devices' })).toBeVisible();
  await page.getByLabel('Event').selectOption({ label: event.title });
  await page.getByLabel('Device name').fill('North gate 2');
  await page.getByRole('button', { name: 'Make setup QR code' }).click();
  await expect(page.getByRole('img', { name: 'Setup QR code for North gate 2' })).toBeVisible();
  const link = await page.getByLabel('Setup link').inputValue();
  expect(link).toMatch(/\/enroll#token=[A-Za-z0-9_-]{43}$/);
  await saveScreen(page, 'devices-setup-320-dark', { fullPage: true });
  expect(await axeViolations(page, 'devices page, dark, 320 px')).toEqual([]);

  // The phone opens the link: set up by one tap, no password; whoever holds it gives their name.
  const phoneContext = await browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
  const phone = await phoneContext.newPage();
  try {
    await phone.goto(link);
    await phone.getByRole('button', { name: 'Set up this device' }).click();
    await expect(phone.getByRole('heading', { name: 'Who is scanning?' })).toBeVisible();
    await saveScreen(phone, 'devices-shift', { fullPage: false });
    await phone.getByLabel('Your name').fill('Anna');
    await phone.getByRole('button', { name: 'Start scanning' }).click();
    await chooseOrganization(phone, organization.name);
    await chooseEvent(phone, event.title);
    await chooseDay(phone, day);
    await startScanning(phone);
    await expect(phone.getByTestId('last-synced')).toHaveText(/^Last synced \d{1,2}:\d{2}/);
    // A device has no password to change and no person to sign out.
    await expect(phone.getByRole('button', { name: 'Logout' })).toHaveCount(0);

    const online = tickets.takeForDay(event.title, day);
    await verifyByHand(phone, online.code);
    await expectVerdict(phone, { isValid: true, holderName: online.holderName });

    // Its network gone, it decides from its door list and keeps the admission to send.
    await phone.route(`**${API_PREFIX}/**`, (route) => route.abort());
    const offline = tickets.takeForDay(event.title, day);
    await verifyByHand(phone, offline.code);
    await expectVerdict(phone, { isValid: true, holderName: offline.holderName });
    await expect(verdictCard(phone).getByText('Offline', { exact: true })).toBeVisible();
    expect(await doorListCount(phone)).toBeGreaterThan(0);

    // The admin opens a VIP gate and moves the phone there while it is offline (docs/decisions/129):
    // what it admitted at the event's list before the move is recorded there, not at the VIP gate,
    // and so is what it admits there after the move, not knowing of it (it is still that gate).
    const listsPath = `${API_PREFIX}${checkInListsPath(event._id)}`;
    const allTickets = CheckInLists.parse(await (await page.request.get(listsPath)).json()).lists[0];
    const created = await page.request.post(listsPath, { data: { name: 'VIP gate' } });
    expect(created.status(), await created.text()).toBe(201);
    await page.reload();
    const card = page.getByRole('listitem', { name: 'North gate 2' });
    await card.getByRole('button', { name: 'Change North gate 2' }).click();
    await card.getByLabel('Check-in list').selectOption({ label: 'VIP gate' });
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(card).toContainText(`${event.title} · VIP gate`);
    const afterMove = tickets.takeForDay(event.title, day);
    await verifyByHand(phone, afterMove.code);
    await expectVerdict(phone, { isValid: true, holderName: afterMove.holderName });

    // Then to another event, still unknown to the phone, which admits a fourth at its old event
    // (docs/decisions/139: that event still takes the scans the phone made there before it knew).
    await card.getByRole('button', { name: 'Change North gate 2' }).click();
    const eventTitles = await card.getByLabel('Event').locator('option').allTextContents();
    const otherEvent = eventTitles.find((title) => title !== event.title);
    if (!otherEvent) throw new Error('the demo organization has one event only');
    await card.getByLabel('Event').selectOption({ label: otherEvent });
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(card).toContainText(otherEvent);
    const afterEventMove = tickets.takeForDay(event.title, day);
    await verifyByHand(phone, afterEventMove.code);
    await expectVerdict(phone, { isValid: true, holderName: afterEventMove.holderName });

    // The admin sees the phone (seen just now) and removes it.
    await page.reload();
    await expect(card).toContainText('Online');
    // What online and last seen mean, said plainly: the app reports them only while it is open.
    await expect(page.getByText('Online and last seen are reported by the Gatecheck app while it is open on the phone.', { exact: false })).toBeVisible();
    await card.getByRole('button', { name: 'Remove North gate 2' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove device' }).click();
    await expect(card).toContainText('Removed');
    await expect(card.getByRole('button', { name: 'Remove North gate 2' })).toHaveCount(0);
    await card.scrollIntoViewIfNeeded();
    await saveScreen(page, 'devices-list-320-dark', { fullPage: false });

    // Its network back, the phone's next tap shows the removal, and nothing of the door stays.
    await phone.unroute(`**${API_PREFIX}/**`);
    await verifyByHand(phone, tickets.takeForDay(event.title, day).code);
    await expect(phone).toHaveURL(/\/login$/);
    await expect(phone.getByText('This device was removed by your organizer')).toBeVisible();
    await expect(phone.getByText('Verification Error')).toHaveCount(0);
    await expect.poll(() => doorListCount(phone)).toBe(0);
    await saveScreen(phone, 'devices-removed', { fullPage: false });

    // Its three admissions are on the server, the scan log naming who scanned.
    for (const admitted of [offline, afterMove, afterEventMove]) {
      await expect
        .poll(async () => {
          const search = await page.request.get(`${API_PREFIX}${supervisorPaths.attendeeSearch(event._id)}?q=${encodeURIComponent(admitted.code)}&day=${day}`);
          const attendee = AttendeeSearchResponse.parse(await search.json()).attendees.find((candidate) => candidate.code === admitted.code);
          return attendee?.checkIn?.checkedInAt ?? null;
        })
        .toEqual(expect.any(String));
    }
    const log = ScanLogPage.parse(await (await page.request.get(`${API_PREFIX}${supervisorPaths.scanLog(event._id)}?day=${day}&limit=200`)).json());
    for (const code of [online.code, offline.code, afterMove.code, afterEventMove.code]) {
      expect(log.entries.find((entry) => entry.code === code && entry.verdict === 'approved')?.userName).toBe('Anna (North gate 2)');
    }
    // Made at the event's list, the second before the moves and the third and fourth after them, before the phone heard of them.
    for (const code of [offline.code, afterMove.code, afterEventMove.code]) {
      expect(log.entries.find((entry) => entry.code === code && entry.verdict === 'approved')?.checkInListId).toBe(allTickets?.id);
    }
  } finally {
    await phoneContext.close();
  }
});
