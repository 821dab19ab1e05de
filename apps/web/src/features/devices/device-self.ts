/**
 * What a door device says about itself (docs/decisions/107, 116): the shift of whoever picks it up
 * (`POST /devices/me/shifts`: the scan log then names them) and its state when it syncs
 * (`POST /devices/me/status`: platform, app version, scans waiting in its outbox). Stored user and
 * token change with the shift; the device's own credential stays beside them.
 */
import { type DeviceSelf, DeviceStatusResponse, deviceApiPaths, StartShiftResponse } from '@gatecheck/contract/devices';
import { apiPaths } from '@gatecheck/contract/paths';
import { UserMe } from '@gatecheck/contract/users';
import { apiRequest } from '@/lib/api-client.ts';
import type { DeviceCredential, User } from '@/lib/entities.ts';
import { platformName } from '@/lib/native/platform.ts';
import { writeStoredUser } from '@/lib/stored-user.ts';
import { APP_VERSION } from '@/config/app-version.ts';

/**
 * Starts a shift named `name` on the device `user` is: the shift's token and user (as GET /users/me
 * names it, 'Anna (North gate 2)') become the stored user, the device's own credential kept.
 * @returns the stored user. @throws {ApiError} when the server refuses or cannot be reached.
 */
export async function startShift(user: User & { device: NonNullable<User['device']> }, name: string): Promise<User> {
  const shift = await apiRequest(deviceApiPaths.startShift, { method: 'POST', body: { name }, schema: StartShiftResponse, token: user.device.token });
  const me = await apiRequest(apiPaths.usersMe, { schema: UserMe, token: shift.token });
  const next: User = {
    ...user,
    id: me.id,
    name: me.displayName ?? shift.displayName,
    username: me.username,
    email: me.email,
    token: shift.token,
    device: { ...user.device, shiftName: name, shiftEndsAt: shift.expiresAt },
  };
  await writeStoredUser(next);
  return next;
}

/** How long a shift begun without the server lasts before the name is asked again (ms): 30 min. */
export const OFFLINE_SHIFT_MS = 30 * 60 * 1000;

/**
 * Lets the door scan with no server to start a shift (a phone restarted at a door without network):
 * the device scans under its own credential, named as the device, and asks for a name again after
 * OFFLINE_SHIFT_MS (at the next start after that).
 * @returns the stored user.
 */
export async function scanWithoutShift(user: User & { device: NonNullable<User['device']> }, now = new Date()): Promise<User> {
  const next: User = { ...user, token: user.device.token, device: { ...user.device, shiftName: user.device.name, shiftEndsAt: new Date(now.getTime() + OFFLINE_SHIFT_MS).toISOString() } };
  await writeStoredUser(next);
  return next;
}

/**
 * Ends the shift on this device: it scans as the device again until the next name is given.
 * @returns the stored user.
 */
export async function endShift(user: User & { device: NonNullable<User['device']> }): Promise<User> {
  const { shiftName: _name, shiftEndsAt: _endsAt, ...device } = user.device;
  const next: User = { ...user, token: device.token, device };
  await writeStoredUser(next);
  return next;
}

/**
 * Reports the device's state (the devices page shows it; its last-seen time follows) and `place`,
 * the event and check-in list it scans at as stored on the phone: the server takes a move as known
 * to the phone once it reports the new place (docs/decisions/129). Never rejects: a report that does
 * not arrive is sent again at the next heartbeat.
 * @returns the device as the server has it now (its event and check-in list, docs/decisions/127),
 *   or undefined when the report did not arrive or the server is older.
 */
export async function reportDeviceStatus(scansWaiting: number, place?: Pick<DeviceCredential, 'eventId' | 'checkInListId'>): Promise<DeviceSelf | undefined> {
  const answer = await apiRequest(deviceApiPaths.reportStatus, {
    method: 'POST',
    body: { scansWaiting, platform: platformName(), appVersion: APP_VERSION, ...(place ? { place: { eventId: place.eventId, checkInListId: place.checkInListId } } : {}) },
    schema: DeviceStatusResponse,
  }).catch(() => undefined);
  return answer?.device;
}

/**
 * Whether the server's `reported` device scans elsewhere than `device` (the stored one): another
 * event or check-in list, after its organizer moved it on the devices page (docs/decisions/127).
 */
export function isMovedDevice(device: DeviceCredential, reported: DeviceSelf): boolean {
  return reported.id === device.id && (reported.eventId !== device.eventId || (reported.checkInListId ?? null) !== device.checkInListId);
}

/**
 * Stores the server's `reported` event, list and name for the device `user` is (its credential and
 * shift kept). @returns the stored user.
 */
export async function storeMovedDevice(user: User & { device: DeviceCredential }, reported: DeviceSelf): Promise<User> {
  const next: User = { ...user, device: { ...user.device, name: reported.name, eventId: reported.eventId, checkInListId: reported.checkInListId ?? null } };
  await writeStoredUser(next);
  return next;
}
