/**
 * The scanner's check-in list (docs/decisions/100, 109) through the real routes, the real selection
 * store and the real query client, with the API answered by MSW: the list step after the day (shown
 * for an event with several lists, skipped for one), the list kept inside the stored `selectedDay`
 * (and an older stored day without a list), the furthest-step resume, the header, and the list sent
 * with every check-in call.
 */
import {
  apiPaths,
  type Attendee,
  AttendeeSearchResponse,
  type CheckInCounts,
  type CheckInList,
  type CheckInLists,
  ManualCheckInRequest,
  offlinePaths,
  type OfflineConflictList,
  type ScanLogPage,
  UndoCheckInRequest,
  type UndoCheckInResponse,
  VerifyTicketRequest,
  type VerifyTicketResponse,
} from '@gatecheck/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, test } from 'vitest';
import { checkInListQueries } from '@/lib/check-ins/check-in-lists.ts';
import { createQueryClient } from '@/lib/query-client.ts';
import { listPersister } from '@/lib/query-persister-store.ts';
import { loadSelection, getSelection } from '@/lib/selection.ts';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

const mainEntrance: CheckInList = { id: '11111111-1111-4111-8111-111111111111', name: 'Main entrance', position: 1, ticketTypes: null, days: null };
const vipGate: CheckInList = { id: '22222222-2222-4222-8222-222222222222', name: 'VIP Gate', position: 2, ticketTypes: ['VIP'], days: null };
const merchDayThree: CheckInList = { id: '33333333-3333-4333-8333-333333333333', name: 'Merch desk', position: 3, ticketTypes: null, days: [3] };

/** What the app sent: verify bodies, counts and search query strings, manual check-in and undo bodies. */
const sent = { verify: [] as VerifyTicketRequest[], counts: [] as string[], searches: [] as string[], checkIns: [] as ManualCheckInRequest[], undos: [] as UndoCheckInRequest[] };

function serveLists(lists: CheckInList[]) {
  server.use(http.get(apiUrl(apiPaths.checkInLists), () => HttpResponse.json<CheckInLists>({ eventId: testEvent.id, lists })));
}

beforeEach(() => {
  for (const calls of Object.values(sent)) calls.length = 0;
  let attendee: Attendee = { ticketId: 'ticket-1', code: 'GC-ZOE', holderName: 'Zoe Adams', ticketType: 'VIP', admittedDays: null, revokedAt: null, day: testDay.day, checkIn: null };
  const base = `/events/${testEvent.id}`;
  server.use(
    http.post(apiUrl(apiPaths.verifyTicket), async ({ request }) => {
      sent.verify.push(VerifyTicketRequest.parse(await request.json()));
      return HttpResponse.json<VerifyTicketResponse>({ isValid: true, eventName: testEvent.name, holderName: 'Zoe Adams', ticketType: 'VIP' });
    }),
    http.get(apiUrl(apiPaths.checkInCounts), ({ request, params }) => {
      const listId = new URL(request.url).searchParams.get('checkInListId');
      sent.counts.push(listId ?? '');
      const list = [mainEntrance, vipGate].find((candidate) => candidate.id === listId);
      return HttpResponse.json<CheckInCounts>({
        eventId: String(params['eventId']),
        day: Number(params['day']),
        checkedIn: 12,
        validTickets: 340,
        ...(list ? { checkInList: { id: list.id, name: list.name, checkedIn: 3, validTickets: 40 } } : {}),
      });
    }),
    http.get(apiUrl(`${base}/attendees`), ({ request }) => {
      sent.searches.push(new URL(request.url).searchParams.toString());
      return HttpResponse.json<AttendeeSearchResponse>({ attendees: [attendee], hasMore: false });
    }),
    http.post(apiUrl(`${base}/attendees/:ticketId/check-in`), async ({ request }) => {
      sent.checkIns.push(ManualCheckInRequest.parse(await request.json()));
      attendee = { ...attendee, checkIn: { checkedInAt: '2026-07-11T12:05:00.000Z', checkedInBy: 'Sam Rivers' } };
      return HttpResponse.json<VerifyTicketResponse>({ isValid: true, holderName: attendee.holderName });
    }),
    http.get(apiUrl(`${base}/scan-log`), () => HttpResponse.json<ScanLogPage>({ entries: [], nextCursor: null })),
    http.post(apiUrl(`${base}/attendees/:ticketId/undo-check-in`), async ({ request }) => {
      const body = UndoCheckInRequest.parse(await request.json());
      sent.undos.push(body);
      attendee = { ...attendee, checkIn: null };
      return HttpResponse.json<UndoCheckInResponse>({ ticketId: 'ticket-1', day: body.day, checkedInAt: '2026-07-11T12:05:00.000Z', undoneAt: '2026-07-11T12:07:00.000Z', undoneBy: 'Sam Rivers', reason: body.reason });
    }),
  );
});

describe('check-in lists on the scanner (docs/decisions/109)', () => {
  test('an event with one list: choosing the day opens the scanner with no list step, no list stored and none sent', async () => {
    const { user, router } = renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
    await user.click(screen.getByRole('button', { name: /Big Saturday/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/scanner'));
    expect(screen.queryByText('Choose Check-in List')).not.toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('selectedDay') ?? 'null')).toEqual(testDay);
    expect(screen.queryByTestId('check-in-list-name')).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
    await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-ZOE{Enter}');
    await screen.findByRole('group', { name: 'Valid Ticket' });
    expect(sent.verify).toHaveLength(1);
    expect(sent.verify[0]).not.toHaveProperty('checkInListId');
    expect(sent.counts.every((listId) => listId === '')).toBe(true);
  });

  test('an event with several lists asks for the list after the day, keeps it inside selectedDay, names it in the header and sends it with verify and counts', async () => {
    serveLists([mainEntrance, vipGate, merchDayThree]);
    const { user, router } = renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
    await user.click(screen.getByRole('button', { name: /Big Saturday/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose Check-in List' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/day-select');
    // Day 2: the merch desk (day 3 only) is not offered.
    expect(screen.getByRole('button', { name: 'Main entrance' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'VIP Gate' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Merch desk' })).not.toBeInTheDocument();
    // The day is stored, its list still to choose.
    expect(JSON.parse(localStorage.getItem('selectedDay') ?? 'null')).toEqual({ ...testDay, checkInList: null });

    await user.click(screen.getByRole('button', { name: 'VIP Gate' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/scanner'));
    expect(JSON.parse(localStorage.getItem('selectedDay') ?? 'null')).toEqual({ ...testDay, checkInList: { id: vipGate.id, name: 'VIP Gate' } });
    // No storage key of its own (SPEC §3's four keys stay the only ones).
    expect(Object.keys(localStorage).filter((key) => /list/i.test(key))).toEqual([]);
    expect(await screen.findByTestId('check-in-list-name')).toHaveTextContent('Check-in list: VIP Gate');
    // SPEC §2's header texts stay.
    expect(screen.getByText('Scanning For')).toBeInTheDocument();
    // The count is the list's.
    expect(await screen.findByTestId('check-in-count')).toHaveTextContent('Checked in 3 / 40');
    expect(sent.counts).toContain(vipGate.id);

    await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
    await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-ZOE{Enter}');
    await screen.findByRole('group', { name: 'Valid Ticket' });
    expect(sent.verify).toEqual([expect.objectContaining({ eventId: testEvent.id, qrCode: 'GC-ZOE', day: testDay.day, checkInListId: vipGate.id })]);
  });

  test('with one list open that day among several, it is chosen without asking and still sent', async () => {
    serveLists([{ ...mainEntrance, days: [1] }, vipGate]);
    const { user, router } = renderApp({ route: '/day-select', selection: { organization: testOrganization, event: testEvent } });
    await user.click(screen.getByRole('button', { name: /Big Saturday/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/scanner'));
    expect(getSelection().day).toEqual({ ...testDay, checkInList: { id: vipGate.id, name: 'VIP Gate' } });
    expect(await screen.findByTestId('check-in-list-name')).toHaveTextContent('VIP Gate');
  });

  test('a stored day whose list is still to choose resumes at the list choice, from sign-in and from /scanner; Back there returns to the days', async () => {
    serveLists([mainEntrance, vipGate]);
    const { router, user } = renderApp({ route: '/login', selection: { organization: testOrganization, event: testEvent, day: { ...testDay, checkInList: null } } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose Check-in List' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/day-select');
    await router.navigate('/scanner');
    await waitFor(() => expect(router.state.location.pathname).toBe('/day-select'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose Check-in List' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Select Event Day' })).toBeInTheDocument();
    expect(localStorage.getItem('selectedDay')).toBeNull();
  });

  test('a day stored before lists (no list inside) parses and scans at the first list while the event has one list; a stored list is read back', async () => {
    localStorage.setItem('selectedDay', JSON.stringify(testDay));
    await loadSelection();
    expect(getSelection().day).toEqual(testDay);
    localStorage.setItem('selectedDay', JSON.stringify({ ...testDay, checkInList: { id: vipGate.id, name: 'VIP Gate' } }));
    await loadSelection();
    expect(getSelection().day?.checkInList).toEqual({ id: vipGate.id, name: 'VIP Gate' });

    serveLists([mainEntrance]);
    const { user, router } = renderApp({ route: '/login', selection: { organization: testOrganization, event: testEvent, day: testDay } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/scanner'));
    await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
    await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-ZOE{Enter}');
    await screen.findByRole('group', { name: 'Valid Ticket' });
    expect(sent.verify[0]).not.toHaveProperty('checkInListId');
    expect(router.state.location.pathname).toBe('/scanner');
    expect(screen.queryByTestId('check-in-list-name')).not.toBeInTheDocument();
    expect(getSelection().day).toEqual(testDay);
  });

  test('a day stored with no list, on an event that has gained a second list since: the resume goes on to the list step and the VIP Gate is chosen there (docs/decisions/151)', async () => {
    // The phone kept the event's lists for offline use while it had one: that copy is restored first.
    const keeper = createQueryClient({ retry: false });
    const listsKey = checkInListQueries.list(testEvent.id).queryKey;
    keeper.setQueryData(listsKey, { eventId: testEvent.id, lists: [mainEntrance] });
    await listPersister.persistQueryByKey(listsKey, keeper);
    serveLists([mainEntrance, vipGate]);
    const { user, router } = renderApp({ route: '/login', selection: { organization: testOrganization, event: testEvent, day: testDay } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose Check-in List' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/day-select');
    expect(await screen.findByText('This event now has several check-in lists')).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('selectedDay') ?? 'null')).toEqual({ ...testDay, checkInList: null });
    expect(sent.verify).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'VIP Gate' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/scanner'));
    expect(await screen.findByTestId('check-in-list-name')).toHaveTextContent('Check-in list: VIP Gate');
    await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
    await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-ZOE{Enter}');
    await screen.findByRole('group', { name: 'Valid Ticket' });
    expect(sent.verify).toEqual([expect.objectContaining({ checkInListId: vipGate.id })]);
  });

  test('a second list learnt while staff are scanning does not take their verdict away: they are told, and asked for the list once they stop (docs/decisions/151)', async () => {
    // The lists answer only once staff scan: the copy kept before the second list had one.
    let answerLists: (() => void) | undefined;
    const listsAnswered = new Promise<void>((resolve) => (answerLists = resolve));
    let isListsAsked = false;
    server.use(
      http.get(apiUrl(apiPaths.checkInLists), async () => {
        isListsAsked = true;
        await listsAnswered;
        return HttpResponse.json<CheckInLists>({ eventId: testEvent.id, lists: [mainEntrance, vipGate] });
      }),
    );
    const { user, router } = renderApp({ route: '/scanner', selection: { organization: testOrganization, event: testEvent, day: testDay } });
    await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
    await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-ZOE{Enter}');
    const verdict = await screen.findByRole('group', { name: 'Valid Ticket' });
    await waitFor(() => expect(isListsAsked).toBe(true));
    answerLists?.();
    expect(await screen.findByText('This event now has several check-in lists')).toBeInTheDocument();
    expect(verdict).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/scanner');
    expect(getSelection().day).toEqual(testDay);

    await user.click(screen.getByRole('button', { name: 'Stop Scanning' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose Check-in List' })).toBeInTheDocument();
    expect(getSelection().day).toEqual({ ...testDay, checkInList: null });
  });

  test('a list deleted while this phone scans at it: the refused verify is said in plain words and the phone goes to the list step once (docs/decisions/151)', async () => {
    serveLists([mainEntrance]);
    let verifies = 0;
    server.use(
      http.post(apiUrl(apiPaths.verifyTicket), () => {
        verifies += 1;
        return HttpResponse.json({ code: 'bad_request', message: `This event has no check-in list with id "${vipGate.id}".`, field: 'checkInListId' }, { status: 400 });
      }),
    );
    const { user, router } = renderApp({ route: '/scanner', selection: { organization: testOrganization, event: testEvent, day: { ...testDay, checkInList: { id: vipGate.id, name: 'VIP Gate' } } } });
    await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
    await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-ZOE{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose Check-in List' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/day-select');
    expect(await screen.findByText('“VIP Gate” is no longer a check-in list of this event. Choose where you scan now.')).toBeInTheDocument();
    expect(getSelection().day).toEqual({ ...testDay, checkInList: null });
    expect(verifies).toBe(1);
    // The list left is offered; choosing it scans there.
    await user.click(screen.getByRole('button', { name: 'Main entrance' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/scanner'));
    expect(getSelection().day?.checkInList).toEqual({ id: mainEntrance.id, name: 'Main entrance' });
  });

  test("a supervisor's search, manual check-in and undo at the VIP Gate send the list", async () => {
    const day = { ...testDay, checkInList: { id: vipGate.id, name: 'VIP Gate' } };
    const { user } = renderApp({ route: '/supervisor', selection: { organization: { ...testOrganization, role: 'supervisor' }, event: testEvent, day } });
    expect(await screen.findByText(/VIP Gate/)).toBeInTheDocument();
    await user.type(await screen.findByLabelText('Name or ticket code'), 'zoe');
    const row = await screen.findByRole('listitem', { name: 'Zoe Adams' });
    expect(new URLSearchParams(sent.searches[0]).get('checkInListId')).toBe(vipGate.id);
    await user.click(within(row).getByRole('button', { name: 'Check in' }));
    await within(row).findByText(/^Checked in at/);
    expect(sent.checkIns).toEqual([expect.objectContaining({ day: testDay.day, checkInListId: vipGate.id })]);
    await user.click(within(row).getByRole('button', { name: 'Undo check-in' }));
    await user.type(within(row).getByLabelText('Reason'), 'Wrong gate');
    await user.click(within(row).getByRole('button', { name: 'Confirm undo' }));
    await within(row).findByText('Not checked in');
    expect(sent.undos).toEqual([{ day: testDay.day, reason: 'Wrong gate', checkInListId: vipGate.id }]);
  });

  test('a list deleted while a supervisor works at it: the refused search is said in plain words and /supervisor goes to the list step once (docs/decisions/151)', async () => {
    serveLists([mainEntrance]);
    let searches = 0;
    server.use(
      http.get(apiUrl(`/events/${testEvent.id}/attendees`), () => {
        searches += 1;
        return HttpResponse.json({ code: 'bad_request', message: `This event has no check-in list with id "${vipGate.id}".`, field: 'checkInListId' }, { status: 400 });
      }),
    );
    const day = { ...testDay, checkInList: { id: vipGate.id, name: 'VIP Gate' } };
    const { user, router } = renderApp({ route: '/supervisor', selection: { organization: { ...testOrganization, role: 'supervisor' }, event: testEvent, day } });
    await user.type(await screen.findByLabelText('Name or ticket code'), 'zoe');
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose Check-in List' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/day-select');
    expect(await screen.findByText('“VIP Gate” is no longer a check-in list of this event. Choose where you scan now.')).toBeInTheDocument();
    expect(getSelection().day).toEqual({ ...testDay, checkInList: null });
    expect(searches).toBe(1);
    await user.click(screen.getByRole('button', { name: 'Main entrance' }));
    // Back to the tools the supervisor was using, at the list now chosen.
    expect(await screen.findByRole('heading', { level: 1, name: 'Supervisor tools' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/supervisor');
    // Stored, not only shown: no write of the selection outlives the test.
    await waitFor(() => expect(JSON.parse(localStorage.getItem('selectedDay') ?? 'null')).toEqual({ ...testDay, checkInList: { id: mainEntrance.id, name: 'Main entrance' } }));
  });

  test('/supervisor with the day\'s list still to choose goes to the list step, not to the first list, and the list chosen there leads back to /supervisor', async () => {
    serveLists([mainEntrance, vipGate]);
    const { user, router } = renderApp({ route: '/supervisor', selection: { organization: { ...testOrganization, role: 'supervisor' }, event: testEvent, day: { ...testDay, checkInList: null } } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose Check-in List' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/day-select');
    expect(sent.searches).toEqual([]);
    await user.click(await screen.findByRole('button', { name: 'VIP Gate' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Supervisor tools' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/supervisor');
    await waitFor(() => expect(JSON.parse(localStorage.getItem('selectedDay') ?? 'null')).toEqual({ ...testDay, checkInList: { id: vipGate.id, name: 'VIP Gate' } }));
  });

  test('Back from a list step asked for /supervisor shows the days, and a day chosen there leads to the scanner again', async () => {
    serveLists([mainEntrance, vipGate]);
    const { user, router } = renderApp({ route: '/supervisor', selection: { organization: { ...testOrganization, role: 'supervisor' }, event: testEvent, day: { ...testDay, checkInList: null } } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose Check-in List' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.click(await screen.findByRole('button', { name: /Big Saturday/ }));
    await user.click(await screen.findByRole('button', { name: 'Main entrance' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/scanner'));
    await waitFor(() => expect(JSON.parse(localStorage.getItem('selectedDay') ?? 'null')).toEqual({ ...testDay, checkInList: { id: mainEntrance.id, name: 'Main entrance' } }));
  });

  test('recent scans and conflicts are per list: a verdict at the VIP Gate is not listed at the main entrance, and each asks for its own conflicts', async () => {
    serveLists([mainEntrance, vipGate]);
    const conflictLists: string[] = [];
    server.use(
      http.get(apiUrl(offlinePaths.offlineConflicts(testEvent.id, testDay.day)), ({ request }) => {
        conflictLists.push(new URL(request.url).searchParams.get('checkInListId') ?? '');
        return HttpResponse.json<OfflineConflictList>({ conflicts: [] });
      }),
    );
    const { user, router } = renderApp({ route: '/scanner', selection: { organization: testOrganization, event: testEvent, day: { ...testDay, checkInList: { id: vipGate.id, name: 'VIP Gate' } } } });
    await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
    await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'GC-ZOE{Enter}');
    await screen.findByRole('group', { name: 'Valid Ticket' });
    expect(await screen.findByText('Recent scans')).toHaveTextContent('Recent scans(1)');
    await waitFor(() => expect(conflictLists).toContain(vipGate.id));

    // To the main entrance: the days, the day, the list.
    await user.click(screen.getAllByRole('button', { name: 'Back' })[0] as HTMLElement);
    await user.click(await screen.findByRole('button', { name: /Big Saturday/ }));
    await user.click(await screen.findByRole('button', { name: 'Main entrance' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/scanner'));
    expect(await screen.findByTestId('check-in-list-name')).toHaveTextContent('Main entrance');
    expect(await screen.findByText('Recent scans')).toHaveTextContent('Recent scans(0)');
    await waitFor(() => expect(conflictLists).toContain(mainEntrance.id));
  });
});
