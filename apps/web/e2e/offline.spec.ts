/**
 * Issue 12 end to end, at a 360x740 phone, with the REAL server process stopped (its whole process
 * group killed, not network emulation) while the page stays open, and started again on the same
 * port and data: the scanner decides from the door list it downloaded — a valid ticket is APPROVED
 * marked 'Offline', the same again DENIED, an unknown code DENIED, a ticket another gate checked in
 * before the last download DENIED — and queues each decision; the queue survives a reload; after the
 * restart every one reaches the server within 60 s with its scan time (read back through the API), and a ticket another gate
 * checked in after the last download is flagged 'Conflict' and listed under 'Conflicts'.
 * Screenshots: e2e/artifacts/offline-*.png.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { API_PREFIX, AttendeeSearchResponse, OfflineConflictList, apiPaths, offlinePaths, supervisorPaths, type VerifyTicketRequest } from '@gatecheck/contract';
import { expect, test } from './support/fixtures.ts';
import { captureFlashes, clearFrozenFlashes, freezeNextFlash, frozenFlash } from './support/flash-capture.ts';
import { cardTicketText, expectVerdict, openScannerReadyForOffline, screen, verdictCard, verifyByHand } from './support/main-job.ts';
import { testWithOwnServer } from './support/own-server.ts';
import { startGatecheckServer } from './support/server.ts';

/** A server of this test's own, which the test stops and starts again on the same port and data. */
const withOwnServer = testWithOwnServer('offline');

withOwnServer.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

/** Another gate checks `code` in online, through the API (the same verify the app calls, SPEC §7). */
async function checkInAtAnotherGate(page: Page, body: Omit<VerifyTicketRequest, 'scanId'>): Promise<void> {
  const response = await page.request.post(`${API_PREFIX}${apiPaths.verifyTicket}`, { data: { ...body, scanId: randomUUID() } });
  expect(response.ok(), await response.text()).toBe(true);
  expect(await response.json()).toMatchObject({ isValid: true });
}


withOwnServer(
  'with the server stopped the scanner decides from its door list, marked Offline, and every offline check-in reaches the server with its scan time after the restart',
  async ({ page, ownServer, saveScreen }) => {
    test.setTimeout(300_000);
    await captureFlashes(page);
    const { event, day, tickets } = await openScannerReadyForOffline(page, ownServer.current.dataDir);
    const valid = tickets.takeForDay(event.title, day);
    const knownAtOtherGate = tickets.takeForDay(event.title, day);
    const laterAtOtherGate = tickets.takeForDay(event.title, day);

    // Another gate admits one ticket, and the device downloads the change ('Sync now'); then that
    // gate admits another, which this device's list never learns before the outage.
    await checkInAtAnotherGate(page, { eventId: event._id, qrCode: knownAtOtherGate.code, day });
    const download = page.waitForResponse((response) => response.url().includes(`${offlinePaths.doorList(event._id, day)}?since=`) && response.ok());
    await page.getByRole('button', { name: 'Sync now' }).click();
    await download;
    await expect(page.getByRole('button', { name: 'Sync now' })).toBeEnabled();
    await checkInAtAnotherGate(page, { eventId: event._id, qrCode: laterAtOtherGate.code, day });

    // The outage: the server's process group is stopped for real; the page stays open.
    const { dataDir, url } = ownServer.current;
    await ownServer.current.stop({ keepData: true });
    const outageStartedAt = Date.now();

    await freezeNextFlash(page);
    await verifyByHand(page, valid.code);
    await expectVerdict(page, { isValid: true, holderName: valid.holderName });
    await expect(verdictCard(page).getByText('Offline', { exact: true })).toBeVisible();
    await expect(frozenFlash(page)).toContainText('APPROVED');
    await expect(frozenFlash(page)).toContainText('Offline');
    await saveScreen(page, 'offline-flash-approved', { fullPage: false });
    await clearFrozenFlashes(page);
    // The real flash ends after a second; then the card is what staff see.
    await expect(page.locator('[data-verdict]')).toHaveCount(0);
    await saveScreen(page, 'offline-approved', { fullPage: false });

    await verifyByHand(page, valid.code);
    await expectVerdict(page, { isValid: false, because: /^Already checked in/ });
    await expect(verdictCard(page).getByText('Offline', { exact: true })).toBeVisible();

    await verifyByHand(page, 'NO-SUCH-TICKET-0000');
    await expectVerdict(page, { isValid: false, because: 'Ticket not found' });
    await expect(verdictCard(page).getByText('Offline', { exact: true })).toBeVisible();
    // Two failures in a row: the device now decides at once.
    await expect(page.getByText('Offline mode: tickets are checked on this device')).toBeVisible();

    await verifyByHand(page, knownAtOtherGate.code);
    await expectVerdict(page, { isValid: false, because: /^Already checked in/ });

    await verifyByHand(page, laterAtOtherGate.code);
    await expectVerdict(page, { isValid: true, holderName: laterAtOtherGate.holderName });
    await expect(page.getByTestId('waiting-count')).toHaveText('5 scans waiting to be sent');
    const outageEndedAt = Date.now();
    await expect(page.locator('[data-verdict]')).toHaveCount(0);
    // The offline line in the middle of the viewport, clear of the toasts' band at the top.
    await page.getByRole('region', { name: 'Offline check-in' }).evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await saveScreen(page, 'offline-waiting', { fullPage: false });

    // The server is back (same port and data), but this device's uploads do not get through yet:
    // the queue survives a reload of the page (IndexedDB), the last verdict still says 'Offline'.
    const uploadPath = `**${API_PREFIX}${offlinePaths.offlineScans(event._id, day)}`;
    await page.route(uploadPath, (route) => route.abort());
    ownServer.current = await startGatecheckServer('offline', { dataDir, port: Number(new URL(url).port) });
    const restartedAt = Date.now();
    await page.reload();
    await expect(page.getByText('Scanning For')).toBeVisible();
    await expect(page.getByTestId('last-synced')).toHaveText(/^Last synced \d{1,2}:\d{2}/);
    await expect(page.getByTestId('waiting-count')).toHaveText('5 scans waiting to be sent');
    await expect(verdictCard(page).getByText('Offline', { exact: true })).toBeVisible();

    // Uploads get through again: the outbox goes out within 60 s.
    await page.unroute(uploadPath);
    await expect(page.getByTestId('waiting-count')).toHaveText('0 scans waiting to be sent', { timeout: 60_000 });
    await expect(page.getByText('Offline mode: tickets are checked on this device')).toHaveCount(0);

    // Through the API: the offline admission is the ticket's check-in, at its scan time (during the
    // outage), not at the time the server received it.
    const search = await page.request.get(`${API_PREFIX}${supervisorPaths.attendeeSearch(event._id)}?q=${encodeURIComponent(valid.code)}&day=${day}`);
    expect(search.ok()).toBe(true);
    const attendee = AttendeeSearchResponse.parse(await search.json()).attendees.find((candidate) => candidate.code === valid.code);
    const checkedInAt = Date.parse(attendee?.checkIn?.checkedInAt ?? '');
    expect(checkedInAt).toBeGreaterThanOrEqual(outageStartedAt - 1_000);
    expect(checkedInAt).toBeLessThanOrEqual(outageEndedAt);
    expect(checkedInAt).toBeLessThan(restartedAt);

    // The ticket admitted here and at the other gate is a conflict, kept with both times.
    const conflicts = await page.request.get(`${API_PREFIX}${offlinePaths.offlineConflicts(event._id, day)}`);
    expect(conflicts.ok()).toBe(true);
    const conflict = OfflineConflictList.parse(await conflicts.json()).conflicts.find((candidate) => candidate.code === laterAtOtherGate.code);
    expect(conflict).toBeDefined();
    expect(Date.parse(conflict?.offline.scannedAt ?? '')).toBeGreaterThanOrEqual(outageStartedAt - 1_000);
    expect(Date.parse(conflict?.existing.checkedInAt ?? '')).toBeLessThan(outageStartedAt);
    expect(OfflineConflictList.parse(await conflicts.json()).conflicts.map((candidate) => candidate.code)).not.toContain(valid.code);

    // On the device: 'Conflict' on that scan in 'Recent scans', and the day's 'Conflicts' list.
    await screen(page).locator('summary', { hasText: 'Recent scans' }).click();
    const recent = screen(page).getByRole('list', { name: 'Recent scans' });
    const cutCode = cardTicketText(laterAtOtherGate.code);
    await expect(recent.getByRole('listitem').filter({ hasText: cutCode })).toContainText('Conflict');
    await expect(recent.getByRole('listitem').filter({ hasText: 'Conflict' })).toHaveCount(1);
    await screen(page).locator('summary', { hasText: 'Conflicts' }).click();
    const conflictList = screen(page).getByRole('list', { name: 'Conflicts' });
    await expect(conflictList.getByRole('listitem')).toHaveCount(1);
    await expect(conflictList.getByRole('listitem')).toContainText(laterAtOtherGate.holderName);
    await conflictList.scrollIntoViewIfNeeded();
    await saveScreen(page, 'offline-conflicts', { fullPage: false });

    // Online again: a check goes to the server (no 'Offline' on the card).
    const fresh = tickets.takeForDay(event.title, day);
    await verifyByHand(page, fresh.code);
    await expectVerdict(page, { isValid: true, holderName: fresh.holderName });
    await expect(verdictCard(page).getByText('Offline', { exact: true })).toHaveCount(0);
  },
);
