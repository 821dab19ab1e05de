/**
 * Events for the admin CLI (issue 4): create an event with its days, list events, count an event's
 * check-ins per day. No CLI or HTTP types in here; failures the operator can fix throw
 * ServiceError (`not_found`, `conflict`, `bad_request`).
 */
import { DEFAULT_DAY_CUTOFF, DEFAULT_EVENT_TIME_ZONE, type EventStatus } from '@gatecheck/contract';
import { and, asc, count, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { inTransaction } from '../../db/transactions.ts';
import { checkIns, eventDays, events, organizations, tickets } from '../../db/schema.ts';
import { ServiceError } from '../errors.ts';
import { type EventDayInfo, type EventDetails, findEvent } from '../events.ts';

/** A configured event day: day number from 1, name, calendar date (YYYY-MM-DD). */
export interface EventDayInput {
  name: string;
  date: string;
}

/** What an event is created from. `days` empty = a single-day event (implicit day 1 on `date`). */
export interface NewEvent {
  organizationId: string;
  title: string;
  date: string;
  description?: string;
  location?: string;
  status?: EventStatus;
  days?: EventDayInput[];
  /** IANA time zone (validated by the caller with the contract's `TimeZone`); default UTC. */
  timeZone?: string;
  /** 'HH:MM' cut-off of each day the next morning; default 06:00. */
  dayCutoff?: string;
  /** Rehearsals: admit outside the event's days as if on the chosen day; default false. */
  allowsScanningOutsideDays?: boolean;
}

/**
 * Creates an event and its days (numbered 1, 2, … in the given order) in one transaction.
 * @returns the new event's id.
 */
export async function createEvent(db: Db, input: NewEvent): Promise<string> {
  return inTransaction(db, async (tx) => {
    const [event] = await tx
      .insert(events)
      .values({
        organizationId: input.organizationId,
        title: input.title,
        date: input.date,
        description: input.description ?? '',
        location: input.location ?? '',
        status: input.status ?? 'draft',
        timeZone: input.timeZone ?? DEFAULT_EVENT_TIME_ZONE,
        dayCutoff: input.dayCutoff ?? DEFAULT_DAY_CUTOFF,
        allowsScanningOutsideDays: input.allowsScanningOutsideDays ?? false,
      })
      .returning({ id: events.id });
    if (!event) throw new Error('insert into events returned no row');
    const days = input.days ?? [];
    if (days.length > 0) {
      await tx.insert(eventDays).values(days.map((day, index) => ({ eventId: event.id, day: index + 1, ...day })));
    }
    return event.id;
  });
}

/** The settings `event set` changes; absent fields stay as they are. */
export interface EventSettingsChange {
  status?: EventStatus;
  timeZone?: string;
  dayCutoff?: string;
  allowsScanningOutsideDays?: boolean;
}

/**
 * Changes an event's status and calendar settings.
 * @returns the event as it is now.
 * @throws ServiceError `not_found` for an unknown event, `bad_request` when nothing is to change.
 */
export async function updateEventSettings(db: DbOrTx, eventId: string, change: EventSettingsChange): Promise<EventDetails> {
  const event = await findEvent(db, eventId);
  if (Object.values(change).every((value) => value === undefined)) {
    throw new ServiceError('bad_request', 'Nothing to change: give --status, --time-zone, --day-cutoff or --scan-outside-days');
  }
  await db.update(events).set(change).where(eq(events.id, event.id));
  return findEvent(db, event.id);
}

/** An event as listed by the CLI. */
export interface EventSummary {
  id: string;
  title: string;
  date: string;
  status: EventStatus;
  organizationName: string;
  timeZone: string;
  /** Configured days (0 = single implicit day). */
  days: number;
  /** Tickets not revoked. */
  tickets: number;
}

/** Events by date, of one organization or of all. */
export async function listEvents(db: DbOrTx, filter: { organizationId?: string } = {}): Promise<EventSummary[]> {
  const rows = await db
    .select({
      id: events.id,
      title: events.title,
      date: events.date,
      status: events.status,
      organizationName: organizations.name,
      timeZone: events.timeZone,
    })
    .from(events)
    .innerJoin(organizations, eq(organizations.id, events.organizationId))
    .where(filter.organizationId ? eq(events.organizationId, filter.organizationId) : undefined)
    .orderBy(asc(events.date), asc(events.title));
  const dayCounts = await db.select({ eventId: eventDays.eventId, value: count() }).from(eventDays).groupBy(eventDays.eventId);
  const ticketCounts = await db
    .select({ eventId: tickets.eventId, value: count() })
    .from(tickets)
    .where(isNull(tickets.revokedAt))
    .groupBy(tickets.eventId);
  return rows.map((row) => ({
    ...row,
    days: dayCounts.find((entry) => entry.eventId === row.id)?.value ?? 0,
    tickets: ticketCounts.find((entry) => entry.eventId === row.id)?.value ?? 0,
  }));
}

/** Check-ins of one event day. */
export interface DayCheckInCount extends EventDayInfo {
  /** Tickets checked in on this day (revoked later or not: these people came through the gate). */
  checkedIn: number;
  /** Tickets not revoked that admit this day (all-day tickets and those listing it). */
  admitted: number;
}

/**
 * Check-in counts of `eventId`, for `day` only or for every day of the event.
 * @throws ServiceError `not_found` for an unknown event, `bad_request` for a day the event does not have.
 */
export async function countCheckIns(db: DbOrTx, eventId: string, day?: number): Promise<{ event: EventDetails; days: DayCheckInCount[] }> {
  const event = await findEvent(db, eventId);
  const days = day === undefined ? event.days : event.days.filter((entry) => entry.day === day);
  if (days.length === 0) {
    throw new ServiceError('bad_request', `Event "${event.title}" has no day ${day} (days: ${event.days.map((d) => d.day).join(', ')})`);
  }
  const checkedIn = await db
    .select({ day: checkIns.day, value: count() })
    .from(checkIns)
    .innerJoin(tickets, eq(tickets.id, checkIns.ticketId))
    // Active check-ins only: an undone one (issue 11, docs/decisions/039) no longer admits.
    .where(and(eq(tickets.eventId, event.id), isNull(checkIns.undoneAt)))
    .groupBy(checkIns.day);
  const result: DayCheckInCount[] = [];
  for (const entry of days) {
    const [admitted] = await db
      .select({ value: count() })
      .from(tickets)
      .where(
        and(
          eq(tickets.eventId, event.id),
          isNull(tickets.revokedAt),
          or(isNull(tickets.admittedDays), sql`${entry.day} = any(${tickets.admittedDays})`),
        ),
      );
    result.push({
      ...entry,
      checkedIn: checkedIn.find((row) => row.day === entry.day)?.value ?? 0,
      admitted: admitted?.value ?? 0,
    });
  }
  return { event, days: result };
}
