/**
 * Issue 12 items 1 and 3–4 together, end to end, with the REAL server process stopped (its process
 * group killed) and started again on the same port and data: after one online visit that opened the
 * scanner (its door list downloaded), a reload with no server brings the app back — from the service
 * worker's precache, signed in, at the scanner of the day, marked 'Offline' — and a valid QR code
 * held to the camera is APPROVED marked 'Offline' from the door list; the queued check-in survives
 * another reload; once the server is back it is sent and the ticket is checked in on the server.
 * Decisions 052 (offline scanner), 055 (service worker), 056 (offline start).
 */
import { API_PREFIX, AttendeeSearchResponse, supervisorPaths } from '@gatecheck/contract';
import { expect } from './support/fixtures.ts';
import { expectVerdict, openScannerReadyForOffline, scanWithCamera, verdictCard } from './support/main-job.ts';
import { testWithOwnServer } from './support/own-server.ts';
import { startGatecheckServer } from './support/server.ts';

/** A server of this test's own, which the test stops and starts again on the same port and data. */
const withOwnServer = testWithOwnServer('offline-reload');


withOwnServer(
  'with the server stopped, the reloaded app approves a valid QR code offline, keeps the queue through another reload, and sends it once the server is back',
  async ({ page, ownServer, fakeCamera, saveScreen }) => {
    withOwnServer.setTimeout(240_000);
    // Online: to the scanner of today; the door list is downloaded and the service worker is active.
    const { event, day, tickets } = await openScannerReadyForOffline(page, ownServer.current.dataDir);
    const valid = tickets.takeForDay(event.title, day);
    await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state)).toBe('activated');

    // The outage: the server's process group is stopped for real, then the page is reloaded.
    const { dataDir, url } = ownServer.current;
    await ownServer.current.stop({ keepData: true });
    await page.reload();
    await expect(page).toHaveURL(/\/scanner$/);
    await expect(page.getByText('Scanning For')).toBeVisible();
    await expect(page.getByTestId('offline-indicator')).toBeVisible();
    await expect(page.getByTestId('last-synced')).toHaveText(/^Last synced \d{1,2}:\d{2}/);

    // A valid ticket at the camera (the scanner panel was open before the reload, so it is open
    // again): APPROVED, marked Offline, decided from the door list.
    await expect(page.getByRole('button', { name: 'Start Camera' })).toBeVisible();
    await scanWithCamera(page, fakeCamera, valid.code);
    await expectVerdict(page, { isValid: true, holderName: valid.holderName });
    await expect(verdictCard(page).getByText('Offline', { exact: true })).toBeVisible();
    await expect(page.getByTestId('waiting-count')).toHaveText('1 scan waiting to be sent');
    await expect(page.locator('[data-verdict]')).toHaveCount(0);
    await saveScreen(page, 'offline-reload-approved', { fullPage: false });

    // Another reload, still without a server: the queued check-in is still there.
    await page.reload();
    await expect(page.getByText('Scanning For')).toBeVisible();
    await expect(page.getByTestId('offline-indicator')).toBeVisible();
    await expect(page.getByTestId('waiting-count')).toHaveText('1 scan waiting to be sent');

    // The server is back on the same address: the queue is sent, the indicator goes.
    ownServer.current = await startGatecheckServer('offline-reload', { dataDir, port: Number(new URL(url).port) });
    await expect(page.getByTestId('waiting-count')).toHaveText('0 scans waiting to be sent', { timeout: 60_000 });
    await expect(page.getByTestId('offline-indicator')).toHaveCount(0, { timeout: 20_000 });
    await saveScreen(page, 'offline-reload-sent', { fullPage: false });

    // On the server: the ticket is checked in for the day.
    const search = await page.request.get(`${API_PREFIX}${supervisorPaths.attendeeSearch(event._id)}?q=${encodeURIComponent(valid.code)}&day=${day}`);
    expect(search.ok(), await search.text()).toBe(true);
    const attendee = AttendeeSearchResponse.parse(await search.json()).attendees.find((candidate) => candidate.code === valid.code);
    expect(attendee?.checkIn?.checkedInAt).toEqual(expect.any(String));
  },
);
