/**
 * Organizations and their events as the scanning flow reads them (SPEC §3, §7):
 * GET /organizations/membership and GET /organizations/membership/{organizationId}.
 * Ids are opaque strings (`_id` on the wire).
 */
import { z } from 'zod';

/** Membership roles stored by the server; the client only displays them (SPEC §6). */
export const MembershipRole = z.enum(['owner', 'admin', 'staff']);
export type MembershipRole = z.infer<typeof MembershipRole>;

/** An active event as listed inside an organization card (only its count is shown, SPEC §2). */
export const ActiveEventSummary = z.object({
  _id: z.string(),
  title: z.string(),
});
export type ActiveEventSummary = z.infer<typeof ActiveEventSummary>;

/** One organization the user belongs to, with the user's role in it. */
export const Organization = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  role: z.string(),
  activeEvents: z.array(ActiveEventSummary),
});
export type Organization = z.infer<typeof Organization>;

export const OrganizationList = z.array(Organization);
export type OrganizationList = z.infer<typeof OrganizationList>;

/** Event statuses stored by the server. The client shows live, draft or upcoming (SPEC §4). */
export const EventStatus = z.enum(['live', 'draft', 'upcoming', 'active', 'completed', 'cancelled']);
export type EventStatus = z.infer<typeof EventStatus>;

/** One event day: day number (1-based), name, date (ISO 8601 calendar date, YYYY-MM-DD). */
export const EventDay = z.object({
  day: z.number().int().min(1),
  name: z.string(),
  date: z.string(),
});
export type EventDay = z.infer<typeof EventDay>;

/**
 * The one day of an event that has no days configured: day 1, on the event's date, named
 * 'Main Event' (SPEC §2 /day-select). The server admits tickets on it; the client offers it.
 */
export const DEFAULT_EVENT_DAY_NUMBER = 1;
export const DEFAULT_EVENT_DAY_NAME = 'Main Event';

/** Event statuses whose tickets admit no one (verify denies with `event_not_active`). */
export const INACTIVE_EVENT_STATUSES = ['draft', 'completed', 'cancelled'] as const satisfies readonly EventStatus[];

/** An event as the server sends it (SPEC §3). `date` is an ISO 8601 date or date-time. */
export const Event = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string().nullish(),
  date: z.string(),
  location: z.string().nullish(),
  ticketsSold: z.number().int().nullish(),
  status: z.string(),
  eventDays: z.array(EventDay).nullish(),
});
export type Event = z.infer<typeof Event>;

export const EventList = z.array(Event);
export type EventList = z.infer<typeof EventList>;

/** Path params of GET /organizations/membership/{organizationId}. */
export const OrganizationParams = z.object({
  organizationId: z.string().min(1).max(64),
});
export type OrganizationParams = z.infer<typeof OrganizationParams>;
