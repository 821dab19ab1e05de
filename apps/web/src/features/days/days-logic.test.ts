import { expect, test } from 'vitest';
import { testEvent, testEventWithoutDays } from '@/test/fixtures.ts';
import { dayLabel, defaultEventDay, isToday, notTodayWarning } from './days-logic.ts';

const [friday, saturday] = testEvent.eventDays;
if (!friday || !saturday) throw new Error('fixture days missing');

test('an event without days is scanned as day 1, on the event date, named Main Event (SPEC §2)', () => {
  expect(defaultEventDay(testEventWithoutDays)).toEqual({ day: 1, name: 'Main Event', date: '2026-08-01' });
});

test('days are labelled Day {n}', () => {
  expect(dayLabel(1)).toBe('Day 1');
  expect(dayLabel(12)).toBe('Day 12');
});

test("today is the event's day on its own clock (Amsterdam), the night before counting until the cut-off", () => {
  // 11 Jul 2026 09:30 in Amsterdam (UTC+2).
  expect(isToday(testEvent, saturday, new Date('2026-07-11T07:30:00Z'))).toBe(true);
  expect(isToday(testEvent, friday, new Date('2026-07-11T07:30:00Z'))).toBe(false);
  // 05:59 on Saturday in Amsterdam: Friday's night still runs.
  expect(isToday(testEvent, friday, new Date('2026-07-11T03:59:00Z'))).toBe(true);
  // 23:30 UTC on Friday = Saturday 01:30 in Amsterdam: still Friday's night, so Saturday is not today yet.
  expect(isToday(testEvent, saturday, new Date('2026-07-10T23:30:00Z'))).toBe(false);
});

test('a day that is not today warns in plain words naming the right day; today does not warn', () => {
  const now = new Date('2026-07-11T10:00:00Z');
  expect(notTodayWarning(testEvent, saturday, now)).toBeNull();
  expect(notTodayWarning(testEvent, friday, now)).toBe(
    'Not today — Day 1 (Opening Friday) was Fri 10 Jul. Today is Day 2, Sat 11 Jul. Tickets will be denied.',
  );
  expect(notTodayWarning({ ...testEvent, allowsScanningOutsideDays: true }, friday, now)).toMatch(/Rehearsal: this event admits outside its days\.$/);
  expect(notTodayWarning(testEventWithoutDays, defaultEventDay(testEventWithoutDays), now)).toBe(
    'Not today — Day 1 (Main Event) is Sat 1 Aug, not today. The event is on Sat 1 Aug. Tickets will be denied.',
  );
});
