import { afterAll, beforeAll, expect, test } from 'vitest';
import { formatLongDate, formatShortDate, parseIsoDate } from './dates.ts';

// West of Greenwich a calendar date read as UTC midnight would show the previous day.
const originalTimeZone = process.env['TZ'];
beforeAll(() => {
  process.env['TZ'] = 'America/Los_Angeles';
});
afterAll(() => {
  if (originalTimeZone === undefined) delete process.env['TZ'];
  else process.env['TZ'] = originalTimeZone;
});

test('a calendar date is shown as that day in long form, whatever the time zone', () => {
  expect(formatLongDate('2026-07-11')).toBe('Saturday, July 11, 2026');
});

test('a calendar date is read as local midnight, not UTC', () => {
  const date = parseIsoDate('2026-07-11');
  expect(date?.getDate()).toBe(11);
  expect(date?.getHours()).toBe(0);
});

test('an unparsable date is shown as sent', () => {
  expect(formatLongDate('someday')).toBe('someday');
  expect(formatShortDate('someday')).toBe('someday');
  expect(parseIsoDate('someday')).toBeNull();
});

test('a short date reads month, day and year', () => {
  expect(formatShortDate('2026-07-10')).toBe('Jul 10, 2026');
});
