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
 * One check-in list. `ticketTypes`: the ticket types it admits (`ticketType` of a ticket, as
 * imported), null = every type. `days`: the day numbers it admits, null = every day of the event.
 */
export const CheckInList = z.object({
  id: z.string(),
  name: z.string(),
  position: z.number().int(),
  ticketTypes: z.array(z.string()).nullable(),
  days: z.array(z.number().int()).nullable(),
}).meta({ id: 'CheckInList' });
export type CheckInList = z.infer<typeof CheckInList>;

/** The answer of GET /events/{eventId}/check-in-lists: every list of the event, first list first (never empty). */
export const CheckInLists = z.object({
  eventId: z.string(),
  lists: z.array(CheckInList),
}).meta({ id: 'CheckInLists' });
export type CheckInLists = z.infer<typeof CheckInLists>;

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
