/**
 * Live counts of one event day (issue 10 item 4, docs/decisions/033): GET
 * /events/{eventId}/days/{day}/counts answers how many tickets were checked in that day and how many
 * tickets admit it, for the scanner header 'Checked in N / M'. Same sign-in and membership rules as
 * POST /tickets/verify (401 signed out, 403 non-member, 404 unknown event).
 */
import { z } from 'zod';
import { requestText } from './text.ts';

/**
 * Path params: the event id and the day number (path text of digits, read as an integer 1..366 like
 * verify's `day`; anything else — '0', '1.5', ' 2', '0x2', '1e2' — is a 400 `validation_failed`).
 */
export const CheckInCountsParams = z.object({
  eventId: requestText().min(1).max(64),
  day: z
    .string()
    .regex(/^[1-9]\d{0,2}$/, 'must be a day number from 1 to 366')
    .transform(Number)
    .pipe(z.number().int().min(1).max(366)),
});
export type CheckInCountsParams = z.infer<typeof CheckInCountsParams>;

/** `?checkInListId=`: also count that check-in list of the event (docs/decisions/100). */
export const CheckInCountsQuery = z.object({
  checkInListId: requestText().uuid().optional(),
});
export type CheckInCountsQuery = z.infer<typeof CheckInCountsQuery>;

/**
 * The counts of one check-in list on the day: `checkedIn` check-ins at that list, `validTickets` the
 * event's tickets not revoked that admit the day and that the list admits (its ticket types and days;
 * 0 on a day the list does not admit).
 */
export const CheckInListCounts = z.object({
  id: z.string(),
  name: z.string(),
  checkedIn: z.number().int().min(0),
  validTickets: z.number().int().min(0),
  /**
   * Guests inside now through this list on the day (docs/decisions/111): active check-ins not
   * exited and not checked out at the list's daily checkout time. At a list without re-entry and
   * without a daily checkout it equals `checkedIn`. Absent (older server).
   */
  insideNow: z.number().int().min(0).optional(),
  /** The list's capacity (null: none). Absent (older server). */
  capacity: z.number().int().min(1).nullable().optional(),
  /** Whether the list records exits. Absent (older server): false. */
  allowsReentry: z.boolean().optional(),
}).meta({ id: 'CheckInListCounts' });
export type CheckInListCounts = z.infer<typeof CheckInListCounts>;

/**
 * The counts of one event day. `checkedIn`: tickets checked in that day at any of the event's check-in
 * lists (a ticket checked in at two lists counts once; a denied scan or a re-scan adds none). `validTickets`: tickets of the event that admit that day —
 * not revoked, either valid every day or listing that day, and of a type that admits it too (its
 * days, docs/decisions/125); 0 for a day the event does not have.
 */
export const CheckInCounts = z
  .object({
    eventId: z.string(),
    day: z.number().int(),
    checkedIn: z.number().int().min(0),
    validTickets: z.number().int().min(0),
    /**
     * Distinct tickets inside now on the day through any list of the event (a ticket inside at two
     * lists counts once; docs/decisions/111). Absent (older server).
     */
    insideNow: z.number().int().min(0).optional(),
    /**
     * The event's capacity across all its lists (docs/decisions/147), the limit `insideNow` is held
     * to; absent or null: none (the server sends it only when the event has one).
     */
    capacity: z.number().int().min(1).nullable().optional(),
    /** The counts of the list asked for with `?checkInListId=`; absent when none was. */
    checkInList: CheckInListCounts.optional(),
  })
  .meta({ id: 'CheckInCounts' });
export type CheckInCounts = z.infer<typeof CheckInCounts>;
