/**
 * The door list and signing keys on a phone whose OS cleared the WebView's storage (docs/decisions/095),
 * on Capacitor's real Android bridge: the stand-in's Filesystem keeps the app's files apart from
 * IndexedDB, so deleting the IndexedDB database is what the OS does to website data, and a new
 * `openOfflineDb()` is the app started again.
 */
import { standIn } from '@/test/android-bridge-install.ts';
import { SIGNED_TICKET_VECTOR, type DoorList, type EventSigningKeys } from '@gatecheck/contract';
import { deleteDB } from 'idb';
import { doorListEvent, makeDoorList } from '@/test/door-list-fixtures.ts';
import { listDeviceFiles } from '@/lib/native/device-files.ts';
import { expect, test } from 'vitest';
import { DOOR_LIST_COPY_FOLDER, DOOR_LIST_ENTRIES_PER_PART, SIGNING_KEYS_COPY_FOLDER } from './door-list-copy.ts';
import { readDoorList, syncDoorList } from './door-list-store.ts';
import { deviceFilesSettled } from './durable-copy.ts';
import { forgetDoorLists, sendThenForgetEventLeft } from './forget-door-data.ts';
import { decideOffline, type OfflineDecisionInput } from './offline-decision.ts';
import { closeOfflineDb, OFFLINE_DB_NAME, openOfflineDb } from './offline-db.ts';
import { readSigningKeys, syncSigningKeys } from './signed-tickets.ts';

const vector = SIGNED_TICKET_VECTOR;
/** An event whose signed tickets the test vector's key signs, on a door list of its day 1. */
const signedEvent: DoorList['event'] = { ...doorListEvent, id: vector.eventId };
const eventKeys: EventSigningKeys = {
  eventId: vector.eventId,
  keys: [{ keyId: vector.keyId, algorithm: 'Ed25519', publicKey: vector.publicKey, createdAt: '2026-06-01T10:00:00.000Z', retiredAt: null }],
};

/** The OS clears the WebView's website data: the IndexedDB database goes, the app's files stay. */
async function osClearsWebViewStorage(): Promise<void> {
  await closeOfflineDb();
  await deleteDB(OFFLINE_DB_NAME);
}

/** The Filesystem writes made so far under `folder` (each write of a copy writes its `.partial` file). */
function fileWrites(folder: string, methodName = 'writeFile'): number {
  return standIn().calls.filter((call) => call.pluginId === 'Filesystem' && call.methodName === methodName && String((call.options as { path?: unknown }).path).startsWith(`${folder}/`)).length;
}

test('a door list and signing keys synced on the phone are back after the OS cleared the WebView storage, and decide tickets offline at once', async () => {
  const db = await openOfflineDb();
  const list = await makeDoorList([{ code: 'HARBOUR-0001', holderName: 'Ada Lovelace' }], { event: signedEvent, day: 1 });
  expect(await syncDoorList(db, { eventId: vector.eventId, day: 1 }, async () => list)).toMatchObject({ status: 'synced' });
  await syncSigningKeys(db, vector.eventId, async () => eventKeys);
  await deviceFilesSettled();

  await osClearsWebViewStorage();
  const restarted = await openOfflineDb();
  // What the scanner reads when it opens (use-offline-door.ts), before any download.
  const stored = await readDoorList(restarted, vector.eventId, 1);
  expect(stored?.list).toEqual(list);
  const keys = await readSigningKeys(restarted, vector.eventId);
  expect(keys).toEqual(eventKeys.keys);

  const input = (code: string): OfflineDecisionInput => ({ eventId: vector.eventId, day: 1, code, now: new Date(), staffName: 'Dana Demo', doorList: stored?.list ?? null, signingKeys: keys, event: signedEvent });
  expect(await decideOffline(restarted, input('HARBOUR-0001'))).toMatchObject({ isValid: true, details: { holderName: 'Ada Lovelace' } });
  expect(await decideOffline(restarted, input('HARBOUR-0001'))).toMatchObject({ isValid: false, denial: { reason: 'already_checked_in' } });
  // A signed ticket the list does not hold is decided by the restored keys.
  expect(await decideOffline(restarted, input(vector.qrText))).toMatchObject({ isValid: true });
  expect(await decideOffline(restarted, input(vector.qrText))).toMatchObject({ isValid: false, denial: { reason: 'already_checked_in' } });
});

test('a door list (and keys) unchanged across syncs is not written again; a change is', async () => {
  const db = await openOfflineDb();
  const scope = { eventId: doorListEvent.id, day: 2 };
  const full = await makeDoorList([{ code: 'SAIL-0001', holderName: 'Grace Hopper' }], { cursor: '100' });
  // Nothing changed: a new cursor and a new server clock only.
  const nothing: DoorList = { ...(await makeDoorList([], { cursor: '101', isComplete: false })), generatedAt: '2026-07-11T10:01:00.000Z' };
  const nothingAgain: DoorList = { ...nothing, cursor: '102', generatedAt: '2026-07-11T10:02:00.000Z' };
  const oneCheckIn = await makeDoorList([{ code: 'SAIL-0002', holderName: 'Alan Turing', checkIn: { checkedInAt: '2026-07-11T10:02:30.000Z', checkedInBy: 'Gate 2' } }], { cursor: '103', isComplete: false });
  const keys: EventSigningKeys = { ...eventKeys, eventId: doorListEvent.id };
  const listWrites = fileWrites(DOOR_LIST_COPY_FOLDER);
  const keyWrites = fileWrites(SIGNING_KEYS_COPY_FOLDER);

  for (const answer of [full, nothing, nothingAgain]) {
    expect(await syncDoorList(db, scope, async () => answer)).toMatchObject({ status: 'synced' });
    await syncSigningKeys(db, doorListEvent.id, async () => keys);
    await deviceFilesSettled();
  }
  expect(fileWrites(DOOR_LIST_COPY_FOLDER) - listWrites).toBe(1);
  expect(fileWrites(SIGNING_KEYS_COPY_FOLDER) - keyWrites).toBe(1);

  expect(await syncDoorList(db, scope, async () => oneCheckIn)).toMatchObject({ status: 'synced' });
  await deviceFilesSettled();
  expect(fileWrites(DOOR_LIST_COPY_FOLDER) - listWrites).toBe(2);

  // The file holds the merged list: after the OS clears IndexedDB, both tickets are there.
  await osClearsWebViewStorage();
  const restarted = await openOfflineDb();
  expect((await readDoorList(restarted, doorListEvent.id, 2))?.list.tickets).toHaveLength(2);
});

test('a large door list is written in parts and comes back whole', async () => {
  const db = await openOfflineDb();
  const list = await makeDoorList([{ code: 'DECK-0001', holderName: 'Ada Lovelace' }], { day: 3 });
  // Entries as the server sends them (the holder name sealed), without sealing thousands of names here.
  const count = DOOR_LIST_ENTRIES_PER_PART * 2 + 17;
  const many: DoorList = {
    ...list,
    tickets: [
      ...list.tickets,
      ...Array.from({ length: count }, (_, index) => ({ lookupKey: `key-${index}`, ticketType: 'Day', admittedDays: [3], isRevoked: index % 7 === 0, holderName: { iv: 'aXY', data: `sealed-${index}` }, checkIn: index % 5 === 0 ? { checkedInAt: '2026-07-12T09:00:00.000Z', checkedInBy: 'Gate "North"' } : null, requiresAttention: false })),
    ],
  };
  const appends = fileWrites(DOOR_LIST_COPY_FOLDER, 'appendFile');
  expect(await syncDoorList(db, { eventId: doorListEvent.id, day: 3 }, async () => many)).toMatchObject({ status: 'synced' });
  await deviceFilesSettled();
  // The head, three parts of entries, the tail: one write and four appends.
  expect(fileWrites(DOOR_LIST_COPY_FOLDER, 'appendFile') - appends).toBe(4);

  await osClearsWebViewStorage();
  const restarted = await openOfflineDb();
  expect((await readDoorList(restarted, doorListEvent.id, 3))?.list).toEqual(many);
});

test("two check-in lists' door lists have a file each, named by the list, and each comes back under its own key (docs/decisions/109)", async () => {
  const db = await openOfflineDb();
  const vipGateId = '22222222-2222-4222-8222-222222222222';
  const main = await makeDoorList([{ code: 'MAIN-0001', holderName: 'Ada' }], { cursor: '100' });
  const vip = await makeDoorList([{ code: 'VIP-0001', holderName: 'Vera', ticketType: 'VIP' }], { cursor: '200' });
  await syncDoorList(db, { eventId: doorListEvent.id, day: 2 }, async () => main);
  await syncDoorList(db, { eventId: doorListEvent.id, day: 2, checkInListId: vipGateId }, async () => vip);
  await deviceFilesSettled();
  const written = standIn()
    .calls.filter((call) => call.pluginId === 'Filesystem' && call.methodName === 'rename')
    .map((call) => String((call.options as { to?: unknown }).to));
  expect(written).toEqual(expect.arrayContaining([`${DOOR_LIST_COPY_FOLDER}/${doorListEvent.id}|2.json`, `${DOOR_LIST_COPY_FOLDER}/${doorListEvent.id}|2|${vipGateId}.json`]));

  await osClearsWebViewStorage();
  const restarted = await openOfflineDb();
  expect((await readDoorList(restarted, doorListEvent.id, 2))?.list.cursor).toBe('100');
  expect((await readDoorList(restarted, doorListEvent.id, 2, vipGateId))?.list.cursor).toBe('200');
});

test("door lists forgotten (a moved phone) while a list's file copy is still being written leave no file behind", async () => {
  const db = await openOfflineDb();
  const list = await makeDoorList([{ code: 'HARBOUR-0001', holderName: 'Ada Lovelace' }], { event: signedEvent, day: 1 });
  // The sync queues the file copy and returns without waiting for it.
  expect(await syncDoorList(db, { eventId: vector.eventId, day: 1 }, async () => list)).toMatchObject({ status: 'synced' });

  await forgetDoorLists();
  await deviceFilesSettled();

  expect(await listDeviceFiles(DOOR_LIST_COPY_FOLDER)).toEqual([]);
  expect(await db.getAll('doorLists')).toEqual([]);
});

test("the event a phone was moved away from loses its signing keys, in IndexedDB and in the app's files; another event's stay (docs/decisions/139)", async () => {
  const db = await openOfflineDb();
  // Keys this page has not copied before (a file written is not written again with the same keys).
  const otherKeys: EventSigningKeys = { eventId: doorListEvent.id, keys: eventKeys.keys.map((key) => ({ ...key, createdAt: '2026-06-02T10:00:00.000Z' })) };
  await syncSigningKeys(db, doorListEvent.id, async () => otherKeys);
  await deviceFilesSettled();
  // The left event's keys synced just before the move (their file copy queued, not waited for).
  await syncSigningKeys(db, vector.eventId, async () => eventKeys);

  await sendThenForgetEventLeft(vector.eventId, 'user-1');
  await deviceFilesSettled();

  expect(await listDeviceFiles(SIGNING_KEYS_COPY_FOLDER)).toEqual([`${encodeURIComponent(doorListEvent.id)}.json`]);
  expect(await readSigningKeys(db, vector.eventId)).toEqual([]);
  expect(await readSigningKeys(db, doorListEvent.id)).toEqual(otherKeys.keys);
});
