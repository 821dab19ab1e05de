/**
 * Issue 11 on the scanner screen, through the real screen, query client and mutations, with the API
 * answered by MSW (contract-shaped): a supervisor finds a guest with 'Find attendee', checks them in
 * (shown as a scan's verdict, counts refreshed), and undoes an approval from 'Recent scans' with a
 * required reason (the row says so, counts refreshed); a refused undo shows the server's words; staff
 * see neither control.
 */
import {
  type ApiErrorBody,
  apiPaths,
  type Attendee,
  type AttendeeSearchResponse,
  type CheckInCounts,
  ManualCheckInRequest,
  UndoCheckInRequest,
  type UndoCheckInResponse,
  VerifyTicketRequest,
  type VerifyTicketResponse,
} from '@gatecheck/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, expect, test } from 'vitest';
import { QrDecoderProvider } from '@/features/scanner/qr-decoder-context.tsx';
import type { QrDecoder } from '@/lib/qr/qr-decoder.ts';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { keepRecentScans } from '@/features/scanner/recent-scans.ts';
import { selectDay, selectEvent, selectOrganization } from '@/lib/selection.ts';
import { renderWithProviders } from '@/test/render.tsx';
import { ScannerRoute } from './scanner-route.tsx';

const noDecoder = async (): Promise<QrDecoder> => ({ decode: async () => null });
const UNDONE_AT = '2026-07-11T19:07:00.000Z';

/** The fake door: one attendee, the counts, verify, search, manual check-in and undo, all recorded. */
let door: {
  attendee: Attendee;
  checkedIn: number;
  countRequests: number;
  searches: string[];
  checkIns: ManualCheckInRequest[];
  undos: Array<{ ticketId: string; body: UndoCheckInRequest }>;
  /** The scanId of the check-in that stands (verify's or the manual check-in's), as the server keeps it. */
  checkInScanId: string | undefined;
};

/** The scanId of every verify, in order. */
let verifiedScanIds: Array<string | undefined> = [];

beforeEach(() => {
  verifiedScanIds = [];
  door = {
    attendee: { ticketId: 'ticket-7', code: 'GC-ZOE-0007', holderName: 'Zoë Ångström', ticketType: 'VIP', admittedDays: null, revokedAt: null, day: testDay.day, checkIn: null },
    checkedIn: 12,
    countRequests: 0,
    searches: [],
    checkIns: [],
    undos: [],
    checkInScanId: undefined,
  };
  const base = `/events/${testEvent.id}`;
  server.use(
    http.get(apiUrl(apiPaths.checkInCounts), ({ params }) => {
      door.countRequests += 1;
      return HttpResponse.json<CheckInCounts>({ eventId: String(params['eventId']), day: Number(params['day']), checkedIn: door.checkedIn, validTickets: 340 });
    }),
    http.post(apiUrl(apiPaths.verifyTicket), async ({ request }) => {
      const body = VerifyTicketRequest.parse(await request.json());
      verifiedScanIds.push(body.scanId);
      if (body.qrCode.toUpperCase() !== door.attendee.code) return HttpResponse.json<VerifyTicketResponse>({ isValid: false, reason: 'not_found' });
      if (door.attendee.checkIn) return HttpResponse.json<VerifyTicketResponse>({ isValid: false, reason: 'already_checked_in', checkedInBy: door.attendee.checkIn.checkedInBy });
      door.attendee = { ...door.attendee, checkIn: { checkedInAt: new Date().toISOString(), checkedInBy: 'Dana Demo' } };
      door.checkInScanId = body.scanId;
      door.checkedIn += 1;
      return HttpResponse.json<VerifyTicketResponse>({ isValid: true, eventName: testEvent.name, holderName: door.attendee.holderName, ticketType: 'VIP' });
    }),
    http.get(apiUrl(`${base}/attendees`), ({ request }) => {
      const q = new URL(request.url).searchParams.get('q') ?? '';
      door.searches.push(q);
      const folded = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
      const isMatch = folded(door.attendee.holderName).startsWith(folded(q)) || folded(door.attendee.code).startsWith(folded(q));
      return HttpResponse.json<AttendeeSearchResponse>({ attendees: isMatch ? [door.attendee] : [], hasMore: false });
    }),
    http.post(apiUrl(`${base}/attendees/:ticketId/check-in`), async ({ request }) => {
      const body = ManualCheckInRequest.parse(await request.json());
      door.checkIns.push(body);
      door.attendee = { ...door.attendee, checkIn: { checkedInAt: new Date().toISOString(), checkedInBy: 'Dana Demo' } };
      door.checkInScanId = body.scanId;
      door.checkedIn += 1;
      return HttpResponse.json<VerifyTicketResponse>({ isValid: true, eventName: testEvent.name, holderName: door.attendee.holderName, ticketType: 'VIP' });
    }),
    http.post<{ ticketId: string }, never, UndoCheckInResponse | ApiErrorBody>(apiUrl(`${base}/attendees/:ticketId/undo-check-in`), async ({ request, params }) => {
      const body = UndoCheckInRequest.parse(await request.json());
      door.undos.push({ ticketId: params.ticketId, body });
      const checkIn = door.attendee.checkIn;
      if (!checkIn) return errorResponse(409, { code: 'conflict', message: 'This ticket is not checked in on that day.' });
      if (body.scanId !== undefined && body.scanId !== door.checkInScanId) {
        return errorResponse(409, { code: 'check_in_changed', message: "This ticket's check-in was made by another scan." });
      }
      door.attendee = { ...door.attendee, checkIn: null };
      door.checkedIn -= 1;
      return HttpResponse.json<UndoCheckInResponse>({ ticketId: params.ticketId, day: body.day, checkedInAt: checkIn.checkedInAt, undoneAt: UNDONE_AT, undoneBy: 'Dana Demo', reason: body.reason });
    }),
  );
});

function renderScanner(role: string) {
  return renderWithProviders(
    <QrDecoderProvider createDecoder={noDecoder}>
      <ScannerRoute />
    </QrDecoderProvider>,
    { route: '/scanner', selection: { organization: { ...testOrganization, role }, event: testEvent, day: testDay } },
  );
}

type User = ReturnType<typeof renderScanner>['user'];

async function typeCode(user: User, code: string, verdict: 'Valid Ticket' | 'Invalid Ticket') {
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), `${code}{Enter}`);
  await screen.findByText(verdict, { selector: '[data-sonner-toast] *' });
  await waitFor(() => expect(screen.getByLabelText('Or enter ticket ID manually:')).toHaveValue(''));
}

/** 'Undo check-in' under `row`, the reason typed, 'Confirm undo'. */
async function undoWithReason(user: User, row: HTMLElement, reason: string) {
  await user.click(within(row).getByRole('button', { name: 'Undo check-in' }));
  await user.type(within(row).getByLabelText('Reason'), reason);
  await user.click(within(row).getByRole('button', { name: 'Confirm undo' }));
}

/** Opens 'Recent scans' and returns its list. */
async function openRecentScans(user: User) {
  await user.click(await screen.findByText('Recent scans'));
  return screen.getByRole('list', { name: 'Recent scans' });
}

test('a supervisor finds a guest by name on the scanner and checks them in: the sheet closes, the verdict shows as a scan and the count rises', async () => {
  const { user } = renderScanner('supervisor');
  await screen.findByText('Checked in 12 / 340');
  await user.click(await screen.findByRole('button', { name: 'Find attendee' }));
  const sheet = screen.getByRole('dialog', { name: 'Find attendee' });
  await user.type(within(sheet).getByLabelText('Name or ticket code'), 'zoe');
  const row = await within(sheet).findByRole('listitem', { name: 'Zoë Ångström' });
  expect(within(row).getByText('Not checked in')).toBeInTheDocument();
  await user.click(within(row).getByRole('button', { name: 'Check in' }));

  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  expect(door.checkIns).toEqual([{ day: testDay.day, scanId: expect.any(String) }]);
  const card = screen.getByRole('group', { name: 'Valid Ticket' });
  expect(within(card).getByText('APPROVED')).toBeInTheDocument();
  expect(within(card).getByText('Zoë Ångström')).toBeInTheDocument();
  expect(await screen.findByText('Valid Ticket', { selector: '[data-sonner-toast] *' })).toBeInTheDocument();
  expect(await screen.findByText('Checked in 13 / 340')).toBeInTheDocument();
  const list = await openRecentScans(user);
  expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([expect.stringMatching(/^\d\d:\d\dAPPROVEDGC-ZOE-0007\.\.\.Zoë ÅngströmUndo check-in$/)]);
});

test('a supervisor undoes an approval from Recent scans with a required reason: the row says it was undone and the count drops', async () => {
  const { user } = renderScanner('admin');
  await screen.findByText('Checked in 12 / 340');
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'gc-zoe-0007', 'Valid Ticket');
  await screen.findByText('Checked in 13 / 340');

  const row = within(await openRecentScans(user)).getByRole('listitem');
  await user.click(within(row).getByRole('button', { name: 'Undo check-in' }));
  const confirm = within(row).getByRole('button', { name: 'Confirm undo' });
  expect(confirm).toBeDisabled();
  await user.type(within(row).getByLabelText('Reason'), '   ');
  expect(confirm).toBeDisabled();
  await user.type(within(row).getByLabelText('Reason'), 'Let in the wrong guest');
  await user.click(confirm);

  const undone = await within(row).findByText(/^Check-in undone at \d\d:\d\d: Let in the wrong guest$/);
  expect(undone).toBeInTheDocument();
  // The card still showing that approval says it was undone, in its time's place.
  expect(within(screen.getByRole('group', { name: 'Valid Ticket' })).getByText(/^Undone at \d\d:\d\d$/)).toBeInTheDocument();
  expect(within(row).queryByRole('button', { name: 'Undo check-in' })).not.toBeInTheDocument();
  // The scanned code (any letter case) found the ticket by its code; the reason went trimmed.
  expect(door.searches).toEqual(['gc-zoe-0007']);
  // Only the check-in this scan made may be undone: the undo names the verify's scanId.
  expect(door.undos).toEqual([{ ticketId: 'ticket-7', body: { day: testDay.day, reason: 'Let in the wrong guest', scanId: expect.any(String) } }]);
  expect(door.undos[0]?.body.scanId).toBe(verifiedScanIds[0]);
  expect(await screen.findByText('Checked in 12 / 340')).toBeInTheDocument();

  // Admitted again afterwards: a new approval, with its own Undo, above the undone one.
  await typeCode(user, 'GC-ZOE-0007', 'Valid Ticket');
  const rows = within(screen.getByRole('list', { name: 'Recent scans' })).getAllByRole('listitem');
  expect(rows).toHaveLength(2);
  expect(within(rows[0]!).getByRole('button', { name: 'Undo check-in' })).toBeInTheDocument();
  expect(within(rows[1]!).getByText(/^Check-in undone at/)).toBeInTheDocument();
}, 15_000);

test('an undo the server refuses shows its words and leaves the row as it was', async () => {
  const { user } = renderScanner('supervisor');
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'GC-ZOE-0007', 'Valid Ticket');
  // Undone elsewhere meanwhile (another supervisor's device).
  door.attendee = { ...door.attendee, checkIn: null };

  const row = within(await openRecentScans(user)).getByRole('listitem');
  await undoWithReason(user, row, 'Duplicate');
  expect(await within(row).findByRole('alert')).toHaveTextContent('This ticket is not checked in on that day.');
  expect(within(row).queryByText(/Check-in undone/)).not.toBeInTheDocument();
});

test("an undo from a scan's row whose check-in another scan has replaced since (on another phone) is refused, in words, and nothing is undone", async () => {
  const { user } = renderScanner('supervisor');
  await screen.findByText('Checked in 12 / 340');
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'GC-ZOE-0007', 'Valid Ticket');
  await screen.findByText('Checked in 13 / 340');
  // Elsewhere: undone on another phone and checked in again by another gate's scan.
  door.checkInScanId = '7d0c1c1e-1111-4aaa-8bbb-000000000099';

  const row = within(await openRecentScans(user)).getByRole('listitem');
  await undoWithReason(user, row, 'Let in the wrong guest');
  expect(await within(row).findByText("This ticket's check-in was made by another scan.")).toBeInTheDocument();
  expect(door.attendee.checkIn).not.toBeNull();
  expect(door.checkedIn).toBe(13);
});

test('a Conflict row (admitted offline after another gate had checked the ticket in) offers no undo: it would undo the other gate\'s check-in', async () => {
  // Selected as the day-select screen would, then the tab's recent scans as a reload finds them.
  await selectOrganization({ ...testOrganization, role: 'supervisor' });
  await selectEvent(testEvent);
  await selectDay(testDay);
  keepRecentScans({ eventId: testEvent.id, day: testDay.day }, [
    { id: '3a0c1c1e-1111-4aaa-8bbb-000000000001', ticketId: 'GC-ZOE-0007', timestamp: '2026-07-11T10:05:00.000Z', isValid: true, details: { holderName: 'Zoë Ångström' }, isOffline: true, isConflict: true },
    { id: '3a0c1c1e-1111-4aaa-8bbb-000000000002', ticketId: 'GC-MAX-0008', timestamp: '2026-07-11T10:04:00.000Z', isValid: true, details: { holderName: 'Max Mustermann' }, isOffline: true },
  ]);
  const { user } = renderWithProviders(
    <QrDecoderProvider createDecoder={noDecoder}>
      <ScannerRoute />
    </QrDecoderProvider>,
    { route: '/scanner' },
  );
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  const [conflict, sent] = within(await openRecentScans(user)).getAllByRole('listitem');
  expect(conflict).toHaveTextContent('Conflict');
  expect(within(conflict!).getByText('No undo here: the check-in that stands is the one another gate recorded on the server first (see Conflicts).')).toBeInTheDocument();
  expect(within(conflict!).queryByRole('button', { name: 'Undo check-in' })).not.toBeInTheDocument();
  expect(within(sent!).getByRole('button', { name: 'Undo check-in' })).toBeInTheDocument();
});

test("a manual check-in's row in Recent scans undoes that check-in: the undo names the scanId the check-in was made under", async () => {
  const { user } = renderScanner('supervisor');
  await screen.findByText('Checked in 12 / 340');
  await user.click(await screen.findByRole('button', { name: 'Find attendee' }));
  const sheet = screen.getByRole('dialog', { name: 'Find attendee' });
  await user.type(within(sheet).getByLabelText('Name or ticket code'), 'zoe');
  await user.click(within(await within(sheet).findByRole('listitem', { name: 'Zoë Ångström' })).getByRole('button', { name: 'Check in' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  // The modal sheet hands the page its clicks back once it has closed (as a thumb has to wait for).
  await waitFor(() => expect(document.body).not.toHaveStyle({ pointerEvents: 'none' }));

  const row = within(await openRecentScans(user)).getByRole('listitem');
  await undoWithReason(user, row, 'Wrong guest');
  expect(await within(row).findByText(/^Check-in undone at \d\d:\d\d: Wrong guest$/)).toBeInTheDocument();
  expect(door.undos.map((undo) => undo.body.scanId)).toEqual([door.checkIns[0]?.scanId]);
  expect(door.checkIns[0]?.scanId).toEqual(expect.any(String));
});

test('a ticket approved again after an undo on another phone: the earlier row says it was undone elsewhere, not a second plain APPROVED', async () => {
  const { user } = renderScanner('supervisor');
  await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'GC-ZOE-0007', 'Valid Ticket');
  // Undone on another phone: the server no longer has the check-in.
  door.attendee = { ...door.attendee, checkIn: null };
  await typeCode(user, 'gc-zoe-0007', 'Valid Ticket');
  const [again, earlier] = within(await openRecentScans(user)).getAllByRole('listitem');
  expect(within(earlier!).getByText('Undone elsewhere since: checked in again (above).')).toBeInTheDocument();
  expect(within(earlier!).queryByRole('button', { name: 'Undo check-in' })).not.toBeInTheDocument();
  expect(within(again!).getByRole('button', { name: 'Undo check-in' })).toBeInTheDocument();
}, 15_000);

test('staff see no Find attendee and no Undo check-in on the scanner', async () => {
  const { user } = renderScanner('staff');
  await screen.findByText('Checked in 12 / 340');
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'GC-ZOE-0007', 'Valid Ticket');
  const row = within(await openRecentScans(user)).getByRole('listitem');
  expect(within(row).getByText('APPROVED')).toBeInTheDocument();
  expect(within(row).queryByRole('button', { name: 'Undo check-in' })).not.toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Find attendee' })).not.toBeInTheDocument();
  expect(door.searches).toEqual([]);
});

test('the sheet is a modal dialog: Escape and Close shut it and focus goes back to Find attendee', async () => {
  const { user } = renderScanner('supervisor');
  const open = await screen.findByRole('button', { name: 'Find attendee' });
  await user.click(open);
  const sheet = screen.getByRole('dialog', { name: 'Find attendee' });
  expect(within(sheet).getByText('Type at least 3 characters of a name or ticket code.')).toBeInTheDocument();
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  await waitFor(() => expect(open).toHaveFocus());
  await user.click(open);
  await user.click(within(screen.getByRole('dialog', { name: 'Find attendee' })).getByRole('button', { name: 'Close' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  await waitFor(() => expect(open).toHaveFocus());
});

test('an undo from the sheet marks the approval in Recent scans and refreshes the count', async () => {
  const { user } = renderScanner('supervisor');
  await screen.findByText('Checked in 12 / 340');
  await user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await typeCode(user, 'GC-ZOE-0007', 'Valid Ticket');
  await screen.findByText('Checked in 13 / 340');

  await user.click(await screen.findByRole('button', { name: 'Find attendee' }));
  const sheet = screen.getByRole('dialog', { name: 'Find attendee' });
  await user.type(within(sheet).getByLabelText('Name or ticket code'), 'GC-ZOE');
  const result = await within(sheet).findByRole('listitem', { name: 'Zoë Ångström' });
  await user.click(await within(result).findByRole('button', { name: 'Undo check-in' }));
  await user.type(within(result).getByLabelText('Reason'), 'Scanned the wrong wristband');
  await user.click(within(result).getByRole('button', { name: 'Confirm undo' }));
  expect(await within(result).findByText('Not checked in')).toBeInTheDocument();
  expect(door.undos).toEqual([{ ticketId: 'ticket-7', body: { day: testDay.day, reason: 'Scanned the wrong wristband' } }]);
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

  expect(await screen.findByText('Checked in 12 / 340')).toBeInTheDocument();
  const row = within(await openRecentScans(user)).getByRole('listitem');
  expect(within(row).getByText(/^Check-in undone at \d\d:\d\d: Scanned the wrong wristband$/)).toBeInTheDocument();
}, 15_000);
