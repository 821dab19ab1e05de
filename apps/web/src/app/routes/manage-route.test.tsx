/**
 * The management area (docs/decisions/105, 106) against a contract-shaped fake server (msw): only
 * admins see the way in (the event list's and the scanner menu's); the event form checks its input with the contract's schema and shows each
 * problem next to its field before anything is sent; a created event's request carries every
 * setting and its days; a refusal that names a field is shown at that field; a day with check-ins
 * offers no removal, and moving one asks first (docs/decisions/145); the Activity page says who changed what, before and after.
 */
import {
  type AuditEntry,
  type EventRequest,
  EventRequest as EventRequestSchema,
  type ManagedEvent,
  managePaths,
  type UpdateEventRequest,
  UpdateEventRequest as UpdateEventRequestSchema,
} from '@gatecheck/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, test } from 'vitest';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { testDay, testEvent, testOrganization } from '@/test/fixtures.ts';
import { renderApp } from '@/test/render.tsx';

const adminOrganization = { ...testOrganization, role: 'admin' };
let created: EventRequest[];
let saved: EventRequest[];

const storedEvent: ManagedEvent = {
  id: 'event-7',
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
    { day: 1, name: 'Friday', date: '2026-12-04', checkIns: 12 },
    { day: 2, name: 'Saturday', date: '2026-12-05', checkIns: 0 },
  ],
  archivedAt: null,
  ticketCount: 40,
  checkInCount: 12,
};

beforeEach(() => {
  created = [];
  saved = [];
  server.use(
    http.get(apiUrl(managePaths.organizationEvents(testOrganization.id)), () => HttpResponse.json<ManagedEvent[]>([storedEvent])),
    http.post(apiUrl(managePaths.organizationEvents(testOrganization.id)), async ({ request }) => {
      const body = EventRequestSchema.parse(await request.json());
      created.push(body);
      return HttpResponse.json<ManagedEvent>(
        { ...storedEvent, ...body, id: 'event-8', days: body.days.map((day) => ({ ...day, checkIns: 0 })), ticketCount: 0, checkInCount: 0 },
        { status: 201 },
      );
    }),
    http.get(apiUrl(managePaths.event(storedEvent.id)), () => HttpResponse.json<ManagedEvent>(storedEvent)),
    http.get(apiUrl(managePaths.event('event-8')), () => HttpResponse.json<ManagedEvent>({ ...storedEvent, id: 'event-8', title: 'Harbour Nights', days: [] })),
  );
});

describe('who sees the management area', () => {
  test('staff see no Manage events link, and /manage sends them back to their events', async () => {
    renderApp({ route: '/event-select', selection: { organization: testOrganization } });
    await screen.findByRole('heading', { level: 1, name: 'Choose Your Event' });
    expect(screen.queryByRole('link', { name: 'Manage events' })).not.toBeInTheDocument();
    const { router } = renderApp({ route: '/manage', selection: { organization: testOrganization } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/event-select'));
  });

  test("an admin reaches the organization's events, archived ones marked, from the event list", async () => {
    server.use(http.get(apiUrl(managePaths.organizationEvents(testOrganization.id)), () => HttpResponse.json<ManagedEvent[]>([storedEvent, { ...storedEvent, id: 'event-old', title: 'Last Summer', archivedAt: '2026-09-01T10:00:00.000Z', status: 'completed' }])));
    const { user, router } = renderApp({ route: '/event-select', selection: { organization: adminOrganization } });
    await user.click(await screen.findByRole('link', { name: 'Manage events' }));
    expect(router.state.location.pathname).toBe('/manage');
    const old = await screen.findByRole('button', { name: /Last Summer/ });
    expect(within(old).getByText('Archived')).toBeInTheDocument();
    expect(within(screen.getByRole('button', { name: /Dockside Jazz/ })).queryByText('Archived')).not.toBeInTheDocument();
  });
});

test("an admin finds 'Manage events' in the scanner's menu and it opens /manage; a supervisor and staff see no such entry there", async () => {
  for (const role of ['staff', 'supervisor']) {
    const { unmount } = renderApp({ route: '/scanner', selection: { organization: { ...testOrganization, role }, event: testEvent, day: testDay } });
    // The menu's last part (the theme choice) is there, so the entry would be too.
    await screen.findByRole('group', { name: 'Theme' });
    expect(screen.queryByRole('link', { name: 'Manage events' }), role).not.toBeInTheDocument();
    unmount();
  }
  const { user, router } = renderApp({ route: '/scanner', selection: { organization: adminOrganization, event: testEvent, day: testDay } });
  await user.click(await screen.findByRole('link', { name: 'Manage events' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/manage'));
  expect(await screen.findByRole('button', { name: /Dockside Jazz/ })).toBeInTheDocument();
});

test('the new-event form shows every problem next to its field and sends nothing until they are fixed; then it sends the event with its two days', { timeout: 20_000 }, async () => {
  const { user, router } = renderApp({ route: '/manage/events/new', selection: { organization: adminOrganization } });
  await screen.findByRole('heading', { level: 1, name: 'New event' });
  await user.click(screen.getByRole('button', { name: 'Add day' }));
  await user.click(screen.getByRole('button', { name: 'Add day' }));
  const dayOne = screen.getByRole('group', { name: 'Day 1' });
  const dayTwo = screen.getByRole('group', { name: 'Day 2' });
  await user.clear(within(dayTwo).getByLabelText('Number'));
  await user.type(within(dayTwo).getByLabelText('Number'), '1');
  await user.type(screen.getByLabelText('Venue capacity'), '0');
  await user.click(screen.getByRole('button', { name: 'Create event' }));

  expect(screen.getByLabelText('Title')).toHaveAccessibleDescription('Give the event a title.');
  expect(screen.getByLabelText('Title')).toHaveAttribute('aria-invalid', 'true');
  expect(within(dayOne).getByLabelText('Name')).toHaveAccessibleDescription('Give the day a name.');
  expect(within(dayTwo).getByLabelText('Number')).toHaveAccessibleDescription('Another day has this number.');
  expect(screen.getByLabelText('Venue capacity')).toHaveAccessibleDescription(expect.stringContaining('Use a whole number of guests from 1 to 100000, or leave it empty.'));
  // A list without re-entry records no exit: its guests count as inside for the day (docs/decisions/151).
  expect(screen.getByLabelText('Venue capacity')).toHaveAccessibleDescription(expect.stringContaining('A guest admitted through a list without re-entry counts as inside until the day ends'));
  expect(created).toEqual([]);

  await user.type(screen.getByLabelText('Title'), 'Harbour Nights');
  // Changed, the field's problem goes; the others stay until they are changed.
  expect(screen.getByLabelText('Title')).not.toHaveAccessibleDescription('Give the event a title.');
  expect(within(dayOne).getByLabelText('Name')).toHaveAccessibleDescription('Give the day a name.');
  await user.type(screen.getByLabelText('Location'), 'Pier 4');
  await user.selectOptions(screen.getByLabelText('Status'), 'live');
  await user.clear(within(dayTwo).getByLabelText('Number'));
  await user.type(within(dayTwo).getByLabelText('Number'), '2');
  await user.type(within(dayOne).getByLabelText('Name'), 'Friday');
  await user.type(within(dayTwo).getByLabelText('Name'), 'Saturday');
  await user.clear(screen.getByLabelText('Venue capacity'));
  await user.type(screen.getByLabelText('Venue capacity'), '800');
  await user.click(screen.getByRole('button', { name: 'Create event' }));

  await waitFor(() => expect(router.state.location.pathname).toBe('/manage/events/event-8'));
  expect(created).toHaveLength(1);
  const [request] = created;
  expect(request).toMatchObject({ title: 'Harbour Nights', location: 'Pier 4', status: 'live', dayCutoff: '06:00', allowsScanningOutsideDays: false, capacity: 800 });
  expect(request?.days.map((day) => [day.day, day.name])).toEqual([
    [1, 'Friday'],
    [2, 'Saturday'],
  ]);
  // The second day is the day after the first: the form fills the next date in.
  expect(request?.days[1]?.date).not.toBe(request?.days[0]?.date);
});

test("a day with check-ins offers no removal, and the server's refusal of a change is shown at the days", async () => {
  server.use(
    http.post(apiUrl(managePaths.event(storedEvent.id)), async ({ request }) => {
      saved.push(EventRequestSchema.parse(await request.json()));
      return errorResponse(409, { code: 'conflict', message: 'Day 1 (Friday) has 12 check-ins and cannot be removed. Keep the day, or rename it.', field: 'body.days' });
    }),
  );
  const { user } = renderApp({ route: `/manage/events/${storedEvent.id}`, selection: { organization: adminOrganization } });
  const friday = await screen.findByRole('group', { name: 'Day 1' });
  expect(within(friday).queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
  expect(within(friday).getByText('This day has 12 check-ins, so it cannot be removed.')).toBeInTheDocument();

  await user.click(within(screen.getByRole('group', { name: 'Day 2' })).getByRole('button', { name: 'Remove day 2' }));
  await user.click(screen.getByRole('button', { name: 'Save changes' }));
  const days = screen.getByRole('group', { name: 'Days' });
  expect(await within(days).findByText('Day 1 (Friday) has 12 check-ins and cannot be removed. Keep the day, or rename it.')).toBeInTheDocument();
  expect(saved[0]?.days.map((day) => day.day)).toEqual([1]);
});

test('moving a day that has check-ins asks first, in plain words: kept, nothing more is sent; confirmed, the edit is sent again with confirm', async () => {
  const sent: UpdateEventRequest[] = [];
  const question = 'Day 1 (Friday) has 12 check-ins and would move from Fri 4 Dec to Thu 3 Dec. The check-ins stay on the day; doors scanning it admit on the new date from then on. Confirm to move it.';
  server.use(
    http.post(apiUrl(managePaths.event(storedEvent.id)), async ({ request }): Promise<Response> => {
      const body = UpdateEventRequestSchema.parse(await request.json());
      sent.push(body);
      if (body.confirm !== true) return errorResponse(409, { code: 'confirmation_required', message: question, field: 'body.days.0.date' });
      return HttpResponse.json<ManagedEvent>({ ...storedEvent, days: body.days.map((day) => ({ ...day, checkIns: day.day === 1 ? 12 : 0 })) });
    }),
  );
  const { user } = renderApp({ route: `/manage/events/${storedEvent.id}`, selection: { organization: adminOrganization } });
  const friday = await screen.findByRole('group', { name: 'Day 1' });
  await user.clear(within(friday).getByLabelText('Date'));
  await user.type(within(friday).getByLabelText('Date'), '2026-12-03');
  await user.click(screen.getByRole('button', { name: 'Save changes' }));

  const dialog = await screen.findByRole('alertdialog', { name: 'Move a day that has check-ins?' });
  expect(dialog).toHaveAccessibleDescription(question);
  // The question is the dialog's, not a problem left at the field.
  expect(within(friday).getByLabelText('Date')).not.toHaveAttribute('aria-invalid', 'true');
  await user.click(within(dialog).getByRole('button', { name: 'Keep the date' }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  expect(sent.map((request) => request.confirm)).toEqual([false]);

  await user.click(screen.getByRole('button', { name: 'Save changes' }));
  await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Move the day' }));
  await waitFor(() => expect(sent.map((request) => request.confirm)).toEqual([false, false, true]));
  expect(sent[2]?.days[0]).toEqual({ day: 1, name: 'Friday', date: '2026-12-03' });
  expect(await screen.findByText('Changes saved')).toBeInTheDocument();
});

test('the Activity page says who changed what, with each setting before and after', async () => {
  const snapshot = { title: 'Dockside Jazz', description: '', date: '2026-12-04', location: 'Pier 4', status: 'draft', timeZone: 'Europe/Berlin', dayCutoff: '04:00', allowsScanningOutsideDays: false, days: [{ day: 1, name: 'Friday', date: '2026-12-04' }], archivedAt: null };
  const entries: AuditEntry[] = [
    { id: 'a2', at: '2026-11-27T10:05:00.000Z', actor: { kind: 'cli', name: 'admin CLI (ops)' }, action: 'event.updated', before: snapshot, after: { ...snapshot, status: 'live', dayCutoff: '02:00' } },
    { id: 'a1', at: '2026-11-27T10:00:00.000Z', actor: { kind: 'user', name: 'Dana Admin' }, action: 'event.created', before: null, after: snapshot },
  ];
  server.use(http.get(apiUrl(managePaths.eventActivity(storedEvent.id)), () => HttpResponse.json<AuditEntry[]>(entries)));
  renderApp({ route: `/manage/events/${storedEvent.id}/activity`, selection: { organization: adminOrganization } });
  const [changed, createdEntry] = await screen.findAllByRole('listitem');
  if (!changed || !createdEntry) throw new Error('two entries expected');
  expect(within(changed).getByText('Changed the event')).toBeInTheDocument();
  expect(within(changed).getByText(/admin CLI \(ops\)/)).toBeInTheDocument();
  expect(within(changed).getByText('Draft → Live')).toBeInTheDocument();
  expect(within(changed).getByText('04:00 → 02:00')).toBeInTheDocument();
  expect(within(changed).queryByText(/Title/)).not.toBeInTheDocument();
  expect(within(createdEntry).getByText('Created the event')).toBeInTheDocument();
  expect(within(createdEntry).getByText(/Dana Admin/)).toBeInTheDocument();
  expect(within(createdEntry).getByText('1. Friday (2026-12-04)')).toBeInTheDocument();
});
