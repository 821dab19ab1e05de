/** Plain rules of the event-day step (SPEC §2 /day-select). */
import { DEFAULT_EVENT_DAY_NAME, DEFAULT_EVENT_DAY_NUMBER } from '@gatecheck/contract';
import type { EventDay, EventItem } from '@/lib/entities.ts';

/** The day used when an event has no days configured: day 1, the event date, 'Main Event' (SPEC §2). */
export function defaultEventDay(event: EventItem): EventDay {
  return { day: DEFAULT_EVENT_DAY_NUMBER, name: DEFAULT_EVENT_DAY_NAME, date: event.date };
}

/**
 * Whether an event day falls on `now`'s calendar date in the device's time zone, so the day list
 * can mark today's day (picking the wrong day at a door means wrong denials). `date` is the
 * event day's `YYYY-MM-DD` (a date-time is cut to its date); `now` defaults to the current time.
 */
export function isToday(date: string, now: Date = new Date()): boolean {
  const pad = (value: number) => String(value).padStart(2, '0');
  const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return date.slice(0, 10) === today;
}

/** 'Day 2' (SPEC §2). */
export function dayLabel(day: number): string {
  return `Day ${day}`;
}
