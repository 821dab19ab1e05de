/**
 * The check-in decision as a pure function (SEAMS §2, issue 15 item 4; docs/decisions/020): the
 * order of checks over plain rows — ticket, event with its calendar, selected day, existing check-in
 * and the clock `now` — with no I/O. The server feeds it rows from SQL (and keeps the exactly-once
 * `INSERT ... ON CONFLICT` in SQL); the device will feed it from its door list; the web reads the
 * calendar half to say 'not today' before anyone scans. One rule, two callers.
 *
 * The calendar (docs/decisions/021): an event day admits from 00:00 of its date until the event's
 * cut-off ('HH:MM', default 06:00) the next morning, on the wall clock of the event's IANA time zone,
 * so a night that runs to 05:59 is still that day and 06:00 is not. Wall-clock reading and calendar
 * arithmetic are done by date-fns + @date-fns/tz (DST included), never by hand-made offsets.
 */
import { TZDate, tz } from '@date-fns/tz';
import { addDays, format, parseISO } from 'date-fns';
import { INACTIVE_EVENT_STATUSES, type EventStatus } from './organizations.ts';
import type { CheckInDirection, ListDenial } from './check-in-lists.ts';
import type { DayDenial, DenialReason } from './tickets.ts';

/** When an event's days are open: its time zone, day cut-off and the rehearsal setting. */
export interface EventCalendar {
  /** IANA time zone of the venue, e.g. 'Europe/London'. */
  timeZone: string;
  /** 'HH:MM' (24 h, event time zone): an event day still admits until this time the next morning. */
  dayCutoff: string;
  /** Rehearsals: scans outside the event's days are decided as if on the chosen day. */
  allowsScanningOutsideDays: boolean;
  /** The event's days (never empty: an event without configured days has day 1 on its date). */
  days: readonly CalendarDay[];
}

/** One event day: number from 1, name, calendar date 'YYYY-MM-DD'. */
export interface CalendarDay {
  day: number;
  name: string;
  date: string;
}

/** The event as the decision reads it. */
export interface CheckInEvent extends EventCalendar {
  id: string;
  organizationId: string;
  status: EventStatus;
  /**
   * The venue's capacity across all its lists (docs/decisions/147; null or absent: none). The rule
   * does not count the venue: the server claims its place when it writes and denies `at_capacity`
   * there; decided without the server the entry says `isCapacityUnchecked`.
   */
  capacity?: number | null | undefined;
}

/** The scanned ticket as the decision reads it; null when no ticket has the scanned code. */
export interface CheckInTicket {
  eventId: string;
  /** The organization of the ticket's event. */
  organizationId: string;
  isRevoked: boolean;
  /** Day numbers the ticket admits; null = every day of its event. */
  admittedDays: readonly number[] | null;
  /**
   * The ticket's type (`tickets.ticket_type`), which check-in lists admit. Absent: not known (a signed
   * ticket decided offline without its door-list entry): only a list of every type admits it.
   */
  ticketType?: string | undefined;
  /**
   * Day numbers the ticket's type admits (docs/decisions/125); null or absent: every day. The ticket
   * admits a day only when both its own days and its type's do.
   */
  ticketTypeDays?: readonly number[] | null | undefined;
}

/**
 * A check-in list as the decision reads it (docs/decisions/100): `ticketTypes` it admits (null: every
 * type), `days` it admits (null: every day of the event).
 */
export interface CheckInListRule {
  id: string;
  name: string;
  ticketTypes: readonly string[] | null;
  days: readonly number[] | null;
  /** Exits are recorded and a guest who left may enter again (docs/decisions/111). Absent: false. */
  allowsReentry?: boolean | undefined;
  /** Most guests inside at once on a day; null or absent: no limit. */
  capacity?: number | null | undefined;
  /** 'HH:MM' (event time zone): everyone still inside is checked out then each day; null or absent: never. */
  dailyCheckoutTime?: string | null | undefined;
}

/** The ticket's check-in for the selected day, when there is one. */
export interface ExistingCheckIn {
  checkedInAt: Date;
  /** Display name of the staff member who made it. */
  checkedInBy: string;
  /**
   * The scan is a retry of one of the check-in's recorded movements (the same scanId by the same
   * staff member: its first entry, any re-entry or any exit; docs/decisions/130, 138). `checkedInAt`
   * is then that movement's time, and the rule answers it again whether the guest is inside or not.
   */
  isSameScan: boolean;
  /** With `isSameScan`: which way that movement went (absent: an entry). */
  sameScanDirection?: CheckInDirection | undefined;
  /**
   * Whether the guest is inside now (`isCheckInInside`: not exited, not checked out at the list's
   * daily checkout time). Absent: inside (a list without exits, as before).
   */
  isInside?: boolean | undefined;
}

/** Everything one decision needs. `now` is the clock (an instant). */
export interface CheckInInput {
  ticket: CheckInTicket | null;
  event: CheckInEvent;
  /** The day number the staff member chose. */
  day: number;
  existingCheckIn: ExistingCheckIn | null;
  now: Date;
  /**
   * The check-in list scanned at, and every list of the event in order (to name where the ticket is
   * valid instead). Absent: one list that admits every ticket on every day (as before lists; an older
   * door list). `existingCheckIn` is then the ticket's check-in on this list.
   */
  checkInList?: { list: CheckInListRule; lists: readonly CheckInListRule[] } | undefined;
  /** Which way the guest passes (docs/decisions/111); absent: entry. */
  direction?: CheckInDirection | undefined;
  /**
   * Guests inside through the list now, when known (the server's count, or the door list's at
   * download). Absent at a list with a capacity: the rule admits without the capacity check and
   * says so (`isCapacityUnchecked`): the server claims a place exactly when it writes; offline the
   * verdict says 'capacity not checked offline'.
   */
  insideNow?: number | undefined;
}

/**
 * The outcome: `check_in` (admit and record it now), `check_out` (record the exit now),
 * `checked_out_by_this_scan` (a retry of a recorded exit: answer it again), `checked_in_by_this_scan` (a retry: answer the
 * original approval again) or `denied` with the reason and a plain message.
 */
export type CheckInDecision =
  | {
      outcome: 'check_in';
      /** A guest who had left (or was checked out) enters again at a list that allows re-entry. */
      isReentry?: true;
      /** The list has a capacity and `insideNow` was not given: admitted without checking it. */
      isCapacityUnchecked?: true;
    }
  | { outcome: 'check_out' }
  | { outcome: 'checked_in_by_this_scan'; checkedInAt: Date }
  | { outcome: 'checked_out_by_this_scan'; exitedAt: Date }
  | {
      outcome: 'denied';
      reason: DenialReason;
      message: string;
      dayDenial?: DayDenial;
      listDenial?: ListDenial;
      capacityDenial?: { insideNow: number; capacity: number };
      checkedInAt?: Date;
      checkedInBy?: string;
    };

/** The gate's words for an event that admits no one, by status. */
const INACTIVE_EVENT_MESSAGES: Partial<Record<EventStatus, string>> = {
  draft: 'This event is not open yet: it is still a draft.',
  completed: 'This event has ended.',
  cancelled: 'This event was cancelled.',
};

/** The message for an unknown code, word for word also for another organization's ticket. */
export const TICKET_NOT_FOUND_MESSAGE = 'No ticket with this code exists.';
/** The words of a `wrong_event` denial: a ticket of another event of the organization. */
export const WRONG_EVENT_MESSAGE = 'This ticket is for a different event.';

/** Whether a ticket admitting `admittedDays` (null or absent: every day of its event) admits event day `day`. */
export function ticketAdmitsDay(admittedDays: readonly number[] | null | undefined, day: number): boolean {
  return !admittedDays || admittedDays.includes(day);
}

/**
 * The days a ticket admits with its type's (docs/decisions/125): the days both admit; null when
 * both admit every day.
 */
export function ticketAndTypeDays(admittedDays: readonly number[] | null, typeDays: readonly number[] | null | undefined): readonly number[] | null {
  if (!typeDays) return admittedDays;
  return admittedDays ? admittedDays.filter((day) => typeDays.includes(day)) : typeDays;
}

/**
 * Whether check-in list `list` admits a ticket of type `ticketType` (undefined: not known) on event
 * day `day`: its types are every type or name this one (exactly, as imported), and its days are every
 * day or list this one.
 */
export function listAdmits(list: Pick<CheckInListRule, 'ticketTypes' | 'days'>, ticketType: string | undefined, day: number): boolean {
  const isTypeAdmitted = list.ticketTypes === null || (ticketType !== undefined && list.ticketTypes.includes(ticketType));
  return isTypeAdmitted && (list.days === null || list.days.includes(day));
}

/**
 * A list denial in English words: 'Not valid at this entrance — valid at VIP Gate' (several: 'valid at
 * Main entrance and VIP Gate'); when no list admits the ticket that day: 'Not valid at this entrance —
 * no entrance admits this ticket today'.
 */
export function listDenialMessage(facts: ListDenial): string {
  if (facts.validAt.length === 0) return 'Not valid at this entrance — no entrance admits this ticket today';
  return `Not valid at this entrance — valid at ${joinWords(facts.validAt.map((list) => list.name))}`;
}

/** The verdict's words for an exit recorded (APPROVED, `direction: 'exit'`). */
export const EXIT_RECORDED_MESSAGE = 'Exit recorded';
/** `not_inside`: an exit of a guest who is not inside at the list. */
export const NOT_INSIDE_MESSAGE = 'Not inside';
/** What an offline verdict at a list with a capacity adds: the device cannot count the others. */
export const CAPACITY_NOT_CHECKED_OFFLINE_MESSAGE = 'capacity not checked offline';

/** `at_capacity` in English words: 'At capacity: 500 inside'. */
export function atCapacityMessage(insideNow: number): string {
  return `At capacity: ${insideNow} inside`;
}

/** Why an exit at a list without re-entry is refused (the server's 400; the rule's `not_inside` words offline). */
export function exitNotRecordedMessage(listName: string): string {
  return `${listName} does not allow re-entry: exits are not recorded there.`;
}

/**
 * The last daily checkout of a list at or before `now` (docs/decisions/111): the latest instant
 * whose wall clock in `timeZone` reads `checkoutTime` ('HH:MM'), today's if it has passed, else
 * yesterday's. A wall time that a DST change skips is taken as date-fns' TZDate takes it (moved
 * forward by the gap). Null when `checkoutTime` is null or absent.
 */
export function lastDailyCheckout(timeZone: string, checkoutTime: string | null | undefined, now: Date): Date | null {
  if (!checkoutTime) return null;
  const wall = wallClock(timeZone, now);
  const date = wall.time >= checkoutTime ? wall.date : addCalendarDays(wall.date, -1);
  const [year, month, dayOfMonth] = date.split('-').map(Number);
  const [hours, minutes] = checkoutTime.split(':').map(Number);
  return new Date(new TZDate(year ?? 1970, (month ?? 1) - 1, dayOfMonth ?? 1, hours ?? 0, minutes ?? 0, timeZone).getTime());
}

/**
 * Whether a check-in's guest is inside at `now`: not exited since the last entry (`exitedAt` null)
 * and, when the list has a daily checkout time, entered (`lastEnteredAt`) at or after the last
 * checkout (`lastDailyCheckout`). A check-in that is undone is never inside (callers pass only
 * active ones).
 */
export function isCheckInInside(
  checkIn: { lastEnteredAt: Date; exitedAt: Date | null },
  list: Pick<CheckInListRule, 'dailyCheckoutTime'>,
  calendar: Pick<EventCalendar, 'timeZone'>,
  now: Date,
): boolean {
  if (checkIn.exitedAt !== null) return false;
  const checkout = lastDailyCheckout(calendar.timeZone, list.dailyCheckoutTime, now);
  return checkout === null || checkIn.lastEnteredAt.getTime() >= checkout.getTime();
}

/**
 * Decides one scan. An exit (`direction: 'exit'`, docs/decisions/111) checks `not_found` and
 * `wrong_event`, then: at a list without re-entry `not_inside` (the server refuses such a request
 * with a 400 before asking), the retry of a recorded movement (`checked_out_by_this_scan`, or
 * `checked_in_by_this_scan` when that scan was an entry: docs/decisions/138), a guest not inside
 * `not_inside` ('Not inside'), otherwise `check_out`.
 * An entry checks, in this order (docs/decisions/015, 020): `not_found` (no ticket, or a
 * ticket of another organization's event: nothing leaks across organizations), `wrong_event`,
 * `event_not_active` (draft, completed, cancelled), `revoked`, `not_valid_today` (the event has no
 * such day, or the ticket or its type does not admit it: 'This ticket is for Day 2, Sat 24 Nov'), `not_event_day`
 * (the chosen day is not open at `now` on the event's calendar, unless the event allows scanning
 * outside its days), `not_on_list` (the check-in list scanned at does not admit the ticket's type on
 * the day: the facts name the lists that do, docs/decisions/100), then the existing check-in on that
 * list: the same scan retried (`checked_in_by_this_scan`, inside or not, docs/decisions/130; its
 * exit's answer when that scan recorded an exit, 138), a
 * re-entry of a guest who left, or `already_checked_in`. Pure: same input, same answer.
 */
export function decideCheckIn(input: CheckInInput): CheckInDecision {
  const { ticket, event, day, existingCheckIn, now } = input;
  if (!ticket || ticket.organizationId !== event.organizationId) return deny('not_found', TICKET_NOT_FOUND_MESSAGE);
  if (ticket.eventId !== event.id) return deny('wrong_event', WRONG_EVENT_MESSAGE);
  const { checkInList } = input;
  if (input.direction === 'exit') {
    if (checkInList && !checkInList.list.allowsReentry) return deny('not_inside', exitNotRecordedMessage(checkInList.list.name));
    // A retry of the scan that recorded a movement is that movement, whatever happened since
    // (docs/decisions/138): never a second exit, never 'Not inside'.
    if (existingCheckIn?.isSameScan) return sameScanAnswer(existingCheckIn);
    if (!existingCheckIn || existingCheckIn.isInside === false) return deny('not_inside', NOT_INSIDE_MESSAGE);
    return { outcome: 'check_out' };
  }
  if (!isEventActive(event.status)) return deny('event_not_active', INACTIVE_EVENT_MESSAGES[event.status] ?? 'This event is not open for check-in.');
  if (ticket.isRevoked) return deny('revoked', 'This ticket has been revoked.');
  const selected = event.days.find((entry) => entry.day === day);
  if (!selected) return denyDay('not_valid_today', { kind: 'no_such_day', day });
  const admittedDays = ticketAndTypeDays(ticket.admittedDays, ticket.ticketTypeDays);
  if (!ticketAdmitsDay(admittedDays, day)) {
    const admitted = event.days.filter((entry) => ticketAdmitsDay(admittedDays, entry.day)).map(namedDay);
    return denyDay('not_valid_today', { kind: 'ticket_days', day, admitted });
  }
  if (!event.allowsScanningOutsideDays && !isEventDayOpen(event, selected, now)) {
    return denyDay('not_event_day', notEventDayFacts(event, selected, now));
  }
  if (checkInList && !listAdmits(checkInList.list, ticket.ticketType, day)) {
    const listDenial: ListDenial = {
      checkInList: namedList(checkInList.list),
      validAt: checkInList.lists.filter((list) => listAdmits(list, ticket.ticketType, day)).map(namedList),
    };
    return { outcome: 'denied', reason: 'not_on_list', message: listDenialMessage(listDenial), listDenial };
  }
  // A retry of the scan that made an entry is that entry, inside or left since: never a second
  // entry, never at capacity (docs/decisions/130, 138).
  if (existingCheckIn?.isSameScan) return sameScanAnswer(existingCheckIn);
  const list = checkInList?.list;
  const isReentry = existingCheckIn !== null && existingCheckIn.isInside === false && list?.allowsReentry === true;
  if (existingCheckIn && !isReentry) {
    return {
      outcome: 'denied',
      reason: 'already_checked_in',
      message: `This ticket was already checked in for day ${day} by ${existingCheckIn.checkedInBy}.`,
      checkedInAt: existingCheckIn.checkedInAt,
      checkedInBy: existingCheckIn.checkedInBy,
    };
  }
  const capacity = list?.capacity ?? null;
  if (capacity !== null && input.insideNow !== undefined && input.insideNow >= capacity) {
    return { outcome: 'denied', reason: 'at_capacity', message: atCapacityMessage(input.insideNow), capacityDenial: { insideNow: input.insideNow, capacity } };
  }
  return {
    outcome: 'check_in',
    ...(isReentry ? { isReentry: true as const } : {}),
    ...((capacity !== null && input.insideNow === undefined) || (input.event.capacity ?? null) !== null ? { isCapacityUnchecked: true as const } : {}),
  };
}

/** The answer to a retry of a recorded movement: that entry's or that exit's, at its time. */
function sameScanAnswer(existing: ExistingCheckIn): CheckInDecision {
  if (existing.sameScanDirection === 'exit') return { outcome: 'checked_out_by_this_scan', exitedAt: existing.checkedInAt };
  return { outcome: 'checked_in_by_this_scan', checkedInAt: existing.checkedInAt };
}

/** Whether tickets of an event with `status` may admit anyone (not draft, completed or cancelled). */
export function isEventActive(status: string): boolean {
  return !INACTIVE_EVENT_STATUSES.some((inactive) => inactive === status);
}

/**
 * The event's "today" at `now`: the calendar date ('YYYY-MM-DD') on the event's wall clock, or the
 * day before while it is earlier than the cut-off (the night is still running).
 */
export function eventToday(calendar: Pick<EventCalendar, 'timeZone' | 'dayCutoff'>, now: Date): string {
  const wall = wallClock(calendar.timeZone, now);
  return wall.time < calendar.dayCutoff ? addCalendarDays(wall.date, -1) : wall.date;
}

/**
 * Whether event day `day` admits at `now`: from 00:00 of its date until the cut-off the next morning,
 * on the event's wall clock. Two days overlap between midnight and the cut-off; both admit then.
 */
export function isEventDayOpen(calendar: Pick<EventCalendar, 'timeZone' | 'dayCutoff'>, day: Pick<CalendarDay, 'date'>, now: Date): boolean {
  const wall = wallClock(calendar.timeZone, now);
  const date = day.date.slice(0, 10);
  if (wall.date === date) return true;
  return wall.date === addCalendarDays(date, 1) && wall.time < calendar.dayCutoff;
}

/** A time zone's wall clock as `wallClock` read it, and the second (ms since 1970 / 1000, floored) it holds for. */
interface WallClockReading {
  second: number;
  wall: { readonly date: string; readonly time: string };
}

/** The last reading per time zone (`wallClock`). */
const wallClockReadings = new Map<string, WallClockReading>();
/** Time zones remembered at most; a server sees a handful (one per venue), so this only bounds a misuse. */
const MAX_REMEMBERED_ZONES = 64;

/**
 * The wall clock of IANA `timeZone` at `now`: its date ('yyyy-MM-dd') and time ('HH:mm'), as
 * date-fns formats them in @date-fns/tz's zone (DST included). The reading is remembered per zone for
 * the second it was made in, and answered again for any `now` in that second: the wall clock depends
 * only on the zone and the instant, UTC offsets (and the instants they change) are whole seconds, and
 * formatting in a zone costs about 15 µs a call, twice a scan, which a busy door would pay on every
 * scan (25–40 µs of a verify measured, docs/performance.md).
 * @throws RangeError for a time zone date-fns cannot read, or an invalid `now` (as `format` does),
 *   remembering nothing.
 */
export function wallClock(timeZone: string, now: Date): { readonly date: string; readonly time: string } {
  const second = Math.floor(now.getTime() / 1000);
  const remembered = wallClockReadings.get(timeZone);
  if (remembered?.second === second) return remembered.wall;
  const zone = tz(timeZone);
  const wall = Object.freeze({ date: format(now, 'yyyy-MM-dd', { in: zone }), time: format(now, 'HH:mm', { in: zone }) });
  if (!remembered && wallClockReadings.size >= MAX_REMEMBERED_ZONES) wallClockReadings.clear();
  wallClockReadings.set(timeZone, { second, wall });
  return wall;
}

/** The event day that is today at `now` (see `eventToday`), or null when none is. */
export function todaysEventDay<Day extends CalendarDay>(calendar: Pick<EventCalendar, 'timeZone' | 'dayCutoff'> & { days: readonly Day[] }, now: Date): Day | null {
  const today = eventToday(calendar, now);
  return calendar.days.find((entry) => entry.date.slice(0, 10) === today) ?? null;
}

/**
 * The facts of why `day` does not admit at `now` (a `not_event_day` DayDenial): whether its date is
 * past, the event day that is today (or null) and the event's first and last dates. A client words
 * them (the web in English or German); `dayDenialMessage` words them in English.
 */
export function notEventDayFacts(calendar: EventCalendar, day: CalendarDay, now: Date): Extract<DayDenial, { kind: 'not_event_day' }> {
  const today = eventToday(calendar, now);
  const current = todaysEventDay(calendar, now);
  const dates = calendar.days.map((entry) => entry.date.slice(0, 10)).sort();
  const date = day.date.slice(0, 10);
  return {
    kind: 'not_event_day',
    selected: namedDay(day),
    isPast: date < today,
    today: current ? namedDay(current) : null,
    firstDate: dates[0] ?? date,
    lastDate: dates[dates.length - 1] ?? date,
  };
}

/**
 * Why `day` does not admit at `now`, in the event's words: 'Day 1 (Opening Night) was Sun 22 Nov.
 * Today is Day 2, Mon 23 Nov.' or 'Day 1 (Talks) is Mon 7 Dec, not today. The event runs Mon 7 Dec
 * to Tue 8 Dec.'
 */
export function notEventDayMessage(calendar: EventCalendar, day: CalendarDay, now: Date): string {
  return dayDenialMessage(notEventDayFacts(calendar, day, now));
}

/**
 * A calendar denial in English words (the verdict's `message`): 'This event has no day 4.', 'This
 * ticket is for Day 1, Mon 23 Nov and Day 3, Wed 25 Nov.', 'This ticket is not valid on day 1.',
 * 'Day 1 (Opening Night) was Sun 22 Nov. Today is Day 2, Mon 23 Nov.', 'Day 1 (Talks) is Mon 7 Dec,
 * not today. The event is on Mon 7 Dec.'
 */
export function dayDenialMessage(facts: DayDenial): string {
  switch (facts.kind) {
    case 'no_such_day':
      return `This event has no day ${facts.day}.`;
    case 'ticket_days':
      return facts.admitted.length > 0 ? `This ticket is for ${joinWords(facts.admitted.map(dayWithDate))}.` : `This ticket is not valid on day ${facts.day}.`;
    case 'not_event_day': {
      const { selected, isPast } = facts;
      const opening = `Day ${selected.day} (${selected.name}) ${isPast ? 'was' : 'is'} ${formatEventDate(selected.date)}${isPast ? '.' : ', not today.'}`;
      if (facts.today) return `${opening} Today is ${dayWithDate(facts.today)}.`;
      return `${opening} ${eventRunsWords(facts.firstDate, facts.lastDate)}`;
    }
  }
}

/** 'The event is on Mon 7 Dec.' or 'The event runs Mon 7 Dec to Wed 9 Dec.' */
export function eventRunsText(calendar: Pick<EventCalendar, 'days'>): string {
  const dates = calendar.days.map((entry) => entry.date.slice(0, 10)).sort();
  const first = dates[0];
  const last = dates[dates.length - 1];
  if (first === undefined || last === undefined) return '';
  return eventRunsWords(first, last);
}

function eventRunsWords(first: string, last: string): string {
  return first === last ? `The event is on ${formatEventDate(first)}.` : `The event runs ${formatEventDate(first)} to ${formatEventDate(last)}.`;
}

/** 'Sat 24 Nov' for '2026-11-24' (English, as the gate reads it). */
export function formatEventDate(date: string): string {
  return format(parseISO(date.slice(0, 10), { in: tz('UTC') }), 'EEE d MMM');
}

/** 'Day 2, Sat 24 Nov'. */
function dayWithDate(day: Pick<CalendarDay, 'day' | 'date'>): string {
  return `Day ${day.day}, ${formatEventDate(day.date)}`;
}

/** `date` ('YYYY-MM-DD') moved by `days` calendar days (negative = back), as 'YYYY-MM-DD'. */
export function addCalendarDays(date: string, days: number): string {
  return format(addDays(parseISO(date, { in: tz('UTC') }), days), 'yyyy-MM-dd');
}

/** 'a', 'a and b', 'a, b and c'. */
function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

function deny(reason: Exclude<DenialReason, 'already_checked_in' | 'at_capacity'>, message: string): CheckInDecision {
  return { outcome: 'denied', reason, message };
}

/** A calendar denial: the facts and their English words. */
function denyDay(reason: 'not_valid_today' | 'not_event_day', dayDenial: DayDenial): CheckInDecision {
  return { outcome: 'denied', reason, message: dayDenialMessage(dayDenial), dayDenial };
}

/** The list's id and name, without its rules. */
function namedList(list: CheckInListRule): { id: string; name: string } {
  return { id: list.id, name: list.name };
}

/** The day's number, name and date ('YYYY-MM-DD'), without any other field it carries. */
function namedDay(day: CalendarDay): CalendarDay {
  return { day: day.day, name: day.name, date: day.date.slice(0, 10) };
}
