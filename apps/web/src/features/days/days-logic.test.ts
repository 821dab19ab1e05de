import { expect, test } from 'vitest';
import { testEventWithoutDays } from '@/test/fixtures.ts';
import { dayLabel, defaultEventDay, isToday } from './days-logic.ts';

test('an event without days is scanned as day 1, on the event date, named Main Event (SPEC §2)', () => {
  expect(defaultEventDay(testEventWithoutDays)).toEqual({ day: 1, name: 'Main Event', date: '2026-08-01' });
});

test('days are labelled Day {n}', () => {
  expect(dayLabel(1)).toBe('Day 1');
  expect(dayLabel(12)).toBe('Day 12');
});

test('the day on the device\'s calendar date is today, in local time, whatever the hour', () => {
  expect(isToday('2026-11-21', new Date(2026, 10, 21, 0, 5))).toBe(true);
  expect(isToday('2026-11-21', new Date(2026, 10, 21, 23, 55))).toBe(true);
  expect(isToday('2026-11-21T00:00:00.000Z', new Date(2026, 10, 21, 12, 0))).toBe(true);
  expect(isToday('2026-11-20', new Date(2026, 10, 21, 0, 5))).toBe(false);
  expect(isToday('2026-11-22', new Date(2026, 10, 21, 23, 55))).toBe(false);
});
