/**
 * Supervisor tools (issue 11): attendee search, manual check-in from a search result, undo of a
 * check-in with a reason, and the scan log. Every call is for one event
 * (`/events/{eventId}/...`) and needs the `supervisor` role or higher in the event's organization
 * (`hasRoleAtLeast`, organizations.ts); the server enforces it (docs/decisions/037).
 */
import { z } from 'zod';
import { CheckInDirection, CheckInListId } from './check-in-lists.ts';
import { requestText } from './text.ts';
import { VerifyTicketResponse } from './tickets.ts';

/** Fewest characters of a search (after trimming): nothing is listed before that (issue 11). */
export const ATTENDEE_SEARCH_MIN_LENGTH = 3;
/** Longest search text, in characters. */
export const ATTENDEE_SEARCH_MAX_LENGTH = 100;
/** Most attendees one search answers; `hasMore` says when there were more. */
export const ATTENDEE_SEARCH_LIMIT = 50;

/** Longest undo reason, in characters. */
export const UNDO_REASON_MAX_LENGTH = 500;

/** Scan log page size when none is asked for, and the most one page holds. */
export const SCAN_LOG_DEFAULT_LIMIT = 50;
export const SCAN_LOG_MAX_LIMIT = 200;

/** Path params of every supervisor call on an event. */
export const EventParams = z.object({
  eventId: requestText().min(1).max(64),
});
export type EventParams = z.infer<typeof EventParams>;

/** Path params of a call on one ticket of an event. */
export const EventTicketParams = z.object({
  eventId: requestText().min(1).max(64),
  ticketId: requestText().min(1).max(64),
});
export type EventTicketParams = z.infer<typeof EventTicketParams>;

/** A day number in a query string ('2' → 2). */
const queryDay = z.coerce.number().int().min(1).max(366);

/**
 * GET /events/{eventId}/attendees?q=&day=: `q` is a holder name (any word's start, any letter case,
 * with or without accents) or the start of a ticket code, at least 3 characters after trimming
 * (fewer → 400). Wildcards (`%`, `_`) and SQL-looking text are plain text. `day` is the selected day
 * whose check-in status the results show.
 */
export const AttendeeSearchQuery = z.object({
  q: requestText().trim().min(ATTENDEE_SEARCH_MIN_LENGTH).max(ATTENDEE_SEARCH_MAX_LENGTH),
  day: queryDay,
  /** The check-in list whose check-ins the results show (docs/decisions/100); default the event's first. */
  checkInListId: CheckInListId.optional(),
});
export type AttendeeSearchQuery = z.infer<typeof AttendeeSearchQuery>;

/**
 * The active check-in of a ticket on a day: when (ISO 8601) and by whom (display name). At a list
 * that allows re-entry (docs/decisions/111): `isInside` whether the guest is inside now, `exitedAt`
 * the last exit (ISO 8601; null: not left since the last entry), `lastEnteredAt` the last entry.
 * Absent from older servers: inside.
 */
export const AttendeeCheckIn = z.object({
  checkedInAt: z.string(),
  checkedInBy: z.string(),
  isInside: z.boolean().optional(),
  exitedAt: z.string().nullable().optional(),
  lastEnteredAt: z.string().optional(),
}).meta({ id: 'AttendeeCheckIn' });
export type AttendeeCheckIn = z.infer<typeof AttendeeCheckIn>;

/**
 * One search result: the ticket, the days it admits (`admittedDays` null = every day of the
 * event; its own days with its type's, docs/decisions/125, as the door decides — [] when they
 * share none), whether it is revoked (`revokedAt`, ISO 8601, or null) and its check-in on the selected
 * day (null when not checked in).
 */
export const Attendee = z.object({
  ticketId: z.string(),
  code: z.string(),
  holderName: z.string(),
  ticketType: z.string(),
  admittedDays: z.array(z.number().int()).nullable(),
  revokedAt: z.string().nullable(),
  day: z.number().int(),
  checkIn: AttendeeCheckIn.nullable(),
  /** The ticket's and its type's check-in notes, one per line (docs/decisions/102); absent when none. */
  checkInNote: z.string().optional(),
  /** Present (true) when the ticket or its type asks staff to look up before admitting. */
  requiresAttention: z.boolean().optional(),
}).meta({ id: 'Attendee' });
export type Attendee = z.infer<typeof Attendee>;

/** The answer of a search: at most ATTENDEE_SEARCH_LIMIT attendees, by holder name. */
export const AttendeeSearchResponse = z.object({
  attendees: z.array(Attendee),
  hasMore: z.boolean(),
}).meta({ id: 'AttendeeSearchResponse' });
export type AttendeeSearchResponse = z.infer<typeof AttendeeSearchResponse>;

/**
 * POST /events/{eventId}/attendees/{ticketId}/check-in: the same check-in as a scan (same rules,
 * exactly once per day), logged as manual. `scanId` makes a retry idempotent as for verify.
 * The answer is a verify verdict (VerifyTicketResponse).
 */
export const ManualCheckInRequest = z.object({
  day: z.number().int().min(1).max(366),
  scanId: requestText().uuid().optional(),
  /** The check-in list (docs/decisions/100); default the event's first. Another event's: 400. */
  checkInListId: CheckInListId.optional(),
  /** `entry` (default) or `exit` (docs/decisions/111); an exit at a list without re-entry: 400. */
  direction: CheckInDirection.optional(),
}).meta({ id: 'ManualCheckInRequest' });
export type ManualCheckInRequest = z.infer<typeof ManualCheckInRequest>;
export const ManualCheckInResponse = VerifyTicketResponse;

/**
 * POST /events/{eventId}/attendees/{ticketId}/undo-check-in: removes the ticket's check-in on
 * `day` (so it can be admitted again), recording who, when and `reason` (required). 409 when the
 * ticket is not checked in that day.
 */
export const UndoCheckInRequest = z.object({
  day: z.number().int().min(1).max(366),
  reason: requestText().trim().min(1).max(UNDO_REASON_MAX_LENGTH),
  /**
   * Undo only what this scan made (the scanner's recent scans): its check-in when it was the first
   * entry, or its re-entry and the movements since (docs/decisions/138). When the ticket's active
   * check-in has no entry of this scan (another gate's, or one made again since), 409
   * `check_in_changed` and nothing is undone. Without it (Find attendee), the ticket's active
   * check-in on `day`.
   */
  scanId: z.uuid().optional(),
  /**
   * The check-in list of the check-in (docs/decisions/100); default the event's first, or with
   * `scanId` whichever list that scan checked in at. Another event's: 400.
   */
  checkInListId: CheckInListId.optional(),
}).meta({ id: 'UndoCheckInRequest' });
export type UndoCheckInRequest = z.infer<typeof UndoCheckInRequest>;

/**
 * The recorded undo: the check-in it removed and who removed it, when (ISO 8601) and why. An undo
 * removes the whole check-in of the day at that list, entries and exits alike
 * (docs/decisions/111): `exitedAt` the exit it removed with it (null: the guest was inside, who
 * then no longer counts as inside; a guest who had left already did not count). The undo of a
 * re-entry's scan removes that re-entry and what followed it (docs/decisions/138): `checkedInAt` is
 * the re-entry's time, `exitedAt` the exit after it removed with it; the guest is out since the exit
 * before it, and the first entry stands.
 */
export const UndoCheckInResponse = z.object({
  ticketId: z.string(),
  day: z.number().int(),
  checkedInAt: z.string(),
  exitedAt: z.string().nullable().optional(),
  undoneAt: z.string(),
  undoneBy: z.string(),
  reason: z.string(),
}).meta({ id: 'UndoCheckInResponse' });
export type UndoCheckInResponse = z.infer<typeof UndoCheckInResponse>;

/**
 * Scan log verdicts: a verify approved (an entry) or denied, a check-in undone, an exit recorded
 * (`exited`, docs/decisions/111), or a supervisor's info scan that admitted nobody (`info`).
 */
export const ScanLogVerdict = z.enum(['approved', 'denied', 'undone', 'exited', 'info']).meta({ id: 'ScanLogVerdict' });
export type ScanLogVerdict = z.infer<typeof ScanLogVerdict>;

/**
 * How a scan log entry came: a scan (camera or typed code), a manual check-in from search, an undo,
 * or a scan decided offline on a device and uploaded later (issue 12, docs/decisions/045).
 */
export const ScanLogSource = z.enum(['scan', 'manual', 'undo', 'offline']).meta({ id: 'ScanLogSource' });
export type ScanLogSource = z.infer<typeof ScanLogSource>;

/**
 * GET /events/{eventId}/scan-log?day=&verdict=&limit=&cursor=: newest first. `cursor` is the
 * `nextCursor` of the previous page (opaque).
 */
export const ScanLogQuery = z.object({
  day: queryDay.optional(),
  verdict: ScanLogVerdict.optional(),
  limit: z.coerce.number().int().min(1).max(SCAN_LOG_MAX_LIMIT).default(SCAN_LOG_DEFAULT_LIMIT),
  cursor: requestText().max(200).optional(),
});
export type ScanLogQuery = z.infer<typeof ScanLogQuery>;

/**
 * One scan log entry: when (ISO 8601), the gate user (display name), the code as scanned, the
 * verdict and reason (a denial reason, `forbidden` in rows written before decision 086, or the
 * undo's reason; null when approved), and for an offline scan sent by a colleague, who sent it.
 */
export const ScanLogEntry = z.object({
  id: z.string(),
  at: z.string(),
  day: z.number().int(),
  userName: z.string(),
  code: z.string(),
  verdict: ScanLogVerdict,
  reason: z.string().nullable(),
  source: ScanLogSource,
  /**
   * An offline scan sent by someone else than its maker (`userName`), signed in later on the same
   * device (decision 077): the sender's display name. Absent or null otherwise.
   */
  sentBy: z.string().nullable().optional(),
  /**
   * When the server received the scan (ISO 8601, its own clock): for an offline scan, its upload —
   * `at` is then the device's claimed scan time (decision 088); otherwise the same as `at`. Absent
   * from older servers.
   */
  receivedAt: z.string().optional(),
  /** The check-in list of the attempt (docs/decisions/111); absent for rows written before. */
  checkInListId: z.string().nullable().optional(),
  /** `exit` for a denied exit (`not_inside`) as well as for `exited`; absent: entry. */
  direction: CheckInDirection.optional(),
}).meta({ id: 'ScanLogEntry' });
export type ScanLogEntry = z.infer<typeof ScanLogEntry>;

/** One page of the scan log; `nextCursor` null on the last page. */
export const ScanLogPage = z.object({
  entries: z.array(ScanLogEntry),
  nextCursor: z.string().nullable(),
}).meta({ id: 'ScanLogPage' });
export type ScanLogPage = z.infer<typeof ScanLogPage>;
