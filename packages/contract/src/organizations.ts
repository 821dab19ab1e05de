/**
 * Organizations and their events as the scanning flow reads them (SPEC §3, §7):
 * GET /organizations/membership and GET /organizations/membership/{organizationId}.
 * Ids are opaque strings (`_id` on the wire).
 */
import { z } from 'zod';
import { requestText } from './text.ts';

/**
 * Membership roles, lowest first (issue 11, docs/decisions/037): `staff` scans and enters ticket
 * ids; `supervisor` also searches attendees, checks in from search, undoes check-ins and reads the
 * scan log; `admin` also manages memberships. SPEC §6: the client displays the role as a badge.
 */
export const MembershipRole = z.enum(['staff', 'supervisor', 'admin']).meta({ id: 'MembershipRole' });
export type MembershipRole = z.infer<typeof MembershipRole>;

/** Whether `role` grants what `needed` grants (staff < supervisor < admin). */
export function hasRoleAtLeast(role: MembershipRole, needed: MembershipRole): boolean {
  return MembershipRole.options.indexOf(role) >= MembershipRole.options.indexOf(needed);
}

/** An active event as listed inside an organization card (only its count is shown, SPEC §2). */
export const ActiveEventSummary = z.object({
  _id: z.string(),
  title: z.string(),
}).meta({ id: 'ActiveEventSummary' });
export type ActiveEventSummary = z.infer<typeof ActiveEventSummary>;

/** One organization the user belongs to, with the user's role in it. */
export const Organization = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  /** Our server sends a MembershipRole; a client shows any string it gets (SPEC §6: displayed only). */
  role: z.union([MembershipRole, z.string()]),
  activeEvents: z.array(ActiveEventSummary),
}).meta({ id: 'Organization' });
export type Organization = z.infer<typeof Organization>;

export const OrganizationList = z.array(Organization).meta({ id: 'OrganizationList' });
export type OrganizationList = z.infer<typeof OrganizationList>;

/** Event statuses stored by the server. The client shows live, draft or upcoming (SPEC §4). */
export const EventStatus = z.enum(['live', 'draft', 'upcoming', 'active', 'completed', 'cancelled']);
export type EventStatus = z.infer<typeof EventStatus>;

/** One event day: day number (1-based), name, date (ISO 8601 calendar date, YYYY-MM-DD). */
export const EventDay = z.object({
  day: z.number().int().min(1),
  name: z.string(),
  date: z.string(),
}).meta({ id: 'EventDay' });
export type EventDay = z.infer<typeof EventDay>;

/**
 * The one day of an event that has no days configured: day 1, on the event's date, named
 * 'Main Event' (SPEC §2 /day-select). The server admits tickets on it; the client offers it.
 */
export const DEFAULT_EVENT_DAY_NUMBER = 1;
export const DEFAULT_EVENT_DAY_NAME = 'Main Event';

/** Event statuses whose tickets admit no one (verify denies with `event_not_active`). */
export const INACTIVE_EVENT_STATUSES = ['draft', 'completed', 'cancelled'] as const satisfies readonly EventStatus[];

/**
 * The time zone an event's days are on the wall clock of: an IANA name such as 'Europe/London'.
 * Validated with the platform's own time-zone database (Intl), so a typo is refused at the door of
 * the CLI instead of denying every ticket later.
 */
export const TimeZone = z
  .string()
  .min(1)
  .max(64)
  .refine(isValidTimeZone, { message: 'Unknown time zone (use an IANA name such as Europe/London)' });

/** Whether `name` is a time zone this platform knows (IANA names, case as in the database; 'UTC'). */
export function isValidTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** An event's zone when none was set (events created before zones existed): UTC. */
export const DEFAULT_EVENT_TIME_ZONE = 'UTC';

/**
 * The wall-clock time ('HH:MM', 24 h, event time zone) until which an event day still admits the
 * next morning, for nights that run past midnight (issue 15). '00:00' = the day ends at midnight.
 */
export const DayCutoff = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Use HH:MM (24-hour), e.g. 06:00');

/** The cut-off when none is set: 06:00 the next morning. */
export const DEFAULT_DAY_CUTOFF = '06:00';

/** An event as the server sends it (SPEC §3). `date` is an ISO 8601 date or date-time. */
export const Event = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string().nullish(),
  date: z.string(),
  location: z.string().nullish(),
  ticketsSold: z.number().int().nullish(),
  /** Our server sends an EventStatus; a client shows any other string as upcoming (SPEC §4). */
  status: z.union([EventStatus, z.string()]),
  eventDays: z.array(EventDay).nullish(),
  /**
   * Beside the SPEC fields (issue 15), so the client can say 'not today' as the server decides it:
   * the event's IANA time zone, its day cut-off ('HH:MM') and whether it admits outside its days
   * (rehearsals). Optional on the wire: a server without them means UTC, 06:00, no.
   */
  timeZone: z.string().optional(),
  dayCutoff: z.string().optional(),
  allowsScanningOutsideDays: z.boolean().optional(),
}).meta({ id: 'Event' });
export type Event = z.infer<typeof Event>;

export const EventList = z.array(Event).meta({ id: 'EventList' });
export type EventList = z.infer<typeof EventList>;

/** Path params of GET /organizations/membership/{organizationId}. */
export const OrganizationParams = z.object({
  organizationId: requestText().min(1).max(64),
});
export type OrganizationParams = z.infer<typeof OrganizationParams>;
