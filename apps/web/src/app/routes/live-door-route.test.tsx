/**
 * The live door page (docs/decisions/117) against a contract-shaped fake server (msw): the figures
 * per list and ticket type, the arrivals table beside the chart, denials in words, devices online or
 * offline; a new arrival at the server shows without a tap; a refusal is said in words; the
 * supervisor tools link to it; an export asks the server for the day's CSV.
 */
import { type LiveDoor, liveDoorPaths } from '@gatecheck/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { renderApp } from '@/test/render.tsx';

const supervisorOrganization = { ...testOrganization, role: 'supervisor' };
const DAY = testDay.day;
const NOW = '2026-07-11T18:12:00.000Z';
let figures: LiveDoor;
let asked = 0;

function liveFigures(): LiveDoor {
  return {
    eventId: testEvent.id,
    day: DAY,
    generatedAt: NOW,
    slotMinutes: 5,
    checkedIn: 5,
    validTickets: 20,
    ticketTypes: [
      { name: 'General Admission', checkedIn: 4, validTickets: 16 },
      { name: 'VIP', checkedIn: 1, validTickets: 4 },
    ],
    lists: [
      { id: 'list-north', name: 'North entrance', checkedIn: 4, validTickets: 20, insideNow: 3, capacity: null, arrivals: [{ at: '2026-07-11T18:00:00Z', count: 3 }, { at: '2026-07-11T18:10:00Z', count: 1 }] },
      { id: 'list-vip', name: 'VIP Gate', checkedIn: 1, validTickets: 4, insideNow: 1, capacity: 50, arrivals: [{ at: '2026-07-11T18:05:00Z', count: 1 }] },
    ],
    scansLastMinute: 7,
    denials: [{ reason: 'already_checked_in', count: 2 }],
    devices: [
      { id: 'device-1', name: 'North gate 2', eventId: testEvent.id, eventTitle: testEvent.name, checkInListId: null, checkInListName: null, isOnline: true, appVersion: '1.4.0', platform: 'android', enrolledAt: NOW, lastSeenAt: '2026-07-11T18:11:00.000Z', scansWaiting: 3, revokedAt: null },
      { id: 'device-2', name: 'Back door', eventId: testEvent.id, eventTitle: testEvent.name, checkInListId: null, checkInListName: null, isOnline: false, appVersion: null, platform: null, enrolledAt: NOW, lastSeenAt: '2026-07-11T17:00:00.000Z', scansWaiting: null, revokedAt: null },
    ],
    occupancy: { inside: 4, capacity: null },
  };
}

beforeEach(() => {
  figures = liveFigures();
  asked = 0;
  server.use(
    http.get(apiUrl(liveDoorPaths.live(testEvent.id, DAY)), () => {
      asked += 1;
      return HttpResponse.json<LiveDoor>(figures);
    }),
  );
});
const { createObjectURL, revokeObjectURL } = URL;
afterEach(() => {
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

const selection = { organization: supervisorOrganization, event: testEvent, day: testDay };

test('a supervisor sees checked in / expected per list and ticket type, the scan rate, denials in words and the devices', async () => {
  renderApp({ route: `/events/${testEvent.id}/live?day=${DAY}`, selection });
  expect(await screen.findByRole('heading', { level: 1, name: 'Live door' })).toBeInTheDocument();
  expect(await screen.findByTestId('live-checked-in')).toHaveTextContent('5 / 20');
  const lists = screen.getByRole('list', { name: 'Check-in lists' });
  expect(within(lists).getByText('North entrance').closest('li')).toHaveTextContent('4 / 20 (20 %)');
  expect(within(lists).getByText('VIP Gate').closest('li')).toHaveTextContent('1 / 4 (25 %)');
  expect(within(screen.getByRole('list', { name: 'Ticket types' })).getByText('General Admission').closest('li')).toHaveTextContent('4 / 16 (25 %)');
  expect(screen.getByText('7 scans a minute')).toBeInTheDocument();
  expect(screen.getByText('Already checked in').closest('li')).toHaveTextContent('2');
  expect(screen.getByText('North gate 2').closest('li')).toHaveTextContent(/Online.*3 scans waiting to be sent/);
  expect(screen.getByText('Back door').closest('li')).toHaveTextContent('Offline');
  // Inside now: the event's guests, and each list's with its capacity when it has one.
  expect(screen.getByTestId('live-inside-now')).toHaveTextContent('4');
  expect(within(lists).getByText('North entrance').closest('li')).toHaveTextContent('Inside now: 3');
  expect(within(lists).getByText('VIP Gate').closest('li')).toHaveTextContent('Inside now: 1 / 50');
});

test('the arrivals chart has a table alternative: a row per 5-minute slot, a column per list, quiet slots as 0', async () => {
  renderApp({ route: `/events/${testEvent.id}/live?day=${DAY}`, selection });
  const table = await screen.findByRole('table', { name: 'Arrivals per 5 minutes and check-in list' });
  expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['From', 'North entrance', 'VIP Gate']);
  const rows = within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
  expect(rows).toEqual([
    ['3', '0'],
    ['0', '1'],
    ['1', '0'],
  ]);
});

test('a new arrival at the server shows without a tap, on its list', async () => {
  renderApp({ route: `/events/${testEvent.id}/live?day=${DAY}`, selection });
  expect(await screen.findByTestId('live-checked-in')).toHaveTextContent('5 / 20');
  const [north, vip] = figures.lists;
  if (!north || !vip) throw new Error('fixture');
  figures = { ...figures, checkedIn: 6, lists: [north, { ...vip, checkedIn: 2, arrivals: [...vip.arrivals, { at: '2026-07-11T18:10:00Z', count: 1 }] }] };
  await waitFor(() => expect(screen.getByTestId('live-checked-in')).toHaveTextContent('6 / 20'), { timeout: 5_000 });
  expect(within(screen.getByRole('list', { name: 'Check-in lists' })).getByText('VIP Gate').closest('li')).toHaveTextContent('2 / 4');
  const table = screen.getByRole('table', { name: 'Arrivals per 5 minutes and check-in list' });
  expect(within(within(table).getAllByRole('row')[3] as HTMLElement).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['1', '1']);
  expect(asked).toBeGreaterThanOrEqual(2);
});

test('a staff member (refused by the server) is told in words', async () => {
  server.use(http.get(apiUrl(liveDoorPaths.live(testEvent.id, DAY)), () => errorResponse(403, { code: 'forbidden', message: 'This needs the supervisor role or higher.' })));
  renderApp({ route: `/events/${testEvent.id}/live?day=${DAY}`, selection: { ...selection, organization: testOrganization } });
  expect(await screen.findByRole('alert')).toHaveTextContent('Only supervisors and admins can watch the live door.');
  expect(screen.queryByTestId('live-checked-in')).not.toBeInTheDocument();
});

test('the supervisor tools link to the live door of the selected day', async () => {
  const { user, router } = renderApp({ route: '/supervisor', selection });
  await user.click(await screen.findByRole('link', { name: 'Live door' }));
  await waitFor(() => expect(router.state.location.pathname).toBe(`/events/${testEvent.id}/live`));
  expect(router.state.location.search).toBe(`?day=${DAY}`);
  expect(await screen.findByTestId('live-checked-in')).toHaveTextContent('5 / 20');
});

test("an export asks the server for the day's CSV and hands it to the browser as a file", async () => {
  const saved: Blob[] = [];
  // jsdom has no object URLs: the browser's part of a download, recorded here.
  URL.createObjectURL = (blob: Blob) => {
    saved.push(blob);
    return 'blob:csv';
  };
  URL.revokeObjectURL = () => undefined;
  server.use(http.get(apiUrl(liveDoorPaths.arrivalsCsv(testEvent.id, DAY)), () => new HttpResponse('check_in_list,slot_start,slot_end,arrivals\n', { headers: { 'content-type': 'text/csv' } })));
  const { user } = renderApp({ route: `/events/${testEvent.id}/live?day=${DAY}`, selection });
  await user.click(await screen.findByRole('button', { name: 'Arrivals (CSV)' }));
  await waitFor(() => expect(saved).toHaveLength(1));
  const text = await new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(saved[0] ?? new Blob());
  });
  expect(text).toBe('check_in_list,slot_start,slot_end,arrivals\n');
});
