/** Plain rules of the event-day step (SPEC §2 /day-select). */
import type { EventDay, EventItem } from '@/lib/entities.ts';

/** The day used when an event has no days configured: day 1, the event date, 'Main Event' (SPEC §2). */
export function defaultEventDay(event: EventItem): EventDay {
  return { day: 1, name: 'Main Event', date: event.date };
}

/** 'Day 2' (SPEC §2). */
export function dayLabel(day: number): string {
  return `Day ${day}`;
}
