/**
 * A door device moved by its organizer (docs/decisions/127) against a contract-shaped fake server
 * (msw): the heartbeat's answer names the device's event and check-in list now; when they differ
 * from what the phone holds, the app stores them, deletes the door lists it downloaded for its old
 * place, chooses the new list and says so; when they do not, nothing changes.
 */
import { type CheckInList, type CheckInLists, checkInListsPath, deviceApiPaths, type DeviceSelf, type DeviceStatusResponse } from '@gatecheck/contract';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect, test } from 'vitest';
import { openOfflineDb, eventDayKey } from '@/features/scanner/offline/offline-db.ts';
import type { User } from '@/lib/entities.ts';
import { getSelection } from '@/lib/selection.ts';
import { readStoredUser } from '@/lib/stored-user.ts';
import { makeDoorList } from '@/test/door-list-fixtures.ts';
import { apiUrl, server } from '@/test/msw-server.ts';
import { testDay, testEvent, testOrganization, testUser } from '@/test/fixtures.ts';
import { renderApp } from '@/test/render.tsx';

const north: CheckInList = { id: 'list-north', name: 'North gate', position: 1, ticketTypes: null, days: null, allowsReentry: false, capacity: null, dailyCheckoutTime: null };
const south: CheckInList = { ...north, id: 'list-south', name: 'South gate', position: 2 };
const phone: User = {
  ...testUser,
  device: { id: 'device-1', name: 'North gate 2', organizationId: testOrganization.id, eventId: testEvent.id, checkInListId: north.id, token: 'device-token', shiftName: 'Anna', shiftEndsAt: '2099-01-01T00:00:00.000Z' },
};
const selection = { organization: testOrganization, event: testEvent, day: { ...testDay, checkInList: { id: north.id, name: north.name } } };

/** The server: the device is at `device`; GET check-in lists answers the device's one list. */
function serve(device: DeviceSelf, lists: CheckInList[]) {
  server.use(
    http.post(apiUrl(deviceApiPaths.reportStatus), () => HttpResponse.json<DeviceStatusResponse>({ success: true, device })),
    http.get(apiUrl(checkInListsPath(device.eventId)), () => HttpResponse.json<CheckInLists>({ eventId: device.eventId, lists })),
  );
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
  serve({ id: 'device-1', name: 'North gate 2', organizationId: testOrganization.id, eventId: testEvent.id, checkInListId: south.id }, [south]);
  renderApp({ route: '/day-select', user: phone, selection });
  expect(await screen.findByText('Your organizer moved this phone to another event or check-in list. Its door list is downloaded again.')).toBeInTheDocument();
  expect((await readStoredUser())?.device).toMatchObject({ eventId: testEvent.id, checkInListId: south.id, token: 'device-token', shiftName: 'Anna' });
  // The device's one list: nothing to choose, no list named (the server gives the device's own).
  expect(getSelection().day).toEqual({ ...testDay });
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
