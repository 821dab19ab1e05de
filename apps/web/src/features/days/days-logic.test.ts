import { expect, test } from 'vitest';
import { testEvent, testEventWithoutDays } from '@/test/fixtures.ts';
import { dayLabel, daysTodayFirst, defaultEventDay, isToday, notTodayWarning } from './days-logic.ts';

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

/** The day numbers of `daysTodayFirst`, in the order the list shows them. */
const order = (event: typeof testEvent, now: string) => daysTodayFirst(event, new Date(now)).map((day) => day.day);
const auckland = { ...testEvent, timeZone: 'Pacific/Auckland' };
const losAngeles = { ...testEvent, timeZone: 'America/Los_Angeles', dayCutoff: '04:00' };
const shuffled = { ...testEvent, eventDays: [...testEvent.eventDays].reverse() };

test.each([
  { why: 'today (Saturday in Amsterdam) first, the others by date', event: testEvent, now: '2026-07-11T10:00:00Z', days: [2, 1, 3] },
  { why: 'the last day today', event: testEvent, now: '2026-07-12T10:00:00Z', days: [3, 1, 2] },
  { why: 'the first day today: the order by date', event: testEvent, now: '2026-07-10T10:00:00Z', days: [1, 2, 3] },
  { why: 'no day today (a week before): by date', event: testEvent, now: '2026-07-03T10:00:00Z', days: [1, 2, 3] },
  { why: 'no day today (after the event): by date', event: testEvent, now: '2026-07-20T10:00:00Z', days: [1, 2, 3] },
  { why: 'days sent out of order: by date, today first', event: shuffled, now: '2026-07-11T10:00:00Z', days: [2, 1, 3] },
  { why: 'days sent out of order, none today: by date', event: shuffled, now: '2026-07-01T10:00:00Z', days: [1, 2, 3] },
  { why: "05:59 Sunday in Amsterdam, before the cut-off: Saturday's night still runs", event: testEvent, now: '2026-07-12T03:59:00Z', days: [2, 1, 3] },
  { why: '06:00 Sunday in Amsterdam, the cut-off: Sunday', event: testEvent, now: '2026-07-12T04:00:00Z', days: [3, 1, 2] },
  { why: "23:30 UTC Friday is Saturday 01:30 in Amsterdam: still Friday's night", event: testEvent, now: '2026-07-10T23:30:00Z', days: [1, 2, 3] },
  { why: 'Auckland (UTC+12): 13:00 UTC Friday is 01:00 Saturday there, before the cut-off: Friday', event: auckland, now: '2026-07-10T13:00:00Z', days: [1, 2, 3] },
  { why: 'Auckland: 20:00 UTC Friday is 08:00 Saturday there: Saturday, while UTC says Friday', event: auckland, now: '2026-07-10T20:00:00Z', days: [2, 1, 3] },
  { why: 'Los Angeles (UTC−7), cut-off 04:00: 10:30 UTC Sunday is 03:30 Sunday there: Saturday', event: losAngeles, now: '2026-07-12T10:30:00Z', days: [2, 1, 3] },
  { why: 'Los Angeles, cut-off 04:00: 11:00 UTC Sunday is 04:00 there: Sunday', event: losAngeles, now: '2026-07-12T11:00:00Z', days: [3, 1, 2] },
])('the day list shows today first, then by date: $why', ({ event, now, days }) => {
  expect(order(event, now)).toEqual(days);
});

test('an event with one day keeps it, today or not; an event without days has none to order', () => {
  const oneDay = { ...testEvent, eventDays: [saturday] };
  expect(order(oneDay, '2026-07-11T10:00:00Z')).toEqual([2]);
  expect(order(oneDay, '2026-07-20T10:00:00Z')).toEqual([2]);
  expect(order(testEventWithoutDays, '2026-08-01T10:00:00Z')).toEqual([]);
});

test("the list's order leaves the event's own days as they are", () => {
  const days = [...shuffled.eventDays];
  daysTodayFirst(shuffled, new Date('2026-07-11T10:00:00Z'));
  expect(shuffled.eventDays).toEqual(days);
});
