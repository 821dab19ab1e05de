/**
 * An event's check-in lists in the management area (docs/decisions/115) against a contract-shaped
 * fake server (msw): the form checks its input with the contract's schema and shows each problem
 * next to its field before anything is sent; a new list's request carries its types, days and door
 * settings; a server refusal that names a field is shown at that field; deleting asks first, and a
 * refused delete (a list with check-ins) says why; the Activity page words a list's change.
 */
import {
  apiPaths,
  type ApiErrorBody,
  type AuditEntry,
  type CheckInList,
  checkInListsPath,
  type CheckInLists,
  CreateCheckInListRequest,
  EditCheckInListRequest,
  type ManagedEvent,
  managePaths,
  type TicketTypesResponse,
} from '@gatecheck/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, expect, test } from 'vitest';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { testOrganization } from '@/test/fixtures.ts';
import { renderApp } from '@/test/render.tsx';
import { chooseLanguage } from '@/lib/i18n/choice.ts';

const adminOrganization = { ...testOrganization, role: 'admin' };
const EVENT_ID = 'event-7';
const event: ManagedEvent = {
  id: EVENT_ID,
  organizationId: testOrganization.id,
  title: 'Dockside Jazz',
  description: '',
  date: '2026-12-04',
  location: 'Pier 4',
  status: 'live',
  timeZone: 'Europe/Berlin',
  dayCutoff: '04:00',
  allowsScanningOutsideDays: false,
  days: [
    { day: 1, name: 'Friday', date: '2026-12-04', checkIns: 0 },
    { day: 2, name: 'Saturday', date: '2026-12-05', checkIns: 0 },
  ],
  archivedAt: null,
  ticketCount: 40,
  checkInCount: 0,
};
const allTickets: CheckInList = { id: 'list-1', name: 'All tickets', position: 1, ticketTypes: null, days: null, allowsReentry: false, capacity: null, dailyCheckoutTime: null };

let lists: CheckInList[];
let created: CreateCheckInListRequest[];
let edits: EditCheckInListRequest[];
let deletes: string[];

beforeEach(() => {
  lists = [allTickets];
  created = [];
  edits = [];
  deletes = [];
  const listPath = apiUrl(apiPaths.checkInList.replace(':eventId', EVENT_ID));
  server.use(
    http.get(apiUrl(managePaths.event(EVENT_ID)), () => HttpResponse.json<ManagedEvent>(event)),
    http.get(apiUrl(checkInListsPath(EVENT_ID)), () => HttpResponse.json<CheckInLists>({ eventId: EVENT_ID, lists })),
    http.get(apiUrl(apiPaths.ticketTypes.replace(':eventId', EVENT_ID)), () =>
      HttpResponse.json<TicketTypesResponse>({
        ticketTypes: [
          { name: 'General Admission', checkInNote: '', requiresAttention: false, days: null, tickets: 30 },
          { name: 'VIP', checkInNote: '', requiresAttention: false, days: null, tickets: 10 },
        ],
      }),
    ),
    http.post<never, never, CheckInList | ApiErrorBody>(apiUrl(checkInListsPath(EVENT_ID)), async ({ request }) => {
      const body = CreateCheckInListRequest.parse(await request.json());
      created.push(body);
      if (body.name === 'All tickets') return errorResponse(400, { code: 'bad_request', message: '"Dockside Jazz" already has a check-in list named "All tickets".', field: 'body.name' });
      const list: CheckInList = { id: 'list-2', position: 2, ...body };
      lists = [...lists, list];
      return HttpResponse.json<CheckInList>(list, { status: 201 });
    }),
    http.patch<{ checkInListId: string }, never, CheckInList>(listPath, async ({ request, params }) => {
      const body = EditCheckInListRequest.parse(await request.json());
      edits.push(body);
      lists = lists.map((list) => (list.id === params.checkInListId ? { ...list, ...body } : list));
      const saved = lists.find((list) => list.id === params.checkInListId);
      if (!saved) throw new Error('no such list');
      return HttpResponse.json<CheckInList>(saved);
    }),
    http.delete<{ checkInListId: string }, never, CheckInList | ApiErrorBody>(listPath, ({ params }) => {
      deletes.push(params.checkInListId);
      return errorResponse(409, { code: 'conflict', message: '"All tickets" has 3 check-in(s) and cannot be deleted; edit it instead (its check-ins stay on it).' });
    }),
  );
});

test('the capacity says what it limits: without re-entry the day\'s admissions through the list, with it the guests inside at once; in English and German (docs/decisions/151)', async () => {
  const { user } = renderApp({ route: `/manage/events/${EVENT_ID}/lists`, selection: { organization: adminOrganization } });
  await user.click(await screen.findByRole('button', { name: 'New check-in list' }));
  expect(screen.getByLabelText('Capacity')).toHaveAccessibleDescription(/limits the day's admissions here, not the guests inside at once/);
  await user.click(screen.getByRole('switch', { name: 'Guests may leave and come back' }));
  expect(screen.getByLabelText('Capacity')).toHaveAccessibleDescription('Guests inside at once through this list. Leave empty for no limit.');
  await user.click(screen.getByRole('switch', { name: 'Guests may leave and come back' }));
  await chooseLanguage('de');
  expect(await screen.findByLabelText('Kapazität')).toHaveAccessibleDescription(/Grenze gilt also für die Eintritte des Tages hier, nicht für die Gäste gleichzeitig drinnen/);
});

test("a new 'VIP Gate' list: problems at their fields before anything is sent, then its types, days and door settings are sent", { timeout: 30_000 }, async () => {
  const { user } = renderApp({ route: `/manage/events/${EVENT_ID}/lists`, selection: { organization: adminOrganization } });
  await user.click(await screen.findByRole('button', { name: 'New check-in list' }));
  await user.click(screen.getByRole('switch', { name: 'Every ticket type' }));
  await user.click(screen.getByRole('switch', { name: 'Every day' }));
  await user.type(screen.getByLabelText('Capacity'), '0');
  await user.click(screen.getByRole('button', { name: 'Add list' }));
  expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('Give the list a name.');
  expect(screen.getByRole('group', { name: 'Ticket types' })).toHaveAccessibleDescription('Choose at least one ticket type, or every type.');
  expect(screen.getByRole('group', { name: 'Days' })).toHaveAccessibleDescription('Choose at least one day, or every day.');
  expect(screen.getByLabelText('Capacity')).toHaveAccessibleDescription(/Use a whole number from 1 to 100000/);
  expect(created).toEqual([]);

  await user.type(screen.getByLabelText('Name'), 'All tickets');
  await user.click(screen.getByRole('checkbox', { name: 'VIP' }));
  await user.click(screen.getByRole('checkbox', { name: 'Day 2 · Saturday' }));
  await user.clear(screen.getByLabelText('Capacity'));
  await user.type(screen.getByLabelText('Capacity'), '250');
  await user.click(screen.getByRole('switch', { name: 'Guests may leave and come back' }));
  await user.type(screen.getByLabelText('Daily checkout time'), '03:00');
  await user.click(screen.getByRole('button', { name: 'Add list' }));
  await waitFor(() => expect(screen.getByLabelText('Name')).toHaveAccessibleDescription(/already has a check-in list named "All tickets"/));

  await user.clear(screen.getByLabelText('Name'));
  await user.type(screen.getByLabelText('Name'), 'VIP Gate');
  await user.click(screen.getByRole('button', { name: 'Add list' }));
  expect(await screen.findByText('VIP Gate')).toBeInTheDocument();
  expect(created.at(-1)).toEqual({ name: 'VIP Gate', ticketTypes: ['VIP'], days: [2], allowsReentry: true, capacity: 250, dailyCheckoutTime: '03:00' });
  expect(screen.getByText('Capacity 250')).toBeInTheDocument();
});

test('editing a list sends the whole list; deleting asks first, and a refused delete says why', { timeout: 20_000 }, async () => {
  lists = [allTickets, { id: 'list-2', name: 'Merch desk', position: 2, ticketTypes: ['VIP'], days: [1], allowsReentry: false, capacity: null, dailyCheckoutTime: null }];
  const { user } = renderApp({ route: `/manage/events/${EVENT_ID}/lists`, selection: { organization: adminOrganization } });
  await user.click(await screen.findByRole('button', { name: 'Edit Merch desk' }));
  await user.click(screen.getByRole('switch', { name: 'Every day' }));
  await user.click(screen.getByRole('button', { name: 'Save list' }));
  await waitFor(() => expect(edits).toEqual([{ name: 'Merch desk', ticketTypes: ['VIP'], days: null, allowsReentry: false, capacity: null, dailyCheckoutTime: null }]));

  await user.click(await screen.findByRole('button', { name: 'Delete All tickets' }));
  const dialog = await screen.findByRole('alertdialog', { name: 'Delete All tickets?' });
  await user.click(within(dialog).getByRole('button', { name: 'Delete All tickets' }));
  expect(await screen.findByText(/has 3 check-in\(s\) and cannot be deleted/)).toBeInTheDocument();
  expect(deletes).toEqual(['list-1']);
});

test("the Activity page words a list's change: which list, and each setting before and after", async () => {
  const entry: AuditEntry = {
    id: 'a1',
    at: '2026-11-27T20:00:00.000Z',
    actor: { kind: 'user', name: 'Dana Admin' },
    action: 'check_in_list.updated',
    before: { checkInListId: 'list-2', name: 'VIP Gate', position: 2, ticketTypes: ['VIP'], days: null },
    after: { checkInListId: 'list-2', name: 'VIP Gate', position: 2, ticketTypes: ['VIP', 'Press'], days: [1] },
  };
  server.use(http.get(apiUrl(managePaths.eventActivity(EVENT_ID)), () => HttpResponse.json<AuditEntry[]>([entry])));
  renderApp({ route: `/manage/events/${EVENT_ID}/activity`, selection: { organization: adminOrganization } });
  expect(await screen.findByText('Changed the check-in list VIP Gate')).toBeInTheDocument();
  expect(screen.getByText('VIP → VIP, Press')).toBeInTheDocument();
  expect(screen.getByText('Every day → Day 1')).toBeInTheDocument();
});

test("a refusal of the re-entry setting is said at its switch: described by it and marked invalid, as every field of the form", { timeout: 20_000 }, async () => {
  const refusal = 'Guests are inside through this list: re-entry cannot be turned off until they have left.';
  lists = [{ ...allTickets, allowsReentry: true }];
  server.use(http.patch(apiUrl(apiPaths.checkInList.replace(':eventId', EVENT_ID)), () => errorResponse(400, { code: 'bad_request', message: refusal, field: 'body.allowsReentry' })));
  const { user } = renderApp({ route: `/manage/events/${EVENT_ID}/lists`, selection: { organization: adminOrganization } });
  await user.click(await screen.findByRole('button', { name: 'Edit All tickets' }));
  const reentry = screen.getByRole('switch', { name: 'Guests may leave and come back' });
  expect(reentry).not.toHaveAttribute('aria-invalid');
  await user.click(reentry);
  await user.click(screen.getByRole('button', { name: 'Save list' }));
  await waitFor(() => expect(screen.getByRole('switch', { name: 'Guests may leave and come back' })).toHaveAccessibleDescription(new RegExp(`${refusal.slice(0, 30)}`)));
  expect(screen.getByRole('switch', { name: 'Guests may leave and come back' })).toHaveAttribute('aria-invalid', 'true');
  // Said once, at the switch: not again for the whole form.
  expect(screen.getAllByText(refusal)).toHaveLength(1);
});
