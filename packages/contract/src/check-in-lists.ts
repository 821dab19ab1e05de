/**
 * Check-in lists (docs/decisions/100): an event's entrances and desks. Each list admits some ticket
 * types (all by default) on some days (all by default); a ticket is checked in at most once per list
 * and event day. Every event has at least one list; its first (`position` order) is where a client
 * that names no list checks in, so SPEC §7's verify body without `checkInListId` behaves as before.
 *
 * GET /events/{eventId}/check-in-lists: the event's lists in order, for the scanner to offer after
 * the day (any member of the event's organization, as verify; 404 for an unknown event and, alike,
 * for a non-member).
 */
import { z } from 'zod';
import { requestText } from './text.ts';

/** The name of the list every event gets: every ticket type, every day (docs/decisions/100). */
export const DEFAULT_CHECK_IN_LIST_NAME = 'All tickets';
/** Longest list name, in characters. */
export const CHECK_IN_LIST_NAME_MAX_LENGTH = 80;

/** A `checkInListId` in a request body: the id of one of the event's lists (400 `bad_request` otherwise). */
export const CheckInListId = requestText().uuid();

/**
 * Which way a guest passes the door (issue 26 item 3, docs/decisions/111): `entry` (default, as
 * before) or `exit`. An exit is only recorded at a list that allows re-entry; at any other list it
 * is a 400 `bad_request` and nothing is written.
 */
export const CheckInDirection = z.enum(['entry', 'exit']).meta({ id: 'CheckInDirection' });
export type CheckInDirection = z.infer<typeof CheckInDirection>;

/** Most guests a list's capacity may name. */
export const CHECK_IN_LIST_MAX_CAPACITY = 100_000;

/** A list's capacity: a whole number of guests inside at once, 1..CHECK_IN_LIST_MAX_CAPACITY, or null (none). */
export const CheckInListCapacity = z.number().int().min(1).max(CHECK_IN_LIST_MAX_CAPACITY);

/** A daily checkout time 'HH:MM' (24 h, the event's time zone). */
export const DailyCheckoutTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time 'HH:MM' (00:00 to 23:59)");

/**
 * One check-in list. `ticketTypes`: the ticket types it admits (`ticketType` of a ticket, as
 * imported), null = every type. `days`: the day numbers it admits, null = every day of the event.
 */
export const CheckInList = z.object({
  id: z.string(),
  name: z.string(),
  position: z.number().int(),
  ticketTypes: z.array(z.string()).nullable(),
  days: z.array(z.number().int()).nullable(),
  /**
   * Guests may leave and come back (docs/decisions/111): the scanner offers Entry / Exit, an exit of
   * a guest inside is recorded, the next entry is APPROVED again. False: one entry per ticket and
   * day, no exits (as before). Absent (older server): false.
   */
  allowsReentry: z.boolean().optional(),
  /** Most guests inside at once through this list on a day; null: no limit. Absent (older server): null. */
  capacity: CheckInListCapacity.nullable().optional(),
  /**
   * 'HH:MM' in the event's time zone: every guest still inside is checked out at this time each
   * day (computed, docs/decisions/111); null: never. Absent (older server): null.
   */
  dailyCheckoutTime: DailyCheckoutTime.nullable().optional(),
}).meta({ id: 'CheckInList' });
export type CheckInList = z.infer<typeof CheckInList>;

/** The answer of GET /events/{eventId}/check-in-lists: every list of the event, first list first (never empty). */
export const CheckInLists = z.object({
  eventId: z.string(),
  lists: z.array(CheckInList),
}).meta({ id: 'CheckInLists' });
export type CheckInLists = z.infer<typeof CheckInLists>;

/** Path params of one list: PATCH / DELETE /events/{eventId}/check-in-lists/{checkInListId}. */
export const CheckInListParams = z.object({
  eventId: requestText().min(1).max(64),
  checkInListId: requestText().min(1).max(64),
});
export type CheckInListParams = z.infer<typeof CheckInListParams>;

/**
 * POST /events/{eventId}/check-in-lists (admin or higher): a new list. `ticketTypes` null: every type
 * (a list must admit at least one: an empty array is a 400); `days` null: every day; `position`
 * 1 = first (default: after the last). A type the event does not know, a day it does not have, a
 * name it already has (any letter case), a capacity ≤ 0: 400 `bad_request` / `validation_failed`,
 * nothing written. Answers 201 with the `CheckInList`.
 */
export const CreateCheckInListRequest = z.object({
  name: requestText().trim().min(1).max(CHECK_IN_LIST_NAME_MAX_LENGTH),
  ticketTypes: z.array(requestText().trim().min(1).max(200)).min(1).max(200).nullable().default(null),
  days: z.array(z.number().int().min(1).max(366)).min(1).max(366).nullable().default(null),
  position: z.number().int().min(1).max(1000).optional(),
  allowsReentry: z.boolean().default(false),
  capacity: CheckInListCapacity.nullable().default(null),
  dailyCheckoutTime: DailyCheckoutTime.nullable().default(null),
}).meta({ id: 'CreateCheckInListRequest' });
export type CreateCheckInListRequest = z.infer<typeof CreateCheckInListRequest>;

/**
 * PATCH /events/{eventId}/check-in-lists/{checkInListId} (admin or higher): change a list; absent
 * fields stay, null clears (every type, every day, no capacity, no daily checkout). At least one
 * field (400 otherwise). Turning re-entry off while guests are inside is allowed: their exits are
 * no longer recorded; they stay checked in. Answers the `CheckInList` as it is now.
 * DELETE of the same path (admin or higher): 409 `conflict` when the list has check-ins or is the
 * event's only list; answers the deleted `CheckInList`.
 */
export const EditCheckInListRequest = z.object({
  name: requestText().trim().min(1).max(CHECK_IN_LIST_NAME_MAX_LENGTH).optional(),
  ticketTypes: z.array(requestText().trim().min(1).max(200)).min(1).max(200).nullable().optional(),
  days: z.array(z.number().int().min(1).max(366)).min(1).max(366).nullable().optional(),
  position: z.number().int().min(1).max(1000).optional(),
  allowsReentry: z.boolean().optional(),
  capacity: CheckInListCapacity.nullable().optional(),
  dailyCheckoutTime: DailyCheckoutTime.nullable().optional(),
}).meta({ id: 'EditCheckInListRequest' });
export type EditCheckInListRequest = z.infer<typeof EditCheckInListRequest>;

/** A list as a denial names it: id and name. */
export const NamedCheckInList = z.object({ id: z.string(), name: z.string() });
export type NamedCheckInList = z.infer<typeof NamedCheckInList>;

/**
 * The facts behind a `not_on_list` denial, so a client words them in its language: the list scanned
 * at, and the lists of the event that admit the ticket on the chosen day (`validAt`, in list order;
 * empty when none does). English: 'Not valid at this entrance — valid at VIP Gate'.
 */
export const ListDenial = z.object({
  checkInList: NamedCheckInList,
  validAt: z.array(NamedCheckInList),
}).meta({ id: 'ListDenial' });
export type ListDenial = z.infer<typeof ListDenial>;
