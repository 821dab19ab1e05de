/**
 * Local (mapped) entities of SPEC §3. The wire shapes live in `@gatecheck/contract`; features map them
 * to these once, in their `api.ts`. Defined as zod schemas because they are also read back from
 * storage, where they are parsed rather than trusted.
 */
import { UserSettings } from '@gatecheck/contract/users';
import { z } from 'zod/mini';

/** Notification settings with SPEC §3 defaults applied: the contract's shape, every flag present. */
export { UserSettings };

/**
 * A door device this app was set up as (docs/decisions/107, 116): its own credential (`token`, kept
 * apart from the shift's, which the user's `token` then is), and the shift of whoever scans now
 * (`shiftName`, until `shiftEndsAt`, ISO 8601; absent: the app asks for a name first).
 */
export const DeviceCredential = z.object({
  id: z.string(),
  name: z.string(),
  organizationId: z.string(),
  eventId: z.string(),
  checkInListId: z.nullable(z.string()),
  token: z.string(),
  shiftName: z.optional(z.string()),
  shiftEndsAt: z.optional(z.string()),
});
export type DeviceCredential = z.infer<typeof DeviceCredential>;

/**
 * The signed-in user (SPEC §3). `joinedAt` is ISO 8601; `token` is the bearer token from login.
 * `device`: set when this app is a door device, not a person (docs/decisions/116).
 */
export const User = z.object({
  id: z.string(),
  name: z.string(),
  username: z.string(),
  email: z.string(),
  country: z.string(),
  joinedAt: z.string(),
  token: z.optional(z.string()),
  settings: UserSettings,
  device: z.optional(DeviceCredential),
});
export type User = z.infer<typeof User>;

/** An organization the user belongs to (SPEC §3), with the count of its active events. */
export const OrganizationItem = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  role: z.string(),
  activeEventCount: z.int().check(z.nonnegative()),
});
export type OrganizationItem = z.infer<typeof OrganizationItem>;

/** Statuses the client shows (SPEC §4); anything else from the server is shown as upcoming. */
export const DisplayEventStatus = z.enum(['live', 'draft', 'upcoming']);
export type DisplayEventStatus = z.infer<typeof DisplayEventStatus>;

/** One event day: day number (1-based), name, date (ISO 8601 date or date-time). */
export const EventDay = z.object({
  day: z.int().check(z.minimum(1)),
  name: z.string(),
  date: z.string(),
});
export type EventDay = z.infer<typeof EventDay>;

/** A check-in list as the scanner keeps it (docs/decisions/100, 109): its id and name. */
export const ChosenCheckInList = z.object({ id: z.string(), name: z.string() });
export type ChosenCheckInList = z.infer<typeof ChosenCheckInList>;

/**
 * The event day as stored under SPEC §3's `selectedDay`, with the check-in list scanned at
 * (docs/decisions/109), so the four storage keys stay the only ones. `checkInList`:
 * - absent: the event's first list (an event with one list, or a day stored before lists): no
 *   `checkInListId` is sent and the server checks in at its first list;
 * - null: the day is chosen and the event has several lists, the list is not chosen yet (the
 *   furthest step is the list choice on /day-select);
 * - a list: the one chosen, sent as `checkInListId` with every check-in call.
 */
export const SelectedDay = z.extend(EventDay, {
  checkInList: z.optional(z.nullable(ChosenCheckInList)),
  /**
   * How this device scans (docs/decisions/113): absent = entry (as before); 'exit' records exits at a
   * list that allows re-entry; 'info' (supervisors) shows a ticket's state without admitting it.
   * Kept here, inside `selectedDay`, so it survives a reload with no fifth storage key; choosing
   * another day or list starts again at entry.
   */
  scanMode: z.optional(z.catch(z.optional(z.enum(['exit', 'info'])), undefined)),
});
export type SelectedDay = z.infer<typeof SelectedDay>;

/** How the scanner checks a code: 'entry' (SPEC §7, the default), 'exit' or 'info' (`SelectedDay.scanMode`). */
export type ScanMode = 'entry' | 'exit' | 'info';

/**
 * An event (SPEC §3): `name` from title, `attendeeCount` from ticketsSold (default 0); plus its
 * calendar (issue 15: IANA `timeZone`, `dayCutoff` 'HH:MM', `allowsScanningOutsideDays`) and
 * `closedStatus`, why it cannot be scanned (its server status draft, completed, cancelled; 'closed'
 * for any other inactive one) or null; screens word it in the active language (decision 050). A
 * selection stored before had `closedReason` (English words) instead: read as null, since only an
 * open event can be chosen.
 */
export const EventItem = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  date: z.string(),
  location: z.string(),
  attendeeCount: z.int().check(z.nonnegative()),
  status: DisplayEventStatus,
  eventDays: z.array(EventDay),
  timeZone: z.string(),
  dayCutoff: z.string(),
  allowsScanningOutsideDays: z.boolean(),
  closedStatus: z._default(z.nullable(z.enum(['draft', 'completed', 'cancelled', 'closed'])), null),
});
export type EventItem = z.infer<typeof EventItem>;
