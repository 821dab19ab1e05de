/**
 * On the phone, a copy of the outbox in the app's own files (docs/decisions/095), because the
 * WebView's IndexedDB is website data the OS may clear to make room (iOS does under storage
 * pressure; an Android WebView's data can be cleared too), and a scan decided offline and not yet
 * sent exists nowhere else. The files (lib/native/device-files.ts) go only with the app.
 *
 * - Each queued scan is one file, `offline/outbox/<scanId>.json`, holding the outbox record as it is
 *   in IndexedDB (set-aside reason included); it is written when the record is, and deleted when the
 *   record leaves the outbox. Writes and deletions run in the order made, after the IndexedDB
 *   transaction, off the verdict's path; a failed file write is reported, never thrown (IndexedDB
 *   still holds the scan).
 * - When the offline store is opened and its IndexedDB has no mark of this copy (a first start, or
 *   storage cleared by the OS), every file is put back into the outbox, and each approval among them
 *   into this device's check-ins (`localCheckIns`), so the same ticket is not let in twice while the
 *   server does not know it. A copy left of a scan already sent is sent again: the server answers it
 *   as a duplicate (the upload is idempotent by `scanId`, decision 045), and its file goes.
 * - In a browser, nothing: the web app asks the browser to keep its storage instead
 *   (lib/persistent-storage.ts).
 *
 * The day's door lists and the events' signing keys have their own copy (door-list-copy.ts), put back
 * by the same entry point (`restoreFromDeviceFiles`) under the same mark.
 */
import { doorListLookupKey } from '@gatecheck/contract/door-list';
import { z } from 'zod';
import { deleteDeviceFile, listDeviceFiles, readDeviceFile, writeDeviceFile } from '@/lib/native/device-files.ts';
import { isNativePlatform } from '@/lib/native/platform.ts';
import { doorListCopiesSettled, restoreDoorListCopies } from './door-list-copy.ts';
import { eventDayKey, type OfflineDb } from './offline-db.ts';

/** The folder of the outbox's copies in the app's files. */
export const OUTBOX_COPY_FOLDER = 'offline/outbox';

/** `meta` key: set once the outbox's IndexedDB and its file copy are known to hold the same scans. */
const COPY_MARK_KEY = 'deviceFilesCopy';

/** What a restore needs of a copied record; the rest of the record is put back as it was. */
const CopiedOutboxRecord = z.looseObject({
  scanId: z.string().min(1),
  seq: z.number(),
  eventId: z.string(),
  day: z.number().int(),
  // The list its admission counts at (docs/decisions/129); absent: the event's first.
  checkInListId: z.string().optional(),
  code: z.string(),
  scannedAt: z.string(),
  verdict: z.string(),
  setAside: z.unknown().optional(),
});
type CopiedOutboxRecord = z.infer<typeof CopiedOutboxRecord>;

/** The file of a scan's copy. `scanId`s are UUIDs; anything else is kept to a safe file name. */
function copyPath(scanId: string): string {
  return `${OUTBOX_COPY_FOLDER}/${encodeURIComponent(scanId)}.json`;
}

/** File writes and deletions, one at a time in the order asked, so a deletion never overtakes its write. */
let pending: Promise<void> = Promise.resolve();

function inOrder(step: () => Promise<void>): Promise<void> {
  pending = pending.then(step).catch((error: unknown) => {
    // Reported, not thrown: IndexedDB holds the scan; only the copy is missing.
    console.error('Gatecheck: the copy of the offline outbox in the app files could not be updated.', error);
  });
  return pending;
}

/**
 * Copies an outbox record (as stored in IndexedDB) to its file, on native; resolves at once in a
 * browser. Never rejects. The returned promise settles when this write (and every earlier one) is done.
 */
export function copyOutboxRecord(record: { scanId: string } & Record<string, unknown>): Promise<void> {
  if (!isNativePlatform()) return Promise.resolve();
  const text = JSON.stringify(record);
  return inOrder(() => writeDeviceFile(copyPath(record.scanId), text));
}

/** Deletes the copy of an outbox record that left the outbox, on native. Never rejects. */
export function dropOutboxCopy(scanId: string): Promise<void> {
  if (!isNativePlatform()) return Promise.resolve();
  return inOrder(() => deleteDeviceFile(copyPath(scanId)));
}

/**
 * Resolves when every file write and deletion asked so far is done, the door lists' and keys' too
 * (tests; the logout waits for it).
 */
export async function deviceFilesSettled(): Promise<void> {
  await Promise.all([pending, doorListCopiesSettled()]);
}

/**
 * Deletes copies whose scan is no longer in the outbox (a deletion the app was killed before), on
 * native. Never rejects.
 */
export function pruneOutboxCopies(db: OfflineDb): Promise<void> {
  if (!isNativePlatform()) return Promise.resolve();
  return inOrder(async () => {
    const kept = new Set((await db.getAllKeys('outbox')).map((key) => `${encodeURIComponent(String(key))}.json`));
    for (const name of await listDeviceFiles(OUTBOX_COPY_FOLDER)) {
      if (name.endsWith('.json') && !kept.has(name)) await deleteDeviceFile(`${OUTBOX_COPY_FOLDER}/${name}`);
    }
  });
}

/**
 * Puts the outbox, the door lists and the signing keys back from their file copies when IndexedDB
 * has lost them (see the module comment), on native; called once per page by `openOfflineDb`.
 * Damaged files are skipped. The door lists and keys go first: the mark is set with the outbox, so an
 * app killed between the two restores again at its next start (what is already back is skipped).
 * @returns how many scans were put back (0 in a browser, or when IndexedDB still had its mark)
 * @throws the browser's error when IndexedDB cannot be written
 */
export async function restoreFromDeviceFiles(db: OfflineDb): Promise<number> {
  if (!isNativePlatform()) return 0;
  if ((await db.get('meta', COPY_MARK_KEY)) === true) return 0;
  await restoreDoorListCopies(db);
  const records: CopiedOutboxRecord[] = [];
  for (const name of await listDeviceFiles(OUTBOX_COPY_FOLDER)) {
    if (!name.endsWith('.json')) continue;
    const text = await readDeviceFile(`${OUTBOX_COPY_FOLDER}/${name}`);
    const parsed = text === null ? null : CopiedOutboxRecord.safeParse(safeJson(text));
    if (parsed?.success) records.push(parsed.data);
  }
  // Lookup keys first: an IndexedDB transaction cannot wait for other work.
  const approvals = await Promise.all(
    records.filter((record) => record.verdict === 'approved' && record.setAside === undefined).map(async (record) => ({ record, lookupKey: await doorListLookupKey(record.eventId, record.code) })),
  );
  const tx = db.transaction(['outbox', 'localCheckIns', 'meta'], 'readwrite');
  let restored = 0;
  let lastSeq = Number(await tx.objectStore('meta').get('outboxSeq')) || 0;
  for (const record of records) {
    if ((await tx.objectStore('outbox').getKey(record.scanId)) !== undefined) continue;
    await tx.objectStore('outbox').put(record);
    lastSeq = Math.max(lastSeq, record.seq);
    restored += 1;
  }
  for (const { record, lookupKey } of approvals) {
    const key = `${eventDayKey(record.eventId, record.day, record.checkInListId)}|${lookupKey}`;
    // Offline (isOnline false): it counts until the server has it, whatever the next door list says.
    if ((await tx.objectStore('localCheckIns').getKey(key)) === undefined) await tx.objectStore('localCheckIns').put({ checkedInAt: record.scannedAt, checkedInBy: '', isOnline: false }, key);
  }
  await tx.objectStore('meta').put(lastSeq, 'outboxSeq');
  await tx.objectStore('meta').put(true, COPY_MARK_KEY);
  await tx.done;
  // From now on both hold the same scans: copy those IndexedDB had without a file (an outbox kept
  // from before this copy existed).
  const copied = new Set(records.map((record) => record.scanId));
  for (const record of await db.getAll('outbox')) if (!copied.has(record.scanId)) void copyOutboxRecord(record);
  return restored;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
