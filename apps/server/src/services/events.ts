/**
 * Events as every rule reads them: one look-up (`findEvent`) with the event's calendar (time zone,
 * day cut-off, rehearsal setting) and the event rule that verify, the admin CLI, the import and the
 * QR export share — an event without configured days has one day (SPEC §2 /day-select: day 1,
 * "Main Event", on the event date). Which statuses admit is the contract's `isEventActive`.
 */
import { DEFAULT_EVENT_DAY_NAME, DEFAULT_EVENT_DAY_NUMBER, type EventStatus } from '@gatecheck/contract';
import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { eventDays, events, organizations } from '../db/schema.ts';
import { isId, noSuchEventMessage, ServiceError } from './errors.ts';

/** One day of an event: configured, or the implicit day 1 of an event without configured days. */
export interface EventDayInfo {
  /** Day number, from 1. */
  day: number;
  name: string;
  /** Calendar date, YYYY-MM-DD. */
  date: string;
}

/** An event with its organization and days. */
export interface EventDetails {
  id: string;
  title: string;
  /** YYYY-MM-DD. */
  date: string;
  location: string;
  status: EventStatus;
  organizationId: string;
  organizationName: string;
  /** IANA time zone of the venue. */
  timeZone: string;
  /** 'HH:MM': an event day still admits until this time the next morning (event time zone). */
  dayCutoff: string;
  /** Rehearsals: scans outside the event's days are decided as if on the chosen day. */
  allowsScanningOutsideDays: boolean;
  /** Never empty: an event without configured days has day 1 ("Main Event" on the event date). */
  days: EventDayInfo[];
}

/**
 * The columns of an `EventDetails` read with `events` joined to `organizations` (days apart; the
 * time column as read back, 'HH:MM:SS': `toDayCutoff`). Shared by `findEvent` and verify's one read.
 */
export const eventDetailsColumns = {
  id: events.id,
  title: events.title,
  date: events.date,
  location: events.location,
  status: events.status,
  organizationId: events.organizationId,
  organizationName: organizations.name,
  timeZone: events.timeZone,
  dayCutoff: events.dayCutoff,
  allowsScanningOutsideDays: events.allowsScanningOutsideDays,
};

/**
 * The event `eventId` with its organization and days (ordered by day number; the implicit day 1
 * when none are configured).
 * @throws ServiceError `not_found` for an unknown id (or one that is not a UUID).
 */
export async function findEvent(db: DbOrTx, eventId: string): Promise<EventDetails> {
  const [event] = isId(eventId)
    ? await db
        .select(eventDetailsColumns)
        .from(events)
        .innerJoin(organizations, eq(organizations.id, events.organizationId))
        .where(eq(events.id, eventId))
    : [];
  if (!event) throw new ServiceError('not_found', noSuchEventMessage(eventId));
  const days = await db
    .select({ day: eventDays.day, name: eventDays.name, date: eventDays.date })
    .from(eventDays)
    .where(eq(eventDays.eventId, event.id))
    .orderBy(asc(eventDays.day));
  return { ...event, dayCutoff: toDayCutoff(event.dayCutoff), days: daysOrDefault(days, event.date) };
}

/** A `time` column as read back ('06:00:00') → the wire's and the rule's 'HH:MM'. */
export function toDayCutoff(value: string): string {
  return value.slice(0, 5);
}

/** `configured`, or, when it is empty, the single default day: day 1, "Main Event", on `eventDate`. */
export function daysOrDefault(configured: EventDayInfo[], eventDate: string): EventDayInfo[] {
  if (configured.length > 0) return configured;
  return [{ day: DEFAULT_EVENT_DAY_NUMBER, name: DEFAULT_EVENT_DAY_NAME, date: eventDate }];
}
