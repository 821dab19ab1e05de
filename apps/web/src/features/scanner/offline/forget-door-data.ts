/**
 * A door device removed by its organizer (docs/decisions/108): what it admitted offline is sent
 * first — the offline upload is the one call a revoked device may still make — and then the guest
 * data goes: the door lists, this device's own admissions and the signing keys, in IndexedDB and
 * in their copies in the app's files on the phone (decision 095). Scans the server did not answer
 * (no network) stay queued, as after a logout (decision 077): whoever signs in here next sends them.
 */
import { LOGOUT_SEND_TIMEOUT_MS } from '@/config/constants.ts';
import { deleteDeviceFile, listDeviceFiles } from '@/lib/native/device-files.ts';
import { DOOR_LIST_COPY_FOLDER, doorListCopiesSettled, SIGNING_KEYS_COPY_FOLDER, signingKeysPath } from './door-list-copy.ts';
import { retireDoorLists } from './door-list-store.ts';
import { uploadOutboxWithin } from './offline-api.ts';
import { openOfflineDb } from './offline-db.ts';

/**
 * Sends the outbox once under the stored session (as `userId`; null: nobody is stored, nothing is
 * sent), then deletes the door lists, local admissions and signing keys. Never throws: a device
 * whose store cannot be opened has nothing to send or delete there; the file copies go regardless.
 */
export async function sendThenForgetDoorData(userId: string | null): Promise<void> {
  try {
    const db = await openOfflineDb();
    if (userId !== null) await uploadOutboxWithin(db, userId, LOGOUT_SEND_TIMEOUT_MS).catch(() => undefined);
    retireDoorLists();
    const tx = db.transaction(['doorLists', 'localCheckIns', 'signingKeys'], 'readwrite');
    await Promise.all([tx.objectStore('doorLists').clear(), tx.objectStore('localCheckIns').clear(), tx.objectStore('signingKeys').clear(), tx.done]);
  } catch {
    // No readable store: nothing in it to send or delete.
  }
  await doorListCopiesSettled();
  for (const folder of [DOOR_LIST_COPY_FOLDER, SIGNING_KEYS_COPY_FOLDER]) {
    for (const name of await listDeviceFiles(folder)) await deleteDeviceFile(`${folder}/${name}`);
  }
}

/**
 * Deletes every door list on this device, in IndexedDB and their copies in the app's files, and
 * nothing else (the outbox, this device's admissions and the signing keys stay): a door device moved
 * to another event or check-in list (docs/decisions/127) must not decide by the list of its old
 * place, and downloads its new one in full at the next sync. A sync in flight stores nothing
 * (`retireDoorLists`), and file copies already queued are written before the files are deleted.
 * Never throws.
 */
export async function forgetDoorLists(): Promise<void> {
  // A sync in flight must not write its list back after the deletion.
  retireDoorLists();
  try {
    const db = await openOfflineDb();
    await db.clear('doorLists');
  } catch {
    // No readable store: no door list in it.
  }
  // A file copy queued by a sync before `retireDoorLists` would otherwise be written after the delete.
  await doorListCopiesSettled();
  for (const name of await listDeviceFiles(DOOR_LIST_COPY_FOLDER).catch(() => [])) await deleteDeviceFile(`${DOOR_LIST_COPY_FOLDER}/${name}`).catch(() => undefined);
}

/**
 * A door device moved to another event (docs/decisions/139): the scans it queued at `eventId`, the
 * event it left, are sent once under the stored session as `userId` (the server takes those made
 * before the phone learned of the move), and then that event's data goes from the phone: this
 * device's own admissions there and its signing keys, in IndexedDB and in the app's files (its door
 * lists went at the move, `forgetDoorLists`). Scans the server did not answer stay queued: every
 * outbox round sends each batch to the event it was made at. Never throws.
 */
export async function sendThenForgetEventLeft(eventId: string, userId: string): Promise<void> {
  try {
    const db = await openOfflineDb();
    // Its wait behind a round already under way is bounded too: the deletion below must not wait on a hung one.
    await uploadOutboxWithin(db, userId, LOGOUT_SEND_TIMEOUT_MS).catch(() => undefined);
    // Own admissions are keyed `<eventId>|<day>[|<list>]` (offline-db.ts `eventDayKey`).
    const ofEvent = IDBKeyRange.bound(`${eventId}|`, `${eventId}|\uffff`);
    const tx = db.transaction(['localCheckIns', 'signingKeys'], 'readwrite');
    await Promise.all([tx.objectStore('localCheckIns').delete(ofEvent), tx.objectStore('signingKeys').delete(eventId), tx.done]);
  } catch {
    // No readable store: nothing in it to send or delete.
  }
  // A copy of the keys queued by a sync before the move would otherwise be written after the delete.
  await doorListCopiesSettled();
  await deleteDeviceFile(signingKeysPath(eventId)).catch(() => undefined);
}
