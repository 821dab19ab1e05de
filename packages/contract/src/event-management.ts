/**
 * The organizer's management of events (issue 30; docs/decisions/105, 106): what an admin of an
 * organization sends to create or edit an event and its days, what the management area reads back,
 * and the event's activity (audit trail). One schema validates the form in the browser, the API
 * request on the server and the admin CLI's options (through the events service), so the three
 * refuse the same input with the same words.
 *
 * Paths: `managePaths`. Every call needs the `admin` role in the event's organization: 403
 * `forbidden` for staff and supervisors, 404 `not_found` for everyone else (docs/decisions/086).
 */
import { z } from 'zod';
import { DayCutoff, EventStatus, TimeZone } from './organizations.ts';
import { CHECK_IN_LIST_MAX_CAPACITY } from './check-in-lists.ts';
import { requestText } from './text.ts';
import { TicketImportBatchSnapshot, TicketImportSnapshot, TicketSnapshot, TicketTypeSnapshot } from './ticket-management.ts';

/** Longest event title, in characters. */
export const EVENT_TITLE_MAX_LENGTH = 200;
/** Longest event description, in characters. */
export const EVENT_DESCRIPTION_MAX_LENGTH = 2000;
/** Longest event location, in characters. */
export const EVENT_LOCATION_MAX_LENGTH = 200;
/** Longest event-day name, in characters. */
export const EVENT_DAY_NAME_MAX_LENGTH = 100;
/** Most days an event can have (a festival season, not a year of days). */
export const EVENT_DAYS_MAX = 60;

/** Whether `value` is a calendar date 'YYYY-MM-DD' that exists (no 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() + 1 === month && date.getUTCDate() === day;
}

/** A calendar date 'YYYY-MM-DD' that exists. */
export const CalendarDate = z.string().refine(isCalendarDate, { message: 'Use a date that exists, as YYYY-MM-DD' });

/** One configured day of an event: its number (from 1), name and date. */
export const EventDayRequest = z.object({
  day: z.number().int('Use a whole number').min(1, 'Day numbers start at 1').max(999, 'Use a day number up to 999'),
  name: requestText().trim().min(1, 'Give the day a name').max(EVENT_DAY_NAME_MAX_LENGTH, `Use at most ${EVENT_DAY_NAME_MAX_LENGTH} characters`),
  date: CalendarDate,
});
export type EventDayRequest = z.infer<typeof EventDayRequest>;

/**
 * An event's capacity (docs/decisions/147): the most guests inside the venue at once through all its
 * check-in lists (a fire-safety limit), a whole number 1..CHECK_IN_LIST_MAX_CAPACITY. Null or absent
 * on create: none; absent on edit: unchanged, null: removed.
 */
export const EventCapacity = z
  .number('Use a whole number')
  .int('Use a whole number')
  .min(1, 'A capacity is at least 1 guest')
  .max(CHECK_IN_LIST_MAX_CAPACITY, `Use a capacity up to ${CHECK_IN_LIST_MAX_CAPACITY}`);

/**
 * An event as an admin creates or edits it: every setting the admin CLI has (issue 15's calendar
 * included). `days` empty = a single-day event (SPEC §2: day 1 'Main Event' on `date`). Day numbers
 * must differ; a refused number is reported on its own field (`days.<i>.day`).
 */
export const EventRequest = z
  .object({
    title: requestText().trim().min(1, 'Give the event a title').max(EVENT_TITLE_MAX_LENGTH, `Use at most ${EVENT_TITLE_MAX_LENGTH} characters`),
    description: requestText().trim().max(EVENT_DESCRIPTION_MAX_LENGTH, `Use at most ${EVENT_DESCRIPTION_MAX_LENGTH} characters`),
    date: CalendarDate,
    location: requestText().trim().max(EVENT_LOCATION_MAX_LENGTH, `Use at most ${EVENT_LOCATION_MAX_LENGTH} characters`),
    status: EventStatus,
    timeZone: TimeZone,
    dayCutoff: DayCutoff,
    allowsScanningOutsideDays: z.boolean(),
    /** The venue's capacity (`EventCapacity`); absent: none on create, unchanged on edit. */
    capacity: EventCapacity.nullable().optional(),
    days: z
      .array(EventDayRequest)
      .max(EVENT_DAYS_MAX, `An event has at most ${EVENT_DAYS_MAX} days`)
      .superRefine(
        (days, context) => {
          const seen = new Set<number>();
          (days as unknown[]).forEach((day, index) => {
            const number = typeof day === 'object' && day !== null && 'day' in day ? day.day : undefined;
            if (typeof number !== 'number' || !Number.isInteger(number)) return;
            if (seen.has(number)) context.addIssue({ code: 'custom', path: [index, 'day'], message: `Day ${number} is there twice` });
            seen.add(number);
          });
        },
        // Runs even when some day did not parse (by default a refinement is skipped then), so a form
        // shows a repeated number together with the other problems of its days; it reads only numbers.
        { when: () => true },
      ),
  })
  .meta({ id: 'EventRequest' });
export type EventRequest = z.infer<typeof EventRequest>;
/** What the form holds before parsing (the same fields). */
export type EventRequestDraft = z.input<typeof EventRequest>;

/**
 * An edit of an event (POST /manage/events/{id}): the whole `EventRequest` and `confirm`. A change
 * of date of a day that has check-ins (the event's date too, when it has no configured days: that is
 * day 1's) is answered 409 `confirmation_required`, naming the day and its check-ins, unless
 * `confirm` is true: the admin was told and moves it anyway (docs/decisions/145).
 */
export const UpdateEventRequest = EventRequest.extend({ confirm: z.boolean().optional() }).meta({ id: 'UpdateEventRequest' });
export type UpdateEventRequest = z.infer<typeof UpdateEventRequest>;

/** A day as the management area shows it, with how many check-ins it holds (a day with any cannot be removed). */
export const ManagedEventDay = z.object({
  day: z.number().int(),
  name: z.string(),
  date: z.string(),
  checkIns: z.number().int(),
}).meta({ id: 'ManagedEventDay' });
export type ManagedEventDay = z.infer<typeof ManagedEventDay>;

/** An event in the management area: every setting, whether it is archived, its ticket and check-in counts. */
export const ManagedEvent = z.object({
  id: z.string(),
  organizationId: z.string(),
  title: z.string(),
  description: z.string(),
  date: z.string(),
  location: z.string(),
  status: EventStatus,
  timeZone: z.string(),
  dayCutoff: z.string(),
  allowsScanningOutsideDays: z.boolean(),
  /** The venue's capacity across all its check-in lists (docs/decisions/147); null: none. Absent: older server. */
  capacity: z.number().int().min(1).nullable().optional(),
  /** Configured days by number; empty = one implicit day. */
  days: z.array(ManagedEventDay),
  /** ISO 8601 instant it was archived, or null (docs/decisions/105). */
  archivedAt: z.string().nullable(),
  /** Tickets not revoked. */
  ticketCount: z.number().int(),
  /** Check-ins over all days as the live counts count them: per day, a ticket once whatever check-in lists it was checked in at (docs/decisions/101). */
  checkInCount: z.number().int(),
}).meta({ id: 'ManagedEvent' });
export type ManagedEvent = z.infer<typeof ManagedEvent>;

export const ManagedEventList = z.array(ManagedEvent).meta({ id: 'ManagedEventList' });
export type ManagedEventList = z.infer<typeof ManagedEventList>;

/** What an audit entry of an event says was changed (docs/decisions/106). */
export const EventAuditAction = z.enum(['event.created', 'event.updated', 'event.archived', 'event.restored']);
export type EventAuditAction = z.infer<typeof EventAuditAction>;
/** What an audit entry of one of an event's check-in lists says was changed (docs/decisions/115). */
export const CheckInListAuditAction = z.enum(['check_in_list.created', 'check_in_list.updated', 'check_in_list.deleted']);
export type CheckInListAuditAction = z.infer<typeof CheckInListAuditAction>;
/** What an audit entry of an event's ticket types and tickets says was changed (docs/decisions/114). */
export const TicketAuditAction = z.enum([
  'ticket-type.created',
  'ticket-type.updated',
  'ticket-type.deleted',
  'ticket.updated',
  'ticket.revoked',
  'ticket.reinstated',
  'tickets.imported',
]);
export type TicketAuditAction = z.infer<typeof TicketAuditAction>;
/** Every action on an event's Activity page. */
export const AuditAction = z.enum([...EventAuditAction.options, ...CheckInListAuditAction.options, ...TicketAuditAction.options]);
export type AuditAction = z.infer<typeof AuditAction>;

/**
 * A check-in list as an audit entry records it (docs/decisions/115): its name, place, ticket types
 * (null: every type) and days (null: every day); the door settings of docs/decisions/111 when the
 * server keeps them.
 */
export const CheckInListSnapshot = z.object({
  checkInListId: z.string(),
  name: z.string(),
  position: z.number().int(),
  ticketTypes: z.array(z.string()).nullable(),
  days: z.array(z.number().int()).nullable(),
  allowsReentry: z.boolean().optional(),
  capacity: z.number().int().nullable().optional(),
  dailyCheckoutTime: z.string().nullable().optional(),
}).meta({ id: 'CheckInListSnapshot' });
export type CheckInListSnapshot = z.infer<typeof CheckInListSnapshot>;

/** An event as an audit entry records it before and after a change. */
export const EventSnapshot = z.object({
  title: z.string(),
  description: z.string(),
  date: z.string(),
  location: z.string(),
  status: z.string(),
  timeZone: z.string(),
  dayCutoff: z.string(),
  allowsScanningOutsideDays: z.boolean(),
  capacity: z.number().int().nullable().optional(),
  days: z.array(z.object({ day: z.number().int(), name: z.string(), date: z.string() })),
  archivedAt: z.string().nullable(),
}).meta({ id: 'EventSnapshot' });
export type EventSnapshot = z.infer<typeof EventSnapshot>;

/** What a ticket entry records before and after: a ticket type, a ticket, or an import batch (by its action). */
export const TicketAuditSnapshot = z.union([TicketTypeSnapshot, TicketSnapshot, TicketImportSnapshot, TicketImportBatchSnapshot]);
export type TicketAuditSnapshot = z.infer<typeof TicketAuditSnapshot>;

/** Who made a change: `user`, someone signed in (the management area); `cli`, the admin CLI on the server. */
const AuditActor = z.object({
  kind: z.enum(['user', 'cli']),
  name: z.string(),
});

/**
 * One line of an event's activity: who, when, what, before and after — of the event itself
 * (`event.*`, `EventSnapshot`), of one of its check-in lists (`check_in_list.*`,
 * `CheckInListSnapshot`) or of its ticket types and tickets (`ticket-type.*`, `ticket.*`,
 * `tickets.imported`, `TicketAuditSnapshot`). `before` null for a creation, `after` null for a deletion.
 */
export const EventAuditEntry = z.object({ id: z.string(), at: z.string(), actor: AuditActor, action: EventAuditAction, before: EventSnapshot.nullable(), after: EventSnapshot.nullable() });
export type EventAuditEntry = z.infer<typeof EventAuditEntry>;
export const CheckInListAuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  actor: AuditActor,
  action: CheckInListAuditAction,
  before: CheckInListSnapshot.nullable(),
  after: CheckInListSnapshot.nullable(),
});
export type CheckInListAuditEntry = z.infer<typeof CheckInListAuditEntry>;
export const TicketAuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  actor: AuditActor,
  action: TicketAuditAction,
  before: TicketAuditSnapshot.nullable(),
  after: TicketAuditSnapshot.nullable(),
});
export type TicketAuditEntry = z.infer<typeof TicketAuditEntry>;
export const AuditEntry = z.discriminatedUnion('action', [EventAuditEntry, CheckInListAuditEntry, TicketAuditEntry]).meta({ id: 'AuditEntry' });
export type AuditEntry = EventAuditEntry | CheckInListAuditEntry | TicketAuditEntry;

/** Whether `entry` is about one of the event's check-in lists. */
export function isCheckInListAuditEntry(entry: AuditEntry): entry is CheckInListAuditEntry {
  return CheckInListAuditAction.safeParse(entry.action).success;
}

/** Whether `entry` is about the event's ticket types or tickets (docs/decisions/114). */
export function isTicketAuditEntry(entry: AuditEntry): entry is TicketAuditEntry {
  return TicketAuditAction.safeParse(entry.action).success;
}

export const AuditEntryList = z.array(AuditEntry).meta({ id: 'AuditEntryList' });
export type AuditEntryList = z.infer<typeof AuditEntryList>;

/**
 * Changes to an organization itself, not to one of its events (docs/decisions/115, 116, 126): an
 * invitation sent, revoked or accepted; a member added, their role changed, removed; the
 * organization created by the admin CLI; a door device's enrollment made, the device renamed or
 * moved, revoked.
 */
export const OrganizationAuditAction = z.enum([
  'member.invited',
  'invitation.revoked',
  'invitation.accepted',
  'member.added',
  'member.role_changed',
  'member.removed',
  'organization.created',
  'device.enrollment_created',
  'device.updated',
  'device.revoked',
]);
export type OrganizationAuditAction = z.infer<typeof OrganizationAuditAction>;

/**
 * What an organization entry records before and after, as the service wrote it: the member's
 * (userId, name, email, role), the invitation's (email, role, …), the device's (id, name, event …).
 * Text, numbers, booleans and null by field name; a client shows the fields it knows.
 */
export const OrganizationAuditSnapshot = z.record(z.string(), z.unknown()).meta({ id: 'OrganizationAuditSnapshot' });
export type OrganizationAuditSnapshot = z.infer<typeof OrganizationAuditSnapshot>;

/** One line of an organization's activity (GET /manage/organizations/{id}/activity). */
export const OrganizationAuditEntry = z
  .object({
    id: z.string(),
    at: z.string(),
    actor: AuditActor,
    action: OrganizationAuditAction,
    before: OrganizationAuditSnapshot.nullable(),
    after: OrganizationAuditSnapshot.nullable(),
  })
  .meta({ id: 'OrganizationAuditEntry' });
export type OrganizationAuditEntry = z.infer<typeof OrganizationAuditEntry>;
export const OrganizationAuditEntryList = z.array(OrganizationAuditEntry).meta({ id: 'OrganizationAuditEntryList' });
export type OrganizationAuditEntryList = z.infer<typeof OrganizationAuditEntryList>;

/** Path params of the management calls on one event. */
export const ManagedEventParams = z.object({ eventId: requestText().min(1).max(64) });

/** Most activity entries one page answers (and the default). */
export const ACTIVITY_PAGE_MAX = 200;

/**
 * GET …/activity?before=&limit= (docs/decisions/126): the entries older than entry `before` (its
 * id, from the last entry of the page before; absent: the newest), at most `limit` (1 to
 * ACTIVITY_PAGE_MAX, default ACTIVITY_PAGE_MAX). A page shorter than `limit` is the last one.
 */
export const ActivityQuery = z.object({
  before: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(ACTIVITY_PAGE_MAX).default(ACTIVITY_PAGE_MAX),
});
export type ActivityQuery = z.infer<typeof ActivityQuery>;

/** The management area's calls (Fastify route patterns; build concrete paths with `managePaths`). */
export const manageRoutes = {
  organizationEvents: '/manage/organizations/:organizationId/events',
  event: '/manage/events/:eventId',
  archiveEvent: '/manage/events/:eventId/archive',
  restoreEvent: '/manage/events/:eventId/restore',
  eventActivity: '/manage/events/:eventId/activity',
  organizationActivity: '/manage/organizations/:organizationId/activity',
} as const;

/** '?before=…&limit=…' of an activity page ('' for the first page at the default size). */
export function activityQueryString(page: { before?: string | undefined; limit?: number | undefined }): string {
  const parts = [
    ...(page.before !== undefined ? [`before=${encodeURIComponent(page.before)}`] : []),
    ...(page.limit !== undefined ? [`limit=${page.limit}`] : []),
  ];
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** The concrete paths of the management calls. */
export const managePaths = {
  organizationEvents: (organizationId: string) => `/manage/organizations/${encodeURIComponent(organizationId)}/events`,
  event: (eventId: string) => `/manage/events/${encodeURIComponent(eventId)}`,
  archiveEvent: (eventId: string) => `/manage/events/${encodeURIComponent(eventId)}/archive`,
  restoreEvent: (eventId: string) => `/manage/events/${encodeURIComponent(eventId)}/restore`,
  eventActivity: (eventId: string, page: { before?: string | undefined; limit?: number | undefined } = {}) =>
    `/manage/events/${encodeURIComponent(eventId)}/activity${activityQueryString(page)}`,
  organizationActivity: (organizationId: string, page: { before?: string | undefined; limit?: number | undefined } = {}) =>
    `/manage/organizations/${encodeURIComponent(organizationId)}/activity${activityQueryString(page)}`,
} as const;
