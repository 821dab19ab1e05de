/**
 * The live door (docs/decisions/117): GET /events/{eventId}/days/{day}/live answers, for supervisors
 * and admins of the event's organization, one event day at a glance — checked in / expected per
 * ticket type and per check-in list, arrivals per list in 5-minute slots, the scan rate now, denials
 * by reason and the event's door devices. The page asks again every LIVE_DOOR_POLL_MS; every
 * server instance reads the database, so a scan on any instance shows on every watcher.
 * CSV exports of the same day: the arrivals per list and slot, and the scan log.
 */
import { z } from 'zod';
import { DeviceSummary } from './devices.ts';

/** Width of an arrivals slot, in minutes: slots start at :00, :05, :10 ... of the hour (UTC-aligned). */
export const ARRIVALS_SLOT_MINUTES = 5;
/** The window of 'the scan rate now', in seconds: scans (approved or denied) in the last minute. */
export const SCAN_RATE_WINDOW_SECONDS = 60;
/** How often the live page asks for the figures (ms); a scan anywhere shows within this plus one request. */
export const LIVE_DOOR_POLL_MS = 2_000;

/** Checked in / expected of one ticket type or check-in list on the day. */
const Progress = {
  /** Tickets checked in that day (distinct tickets for a type; check-ins at the list for a list). */
  checkedIn: z.number().int().min(0),
  /** Tickets not revoked that admit the day (and, for a list, that the list admits). */
  validTickets: z.number().int().min(0),
};

/** One ticket type's figures: distinct tickets of the type checked in that day, and those that admit it. */
export const LiveTicketType = z.object({ name: z.string(), ...Progress }).meta({ id: 'LiveTicketType' });
export type LiveTicketType = z.infer<typeof LiveTicketType>;

/** Arrivals in one slot: `at` the slot's start (ISO 8601, UTC), `count` the check-ins made in it that were not undone. */
export const ArrivalSlot = z.object({ at: z.iso.datetime(), count: z.number().int().min(1) }).meta({ id: 'ArrivalSlot' });
export type ArrivalSlot = z.infer<typeof ArrivalSlot>;

/** One check-in list's figures, with its arrivals per slot (only slots with arrivals, oldest first). */
/**
 * One check-in list's line: checked in / expected, guests inside now through it (entries not exited
 * and not checked out at its daily time, docs/decisions/111) and its capacity (null: none).
 */
export const LiveCheckInList = z
  .object({
    id: z.string(),
    name: z.string(),
    ...Progress,
    insideNow: z.number().int().min(0),
    capacity: z.number().int().min(1).nullable(),
    arrivals: z.array(ArrivalSlot),
  })
  .meta({ id: 'LiveCheckInList' });
export type LiveCheckInList = z.infer<typeof LiveCheckInList>;

/** Denied scans of the day with one reason (a verify denial reason, e.g. `already_checked_in`). */
export const LiveDenials = z.object({ reason: z.string(), count: z.number().int().min(1) }).meta({ id: 'LiveDenials' });
export type LiveDenials = z.infer<typeof LiveDenials>;

/**
 * The live figures of one event day. `checkedIn`/`validTickets` as GET …/counts (distinct tickets).
 * Arrivals are check-ins at their scan time (an offline scan's device time), undone ones left out.
 * `scansLastMinute`: scan-log rows approved, denied or exited (door movements; info scans and
 * undos left out) received in the SCAN_RATE_WINDOW_SECONDS before `generatedAt` (the server's
 * clock). `devices`: the event's door devices not revoked. `occupancy.inside`: distinct guests
 * inside now through any list of the event (as GET …/counts `insideNow`); `occupancy.capacity`
 * the event's own capacity (docs/decisions/147), null when it has none (a list's capacity is shown
 * on its line).
 */
export const LiveDoor = z
  .object({
    eventId: z.string(),
    day: z.number().int(),
    generatedAt: z.iso.datetime(),
    slotMinutes: z.number().int(),
    ...Progress,
    ticketTypes: z.array(LiveTicketType),
    lists: z.array(LiveCheckInList),
    scansLastMinute: z.number().int().min(0),
    denials: z.array(LiveDenials),
    devices: z.array(DeviceSummary),
    occupancy: z.object({ inside: z.number().int().min(0), capacity: z.number().int().min(0).nullable() }),
  })
  .meta({ id: 'LiveDoor' });
export type LiveDoor = z.infer<typeof LiveDoor>;

/** `?day=` of the scan log CSV export: only that day (every day when absent). */
export const ScanLogCsvQuery = z.object({ day: z.coerce.number().int().min(1).max(366).optional() });
export type ScanLogCsvQuery = z.infer<typeof ScanLogCsvQuery>;

/** Columns of the arrivals CSV: the list, the slot's start and end (ISO 8601, UTC) and the arrivals in it. */
export const ARRIVALS_CSV_COLUMNS = ['check_in_list', 'slot_start', 'slot_end', 'arrivals'] as const;

/**
 * The live door's Fastify route patterns (supervisor+), kept out of `apiPaths` (the sign-in screen's
 * first load carries that one). Concrete paths: `liveDoorPaths`.
 */
export const liveDoorRoutes = {
  live: '/events/:eventId/days/:day/live',
  arrivalsCsv: '/events/:eventId/days/:day/arrivals.csv',
  scanLogCsv: '/events/:eventId/scan-log.csv',
} as const;

/** The concrete paths of the live door calls. */
export const liveDoorPaths = {
  live: (eventId: string, day: number) => `/events/${encodeURIComponent(eventId)}/days/${day}/live`,
  arrivalsCsv: (eventId: string, day: number) => `/events/${encodeURIComponent(eventId)}/days/${day}/arrivals.csv`,
  scanLogCsv: (eventId: string) => `/events/${encodeURIComponent(eventId)}/scan-log.csv`,
} as const;
