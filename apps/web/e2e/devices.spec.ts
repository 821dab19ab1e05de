/**
 * Door devices end to end (docs/decisions/107, 108, 116) on the real server and database: the demo
 * admin opens a VIP gate beside the event's 'All tickets' list and makes a setup QR code for 'All
 * tickets' on the devices page in /manage (320 px, dark, axe clean). The phone is the native app
 * (Capacitor's real Android bridge, the Java side played in the page: support/native-app.ts): on
 * its first screen it scans that QR code (the code on the admin's screen, decoded from its pixels)
 * and is set up without any password; whoever holds it gives their name ('Anna'). It scans a ticket
 * with ML Kit, APPROVED, and a supervisor's live door in a third browser shows the arrival within
 * 5 s on the 'All tickets' line, not the VIP gate's. With its network cut it admits another one
 * offline. The admin moves it to the VIP gate, unknown to the phone, which admits a third offline at
 * its old list (decision 129: the phone is that gate until it is told, so the second and the third
 * are recorded at the list they were made at, not at the VIP gate), and then to another event, and
 * the phone admits a fourth at its old event (decision 139: recorded there). The admin sees it online
 * and removes it. The phone's next tap shows 'This device was removed by your organizer', its door
 * list is gone, and its four check-ins are on the server, the scan log naming 'Anna (North gate 2)'.
 */
import { API_PREFIX, AttendeeSearchResponse, CheckInLists, checkInListsPath, ScanLogPage, supervisorPaths } from '@gatecheck/contract';
import type { Locator, Page } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { axeViolations } from './support/axe.ts';
import { DEMO_SUPERVISOR, todaysDayNumber, findLiveThreeDayEvent } from './support/demo-scope.ts';
import { readDemoTickets, TicketPool } from './support/demo-tickets.ts';
import { expect, test } from './support/fixtures.ts';
import { chooseDay, chooseEvent, chooseOrganization, expectVerdict, openApp, signIn, startScanning, verdictCard, verifyByHand } from './support/main-job.ts';
import { installNativeShell, nativeListenerCount, nativeScan, setNativeScanResult } from './support/native-app.ts';
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

/** The text of the QR code `image` shows, read from its pixels on screen. */
async function qrTextOf(image: Locator): Promise<string> {
  const png = PNG.sync.read(await image.screenshot());
  const text = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
  if (!text) throw new Error('the QR code on screen does not decode');
  return text;
}

/** A list's checked-in figure on the live door: the N of its line's 'N / M (p %)'. */
async function checkedInOn(line: Locator): Promise<number> {
  const match = /(\d+) \/ \d+ \(\d+ %\)/.exec((await line.textContent()) ?? '');
  if (!match) throw new Error(`no figure on the line "${await line.textContent()}"`);
  return Number(match[1]);
}

withOwnServer('an admin sets a native phone up by its QR code, it scans without a password, the live door shows it on its list, and once removed it stops with its offline scans kept', async ({ page, browser, ownServer, saveScreen }) => {
  test.setTimeout(180_000);
  const tickets = new TicketPool(readDemoTickets(ownServer.current.dataDir));

  // The admin makes a setup code on the devices page.
  await page.emulateMedia({ colorScheme: 'dark' });
  await openApp(page);
  await signIn(page);
  const { organization, event } = await findLiveThreeDayEvent(page.request);
  const day = todaysDayNumber(event);
  // A VIP gate beside the event's 'All tickets', so the live door has two lines to tell apart.
  const listsPath = `${API_PREFIX}${checkInListsPath(event._id)}`;
  const allTickets = CheckInLists.parse(await (await page.request.get(listsPath)).json()).lists[0];
  if (!allTickets) throw new Error('the event has no check-in list');
  const created = await page.request.post(listsPath, { data: { name: 'VIP gate' } });
  expect(created.status(), await created.text()).toBe(201);
  await chooseOrganization(page, organization.name);
  await page.getByRole('link', { name: 'Manage events' }).click();
  await page.getByRole('link', { name: 'Door devices' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Door devices' })).toBeVisible();
  await page.getByLabel('Event').selectOption({ label: event.title });
  await page.getByLabel('Check-in list').selectOption({ label: allTickets.name });
  await page.getByLabel('Device name').fill('North gate 2');
  await page.getByRole('button', { name: 'Make setup QR code' }).click();
  await expect(page.getByRole('img', { name: 'Setup QR code for North gate 2' })).toBeVisible();
  const link = await page.getByLabel('Setup link').inputValue();
  expect(link).toMatch(/\/enroll#token=[A-Za-z0-9_-]{43}$/);
  const setupCode = await qrTextOf(page.getByRole('img', { name: 'Setup QR code for North gate 2' }));
  expect(setupCode).toBe(link);
  await saveScreen(page, 'devices-setup-320-dark', { fullPage: true });
  expect(await axeViolations(page, 'devices page, dark, 320 px')).toEqual([]);

  // A supervisor watches the live door of the day in a browser of their own.
  const liveContext = await browser.newContext({ viewport: { width: 360, height: 740 }, reducedMotion: 'reduce' });
  const live = await liveContext.newPage();
  // The phone: the native app, first started; it scans the code on the admin's screen with ML Kit.
  const phoneContext = await browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
  const phone = await phoneContext.newPage();
  try {
    // New contexts of this test start at this test's own server (the address the setup link holds).
    const origin = new URL(link).origin;
    await live.goto(`${origin}/`);
    await expect(live).toHaveURL(/\/login$/);
    await signIn(live, DEMO_SUPERVISOR);
    await live.goto(`${origin}/events/${event._id}/live?day=${day}`);
    const lines = live.getByRole('list', { name: 'Check-in lists' }).getByRole('listitem');
    const allTicketsLine = lines.filter({ hasText: allTickets.name });
    const vipLine = lines.filter({ hasText: 'VIP gate' });
    await expect(allTicketsLine).toHaveText(/\d+ \/ \d+/);
    await expect(vipLine).toHaveText(/\d+ \/ \d+/);
    const before = { allTickets: await checkedInOn(allTicketsLine), vip: await checkedInOn(vipLine) };

    await installNativeShell(phone, 'granted');
    await phone.goto(`${origin}/`);
    await expect(phone).toHaveURL(/\/login$/);
    await setNativeScanResult(phone, setupCode);
    await phone.getByRole('button', { name: 'Scan setup QR code' }).click();
    await expect(phone).toHaveURL(/\/enroll$/);
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
    await phone.getByRole('button', { name: 'Start Camera' }).click();
    await expect.poll(() => nativeListenerCount(phone, 'BarcodeScanner', 'barcodesScanned')).toBe(1);
    await nativeScan(phone, online.code, 3);
    await expectVerdict(phone, { isValid: true, holderName: online.holderName });
    const scannedAt = Date.now();

    // The live door, untouched, shows it within 5 s on the line of the phone's list, not the VIP gate's.
    await expect.poll(() => checkedInOn(allTicketsLine), { timeout: 5_000, intervals: [250] }).toBe(before.allTickets + 1);
    expect(Date.now() - scannedAt).toBeLessThan(5_000);
    expect(await checkedInOn(vipLine)).toBe(before.vip);
    await saveScreen(live, 'devices-live-door', { fullPage: false });

    // Its network gone, it decides from its door list and keeps the admission to send.
    await phone.route(`**${API_PREFIX}/**`, (route) => route.abort());
    const offline = tickets.takeForDay(event.title, day);
    await verifyByHand(phone, offline.code);
    await expectVerdict(phone, { isValid: true, holderName: offline.holderName });
    await expect(verdictCard(phone).getByText('Offline', { exact: true })).toBeVisible();
    expect(await doorListCount(phone)).toBeGreaterThan(0);

    // The admin moves the phone to the VIP gate while it is offline (docs/decisions/129):
    // what it admitted at the event's list before the move is recorded there, not at the VIP gate,
    // and so is what it admits there after the move, not knowing of it (it is still that gate).
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
      expect(log.entries.find((entry) => entry.code === code && entry.verdict === 'approved')?.checkInListId).toBe(allTickets.id);
    }
  } finally {
    await phoneContext.close();
    await liveContext.close();
  }
});
