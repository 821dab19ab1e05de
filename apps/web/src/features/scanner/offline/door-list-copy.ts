/**
 * On the phone, a copy of each event day's door list and each event's signing keys in the app's own
 * files (docs/decisions/095), beside the outbox's copy (durable-copy.ts): a device whose WebView
 * storage the OS cleared then still decides tickets offline at once, without waiting for a download
 * it may not get at the door.
 *
 * - Files: `offline/door-lists/<encoded eventId>|<day>.json` holds the day's list as kept in
 *   IndexedDB (`{ list, syncedAt, needsFullList }`, door-list-store.ts);
 *   `offline/signing-keys/<encoded eventId>.json` the event's keys (`EventSigningKeys`).
 * - Written only when what they hold changed: a door list (100,000 tickets is several MB of JSON)
 *   is synced every 60 s, and most syncs bring nothing. The caller says whether the list changed (a
 *   full list, or changes carrying tickets, event fields or revoked keys); a list that only got a
 *   new `cursor`/`generatedAt` is not written again. The file then keeps an older cursor, which is
 *   safe: the changes since an older cursor include those since a newer one, and applying a change
 *   twice changes nothing (decision 044). Keys are compared with what was last written. The first
 *   sync of each list or key set in a page session writes it whatever changed (a file a failed write
 *   or an older app version left missing), and a failed write is tried again at the next sync.
 * - Writes go beside the old file and are renamed over it (never half a file; lib/native/device-files.ts),
 *   one at a time after the IndexedDB write and off the verdict's path. A door list's JSON text is
 *   made and written in parts of `DOOR_LIST_ENTRIES_PER_PART` entries, giving the page the main
 *   thread back between parts, only when its write runs; several syncs of the same list waiting
 *   behind a slow write become one write of the newest. Errors are reported, never thrown
 *   (IndexedDB still holds the list).
 * - Restored by `restoreDoorListCopies`, which durable-copy.ts's `restoreFromDeviceFiles` calls
 *   under the same IndexedDB mark as the outbox: only when IndexedDB lost it.
 * - Lists of days long past are kept, as IndexedDB keeps them (neither is pruned yet).
 *
 * In a browser, nothing (lib/persistent-storage.ts asks the browser to keep its storage instead).
 */
import { DoorList } from '@gatecheck/contract/door-list';
import { EventSigningKeys } from '@gatecheck/contract/signed-ticket';
import { z } from 'zod';
import { listDeviceFiles, readDeviceFile, writeDeviceFile, writeDeviceFileInParts } from '@/lib/native/device-files.ts';
import { isNativePlatform } from '@/lib/native/platform.ts';
import { eventDayKey, type OfflineDb } from './offline-db.ts';

/** The folder of the door lists' copies in the app's files. */
export const DOOR_LIST_COPY_FOLDER = 'offline/door-lists';
/** The folder of the signing keys' copies in the app's files. */
export const SIGNING_KEYS_COPY_FOLDER = 'offline/signing-keys';

/** A door list as door-list-store.ts keeps it (its `StoredDoorList`). */
const CopiedDoorList = z.object({ list: DoorList, syncedAt: z.string(), needsFullList: z.boolean(), checkInListId: z.string().optional() });
type CopiedDoorList = z.infer<typeof CopiedDoorList>;

/**
 * `<eventId>|<day>.json`, or `<eventId>|<day>|<checkInListId>.json` for the door list of a chosen
 * check-in list (docs/decisions/109): two lists' door lists never share a file.
 */
function doorListPath(stored: Pick<CopiedDoorList, 'list' | 'checkInListId'>): string {
  const list = stored.checkInListId ? `|${encodeURIComponent(stored.checkInListId)}` : '';
  return `${DOOR_LIST_COPY_FOLDER}/${encodeURIComponent(stored.list.event.id)}|${stored.list.day}${list}.json`;
}

/** The file of event `eventId`'s signing keys in the app's files. */
export function signingKeysPath(eventId: string): string {
  return `${SIGNING_KEYS_COPY_FOLDER}/${encodeURIComponent(eventId)}.json`;
}

/** What each file was last asked to hold in this page session (a door list: '' — the caller tracks its changes). */
const written = new Map<string, string>();
/** The newest value waiting to be written, per file: a write already queued for it takes this one. */
const waiting = new Map<string, unknown>();
let pending: Promise<void> = Promise.resolve();

/** Door-list entries per part of its file's text (about 250 bytes each: some 500 KB a part). */
export const DOOR_LIST_ENTRIES_PER_PART = 2_000;

/**
 * The JSON text of a kept door list, in parts of `DOOR_LIST_ENTRIES_PER_PART` entries, made one at a
 * time as the write asks for them: 100,000 tickets are some 25 MB of text, too much to make (and pass
 * over the bridge) in one piece without holding up the page.
 */
function* doorListText(stored: CopiedDoorList): Generator<string> {
  const { tickets, ...rest } = stored.list;
  const head = JSON.stringify({ syncedAt: stored.syncedAt, needsFullList: stored.needsFullList, ...(stored.checkInListId ? { checkInListId: stored.checkInListId } : {}), list: { ...rest, tickets: [] } });
  // `head` ends with `[]}}`: the entries go between the brackets.
  yield head.slice(0, -3);
  for (let start = 0; start < tickets.length; start += DOOR_LIST_ENTRIES_PER_PART) {
    const part = tickets.slice(start, start + DOOR_LIST_ENTRIES_PER_PART).map((entry) => JSON.stringify(entry)).join(',');
    yield start === 0 ? part : `,${part}`;
  }
  yield ']}}';
}

function queueWrite(path: string, value: unknown, fingerprint: string, write: (path: string, value: unknown) => Promise<void>): Promise<void> {
  written.set(path, fingerprint);
  const alreadyQueued = waiting.has(path);
  waiting.set(path, value);
  if (alreadyQueued) return pending;
  pending = pending
    .then(async () => {
      const newest = waiting.get(path);
      waiting.delete(path);
      await write(path, newest);
    })
    .catch((error: unknown) => {
      // Reported, not thrown: IndexedDB holds the list (or keys); the next sync writes the file again.
      written.delete(path);
      console.error('Gatecheck: the copy of a door list or signing keys in the app files could not be updated.', error);
    });
  return pending;
}

/**
 * Copies the door list of `stored.list`'s event day to its file, on native, when `hasChanged` (or
 * when this page session has not written it yet, or its last write failed); resolves at once
 * otherwise and in a browser. Never rejects.
 * @param stored the list as just put into IndexedDB.
 * @param hasChanged whether the sync changed what the list decides by (not only its cursor).
 */
export function copyDoorList(stored: CopiedDoorList, hasChanged: boolean): Promise<void> {
  if (!isNativePlatform()) return Promise.resolve();
  const path = doorListPath(stored);
  if (!hasChanged && written.has(path)) return Promise.resolve();
  return queueWrite(path, stored, '', (to, value) => writeDeviceFileInParts(to, doorListText(value as CopiedDoorList)));
}

/**
 * Copies an event's signing keys (as kept in IndexedDB) to their file, on native, unless the file
 * already holds these keys. Never rejects.
 */
export function copySigningKeys(keys: EventSigningKeys): Promise<void> {
  if (!isNativePlatform()) return Promise.resolve();
  const path = signingKeysPath(keys.eventId);
  const fingerprint = JSON.stringify(keys);
  if (written.get(path) === fingerprint) return Promise.resolve();
  return queueWrite(path, keys, fingerprint, (to, value) => writeDeviceFile(to, JSON.stringify(value)));
}

/** Resolves when every door-list and key write asked so far is done. */
export function doorListCopiesSettled(): Promise<void> {
  return pending;
}

/**
 * Puts the copied door lists and signing keys back into IndexedDB where it has none under their key,
 * and copies those IndexedDB has without a file (kept by an app version before this copy). Called by
 * durable-copy.ts's `restoreFromDeviceFiles` only when IndexedDB lost its mark. Damaged files are
 * skipped.
 * @returns how many door lists and key sets were put back
 * @throws the browser's error when IndexedDB cannot be written
 */
export async function restoreDoorListCopies(db: OfflineDb): Promise<number> {
  const lists: CopiedDoorList[] = [];
  for (const name of await listDeviceFiles(DOOR_LIST_COPY_FOLDER)) {
    if (!name.endsWith('.json')) continue;
    const parsed = parseFile(await readDeviceFile(`${DOOR_LIST_COPY_FOLDER}/${name}`), CopiedDoorList);
    if (parsed && `${DOOR_LIST_COPY_FOLDER}/${name}` === doorListPath(parsed)) lists.push(parsed);
  }
  const keySets: EventSigningKeys[] = [];
  for (const name of await listDeviceFiles(SIGNING_KEYS_COPY_FOLDER)) {
    if (!name.endsWith('.json')) continue;
    const parsed = parseFile(await readDeviceFile(`${SIGNING_KEYS_COPY_FOLDER}/${name}`), EventSigningKeys);
    if (parsed && `${SIGNING_KEYS_COPY_FOLDER}/${name}` === signingKeysPath(parsed.eventId)) keySets.push(parsed);
  }
  const tx = db.transaction(['doorLists', 'signingKeys'], 'readwrite');
  let restored = 0;
  for (const stored of lists) {
    const key = eventDayKey(stored.list.event.id, stored.list.day, stored.checkInListId);
    if ((await tx.objectStore('doorLists').getKey(key)) !== undefined) continue;
    await tx.objectStore('doorLists').put(stored, key);
    restored += 1;
  }
  for (const keys of keySets) {
    if ((await tx.objectStore('signingKeys').getKey(keys.eventId)) !== undefined) continue;
    await tx.objectStore('signingKeys').put(keys, keys.eventId);
    restored += 1;
  }
  await tx.done;
  const copiedLists = new Set(lists.map((stored) => doorListPath(stored)));
  for (const value of await db.getAll('doorLists')) {
    const parsed = CopiedDoorList.safeParse(value);
    if (parsed.success && !copiedLists.has(doorListPath(parsed.data))) void copyDoorList(parsed.data, true);
  }
  const copiedKeys = new Set(keySets.map((keys) => keys.eventId));
  for (const value of await db.getAll('signingKeys')) {
    const parsed = EventSigningKeys.safeParse(value);
    if (parsed.success && !copiedKeys.has(parsed.data.eventId)) void copySigningKeys(parsed.data);
  }
  return restored;
}

function parseFile<T>(text: string | null, schema: z.ZodType<T>): T | null {
  if (text === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
