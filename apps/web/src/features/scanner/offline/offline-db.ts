/**
 * The device's offline store (issue 12, docs/decisions/052): one IndexedDB database through `idb`,
 * which survives a reload and an app kill. Stores:
 *
 * - `doorLists`: per event day (`<eventId>|<day>`) the last good door list (packages/contract
 *   door-list.ts) and when it was synced. No names in clear: entries are found by the hash of a code
 *   and the holder names stay sealed (decision 044).
 * - `outbox`: the scans decided offline, keyed by `scanId`, waiting to be sent (or set aside with the
 *   server's reason), in scan order (`seq`, a counter of this device).
 * - `localCheckIns`: this device's own admissions per event day, by lookup key (`<eventId>|<day>|<key>`),
 *   so the same ticket again is DENIED before the list knows it.
 * - `signingKeys`: the public keys of an event's signed tickets (decision 043), by event id.
 * - `meta`: this device's id and the outbox counter.
 *
 * Everything read back is parsed with a zod schema by the modules that read it: a damaged value
 * reads as absent. On the phone the outbox, the door lists and the signing keys also have a copy in
 * the app's own files, which the OS does not clear (durable-copy.ts, door-list-copy.ts, decision 095).
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { restoreFromDeviceFiles } from './durable-copy.ts';

/** Name of the IndexedDB database (one per origin). */
export const OFFLINE_DB_NAME = 'gatecheck-offline';
const OFFLINE_DB_VERSION = 1;

interface OfflineSchema extends DBSchema {
  doorLists: { key: string; value: unknown };
  outbox: { key: string; value: { scanId: string; seq: number } & Record<string, unknown>; indexes: { bySeq: number } };
  localCheckIns: { key: string; value: unknown };
  signingKeys: { key: string; value: unknown };
  meta: { key: string; value: unknown };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

let opening: Promise<OfflineDb> | null = null;

/**
 * The open database (opened once per page, created on first use).
 * @throws Error (the browser's) when IndexedDB is unavailable (private modes of some browsers).
 */
export function openOfflineDb(): Promise<OfflineDb> {
  opening ??= openDB<OfflineSchema>(OFFLINE_DB_NAME, OFFLINE_DB_VERSION, {
    upgrade(db) {
      db.createObjectStore('doorLists');
      db.createObjectStore('outbox', { keyPath: 'scanId' }).createIndex('bySeq', 'seq');
      db.createObjectStore('localCheckIns');
      db.createObjectStore('signingKeys');
      db.createObjectStore('meta');
    },
    // Another tab upgrading, or a test deleting the database: close, and open again next time.
    blocking() {
      void opening?.then((db) => db.close());
      opening = null;
    },
  })
    // On the phone, the outbox, the door lists and the signing keys come back from their copy in the
    // app's files if the OS cleared the WebView's storage (durable-copy.ts, door-list-copy.ts,
    // docs/decisions/095). A copy that cannot be read is not a reason to refuse the store.
    .then(async (db) => {
      await restoreFromDeviceFiles(db).catch((error: unknown) => console.error('Gatecheck: the offline store could not be restored from the app files.', error));
      return db;
    })
    .catch((error: unknown) => {
    opening = null;
    throw error;
  });
  return opening;
}

/** Closes the page's connection, so the next `openOfflineDb()` opens again (tests: "the app was killed"). */
export async function closeOfflineDb(): Promise<void> {
  const current = opening;
  opening = null;
  if (current) (await current.catch(() => null))?.close();
}

/**
 * The key of an event day's records: `<eventId>|<day>`, and `<eventId>|<day>|<checkInListId>` at a
 * chosen check-in list (docs/decisions/109), so two lists' door lists and admissions never mix; the
 * event's first list without a name keeps the key it had before lists.
 */
export function eventDayKey(eventId: string, day: number, checkInListId?: string): string {
  return checkInListId ? `${eventId}|${day}|${checkInListId}` : `${eventId}|${day}`;
}

/**
 * Takes the next number of this device's door-list syncs (`meta` 'syncSeq', 1, 2, 3 …), as a sync
 * begins, before its request (docs/decisions/130): a list whose number is higher than the one an
 * online verdict was learned at (`currentSyncSeq`) was asked for after it. Unlike the device clock,
 * it never goes back (a clock corrected by hand or by the network does not reorder them).
 * @throws the browser's error when IndexedDB fails.
 */
export async function takeSyncSeq(db: OfflineDb): Promise<number> {
  const tx = db.transaction('meta', 'readwrite');
  const next = (await currentSeqIn(tx.store)) + 1;
  await tx.store.put(next, 'syncSeq');
  await tx.done;
  return next;
}

/** The number of the last door-list sync begun on this device (`takeSyncSeq`); 0 before the first. */
export async function currentSyncSeq(db: OfflineDb): Promise<number> {
  return currentSeqIn(db.transaction('meta').store);
}

async function currentSeqIn(store: { get(key: string): Promise<unknown> }): Promise<number> {
  const stored = await store.get('syncSeq');
  return typeof stored === 'number' && Number.isSafeInteger(stored) && stored > 0 ? stored : 0;
}

/**
 * This device's id (a UUID made on first use and kept), sent with every offline scan (decision 045).
 */
export async function deviceId(db: OfflineDb): Promise<string> {
  const stored = await db.get('meta', 'deviceId');
  if (typeof stored === 'string' && stored !== '') return stored;
  const made = crypto.randomUUID();
  await db.put('meta', made, 'deviceId');
  return made;
}
