/**
 * The door list of an event day on the device (issue 12 item 2, docs/decisions/044, 052): downloaded
 * in full the first time, then only the changes since its cursor (`mergeDoorList` of the contract),
 * kept in IndexedDB (offline-db.ts).
 *
 * Bad input (issue 12 "Bad input and safety"): a download that fails (no answer, an error answer)
 * keeps the last good list; an answer that does not match the contract's `DoorList` schema, or
 * changes that cannot apply to the stored list, are discarded (`corrupt`) and the last good list
 * stays; the next sync then asks for a full list. A stored value that no longer parses reads as absent.
 */
import { DoorList, mergeDoorList } from '@gatecheck/contract/door-list';
import { z } from 'zod';
import { copyDoorList } from './door-list-copy.ts';
import { eventDayKey, takeSyncSeq, type OfflineDb } from './offline-db.ts';

/** A door list as kept: the list and when this device last got it (ISO 8601, device clock). */
export interface StoredDoorList {
  list: DoorList;
  /**
   * When the sync that got it began, before its request (the device clock): 'Last synced HH:MM'. It
   * orders the list against online verdicts only for a list and a verdict both kept before
   * `syncSeq` existed (offline-decision.ts `isListNewerThan`, docs/decisions/130).
   */
  syncedAt: string;
  /**
   * The number its sync took as it began (offline-db.ts `takeSyncSeq`): what orders it against the
   * online verdicts the device learned (`isListNewerThan`). Absent: kept before these numbers, or
   * restored from the app's files (door-list-copy.ts keeps none): older than any verdict that has one.
   */
  syncSeq?: number | undefined;
  /** The last download was discarded as corrupt: the next sync asks for a full list. */
  needsFullList: boolean;
  /** The check-in list asked for (docs/decisions/109); absent: the event's first, none named. */
  checkInListId?: string | undefined;
}

/** Which door list: an event day, at a chosen check-in list (absent: the event's first). */
export interface DoorListScope {
  eventId: string;
  day: number;
  checkInListId?: string | undefined;
}

const StoredDoorListSchema = z.object({ list: DoorList, syncedAt: z.string(), syncSeq: z.number().int().optional(), needsFullList: z.boolean(), checkInListId: z.string().optional() });

/**
 * Downloads a door list: GET /events/{eventId}/days/{day}/door-list, with `?since=cursor` when
 * `since` is given. Resolves to the answer's body, unparsed (the store parses it).
 * @throws whatever the transport throws on a failed download (api-client's ApiError).
 */
export type FetchDoorList = (eventId: string, day: number, since: string | null, checkInListId?: string) => Promise<unknown>;

/** What one sync did: `synced` (the new list), `failed` (kept the last good one), `corrupt` (discarded). */
export type DoorListSyncOutcome =
  | { status: 'synced'; stored: StoredDoorList }
  | { status: 'failed'; error: unknown; stored: StoredDoorList | null }
  | { status: 'corrupt'; stored: StoredDoorList | null };

/**
 * Bumped each time every door list on the device is deleted (`retireDoorLists`): a sync that began
 * under an older generation writes nothing, so a list being updated while the lists are forgotten
 * (a moved device at app start, docs/decisions/127) is not written back.
 */
let doorListGeneration = 0;

/**
 * Marks every sync in flight as stale: none of them will store what it downloads. Call it right
 * before deleting the device's door lists (forget-door-data.ts), in the same tick.
 */
export function retireDoorLists(): void {
  doorListGeneration += 1;
}

/**
 * The door list kept for `eventId`'s day `day` at `checkInListId` (absent: the event's first list),
 * or null (none yet, or unreadable). Two lists' door lists are kept apart (docs/decisions/109).
 */
export async function readDoorList(db: OfflineDb, eventId: string, day: number, checkInListId?: string): Promise<StoredDoorList | null> {
  const parsed = StoredDoorListSchema.safeParse(await db.get('doorLists', eventDayKey(eventId, day, checkInListId)));
  return parsed.success && parsed.data.checkInListId === checkInListId ? parsed.data : null;
}

/** A sync whose door lists were deleted (`retireDoorLists`) while it ran: it stored nothing. */
export class DoorListsForgottenError extends Error {
  constructor() {
    super('The door lists were deleted while this one was downloading; nothing was stored.');
    this.name = 'DoorListsForgottenError';
  }
}

/**
 * Brings the day's door list up to date: a full download when none is kept (or the last one was
 * corrupt, or the server answers changes in another `format`, or of another check-in list, than the
 * kept list's), else the changes since its cursor, merged and stored. The list kept carries the
 * check-in list the server answered with (`list.checkInListId`): a phone bound to one list asks for
 * none, and the server moving it answers changes of its new list, which never apply to the old one.
 * When the door lists are deleted while it runs (`retireDoorLists`) it stores nothing and answers
 * `failed` with a `DoorListsForgottenError`.
 * @param now the device clock as the sync begins, before its request: `syncedAt` ('Last synced HH:MM'; see `StoredDoorList`).
 * Never throws for a failed or corrupt download: see `DoorListSyncOutcome`.
 */
export async function syncDoorList(db: OfflineDb, scope: DoorListScope, fetchDoorList: FetchDoorList, now: Date = new Date()): Promise<DoorListSyncOutcome> {
  const { eventId, day, checkInListId } = scope;
  const key = eventDayKey(eventId, day, checkInListId);
  const generation = doorListGeneration;
  const forgotten = (): DoorListSyncOutcome => ({ status: 'failed', error: new DoorListsForgottenError(), stored: null });
  const previous = await readDoorList(db, eventId, day, checkInListId);
  const since = previous && !previous.needsFullList ? previous.list.cursor : null;
  let body: unknown;
  let syncSeq: number;
  try {
    // Taken before the request: the server makes the list after every answer learned before it.
    syncSeq = await takeSyncSeq(db);
    body = await fetchDoorList(eventId, day, since, checkInListId);
  } catch (error) {
    return { status: 'failed', error, stored: previous };
  }
  if (generation !== doorListGeneration) return forgotten();
  const parsed = DoorList.safeParse(body);
  const otherFormat = parsed.success && parsed.data.format !== previous?.list.format;
  const otherList = parsed.success && parsed.data.checkInListId !== previous?.list.checkInListId;
  if (since !== null && previous && (otherFormat || otherList)) {
    // The server builds its lists by other rules now (decision 087): the kept list may hold entries
    // the new rules leave out, which no change list would ever update. Or it moved this phone to
    // another check-in list (decision 127): the kept list is another door's. Download it whole.
    await db.put('doorLists', { ...previous, needsFullList: true }, key);
    return syncDoorList(db, scope, fetchDoorList, now);
  }
  let merged: DoorList | null = null;
  // A list of another check-in list than the one asked for is not this door's (older servers name none).
  const isThisList = !checkInListId || parsed.data?.checkInListId === undefined || parsed.data.checkInListId === checkInListId;
  if (parsed.success && parsed.data.event.id === eventId && parsed.data.day === day && isThisList) {
    try {
      merged = mergeDoorList(since === null ? null : (previous?.list ?? null), parsed.data);
    } catch {
      merged = null;
    }
  }
  if (merged === null) {
    if (previous) await db.put('doorLists', { ...previous, needsFullList: true }, key);
    return { status: 'corrupt', stored: previous };
  }
  if (generation !== doorListGeneration) return forgotten();
  const stored: StoredDoorList = { list: merged, syncedAt: now.toISOString(), syncSeq, needsFullList: false, ...(checkInListId ? { checkInListId } : {}) };
  await db.put('doorLists', stored, key);
  // On the phone, also in the app's files (door-list-copy.ts), when it decides anything differently.
  void copyDoorList(stored, since === null || !previous || !parsed.success || changesAnything(previous.list, parsed.data));
  return { status: 'synced', stored };
}

/**
 * Whether a change list changes what `previous` decides by: tickets, the event, the revoked keys or
 * the unlisted-codes flag. A new `cursor` or `generatedAt` alone does not.
 */
function changesAnything(previous: DoorList, changes: DoorList): boolean {
  return (
    changes.isComplete ||
    changes.tickets.length > 0 ||
    changes.hasUnlistedCodes !== previous.hasUnlistedCodes ||
    JSON.stringify(changes.event) !== JSON.stringify(previous.event) ||
    JSON.stringify(changes.revokedKeyIds) !== JSON.stringify(previous.revokedKeyIds)
  );
}
