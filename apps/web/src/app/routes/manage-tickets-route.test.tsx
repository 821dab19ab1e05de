/**
 * An event's Tickets screen (docs/decisions/114) against a contract-shaped fake server (msw): a new
 * ticket type checked with the contract's schema before sending (a refusal of the server shown at
 * its field); a type limited to some days and renamed (docs/decisions/125); a CSV upload previewed with each rejected row named, then imported as the server's
 * progress lines come, or cancelled without an import.
 */
import {
  type ApiErrorBody,
  CreateTicketTypeRequest,
  EditTicketTypeRequest,
  type ManagedEvent,
  type ManagedTicketList,
  managePaths,
  manageTicketPaths,
  type TicketImportEvent,
  type TicketImportSummary,
  type TicketTypesResponse,
} from '@gatecheck/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, expect, test } from 'vitest';
import { apiUrl, errorResponse, server } from '@/test/msw-server.ts';
import { testOrganization } from '@/test/fixtures.ts';
import { renderApp } from '@/test/render.tsx';

const adminOrganization = { ...testOrganization, role: 'admin' };
const EVENT_ID = 'ev-tickets';
const summary: TicketImportSummary = {
  rows: 3,
  imported: 2,
  generatedCodes: 0,
  rejected: [{ line: 3, code: 'BAD-1', reason: 'unknown day 7 for this event (its days: 1, 2)' }],
  rejectedCount: 1,
  offlineOnlyCount: 0,
};
let created: CreateTicketTypeRequest[];
let imports: number;

beforeEach(() => {
  created = [];
  imports = 0;
  server.use(
    http.get(apiUrl(manageTicketPaths.ticketTypes(EVENT_ID)), () => HttpResponse.json<TicketTypesResponse>({ ticketTypes: [] })),
    http.post<never, never, ApiErrorBody | object>(apiUrl(manageTicketPaths.ticketTypes(EVENT_ID)), async ({ request }) => {
      const body = CreateTicketTypeRequest.parse(await request.json());
      created.push(body);
      if (body.name === 'VIP') return errorResponse(409, { code: 'conflict', message: 'This event already has a ticket type "VIP".', field: 'body.name' });
      return HttpResponse.json({ ...body, tickets: 0 }, { status: 201 });
    }),
    http.get(apiUrl(manageTicketPaths.tickets(EVENT_ID)), () => HttpResponse.json<ManagedTicketList>({ tickets: [], hasMore: false })),
    http.post(apiUrl(manageTicketPaths.importPreview(EVENT_ID)), async ({ request }) => {
      expect(request.headers.get('content-type')).toBe('text/csv');
      expect(await request.text()).toContain('holder_name');
      return HttpResponse.json<TicketImportSummary>(summary);
    }),
    http.post(apiUrl(manageTicketPaths.importTickets(EVENT_ID)), () => {
      imports += 1;
      const lines: TicketImportEvent[] = [{ type: 'progress', rows: 2, bytes: 40 }, { type: 'done', summary }];
      return new HttpResponse(lines.map((line) => `${JSON.stringify(line)}\n`).join(''), { headers: { 'content-type': 'application/x-ndjson' } });
    }),
  );
});

const csvFile = () => new File(['holder_name,ticket_type,days\nAda,General,all\nAlan,General,7\nGrace,VIP,1\n'], 'tickets.csv', { type: 'text/csv' });

test('a ticket type without a name is refused at its field before sending; a name the server refuses is said there too', { timeout: 20_000 }, async () => {
  const { user } = renderApp({ route: `/manage/events/${EVENT_ID}/tickets`, selection: { organization: adminOrganization } });
  await screen.findByText(/No ticket types yet/);
  await user.click(screen.getByRole('button', { name: 'Add ticket type' }));
  expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('Give the ticket type a name.');
  expect(created).toEqual([]);

  await user.type(screen.getByLabelText('Name'), 'VIP');
  await user.click(screen.getByRole('button', { name: 'Add ticket type' }));
  await waitFor(() => expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('This event already has a ticket type "VIP".'));
  expect(created).toEqual([{ name: 'VIP', checkInNote: '', requiresAttention: false, days: null }]);
});

test("a type is limited to some of the event's days and renamed: no day chosen is refused at its field before sending, a name the server refuses is said at the name", { timeout: 20_000 }, async () => {
  const event: ManagedEvent = {
    id: EVENT_ID,
    organizationId: testOrganization.id,
    title: 'Dockside Jazz',
    description: '',
    date: '2026-12-04',
    location: '',
    status: 'live',
    timeZone: 'Europe/Berlin',
    dayCutoff: '04:00',
    allowsScanningOutsideDays: false,
    days: [
      { day: 1, name: 'Friday', date: '2026-12-04', checkIns: 0 },
      { day: 2, name: 'Saturday', date: '2026-12-05', checkIns: 0 },
    ],
    archivedAt: null,
    ticketCount: 3,
    checkInCount: 0,
  };
  const edits: EditTicketTypeRequest[] = [];
  let type = { name: 'Friday pass', checkInNote: '', requiresAttention: false, days: null as number[] | null, tickets: 3 };
  server.use(
    http.get(apiUrl(managePaths.event(EVENT_ID)), () => HttpResponse.json<ManagedEvent>(event)),
    http.get(apiUrl(manageTicketPaths.ticketTypes(EVENT_ID)), () => HttpResponse.json<TicketTypesResponse>({ ticketTypes: [type] })),
    http.post<never, never, ApiErrorBody | object>(apiUrl(manageTicketPaths.ticketType(EVENT_ID, 'Friday pass')), async ({ request }) => {
      const body = EditTicketTypeRequest.parse(await request.json());
      edits.push(body);
      if (body.name === 'General') return errorResponse(409, { code: 'conflict', message: 'This event already has a ticket type "General".', field: 'body.name' });
      type = { ...type, ...body, name: body.name ?? type.name, days: body.days ?? null };
      return HttpResponse.json(type);
    }),
  );
  const { user } = renderApp({ route: `/manage/events/${EVENT_ID}/tickets`, selection: { organization: adminOrganization } });
  const row = within((await screen.findByText('Friday pass', { selector: 'span' })).closest('li') ?? document.body);
  expect(row.getByText('All days')).toBeInTheDocument();
  await user.click(row.getByRole('switch', { name: 'Every day' }));
  await user.click(row.getByRole('button', { name: 'Save Friday pass' }));
  expect(row.getByRole('group', { name: 'Days the type admits' })).toHaveAccessibleDescription('Choose at least one day, or every day.');
  expect(edits).toEqual([]);

  await user.click(row.getByRole('checkbox', { name: 'Day 1 · Friday' }));
  const name = row.getByLabelText('Name');
  await user.clear(name);
  await user.type(name, 'General');
  await user.click(row.getByRole('button', { name: 'Save Friday pass' }));
  // Described by its hint, then its problem (features/manage/components/field.tsx).
  await waitFor(() =>
    expect(row.getByLabelText('Name')).toHaveAccessibleDescription('Renaming keeps the tickets: they and the check-in lists that name the type take the new name. This event already has a ticket type "General".'),
  );

  await user.clear(row.getByLabelText('Name'));
  await user.type(row.getByLabelText('Name'), 'Friday only');
  await user.click(row.getByRole('button', { name: 'Save Friday pass' }));
  const renamed = within((await screen.findByText('Friday only', { selector: 'span' })).closest('li') ?? document.body);
  expect(renamed.getByText('Days 1')).toBeInTheDocument();
  expect(edits).toEqual([
    { name: 'General', checkInNote: '', requiresAttention: false, days: [1] },
    { name: 'Friday only', checkInNote: '', requiresAttention: false, days: [1] },
  ]);
});

test('a CSV upload shows its preview with each rejected row by line and why; Import runs it and says what it did; Cancel imports nothing', { timeout: 20_000 }, async () => {
  const { user } = renderApp({ route: `/manage/events/${EVENT_ID}/tickets`, selection: { organization: adminOrganization } });
  await user.upload(await screen.findByLabelText('CSV file'), csvFile());
  expect(await screen.findByText('2 tickets of 3 rows can be imported.')).toBeInTheDocument();
  expect(screen.getByText(/Line 3: unknown day 7 for this event/)).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Cancel' }));
  expect(imports).toBe(0);

  await user.upload(screen.getByLabelText('CSV file'), csvFile());
  await user.click(await screen.findByRole('button', { name: 'Import 2 tickets' }));
  expect(await screen.findByText('Imported 2 tickets of 3 rows.')).toBeInTheDocument();
  expect(imports).toBe(1);
});

test('a file the server refuses whole is said next to the file field (which is marked invalid), and nothing is offered to import', { timeout: 20_000 }, async () => {
  server.use(
    http.post(apiUrl(manageTicketPaths.importPreview(EVENT_ID)), () =>
      errorResponse(400, { code: 'bad_request', message: 'A quote opens on line 3 (or the first line with text after it) and is never closed.' }),
    ),
  );
  const { user } = renderApp({ route: `/manage/events/${EVENT_ID}/tickets`, selection: { organization: adminOrganization } });
  await user.upload(await screen.findByLabelText('CSV file'), csvFile());
  await waitFor(() => expect(screen.getByLabelText('CSV file')).toHaveAccessibleDescription(/never closed/));
  expect(screen.getByLabelText('CSV file')).toHaveAttribute('aria-invalid', 'true');
  expect(screen.queryByRole('button', { name: /^Import/ })).toBeNull();
});

test("a download answered 401 (the session ended) signs out to sign-in with 'Session expired', as every other call's 401 does", { timeout: 20_000 }, async () => {
  server.use(http.get(apiUrl(manageTicketPaths.ticketsPdf(EVENT_ID)), () => errorResponse(401, { code: 'unauthenticated', message: 'Sign in first' })));
  const { user, router } = renderApp({ route: `/manage/events/${EVENT_ID}/tickets`, selection: { organization: adminOrganization } });
  await user.click(await screen.findByRole('button', { name: "Download every ticket's QR code (PDF)" }));
  expect(await screen.findByText('Session expired', { selector: '[role=status]' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/login');
});

test('while a file is being saved its buttons wait: a second tap on the PDF asks the server once', { timeout: 20_000 }, async () => {
  let asked = 0;
  let answer: (() => void) | undefined;
  server.use(
    http.get(apiUrl(manageTicketPaths.ticketsPdf(EVENT_ID)), async () => {
      asked += 1;
      await new Promise<void>((resolve) => {
        answer = resolve;
      });
      return new HttpResponse(new Uint8Array([37, 80, 68, 70]), { headers: { 'content-type': 'application/pdf' } });
    }),
  );
  // jsdom saves nothing: the object URL is all a browser download needs here.
  URL.createObjectURL = () => 'blob:test';
  URL.revokeObjectURL = () => undefined;
  const { user } = renderApp({ route: `/manage/events/${EVENT_ID}/tickets`, selection: { organization: adminOrganization } });
  const pdf = await screen.findByRole('button', { name: "Download every ticket's QR code (PDF)" });
  await user.click(pdf);
  await waitFor(() => expect(asked).toBe(1));
  expect(pdf).toBeDisabled();
  await user.click(pdf);
  answer?.();
  await waitFor(() => expect(pdf).toBeEnabled());
  expect(asked).toBe(1);
});

test("'Signed QR codes' switched on, the PDF is asked for signed (as the CLI's --signed); a server that cannot sign says why next to the downloads", { timeout: 20_000 }, async () => {
  const asked: string[] = [];
  server.use(
    http.get(apiUrl(manageTicketPaths.ticketsPdf(EVENT_ID)), ({ request }) => {
      const search = new URL(request.url).search;
      asked.push(search);
      return search === '?signed=true'
        ? errorResponse(409, { code: 'conflict', message: 'Signed QR codes cannot be made on this server: set SIGNING_KEY_SECRET.', field: 'signed' })
        : errorResponse(404, { code: 'not_found', message: 'No such event' });
    }),
  );
  const { user } = renderApp({ route: `/manage/events/${EVENT_ID}/tickets`, selection: { organization: adminOrganization } });
  const download = await screen.findByRole('button', { name: "Download every ticket's QR code (PDF)" });
  const signed = screen.getByRole('switch', { name: 'Signed QR codes' });
  expect(signed).not.toBeChecked();
  expect(signed).toHaveAccessibleDescription(/check offline, without the door list, that a code was not forged/);
  await user.click(download);
  await waitFor(() => expect(asked).toEqual(['']));
  await user.click(signed);
  expect(signed).toBeChecked();
  await user.click(download);
  await waitFor(() => expect(asked).toEqual(['', '?signed=true']));
  expect(await screen.findByText('Signed QR codes cannot be made on this server: set SIGNING_KEY_SECRET.')).toBeInTheDocument();
});
