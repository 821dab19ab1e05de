/**
 * Entry and exit, capacity and info mode on /scanner (docs/decisions/113) through the real routes,
 * selection store and query client, with the API answered by MSW: the Entry / Exit switch at a list
 * that allows re-entry (kept inside the stored selectedDay across a reload), 'Exit recorded' and
 * 'Not inside', 'Inside now' beside the counts for the list and the event, the capacity line filling
 * up (amber from 90 %, 'At capacity: N inside'), and a supervisor's info scan that admits nobody.
 */
import {
  apiPaths,
  type CheckInCounts,
  type CheckInList,
  type CheckInLists,
  InfoScanRequest,
  type InfoScanResponse,
  type ScanLogPage,
  VerifyTicketRequest,
  type VerifyTicketResponse,
} from '@gatecheck/contract';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, test } from 'vitest';
import { checkInListQueries } from '@/lib/check-ins/check-in-lists.ts';
import { createQueryClient } from '@/lib/query-client.ts';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

const mainEntrance: CheckInList = { id: '11111111-1111-4111-8111-111111111111', name: 'Main entrance', position: 1, ticketTypes: null, days: null, allowsReentry: false, capacity: null, dailyCheckoutTime: null };
const bar: CheckInList = { id: '44444444-4444-4444-8444-444444444444', name: 'Bar', position: 2, ticketTypes: null, days: null, allowsReentry: true, capacity: 50, dailyCheckoutTime: null };
const atBar = { ...testDay, checkInList: { id: bar.id, name: 'Bar' } };

const sent = { verify: [] as VerifyTicketRequest[], info: [] as InfoScanRequest[] };
let verdict: VerifyTicketResponse = { isValid: true, holderName: 'Zoe Adams' };
let insideAtBar = 12;

beforeEach(() => {
  sent.verify.length = 0;
  sent.info.length = 0;
  verdict = { isValid: true, holderName: 'Zoe Adams' };
  insideAtBar = 12;
  server.use(
    http.get(apiUrl(apiPaths.checkInLists), () => HttpResponse.json<CheckInLists>({ eventId: testEvent.id, lists: [mainEntrance, bar] })),
    http.post(apiUrl(apiPaths.verifyTicket), async ({ request }) => {
      sent.verify.push(VerifyTicketRequest.parse(await request.json()));
      return HttpResponse.json<VerifyTicketResponse>(verdict);
    }),
    http.get(apiUrl(apiPaths.checkInCounts), ({ request, params }) => {
      const listId = new URL(request.url).searchParams.get('checkInListId');
      return HttpResponse.json<CheckInCounts>({
        eventId: String(params['eventId']),
        day: Number(params['day']),
        checkedIn: 120,
        validTickets: 340,
        insideNow: 100,
        ...(listId === bar.id ? { checkInList: { id: bar.id, name: 'Bar', checkedIn: 30, validTickets: 340, insideNow: insideAtBar, capacity: 50, allowsReentry: true } } : {}),
      });
    }),
    http.post(apiUrl(`/events/${testEvent.id}/info-scan`), async ({ request }) => {
      sent.info.push(InfoScanRequest.parse(await request.json()));
      return HttpResponse.json<InfoScanResponse>({
        day: testDay.day,
        ticket: { ticketId: 't-1', code: 'GC-ZOE', holderName: 'Zoe Adams', ticketType: 'VIP', admittedDays: null, revokedAt: null },
        lists: [
          { id: mainEntrance.id, name: 'Main entrance', admitsTicket: true, allowsReentry: false, checkIn: { checkedInAt: '2026-07-11T10:05:00.000Z', checkedInBy: 'Sam Rivers', lastEnteredAt: '2026-07-11T10:05:00.000Z', exitedAt: null, isInside: true } },
          { id: bar.id, name: 'Bar', admitsTicket: true, allowsReentry: true, checkIn: { checkedInAt: '2026-07-11T11:00:00.000Z', checkedInBy: 'Ana Lee', lastEnteredAt: '2026-07-11T11:00:00.000Z', exitedAt: '2026-07-11T11:30:00.000Z', isInside: false } },
        ],
      });
    }),
  );
});

async function verifyByHand(user: ReturnType<typeof renderApp>['user'], code: string) {
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), `${code}{Enter}`);
}

describe('entry and exit, capacity and info mode on the scanner (docs/decisions/113)', () => {
  test("at a list with re-entry, Exit sends direction 'exit', says 'Exit recorded', and stays chosen across a reload inside selectedDay", async () => {
    const { user } = renderApp({ route: '/scanner', selection: { organization: testOrganization, event: testEvent, day: atBar } });
    await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
    const exit = await screen.findByRole('radio', { name: 'Exit' });
    await user.click(exit);
    expect(await screen.findByTestId('scan-mode')).toHaveTextContent('Scan as: Exit');
    verdict = { isValid: true, holderName: 'Zoe Adams', direction: 'exit', exitedAt: '2026-07-11T12:00:00.000Z' };
    await verifyByHand(user, 'GC-ZOE');
    const card = await screen.findByRole('group', { name: 'Valid Ticket' });
    expect(within(card).getByTestId('result-card-approval')).toHaveTextContent('Exit recorded');
    expect(sent.verify).toEqual([expect.objectContaining({ qrCode: 'GC-ZOE', checkInListId: bar.id, direction: 'exit' })]);
    // Kept inside the stored day: no storage key of its own.
    expect(JSON.parse(localStorage.getItem('selectedDay') ?? 'null')).toEqual({ ...atBar, scanMode: 'exit' });
    expect(Object.keys(localStorage).filter((key) => /mode|direction|exit/i.test(key))).toEqual([]);

    // An exit of someone not inside.
    verdict = { isValid: false, reason: 'not_inside', message: 'Not inside', direction: 'exit' };
    await verifyByHand(user, 'GC-OUT');
    expect(await screen.findByRole('group', { name: 'Invalid Ticket' })).toHaveTextContent('Not inside');

    // A reload: the app starts again from storage, still at Exit.
    cleanup();
    renderApp({ route: '/scanner', selection: { organization: testOrganization, event: testEvent, day: JSON.parse(localStorage.getItem('selectedDay') ?? 'null') } });
    expect(await screen.findByTestId('scan-mode')).toHaveTextContent('Scan as: Exit');
    expect(await screen.findByRole('radio', { name: 'Exit' })).toBeChecked();
  });

  test('a list without re-entry offers no Exit to staff, and every scan is an entry', async () => {
    const { user } = renderApp({ route: '/scanner', selection: { organization: testOrganization, event: testEvent, day: { ...testDay, checkInList: { id: mainEntrance.id, name: 'Main entrance' }, scanMode: 'exit' } } });
    await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
    await verifyByHand(user, 'GC-ZOE');
    await screen.findByRole('group', { name: 'Valid Ticket' });
    expect(screen.queryByRole('radio', { name: 'Exit' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('scan-mode')).not.toBeInTheDocument();
    // Nobody leaves there: no 'Inside now' (it would equal N), the header as before.
    expect(screen.getByTestId('check-in-count')).not.toHaveTextContent('Inside now');
    expect(screen.queryByTestId('event-count')).not.toBeInTheDocument();
    expect(sent.verify[0]).not.toHaveProperty('direction');
  });

  test("the header shows inside now for the list and the event, the capacity filling up (amber from 90 %) and 'At capacity: N inside'", async () => {
    insideAtBar = 44;
    const { queryClient } = renderApp({ route: '/scanner', selection: { organization: testOrganization, event: testEvent, day: atBar } });
    expect(await screen.findByTestId('check-in-count')).toHaveTextContent('Checked in 30 / 340');
    expect(await screen.findByTestId('capacity')).toHaveTextContent('Inside now: 44 / 50');
    expect(screen.getByTestId('capacity')).toHaveAttribute('data-level', 'ok');
    expect(screen.getByTestId('event-count')).toHaveTextContent('Whole event: 120 / 340 · Inside now: 100');

    insideAtBar = 45;
    await queryClient.invalidateQueries();
    await waitFor(() => expect(screen.getByTestId('capacity')).toHaveAttribute('data-level', 'filling'));
    insideAtBar = 50;
    await queryClient.invalidateQueries();
    await waitFor(() => expect(screen.getByTestId('capacity')).toHaveTextContent('At capacity: 50 inside'));
    expect(screen.getByTestId('capacity')).toHaveAttribute('data-level', 'full');
  });

  test("the list's inside now comes with the verdict: the header says it at once, without waiting for the counts to be read again (decision 120)", async () => {
    insideAtBar = 44;
    let isCountsHeld = false;
    server.use(
      http.get(apiUrl(apiPaths.checkInCounts), async () => {
        // Read once; after the verdict the counts do not answer, so only the verdict can move the header.
        if (isCountsHeld) await delay('infinite');
        return HttpResponse.json<CheckInCounts>({ eventId: testEvent.id, day: testDay.day, checkedIn: 120, validTickets: 340, insideNow: 100, checkInList: { id: bar.id, name: 'Bar', checkedIn: 30, validTickets: 340, insideNow: insideAtBar, capacity: 50, allowsReentry: true } });
      }),
    );
    const { user } = renderApp({ route: '/scanner', selection: { organization: testOrganization, event: testEvent, day: atBar } });
    expect(await screen.findByTestId('capacity')).toHaveTextContent('Inside now: 44 / 50');
    isCountsHeld = true;
    await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
    verdict = { isValid: true, holderName: 'Zoe Adams', insideNow: 45, capacity: 50 };
    await verifyByHand(user, 'GC-ZOE');
    await screen.findByRole('group', { name: 'Valid Ticket' });
    await waitFor(() => expect(screen.getByTestId('capacity')).toHaveTextContent('Inside now: 45 / 50'));
    expect(screen.getByTestId('capacity')).toHaveAttribute('data-level', 'filling');
    // An exit: one fewer.
    await user.click(screen.getByRole('radio', { name: 'Exit' }));
    verdict = { isValid: true, holderName: 'Zoe Adams', direction: 'exit', insideNow: 44, capacity: 50 };
    await verifyByHand(user, 'GC-ZOE');
    await waitFor(() => expect(screen.getByTestId('capacity')).toHaveTextContent('Inside now: 44 / 50'));
  });

  test("a full list's denial says 'At capacity: 50 inside'", async () => {
    verdict = { isValid: false, reason: 'at_capacity', message: 'At capacity: 50 inside', capacityDenial: { insideNow: 50, capacity: 50 } };
    const { user } = renderApp({ route: '/scanner', selection: { organization: testOrganization, event: testEvent, day: atBar } });
    await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
    await verifyByHand(user, 'GC-ZOE');
    expect(await screen.findByRole('group', { name: 'Invalid Ticket' })).toHaveTextContent('At capacity: 50 inside');
  });

  test("a supervisor's info scan shows the ticket's state on each list of the day and admits nobody; staff have no Info", async () => {
    const { user } = renderApp({ route: '/scanner', selection: { organization: { ...testOrganization, role: 'supervisor' }, event: testEvent, day: atBar } });
    await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
    await user.click(await screen.findByRole('radio', { name: 'Info' }));
    await verifyByHand(user, 'GC-ZOE');
    const card = await screen.findByTestId('info-scan-card');
    expect(card).toHaveTextContent('Info scan — nobody admitted');
    expect(card).toHaveTextContent('Zoe Adams · VIP');
    const rows = within(card).getAllByTestId('info-scan-list');
    expect(rows[0]).toHaveTextContent(/^Main entrance: In at \d\d:\d\d by Sam Rivers$/);
    expect(rows[1]).toHaveTextContent(/^Bar: In at \d\d:\d\d by Ana Lee · Left \(left at \d\d:\d\d\)$/);
    expect(sent.info).toEqual([expect.objectContaining({ qrCode: 'GC-ZOE', day: testDay.day })]);
    expect(sent.verify).toEqual([]);
    cleanup();

    renderApp({ route: '/scanner', selection: { organization: testOrganization, event: testEvent, day: { ...testDay, checkInList: { id: mainEntrance.id, name: 'Main entrance' } } } });
    await screen.findByRole('button', { name: 'Start Scanning' });
    expect(screen.queryByRole('radio', { name: 'Info' })).not.toBeInTheDocument();
  });

  test("an info scan of a ticket not valid on the day (its own days with its type's) says so above lists that do not admit it", async () => {
    const otherDay = testDay.day + 1;
    server.use(
      http.post(apiUrl(`/events/${testEvent.id}/info-scan`), () =>
        HttpResponse.json<InfoScanResponse>({
          day: testDay.day,
          ticket: { ticketId: 't-2', code: 'GC-SAT', holderName: 'Sam Day', ticketType: 'Saturday pass', admittedDays: [otherDay], revokedAt: null },
          lists: [
            { id: mainEntrance.id, name: 'Main entrance', admitsTicket: false, allowsReentry: false, checkIn: null },
            { id: bar.id, name: 'Bar', admitsTicket: false, allowsReentry: true, checkIn: null },
          ],
        }),
      ),
    );
    const { user } = renderApp({ route: '/scanner', selection: { organization: { ...testOrganization, role: 'supervisor' }, event: testEvent, day: atBar } });
    await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
    await user.click(await screen.findByRole('radio', { name: 'Info' }));
    await verifyByHand(user, 'GC-SAT');
    const card = await screen.findByTestId('info-scan-card');
    expect(card).toHaveTextContent('Sam Day · Saturday pass');
    expect(within(card).getByText(`Not valid on Day ${testDay.day}`)).toBeVisible();
    expect(within(card).getAllByTestId('info-scan-list').map((row) => row.textContent)).toEqual(['Main entrance: Not valid here', 'Bar: Not valid here']);
  });

  test("the supervisor's scan log names each entry's list and says exits and info scans", async () => {
    server.use(
      http.get(apiUrl(`/events/${testEvent.id}/scan-log`), () =>
        HttpResponse.json<ScanLogPage>({
          entries: [
            { id: 'e2', at: '2026-07-11T12:01:00.000Z', day: testDay.day, userName: 'Ana Lee', code: 'GC-ZOE', verdict: 'exited', reason: null, source: 'scan', checkInListId: bar.id, direction: 'exit' },
            { id: 'e1', at: '2026-07-11T12:00:00.000Z', day: testDay.day, userName: 'Ana Lee', code: 'GC-ZOE', verdict: 'info', reason: null, source: 'scan', checkInListId: mainEntrance.id },
          ],
          nextCursor: null,
        }),
      ),
    );
    const queryClient = createQueryClient({ retry: false });
    // The lists as the day step read them.
    queryClient.setQueryData(checkInListQueries.list(testEvent.id).queryKey, { eventId: testEvent.id, lists: [mainEntrance, bar] });
    renderApp({ route: '/supervisor', queryClient, selection: { organization: { ...testOrganization, role: 'supervisor' }, event: testEvent, day: atBar } });
    const entries = await screen.findAllByTestId('scan-log-list');
    expect(entries.map((entry) => entry.textContent)).toEqual([' · at Bar', ' · at Main entrance']);
    const rows = within(screen.getByRole('list', { name: 'Scan log entries' })).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent(/· Exit · at Bar/);
    expect(rows[1]).toHaveTextContent(/· Info scan · at Main entrance/);
  });
});

