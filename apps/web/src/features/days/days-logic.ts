/** Plain rules of the event-day step (SPEC §2 /day-select) and its calendar (issue 15). */
import { type EventCalendar, isEventDayOpen, notEventDayFacts, todaysEventDay } from '@gatecheck/contract/check-in-rules';
import { DEFAULT_EVENT_DAY_NAME, DEFAULT_EVENT_DAY_NUMBER } from '@gatecheck/contract/organizations';
import type { EventDay, EventItem } from '@/lib/entities.ts';
import { dayDenialText } from '@/lib/denial-text.ts';
import { t } from '@/lib/i18n/index.ts';

/** The day used when an event has no days configured: day 1, the event date, 'Main Event' (SPEC §2). */
export function defaultEventDay(event: EventItem): EventDay {
  return { day: DEFAULT_EVENT_DAY_NUMBER, name: DEFAULT_EVENT_DAY_NAME, date: event.date };
}

/** The event's calendar as the contract's rule reads it (its days, or the default day). */
function calendarOf(event: EventItem): EventCalendar {
  return {
    timeZone: event.timeZone,
    dayCutoff: event.dayCutoff,
    allowsScanningOutsideDays: event.allowsScanningOutsideDays,
    days: event.eventDays.length > 0 ? event.eventDays : [defaultEventDay(event)],
  };
}

/**
 * Whether `day` is the event's today at `now`: on the event's wall clock (its time zone), where a
 * night before the cut-off still counts as the day before — the same rule the server decides
 * check-ins by (contract `todaysEventDay`), not the device's date.
 */
export function isToday(event: EventItem, day: EventDay, now: Date): boolean {
  return todaysEventDay(calendarOf(event), now)?.day === day.day;
}

/**
 * The event's days in the order the day list shows them (decision 093): the day that is today at
 * `now` first (`isToday`'s rule: the event's time zone, the night before counting until its
 * cut-off), then the others by date (day number between days of one date). With no day today, all by
 * date; one day stays as it is. A new array; `event.eventDays` is left as it is.
 */
export function daysTodayFirst(event: EventItem, now: Date): EventDay[] {
  // Its own days only: an event without days has none to order (not the default day calendarOf adds).
  const today = todaysEventDay({ ...calendarOf(event), days: event.eventDays }, now);
  const byDate = [...event.eventDays].sort((a, b) => a.date.slice(0, 10).localeCompare(b.date.slice(0, 10)) || a.day - b.day);
  return today === null ? byDate : [today, ...byDate.filter((day) => day.day !== today.day)];
}

/**
 * The warning for scanning `day` at `now`, or null when the day admits now. Plain words naming the
 * right day, e.g. 'Not today — Day 1 (Opening Night) was Sun 22 Nov. Today is Day 2, Mon 23 Nov.
 * Tickets will be denied.'; for an event that allows scanning outside its days (rehearsals), says so.
 */
export function notTodayWarning(event: EventItem, day: EventDay, now: Date): string | null {
  const calendar = calendarOf(event);
  if (isEventDayOpen(calendar, day, now)) return null;
  const why = dayDenialText(notEventDayFacts(calendar, day, now));
  return calendar.allowsScanningOutsideDays
    ? t('days.notTodayRehearsal', { why })
    : t('days.notTodayDenied', { why });
}

/** 'Day 2' (SPEC §2). */
export function dayLabel(day: number): string {
  return t('days.dayLabel', { day });
}
