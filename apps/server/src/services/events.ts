/**
 * Events as every rule reads them: one look-up (`findEvent`) with the event's calendar (time zone,
 * day cut-off, rehearsal setting) and the event rule that verify, the admin CLI, the import and the
 * QR export share — an event without configured days has one day (SPEC §2 /day-select: day 1,
 * "Main Event", on the event date). Which statuses admit is the contract's `isEventActive`.
 * Also the one way events are kept (SEAMS §6: one service per resource), called by the management
 * API, the admin CLI and so the console alike: create, change (settings and days), archive and
 * restore, each with its audit entry in the same transaction (docs/decisions/105, 106); list them.
 * Input is validated here with the contract's `EventRequest`, so every caller refuses the same.
 * Failures the caller can fix throw ServiceError.
 */
import {
  DEFAULT_EVENT_DAY_NAME,
  DEFAULT_EVENT_DAY_NUMBER,
  EventRequest,
  type EventRequestDraft,
  formatEventDate,
  type EventSnapshot,
  type EventStatus,
  isEventActive,
  type ManagedEvent,
} from '@gatecheck/contract';
import { and, asc, count, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../db/client.ts';
import { inTransaction } from '../db/transactions.ts';
import { checkIns, eventDays, events, organizations, tickets } from '../db/schema.ts';
import { type Actor, recordAudit } from './audit.ts';
import { countCheckedInByEventDay } from './check-in-counts.ts';
import { syncEventPlaces } from './check-ins/event-places.ts';
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
  /** The most guests inside the venue at once through all its lists (docs/decisions/147); null: none. */
  capacity: number | null;
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
  capacity: events.capacity,
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

/** What an event is created from: the organization and the contract's `EventRequest` (not yet parsed). */
export interface NewEvent extends EventRequestDraft {
  organizationId: string;
}

/**
 * Creates an event and its days in one transaction, with its audit entry (docs/decisions/106); the
 * database gives it its first check-in list, 'All tickets' (trigger of migration 0016,
 * docs/decisions/100). The one way an event comes to be: the management API and the admin CLI both call it.
 * @returns the new event's id.
 * @throws ServiceError `validation_failed` (with `field`, e.g. `days.1.date`) for input the
 *   contract's `EventRequest` refuses.
 */
export async function createEvent(db: Db, input: NewEvent, actor: Actor): Promise<string> {
  const { organizationId, ...draft } = input;
  const event = parseEventRequest(draft);
  return inTransaction(db, async (tx) => {
    const [created] = await tx
      .insert(events)
      .values({
        organizationId,
        title: event.title,
        date: event.date,
        description: event.description,
        location: event.location,
        status: event.status,
        timeZone: event.timeZone,
        dayCutoff: event.dayCutoff,
        allowsScanningOutsideDays: event.allowsScanningOutsideDays,
        capacity: event.capacity ?? null,
      })
      .returning({ id: events.id });
    if (!created) throw new Error('insert into events returned no row');
    await syncEventPlaces(tx, { eventId: created.id, capacity: event.capacity ?? null, timeZone: event.timeZone }, new Date());
    if (event.days.length > 0) {
      await tx.insert(eventDays).values(event.days.map((day) => ({ eventId: created.id, ...day })));
    }
    await recordAudit(tx, actor, { organizationId, eventId: created.id, action: 'event.created', before: null, after: await snapshotEvent(tx, created.id) });
    return created.id;
  });
}

/**
 * The contract's `EventRequest` parse of `draft`, or the first problem as a ServiceError.
 * @throws ServiceError `validation_failed` whose `field` is the offending path (`days.0.name`).
 */
export function parseEventRequest(draft: EventRequestDraft): EventRequest {
  const parsed = EventRequest.safeParse(draft);
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const field = issue?.path.join('.') ?? '';
  throw new ServiceError('validation_failed', `Invalid ${field || 'event'}: ${issue?.message ?? 'not accepted'}`, field || undefined);
}

/** What an audit entry records of an event: its settings and configured days as they are in `db`. */
async function snapshotEvent(db: DbOrTx, eventId: string): Promise<EventSnapshot> {
  const [row] = await db.select().from(events).where(eq(events.id, eventId));
  if (!row) throw new ServiceError('not_found', noSuchEventMessage(eventId));
  const days = await db
    .select({ day: eventDays.day, name: eventDays.name, date: eventDays.date })
    .from(eventDays)
    .where(eq(eventDays.eventId, eventId))
    .orderBy(asc(eventDays.day));
  return { ...settingsOf(row), days };
}

/** An event row's settings as the wire and the audit trail carry them (the day cut-off as 'HH:MM'). */
function settingsOf(row: typeof events.$inferSelect) {
  return {
    title: row.title,
    description: row.description,
    date: row.date,
    location: row.location,
    status: row.status,
    timeZone: row.timeZone,
    dayCutoff: toDayCutoff(row.dayCutoff),
    allowsScanningOutsideDays: row.allowsScanningOutsideDays,
    capacity: row.capacity,
    archivedAt: row.archivedAt?.toISOString() ?? null,
  };
}

/**
 * The event row locked for this transaction's change: FOR NO KEY UPDATE, so two changes of one event
 * queue, while a check-in's foreign-key lock on the row (FOR KEY SHARE) does not wait for it. An entry
 * takes its places before that lock, and a change of the capacity or time zone rebuilds the places
 * after this one: with FOR UPDATE the two waited for each other, a deadlock (docs/decisions/154).
 */
async function lockEvent(tx: Tx, eventId: string) {
  const [row] = isId(eventId) ? await tx.select().from(events).where(eq(events.id, eventId)).for('no key update') : [];
  if (!row) throw new ServiceError('not_found', noSuchEventMessage(eventId));
  return row;
}

/**
 * Changes an event: any of its settings and, when `change.days` is given, its whole set of days
 * (days are matched by number: a kept number keeps its check-ins, a missing one is removed). The
 * result is validated as a whole with the contract's `EventRequest`; the change and its audit entry
 * are one transaction. Absent fields stay as they are (the CLI's `event set` sends a few).
 * Refused: an archived event (restore it first, docs/decisions/105); removing a day that has
 * check-ins — also the implicit day 1 of an event without configured days — since they would
 * point at nothing. Moving a day that has check-ins to another date (the event's date, for the
 * implicit day 1) only with `change.confirm` (docs/decisions/145): its check-ins stay on the day,
 * and doors scanning it admit on the new date from then on.
 * @returns the event as it is now.
 * @throws ServiceError `not_found`, `bad_request` (nothing to change), `validation_failed` (with
 *   `field`), `conflict` (archived; a day with check-ins, `field` `days`), `confirmation_required`
 *   (a day with check-ins moved without `confirm`; `field` its date: `days.<i>.date` or `date`).
 */
export async function updateEvent(db: Db, eventId: string, change: EventChange, actor: Actor): Promise<EventDetails> {
  const { confirm = false, ...settings } = change;
  if (Object.values(settings).every((value) => value === undefined)) {
    throw new ServiceError('bad_request', 'Nothing to change: give at least one setting of the event');
  }
  await inTransaction(db, async (tx) => {
    const row = await lockEvent(tx, eventId);
    if (row.archivedAt) throw new ServiceError('conflict', 'This event is archived: restore it before changing it.');
    const before = await snapshotEvent(tx, row.id);
    const next = parseEventRequest({
      title: before.title,
      description: before.description,
      date: before.date,
      location: before.location,
      status: before.status as EventStatus,
      timeZone: before.timeZone,
      dayCutoff: before.dayCutoff,
      allowsScanningOutsideDays: before.allowsScanningOutsideDays,
      capacity: before.capacity ?? null,
      days: before.days,
      ...withoutUndefined(settings),
    });
    await refuseRemovingDaysWithCheckIns(tx, row.id, daysOrDefault(before.days, before.date), daysOrDefault(next.days, next.date));
    if (!confirm) await refuseMovingDaysWithCheckIns(tx, row.id, before, next);
    const { days, ...eventSettings } = next;
    await tx.update(events).set({ ...eventSettings, capacity: eventSettings.capacity ?? null }).where(eq(events.id, row.id));
    // The venue's places follow its capacity, the guests inside now holding the first (docs/decisions/147).
    if ((eventSettings.capacity ?? null) !== row.capacity || eventSettings.timeZone !== row.timeZone) {
      await syncEventPlaces(tx, { eventId: row.id, capacity: eventSettings.capacity ?? null, timeZone: eventSettings.timeZone }, new Date());
    }
    if (settings.days !== undefined) {
      const kept = days.map((day) => day.day);
      await tx.delete(eventDays).where(kept.length > 0 ? and(eq(eventDays.eventId, row.id), notInArray(eventDays.day, kept)) : eq(eventDays.eventId, row.id));
      if (days.length > 0) {
        await tx
          .insert(eventDays)
          .values(days.map((day) => ({ eventId: row.id, ...day })))
          .onConflictDoUpdate({ target: [eventDays.eventId, eventDays.day], set: { name: sql`excluded.name`, date: sql`excluded.date` } });
      }
    }
    await recordAudit(tx, actor, { organizationId: row.organizationId, eventId: row.id, action: 'event.updated', before, after: await snapshotEvent(tx, row.id) });
  });
  return findEvent(db, eventId);
}

/**
 * A change of an event (`updateEvent`): any of its settings, and `confirm` — the admin was told
 * that a day with check-ins moves to another date and moves it anyway (docs/decisions/145).
 */
export type EventChange = Partial<EventRequestDraft> & { confirm?: boolean | undefined };

/** `change` without its undefined fields (so they do not overwrite what is there). */
function withoutUndefined<T extends object>(change: T): Partial<T> {
  return Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * @throws ServiceError `conflict` (field `days`) when a day of `before` that is not in `after` has
 *   active check-ins: they would point at a day the event no longer has.
 */
async function refuseRemovingDaysWithCheckIns(tx: Tx, eventId: string, before: EventDayInfo[], after: EventDayInfo[]): Promise<void> {
  const removed = before.filter((day) => !after.some((kept) => kept.day === day.day)).map((day) => day.day);
  if (removed.length === 0) return;
  const held = await tx
    .select({ day: checkIns.day, value: count() })
    .from(checkIns)
    .where(and(eq(checkIns.eventId, eventId), inArray(checkIns.day, removed), isNull(checkIns.undoneAt)))
    .groupBy(checkIns.day)
    .orderBy(asc(checkIns.day));
  const [first] = held;
  if (!first) return;
  const name = before.find((day) => day.day === first.day)?.name ?? '';
  throw new ServiceError(
    'conflict',
    `Day ${first.day} (${name}) has ${first.value} check-in${first.value === 1 ? '' : 's'} and cannot be removed. Keep the day, or rename it.`,
    'days',
  );
}

/**
 * @throws ServiceError `confirmation_required` when a day kept by number in `after` has another date
 *   than in `before` and active check-ins (distinct tickets, as the management area counts them):
 *   its message names each such day, its check-ins and both dates; `field` is the first one's date
 *   (`days.<i>.date`, or `date` for the implicit day 1 of an event without configured days).
 */
async function refuseMovingDaysWithCheckIns(tx: Tx, eventId: string, before: EventSnapshot, after: EventRequest): Promise<void> {
  const afterDays = daysOrDefault(after.days, after.date);
  const moved = daysOrDefault(before.days, before.date).flatMap((day) => {
    const next = afterDays.find((kept) => kept.day === day.day);
    return next && next.date !== day.date ? [{ ...day, to: next.date }] : [];
  });
  if (moved.length === 0) return;
  const counts = (await countCheckedInByEventDay(tx, [eventId])).filter((entry) => entry.checkedIn > 0);
  const held = moved.flatMap((day) => {
    const checkedIn = counts.find((entry) => entry.day === day.day)?.checkedIn ?? 0;
    return checkedIn > 0 ? [{ ...day, checkedIn }] : [];
  });
  const [first] = held;
  if (!first) return;
  const words = held.map(
    (day) => `Day ${day.day} (${day.name}) has ${day.checkedIn} check-in${day.checkedIn === 1 ? '' : 's'} and would move from ${formatEventDate(day.date)} to ${formatEventDate(day.to)}`,
  );
  const index = after.days.findIndex((day) => day.day === first.day);
  throw new ServiceError(
    'confirmation_required',
    `${words.join('; ')}. The check-ins stay on the day; doors scanning it admit on the new date from then on. Confirm to move it.`,
    index >= 0 ? `days.${index}.date` : 'date',
  );
}

/**
 * Archives an event (docs/decisions/105): scanners are no longer offered it; its tickets,
 * check-ins and scan log stay. Only an event whose status admits no one (draft, completed,
 * cancelled) can be archived, so no door can still be admitting with it.
 * @throws ServiceError `not_found`; `conflict` when already archived or still admitting (field `status`).
 */
export async function archiveEvent(db: Db, eventId: string, actor: Actor): Promise<void> {
  await inTransaction(db, async (tx) => {
    const row = await lockEvent(tx, eventId);
    if (row.archivedAt) throw new ServiceError('conflict', 'This event is already archived.');
    if (isEventActive(row.status)) {
      throw new ServiceError('conflict', `This event is ${row.status}: set its status to completed, cancelled or draft before archiving it, so no door admits with it.`, 'status');
    }
    const before = await snapshotEvent(tx, row.id);
    await tx.update(events).set({ archivedAt: sql`now()` }).where(eq(events.id, row.id));
    await recordAudit(tx, actor, { organizationId: row.organizationId, eventId: row.id, action: 'event.archived', before, after: await snapshotEvent(tx, row.id) });
  });
}

/**
 * Brings an archived event back (docs/decisions/105), with the status it had.
 * @throws ServiceError `not_found`; `conflict` when it is not archived.
 */
export async function restoreEvent(db: Db, eventId: string, actor: Actor): Promise<void> {
  await inTransaction(db, async (tx) => {
    const row = await lockEvent(tx, eventId);
    if (!row.archivedAt) throw new ServiceError('conflict', 'This event is not archived.');
    const before = await snapshotEvent(tx, row.id);
    await tx.update(events).set({ archivedAt: null }).where(eq(events.id, row.id));
    await recordAudit(tx, actor, { organizationId: row.organizationId, eventId: row.id, action: 'event.restored', before, after: await snapshotEvent(tx, row.id) });
  });
}

/**
 * The events of `organizationId` as the management area shows them (archived ones too), by date:
 * every setting, the days with their check-in counts, tickets not revoked, active check-ins.
 */
export async function listManagedEvents(db: DbOrTx, organizationId: string): Promise<ManagedEvent[]> {
  const rows = await db.select().from(events).where(eq(events.organizationId, organizationId)).orderBy(asc(events.date), asc(events.title));
  return managedEvents(db, rows);
}

/**
 * One event as the management area shows it (see listManagedEvents).
 * @throws ServiceError `not_found`.
 */
export async function findManagedEvent(db: DbOrTx, eventId: string): Promise<ManagedEvent> {
  const rows = isId(eventId) ? await db.select().from(events).where(eq(events.id, eventId)) : [];
  const [event] = await managedEvents(db, rows);
  if (!event) throw new ServiceError('not_found', noSuchEventMessage(eventId));
  return event;
}

async function managedEvents(db: DbOrTx, rows: Array<typeof events.$inferSelect>): Promise<ManagedEvent[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const days = await db.select().from(eventDays).where(inArray(eventDays.eventId, ids)).orderBy(asc(eventDays.day));
  // The counts' own rule (a ticket once per day, whatever lists it was checked in at), not raw rows.
  const checkInsByDay = await countCheckedInByEventDay(db, ids);
  const ticketCounts = await db
    .select({ eventId: tickets.eventId, value: count() })
    .from(tickets)
    .where(and(inArray(tickets.eventId, ids), isNull(tickets.revokedAt)))
    .groupBy(tickets.eventId);
  return rows.map((row) => {
    const checkInsOf = (day: number) => checkInsByDay.find((entry) => entry.eventId === row.id && entry.day === day)?.checkedIn ?? 0;
    return {
      id: row.id,
      organizationId: row.organizationId,
      ...settingsOf(row),
      days: days.filter((day) => day.eventId === row.id).map((day) => ({ day: day.day, name: day.name, date: day.date, checkIns: checkInsOf(day.day) })),
      ticketCount: ticketCounts.find((entry) => entry.eventId === row.id)?.value ?? 0,
      checkInCount: checkInsByDay.filter((entry) => entry.eventId === row.id).reduce((sum, entry) => sum + entry.checkedIn, 0),
    };
  });
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
  /** Archived (docs/decisions/105): not offered for scanning. */
  isArchived: boolean;
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
      archivedAt: events.archivedAt,
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
  return rows.map(({ archivedAt, ...row }) => ({
    ...row,
    isArchived: archivedAt !== null,
    days: dayCounts.find((entry) => entry.eventId === row.id)?.value ?? 0,
    tickets: ticketCounts.find((entry) => entry.eventId === row.id)?.value ?? 0,
  }));
}
