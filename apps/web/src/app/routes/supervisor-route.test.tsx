/**
 * Issue 11, web: the supervisor screen against a contract-shaped fake server (msw): the link shows
 * only for supervisors and admins, nothing is searched under 3 characters, a found attendee is
 * checked in, the check-in is undone with a reason, and the scan log lists both.
 */
import {
  apiPaths,
  type ApiErrorBody,
  type Attendee,
  AttendeeSearchResponse,
  ManualCheckInRequest,
  type ScanLogEntry,
  ScanLogPage,
  UndoCheckInRequest,
  type UndoCheckInResponse,
  type VerifyTicketResponse,
} from '@gatecheck/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { reportServerUnreachable } from '@/lib/reachability.ts';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { renderApp } from '@/test/render.tsx';
import { offlineScan, serveUpload } from '@/test/outbox-fixtures.ts';
import { openOfflineDb } from '@/features/scanner/offline/offline-db.ts';
import { queueOfflineScan } from '@/features/scanner/offline/outbox.ts';
import { formatTime } from '@/features/supervisor/supervisor-logic.ts';

const supervisorOrganization = { ...testOrganization, role: 'supervisor' };
const searches: string[] = [];
let attendee: Attendee;
let log: ScanLogEntry[];
const undoBodies: UndoCheckInRequest[] = [];

beforeEach(() => {
  searches.length = 0;
  undoBodies.length = 0;
  log = [];
  attendee = { ticketId: 'ticket-1', code: 'GC-ZOE', holderName: 'Zoë Ångström', ticketType: 'VIP', admittedDays: null, revokedAt: null, day: testDay.day, checkIn: null };
  const base = `/events/${testEvent.id}`;
  server.use(
    http.get(apiUrl(`${base}/attendees`), ({ request }) => {
      const q = new URL(request.url).searchParams.get('q') ?? '';
      searches.push(q);
      const matches = attendee.holderName.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().startsWith(q.toLowerCase()) ? [attendee] : [];
      return HttpResponse.json<AttendeeSearchResponse>({ attendees: matches, hasMore: false });
    }),
    http.post(apiUrl(`${base}/attendees/:ticketId/check-in`), async ({ request }) => {
      const body = ManualCheckInRequest.parse(await request.json());
      attendee = { ...attendee, checkIn: { checkedInAt: '2026-07-11T12:05:00.000Z', checkedInBy: 'Sam Rivers' } };
      log.unshift({ id: `log-${log.length}`, at: '2026-07-11T12:05:00.000Z', day: body.day, userName: 'Sam Rivers', code: attendee.code, verdict: 'approved', reason: null, source: 'manual' });
      return HttpResponse.json<VerifyTicketResponse>({ isValid: true, holderName: attendee.holderName });
    }),
    http.post<never, never, UndoCheckInResponse | ApiErrorBody>(apiUrl(`${base}/attendees/:ticketId/undo-check-in`), async ({ request }) => {
      const body = UndoCheckInRequest.parse(await request.json());
      undoBodies.push(body);
      if (!attendee.checkIn) return errorResponse(409, { code: 'conflict', message: 'Not checked in' });
      const checkedInAt = attendee.checkIn.checkedInAt;
      attendee = { ...attendee, checkIn: null };
      log.unshift({ id: `log-${log.length}`, at: '2026-07-11T12:07:00.000Z', day: body.day, userName: 'Sam Rivers', code: attendee.code, verdict: 'undone', reason: body.reason, source: 'undo' });
      return HttpResponse.json<UndoCheckInResponse>({ ticketId: attendee.ticketId, day: body.day, checkedInAt, undoneAt: '2026-07-11T12:07:00.000Z', undoneBy: 'Sam Rivers', reason: body.reason });
    }),
    http.get(apiUrl(`${base}/scan-log`), () => HttpResponse.json<ScanLogPage>({ entries: log, nextCursor: null })),
  );
});

describe('supervisor tools (issue 11)', () => {
  test('staff see no link on the day screen and are sent to the scanner from /supervisor', async () => {
    renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent, day: testDay } });
    expect(screen.queryByRole('link', { name: /Supervisor tools/ })).not.toBeInTheDocument();
    const { router } = renderApp({ route: '/supervisor', selection: { organization: testOrganization, event: testEvent, day: testDay } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/scanner'));
  });

  test('a supervisor finds an attendee by name without accents, checks them in, undoes it with a reason, and reads the log', async () => {
    const { user, router } = renderApp({ route: '/day-select', selection: { organization: supervisorOrganization, event: testEvent, day: testDay } });
    await user.click(screen.getByRole('link', { name: 'Supervisor tools (Day 2)' }));
    expect(router.state.location.pathname).toBe('/supervisor');
    expect(screen.getByRole('heading', { level: 1, name: 'Supervisor tools' })).toBeInTheDocument();

    const input = screen.getByLabelText('Name or ticket code');
    await user.type(input, 'zo');
    expect(screen.getByText('Type at least 3 characters of a name or ticket code.')).toBeInTheDocument();
    expect(searches).toEqual([]);
    await user.type(input, 'e');
    const row = await screen.findByRole('listitem', { name: 'Zoë Ångström' });
    expect(searches).toEqual(['zoe']);
    expect(within(row).getByText('Not checked in')).toBeInTheDocument();
    expect(within(row).getByText(/VIP · All days/)).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Check in' }));
    expect(await screen.findByText('Zoë Ångström checked in')).toBeInTheDocument();
    expect(await within(row).findByText(/^Checked in at \d\d:\d\d by Sam Rivers$/)).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Undo check-in' }));
    const confirm = within(row).getByRole('button', { name: 'Confirm undo' });
    expect(confirm).toBeDisabled();
    expect(within(row).getByLabelText('Reason')).toHaveAccessibleDescription('Needed to undo: it is kept in the scan log.');
    await user.type(within(row).getByLabelText('Reason'), 'Wrong wristband');
    await user.click(confirm);
    expect(await within(row).findByText('Not checked in')).toBeInTheDocument();
    expect(undoBodies).toEqual([{ day: testDay.day, reason: 'Wrong wristband' }]);

    const entries = await screen.findByRole('list', { name: 'Scan log entries' });
    await waitFor(() => expect(within(entries).getAllByRole('listitem')).toHaveLength(2));
    expect(within(entries).getByText(/Undone: Wrong wristband/)).toBeInTheDocument();
    expect(within(entries).getByText(/Approved \(manual\)/)).toBeInTheDocument();
  });

  test("a found attendee shows the ticket's check-in note, under ATTENTION when it needs it (docs/decisions/102)", async () => {
    attendee = { ...attendee, checkInNote: 'Wheelchair access\nGreen wristband', requiresAttention: true };
    const { user } = renderApp({ route: '/supervisor', selection: { organization: supervisorOrganization, event: testEvent, day: testDay } });
    await user.type(await screen.findByLabelText('Name or ticket code'), 'zoe');
    const row = await screen.findByRole('listitem', { name: 'Zoë Ångström' });
    const note = within(row).getByText(/^ATTENTION: Wheelchair access/);
    expect(note.textContent).toBe('ATTENTION: Wheelchair access\nGreen wristband');
    expect(note).toHaveClass('whitespace-pre-line');
  });

  test("a search with no answer yet says 'Searching...'; with no answer at all it says there is no connection, in words", async () => {
    let answer: 'hang' | 'fail' = 'hang';
    server.use(
      http.get(apiUrl(`/events/${testEvent.id}/attendees`), async () => {
        if (answer === 'fail') return HttpResponse.error();
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const { user } = renderApp({ route: '/supervisor', selection: { organization: supervisorOrganization, event: testEvent, day: testDay } });
    const input = await screen.findByLabelText('Name or ticket code');
    await user.type(input, 'zoe');
    expect(await screen.findByRole('status')).toHaveTextContent('Searching...');

    answer = 'fail';
    await user.type(input, 'x');
    expect(await screen.findByText('No connection to the server. Try again once it answers.')).toBeInTheDocument();
    expect(screen.queryByText(/Failed to fetch/)).not.toBeInTheDocument();
  });

  test('while the server is known not to answer, a search says so at once instead of Searching...', async () => {
    server.use(
      http.get(apiUrl(`/events/${testEvent.id}/attendees`), async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
      // The 'Offline' strip's probe gets no answer either, so nothing says the server is back.
      http.get(apiUrl(apiPaths.health), () => HttpResponse.error()),
    );
    const { user } = renderApp({ route: '/supervisor', selection: { organization: supervisorOrganization, event: testEvent, day: testDay } });
    const input = await screen.findByLabelText('Name or ticket code');
    act(() => reportServerUnreachable());
    await user.type(input, 'zoe');
    expect(await screen.findByText('No connection to the server. Try again once it answers.')).toBeInTheDocument();
    expect(screen.queryByText('Searching...')).not.toBeInTheDocument();
  });

  test('a ticket for other days than the selected one says so and offers no check-in (the server would deny it)', async () => {
    attendee = { ...attendee, admittedDays: [1] };
    const { user } = renderApp({ route: '/supervisor', selection: { organization: supervisorOrganization, event: testEvent, day: testDay } });
    await user.type(await screen.findByLabelText('Name or ticket code'), 'zoe');
    const row = await screen.findByRole('listitem', { name: 'Zoë Ångström' });
    expect(within(row).getByText('Not valid on Day 2')).toBeInTheDocument();
    expect(within(row).getByText(/VIP · Day 1/)).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Check in' })).not.toBeInTheDocument();
  });
  test('a manual check-in of a ticket this device admitted offline, not yet sent, is refused on the device (decision 078)', async () => {
    const db = await openOfflineDb();
    await queueOfflineScan(db, offlineScan(1, { code: 'gc-zoe' }));
    // The upload gets no answer, so the admission stays on the device.
    const upload = serveUpload(() => false);
    const { user } = renderApp({ route: '/supervisor', selection: { organization: supervisorOrganization, event: testEvent, day: testDay } });
    await user.type(await screen.findByLabelText('Name or ticket code'), 'zoe');
    const row = await screen.findByRole('listitem', { name: 'Zoë Ångström' });
    await user.click(within(row).getByRole('button', { name: 'Check in' }));
    expect(await screen.findByText('Already checked in on this device, in a scan not yet sent to the server.')).toBeInTheDocument();
    expect(attendee.checkIn).toBeNull();
    expect(upload.batches).toEqual([]);
  });

  test("another day's unsent admission, a set-aside one or an unsent denial does not stop a manual check-in", async () => {
    const db = await openOfflineDb();
    await queueOfflineScan(db, offlineScan(1, { code: 'GC-ZOE', day: testDay.day + 1 }));
    await queueOfflineScan(db, offlineScan(2, { code: 'GC-ZOE', verdict: 'denied', reason: 'already_checked_in' }));
    const setAside = offlineScan(3, { code: 'GC-ZOE' });
    await queueOfflineScan(db, setAside);
    const record = await db.get('outbox', setAside.scanId);
    if (!record) throw new Error('the queued scan is not in the outbox');
    await db.put('outbox', { ...record, setAside: { reason: 'forbidden', message: 'Not a member' } });
    serveUpload(() => false);
    const { user } = renderApp({ route: '/supervisor', selection: { organization: supervisorOrganization, event: testEvent, day: testDay } });
    await user.type(await screen.findByLabelText('Name or ticket code'), 'zoe');
    const row = await screen.findByRole('listitem', { name: 'Zoë Ångström' });
    await user.click(within(row).getByRole('button', { name: 'Check in' }));
    expect(await screen.findByText('Zoë Ångström checked in')).toBeInTheDocument();
  });
  test("this device's offline scans, sent while the supervisor reads the log, show in it at once (decision 097)", { timeout: 15_000 }, async () => {
    const db = await openOfflineDb();
    await queueOfflineScan(db, offlineScan(1, { code: 'GC-ZOE' }));
    let isUp = false;
    // The server records the upload: its scan log lists the scan from then on.
    const upload = serveUpload(
      () => isUp,
      () => log.unshift({ id: 'log-0', at: '2026-07-11T10:01:00.000Z', day: testDay.day, userName: 'Demo Staff', code: 'GC-ZOE', verdict: 'approved', reason: null, source: 'offline', sentBy: null }),
    );
    renderApp({ route: '/supervisor', selection: { organization: supervisorOrganization, event: testEvent, day: testDay } });
    expect(await screen.findByText('No scans yet.')).toBeInTheDocument();
    // The app's sender loads after sign-in, and finds the server away.
    await waitFor(() => expect(upload.attempts()).toBeGreaterThan(0), { timeout: 5_000 });

    // The server answers again; the app sends the outbox (the browser says it is online).
    isUp = true;
    act(() => window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(upload.batches).toHaveLength(1));
    // Well before the log's own 15 s refresh.
    const entries = screen.getByRole('list', { name: 'Scan log entries' });
    await waitFor(() => expect(within(entries).getAllByRole('listitem')).toHaveLength(1));
    expect(within(entries).getByRole('listitem')).toHaveTextContent(/GC-ZOE · Demo Staff$/);
    expect(screen.queryByText('No scans yet.')).not.toBeInTheDocument();
  });
  test("an offline scan a colleague sent from the same phone names its maker and who sent it (decision 077)", async () => {
    log = [
      { id: 'log-1', at: '2026-07-11T12:05:00.000Z', day: testDay.day, userName: 'Alex Morgan', code: 'GC-ZOE', verdict: 'approved', reason: null, source: 'offline', sentBy: 'Demo Staff' },
      { id: 'log-0', at: '2026-07-11T12:04:00.000Z', day: testDay.day, userName: 'Demo Staff', code: 'GC-MAX', verdict: 'approved', reason: null, source: 'offline', sentBy: null },
    ];
    renderApp({ route: '/supervisor', selection: { organization: supervisorOrganization, event: testEvent, day: testDay } });
    const entries = await screen.findByRole('list', { name: 'Scan log entries' });
    await waitFor(() => expect(within(entries).getAllByRole('listitem')).toHaveLength(2));
    const [colleagues, own] = within(entries).getAllByRole('listitem');
    expect(colleagues).toHaveTextContent('GC-ZOE · Alex Morgan · sent by Demo Staff');
    expect(own).toHaveTextContent(/GC-MAX · Demo Staff$/);
  });
  test('an offline scan shows when the server received it beside the time the phone claims (decision 088)', async () => {
    log = [
      { id: 'log-1', at: '2026-07-11T12:05:00.000Z', receivedAt: '2026-07-11T14:40:00.000Z', day: testDay.day, userName: 'Alex Morgan', code: 'GC-ZOE', verdict: 'approved', reason: null, source: 'offline' },
      { id: 'log-0', at: '2026-07-11T12:04:00.000Z', receivedAt: '2026-07-11T12:04:00.000Z', day: testDay.day, userName: 'Demo Staff', code: 'GC-MAX', verdict: 'approved', reason: null, source: 'scan' },
    ];
    renderApp({ route: '/supervisor', selection: { organization: supervisorOrganization, event: testEvent, day: testDay } });
    const entries = await screen.findByRole('list', { name: 'Scan log entries' });
    await waitFor(() => expect(within(entries).getAllByRole('listitem')).toHaveLength(2));
    const [offline, online] = within(entries).getAllByRole('listitem');
    expect(offline).toHaveTextContent(`${formatTime('2026-07-11T12:05:00.000Z')} · Approved`);
    expect(offline).toHaveTextContent(`· received ${formatTime('2026-07-11T14:40:00.000Z')}`);
    expect(online).not.toHaveTextContent('received');
  });
  test("the scan log reads the gates' new scans by itself every 15 s while it is open", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    log = [{ id: 'log-0', at: '2026-07-11T12:04:00.000Z', day: testDay.day, userName: 'Alex Morgan', code: 'GC-MAX', verdict: 'approved', reason: null, source: 'scan' }];
    renderApp({ route: '/supervisor', selection: { organization: supervisorOrganization, event: testEvent, day: testDay } });
    const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
    await advance(100);
    const entries = screen.getByRole('list', { name: 'Scan log entries' });
    expect(within(entries).getAllByRole('listitem')).toHaveLength(1);
    log = [{ id: 'log-1', at: '2026-07-11T12:05:00.000Z', day: testDay.day, userName: 'Alex Morgan', code: 'GC-ZOE', verdict: 'denied', reason: 'already_checked_in', source: 'scan' }, ...log];
    await advance(14_000);
    expect(within(entries).getAllByRole('listitem')).toHaveLength(1);
    await advance(1_500);
    expect(within(entries).getAllByRole('listitem')).toHaveLength(2);
    vi.useRealTimers();
  });
});
