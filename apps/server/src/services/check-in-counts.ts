/**
 * Live counts of one event day (issue 10 item 4, docs/decisions/033): how many tickets were checked in
 * that day and how many tickets admit it. Read-only, one SQL query; the same membership rule as
 * verify (services/check-ins/verify.ts), without writing the scan log (a count is not a scan). Index
 * lookups whatever the event's size (docs/decisions/062) and whatever the day's check-ins
 * (docs/decisions/140): N summed from the trigger-kept `check_in_type_counts` (a list's N from
 * `check_in_arrivals`), M read from the trigger-kept `ticket_day_counts`, inside now from the
 * arrivals less the exited check-ins where no list has a daily checkout; nothing is cached in the process, so
 * every server instance on the database answers the same. The admin CLI's `checkins count` counts
 * with the same queries (`countCheckInsByDay`).
 */
import { type CheckInCounts, type CheckInListCounts, type CheckInListRule, lastDailyCheckout } from '@gatecheck/contract';
import { and, eq, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';
import { checkInLists, checkIns, checkInTypeCounts, events, ticketDayCounts, ticketTypes as ticketTypeRows } from '../db/schema.ts';
import { arrivalsSql, countInside, insideNowSql, insideWithoutCheckoutSql, isInsideSince } from './check-ins/write.ts';
import { resolveCheckInList } from './check-in-lists.ts';
import { AccessRefusedError, ServiceError } from './errors.ts';
import { type EventDayInfo, type EventDetails, findEvent } from './events.ts';
import { isMember } from './organizations.ts';
import { ticketTypeRowOf, typeAdmitsDaySql } from './ticket-type-door.ts';

/**
 * The counts of day `day` of event `eventId` for the signed-in `caller` (a door device: its `deviceEventId`):
 * `checkedIn` = check-ins of that day of the event's tickets that were not undone (at most one
 * active per ticket and day, so a re-scan or a denied scan never adds one; a check-in stays counted
 * if its ticket is revoked later; an undo by a supervisor takes it away), `validTickets` = the event's tickets not revoked that admit the day
 * (`admitted_days` null = every day, else it lists the day) and whose type admits it too (its
 * `days`, docs/decisions/125: the door denies the others `not_valid_today`), 0 for a day the event does not have
 * (verify denies every ticket on it with `not_valid_today`).
 *
 * @throws ServiceError `not_found` for an unknown event (or an id that is not a UUID);
 *   AccessRefusedError (the same 404) when `userId` is not a member of the event's organization —
 *   the same answers as verify (docs/decisions/086).
 */
export async function countCheckIns(
  db: DbOrTx,
  caller: { userId: string; deviceEventId?: string | undefined },
  eventId: string,
  at: { day: number; checkInListId?: string | undefined },
  now: Date = new Date(),
): Promise<CheckInCounts> {
  const { userId, deviceEventId } = caller;
  const { day } = at;
  const event = await findEvent(db, eventId);
  // A door device counts its one event, and has no membership (docs/decisions/107).
  const mayRead = deviceEventId === undefined ? await isMember(db, userId, event.organizationId) : deviceEventId === event.id;
  if (!mayRead) throw new AccessRefusedError(userId, { eventId });
  const counts: CheckInCounts = { eventId: event.id, day, ...(await countDay(db, event, day)), insideNow: await countEventInside(db, event.id, day, now), ...(event.capacity === null ? {} : { capacity: event.capacity }) };
  if (at.checkInListId === undefined) return counts;
  const { list } = await resolveCheckInList(db, event.id, at.checkInListId);
  return { ...counts, checkInList: await countList(db, event, list, day, now) };
}

/**
 * The counts of check-in list `list` of `event` on `day` (docs/decisions/100): N the active
 * check-ins at the list, the sum of its trigger-kept arrivals (a row per 5-minute slot, not per
 * check-in; docs/decisions/127, 140); M the tickets not revoked that admit the day and that the list admits,
 * from the trigger-kept counts per ticket type (`validTicketsOf`), 0 on a day the list or the event
 * does not have.
 */
async function countList(db: DbOrTx, event: EventDetails, list: CheckInListRule & { name: string }, day: number, now: Date): Promise<CheckInListCounts> {
  const [checkedInRow] = await db.select({ checkedIn: sql<number>`${arrivalsSql(event.id, day, list.id)}`.mapWith(Number) }).from(sql`(select) as one`);
  const isOpen = event.days.some((entry) => entry.day === day) && (list.days === null || list.days.includes(day));
  const validTickets = isOpen ? await validTicketsOf(db, event.id, day, list.ticketTypes) : 0;
  const insideNow = await countListInside(db, event, list, day, now);
  return {
    id: list.id,
    name: list.name,
    checkedIn: checkedInRow?.checkedIn ?? 0,
    validTickets,
    insideNow,
    capacity: list.capacity ?? null,
    allowsReentry: list.allowsReentry ?? false,
  };
}

/**
 * Tickets inside now on `day` through list `list` of `event` (docs/decisions/111): its active
 * check-ins not exited and not checked out at the list's last daily checkout before `now` (in the
 * event's time zone). A list without a daily checkout: its arrivals less its exited check-ins
 * (`insideWithoutCheckoutSql`, docs/decisions/140); one with a checkout: its check-ins entered since,
 * from the partial index of inside check-ins (grows with them). Both are `countInside`.
 */
export async function countListInside(
  db: DbOrTx,
  event: Pick<EventDetails, 'id' | 'timeZone'>,
  list: Pick<CheckInListRule, 'id' | 'dailyCheckoutTime'>,
  day: number,
  now: Date,
): Promise<number> {
  return countInside(db, { eventId: event.id, checkInListId: list.id, day, checkout: lastDailyCheckout(event.timeZone, list.dailyCheckoutTime ?? null, now) });
}

/**
 * Tickets inside now on `day` per check-in list of `event` (the live door, docs/decisions/127): for
 * each of `lists` what `countListInside` counts — active check-ins not exited and, at a list with a
 * daily checkout, entered since its last checkout before `now` (`lastDailyCheckout`, the event's
 * time zone) — in at most two statements whatever the number of lists: one, a row per list, for the
 * lists without a checkout, their arrivals less their exited check-ins (`insideWithoutCheckoutSql`,
 * docs/decisions/140: no inside check-in read), and one grouped by list for the lists with a
 * checkout (their entry times are in the rows). A list nobody is inside is absent (0).
 * @returns list id → guests inside now.
 */
export async function countInsideByList(
  db: DbOrTx,
  event: Pick<EventDetails, 'id' | 'timeZone'>,
  lists: ReadonlyArray<Pick<CheckInListRule, 'id' | 'dailyCheckoutTime'>>,
  day: number,
  now: Date,
): Promise<Map<string, number>> {
  const cuts = lists.map((list) => ({ id: list.id, checkout: lastDailyCheckout(event.timeZone, list.dailyCheckoutTime ?? null, now) }));
  const plain = cuts.filter((cut) => cut.checkout === null).map((cut) => cut.id);
  const withCheckout = cuts.flatMap((cut) => (cut.checkout === null ? [] : [{ id: cut.id, checkout: cut.checkout }]));
  const ofDay = and(eq(checkIns.eventId, event.id), eq(checkIns.day, day));
  const rows: Array<{ checkInListId: string; inside: number }> = [];
  if (plain.length > 0) {
    const listIds = sql`array[${sql.join(plain.map((id) => sql`${id}`), sql`, `)}]::uuid[]`;
    rows.push(
      ...(await db
        .select({ checkInListId: sql<string>`lists.id`, inside: sql<number>`${insideWithoutCheckoutSql(event.id, day, sql`lists.id`)}`.mapWith(Number) })
        .from(sql`unnest(${listIds}) as lists(id)`)),
    );
  }
  if (withCheckout.length > 0) {
    const sinceCheckout = or(...withCheckout.map((cut) => and(eq(checkIns.checkInListId, cut.id), isInsideSince(cut.checkout))));
    rows.push(...(await db.select({ checkInListId: checkIns.checkInListId, inside: sql<number>`count(*)`.mapWith(Number) }).from(checkIns).where(and(ofDay, sinceCheckout)).groupBy(checkIns.checkInListId)));
  }
  return new Map(rows.filter((row) => row.inside > 0).map((row) => [row.checkInListId, row.inside]));
}

/**
 * Distinct tickets inside now on `day` through any list of event `eventId` (docs/decisions/111):
 * active check-ins not exited and not checked out at their list's daily checkout (`insideNowSql`).
 *
 * One statement (one snapshot). When no list of the event has a daily checkout and no ticket has
 * two active check-ins that day — the day's arrivals (active check-ins) equal its checked-in
 * tickets per type (distinct tickets with an active check-in), both trigger-kept — every check-in
 * not exited is one guest inside, so the figure is the arrivals less the exited check-ins, and no
 * inside check-in is read (docs/decisions/140). Otherwise (a ticket checked in at two lists, a list
 * with a checkout) the distinct tickets inside, in two parts counted together (docs/decisions/141):
 * the rows at lists without a daily checkout from the partial index `check_ins_inside_event_day_idx`
 * alone (it holds each row's list and ticket), the rows at lists with one by an index and their
 * entry times; the planner runs that branch's subquery only when it is taken (an InitPlan).
 */
export async function countEventInside(db: DbOrTx, eventId: string, day: number, now: Date): Promise<number> {
  const ofDay = and(eq(checkIns.eventId, eventId), eq(checkIns.day, day));
  const listOfRow = and(eq(checkInLists.eventId, checkIns.eventId), eq(checkInLists.id, checkIns.checkInListId));
  const withoutCheckout = db
    .select({ ticketId: checkIns.ticketId })
    .from(checkIns)
    .innerJoin(checkInLists, listOfRow)
    .where(and(ofDay, isNull(checkInLists.dailyCheckoutTime), isInsideSince(null)));
  const withCheckout = db
    .select({ ticketId: checkIns.ticketId })
    .from(checkIns)
    .innerJoin(checkInLists, listOfRow)
    .innerJoin(events, eq(events.id, checkIns.eventId))
    .where(and(ofDay, isNotNull(checkInLists.dailyCheckoutTime), insideNowSql(now)));
  const distinctInside = sql`(select count(distinct inside.ticket_id) from (${unionAll(withoutCheckout, withCheckout)}) as inside)`;
  const noCheckout = sql`not exists (select 1 from ${checkInLists} where ${checkInLists.eventId} = ${eventId} and ${checkInLists.dailyCheckoutTime} is not null)`;
  const onceEach = sql`${arrivalsSql(eventId, day)} = ${checkedInTicketsOf(eventId, day)}`;
  const [row] = await db
    .select({ value: sql<number>`case when ${noCheckout} and ${onceEach} then ${insideWithoutCheckoutSql(eventId, day)} else ${distinctInside} end`.mapWith(Number) })
    .from(sql`(select) as one`);
  return row?.value ?? 0;
}

/**
 * SQL: the distinct tickets with an active check-in on `day` of `eventId` (`CheckInCounts.checkedIn`):
 * the sum of the trigger-kept counts per list and ticket type (docs/decisions/132, 140), which count
 * each ticket once however many lists it was checked in at (a row per list and type, not per check-in).
 */
function checkedInTicketsOf(eventId: string, day: number): SQL {
  return sql`(select coalesce(sum(${checkInTypeCounts.checkedIn}), 0) from ${checkInTypeCounts} where ${checkInTypeCounts.eventId} = ${eventId} and ${checkInTypeCounts.day} = ${day})`;
}

/** Check-ins of one event day, as the admin CLI lists them. */
export interface DayCheckInCount extends EventDayInfo {
  /** As `CheckInCounts.checkedIn`. */
  checkedIn: number;
  /** As `CheckInCounts.validTickets`: tickets not revoked that admit this day. */
  admitted: number;
}

/**
 * The counts of `eventId` for the operator (admin CLI, no membership): day `day` only, or every day
 * of the event; each day counted as `countCheckIns` counts it.
 * @throws ServiceError `not_found` for an unknown event, `bad_request` for a day the event does not have.
 */
export async function countCheckInsByDay(db: DbOrTx, eventId: string, day?: number): Promise<{ event: EventDetails; days: DayCheckInCount[] }> {
  const event = await findEvent(db, eventId);
  const days = day === undefined ? event.days : event.days.filter((entry) => entry.day === day);
  if (days.length === 0) {
    throw new ServiceError('bad_request', `Event "${event.title}" has no day ${day} (days: ${event.days.map((d) => d.day).join(', ')})`);
  }
  const counted: DayCheckInCount[] = [];
  for (const entry of days) {
    const { checkedIn, validTickets } = await countDay(db, event, entry.day);
    counted.push({ ...entry, checkedIn, admitted: validTickets });
  }
  return { event, days: counted };
}

/** Checked-in tickets of one event day (`checkedIn` as `CheckInCounts.checkedIn`). */
export interface EventDayCheckedIn {
  eventId: string;
  day: number;
  checkedIn: number;
}

/**
 * N of every day of events `eventIds` that has check-ins, counted as `countCheckIns` counts it:
 * active check-ins, a ticket once per day however many check-in lists it was checked in at
 * (docs/decisions/101). For the management area's event list, in one query.
 */
export async function countCheckedInByEventDay(db: DbOrTx, eventIds: readonly string[]): Promise<EventDayCheckedIn[]> {
  if (eventIds.length === 0) return [];
  return db
    .select({ eventId: checkIns.eventId, day: checkIns.day, checkedIn: sql<number>`count(distinct ${checkIns.ticketId})`.mapWith(Number) })
    .from(checkIns)
    .where(and(inArray(checkIns.eventId, [...eventIds]), isNull(checkIns.undoneAt)))
    .groupBy(checkIns.eventId, checkIns.day);
}

async function countDay(db: DbOrTx, event: EventDetails, day: number): Promise<Pick<CheckInCounts, 'checkedIn' | 'validTickets'>> {
  const hasDay = event.days.some((entry) => entry.day === day);
  // N: distinct tickets, as a ticket may be checked in at several lists (docs/decisions/101), from
  // the trigger-kept counts per list and ticket type (docs/decisions/132), so a day of many check-ins
  // costs what a day of few does (docs/decisions/140); M from ticket_day_counts, rows 0 (tickets of
  // every day) and `day`, kept by the triggers on tickets in the same transactions (docs/decisions/062).
  const [checkedInRow] = await db.select({ checkedIn: sql<number>`${checkedInTicketsOf(event.id, day)}`.mapWith(Number) }).from(sql`(select) as one`);
  return { checkedIn: checkedInRow?.checkedIn ?? 0, validTickets: hasDay ? await validTicketsOf(db, event.id, day, null) : 0 };
}

/**
 * M: the tickets of `eventId` not revoked that admit `day` (a day the event has) with their type's
 * days (docs/decisions/125), of the types `ticketTypes` (null: every type), summed from the
 * ticket_day_counts rows of days 0 and `day` (one per ticket type: a few rows by primary-key
 * prefix; docs/decisions/101) whose type admits the day (each row's type row by its key,
 * ./ticket-type-door.ts).
 */
async function validTicketsOf(db: DbOrTx, eventId: string, day: number, ticketTypes: readonly string[] | null): Promise<number> {
  const [validRow] = await db
    .select({ validTickets: sql<string | null>`sum(${ticketDayCounts.validTickets})` })
    .from(ticketDayCounts)
    .leftJoin(ticketTypeRows, ticketTypeRowOf(ticketDayCounts.eventId, ticketDayCounts.ticketType))
    .where(
      and(
        eq(ticketDayCounts.eventId, eventId),
        inArray(ticketDayCounts.day, [0, day]),
        ticketTypes === null ? undefined : inArray(ticketDayCounts.ticketType, [...ticketTypes]),
        typeAdmitsDaySql(day),
      ),
    );
  return Number(validRow?.validTickets ?? 0);
}
