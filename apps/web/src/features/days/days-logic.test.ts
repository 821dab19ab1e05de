import { expect, test } from 'vitest';
import { testEventWithoutDays } from '@/test/fixtures.ts';
import { dayLabel, defaultEventDay } from './days-logic.ts';

test('an event without days is scanned as day 1, on the event date, named Main Event (SPEC §2)', () => {
  expect(defaultEventDay(testEventWithoutDays)).toEqual({ day: 1, name: 'Main Event', date: '2026-08-01' });
});

test('days are labelled Day {n}', () => {
  expect(dayLabel(1)).toBe('Day 1');
  expect(dayLabel(12)).toBe('Day 12');
});
