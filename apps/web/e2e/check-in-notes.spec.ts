/**
 * Check-in notes end to end (docs/decisions/102), at a 320x640 phone in the dark theme, with real QR
 * codes on the fake camera: an organizer gives one ticket a note of its own (the admin CLI, on the
 * server's data while it is stopped) and its type a note and the attention flag (the API), and the
 * device learns both with its next download of changes; online, the
 * flash of a ticket of that type shows ATTENTION and the type's note; with the server stopped for
 * real, the flash of the other ticket — decided from the door list, its own note opened with its
 * code — shows both notes, marked Offline. Screenshots: e2e/artifacts/check-in-notes-*.png.
 */
import { API_PREFIX, offlinePaths } from '@gatecheck/contract';
import { expect, test } from './support/fixtures.ts';
import { runAdmin } from './support/admin-cli.ts';
import { admitsDay } from './support/demo-tickets.ts';
import { captureFlashes, capturedFlashes, clearFrozenFlashes, freezeNextFlash, frozenFlash, frozenFlashContrast } from './support/flash-capture.ts';
import { expectVerdict, openScannerReadyForOffline, scanWithCamera, verdictCard } from './support/main-job.ts';
import { testWithOwnServer } from './support/own-server.ts';
import { startGatecheckServer } from './support/server.ts';

const withOwnServer = testWithOwnServer('check-in-notes');

withOwnServer.use({ viewport: { width: 320, height: 640 }, hasTouch: true, isMobile: true, colorScheme: 'dark' });

const TYPE_NOTE = 'Green wristband';
const OWN_NOTE = 'Wheelchair access: open the side gate';

withOwnServer('an attention ticket shows its note on the flash, online and with the server stopped', async ({ page, ownServer, fakeCamera, saveScreen }) => {
  test.setTimeout(240_000);
  await captureFlashes(page);
  const { event, day, tickets } = await openScannerReadyForOffline(page, ownServer.current.dataDir);
  const online = tickets.takeForDay(event.title, day);
  const offline = tickets.take(`a ${online.ticketType} for day ${day}`, (ticket) => ticket.eventTitle === event.title && admitsDay(ticket, day) && ticket.ticketType === online.ticketType);

  // The organizer gives one ticket a note of its own with the CLI, on the stopped server's data
  // (the embedded database admits one process); the page stays open meanwhile.
  const { dataDir, url } = ownServer.current;
  await ownServer.current.stop({ keepData: true });
  await runAdmin(dataDir, ['tickets', 'note', offline.code, '--note', OWN_NOTE]);
  ownServer.current = await startGatecheckServer('check-in-notes', { dataDir, port: Number(new URL(url).port) });
  // ... and the tickets' type a note and the attention flag through the API (the demo user is an admin).
  const patched = await page.request.patch(`${API_PREFIX}/events/${event._id}/ticket-types/${encodeURIComponent(online.ticketType)}`, {
    data: { checkInNote: TYPE_NOTE, requiresAttention: true },
  });
  expect(patched.ok(), await patched.text()).toBe(true);
  // The device learns both with its next download of changes ('Sync now').
  const download = page.waitForResponse((response) => response.url().includes(`${offlinePaths.doorList(event._id, day)}?since=`) && response.ok());
  await page.getByRole('button', { name: 'Sync now' }).click();
  await download;
  await expect(page.getByRole('button', { name: 'Sync now' })).toBeEnabled();

  // Online: the real QR code on the camera.
  await freezeNextFlash(page);
  await scanWithCamera(page, fakeCamera, online.code);
  await expectVerdict(page, { isValid: true, holderName: online.holderName });
  await expect(frozenFlash(page)).toContainText('APPROVED');
  await expect(frozenFlash(page).getByTestId('verdict-flash-note')).toHaveText(`ATTENTION${TYPE_NOTE}`);
  await expect(frozenFlash(page)).not.toContainText('Offline');
  await saveScreen(page, 'check-in-notes-flash-online', { fullPage: false });
  await clearFrozenFlashes(page);
  await expect(page.locator('[data-verdict]')).toHaveCount(0);
  await expect(verdictCard(page).getByTestId('result-card-note')).toContainText(TYPE_NOTE);
  await saveScreen(page, 'check-in-notes-card-online', { fullPage: false });

  // The outage: the server's process group stopped for real; the page stays open.
  await ownServer.current.stop({ keepData: true });
  await freezeNextFlash(page);
  await scanWithCamera(page, fakeCamera, offline.code);
  await expectVerdict(page, { isValid: true, holderName: offline.holderName });
  await expect(verdictCard(page).getByText('Offline', { exact: true })).toBeVisible();
  await expect(frozenFlash(page)).toContainText('Offline');
  // Its own note (opened on the device with its code) first, then its type's, one a line.
  await expect(frozenFlash(page).getByTestId('verdict-flash-note')).toHaveText(`ATTENTION${OWN_NOTE}${TYPE_NOTE}`);
  await saveScreen(page, 'check-in-notes-flash-offline', { fullPage: false });
  // The note's colours pass axe's contrast rule in the dark theme and the light one (on the still
  // copy of the flash, as dark-mode.spec.ts checks the flashes).
  expect(await frozenFlashContrast(page)).toMatchObject({ violations: [], checked: expect.any(Number) });
  await page.emulateMedia({ colorScheme: 'light' });
  await saveScreen(page, 'check-in-notes-flash-offline-light', { fullPage: false });
  expect(await frozenFlashContrast(page)).toMatchObject({ violations: [] });
  // Screen readers heard the note with each verdict.
  const live = (await capturedFlashes(page)).map((flash) => flash.liveText);
  expect(live).toContain(`APPROVED. ATTENTION: ${TYPE_NOTE}`);
  expect(live).toContain(`APPROVED (Offline). ATTENTION: ${OWN_NOTE}. ${TYPE_NOTE}`);
});
