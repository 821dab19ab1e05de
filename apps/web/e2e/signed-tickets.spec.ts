/**
 * Signed tickets (issue 12 item 6, docs/decisions/043) end to end at a 360x740 phone, with the real
 * admin CLI and real QR images: the organizer exports the event's tickets signed (`tickets
 * export-qr --signed`, one PNG per ticket); a gate holds one of those PNGs to the camera and is
 * APPROVED online. Then the server is stopped for real, a ticket sold after the gate's last
 * download is imported and exported signed, and the gate recognises it by its signature alone:
 * APPROVED, marked 'Offline' — while a text with that ticket's payload and a forged signature is
 * DENIED as unknown. After the restart the offline check-in reaches the server with its scan time.
 * The CLI needs the server stopped each time (the embedded database admits one process).
 * Screenshots: e2e/artifacts/signed-*.png.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  API_PREFIX,
  AttendeeSearchResponse,
  EventSigningKeys,
  apiPaths,
  formatSignedTicket,
  offlinePaths,
  signedTicketPayloadBytes,
  supervisorPaths,
} from '@gatecheck/contract';
import { runAdmin } from './support/admin-cli.ts';
import { expect, test } from './support/fixtures.ts';
import { cardTicketText, expectVerdict, openScannerReadyForOffline, scanImageWithCamera, screen, verdictCard } from './support/main-job.ts';
import { testWithOwnServer } from './support/own-server.ts';
import { startGatecheckServer } from './support/server.ts';

const withOwnServer = testWithOwnServer('signed-tickets');

withOwnServer.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

/** A ticket sold after the gate's last download: not in its door list. */
const LATE_TICKET = { code: 'LATE-SALE-0001', holderName: 'Lena Latecomer', ticketType: 'General Admission' };

/** One CSV line of `fields`, each quoted (RFC 4180: a quote inside is doubled). */
function csvLine(fields: readonly string[]): string {
  return `${fields.map((field) => `"${field.replaceAll('"', '""')}"`).join(',')}\n`;
}


withOwnServer(
  'an exported signed QR code is approved online, and with the server stopped a ticket sold after the last download is approved by its signature while a forged one is denied',
  async ({ page, ownServer, fakeCamera, saveScreen }) => {
    test.setTimeout(300_000);
    const { event, day, tickets } = await openScannerReadyForOffline(page, ownServer.current.dataDir);
    const printed = tickets.takeForDay(event.title, day);
    const startCamera = page.getByRole('button', { name: 'Start Camera' });

    // Before the doors open the organizer prints the event's tickets signed (the event's key is made
    // on this first export), and the gate downloads the key with its door list.
    const { dataDir, url } = ownServer.current;
    const restart = async () => {
      ownServer.current = await startGatecheckServer('signed-tickets', { dataDir, port: Number(new URL(url).port) });
    };
    const printedDir = mkdtempSync(join(tmpdir(), 'gatecheck-e2e-signed-'));
    const lateDir = mkdtempSync(join(tmpdir(), 'gatecheck-e2e-late-'));
    try {
      await ownServer.current.stop({ keepData: true });
      expect(await runAdmin(dataDir, ['tickets', 'export-qr', '--event', event._id, '--out', printedDir, '--signed'])).toContain('QR code PNGs');
      await restart();
      // A first check through the API (an unknown code), so that the gate's scan below does not meet a
      // server still preparing its statements after the restart and decide offline after 3 s.
      const warmUp = await page.request.post(`${API_PREFIX}${apiPaths.verifyTicket}`, { data: { eventId: event._id, qrCode: 'WARM-UP-NO-SUCH-TICKET', day } });
      expect(warmUp.ok(), await warmUp.text()).toBe(true);
      const keysDownloaded = page.waitForResponse((response) => response.url().endsWith(`${API_PREFIX}${offlinePaths.signingKeys(event._id)}`) && response.ok());
      await page.getByRole('button', { name: 'Sync now' }).click();
      const { keys } = EventSigningKeys.parse(await (await keysDownloaded).json());
      expect(keys).toHaveLength(1);
      const [key] = keys;

      // Online: the printed PNG, through the camera, is the ticket.
      await scanImageWithCamera(page, fakeCamera, readFileSync(join(printedDir, `${printed.code}.png`)));
      await expectVerdict(page, { isValid: true, holderName: printed.holderName });
      await expect(verdictCard(page).getByText('Offline', { exact: true })).toHaveCount(0);
      // Named by the code it carries, not by its GC1 text (decision 074).
      await expect(verdictCard(page).getByText(cardTicketText(printed.code), { exact: true })).toBeVisible();
      await expect(startCamera).toBeEnabled();
      await expect(page.locator('[data-verdict]')).toHaveCount(0);
      await saveScreen(page, 'signed-online-approved', { fullPage: false });

      // The outage: the server is stopped for real; meanwhile a late ticket is sold (imported and
      // exported signed with the same key); the gate's door list has never heard of it.
      await ownServer.current.stop({ keepData: true });
      const outageStartedAt = Date.now();
      const lateCsv = join(lateDir, 'late.csv');
      writeFileSync(lateCsv, `code,holder_name,ticket_type,days\n${csvLine([LATE_TICKET.code, LATE_TICKET.holderName, LATE_TICKET.ticketType, 'all'])}`);
      expect(await runAdmin(dataDir, ['tickets', 'import', '--event', event._id, lateCsv])).toContain('Imported 1 of 1 row ');
      expect(await runAdmin(dataDir, ['tickets', 'export-qr', '--event', event._id, '--out', lateDir, '--signed'])).toContain('QR code PNGs');

      // Its payload under a signature nobody made: an unknown code, decided on the device.
      const forged = formatSignedTicket(signedTicketPayloadBytes({ keyId: key?.keyId ?? '', eventId: event._id, code: LATE_TICKET.code, days: null }), new Uint8Array(64));
      fakeCamera.showCode(forged);
      await startCamera.click();
      await expectVerdict(page, { isValid: false, because: 'Ticket not found' });
      await expect(verdictCard(page).getByText('Offline', { exact: true })).toBeVisible();
      // Shown as scanned: no real ticket's code beside 'Ticket not found' (decision 074).
      await expect(verdictCard(page).getByText(cardTicketText(forged), { exact: true })).toBeVisible();
      await expect(startCamera).toBeEnabled();

      // The real one: approved by its signature, offline, with no door-list entry behind it.
      await scanImageWithCamera(page, fakeCamera, readFileSync(join(lateDir, `${LATE_TICKET.code}.png`)));
      const approved = screen(page).getByRole('group', { name: 'Valid Ticket', exact: true });
      await expect(approved).toBeVisible();
      await expect(approved.getByText('APPROVED', { exact: true })).toBeVisible();
      await expect(approved.getByText('Offline', { exact: true })).toBeVisible();
      await expect(approved.getByText(cardTicketText(LATE_TICKET.code), { exact: true })).toBeVisible();
      await expect(page.locator('[data-verdict]')).toHaveCount(0);
      await saveScreen(page, 'signed-offline-approved', { fullPage: false });
      await expect(startCamera).toBeEnabled();
      // Scanned again on this device: already checked in, still offline.
      await scanImageWithCamera(page, fakeCamera, readFileSync(join(lateDir, `${LATE_TICKET.code}.png`)));
      await expectVerdict(page, { isValid: false, because: /^Already checked in/ });
      const outageEndedAt = Date.now();

      // Back: the offline check-in reaches the server, at its scan time.
      await restart();
      await expect(page.getByTestId('waiting-count')).toHaveText('0 scans waiting to be sent', { timeout: 60_000 });
      const query = new URLSearchParams({ q: LATE_TICKET.code, day: String(day) });
      const search = await page.request.get(`${API_PREFIX}${supervisorPaths.attendeeSearch(event._id)}?${query}`);
      expect(search.ok(), await search.text()).toBe(true);
      const late = AttendeeSearchResponse.parse(await search.json()).attendees.find((attendee) => attendee.code === LATE_TICKET.code);
      expect(late?.holderName).toBe(LATE_TICKET.holderName);
      const checkedInAt = Date.parse(late?.checkIn?.checkedInAt ?? '');
      expect(checkedInAt).toBeGreaterThanOrEqual(outageStartedAt - 1_000);
      expect(checkedInAt).toBeLessThanOrEqual(outageEndedAt);
    } finally {
      rmSync(printedDir, { recursive: true, force: true });
      rmSync(lateDir, { recursive: true, force: true });
    }
  },
);
