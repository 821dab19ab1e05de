/**
 * Deciding a scan on the device (issue 12 items 3 and 6, docs/decisions/043, 052) with the server's
 * own rule: `decideCheckIn` of the contract, fed by `doorListCheckInInput` (SEAMS §2 — one rule, two
 * callers). Unknown, wrong event, not valid on this day, revoked, event not open, not an event day,
 * and already checked in — on this device (`localCheckIns`) or in the downloaded list.
 *
 * A signed ticket (`GC1.…`) whose signature does not verify under the event's keys is an unknown
 * code, as on the server. A genuine one of this event that the door list does not hold (or with no
 * door list on the device) is decided from its payload: its event and days, not revoked (the list's
 * revocations are the only ones a device can know), and this device's own check-ins — unless its
 * code is weak and the list says it leaves weak codes out: the ticket may then be revoked or checked
 * in at another gate without the list saying so, and it is not decided here (null) unless this
 * device admitted it (DENIED 'Already checked in').
 *
 * A plain code the list does not hold, when the list says it leaves weak codes out and this code is
 * one (`isDoorListCode`, docs/decisions/087), may be a valid ticket: it is not decided here (null,
 * the caller's 'Verification Error': it needs the server) — unless this device admitted it (online or
 * offline), when it is DENIED 'Already checked in' (the list, which never holds it, cannot say
 * otherwise, so an online admission counts whatever the list's age). A signed ticket whose key the list names
 * as revoked (`revokedKeyIds`, docs/decisions/089) is an unknown code, whatever keys the device kept.
 *
 * Every approval is remembered in `localCheckIns` (by lookup key, never the code), so the same ticket
 * again is DENIED 'Already checked in' before the next list download knows it.
 */
import { decideCheckIn, type CheckInDecision, type CheckInEvent } from '@gatecheck/contract/check-in-rules';
import { doorListAttention, doorListCheckInInput, doorListLookupKey, isDoorListCode, openHolderName, type DoorList, type DoorListEntry, type LocalCheckIn } from '@gatecheck/contract/door-list';
import { parseSignedTicket, type EventSigningKey } from '@gatecheck/contract/signed-ticket';
import { z } from 'zod';
import type { Verdict } from '../scanner-logic.ts';
import { currentSyncSeq, eventDayKey, type OfflineDb } from './offline-db.ts';
import { verifyTicketSignature } from './signed-tickets.ts';

/** Everything one offline decision reads. */
export interface OfflineDecisionInput {
  /** The selected event's id and day number. */
  eventId: string;
  day: number;
  /** The check-in list scanned at (docs/decisions/109); absent: the event's first. Its door list is `doorList`. */
  checkInListId?: string | undefined;
  /** This device's admissions kept naming no list are this list's too (`LocalScope`). */
  includesListLess?: boolean | undefined;
  /** The text as scanned (plain code or signed text). */
  code: string;
  /** 'exit' (Exit switch at a list that allows re-entry, docs/decisions/113); absent: an entry. */
  direction?: 'exit' | undefined;
  /** The device clock at the scan. */
  now: Date;
  /** The signed-in staff member's display name (for 'Already checked in … by'). */
  staffName: string;
  /** The day's door list on this device, or null when none was ever downloaded. */
  doorList: DoorList | null;
  /** When the kept list's sync began (`StoredDoorList.syncedAt`; see `isListNewerThan`). Absent: it replaces no online record. */
  doorListSyncedAt?: string | undefined;
  /** The number the kept list's sync took (`StoredDoorList.syncSeq`; see `isListNewerThan`). */
  doorListSyncSeq?: number | undefined;
  /** The event's signing keys kept on this device. */
  signingKeys: readonly Pick<EventSigningKey, 'keyId' | 'publicKey'>[];
  /** The selected event as the rule reads it (and its name), for a signed ticket decided without a door list. */
  event: CheckInEvent & { name: string };
}

// `isInside` false after this device recorded the guest's exit (absent: inside, as before exits).
// `knownAt`: when an online one was learned from the server, on the device clock (absent, as kept
// before: `checkedInAt`); `knownSeq`: the number of the last door-list sync begun then (offline-db.ts
// `currentSyncSeq`; absent: kept before these numbers).
const LocalCheckInSchema = z.object({
  checkedInAt: z.string(),
  checkedInBy: z.string(),
  isOnline: z.boolean().default(false),
  knownAt: z.string().optional(),
  knownSeq: z.number().int().optional(),
  isInside: z.boolean().optional(),
});

/**
 * The verdict for a scan with the server out of reach, or null when the device cannot decide (no door
 * list and not a genuine signed ticket of this event, or a weak code the list leaves out, plain or
 * signed, that this device did not admit): the caller then shows SPEC §8's 'Verification Error'.
 * An approval is recorded in this device's check-ins before it resolves.
 * @throws the browser's error when IndexedDB fails.
 */
export async function decideOffline(db: OfflineDb, input: OfflineDecisionInput): Promise<Verdict | null> {
  const { eventId, day, code, now, doorList } = input;
  const direction = input.direction ?? 'entry';
  const lookupKey = await doorListLookupKey(eventId, code);
  const entry = doorList ? (entryIndex(doorList).get(lookupKey) ?? null) : null;
  // A weak code the list leaves out (decision 087): the list never knows its check-ins.
  const isUnlisted = !entry && doorList?.hasUnlistedCodes === true && !isDoorListCode(code);
  const sync = isUnlisted ? undefined : { syncedAt: input.doorListSyncedAt, syncSeq: input.doorListSyncSeq, now };
  const local = await readLocalCheckIn(db, { eventId, day, checkInListId: input.checkInListId, includesListLess: input.includesListLess, lookupKey }, sync);
  const signed = parseSignedTicket(code);

  let decision: CheckInDecision;
  if (!signed && isUnlisted) {
    // Only this device's own admission can be known: that one is denied, anything else needs the server.
    if (!local) return null;
    return { isValid: false, denial: { reason: 'already_checked_in', checkedInAt: local.checkedInAt.toISOString(), checkedInBy: local.checkedInBy } };
  }
  if (signed && doorList?.revokedKeyIds.includes(signed.keyId)) {
    // Signed by a revoked key: an unknown code, as on the server, even when its code is listed (decision 089).
    decision = decideCheckIn({ ticket: null, event: doorList.event, day, existingCheckIn: null, now });
  } else if (signed && !entry) {
    if (!(await verifyTicketSignature(signed, input.signingKeys))) {
      // A forged or foreign-key text: an unknown code, as on the server (decision 043).
      decision = decideCheckIn({ ticket: null, event: doorList?.event ?? input.event, day, existingCheckIn: null, now });
    } else if (isUnlisted && !local && signed.eventId === eventId.toLowerCase()) {
      // A genuine ticket of a weak code: the list leaves it out, so it cannot say whether the ticket
      // was revoked or checked in at another gate, and the signature says neither (decision 087).
      return null;
    } else {
      const event = doorList?.event ?? input.event;
      decision = decideCheckIn({
        ticket: { eventId: signed.eventId, organizationId: event.organizationId, isRevoked: false, admittedDays: signed.days },
        event,
        day,
        existingCheckIn: local ? { ...local, isSameScan: false } : null,
        now,
        direction,
      });
    }
  } else if (doorList) {
    decision = decideCheckIn(doorListCheckInInput(doorList, day, entry, now, local, direction));
  } else {
    return null;
  }

  // The ticket's check-in note and flag, combined as the server combines them (docs/decisions/102):
  // on an approval and on 'Already checked in', as online.
  const attention = entry && doorList && (decision.outcome !== 'denied' || decision.reason === 'already_checked_in') ? await doorListAttention(doorList, code, entry) : null;
  const withAttention = attention ? { attention } : {};
  if (decision.outcome === 'denied') {
    const { reason, dayDenial, listDenial, capacityDenial, checkedInAt, checkedInBy } = decision;
    return {
      isValid: false,
      denial: {
        reason,
        ...(dayDenial ? { dayDenial } : {}),
        ...(listDenial ? { listDenial } : {}),
        ...(capacityDenial ? { capacityDenial } : {}),
        checkedInAt: checkedInAt?.toISOString(),
        checkedInBy,
      },
      ...withAttention,
    };
  }
  // An exit keeps the first entry's time and staff (the check-in stands, the guest is out); an entry is this one.
  const isExit = decision.outcome === 'check_out';
  const checkIn = isExit && local ? { ...local, isInside: false } : { checkedInAt: now, checkedInBy: input.staffName, isInside: !isExit };
  await recordLocalCheckIn(db, { eventId, day, checkInListId: input.checkInListId, lookupKey }, checkIn, null);
  const holderName = entry ? await openHolderName(eventId, code, entry.holderName).catch(() => undefined) : undefined;
  const eventName = doorList?.event.name ?? input.event.name;
  return {
    isValid: true,
    details: { ...(eventName ? { eventName } : {}), ...(holderName ? { holderName } : {}), ...(entry ? { ticketType: entry.ticketType } : {}) },
    ...(isExit ? { isExit: true } : {}),
    // The device cannot count the other gates' guests: said on the verdict (docs/decisions/113).
    ...(decision.outcome === 'check_in' && decision.isCapacityUnchecked ? { isCapacityUnchecked: true } : {}),
    ...withAttention,
  };
}

/**
 * Remembers that the server approved ticket `code` on `eventId`'s day `day` for this device (an
 * online approval), so a scan after the network fails knows it before the next list download. Once
 * a list whose sync began after it is kept, the list's word wins (a supervisor may have undone it
 * since): recorded with the number of the last sync begun (`currentSyncSeq`, `isListNewerThan`).
 * `knownAt`: when the device learned it (default `checkIn.checkedInAt`), on its clock.
 */
export async function rememberOnlineCheckIn(db: OfflineDb, scope: LocalScope & { code: string }, checkIn: LocalCheckIn, knownAt: Date = checkIn.checkedInAt): Promise<void> {
  const lookupKey = await doorListLookupKey(scope.eventId, scope.code);
  await recordLocalCheckIn(db, { eventId: scope.eventId, day: scope.day, checkInListId: scope.checkInListId, lookupKey }, checkIn, { at: knownAt, seq: await currentSyncSeq(db) });
}

/** What the server answered for one code, as `rememberOnlineVerdict` reads it. */
export interface OnlineVerdict {
  verdict: Verdict;
  /** The signed-in staff member's display name: who admitted the guest at this device. */
  staffName: string;
  /** The device clock when the answer came. */
  now: Date;
  /** The door list kept on the device (its check-in of the ticket, when the device has none of its own). */
  doorList: DoorList | null;
  /** When that list's sync began (`StoredDoorList.syncedAt`, device clock); absent: it replaces no online record. */
  doorListSyncedAt?: string | undefined;
  /** The number that list's sync took (`StoredDoorList.syncSeq`). */
  doorListSyncSeq?: number | undefined;
}

/**
 * Keeps what an online verdict (verify, or a supervisor's manual check-in, at this list and day)
 * says about the guest in this device's check-ins, as an offline decision of the same outcome would
 * (docs/decisions/111, 113), so a scan decided here after the network fails reads the guest's state
 * as the server left it, not the older door list's:
 * - APPROVED entry (first entry or re-entry): inside, admitted now by `staffName`;
 * - APPROVED exit, or DENIED `not_inside`: out — the check-in the device knows (its own, else the
 *   list's) kept with its time and staff; an exit of a guest the device knew nothing of is recorded
 *   now; a `not_inside` of such a guest records nothing (no check-in is already out);
 * - DENIED `already_checked_in` with its time: inside since then, by whom the server says (the guest
 *   came in at another gate after the list was downloaded);
 * - any other verdict says nothing about the guest's check-in, and changes nothing.
 * @throws the browser's error when IndexedDB fails.
 */
export async function rememberOnlineVerdict(db: OfflineDb, scope: LocalScope & { code: string }, answer: OnlineVerdict): Promise<void> {
  const { verdict, staffName, now, doorList, doorListSyncedAt, doorListSyncSeq } = answer;
  if (verdict.isValid && !verdict.isExit) {
    await rememberOnlineCheckIn(db, scope, { checkedInAt: now, checkedInBy: staffName }, now);
    return;
  }
  if (!verdict.isValid && verdict.denial.reason === 'already_checked_in') {
    const { checkedInAt, checkedInBy } = verdict.denial;
    if (checkedInAt === undefined) return;
    await rememberOnlineCheckIn(db, scope, { checkedInAt: new Date(checkedInAt), checkedInBy: checkedInBy ?? '' }, now);
    return;
  }
  const isOut = verdict.isValid ? verdict.isExit === true : verdict.denial.reason === 'not_inside';
  if (!isOut) return;
  const lookupKey = await doorListLookupKey(scope.eventId, scope.code);
  const known = (await readLocalCheckIn(db, { ...scope, lookupKey }, { syncedAt: doorListSyncedAt, syncSeq: doorListSyncSeq, now })) ?? listedCheckIn(doorList, lookupKey);
  if (!known && !verdict.isValid) return;
  await rememberOnlineCheckIn(db, scope, { ...(known ?? { checkedInAt: now, checkedInBy: staffName }), isInside: false }, now);
}

/**
 * Forgets this device's check-in of ticket `code` at this list and day: a supervisor undid it on the
 * server (the undo of a guest who left undoes the exit too, docs/decisions/111), so a scan decided
 * here after the network fails must not deny the guest as already checked in. Only a sent scan can be
 * undone, so nothing waiting to be sent depends on the record.
 * @throws the browser's error when IndexedDB fails.
 */
export async function forgetLocalCheckIn(db: OfflineDb, scope: LocalScope & { code: string }): Promise<void> {
  const lookupKey = await doorListLookupKey(scope.eventId, scope.code);
  await db.delete('localCheckIns', `${eventDayKey(scope.eventId, scope.day, scope.checkInListId)}|${lookupKey}`);
  if (scope.includesListLess) await db.delete('localCheckIns', `${eventDayKey(scope.eventId, scope.day)}|${lookupKey}`);
}

/** The door list's check-in of the ticket under `lookupKey`, or null. */
function listedCheckIn(doorList: DoorList | null, lookupKey: string): LocalCheckIn | null {
  const checkIn = doorList ? entryIndex(doorList).get(lookupKey)?.checkIn : null;
  return checkIn ? { checkedInAt: new Date(checkIn.checkedInAt), checkedInBy: checkIn.checkedInBy } : null;
}

/**
 * Whose admissions: an event day at a check-in list (absent: the first); once per list and day
 * (decision 100). `includesListLess`: the records kept under the key naming no list are this list's
 * too (a door device's own admissions from before its list was kept with its chosen day,
 * docs/decisions/129; outbox.ts `isListLessHere`): read when the list's key has none, forgotten with it.
 */
export type LocalScope = { eventId: string; day: number; checkInListId?: string | undefined; includesListLess?: boolean | undefined };

/** `known`: an online check-in, learned then (device clock) after sync `seq` began; null: decided on this device. */
async function recordLocalCheckIn(db: OfflineDb, scope: LocalScope & { lookupKey: string }, checkIn: LocalCheckIn, known: { at: Date; seq: number } | null): Promise<void> {
  const record = {
    checkedInAt: checkIn.checkedInAt.toISOString(),
    checkedInBy: checkIn.checkedInBy,
    isOnline: known !== null,
    ...(known !== null ? { knownAt: known.at.toISOString(), knownSeq: known.seq } : {}),
    ...(checkIn.isInside === false ? { isInside: false } : {}),
  };
  await db.put('localCheckIns', record, `${eventDayKey(scope.eventId, scope.day, scope.checkInListId)}|${scope.lookupKey}`);
}

/** A kept door list's sync as `isListNewerThan` reads it, with the device clock `now`. */
export interface DoorListSync {
  /** When its sync began (device clock); absent: no list, it replaces nothing. */
  syncedAt?: string | undefined;
  /** The number its sync took (`takeSyncSeq`); absent: kept before these numbers. */
  syncSeq?: number | undefined;
  /** The device clock now. */
  now: Date;
}

/**
 * Whether a door list knows what this device learned from the server (an online record): its sync
 * began after the device learned it, so the server made it after that answer (docs/decisions/130).
 * Ordered by the device's sync numbers, which never go back: the list's `syncSeq` above the record's
 * `knownSeq` (the last sync begun when it was learned). The clocks are not compared — neither the
 * server's (`generatedAt`) nor the device's, which a correction by hand or by the network can set
 * back or forward. A list whose sync began before, even one that arrived after, may not know it:
 * the record stands until the next sync. Kept before these numbers: a record without `knownSeq` is
 * older than a list with a `syncSeq`, a list without one older than a record with one; both
 * without, the device clock decides, a time later than `now` (the clock has gone back since) never
 * making its side the newer.
 */
export function isListNewerThan(sync: DoorListSync | undefined, record: { knownAt: string; knownSeq?: number | undefined }): boolean {
  if (sync?.syncedAt === undefined) return false;
  if (sync.syncSeq !== undefined) return record.knownSeq === undefined || sync.syncSeq > record.knownSeq;
  if (record.knownSeq !== undefined) return false;
  const now = sync.now.getTime();
  const syncedAt = Date.parse(sync.syncedAt);
  const knownAt = Date.parse(record.knownAt);
  return syncedAt <= now && (knownAt > now || syncedAt > knownAt);
}

/**
 * This device's check-in of the ticket, or null. An online one is dropped once the kept door list's
 * sync (`sync`) began after the device learned it (`isListNewerThan`: the list then knows it, or
 * knows it was undone); an offline one always counts (the server may not have it yet).
 */
async function readLocalCheckIn(db: OfflineDb, scope: LocalScope & { lookupKey: string }, sync: DoorListSync | undefined): Promise<LocalCheckIn | null> {
  const own = await db.get('localCheckIns', `${eventDayKey(scope.eventId, scope.day, scope.checkInListId)}|${scope.lookupKey}`);
  // The list's own record first: it is the newer (written since the list was named).
  const record = own === undefined && scope.includesListLess ? await db.get('localCheckIns', `${eventDayKey(scope.eventId, scope.day)}|${scope.lookupKey}`) : own;
  const parsed = LocalCheckInSchema.safeParse(record);
  if (!parsed.success) return null;
  const checkedInAt = new Date(parsed.data.checkedInAt);
  if (parsed.data.isOnline && isListNewerThan(sync, { knownAt: parsed.data.knownAt ?? parsed.data.checkedInAt, knownSeq: parsed.data.knownSeq })) return null;
  return { checkedInAt, checkedInBy: parsed.data.checkedInBy, ...(parsed.data.isInside === false ? { isInside: false } : {}) };
}

const indexes = new WeakMap<DoorList, Map<string, DoorListEntry>>();

/** The list's entries by lookup key, built once per list object. */
function entryIndex(list: DoorList): Map<string, DoorListEntry> {
  let index = indexes.get(list);
  if (!index) {
    index = new Map(list.tickets.map((entry) => [entry.lookupKey, entry]));
    indexes.set(list, index);
  }
  return index;
}
