/**
 * The door devices page (/manage/devices, docs/decisions/107, 108, 116) against a contract-shaped
 * fake server (msw): the organization's devices with their state, event, list and scans waiting; a
 * rename; a removal only after its confirmation; and a setup QR code for a phone at one list.
 */
import {
  type CheckInLists,
  checkInListsPath,
  CreateEnrollmentRequest,
  type CreateEnrollmentResponse,
  type DeviceList,
  devicePaths,
  type DeviceSummary,
  type ManagedEvent,
  managePaths,
  UpdateDeviceRequest,
} from '@gatecheck/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, expect, test } from 'vitest';
import { testOrganization } from '@/test/fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { renderApp } from '@/test/render.tsx';

const adminOrganization = { ...testOrganization, role: 'admin' };
const event: ManagedEvent = {
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
  days: [{ day: 1, name: 'Friday', date: '2026-12-04', checkIns: 0 }],
  archivedAt: null,
  ticketCount: 40,
  checkInCount: 0,
};
const vipGate = { id: '22222222-2222-4222-8222-222222222222', name: 'VIP Gate', position: 2, ticketTypes: ['VIP'], days: null, allowsReentry: false, capacity: null, dailyCheckoutTime: null };
const northGate: DeviceSummary = {
  id: 'device-1',
  name: 'North gate 2',
  eventId: event.id,
  eventTitle: 'Dockside Jazz',
  checkInListId: null,
  checkInListName: null,
  appVersion: '1.4.0',
  platform: 'android',
  enrolledAt: '2026-12-04T16:00:00.000Z',
  lastSeenAt: new Date().toISOString(),
  isOnline: true,
  scansWaiting: 3,
  revokedAt: null,
};
const bar: DeviceSummary = { ...northGate, id: 'device-2', name: 'Bar tablet', checkInListId: vipGate.id, checkInListName: 'VIP Gate', isOnline: false, scansWaiting: null, platform: 'web' };

let devices: DeviceSummary[];
let updates: Array<{ deviceId: string; body: UpdateDeviceRequest }>;
let revoked: string[];
let enrollments: CreateEnrollmentRequest[];

beforeEach(() => {
  devices = [northGate, bar];
  updates = [];
  revoked = [];
  enrollments = [];
  server.use(
    http.get(apiUrl(devicePaths.listDevices(testOrganization.id)), () => HttpResponse.json<DeviceList>({ devices })),
    http.get(apiUrl(managePaths.organizationEvents(testOrganization.id)), () => HttpResponse.json<ManagedEvent[]>([event])),
    http.get(apiUrl(checkInListsPath(event.id)), () =>
      HttpResponse.json<CheckInLists>({
        eventId: event.id,
        lists: [{ id: '11111111-1111-4111-8111-111111111111', name: 'Main entrance', position: 1, ticketTypes: null, days: null, allowsReentry: false, capacity: null, dailyCheckoutTime: null }, vipGate],
      }),
    ),
    http.post<{ deviceId: string }>(apiUrl('/devices/:deviceId'), async ({ request, params }) => {
      const body = UpdateDeviceRequest.parse(await request.json());
      updates.push({ deviceId: params.deviceId, body });
      const device = devices.find((entry) => entry.id === params.deviceId);
      if (!device) throw new Error('no such device');
      const changed: DeviceSummary = { ...device, ...(body.name ? { name: body.name } : {}) };
      devices = devices.map((entry) => (entry.id === changed.id ? changed : entry));
      return HttpResponse.json<DeviceSummary>(changed);
    }),
    http.post<{ deviceId: string }>(apiUrl('/devices/:deviceId/revoke'), ({ params }) => {
      revoked.push(params.deviceId);
      const device = devices.find((entry) => entry.id === params.deviceId);
      if (!device) throw new Error('no such device');
      const removed: DeviceSummary = { ...device, isOnline: false, revokedAt: new Date().toISOString() };
      devices = devices.map((entry) => (entry.id === removed.id ? removed : entry));
      return HttpResponse.json<DeviceSummary>(removed);
    }),
    http.post(apiUrl(devicePaths.createEnrollment(event.id)), async ({ request }) => {
      const body = CreateEnrollmentRequest.parse(await request.json());
      enrollments.push(body);
      return HttpResponse.json<CreateEnrollmentResponse>(
        {
          enrollmentId: 'enrollment-1',
          eventId: event.id,
          deviceName: body.name ?? 'Device 3',
          checkInListId: body.checkInListId ?? null,
          checkInListName: body.checkInListId ? 'VIP Gate' : null,
          link: 'https://gate.example/enroll#token=abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ',
          qrCodeSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 21 21"><rect width="7" height="7"/></svg>',
          expiresAt: '2026-12-05T16:00:00.000Z',
        },
        { status: 201 },
      );
    }),
  );
});

test('an admin sees each device with its state, event, list, app and scans waiting', async () => {
  renderApp({ route: '/manage/devices', selection: { organization: adminOrganization } });
  const north = await screen.findByRole('listitem', { name: 'North gate 2' });
  expect(north).toHaveTextContent('Online');
  expect(north).toHaveTextContent('Dockside Jazz · Every list');
  expect(within(north).getByText('Scans waiting').nextElementSibling).toHaveTextContent('3');
  const tablet = screen.getByRole('listitem', { name: 'Bar tablet' });
  expect(tablet).toHaveTextContent('Offline');
  expect(tablet).toHaveTextContent('Dockside Jazz · VIP Gate');
  expect(within(tablet).getByText('Scans waiting').nextElementSibling).toHaveTextContent('—');
});

test('renaming a device sends its new name and shows it', async () => {
  const { user } = renderApp({ route: '/manage/devices', selection: { organization: adminOrganization } });
  await user.click(await screen.findByRole('button', { name: 'Change North gate 2' }));
  const card = screen.getByRole('listitem', { name: 'North gate 2' });
  const name = within(card).getByLabelText('Device name');
  await user.clear(name);
  await user.type(name, 'North gate 3');
  await user.click(within(card).getByRole('button', { name: 'Save' }));
  expect(await screen.findByRole('listitem', { name: 'North gate 3' })).toBeInTheDocument();
  expect(updates).toEqual([{ deviceId: 'device-1', body: { name: 'North gate 3', checkInListId: null } }]);
});

test('moving a device with scans waiting says before saving where they are recorded (its old list, or its old event for 7 days); a rename alone, or a device with none waiting, says nothing', async () => {
  const summit: ManagedEvent = { ...event, id: 'event-8', title: 'Summit Nights' };
  server.use(
    http.get(apiUrl(managePaths.organizationEvents(testOrganization.id)), () => HttpResponse.json<ManagedEvent[]>([event, summit])),
    http.get(apiUrl(checkInListsPath(summit.id)), () => HttpResponse.json<CheckInLists>({ eventId: summit.id, lists: [] })),
  );
  const { user } = renderApp({ route: '/manage/devices', selection: { organization: adminOrganization } });
  await user.click(await screen.findByRole('button', { name: 'Change North gate 2' }));
  const card = screen.getByRole('listitem', { name: 'North gate 2' });
  const warning =
    'This phone has 3 scans waiting to be sent. They are recorded at the check-in list they were made at. Until the phone learns of the move (within a minute while it is online with the app open), scans it makes offline are still recorded at its old list; a scan made online is refused, and the phone then switches at once.';
  await user.type(within(card).getByLabelText('Device name'), ' b');
  expect(within(card).queryByText(warning)).not.toBeInTheDocument();
  await within(card).findByRole('option', { name: 'VIP Gate' });
  await user.selectOptions(within(card).getByLabelText('Check-in list'), 'VIP Gate');
  expect(within(card).getByRole('note')).toHaveTextContent(warning);
  await user.selectOptions(within(card).getByLabelText('Check-in list'), 'Every list');
  expect(within(card).queryByRole('note')).not.toBeInTheDocument();
  // Another event: its old event still takes them (docs/decisions/139), for a time: said so.
  await user.selectOptions(within(card).getByLabelText('Event'), 'Summit Nights');
  expect(within(card).getByRole('note')).toHaveTextContent(
    'This phone has 3 scans waiting to be sent, made at its current event. They are still recorded there when the phone sends them, within 7 days of the move. Until the phone learns of it, scans it makes offline are recorded at its old event too.',
  );

  // The tablet reports none waiting (—): moving it warns of nothing.
  await user.click(screen.getByRole('button', { name: 'Change Bar tablet' }));
  const tablet = screen.getByRole('listitem', { name: 'Bar tablet' });
  await within(tablet).findByRole('option', { name: 'Main entrance' });
  await user.selectOptions(within(tablet).getByLabelText('Check-in list'), 'Main entrance');
  expect(within(tablet).queryByRole('note')).not.toBeInTheDocument();
});

test('removing a device asks first: Keep it removes nothing; Remove device revokes it and it reads Removed, with nothing left to change', async () => {
  const { user } = renderApp({ route: '/manage/devices', selection: { organization: adminOrganization } });
  await user.click(await screen.findByRole('button', { name: 'Remove Bar tablet' }));
  let dialog = await screen.findByRole('alertdialog', { name: 'Remove Bar tablet?' });
  expect(dialog).toHaveTextContent('The phone stops working at its next tap');
  await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  expect(revoked).toEqual([]);

  await user.click(screen.getByRole('button', { name: 'Remove Bar tablet' }));
  dialog = await screen.findByRole('alertdialog', { name: 'Remove Bar tablet?' });
  await user.click(within(dialog).getByRole('button', { name: 'Remove device' }));
  const tablet = screen.getByRole('listitem', { name: 'Bar tablet' });
  await waitFor(() => expect(tablet).toHaveTextContent('Removed'));
  expect(revoked).toEqual(['device-2']);
  expect(within(tablet).queryByRole('button', { name: /^(Change|Remove) Bar tablet$/ })).not.toBeInTheDocument();
});

test('setting up a phone at one list shows its one-time QR code, for whom and until when, and the link', async () => {
  const { user } = renderApp({ route: '/manage/devices', selection: { organization: adminOrganization } });
  const setUp = await screen.findByRole('region', { name: 'Set up a phone' });
  await waitFor(() => expect(within(setUp).getByRole('option', { name: 'VIP Gate' })).toBeInTheDocument());
  await user.selectOptions(within(setUp).getByLabelText('Check-in list'), 'VIP Gate');
  await user.type(within(setUp).getByLabelText('Device name'), 'VIP door');
  await user.click(within(setUp).getByRole('button', { name: 'Make setup QR code' }));

  const code = await screen.findByTestId('enrollment-code');
  expect(within(code).getByRole('img', { name: 'Setup QR code for VIP door' })).toHaveAttribute('src', expect.stringMatching(/^data:image\/svg\+xml/));
  expect(code).toHaveTextContent('Scan this with the phone: VIP door');
  expect(code).toHaveTextContent(/Works once, until .+ · VIP Gate/);
  expect(within(code).getByLabelText('Setup link')).toHaveValue('https://gate.example/enroll#token=abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ');
  expect(enrollments).toEqual([{ name: 'VIP door', checkInListId: vipGate.id }]);
});
