/**
 * The event's capacity (docs/decisions/147): the places of a venue, shared by all its check-in lists,
 * kept as `event_slots` rows the way a list's are kept as `check_in_list_slots` (docs/decisions/111):
 * a ticket inside the event on a day holds one place, whatever lists it is inside through, and an
 * entry claims one with its check-in — verify's first entry in its one statement (./write.ts
 * `recordScannedEntryAtEvent`, docs/decisions/148), anything else and whatever that statement
 * cannot settle without waiting in the check-in's transaction (./record.ts `recordAttempt`, here) —
 * so that of concurrent entries for the last place exactly one wins and no entry queues on one
 * counter row.
 *
 * 'Inside the event' is the event's inside-now of the live counts (`countEventInside`): distinct
 * tickets of the day with an active check-in at any list, not exited, and not checked out at that
 * list's daily checkout. A place's holder stops being inside by an exit or an undo (the place is freed
 * then, unless the ticket is still inside through another list) or at its list's next daily checkout
 * (`expires_at`: the place is taken over lazily by the next entry that finds none free), or when the
 * day changes (a place of another day is taken over too).
 *
 * Lock order: the guest's check-in row, then the list's place, then the event's place — every
 * writer takes them in that order, so an entry and an exit never wait on each other in a cycle.
 */
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { lastDailyCheckout } from '@gatecheck/contract';
import type { DbOrTx } from '../../db/client.ts';
import { checkInLists, checkIns, events, eventSlots } from '../../db/schema.ts';
import { insideNowSql, nextDailyCheckoutSql } from './write.ts';

/** A ticket's entry into the event on `day`, as its place is claimed and held. */
export interface EventPlaceKey {
  eventId: string;
  ticketId: string;
  day: number;
  /** The server's clock: a place whose holder's `expires_at` is not after it is free to take over. */
  now: Date;
}

/**
 * The next daily checkout strictly after `at` of a list with checkout time `checkoutTime` in
 * `timeZone` (null: the list has none, its guests stay inside until they exit). A check-in entered
 * at `at` stops being inside then (`isCheckInInside`).
 */
export function nextDailyCheckout(timeZone: string, checkoutTime: string | null | undefined, at: Date): Date | null {
  if (!checkoutTime) return null;
  // A day is 23 to 25 hours long around a change of summer time: the latest checkout a day later
  // is the next one, unless that day was 25 hours long.
  for (const hours of [24, 25]) {
    const checkout = lastDailyCheckout(timeZone, checkoutTime, new Date(at.getTime() + hours * 3_600_000));
    if (checkout && checkout.getTime() > at.getTime()) return checkout;
  }
  return null;
}

/**
 * Claims a place of the event for `key`'s entry, on `tx` (after the list's place, if any):
 * 1. the place the ticket already holds on the day (it is inside through another list, or was until
 *    its checkout): it keeps it, no second place;
 * 2. a place nobody holds, from the partial index of free places, from a random slot and wrapping
 *    round, skipping rows other entries have locked (`FOR UPDATE SKIP LOCKED`);
 * 3. a place of another day or whose holder's `expires_at` has passed, skipping locked rows;
 * 4. the same read waiting for rows other entries hold (`FOR UPDATE`; re-checked on the row's new
 *    version): an entry that rolls back frees its place for a waiting one, so no entry is denied
 *    while a place is left.
 * Every condition is on the row's own columns, so a re-check after a wait is exact.
 * @returns the slot, locked until `tx` ends; null when the event is full.
 */
export async function claimEventPlace(tx: DbOrTx, key: EventPlaceKey, capacity: number): Promise<number | null> {
  const ofEvent = eq(eventSlots.eventId, key.eventId);
  const [own] = await tx
    .select({ slot: eventSlots.slot })
    .from(eventSlots)
    .where(and(ofEvent, eq(eventSlots.ticketId, key.ticketId), eq(eventSlots.day, key.day)))
    .orderBy(eventSlots.slot)
    .limit(1)
    .for('update');
  if (own) return own.slot;
  const start = 1 + Math.floor(Math.random() * capacity);
  for (const range of [sql`${eventSlots.slot} >= ${start}`, sql`${eventSlots.slot} < ${start}`]) {
    const [free] = await tx
      .select({ slot: eventSlots.slot })
      .from(eventSlots)
      .where(and(ofEvent, isNull(eventSlots.ticketId), range))
      .orderBy(eventSlots.slot)
      .limit(1)
      .for('update', { skipLocked: true });
    if (free) return free.slot;
  }
  const reusable = or(isNull(eventSlots.ticketId), sql`${eventSlots.day} <> ${key.day}`, sql`${eventSlots.expiresAt} <= ${key.now.toISOString()}::timestamptz`);
  const [stale] = await tx.select({ slot: eventSlots.slot }).from(eventSlots).where(and(ofEvent, reusable)).orderBy(eventSlots.slot).limit(1).for('update', { skipLocked: true });
  if (stale) return stale.slot;
  const [waited] = await tx.select({ slot: eventSlots.slot }).from(eventSlots).where(and(ofEvent, reusable)).orderBy(eventSlots.slot).limit(1).for('update');
  return waited?.slot ?? null;
}

/**
 * Holds place `slot` (claimed by `claimEventPlace`) with `key`'s ticket, inside until `expiresAt`
 * (null: until it exits). A place the ticket already held keeps the later of the two ends (null, never, wins)
 * unless its old end has passed.
 */
export async function holdEventPlace(tx: DbOrTx, key: EventPlaceKey, slot: number, expiresAt: Date | null): Promise<void> {
  const next = expiresAt ? sql`${expiresAt.toISOString()}::timestamptz` : sql`null::timestamptz`;
  const now = sql`${key.now.toISOString()}::timestamptz`;
  const isStillHeld = sql`${eventSlots.ticketId} = ${key.ticketId} and ${eventSlots.day} = ${key.day} and (${eventSlots.expiresAt} is null or ${eventSlots.expiresAt} > ${now})`;
  await tx
    .update(eventSlots)
    .set({
      ticketId: key.ticketId,
      day: key.day,
      expiresAt: sql`case when ${isStillHeld} and (${eventSlots.expiresAt} is null or ${next} is null) then null
        when ${isStillHeld} then greatest(${eventSlots.expiresAt}, ${next}) else ${next} end`,
    })
    .where(and(eq(eventSlots.eventId, key.eventId), eq(eventSlots.slot, slot)));
}

/**
 * Frees the place ticket `ticketId` holds on `day` of event `eventId` once it is no longer inside
 * the event (an exit or an undo of one of its check-ins, recorded on `tx` before this call): the
 * place is locked first, and only then — in a statement that sees every entry committed before the
 * lock was granted — is the ticket looked for inside through another list; if it is, it keeps its place.
 */
export async function releaseEventPlace(tx: DbOrTx, place: { eventId: string; ticketId: string; day: number; now: Date }): Promise<void> {
  const held = await tx
    .select({ slot: eventSlots.slot })
    .from(eventSlots)
    .where(and(eq(eventSlots.eventId, place.eventId), eq(eventSlots.ticketId, place.ticketId), eq(eventSlots.day, place.day)))
    .for('update');
  if (held.length === 0) return;
  const [inside] = await tx
    .select({ id: checkIns.id })
    .from(checkIns)
    .innerJoin(checkInLists, and(eq(checkInLists.eventId, checkIns.eventId), eq(checkInLists.id, checkIns.checkInListId)))
    .innerJoin(events, eq(events.id, checkIns.eventId))
    .where(and(eq(checkIns.eventId, place.eventId), eq(checkIns.ticketId, place.ticketId), eq(checkIns.day, place.day), insideNowSql(place.now)))
    .limit(1);
  if (inside) return;
  await tx
    .update(eventSlots)
    .set({ ticketId: null, day: null, expiresAt: null })
    .where(and(eq(eventSlots.eventId, place.eventId), eq(eventSlots.ticketId, place.ticketId), eq(eventSlots.day, place.day)));
}

/**
 * Makes the places of event `eventId` match `capacity` (null: none), on `tx` (the event's create or
 * edit, the event row locked): slots 1..capacity, the tickets inside the event now holding the first
 * places (newest day first), so a capacity set while the doors are open counts those already in.
 */
export async function syncEventPlaces(tx: DbOrTx, event: { eventId: string; capacity: number | null; timeZone: string }, now: Date): Promise<void> {
  await tx.delete(eventSlots).where(eq(eventSlots.eventId, event.eventId));
  if (event.capacity === null) return;
  const rows = await tx
    .select({
      ticketId: checkIns.ticketId,
      day: checkIns.day,
      enteredAt: sql<Date>`coalesce(${checkIns.lastEnteredAt}, ${checkIns.checkedInAt})`.mapWith(checkIns.checkedInAt),
      checkoutTime: checkInLists.dailyCheckoutTime,
    })
    .from(checkIns)
    .innerJoin(checkInLists, and(eq(checkInLists.eventId, checkIns.eventId), eq(checkInLists.id, checkIns.checkInListId)))
    .innerJoin(events, eq(events.id, checkIns.eventId))
    .where(and(eq(checkIns.eventId, event.eventId), insideNowSql(now)));
  const holders = new Map<string, { ticket_id: string; day: number; expires_at: string | null }>();
  for (const row of rows) {
    const expiresAt = nextDailyCheckout(event.timeZone, row.checkoutTime, new Date(row.enteredAt))?.toISOString() ?? null;
    const key = `${row.day} ${row.ticketId}`;
    const known = holders.get(key);
    const later = known === undefined ? expiresAt : known.expires_at === null || expiresAt === null ? null : known.expires_at > expiresAt ? known.expires_at : expiresAt;
    holders.set(key, { ticket_id: row.ticketId, day: row.day, expires_at: later });
  }
  const placed = [...holders.values()].sort((a, b) => b.day - a.day).slice(0, event.capacity).map((holder, index) => ({ ...holder, place: index + 1 }));
  await tx.execute(sql`
    insert into ${eventSlots} (event_id, slot, ticket_id, day, expires_at)
    select ${event.eventId}::uuid, slots.slot, held.ticket_id, held.day, held.expires_at
    from generate_series(1, ${event.capacity}::integer) as slots(slot)
    left join json_to_recordset(${JSON.stringify(placed)}::json) as held(ticket_id uuid, day integer, expires_at timestamptz, place integer) on held.place = slots.slot`);
}

/**
 * Sets again when the places of event `eventId` held through list `checkInListId` expire, on `tx`
 * (the edit of that list's daily checkout, after the list row is updated): every place whose ticket
 * has an active check-in not exited at the list on the place's day expires at the latest of the
 * next daily checkouts after the entries of that ticket's check-ins not exited on the day, at any
 * list (null, never, when one of those lists has none), by the lists' checkout times as they are
 * now — the rule verify's statement and `holdEventPlace` apply at entry (`nextDailyCheckout`,
 * computed in SQL on the event's wall clock). So a checkout removed or moved later keeps the places
 * of the guests still inside, and one moved earlier lets them go at the new time. The places are
 * locked in slot order. A place taken over already (its old end had passed) is not given back.
 */
export async function refreshEventPlaceExpiries(tx: DbOrTx, list: { eventId: string; checkInListId: string }): Promise<void> {
  const entered = sql`coalesce(${checkIns.lastEnteredAt}, ${checkIns.checkedInAt})`;
  const nextCheckout = nextDailyCheckoutSql(entered, { checkoutTime: sql`${checkInLists.dailyCheckoutTime}`, timeZone: sql`${events.timeZone}` });
  const notExited = sql`${checkIns.undoneAt} is null and ${checkIns.exitedAt} is null`;
  await tx.execute(sql`
    update ${eventSlots} set expires_at = (
      select case when bool_or(${checkInLists.dailyCheckoutTime} is null) then null
        else max(${nextCheckout}) end
      from ${checkIns}
      join ${checkInLists} on ${checkInLists.eventId} = ${checkIns.eventId} and ${checkInLists.id} = ${checkIns.checkInListId}
      join ${events} on ${events.id} = ${checkIns.eventId}
      where ${checkIns.eventId} = ${eventSlots.eventId} and ${checkIns.ticketId} = ${eventSlots.ticketId} and ${checkIns.day} = ${eventSlots.day} and ${notExited})
    where ${eventSlots.eventId} = ${list.eventId} and ${eventSlots.slot} in (
      select held.slot from ${eventSlots} as held
      where held.event_id = ${list.eventId} and held.ticket_id is not null
        and exists (select from ${checkIns} where ${checkIns.eventId} = held.event_id and ${checkIns.checkInListId} = ${list.checkInListId}
          and ${checkIns.ticketId} = held.ticket_id and ${checkIns.day} = held.day and ${notExited})
      order by held.slot for update)`);
}
