/**
 * Events as every rule reads them: one look-up (`findEvent`) with the event's calendar (time zone,
 * day cut-off, rehearsal setting) and the event rule that verify, the admin CLI, the import and the
 * QR export share — an event without configured days has one day (SPEC §2 /day-select: day 1,
 * "Main Event", on the event date). Which statuses admit is the contract's `isEventActive`.
 * Also how an operator keeps events (the admin CLI): create one with its days, change its status
 * and calendar, list them. Failures the caller can fix throw ServiceError.
 */
import {
  DEFAULT_DAY_CUTOFF,
  DEFAULT_EVENT_DAY_NAME,
  DEFAULT_EVENT_DAY_NUMBER,
  DEFAULT_EVENT_TIME_ZONE,
  type EventStatus,
} from '@gatecheck/contract';
import { asc, count, eq, isNull } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { inTransaction } from '../db/transactions.ts';
import { eventDays, events, organizations, tickets } from '../db/schema.ts';
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
 * Creates an event and its days (numbered 1, 2, … in the given order) in one transaction; the
 * database gives it its first check-in list, 'All tickets' (trigger of migration 0016,
 * docs/decisions/100).
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
