/**
 * Ticket verification, POST /tickets/verify (SPEC §7). Exactly one check-in per ticket per event
 * day. A denial is a verdict (`isValid: false` with a `reason`), never an HTTP error.
 */
import { z } from 'zod';
import { CheckInDirection, CheckInListId, ListDenial } from './check-in-lists.ts';
import { requestText } from './text.ts';

/** Longest QR payload accepted, in characters. */
export const QR_CODE_MAX_LENGTH = 512;

/**
 * Body: eventId, qrCode (the scanned text), day (day number); `scanId` makes a retry idempotent.
 * `qrCode` is the one request text not held to `requestText`: a camera decoding a damaged or binary
 * code can produce ill-formed text, and a code that cannot be a ticket is a verdict (DENIED,
 * `not_found`), not a 400 (issue 15 item 18).
 */
export const VerifyTicketRequest = z
  .object({
    eventId: requestText().min(1).max(64),
    qrCode: z.string().trim().min(1).max(QR_CODE_MAX_LENGTH),
    day: z.number().int().min(1).max(366),
    scanId: requestText().uuid().optional(),
    /**
     * The check-in list scanned at (docs/decisions/100); absent: the event's first list, as before
     * lists. A list of another event is a 400 `bad_request` and nothing is written.
     */
    checkInListId: CheckInListId.optional(),
    /**
     * `entry` (absent: entry, as before) or `exit` (docs/decisions/111). An exit at a list that does
     * not allow re-entry is a 400 `bad_request` and nothing is written or logged.
     */
    direction: CheckInDirection.optional(),
  })
  .meta({ id: 'VerifyTicketRequest' });
export type VerifyTicketRequest = z.infer<typeof VerifyTicketRequest>;

/**
 * Why a ticket was denied. `event_not_active`: the event is a draft, completed or cancelled, so no
 * ticket of it admits anyone. `not_valid_today`: the ticket does not admit the chosen day (or the
 * event has no such day). `not_event_day`: the chosen day is not today at the event (issue 15;
 * see check-in-rules.ts). `not_on_list`: the check-in list scanned at does not admit the ticket's type
 * on the chosen day ('Not valid at this entrance — valid at VIP Gate', docs/decisions/100).
 * `not_inside`: an exit of a guest who is not inside at that list (never entered, already left, or
 * checked out at the list's daily checkout time): 'Not inside' (docs/decisions/111).
 * `at_capacity`: an entry at a list whose inside-now has reached its capacity: 'At capacity: 500
 * inside' (`capacityDenial` carries the numbers).
 */
export const DenialReason = z.enum([
  'not_found',
  'wrong_event',
  'not_valid_today',
  'revoked',
  'already_checked_in',
  'event_not_active',
  'not_event_day',
  'not_on_list',
  'not_inside',
  'at_capacity',
]).meta({ id: 'DenialReason' });
export type DenialReason = z.infer<typeof DenialReason>;

/**
 * What the door must see for this ticket (docs/decisions/102, check-in-notes.ts), on APPROVED and
 * on DENIED `already_checked_in` (the guest at the door holds a real ticket of this event and staff
 * settle it with the note in view); absent on every other verdict and for tickets without them.
 * `checkInNote`: the ticket's and its type's notes, one per line. `requiresAttention`: play the
 * attention sound and vibration, not the plain approval's.
 */
const verdictAttention = {
  checkInNote: z.string().optional(),
  requiresAttention: z.boolean().optional(),
};

/**
 * The door's state after a verdict at a list that counts its guests inside — it allows re-entry or
 * has a capacity (docs/decisions/111, 120): `insideNow` guests inside through that list on the day
 * once this entry or exit is recorded, and its `capacity` (null: none), so a scanner updates its
 * header ('Inside now: 41 / 50') without asking for the counts again. An approval (entry or exit)
 * at such a list carries both; an `at_capacity` denial carries them too. Absent at a list that does
 * not count (a client then keeps the counts it has), and on other denials.
 */
const verdictOccupancy = {
  insideNow: z.number().int().min(0).optional().describe('Guests inside through the check-in list on the day after this verdict; only at a list that allows re-entry or has a capacity.'),
  capacity: z.number().int().min(1).nullable().optional().describe("The check-in list's capacity (null: none); sent with insideNow."),
};

/**
 * APPROVED: the check-in was recorded now (or, for a retried `scanId`, earlier by this same scan).
 * `direction` 'exit': an exit was recorded ('Exit recorded'), `exitedAt` its time; 'entry' or
 * absent: an entry (a re-entry too, `checkedInAt` then the time of this entry).
 */
export const ApprovedVerdict = z.object({
  isValid: z.literal(true),
  eventName: z.string().optional(),
  holderName: z.string().optional(),
  ticketType: z.string().optional(),
  checkedInAt: z.string().optional(),
  direction: CheckInDirection.optional(),
  exitedAt: z.string().optional(),
  ...verdictOccupancy,
  ...verdictAttention,
}).meta({ id: 'ApprovedVerdict' });
export type ApprovedVerdict = z.infer<typeof ApprovedVerdict>;

/** An event day as a day denial names it: number from 1, name, calendar date 'YYYY-MM-DD'. */
const NamedDay = z.object({ day: z.number().int(), name: z.string(), date: z.string() });

/**
 * The facts behind a calendar denial (`not_valid_today`, `not_event_day`), so that a client words
 * them in its own language (issue 10 item 9) instead of showing the English `message`:
 * - `no_such_day`: the event has no day `day` ('This event has no day 4.').
 * - `ticket_days`: the ticket does not admit day `day`; `admitted` are the event days it does admit
 *   ('This ticket is for Day 2, Sat 24 Nov.'; empty: 'This ticket is not valid on day 1.').
 * - `not_event_day`: day `selected` is not open now on the event's calendar; `isPast` when its date
 *   is before the event's today, `today` the event day that is today (null when none is), and
 *   `firstDate`/`lastDate` the event's first and last day dates ('Day 1 (Talks) is Mon 7 Dec, not
 *   today. The event runs Mon 7 Dec to Tue 8 Dec.').
 */
export const DayDenial = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('no_such_day'), day: z.number().int() }),
  z.object({ kind: z.literal('ticket_days'), day: z.number().int(), admitted: z.array(NamedDay) }),
  z.object({
    kind: z.literal('not_event_day'),
    selected: NamedDay,
    isPast: z.boolean(),
    today: NamedDay.nullable(),
    firstDate: z.string(),
    lastDate: z.string(),
  }),
]).meta({ id: 'DayDenial' });
export type DayDenial = z.infer<typeof DayDenial>;

/**
 * DENIED, with the reason; for `already_checked_in`, when and by whom the first check-in was made.
 * `message`: the reason in English words; `dayDenial`, `listDenial`: the facts behind a calendar or
 * list reason, for a client that words them itself.
 */
export const DeniedVerdict = z.object({
  isValid: z.literal(false),
  // A reason this app does not know (a newer server's, docs/decisions/094) reads as none: still DENIED.
  reason: DenialReason.optional().catch(undefined),
  message: z.string().optional(),
  dayDenial: DayDenial.optional(),
  /** For `not_on_list`: the list scanned at and the lists that admit the ticket on the day. */
  listDenial: ListDenial.optional(),
  /** For `at_capacity`: the guests inside through the list now and its capacity ('At capacity: 500 inside'). */
  capacityDenial: z.object({ insideNow: z.number().int().min(0), capacity: z.number().int().min(1) }).optional(),
  /** The way the scan was (absent: entry). */
  direction: CheckInDirection.optional(),
  ...verdictOccupancy,
  checkedInAt: z.string().optional(),
  checkedInBy: z.string().optional(),
  ...verdictAttention,
}).meta({ id: 'DeniedVerdict' });
export type DeniedVerdict = z.infer<typeof DeniedVerdict>;

export const VerifyTicketResponse = z.discriminatedUnion('isValid', [ApprovedVerdict, DeniedVerdict]).meta({ id: 'VerifyTicketResponse' });
export type VerifyTicketResponse = z.infer<typeof VerifyTicketResponse>;
