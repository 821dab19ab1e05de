/**
 * A door device moved by its organizer (docs/decisions/127) against a contract-shaped fake server
 * (msw): the heartbeat's answer names the device's event and check-in list now; when they differ
 * from what the phone holds, the app stores them, deletes the door lists it downloaded for its old
 * place, chooses the new list and says so; when they do not, nothing changes.
 */
import {
  apiPaths,
  type CheckInList,
  type CheckInLists,
  checkInListsPath,
  deviceApiPaths,
  type DeviceSelf,
  DeviceStatusRequest,
  type DeviceStatusResponse,
  type DoorList,
  OfflineScan,
  OfflineScanBatch,
  type OfflineScanBatchResponse,
} from '@gatecheck/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { openOfflineDb, eventDayKey } from '@/features/scanner/offline/offline-db.ts';
import { queueOfflineScan } from '@/features/scanner/offline/outbox.ts';
import type { User } from '@/lib/entities.ts';
import { reportListRefused } from '@/lib/list-refused.ts';
import { getSelection, selectScanMode } from '@/lib/selection.ts';
import { readStoredUser } from '@/lib/stored-user.ts';
import { makeDoorList } from '@/test/door-list-fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { offlineScan } from '@/test/outbox-fixtures.ts';
import { testDay, testEvent, testOrganization, testUser } from '@/test/fixtures.ts';
import { renderApp } from '@/test/render.tsx';

const north: CheckInList = { id: '33333333-3333-4333-8333-333333333333', name: 'North gate', position: 1, ticketTypes: null, days: null, allowsReentry: false, capacity: null, dailyCheckoutTime: null };
const south: CheckInList = { ...north, id: '44444444-4444-4444-8444-444444444444', name: 'South gate', position: 2 };
const phone: User = {
  ...testUser,
  device: { id: 'device-1', name: 'North gate 2', organizationId: testOrganization.id, eventId: testEvent.id, checkInListId: north.id, token: 'device-token', shiftName: 'Anna', shiftEndsAt: '2099-01-01T00:00:00.000Z' },
};
const selection = { organization: testOrganization, event: testEvent, day: { ...testDay, checkInList: { id: north.id, name: north.name } } };

/** The server: the device is at `device`; GET check-in lists answers the device's one list. @returns the status reports received. */
function serve(device: DeviceSelf, lists: CheckInList[]): DeviceStatusRequest[] {
  const reports: DeviceStatusRequest[] = [];
  server.use(
    http.post(apiUrl(deviceApiPaths.reportStatus), async ({ request }) => {
      reports.push(DeviceStatusRequest.parse(await request.json()));
      return HttpResponse.json<DeviceStatusResponse>({ success: true, device });
    }),
    http.get(apiUrl(checkInListsPath(device.eventId)), () => HttpResponse.json<CheckInLists>({ eventId: device.eventId, lists })),
  );
  return reports;
}

/** The door list of the north gate, as the phone downloaded it before the move. */
async function keepNorthDoorList(): Promise<void> {
  const db = await openOfflineDb();
  const list = await makeDoorList([{ code: 'NORTH-1', holderName: 'Ann', ticketType: 'General Admission' }], { event: { ...(await makeDoorList([])).event, id: testEvent.id }, day: testDay.day });
  await db.put('doorLists', { list, syncedAt: '2026-07-11T10:00:00.000Z', needsFullList: false, checkInListId: north.id }, eventDayKey(testEvent.id, testDay.day, north.id));
}

async function doorListsKept(): Promise<number> {
  return (await openOfflineDb()).count('doorLists');
}

test('a device moved to another list of its event switches to it at its heartbeat: stored, chosen, old door list deleted, and said', async () => {
  await keepNorthDoorList();
  const reports = serve({ id: 'device-1', name: 'North gate 2', organizationId: testOrganization.id, eventId: testEvent.id, checkInListId: south.id }, [south]);
  renderApp({ route: '/day-select', user: phone, selection });
  expect(await screen.findByText('Your organizer moved this phone to another event or check-in list. Its door list is downloaded again.')).toBeInTheDocument();
  // The heartbeat says where the phone scans: the server takes the move as known once it says the new list (docs/decisions/129).
  expect(reports[0]?.place).toEqual({ eventId: testEvent.id, checkInListId: north.id });
  expect((await readStoredUser())?.device).toMatchObject({ eventId: testEvent.id, checkInListId: south.id, token: 'device-token', shiftName: 'Anna' });
  // The device's one list: nothing to choose; kept with the day, so its records are the list's (docs/decisions/129).
  expect(getSelection().day).toEqual({ ...testDay, checkInList: { id: south.id, name: south.name } });
  expect(getSelection().event?.id).toBe(testEvent.id);
  expect(await doorListsKept()).toBe(0);
});

test('a device moved to another event goes back to choosing its event', async () => {
  await keepNorthDoorList();
  serve({ id: 'device-1', name: 'Summit door', organizationId: testOrganization.id, eventId: 'event-elsewhere', checkInListId: null }, []);
  renderApp({ route: '/day-select', user: phone, selection });
  await waitFor(() => expect(getSelection().event).toBeNull());
  expect((await readStoredUser())?.device).toMatchObject({ name: 'Summit door', eventId: 'event-elsewhere', checkInListId: null });
  expect(getSelection().organization?.id).toBe(testOrganization.id);
  expect(await doorListsKept()).toBe(0);
});

test("a device moved to another event sends the scans it queued at the old event there, naming the list they were made at, then deletes the old event's own admissions and signing keys", async () => {
  await keepNorthDoorList();
  const db = await openOfflineDb();
  const elsewhere = 'event-elsewhere';
  await queueOfflineScan(db, offlineScan(1, { checkInListId: north.id, userId: phone.id }));
  // What the phone kept of the north gate: its own admission, and the event's signing keys.
  const ownAdmission = `${eventDayKey(testEvent.id, testDay.day, north.id)}|lookup-key-1`;
  await db.put('localCheckIns', { checkedInAt: '2026-07-11T10:01:00.000Z', checkedInBy: 'Anna', isOnline: false }, ownAdmission);
  await db.put('signingKeys', { eventId: testEvent.id, keys: [] }, testEvent.id);
  // Another event's data is not this move's to delete.
  await db.put('localCheckIns', { checkedInAt: '2026-07-11T10:01:00.000Z', checkedInBy: 'Anna', isOnline: false }, `${eventDayKey('event-other', 1)}|lookup-key-2`);
  const sent: Array<{ eventId: string; checkInListId: string | undefined; codes: string[]; hadOwnAdmission: boolean }> = [];
  serve({ id: 'device-1', name: 'Summit door', organizationId: testOrganization.id, eventId: elsewhere, checkInListId: null }, []);
  server.use(
    http.post(apiUrl(apiPaths.offlineScans), async ({ request, params }) => {
      const body = OfflineScanBatch.parse(await request.json());
      const scans = body.scans.map((scan) => OfflineScan.parse(scan));
      sent.push({ eventId: String(params.eventId), checkInListId: body.checkInListId, codes: scans.map((scan) => scan.code), hadOwnAdmission: (await db.get('localCheckIns', ownAdmission)) !== undefined });
      return HttpResponse.json<OfflineScanBatchResponse>({ receivedAt: new Date().toISOString(), results: scans.map((scan, index) => ({ index, scanId: scan.scanId, status: 'recorded' })) });
    }),
  );
  renderApp({ route: '/day-select', user: phone, selection });
  await waitFor(() => expect(getSelection().event).toBeNull());
  // Sent to the event it was made at, its list named; the old event's data kept until then.
  await waitFor(() => expect(sent[0]).toEqual({ eventId: testEvent.id, checkInListId: north.id, codes: ['GOOD-1'], hadOwnAdmission: true }));
  await waitFor(async () => expect(await db.count('outbox')).toBe(0));
  await waitFor(async () => expect(await db.getAllKeys('localCheckIns')).toEqual([`${eventDayKey('event-other', 1)}|lookup-key-2`]));
  expect(await db.get('signingKeys', testEvent.id)).toBeUndefined();
  expect(await doorListsKept()).toBe(0);
});

test('a device where it was keeps its list, its selection and its door list', async () => {
  await keepNorthDoorList();
  let reports = 0;
  server.use(
    http.post(apiUrl(deviceApiPaths.reportStatus), () => {
      reports += 1;
      return HttpResponse.json<DeviceStatusResponse>({ success: true, device: { id: 'device-1', name: 'North gate 2', organizationId: testOrganization.id, eventId: testEvent.id, checkInListId: north.id } });
    }),
    http.get(apiUrl(checkInListsPath(testEvent.id)), () => HttpResponse.json<CheckInLists>({ eventId: testEvent.id, lists: [north] })),
  );
  renderApp({ route: '/day-select', user: phone, selection });
  await waitFor(() => expect(reports).toBe(1));
  // Give a move's work its turn: none comes.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(getSelection().day?.checkInList).toEqual({ id: north.id, name: north.name });
  expect(await doorListsKept()).toBe(1);
  expect(screen.queryByText(/Your organizer moved this phone/)).toBeNull();
});

test('a door phone held to one list keeps that list with the day it chooses', async () => {
  serve({ id: 'device-1', name: 'North gate 2', organizationId: testOrganization.id, eventId: testEvent.id, checkInListId: north.id }, [north]);
  const { user } = renderApp({ route: '/day-select', user: phone, selection: { organization: testOrganization, event: testEvent } });
  await user.click(await screen.findByText(testDay.name));
  await waitFor(() => expect(getSelection().day).toEqual({ ...testDay, checkInList: { id: north.id, name: north.name } }));
});

test("a door phone at every list of an event with one list keeps that list with the day too: its scans name where they were made if it is moved later", async () => {
  serve({ id: 'device-1', name: 'North gate 2', organizationId: testOrganization.id, eventId: testEvent.id, checkInListId: null }, [north]);
  const { user } = renderApp({ route: '/day-select', user: { ...phone, device: { ...phone.device!, checkInListId: null } }, selection: { organization: testOrganization, event: testEvent } });
  await user.click(await screen.findByText(testDay.name));
  await waitFor(() => expect(getSelection().day).toEqual({ ...testDay, checkInList: { id: north.id, name: north.name } }));
});

test("after a move of list, the phone's own admissions at its old list do not decide at the new one, and its scans queued there are sent naming the old list", { timeout: 40_000 }, async () => {
  let at: DeviceSelf = { id: 'device-1', name: 'North gate 2', organizationId: testOrganization.id, eventId: testEvent.id, checkInListId: north.id };
  let isServerUp = false;
  const batches: Array<{ checkInListId: string | undefined; codes: string[] }> = [];
  const doorList = await makeDoorList([{ code: 'NORTH-1', holderName: 'Ann', ticketType: 'General Admission' }], { event: { ...(await makeDoorList([])).event, id: testEvent.id }, day: testDay.day });
  server.use(
    http.post(apiUrl(deviceApiPaths.reportStatus), () => HttpResponse.json<DeviceStatusResponse>({ success: true, device: at })),
    http.get(apiUrl(checkInListsPath(testEvent.id)), () => HttpResponse.json<CheckInLists>({ eventId: testEvent.id, lists: [at.checkInListId === north.id ? north : south] })),
    http.get(apiUrl(apiPaths.doorList), ({ request }) => HttpResponse.json<DoorList>({ ...doorList, checkInListId: new URL(request.url).searchParams.get('checkInListId') ?? at.checkInListId ?? north.id })),
    // The server cannot be reached for verify: every scan is decided on the phone.
    http.post(apiUrl(apiPaths.verifyTicket), () => HttpResponse.error()),
    http.post(apiUrl(apiPaths.offlineScans), async ({ request }) => {
      if (!isServerUp) return HttpResponse.error();
      const body = OfflineScanBatch.parse(await request.json());
      const scans = body.scans.map((scan) => OfflineScan.parse(scan));
      batches.push({ checkInListId: body.checkInListId, codes: scans.map((scan) => scan.code) });
      return HttpResponse.json<OfflineScanBatchResponse>({ receivedAt: new Date().toISOString(), results: scans.map((scan, index) => ({ index, scanId: scan.scanId, status: 'recorded' })) });
    }),
  );

  // At the north gate: the day chosen as a phone does, then NORTH-1 let in offline.
  const first = renderApp({ route: '/day-select', user: phone, selection: { organization: testOrganization, event: testEvent } });
  await first.user.click(await screen.findByText(testDay.name));
  await screen.findByText(/^Last synced/, undefined, { timeout: 10_000 });
  await first.user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await first.user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'NORTH-1{Enter}');
  await within(await screen.findByRole('group', { name: 'Valid Ticket' }, { timeout: 10_000 })).findByText('Offline');
  first.unmount();

  // Moved to the south gate; the app opens again and its heartbeat learns of it.
  at = { ...at, checkInListId: south.id };
  isServerUp = true;
  const { organization, event, day } = getSelection();
  const second = renderApp({ route: '/scanner', user: (await readStoredUser()) ?? phone, selection: { organization: organization ?? testOrganization, event: event ?? testEvent, ...(day ? { day } : {}) } });
  expect(await screen.findByText('Your organizer moved this phone to another event or check-in list. Its door list is downloaded again.')).toBeInTheDocument();
  await waitFor(() => expect(getSelection().day?.checkInList?.id).toBe(south.id));
  await screen.findByText(/^Last synced/, undefined, { timeout: 10_000 });
  // The scan queued at the north gate is sent naming the north gate.
  await waitFor(() => expect(batches).toEqual([{ checkInListId: north.id, codes: ['NORTH-1'] }]), { timeout: 10_000 });

  // At the south gate NORTH-1 has not been in: the north gate's admission does not deny it here.
  await second.user.click(screen.getByRole('button', { name: 'Start Scanning' }));
  await second.user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'NORTH-1{Enter}');
  await within(await screen.findByRole('group', { name: 'Valid Ticket' }, { timeout: 10_000 })).findByText('Offline');
  await waitFor(() => expect(batches).toEqual([{ checkInListId: north.id, codes: ['NORTH-1'] }, { checkInListId: south.id, codes: ['NORTH-1'] }]), { timeout: 10_000 });
});

test('a door phone whose day was stored without its list (before the list was kept with it) gets its list named at its heartbeat, its door mode kept', async () => {
  serve({ id: 'device-1', name: 'North gate 2', organizationId: testOrganization.id, eventId: testEvent.id, checkInListId: north.id }, [north]);
  renderApp({ route: '/day-select', user: phone, selection: { ...selection, day: { ...testDay, scanMode: 'exit' } } });
  await waitFor(() => expect(getSelection().day).toEqual({ ...testDay, scanMode: 'exit', checkInList: { id: north.id, name: north.name } }));
  expect(screen.queryByText(/Your organizer moved this phone/)).toBeNull();
});

test('a call refused for the list it names (the phone was moved meanwhile) asks the server at once where the phone scans, without waiting for the next beat', async () => {
  let at: DeviceSelf = { id: 'device-1', name: 'North gate 2', organizationId: testOrganization.id, eventId: testEvent.id, checkInListId: north.id };
  let reports = 0;
  server.use(
    http.post(apiUrl(deviceApiPaths.reportStatus), () => {
      reports += 1;
      return HttpResponse.json<DeviceStatusResponse>({ success: true, device: at });
    }),
    http.get(apiUrl(checkInListsPath(testEvent.id)), () => HttpResponse.json<CheckInLists>({ eventId: testEvent.id, lists: [at.checkInListId === north.id ? north : south] })),
    http.post(apiUrl(apiPaths.verifyTicket), () => HttpResponse.json({ code: 'bad_request', message: 'This door device scans its own check-in list only.', field: 'checkInListId' }, { status: 400 })),
  );
  const { user } = renderApp({ route: '/scanner', user: phone, selection });
  await waitFor(() => expect(reports).toBe(1));
  // Moved on the devices page; the phone's next verify still names the north gate.
  at = { ...at, checkInListId: south.id };
  await user.click(await screen.findByRole('button', { name: 'Start Scanning' }));
  await user.type(screen.getByLabelText('Or enter ticket ID manually:'), 'NORTH-1{Enter}');
  expect(await screen.findByText('Your organizer moved this phone to another event or check-in list. Its door list is downloaded again.')).toBeInTheDocument();
  expect(reports).toBe(2);
  await waitFor(() => expect(getSelection().day?.checkInList?.id).toBe(south.id));
});

test("a late answer of an older beat naming the old list does not send back a phone that followed its move: beats go one at a time", async () => {
  const atNorth: DeviceSelf = { id: 'device-1', name: 'North gate 2', organizationId: testOrganization.id, eventId: testEvent.id, checkInListId: north.id };
  let reports = 0;
  let answered = 0;
  server.use(
    http.post(apiUrl(deviceApiPaths.reportStatus), async () => {
      reports += 1;
      if (reports === 1) {
        // The first beat, read by the server before the move, is slow to come back: its answer
        // arrives after the phone followed the second's (or, beats one at a time, the second waits).
        for (let waited = 0; waited < 300 && getSelection().day?.checkInList?.id !== south.id; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
        answered += 1;
        return HttpResponse.json<DeviceStatusResponse>({ success: true, device: atNorth });
      }
      answered += 1;
      return HttpResponse.json<DeviceStatusResponse>({ success: true, device: { ...atNorth, checkInListId: south.id } });
    }),
    http.get(apiUrl(checkInListsPath(testEvent.id)), () => HttpResponse.json<CheckInLists>({ eventId: testEvent.id, lists: [north, south] })),
  );
  renderApp({ route: '/day-select', user: phone, selection });
  await waitFor(() => expect(reports).toBe(1));
  // Moved meanwhile; a call refused for its list asks for a beat while the first is on its way.
  reportListRefused();
  await waitFor(() => expect(answered).toBe(2), { timeout: 3_000 });
  await waitFor(() => expect(getSelection().day?.checkInList?.id).toBe(south.id));
  // Give a late answer's move its turn: none comes.
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(getSelection().day).toEqual({ ...testDay, checkInList: { id: south.id, name: south.name } });
  expect((await readStoredUser())?.device?.checkInListId).toBe(south.id);
});

test("naming the list of a day stored without it keeps an Entry / Exit change made while the lists were on their way", async () => {
  let release = () => {};
  const listsHeld = new Promise<void>((resolve) => {
    release = resolve;
  });
  let listReads = 0;
  server.use(
    http.post(apiUrl(deviceApiPaths.reportStatus), () =>
      HttpResponse.json<DeviceStatusResponse>({ success: true, device: { id: 'device-1', name: 'North gate 2', organizationId: testOrganization.id, eventId: testEvent.id, checkInListId: north.id } }),
    ),
    http.get(apiUrl(checkInListsPath(testEvent.id)), async () => {
      listReads += 1;
      await listsHeld;
      return HttpResponse.json<CheckInLists>({ eventId: testEvent.id, lists: [north] });
    }),
  );
  // A screen that reads no lists itself: the one read is the heartbeat's.
  renderApp({ route: '/event-select', user: phone, selection: { ...selection, day: testDay } });
  await waitFor(() => expect(listReads).toBe(1));
  // Staff switch the door to Exit while the heartbeat waits for the lists.
  await act(() => selectScanMode('exit'));
  release();
  // Give the first beat's naming its turn; the next beat names the list, Exit kept.
  await new Promise((resolve) => setTimeout(resolve, 100));
  reportListRefused();
  await waitFor(() => expect(getSelection().day).toEqual({ ...testDay, scanMode: 'exit', checkInList: { id: north.id, name: north.name } }));
});

test("a door phone held to one list whose lists cannot be loaded keeps its own list with the day it chooses, and its header says so", async () => {
  server.use(
    http.post(apiUrl(deviceApiPaths.reportStatus), () => HttpResponse.error()),
    http.get(apiUrl(checkInListsPath(testEvent.id)), () => HttpResponse.error()),
  );
  const { user } = renderApp({ route: '/day-select', user: phone, selection: { organization: testOrganization, event: testEvent } });
  await user.click(await screen.findByText(testDay.name));
  await waitFor(() => expect(getSelection().day).toEqual({ ...testDay, checkInList: { id: north.id, name: "This device's list" } }));
  expect(await screen.findByTestId('check-in-list-name')).toHaveTextContent("Check-in list: This device's list");
  expect(await screen.findByText("Scanning at this device's check-in list.")).toBeInTheDocument();
  // The lists load again: the next heartbeat names the list, the day and its Entry / Exit kept.
  serve({ id: 'device-1', name: 'North gate 2', organizationId: testOrganization.id, eventId: testEvent.id, checkInListId: north.id }, [north, south]);
  await act(() => selectScanMode('exit'));
  reportListRefused();
  await waitFor(() => expect(screen.getByTestId('check-in-list-name')).toHaveTextContent('Check-in list: North gate'));
  expect(getSelection().day).toEqual({ ...testDay, scanMode: 'exit', checkInList: { id: north.id, name: north.name } });
});

test("a door phone held to one list, asked for its list (its move's lists did not load), is offered that list only", async () => {
  const vip: CheckInList = { ...north, id: '55555555-5555-4555-8555-555555555555', name: 'VIP gate', position: 3 };
  serve({ id: 'device-1', name: 'North gate 2', organizationId: testOrganization.id, eventId: testEvent.id, checkInListId: south.id }, [north, south, vip]);
  const atSouth: User = { ...phone, device: { ...phone.device!, checkInListId: south.id } };
  let reports = 0;
  server.use(
    http.post(apiUrl(deviceApiPaths.reportStatus), () => {
      reports += 1;
      return HttpResponse.json<DeviceStatusResponse>({ success: true, device: { id: 'device-1', name: 'North gate 2', organizationId: testOrganization.id, eventId: testEvent.id, checkInListId: south.id } });
    }),
  );
  renderApp({ route: '/day-select', user: atSouth, selection: { ...selection, day: { ...testDay, checkInList: null } } });
  expect(await screen.findByText('South gate')).toBeInTheDocument();
  expect(screen.queryByText('North gate')).toBeNull();
  expect(screen.queryByText('VIP gate')).toBeNull();
  // The heartbeat, where the phone already is, changes nothing.
  await waitFor(() => expect(reports).toBe(1));
  expect(getSelection().day?.checkInList).toBeNull();
});

test("a door phone held to a list its lists do not hold yet (an old copy) is offered its own list only, not the others", async () => {
  serve({ id: 'device-1', name: 'North gate 2', organizationId: testOrganization.id, eventId: testEvent.id, checkInListId: south.id }, [north, { ...south, id: '55555555-5555-4555-8555-555555555555', name: 'VIP gate' }]);
  const atSouth: User = { ...phone, device: { ...phone.device!, checkInListId: south.id } };
  const { user } = renderApp({ route: '/day-select', user: atSouth, selection: { ...selection, day: { ...testDay, checkInList: null } } });
  await user.click(await screen.findByText("This device's list"));
  expect(screen.queryByText('North gate')).toBeNull();
  await waitFor(() => expect(getSelection().day).toEqual({ ...testDay, checkInList: { id: south.id, name: "This device's list" } }));
});

test("a beat answered after the session ended applies nothing: a late 'moved' neither stores the signed-out device again nor moves the choices kept for the next sign-in", async () => {
  let release: () => void = () => undefined;
  const answer = new Promise<void>((resolve) => {
    release = resolve;
  });
  let reports = 0;
  server.use(
    http.post(apiUrl(deviceApiPaths.reportStatus), async () => {
      reports += 1;
      await answer;
      return HttpResponse.json<DeviceStatusResponse>({ success: true, device: { id: 'device-1', name: 'Summit door', organizationId: testOrganization.id, eventId: 'event-elsewhere', checkInListId: null } });
    }),
  );
  const { router, session } = renderApp({ route: '/day-select', user: phone, selection });
  await waitFor(() => expect(reports).toBe(1));
  // The server no longer takes the session (SPEC §8): signed out, the choices kept for the next sign-in.
  await act(() => session.expire());
  await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  expect(await readStoredUser()).toBeNull();
  // The beat's answer arrives now, naming another event.
  release();
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await readStoredUser()).toBeNull();
  expect(getSelection().event?.id).toBe(testEvent.id);
  expect(getSelection().day).toEqual(selection.day);
});
