/**
 * A door device moved by its organizer to another event or check-in list (docs/decisions/127): the
 * heartbeat's answer names where it scans now, and the app follows at once instead of deciding by
 * the door list of its old place until a full download. The stored device, the chosen event and
 * list, the event's check-in lists and the door lists on the phone all change together.
 */
import type { DeviceSelf } from '@gatecheck/contract/devices';
import type { QueryClient } from '@tanstack/react-query';
import { isMovedDevice, storeMovedDevice } from '@/features/devices/device-self.ts';
import { forgetDoorLists, sendThenForgetEventLeft } from '@/features/scanner/offline/forget-door-data.ts';
import { checkInListQueries, checkInListStep } from '@/lib/check-ins/check-in-lists.ts';
import type { User } from '@/lib/entities.ts';
import { clearSelection, getSelection, selectDay } from '@/lib/selection.ts';
import { readStoredUser } from '@/lib/stored-user.ts';

/**
 * When `reported` (the heartbeat's answer) places `user`'s device elsewhere than stored: stores it,
 * deletes the phone's door lists, forgets the cached check-in lists, and moves the selection — to the
 * event step after a move of event (whose old event's queued scans are sent, and its data then
 * deleted: `sendThenForgetEventLeft`); after a move of list within the event, to the list the day's
 * list step now gives (the device's one list, or the choice when it scans every list).
 * `signal`: aborted when the heartbeat that heard the answer stopped (signed out, the device
 * removed, the screen gone); the move then stops before its next step that writes the stored user
 * or the selection; and it stores the moved device only while the stored user is still that device
 * (same device token), so a late answer does not sign a signed-out device in again nor move the
 * choices of whoever uses the phone now. (Between that read and the write a sign-out could still slip
 * in: the heartbeat also stops as soon as the session store says signed out.)
 * @returns the stored user when the device moved and `signal` was not aborted meanwhile (the caller
 *   makes it the session's), else null.
 */
export async function followDeviceMove(user: User, reported: DeviceSelf | undefined, queryClient: QueryClient, signal?: AbortSignal): Promise<User | null> {
  const { device } = user;
  if (!device || !reported || !isMovedDevice(device, reported)) return null;
  // The device must still be the one signed in on this phone: a sign-out may have deleted it already.
  const stored = await readStoredUser().catch(() => null);
  if (signal?.aborted || stored?.device?.token !== device.token) return null;
  const next = await storeMovedDevice({ ...user, device }, reported);
  await forgetDoorLists();
  if (signal?.aborted) return null;
  // Its scans queued at the event it left still go there (the server takes those made before the
  // phone knew, docs/decisions/139); then that event's data goes. Not waited for: the next beat
  // reports the new place meanwhile.
  if (reported.eventId !== device.eventId) void sendThenForgetEventLeft(device.eventId, user.id);
  queryClient.removeQueries({ queryKey: checkInListQueries.all() });
  const { event, day } = getSelection();
  if (event && event.id !== reported.eventId) {
    await clearSelection('event');
  } else if (event && day) {
    const { checkInList: _old, scanMode: _mode, ...plainDay } = day;
    // From the server, not the copy kept for offline use (the old place's lists).
    const lists = await queryClient.fetchQuery({ ...checkInListQueries.list(event.id), persister: undefined, retry: 1 }).catch(() => null);
    if (signal?.aborted) return null;
    const step = lists ? checkInListStep(lists.lists, day.day, { checkInListId: reported.checkInListId ?? null }) : null;
    // Without the lists (no network), the list is chosen again on the day screen.
    await selectDay(step?.kind === 'first' ? plainDay : { ...plainDay, checkInList: step?.kind === 'only' ? step.list : null });
  }
  return next;
}

/**
 * A door device whose chosen day names no list, or not the list it is held to — a day stored before
 * a device's list was kept with it (docs/decisions/129) — or names it by `standInName` (the day step
 * stored it without the lists), gets its list named, as the day step now stores it; a day whose list
 * is still to choose (null) is left to that step. Without the lists (no
 * network), or when the selection changed while they were read, nothing changes until the next
 * heartbeat; nor once `signal` is aborted (the heartbeat stopped, see `followDeviceMove`). Never throws.
 */
export async function keepDeviceListChosen(user: User, queryClient: QueryClient, standInName?: string, signal?: AbortSignal): Promise<void> {
  const { device } = user;
  const { event, day } = getSelection();
  if (signal?.aborted || !device || !event || event.id !== device.eventId || !day || day.checkInList === null) return;
  const isNamed = day.checkInList !== undefined && day.checkInList.name !== standInName;
  if (device.checkInListId ? day.checkInList?.id === device.checkInListId && isNamed : day.checkInList !== undefined) return;
  const lists = await queryClient.fetchQuery({ ...checkInListQueries.list(event.id), retry: 1 }).catch(() => null);
  if (signal?.aborted) return;
  const step = lists ? checkInListStep(lists.lists, day.day, device) : null;
  if (step?.kind !== 'only' || (device.checkInListId !== null && step.list.id !== device.checkInListId)) return;
  // Staff may have changed the day, its list or Entry / Exit while the lists were on their way:
  // writing the day read before would undo that. The next heartbeat names the list of the new one.
  const now = getSelection();
  if (now.event !== event || now.day !== day) return;
  // The same door as before, now named: its Entry / Exit switch stays.
  await selectDay({ ...day, checkInList: step.list });
}
