/**
 * Issue 12 on the scanner screen (docs/decisions/052): the door list, offline verdicts marked
 * 'Offline', offline mode after two failures and back, the outbox upload, conflicts. The server is
 * MSW with contract-typed answers; the door list is made with the contract's own lookup keys and
 * sealed names; IndexedDB is fake-indexeddb (a library, src/test/setup.ts).
 */
import {
  SIGNED_TICKET_VECTOR,
  apiPaths,
  doorListLookupKey,
  type Attendee,
  type AttendeeSearchResponse,
  type EventSigningKeys,
  OfflineScanBatch,
  OfflineScan,
  VerifyTicketRequest,
  type CheckInCounts,
  type CheckInList,
  type CheckInLists,
  type DoorList,
  type OfflineConflictList,
  type OfflineScanBatchResponse,
  type UndoCheckInResponse,
  type VerifyTicketResponse,
} from '@gatecheck/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { CameraSourceProvider } from '@/features/scanner/camera-source-context.tsx';
import { makeDoorList } from '@/test/door-list-fixtures.ts';
import type { EventItem, OrganizationItem, SelectedDay, User } from '@/lib/entities.ts';
import { chooseLanguage } from '@/lib/i18n/choice.ts';
import { testDay, testEvent, testOrganization, testUser } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { COLLEAGUE_ID, offlineScan } from '@/test/outbox-fixtures.ts';
import { eventDayKey, openOfflineDb } from '@/features/scanner/offline/offline-db.ts';
import { queueOfflineScan } from '@/features/scanner/offline/outbox.ts';
import { renderWithProviders } from '@/test/render.tsx';
import { createScriptedScanSource } from '@/test/scripted-scan-source.ts';
import { ScannerRoute } from './scanner-route.tsx';

const selection: { organization: OrganizationItem; event: EventItem; day: SelectedDay } = { organization: testOrganization, event: testEvent, day: testDay };

function renderScanner(options: { selection?: typeof selection } = {}) {
  const camera = createScriptedScanSource();
  return renderWithProviders(
    <CameraSourceProvider createSource={() => camera}>
      <ScannerRoute />
    </CameraSourceProvider>,
    { route: '/scanner', selection: options.selection ?? selection },
  );
}

/** Serves `lists` in turn as the door list (the last one again after that); records `since`. */
function serveDoorList(...lists: unknown[]) {
  const sinces: Array<string | null> = [];
  server.use(
    http.get(apiUrl(apiPaths.doorList), ({ request }) => {
      sinces.push(new URL(request.url).searchParams.get('since'));
      const list = lists.length > 1 ? lists.shift() : lists[0];
      return HttpResponse.json(list as DoorList);
    }),
  );
  return sinces;
}

/** The verify endpoint: records the codes sent and answers with `answer`. */
function serveVerify(answer: () => Promise<Response> | Response) {
  const codes: string[] = [];
  server.use(
    http.post(apiUrl(apiPaths.verifyTicket), async ({ request }) => {
      codes.push(VerifyTicketRequest.parse(await request.json()).qrCode);
      return answer();
    }),
  );
  return codes;
}

/** The upload endpoint: records each batch (validated by the contract) and answers per item. */
function serveUpload(status: (scan: OfflineScan) => OfflineScanBatchResponse['results'][number]['status'] = () => 'recorded', rejection?: Pick<OfflineScanBatchResponse['results'][number], 'reason' | 'message'>) {
  const batches: OfflineScan[][] = [];
  server.use(
    http.post(apiUrl(apiPaths.offlineScans), async ({ request }) => {
      const body = OfflineScanBatch.parse(await request.json());
      const scans = body.scans.map((scan) => OfflineScan.parse(scan));
      batches.push(scans);
      return HttpResponse.json<OfflineScanBatchResponse>({ receivedAt: new Date().toISOString(), results: scans.map((scan, index) => ({ index, scanId: scan.scanId, status: status(scan), ...(status(scan) === 'rejected' ? rejection : {}) })) });
    }),
  );
  return batches;
}

const TICKETS = [
  { code: 'GOOD-1', holderName: 'Ada Lovelace', ticketType: 'VIP' },
  { code: 'GOOD-2', holderName: 'Grace Hopper', ticketType: 'Weekend' },
  { code: 'GOOD-3', holderName: 'Alan Turing', ticketType: 'Weekend' },
];

/** With the server not answering: 'Start Scanning', GOOD-1 APPROVED on the device ('Offline'), 1 scan waiting. */
async function approveGood1Offline(user: ReturnType<typeof renderScanner>['user']) {
  await screen.findByText(/^Last synced/);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'GOOD-1');
  await within(await screen.findByRole('group', { name: 'Valid Ticket' }, { timeout: 6_000 })).findByText('Offline');
  expect(await screen.findByText('1 scan waiting to be sent')).toBeInTheDocument();
}

async function typeCode(user: ReturnType<typeof renderScanner>['user'], code: string) {
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), `${code}{Enter}`);
}

test("a verify with no answer in 3 s is decided from the door list, marked 'Offline' on the card and the flash, and waits to be sent", { timeout: 20_000 }, async () => {
  serveDoorList(await makeDoorList(TICKETS));
  const verified = serveVerify(async () => {
    await delay('infinite');
    return HttpResponse.json<VerifyTicketResponse>({ isValid: true });
  });
  const { user } = renderScanner();
  expect(await screen.findByText(/^Last synced \d{2}:\d{2}/)).toBeInTheDocument();
  expect(screen.getByTestId('waiting-count')).toHaveTextContent('0 scans waiting to be sent');
  expect(await screen.findByTestId('check-in-count')).toHaveTextContent('Checked in 12 / 340');
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));

  await typeCode(user, 'GOOD-1');
  // The card waits for the 3 s cut-over (VERIFY_TIMEOUT_MS); a loaded machine has taken 9.4 s to show it.
  const card = await screen.findByRole('group', { name: 'Valid Ticket' }, { timeout: 12_000 });
  expect(within(card).getByText('APPROVED')).toBeInTheDocument();
  expect(within(card).getByText('Offline')).toBeInTheDocument();
  expect(within(card).getByText('Ada Lovelace')).toBeInTheDocument();
  expect(screen.getByTestId('verdict-flash-offline')).toHaveTextContent('Offline');
  expect(verified).toEqual(['GOOD-1']);
  expect(await screen.findByText('1 scan waiting to be sent')).toBeInTheDocument();
  // The server's 12 and this gate's admission it does not know yet.
  expect(screen.getByTestId('check-in-count')).toHaveTextContent('Checked in 13 / 340');
});

test("a verify answered 503 (the server's database away, decision 103) is decided from the door list at once, marked 'Offline', and waits to be sent", { timeout: 20_000 }, async () => {
  serveDoorList(await makeDoorList(TICKETS));
  const verified = serveVerify(() =>
    HttpResponse.json({ code: 'not_ready', message: 'The database does not answer: nothing was saved. Try again in a few seconds.' }, { status: 503, headers: { 'retry-after': '5' } }),
  );
  const { user } = renderScanner();
  await screen.findByText(/^Last synced/);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'GOOD-2');
  const card = await screen.findByRole('group', { name: 'Valid Ticket' });
  expect(within(card).getByText('Offline')).toBeInTheDocument();
  expect(within(card).getByText('Grace Hopper')).toBeInTheDocument();
  expect(verified).toEqual(['GOOD-2']);
  expect(await screen.findByText('1 scan waiting to be sent')).toBeInTheDocument();
  expect(screen.queryByText('Verification Error', { selector: '[data-sonner-toast] *' })).not.toBeInTheDocument();
});

test('a scan decided here while the scanner stays online is sent as soon as the server answers a probe, not at the next door-list sync', { timeout: 25_000 }, async () => {
  serveDoorList(await makeDoorList(TICKETS));
  let isServerDown = true;
  serveVerify(() => HttpResponse.error());
  server.use(http.get(apiUrl(apiPaths.health), () => (isServerDown ? HttpResponse.error() : HttpResponse.json({ status: 'ok' }))));
  const uploads = serveUpload();
  const { user } = renderScanner();
  await approveGood1Offline(user);
  // One failure: not offline mode, so nothing else would send it for a minute.
  expect(screen.queryByText('Offline mode: tickets are checked on this device')).not.toBeInTheDocument();

  isServerDown = false;
  // The probe runs every 5 s: well inside the door list's 60 s.
  expect(await screen.findByText('0 scans waiting to be sent', {}, { timeout: 8_000 })).toBeInTheDocument();
  expect(uploads.flat().map((scan) => scan.code)).toEqual(['GOOD-1']);
});

test('a ticket this device admitted offline, not yet sent, is DENIED on the device when the server answers again: the server would approve it twice', { timeout: 20_000 }, async () => {
  serveDoorList(await makeDoorList(TICKETS));
  let isServerDown = true;
  // The server would approve anything: it does not know the offline admission.
  const verified = serveVerify(() => (isServerDown ? HttpResponse.error() : HttpResponse.json<VerifyTicketResponse>({ isValid: true, holderName: 'Ada Lovelace' })));
  // Uploads do not get through, so the admission keeps waiting on the device.
  server.use(http.post(apiUrl(apiPaths.offlineScans), () => HttpResponse.error()));
  const { user } = renderScanner();
  await approveGood1Offline(user);

  isServerDown = false;
  const askedBefore = verified.length;
  await typeCode(user, 'good-1 ');
  const card = await screen.findByRole('group', { name: 'Invalid Ticket' }, { timeout: 6_000 });
  expect(within(card).getByText(/^Already checked in at/)).toBeInTheDocument();
  // Decided on the device: the server was not asked the second time.
  expect(verified).toHaveLength(askedBefore);
  // Another ticket still goes to the server.
  await typeCode(user, 'GOOD-2');
  await screen.findByRole('group', { name: 'Valid Ticket' }, { timeout: 6_000 });
  expect(verified.slice(askedBefore)).toEqual(['GOOD-2']);
});

test('a door device upgraded mid-day: its admission queued before its list was named (no list in it) still blocks an online re-admission at that list (docs/decisions/129)', { timeout: 20_000 }, async () => {
  const listId = '00000000-0000-4000-8000-000000000001';
  const device: User = {
    ...testUser,
    device: { id: 'device-1', name: 'North gate 2', organizationId: testOrganization.id, eventId: testEvent.id, checkInListId: listId, token: 'device-token' },
  };
  // As the app before decision 129 kept an offline admission: queued and recorded naming no list.
  const db = await openOfflineDb();
  await queueOfflineScan(db, offlineScan(1));
  await db.put('localCheckIns', { checkedInAt: offlineScan(1).scannedAt, checkedInBy: testUser.name, isOnline: false }, `${eventDayKey(testEvent.id, testDay.day)}|${await doorListLookupKey(testEvent.id, 'GOOD-1')}`);
  serveDoorList(await makeDoorList(TICKETS));
  // The server would approve it: it does not know the admission, whose upload does not get through.
  const verified = serveVerify(() => HttpResponse.json<VerifyTicketResponse>({ isValid: true, holderName: 'Ada Lovelace' }));
  server.use(http.post(apiUrl(apiPaths.offlineScans), () => HttpResponse.error()));
  // The heartbeat has named the device's list in its chosen day.
  const { user } = renderWithProviders(
    <CameraSourceProvider createSource={() => createScriptedScanSource()}>
      <ScannerRoute />
    </CameraSourceProvider>,
    { route: '/scanner', user: device, selection: { ...selection, day: { ...testDay, checkInList: { id: listId, name: 'All tickets' } } } },
  );
  await screen.findByText(/^Last synced/);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'GOOD-1');
  const card = await screen.findByRole('group', { name: 'Invalid Ticket' }, { timeout: 6_000 });
  expect(within(card).getByText(/^Already checked in at/)).toBeInTheDocument();
  expect(verified).toEqual([]);
});

test("a supervisor's manual check-in of a ticket this device admitted offline, not yet sent, is refused on the device (decision 078)", { timeout: 20_000 }, async () => {
  serveDoorList(await makeDoorList(TICKETS));
  serveVerify(() => HttpResponse.error());
  server.use(http.post(apiUrl(apiPaths.offlineScans), () => HttpResponse.error()));
  const manualCheckIns: string[] = [];
  const attendee: Attendee = { ticketId: 'ticket-1', code: 'GOOD-1', holderName: 'Ada Lovelace', ticketType: 'VIP', admittedDays: null, revokedAt: null, day: testDay.day, checkIn: null };
  server.use(
    http.get(apiUrl(`/events/${testEvent.id}/attendees`), () => HttpResponse.json<AttendeeSearchResponse>({ attendees: [attendee], hasMore: false })),
    http.post(apiUrl(`/events/${testEvent.id}/attendees/:ticketId/check-in`), ({ params }) => {
      manualCheckIns.push(String(params['ticketId']));
      return HttpResponse.json<VerifyTicketResponse>({ isValid: true });
    }),
  );
  const { user } = renderScanner({ selection: { ...selection, organization: { ...testOrganization, role: 'supervisor' } } });
  await approveGood1Offline(user);

  await user.click(await screen.findByRole('button', { name: 'Find attendee' }));
  await user.type(screen.getByLabelText('Name or ticket code'), 'Ada');
  const row = await screen.findByRole('listitem', { name: 'Ada Lovelace' });
  await user.click(within(row).getByRole('button', { name: 'Check in' }));
  expect(await screen.findByText('Already checked in on this device, in a scan not yet sent to the server.')).toBeInTheDocument();
  expect(manualCheckIns).toEqual([]);
});

test('two failures in a row switch to offline mode (decided at once, no verify); the server answering again sends the outbox in scan order and a conflict shows in Recent scans', { timeout: 40_000 }, async () => {
  serveDoorList(await makeDoorList(TICKETS));
  let isServerDown = true;
  const verified = serveVerify(() => (isServerDown ? HttpResponse.error() : HttpResponse.json<VerifyTicketResponse>({ isValid: true, holderName: 'Online Person' })));
  server.use(http.get(apiUrl(apiPaths.health), () => (isServerDown ? HttpResponse.error() : HttpResponse.json({ status: 'ok' }))));
  const uploads = serveUpload((scan) => (scan.code === 'GOOD-2' ? 'conflict' : 'recorded'));
  // The day's conflicts as the server lists them once GOOD-2 has been sent.
  server.use(
    http.get(apiUrl(apiPaths.offlineConflicts), () =>
      HttpResponse.json<OfflineConflictList>({
        conflicts: uploads
          .flat()
          .filter((scan) => scan.code === 'GOOD-2')
          .map((scan) => ({
            scanId: scan.scanId,
            code: scan.code,
            holderName: 'Grace Hopper',
            offline: { scannedAt: scan.scannedAt, receivedAt: scan.scannedAt, deviceId: scan.deviceId, staffName: 'Dana Demo' },
            existing: { checkedInAt: '2026-07-11T09:58:00.000Z', checkedInBy: 'Gate B Staff' },
          })),
      }),
    ),
  );
  // The day's counts: 12 before, plus every approval the server has received from this device.
  server.use(
    http.get(apiUrl(apiPaths.checkInCounts), ({ params }) =>
      isServerDown
        ? HttpResponse.error()
        : HttpResponse.json<CheckInCounts>({
            eventId: String(params['eventId']),
            day: Number(params['day']),
            checkedIn: 12 + uploads.flat().filter((scan) => scan.verdict === 'approved').length,
            validTickets: 340,
          }),
    ),
  );
  const { user } = renderScanner();
  await screen.findByText(/^Last synced/);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));

  // First failure: decided here (approved), still online.
  await typeCode(user, 'GOOD-1');
  await within(await screen.findByRole('group', { name: 'Valid Ticket' }, { timeout: 6_000 })).findByText('Offline');
  expect(screen.queryByText('Offline mode: tickets are checked on this device')).not.toBeInTheDocument();
  // The same ticket again is DENIED on the device (checked in here, not yet sent), without a verify.
  const askedBefore = verified.length;
  await typeCode(user, 'GOOD-1');
  const denied = await screen.findByRole('group', { name: 'Invalid Ticket' }, { timeout: 6_000 });
  expect(within(denied).getByText('DENIED')).toBeInTheDocument();
  expect(within(denied).getByText('Offline')).toBeInTheDocument();
  expect(within(denied).getByText(/^Already checked in at .+ by Dana Demo$/)).toBeInTheDocument();
  expect(verified).toHaveLength(askedBefore);
  // Second failure: an unknown code is DENIED from the door list, and offline mode starts.
  await typeCode(user, 'NOPE-000');
  await waitFor(() => expect(within(screen.getByRole('group', { name: 'Invalid Ticket' })).getByText('Ticket not found')).toBeInTheDocument(), { timeout: 6_000 });
  expect(await screen.findByText('Offline mode: tickets are checked on this device')).toBeInTheDocument();
  const verifiesBefore = verified.length;

  // Offline mode: decided at once, no verify call; an unknown code is DENIED.
  await typeCode(user, 'GOOD-2');
  await screen.findByRole('group', { name: 'Valid Ticket' });
  await typeCode(user, 'NOPE-404');
  expect(await within(await screen.findByRole('group', { name: 'Invalid Ticket' })).findByText('Ticket not found')).toBeInTheDocument();
  expect(verified).toHaveLength(verifiesBefore);
  expect(await screen.findByText('5 scans waiting to be sent')).toBeInTheDocument();
  expect(uploads).toHaveLength(0);

  // The server answers the probe again: online, the outbox goes out in scan order, 'Conflict' shows.
  isServerDown = false;
  expect(await screen.findByText('0 scans waiting to be sent', {}, { timeout: 15_000 })).toBeInTheDocument();
  // The header counts the check-ins just sent (2 approvals), without waiting for its 30 s refresh.
  expect(await screen.findByText(/Checked in 14 \/ 340/, {}, { timeout: 5_000 })).toBeInTheDocument();
  expect(screen.queryByText('Offline mode: tickets are checked on this device')).not.toBeInTheDocument();
  expect(uploads.flat().map((scan) => [scan.code, scan.verdict, scan.reason])).toEqual([
    ['GOOD-1', 'approved', undefined],
    ['GOOD-1', 'denied', 'already_checked_in'],
    ['NOPE-000', 'denied', 'not_found'],
    ['GOOD-2', 'approved', undefined],
    ['NOPE-404', 'denied', 'not_found'],
  ]);
  const scanTimes = uploads.flat().map((scan) => Date.parse(scan.scannedAt));
  expect(scanTimes).toEqual([...scanTimes].sort((a, b) => a - b));
  expect(new Set(uploads.flat().map((scan) => scan.deviceId)).size).toBe(1);

  // Said out loud, and counted on the collapsed 'Conflicts' heading.
  expect(await screen.findByText('1 ticket let in offline was also checked in at another gate', { selector: '[data-sonner-toast] *' })).toBeInTheDocument();
  expect(await screen.findByText('(1)')).toBeInTheDocument();
  await user.click(await screen.findByText('Recent scans'));
  const rows = within(screen.getByRole('list', { name: 'Recent scans' })).getAllByRole('listitem');
  expect(rows).toHaveLength(5);
  expect(rows[1]).toHaveTextContent('GOOD-2');
  expect(rows[1]).toHaveTextContent('Conflict');
  expect(rows[0]).not.toHaveTextContent('Conflict');

  // Online again: the next scan asks the server.
  await typeCode(user, 'GOOD-3');
  expect(await within(await screen.findByRole('group', { name: 'Valid Ticket' })).findByText('Online Person')).toBeInTheDocument();
  expect(verified.at(-1)).toBe('GOOD-3');
  expect(within(screen.getByRole('group', { name: 'Valid Ticket' })).queryByText('Offline')).not.toBeInTheDocument();
});

test('without a door list a verify with no answer is still the SPEC Verification Error', { timeout: 15_000 }, async () => {
  serveVerify(() => HttpResponse.error());
  const { user } = renderScanner();
  expect(await screen.findByText('Door list not downloaded yet')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'GOOD-1');
  expect(await screen.findByText('Verification Error', { selector: '[data-sonner-toast] *' }, { timeout: 6_000 })).toBeInTheDocument();
  expect(screen.queryByRole('group', { name: /Ticket$/ })).not.toBeInTheDocument();
});

test('an 8-digit code the door list leaves out (too easy to guess) is not decided offline: Verification Error, nothing queued; a listed ticket still is (decision 087)', { timeout: 20_000 }, async () => {
  serveDoorList(await makeDoorList(TICKETS, { hasUnlistedCodes: true }));
  serveVerify(() => HttpResponse.error());
  const { user } = renderScanner();
  await screen.findByText(/^Last synced/);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, '12345678');
  expect(await screen.findByText('Verification Error', { selector: '[data-sonner-toast] *' }, { timeout: 6_000 })).toBeInTheDocument();
  expect(screen.queryByRole('group', { name: /Ticket$/ })).not.toBeInTheDocument();
  expect(screen.getByTestId('waiting-count')).toHaveTextContent('0 scans waiting to be sent');
  await typeCode(user, 'GOOD-2');
  expect(await within(await screen.findByRole('group', { name: 'Valid Ticket' }, { timeout: 6_000 })).findByText('Offline')).toBeInTheDocument();
});

test("a corrupt door list download is discarded with a message and the last good list is kept; 'Sync now' asks for changes since the cursor", async () => {
  const good = await makeDoorList(TICKETS, { cursor: '100' });
  const sinces = serveDoorList(good, { ...good, tickets: [{ lookupKey: 'k', holderName: 'Ada Lovelace' }] });
  const { user } = renderScanner();
  const synced = await screen.findByText(/^Last synced \d{2}:\d{2}/);
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Sync now' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('The door list download was damaged and was discarded; the last good list is kept.');
  expect(synced).toHaveTextContent(/^Last synced \d{2}:\d{2}/);
  expect(sinces).toEqual([null, '100']);
});

test("'Conflicts' lists the day's conflicts with both gates and times", async () => {
  server.use(
    http.get(apiUrl(apiPaths.offlineConflicts), () =>
      HttpResponse.json<OfflineConflictList>({
        conflicts: [
          {
            scanId: '00000000-0000-4000-8000-000000000001',
            code: 'GOOD-2',
            holderName: 'Grace Hopper',
            offline: { scannedAt: '2026-07-11T10:05:42.000Z', receivedAt: '2026-07-11T10:20:00.000Z', deviceId: 'abcdef12-3456', staffName: 'Dana Demo' },
            existing: { checkedInAt: '2026-07-11T10:05:07.000Z', checkedInBy: 'Gate B Staff' },
          },
        ],
      }),
    ),
  );
  const { user } = renderScanner();
  await user.click(await screen.findByText('Conflicts'));
  const list = await screen.findByRole('list', { name: 'Conflicts' });
  const row = within(list).getByRole('listitem');
  expect(row).toHaveTextContent('GOOD-2');
  expect(row).toHaveTextContent('Grace Hopper');
  // Both in the same minute: the seconds tell which came first.
  expect(row).toHaveTextContent(/Offline at \d{2}:\d{2}:42 by Dana Demo \(device abcdef12\)/);
  expect(row).toHaveTextContent(/On the server first: checked in at \d{2}:\d{2}:07 by Gate B Staff/);
});

test('a device without a door list approves a genuine signed ticket of this event and day from its signature, and denies the same again', { timeout: 30_000 }, async () => {
  const vector = SIGNED_TICKET_VECTOR;
  // The RFC 8032 test key is this event's signing key; the day is one the payload admits (1).
  server.use(
    http.get(apiUrl(apiPaths.signingKeys), () =>
      HttpResponse.json<EventSigningKeys>({ eventId: vector.eventId, keys: [{ keyId: vector.keyId, algorithm: 'Ed25519', publicKey: vector.publicKey, createdAt: '2026-01-01T00:00:00.000Z', retiredAt: null }] }),
    ),
  );
  const verified = serveVerify(() => HttpResponse.error());
  const signingKeys = new Promise<void>((resolve) => server.events.on('response:mocked', ({ request }) => (request.url.includes('/signing-keys') ? resolve() : undefined)));
  const signedEvent = { ...testEvent, id: vector.eventId, allowsScanningOutsideDays: true };
  const { user } = renderScanner({ selection: { organization: testOrganization, event: signedEvent, day: { day: 1, name: 'Opening Friday', date: '2026-07-10' } } });
  expect(await screen.findByText('Door list not downloaded yet')).toBeInTheDocument();
  await signingKeys;
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));

  await typeCode(user, vector.qrText);
  const card = await screen.findByRole('group', { name: 'Valid Ticket' }, { timeout: 6_000 });
  expect(within(card).getByText('Offline')).toBeInTheDocument();
  await typeCode(user, vector.qrText);
  const denied = await screen.findByRole('group', { name: 'Invalid Ticket' }, { timeout: 6_000 });
  expect(within(denied).getByText(/^Already checked in/)).toBeInTheDocument();
  // A forged signature is an unknown code, as on the server.
  await typeCode(user, `${vector.qrText.slice(0, -2)}${vector.qrText.endsWith('AA') ? 'BA' : 'AA'}`);
  await waitFor(() => expect(within(screen.getByRole('group', { name: 'Invalid Ticket' })).getByText('Ticket not found')).toBeInTheDocument(), { timeout: 6_000 });
  expect(verified.length).toBeGreaterThanOrEqual(2);
  server.events.removeAllListeners();
});

test('scans other staff members made offline on this device are counted apart while they wait to be sent (decisions 076, 077)', async () => {
  const db = await openOfflineDb();
  await queueOfflineScan(db, offlineScan(1, { userId: COLLEAGUE_ID }));
  await queueOfflineScan(db, offlineScan(2, { userId: COLLEAGUE_ID }));
  // The server does not answer, so they stay.
  server.use(http.post(apiUrl(apiPaths.offlineScans), () => HttpResponse.error()));
  serveDoorList(await makeDoorList(TICKETS));
  renderScanner();
  expect(await screen.findByTestId('others-waiting-count')).toHaveTextContent('2 scans by other staff members wait on this device to be sent');
  expect(screen.getByTestId('waiting-count')).toHaveTextContent('0 scans waiting to be sent');
  await act(() => chooseLanguage('de'));
  expect(await screen.findByText('2 Scans anderer Personen warten auf diesem Gerät auf das Senden')).toBeInTheDocument();
});

test('the offline line speaks German when German is chosen', async () => {
  serveDoorList(await makeDoorList(TICKETS));
  renderScanner();
  await act(() => chooseLanguage('de'));
  expect(await screen.findByText(/^Zuletzt synchronisiert /)).toBeInTheDocument();
  expect(screen.getByTestId('waiting-count')).toHaveTextContent('0 Scans warten auf das Senden');
  expect(screen.getByRole('button', { name: 'Jetzt synchronisieren' })).toBeInTheDocument();
  expect(await screen.findByText('Konflikte')).toBeInTheDocument();
});

test("a scan the server rejects is kept aside with its reason, visible until dismissed, and not sent again", { timeout: 30_000 }, async () => {
  serveDoorList(await makeDoorList(TICKETS));
  let isServerDown = true;
  serveVerify(() => (isServerDown ? HttpResponse.error() : HttpResponse.json<VerifyTicketResponse>({ isValid: true })));
  server.use(http.get(apiUrl(apiPaths.health), () => (isServerDown ? HttpResponse.error() : HttpResponse.json({ status: 'ok' }))));
  const uploads = serveUpload(() => 'rejected', { reason: 'revoked', message: 'This ticket has been revoked.' });
  const { user } = renderScanner();
  await approveGood1Offline(user);

  isServerDown = false;
  await user.click(screen.getByRole('button', { name: 'Sync now' }));
  const aside = await screen.findByRole('list', { name: 'Not accepted by the server' });
  expect(within(aside).getByRole('listitem')).toHaveTextContent(/GOOD-1\.\.\.: This ticket has been revoked\./);
  expect(screen.getByTestId('waiting-count')).toHaveTextContent('0 scans waiting to be sent');
  await user.click(screen.getByRole('button', { name: 'Sync now' }));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Sync now' })).toBeEnabled());
  expect(uploads).toHaveLength(1);
  // In German, our words for the reason, not the server's English.
  await act(() => chooseLanguage('de'));
  const germanAside = await screen.findByRole('list', { name: 'Vom Server nicht angenommen' });
  expect(within(germanAside).getByRole('listitem')).toHaveTextContent(/GOOD-1\.\.\.: Ticket gesperrt/);

  await user.click(within(germanAside).getByRole('button', { name: 'Ausblenden' }));
  await waitFor(() => expect(screen.queryByRole('list', { name: 'Vom Server nicht angenommen' })).not.toBeInTheDocument());
});

test("a supervisor is offered 'Undo check-in' on an offline approval only once it has been sent: before, the server does not know it", { timeout: 40_000 }, async () => {
  serveDoorList(await makeDoorList(TICKETS));
  let isServerDown = true;
  serveVerify(() => (isServerDown ? HttpResponse.error() : HttpResponse.json<VerifyTicketResponse>({ isValid: true })));
  server.use(http.get(apiUrl(apiPaths.health), () => (isServerDown ? HttpResponse.error() : HttpResponse.json({ status: 'ok' }))));
  const uploads = serveUpload();
  const { user } = renderScanner({ selection: { ...selection, organization: { ...testOrganization, role: 'admin' } } });
  await screen.findByText(/^Last synced/);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));

  await typeCode(user, 'GOOD-1');
  await within(await screen.findByRole('group', { name: 'Valid Ticket' }, { timeout: 6_000 })).findByText('Offline');
  expect(await screen.findByText('1 scan waiting to be sent')).toBeInTheDocument();
  await user.click(await screen.findByText('Recent scans'));
  const row = () => within(screen.getByRole('list', { name: 'Recent scans' })).getAllByRole('listitem')[0] as HTMLElement;
  expect(row()).toHaveTextContent('GOOD-1');
  expect(within(row()).getByText('Undo is possible once this scan has been sent.')).toBeInTheDocument();
  expect(within(row()).queryByRole('button', { name: 'Undo check-in' })).not.toBeInTheDocument();

  // The server answers again: the scan is sent, and the undo is offered.
  isServerDown = false;
  await user.click(screen.getByRole('button', { name: 'Sync now' }));
  expect(await screen.findByText('0 scans waiting to be sent', {}, { timeout: 15_000 })).toBeInTheDocument();
  expect(uploads.flat().map((scan) => scan.code)).toEqual(['GOOD-1']);
  expect(await within(row()).findByRole('button', { name: 'Undo check-in' })).toBeInTheDocument();
  expect(within(row()).queryByText('Undo is possible once this scan has been sent.')).not.toBeInTheDocument();
});

test('an entry approved online marks the guest inside on the device: with the server gone, the same ticket is DENIED at the door and its exit is recorded offline (decisions 111, 113)', { timeout: 30_000 }, async () => {
  const bar: CheckInList = { id: '44444444-4444-4444-8444-444444444444', name: 'Bar', position: 1, ticketTypes: null, days: null, allowsReentry: true, capacity: null, dailyCheckoutTime: null };
  // The door list knows GOOD-1 came in and left before: inside, by the list, nobody.
  const list = await makeDoorList([{ ...TICKETS[0]!, checkIn: { checkedInAt: '2026-07-11T09:00:00.000Z', checkedInBy: 'Gate B Staff', lastEnteredAt: '2026-07-11T09:00:00.000Z', exitedAt: '2026-07-11T09:30:00.000Z' } }]);
  serveDoorList({ ...list, checkInListId: bar.id, checkInLists: [bar] });
  server.use(http.get(apiUrl(apiPaths.checkInLists), () => HttpResponse.json<CheckInLists>({ eventId: testEvent.id, lists: [bar] })));
  let isServerDown = false;
  serveVerify(() => (isServerDown ? HttpResponse.error() : HttpResponse.json<VerifyTicketResponse>({ isValid: true, holderName: 'Ada Lovelace' })));
  server.use(http.post(apiUrl(apiPaths.offlineScans), () => HttpResponse.error()));
  const { user } = renderScanner({ selection: { ...selection, day: { ...testDay, checkInList: { id: bar.id, name: 'Bar' } } } });
  await screen.findByText(/^Last synced/);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));

  // Back in, approved by the server.
  await typeCode(user, 'GOOD-1');
  const approved = await screen.findByRole('group', { name: 'Valid Ticket' });
  expect(within(approved).queryByText('Offline')).not.toBeInTheDocument();

  // The network fails: the device decides. The guest is inside, so a second entry is DENIED…
  isServerDown = true;
  await typeCode(user, 'GOOD-1');
  const denied = await screen.findByRole('group', { name: 'Invalid Ticket' }, { timeout: 6_000 });
  expect(within(denied).getByText('Offline')).toBeInTheDocument();
  expect(within(denied).getByText(/^Already checked in at/)).toBeInTheDocument();

  // …and the guest's exit is recorded.
  await user.click(screen.getByRole('radio', { name: 'Exit' }));
  await typeCode(user, 'GOOD-1');
  await waitFor(() => expect(within(screen.getByRole('group', { name: 'Valid Ticket' })).getByTestId('result-card-approval')).toHaveTextContent('Exit recorded'), { timeout: 6_000 });
  expect(within(screen.getByRole('group', { name: 'Valid Ticket' })).getByText('Offline')).toBeInTheDocument();
});

test("a guest the server says is already inside (back in through another gate since the door list) can leave offline, and is let in again after (decisions 111, 113)", { timeout: 30_000 }, async () => {
  const bar: CheckInList = { id: '44444444-4444-4444-8444-444444444444', name: 'Bar', position: 1, ticketTypes: null, days: null, allowsReentry: true, capacity: null, dailyCheckoutTime: null };
  // By the door list GOOD-1 left at 09:30; since then the guest came back in at gate B.
  const list = await makeDoorList([{ ...TICKETS[0]!, checkIn: { checkedInAt: '2026-07-11T09:00:00.000Z', checkedInBy: 'Gate B Staff', lastEnteredAt: '2026-07-11T09:00:00.000Z', exitedAt: '2026-07-11T09:30:00.000Z' } }]);
  serveDoorList({ ...list, checkInListId: bar.id, checkInLists: [bar] });
  server.use(http.get(apiUrl(apiPaths.checkInLists), () => HttpResponse.json<CheckInLists>({ eventId: testEvent.id, lists: [bar] })));
  let isServerDown = false;
  serveVerify(() =>
    isServerDown
      ? HttpResponse.error()
      : HttpResponse.json<VerifyTicketResponse>({ isValid: false, reason: 'already_checked_in', message: 'Already checked in', checkedInAt: '2026-07-11T09:00:00.000Z', checkedInBy: 'Gate B Staff' }),
  );
  server.use(http.post(apiUrl(apiPaths.offlineScans), () => HttpResponse.error()));
  const { user } = renderScanner({ selection: { ...selection, day: { ...testDay, checkInList: { id: bar.id, name: 'Bar' } } } });
  await screen.findByText(/^Last synced/);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'GOOD-1');
  expect(within(await screen.findByRole('group', { name: 'Invalid Ticket' })).queryByText('Offline')).not.toBeInTheDocument();

  // The network fails: the guest, inside by the server's word, leaves…
  isServerDown = true;
  await user.click(screen.getByRole('radio', { name: 'Exit' }));
  await typeCode(user, 'GOOD-1');
  await waitFor(() => expect(within(screen.getByRole('group', { name: 'Valid Ticket' })).getByTestId('result-card-approval')).toHaveTextContent('Exit recorded'), { timeout: 6_000 });
  expect(within(screen.getByRole('group', { name: 'Valid Ticket' })).getByText('Offline')).toBeInTheDocument();
  // …and comes back in.
  await user.click(screen.getByRole('radio', { name: 'Entry' }));
  await typeCode(user, 'GOOD-1');
  expect(await screen.findByText('2 scans waiting to be sent', {}, { timeout: 6_000 })).toBeInTheDocument();
  const back = screen.getByRole('group', { name: 'Valid Ticket' });
  expect(within(back).getByText('Offline')).toBeInTheDocument();
  expect(back).not.toHaveTextContent('Exit recorded');
});

test("a supervisor's manual check-in approved online marks the guest inside on the device: the same ticket offline is DENIED 'Already checked in'", { timeout: 30_000 }, async () => {
  serveDoorList(await makeDoorList(TICKETS));
  serveVerify(() => HttpResponse.error());
  const attendee: Attendee = { ticketId: 'ticket-1', code: 'GOOD-1', holderName: 'Ada Lovelace', ticketType: 'VIP', admittedDays: null, revokedAt: null, day: testDay.day, checkIn: null };
  server.use(
    http.get(apiUrl(`/events/${testEvent.id}/attendees`), () => HttpResponse.json<AttendeeSearchResponse>({ attendees: [attendee], hasMore: false })),
    http.post(apiUrl(`/events/${testEvent.id}/attendees/:ticketId/check-in`), () => HttpResponse.json<VerifyTicketResponse>({ isValid: true, holderName: 'Ada Lovelace', checkedInAt: new Date().toISOString() })),
  );
  const { user } = renderScanner({ selection: { ...selection, organization: { ...testOrganization, role: 'supervisor' } } });
  await screen.findByText(/^Last synced/);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await user.click(await screen.findByRole('button', { name: 'Find attendee' }));
  await user.type(screen.getByLabelText('Name or ticket code'), 'Ada');
  const row = await screen.findByRole('listitem', { name: 'Ada Lovelace' });
  await user.click(within(row).getByRole('button', { name: 'Check in' }));
  expect(within(await screen.findByRole('group', { name: 'Valid Ticket' })).queryByText('Offline')).not.toBeInTheDocument();
  await user.keyboard('{Escape}');

  // The verify gets no answer: the device decides, knowing the guest is in.
  await typeCode(user, 'GOOD-1');
  const denied = await screen.findByRole('group', { name: 'Invalid Ticket' }, { timeout: 6_000 });
  expect(within(denied).getByText('Offline')).toBeInTheDocument();
  expect(within(denied).getByText(/^Already checked in at .+ by Dana Demo$/)).toBeInTheDocument();
});

test("a check-in a supervisor undid online is forgotten on the device: with the server gone, the same ticket is APPROVED, not 'Already checked in'", { timeout: 30_000 }, async () => {
  serveDoorList(await makeDoorList(TICKETS));
  let isServerDown = false;
  serveVerify(() => (isServerDown ? HttpResponse.error() : HttpResponse.json<VerifyTicketResponse>({ isValid: true, holderName: 'Ada Lovelace' })));
  const attendee: Attendee = { ticketId: 'ticket-1', code: 'GOOD-1', holderName: 'Ada Lovelace', ticketType: 'VIP', admittedDays: null, revokedAt: null, day: testDay.day, checkIn: null };
  server.use(
    http.post(apiUrl(apiPaths.offlineScans), () => HttpResponse.error()),
    http.get(apiUrl(`/events/${testEvent.id}/attendees`), () => HttpResponse.json<AttendeeSearchResponse>({ attendees: [attendee], hasMore: false })),
    http.post(apiUrl(`/events/${testEvent.id}/attendees/:ticketId/undo-check-in`), () =>
      HttpResponse.json<UndoCheckInResponse>({ ticketId: 'ticket-1', day: testDay.day, checkedInAt: new Date().toISOString(), undoneAt: new Date().toISOString(), undoneBy: 'Dana Demo', reason: 'Wrong ticket scanned' }),
    ),
  );
  const { user } = renderScanner({ selection: { ...selection, organization: { ...testOrganization, role: 'supervisor' } } });
  await screen.findByText(/^Last synced/);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'GOOD-1');
  await screen.findByRole('group', { name: 'Valid Ticket' });

  await user.click(await screen.findByText('Recent scans'));
  const row = within(screen.getByRole('list', { name: 'Recent scans' })).getAllByRole('listitem')[0] as HTMLElement;
  await user.click(within(row).getByRole('button', { name: 'Undo check-in' }));
  await user.type(within(row).getByLabelText('Reason'), 'Wrong ticket scanned');
  await user.click(within(row).getByRole('button', { name: 'Confirm undo' }));
  await waitFor(() => expect(within(row).queryByRole('button', { name: 'Confirm undo' })).not.toBeInTheDocument());

  isServerDown = true;
  await typeCode(user, 'GOOD-1');
  await waitFor(() => expect(within(screen.getByRole('group', { name: 'Valid Ticket' })).getByText('Offline')).toBeInTheDocument(), { timeout: 6_000 });
});

test("a door list synced after an online approval replaces the device's record of it, whatever the server's clock says (docs/decisions/130): undone at another phone, the ticket is APPROVED with the server gone", { timeout: 30_000 }, async () => {
  // The server's clock reads months behind this phone's (the list says generated 2026-07-11 10:00):
  // only the phone's own clock orders the approval and the sync that followed it.
  const list = await makeDoorList(TICKETS);
  const sinces = serveDoorList(list);
  let isServerDown = false;
  serveVerify(() => (isServerDown ? HttpResponse.error() : HttpResponse.json<VerifyTicketResponse>({ isValid: true, holderName: 'Ada Lovelace' })));
  server.use(http.post(apiUrl(apiPaths.offlineScans), () => HttpResponse.error()));
  const { user } = renderScanner();
  await screen.findByText(/^Last synced/);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'GOOD-1');
  expect(within(await screen.findByRole('group', { name: 'Valid Ticket' })).queryByText('Offline')).not.toBeInTheDocument();

  // A supervisor undoes it at another phone; this phone syncs: the list shows no check-in of GOOD-1.
  await waitFor(() => expect(screen.getByRole('button', { name: 'Sync now' })).toBeEnabled());
  await user.click(screen.getByRole('button', { name: 'Sync now' }));
  await waitFor(() => expect(sinces).toHaveLength(2));
  await waitFor(() => expect(screen.getByRole('button', { name: 'Sync now' })).toBeEnabled());

  isServerDown = true;
  await typeCode(user, 'GOOD-1');
  await waitFor(() => expect(within(screen.getByRole('group', { name: 'Valid Ticket' })).getByText('Offline')).toBeInTheDocument(), { timeout: 6_000 });
});

test("an exit denied 'Not inside' offline (the guest came in at another gate) is queued as an exit; when the server records it on upload, Recent scans says so (docs/decisions/150)", { timeout: 40_000 }, async () => {
  const bar: CheckInList = { id: '44444444-4444-4444-8444-444444444444', name: 'Bar', position: 1, ticketTypes: null, days: null, allowsReentry: true, capacity: null, dailyCheckoutTime: null };
  // By the door list GOOD-1 left at 09:30; the guest came back in at another gate since, unknown here.
  const list = await makeDoorList([{ ...TICKETS[0]!, checkIn: { checkedInAt: '2026-07-11T09:00:00.000Z', checkedInBy: 'Gate B Staff', lastEnteredAt: '2026-07-11T09:00:00.000Z', exitedAt: '2026-07-11T09:30:00.000Z' } }]);
  serveDoorList({ ...list, checkInListId: bar.id, checkInLists: [bar] });
  server.use(http.get(apiUrl(apiPaths.checkInLists), () => HttpResponse.json<CheckInLists>({ eventId: testEvent.id, lists: [bar] })));
  let isServerDown = true;
  serveVerify(() => HttpResponse.error());
  server.use(http.get(apiUrl(apiPaths.health), () => (isServerDown ? HttpResponse.error() : HttpResponse.json({ status: 'ok' }))));
  // The server knows the guest is inside: it records the exit and says so.
  const uploads: OfflineScan[] = [];
  server.use(
    http.post(apiUrl(apiPaths.offlineScans), async ({ request }) => {
      const scans = OfflineScanBatch.parse(await request.json()).scans.map((scan) => OfflineScan.parse(scan));
      uploads.push(...scans);
      return HttpResponse.json<OfflineScanBatchResponse>({
        receivedAt: new Date().toISOString(),
        results: scans.map((scan, index) => ({ index, scanId: scan.scanId, status: 'recorded', ...(scan.direction === 'exit' ? { isExitRecorded: true, checkedInAt: scan.scannedAt, checkedInBy: 'Dana Demo' } : {}) })),
      });
    }),
  );
  const { user } = renderScanner({ selection: { ...selection, day: { ...testDay, checkInList: { id: bar.id, name: 'Bar' } } } });
  await screen.findByText(/^Last synced/);
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));

  // The phone cannot know the guest is inside: DENIED 'Not inside', as online for a guest who is out.
  await user.click(screen.getByRole('radio', { name: 'Exit' }));
  await typeCode(user, 'GOOD-1');
  const denied = await screen.findByRole('group', { name: 'Invalid Ticket' }, { timeout: 6_000 });
  expect(within(denied).getByText('Not inside')).toBeInTheDocument();
  expect(within(denied).getByText('Offline')).toBeInTheDocument();
  expect(await screen.findByText('1 scan waiting to be sent')).toBeInTheDocument();

  // The server answers again: the exit attempt goes out as the denial it was, and the server records it.
  isServerDown = false;
  expect(await screen.findByText('0 scans waiting to be sent', {}, { timeout: 8_000 })).toBeInTheDocument();
  expect(uploads.map((scan) => [scan.code, scan.verdict, scan.reason, scan.direction])).toEqual([['GOOD-1', 'denied', 'not_inside', 'exit']]);
  await user.click(await screen.findByText('Recent scans'));
  const [row] = within(screen.getByRole('list', { name: 'Recent scans' })).getAllByRole('listitem');
  await waitFor(() => expect(row).toHaveTextContent('Exit recorded when sent: the server had the guest inside.'));
  expect(row).toHaveTextContent('DENIED');
  expect(row).toHaveTextContent('Not inside');
});
