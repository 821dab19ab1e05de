/**
 * The one decide-and-write of a check-in attempt (SEAMS §4, docs/decisions/096, 111, 120): verify's
 * transaction, the manual check-in and the offline upload all record an entry or an exit here, so a
 * door rule (a lock, a place, a re-entry, an exit) holds for every one of them. Verify's hot path
 * (one coalesced statement, ./write.ts) records first entries — at any list, claiming a place at a
 * list with a capacity — before it comes here and falls back here whenever that statement did not
 * record one; undo is ./write.ts `undoActiveCheckIn`,
 * which frees the place with the check-in.
 *
 * What differs between an attempt at the gate now and one a device made offline is an option, not a
 * second copy: `offline` (the device's scan time decides and stamps the entry, the guest is already
 * in: an entry over the capacity is recorded and reported, an entry of a guest already in is a
 * conflict with the check-in that stands).
 */
import { atCapacityMessage, type CheckInDecision, type CheckInDirection, type CheckInInput, decideCheckIn, isCheckInInside, lastDailyCheckout } from '@gatecheck/contract';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { countEventInside } from '../check-in-counts.ts';
import { checkInLists, type tickets } from '../../db/schema.ts';
import { listDeletedMeanwhile } from '../errors.ts';
import type { ChosenCheckInList } from '../check-in-lists.ts';
import type { EventDetails } from '../events.ts';
import type { TicketTypeDoor } from '../ticket-type-door.ts';
import { claimEventPlace, holdEventPlace, nextDailyCheckout, releaseEventPlace } from './event-places.ts';
import {
  claimPlace,
  countInside,
  type DoorCheckIn,
  existingForRule,
  findRetriedMovement,
  holdPlace,
  lockActiveCheckIn,
  movementsOf,
  recordCheckIn,
  recordExit,
  recordMovement,
  recordReentry,
  type RetriedMovement,
  type StandingCheckIn,
  ticketForRule,
} from './write.ts';

/** One attempt to record: a ticket of `event` at a check-in list on a day, one way, by one staff member. */
export interface AttemptToRecord {
  event: EventDetails;
  /** The list passed through, with the event's lists (to name where a ticket is valid instead). */
  checkInList: ChosenCheckInList;
  day: number;
  /** The ticket scanned (any event of the organization: the rule refuses another event's). */
  ticket: typeof tickets.$inferSelect;
  /** The organization of the ticket's event. */
  organizationId: string;
  /** The days the ticket's type admits (null: every day; docs/decisions/125), as ../ticket-type-door.ts reads them. */
  typeDays: TicketTypeDoor['typeDays'];
  /** Absent: entry. */
  direction: CheckInDirection | undefined;
  /** Who answers for it (the scanner, or an offline scan's maker). */
  staffUserId: string;
  /** The client's id of the scan (null: none sent). */
  scanId: string | null;
  /**
   * When the guest passed: the clock at the gate, or an offline scan's (possibly clamped) scan time.
   * The rule decides at it (event day, inside or not), and an exit or a re-entry is stamped with it.
   */
  at: Date;
  /** The server's clock: which places are stale (held since before the list's last daily checkout). */
  now: Date;
  /**
   * A scan a device decided offline (docs/decisions/045, 111): its check-in keeps the scan time
   * `at`, the receipt and the device; the guest is already in, so an entry that finds no free place
   * is recorded all the same (`overCapacity`), and an entry of a guest another gate let in is a
   * `conflict` with that check-in instead of a denial `already_checked_in`.
   */
  offline?: { receivedAt: Date; deviceId: string; isTimeClamped?: boolean } | undefined;
}

/** A rule's denial. */
export type Denial = Extract<CheckInDecision, { outcome: 'denied' }>;

/**
 * What `recordAttempt` did: denied by the rule (nothing written); `same_scan`, the retry of the scan
 * that recorded one of the standing check-in's movements — its first entry, a re-entry or an exit
 * (`direction`, `at`: that movement's; nothing written, whatever the guest did since:
 * docs/decisions/130, 138); `entered` (a first entry or a re-entry, with the place held at a list
 * with a capacity; `overCapacity` only offline: no place was free); `exited`; `late` (offline only:
 * a movement older than the check-in's latest, recorded as history, changing neither who is inside
 * nor a place: docs/decisions/138); `conflict` (offline only) with the check-in that stands.
 */
export type RecordedAttempt =
  | { outcome: 'denied'; denial: Denial }
  | { outcome: 'same_scan'; direction: CheckInDirection; at: Date }
  | { outcome: 'entered'; checkInId: string; enteredAt: Date; isReentry: boolean; occupancy?: Occupancy; overCapacity?: { insideNow: number; capacity: number } }
  | { outcome: 'exited'; checkInId: string; exitedAt: Date; occupancy?: Occupancy }
  | { outcome: 'late'; checkInId: string; direction: CheckInDirection; at: Date }
  | { outcome: 'conflict'; standing: StandingCheckIn };

/** A list's guests inside now (after the attempt, in its transaction) and its capacity (null: none). */
export interface Occupancy {
  insideNow: number;
  capacity: number | null;
}

/** Whether `list` counts its guests inside (docs/decisions/111): it records exits or has a capacity. */
export function countsInside(list: ChosenCheckInList['list']): boolean {
  return list.allowsReentry === true || (list.capacity ?? null) !== null;
}

/**
 * Whether an attempt at `list` has to lock the guest's check-in first: an exit, or any scan at a
 * list that records exits or has a capacity (docs/decisions/111). Elsewhere the exactly-once INSERT
 * alone decides.
 */
export function isDoorAttempt(list: ChosenCheckInList['list'], direction: CheckInDirection | undefined): boolean {
  return direction === 'exit' || countsInside(list);
}

/**
 * Locks list `checkInListId` of event `eventId` against its delete (`FOR KEY SHARE`, the lock its
 * check-ins' foreign key takes; an edit of its settings or order, which locks the lists `FOR NO KEY
 * UPDATE`, does not wait for it) until `tx` ends.
 * @throws ServiceError `bad_request` naming `checkInListId` when the list is gone (deleted since the
 *   attempt read it): nothing is written (docs/decisions/151).
 */
async function holdCheckInList(tx: DbOrTx, { eventId, checkInListId }: { eventId: string; checkInListId: string }): Promise<void> {
  const held = await tx
    .select({ id: checkInLists.id })
    .from(checkInLists)
    .where(and(eq(checkInLists.eventId, eventId), eq(checkInLists.id, checkInListId)))
    .for('key share');
  if (held.length === 0) throw listDeletedMeanwhile();
}

/**
 * Decides `attempt` with the contract's `decideCheckIn` and records it exactly once, on `tx` (the
 * caller's transaction: the caller's scan-log and offline rows commit with it or not at all):
 * - at a door (`isDoorAttempt`) the guest's active check-in is locked first (`lockActiveCheckIn`), so
 *   two scans of one guest are decided one after the other; a scan that recorded one of its
 *   movements before (`findRetriedMovement`) is that movement again (the rule's `isSameScan`), and
 *   each exit and re-entry is recorded once, as a movement with its scan (`recordExit`,
 *   `recordReentry`; docs/decisions/138);
 * - offline, a movement whose scan time is before the check-in's latest movement is decided by the
 *   rule against the guest's state at that time (from the movements before it) and, when it passes,
 *   recorded as history only (`late`): the later movement already made who is inside now;
 * - an entry at a list with a capacity claims a place (`claimPlace`) and holds it with the check-in
 *   (`holdPlace`); none free: denied `at_capacity` with the guests inside now (online), or
 *   recorded over the capacity (offline);
 * - a first entry is the exactly-once INSERT (`recordCheckIn`): when another check-in stands, the
 *   rule decides again with it (`already_checked_in`, or this very scan retried), offline a conflict.
 * @throws database errors as they come (the caller's transaction rolls back).
 */
export async function recordAttempt(tx: DbOrTx, attempt: AttemptToRecord): Promise<RecordedAttempt> {
  const { event, checkInList, day, direction, at, offline } = attempt;
  const list = checkInList.list;
  const who = { scanId: attempt.scanId, staffUserId: attempt.staffUserId };
  const key = { eventId: attempt.ticket.eventId, ticketId: attempt.ticket.id, day, checkInListId: list.id };
  const input: CheckInInput = { ticket: ticketForRule(attempt.ticket, attempt.organizationId, attempt), event, day, existingCheckIn: null, now: at, checkInList, direction };
  /** The rule's answer when a check-in stands: denied, this scan's own, or (offline) a conflict. */
  const decideAgainst = (standing: StandingCheckIn, decision: CheckInDecision): RecordedAttempt => {
    if (decision.outcome === 'checked_in_by_this_scan') return { outcome: 'same_scan', direction: 'entry', at: decision.checkedInAt };
    if (decision.outcome === 'checked_out_by_this_scan') return { outcome: 'same_scan', direction: 'exit', at: decision.exitedAt };
    if (decision.outcome !== 'denied') throw new Error(`a standing check-in decided ${decision.outcome}`);
    if (offline && decision.reason === 'already_checked_in') return { outcome: 'conflict', standing };
    return { outcome: 'denied', denial: decision };
  };

  const capacity = list.capacity ?? null;
  const places = { eventId: key.eventId, checkInListId: list.id, day, checkout: lastDailyCheckout(event.timeZone, list.dailyCheckoutTime, attempt.now) };
  /** The list's occupancy after the attempt, at a list that counts its guests inside. */
  const occupancy = async (): Promise<{ occupancy?: Occupancy }> => (countsInside(list) ? { occupancy: { insideNow: await countInside(tx, places), capacity } } : {});

  const eventCapacity = event.capacity ?? null;
  const eventPlace = { eventId: key.eventId, ticketId: key.ticketId, day, now: attempt.now };
  // At an event with a capacity every entry locks the guest's check-in first, as at a door: the
  // rule sees the check-in that stands before a place is claimed (docs/decisions/147).
  const locksFirst = isDoorAttempt(list, direction) || eventCapacity !== null;
  // Such an attempt locks rows before its check-in's foreign key would lock the list: it holds the
  // list first, so a delete of the list waits for it (and is then refused, 409), or it waits for the
  // delete and is refused as at a list not there — never a deadlock with the delete's removal of the
  // list's places (docs/decisions/151).
  if (locksFirst) await holdCheckInList(tx, key);
  const standing = locksFirst ? await lockActiveCheckIn(tx, key) : undefined;
  const retried = standing ? await findRetriedMovement(tx, { ...standing, eventId: key.eventId }, who) : undefined;
  // A scan time set to its session's start (`isTimeClamped`: the phone's clock was far behind) says
  // nothing of when the guest passed: such a movement is never history; it is decided against the
  // guest's state now and placed after the check-in's latest movement, as the phone's latest word.
  const isTimeUnknown = offline?.isTimeClamped === true;
  if (standing && offline && !isTimeUnknown && at.getTime() < latestMovementAt(standing).getTime()) {
    return recordLate(tx, { attempt, input, standing, retried, decideAgainst });
  }
  const movedAt = standing && isTimeUnknown ? new Date(Math.max(at.getTime(), latestMovementAt(standing).getTime())) : at;
  const atDoor = (door: DoorCheckIn, isInside = isCheckInInside(door, list, event, at)) => ({ ...existingForRule(door, retried), isInside });
  const decision = decideCheckIn({ ...input, existingCheckIn: standing ? atDoor(standing) : null });
  if (standing && (decision.outcome === 'denied' || decision.outcome === 'checked_in_by_this_scan' || decision.outcome === 'checked_out_by_this_scan')) return decideAgainst(standing, decision);
  if (decision.outcome === 'denied') return { outcome: 'denied', denial: decision };
  if (decision.outcome === 'checked_in_by_this_scan' || decision.outcome === 'checked_out_by_this_scan') throw new Error('a retry decided without a check-in');
  const movement = { eventId: key.eventId, at: movedAt, ...who, offline };
  if (decision.outcome === 'check_out') {
    if (!standing) throw new Error('an exit decided without a check-in');
    const exitedAt = await recordExit(tx, { ...movement, checkInId: standing.id });
    if (exitedAt) {
      if (eventCapacity !== null) await releaseEventPlace(tx, eventPlace);
      return { outcome: 'exited', checkInId: standing.id, exitedAt, ...(await occupancy()) };
    }
    return decideAgainst(standing, decideCheckIn({ ...input, existingCheckIn: atDoor(standing, false) }));
  }

  const slot = capacity === null ? null : await claimPlace(tx, places, capacity);
  if (capacity !== null && slot === null && !offline) {
    const insideNow = Math.max(await countInside(tx, places), capacity);
    const full = decideCheckIn({ ...input, existingCheckIn: standing ? atDoor(standing) : null, insideNow });
    if (full.outcome !== 'denied') throw new Error('a full list admitted an entry');
    return { outcome: 'denied', denial: full };
  }
  // The event's place after the list's (the lock order of ./event-places.ts).
  const eventSlot = eventCapacity === null ? null : await claimEventPlace(tx, eventPlace, eventCapacity);
  if (eventCapacity !== null && eventSlot === null && !offline) return { outcome: 'denied', denial: await eventFull(tx, eventPlace, eventCapacity) };
  let entered: { checkInId: string; enteredAt: Date };
  if (standing && decision.isReentry) {
    await recordReentry(tx, { ...movement, checkInId: standing.id });
    entered = { checkInId: standing.id, enteredAt: movedAt };
  } else {
    const written = await recordCheckIn(tx, { ...key, ...who, ...(offline ? { checkedInAt: at, receivedAt: offline.receivedAt, deviceId: offline.deviceId } : {}) });
    if (!written.isRecorded) {
      const retriedThere = await findRetriedMovement(tx, { ...written.standing, eventId: key.eventId }, who);
      return decideAgainst(written.standing, decideCheckIn({ ...input, existingCheckIn: existingForRule(written.standing, retriedThere) }));
    }
    entered = { checkInId: written.id, enteredAt: written.checkedInAt };
  }
  const isReentry = decision.isReentry === true && standing !== undefined;
  if (eventSlot !== null) await holdEventPlace(tx, eventPlace, eventSlot, nextDailyCheckout(event.timeZone, list.dailyCheckoutTime, entered.enteredAt));
  if (slot !== null) await holdPlace(tx, places, slot, entered.checkInId, entered.enteredAt);
  else if (capacity !== null) return { outcome: 'entered', ...entered, isReentry, overCapacity: { insideNow: await countInside(tx, places), capacity } };
  if (eventCapacity !== null && eventSlot === null) {
    return { outcome: 'entered', ...entered, isReentry, overCapacity: { insideNow: await countEventInside(tx, key.eventId, day, attempt.now), capacity: eventCapacity } };
  }
  return { outcome: 'entered', ...entered, isReentry, ...(await occupancy()) };
}

/** The time of a check-in's latest movement that made who is inside now: its exit, else its last entry. */
function latestMovementAt(standing: DoorCheckIn): Date {
  return standing.exitedAt && standing.exitedAt.getTime() > standing.lastEnteredAt.getTime() ? standing.exitedAt : standing.lastEnteredAt;
}

/**
 * An offline movement older than the check-in's latest (docs/decisions/138), decided by the rule
 * against the guest's state at its scan time: inside when the last movement at or before it (late
 * ones too: a device's queue uploads its exit before its re-entry) is an entry made since that
 * time's daily checkout; before the check-in's first entry, an entry meets
 * that check-in (a conflict, as before) and an exit finds nobody inside. A passage the rule allows
 * is recorded as a movement marked late: the check-in's state, its place and every count stay as
 * the later movements made them.
 */
async function recordLate(
  tx: DbOrTx,
  late: {
    attempt: AttemptToRecord;
    input: CheckInInput;
    standing: DoorCheckIn;
    retried: RetriedMovement | undefined;
    decideAgainst: (standing: StandingCheckIn, decision: CheckInDecision) => RecordedAttempt;
  },
): Promise<RecordedAttempt> {
  const { attempt, input, standing, retried } = late;
  const direction = attempt.direction ?? 'entry';
  const before = await movementsOf(tx, { eventId: attempt.ticket.eventId, checkInId: standing.id }, attempt.at);
  const last = before.at(-1);
  const isInside = last
    ? last.direction === 'entry' && isCheckInInside({ lastEnteredAt: last.at, exitedAt: null }, attempt.checkInList.list, attempt.event, attempt.at)
    : direction === 'entry';
  const decision = decideCheckIn({ ...input, existingCheckIn: { ...existingForRule(standing, retried), isInside } });
  if (decision.outcome !== 'check_in' && decision.outcome !== 'check_out') return late.decideAgainst(standing, decision);
  if (decision.outcome === 'check_in' && !decision.isReentry) throw new Error('a late first entry beside a standing check-in');
  await recordMovement(tx, {
    eventId: attempt.ticket.eventId,
    checkInId: standing.id,
    direction,
    at: attempt.at,
    scanId: attempt.scanId,
    staffUserId: attempt.staffUserId,
    offline: attempt.offline,
    isLate: true,
  });
  return { outcome: 'late', checkInId: standing.id, direction, at: attempt.at };
}

/**
 * The denial of an entry that found no place of the event left (docs/decisions/147): the list's
 * reason and words, `at_capacity` 'At capacity: N inside', N the event's inside-now (at least its
 * capacity: a place held by an entry not yet committed counts).
 */
async function eventFull(tx: DbOrTx, place: { eventId: string; day: number; now: Date }, capacity: number): Promise<Denial> {
  const insideNow = Math.max(await countEventInside(tx, place.eventId, place.day, place.now), capacity);
  return { outcome: 'denied', reason: 'at_capacity', message: atCapacityMessage(insideNow), capacityDenial: { insideNow, capacity } };
}
