import { describe, expect, test } from 'vitest';
import {
  type CheckInEvent,
  type CheckInInput,
  type CheckInTicket,
  decideCheckIn,
  eventToday,
  dayDenialMessage,
  formatEventDate,
  isEventDayOpen,
  ticketAdmitsDay,
  todaysEventDay,
  wallClock,
} from './check-in-rules.ts';

const festival: CheckInEvent = {
  id: 'event-1',
  organizationId: 'org-1',
  status: 'live',
  timeZone: 'Europe/London',
  dayCutoff: '06:00',
  allowsScanningOutsideDays: false,
  days: [
    { day: 1, name: 'Opening Night', date: '2026-11-23' },
    { day: 2, name: 'Main Day', date: '2026-11-24' },
    { day: 3, name: 'Closing Day', date: '2026-11-25' },
  ],
};
const weekendPass: CheckInTicket = { eventId: 'event-1', organizationId: 'org-1', isRevoked: false, admittedDays: null };
/** Tuesday 24 Nov 2026, 15:00 in London (GMT = UTC in winter). */
const duringDay2 = new Date('2026-11-24T15:00:00Z');

function decide(overrides: Partial<CheckInInput>) {
  return decideCheckIn({ ticket: weekendPass, event: festival, day: 2, existingCheckIn: null, now: duringDay2, ...overrides });
}

describe('decideCheckIn: the order of checks', () => {
  test.each<[string, Partial<CheckInInput>, string]>([
    ['no ticket has the code', { ticket: null }, 'not_found'],
    ["a ticket of another organization's event looks unknown", { ticket: { ...weekendPass, eventId: 'x', organizationId: 'org-2' } }, 'not_found'],
    ['a ticket of another event of the organization', { ticket: { ...weekendPass, eventId: 'event-2' } }, 'wrong_event'],
    ['a draft event, even on the wrong day with a revoked ticket', { event: { ...festival, status: 'draft' }, day: 1, ticket: { ...weekendPass, isRevoked: true } }, 'event_not_active'],
    ['a revoked ticket, even on the wrong day', { ticket: { ...weekendPass, isRevoked: true }, day: 1 }, 'revoked'],
    ['a day the event does not have', { day: 4 }, 'not_valid_today'],
    ['a day the ticket does not admit, on the wrong day too', { ticket: { ...weekendPass, admittedDays: [3] }, day: 1 }, 'not_valid_today'],
    ["yesterday's day, after the cut-off", { day: 1 }, 'not_event_day'],
    ["tomorrow's day", { day: 3 }, 'not_event_day'],
    ['already checked in, on its day', { existingCheckIn: { checkedInAt: duringDay2, checkedInBy: 'Alex', isSameScan: false } }, 'already_checked_in'],
  ])('%s → denied %s', (_name, overrides, reason) => {
    expect(decide(overrides)).toMatchObject({ outcome: 'denied', reason });
  });

  test('a valid ticket on the day that is today is checked in', () => {
    expect(decide({})).toEqual({ outcome: 'check_in' });
  });

  test('the same scan retried answers the original check-in', () => {
    const checkedInAt = new Date('2026-11-24T14:59:00Z');
    expect(decide({ existingCheckIn: { checkedInAt, checkedInBy: 'Demo', isSameScan: true } })).toEqual({ outcome: 'checked_in_by_this_scan', checkedInAt });
  });
});

describe('decideCheckIn: the words of a calendar denial', () => {
  test('a ticket for other days names them', () => {
    expect(decide({ ticket: { ...weekendPass, admittedDays: [2] }, day: 1 })).toMatchObject({ message: 'This ticket is for Day 2, Tue 24 Nov.' });
    expect(decide({ ticket: { ...weekendPass, admittedDays: [1, 3] } })).toMatchObject({ message: 'This ticket is for Day 1, Mon 23 Nov and Day 3, Wed 25 Nov.' });
  });

  test("a ticket admits only the days both it and its type admit (docs/decisions/125), named as the ticket's", () => {
    expect(decide({ ticket: { ...weekendPass, ticketTypeDays: [2, 3] }, day: 1 })).toMatchObject({ reason: 'not_valid_today', message: 'This ticket is for Day 2, Tue 24 Nov and Day 3, Wed 25 Nov.' });
    expect(decide({ ticket: { ...weekendPass, admittedDays: [1, 2], ticketTypeDays: [2, 3] }, day: 1 })).toMatchObject({ message: 'This ticket is for Day 2, Tue 24 Nov.' });
    expect(decide({ ticket: { ...weekendPass, admittedDays: [1], ticketTypeDays: [2] }, day: 1 })).toMatchObject({ message: 'This ticket is not valid on day 1.' });
    expect(decide({ ticket: { ...weekendPass, ticketTypeDays: [2] }, day: 2 })).toMatchObject({ outcome: 'check_in' });
    expect(decide({ ticket: { ...weekendPass, ticketTypeDays: null }, day: 2 })).toMatchObject({ outcome: 'check_in' });
  });

  test("yesterday's day says which day today is", () => {
    expect(decide({ day: 1 })).toMatchObject({ message: 'Day 1 (Opening Night) was Mon 23 Nov. Today is Day 2, Tue 24 Nov.' });
  });

  test('an event two weeks ahead says when it runs', () => {
    const twoWeeksAhead = new Date('2026-11-10T12:00:00Z');
    expect(decide({ now: twoWeeksAhead, day: 1 })).toMatchObject({
      reason: 'not_event_day',
      message: 'Day 1 (Opening Night) is Mon 23 Nov, not today. The event runs Mon 23 Nov to Wed 25 Nov.',
    });
  });

  test('the words come with their facts, so a client can word them in its own language (issue 10 item 9)', () => {
    expect(decide({ ticket: { ...weekendPass, admittedDays: [2] }, day: 1 })).toMatchObject({
      dayDenial: { kind: 'ticket_days', day: 1, admitted: [{ day: 2, name: expect.any(String), date: '2026-11-24' }] },
    });
    expect(decide({ ticket: { ...weekendPass, admittedDays: [9] }, day: 1 })).toMatchObject({
      message: 'This ticket is not valid on day 1.',
      dayDenial: { kind: 'ticket_days', day: 1, admitted: [] },
    });
    expect(decide({ day: 4 })).toMatchObject({ message: 'This event has no day 4.', dayDenial: { kind: 'no_such_day', day: 4 } });
    const yesterday = decide({ day: 1 });
    expect(yesterday).toMatchObject({
      dayDenial: { kind: 'not_event_day', selected: { day: 1, name: 'Opening Night', date: '2026-11-23' }, isPast: true, today: { day: 2, date: '2026-11-24' } },
    });
    expect(yesterday.outcome === 'denied' && yesterday.dayDenial && dayDenialMessage(yesterday.dayDenial)).toBe(yesterday.outcome === 'denied' && yesterday.message);
    expect(decide({ now: new Date('2026-11-10T12:00:00Z'), day: 1 })).toMatchObject({
      dayDenial: { kind: 'not_event_day', isPast: false, today: null, firstDate: '2026-11-23', lastDate: '2026-11-25' },
    });
  });
});

describe('the cut-off the next morning', () => {
  test.each<[string, string, number, boolean]>([
    ['Day 1 at 23:59 on its date', '2026-11-23T23:59:00Z', 1, true],
    ['Day 1 at 05:59 the next morning (the night runs on)', '2026-11-24T05:59:00Z', 1, true],
    ['Day 1 at 06:00 the next morning', '2026-11-24T06:00:00Z', 1, false],
    ['Day 2 from 00:00 of its date, while Day 1 still runs', '2026-11-24T00:00:00Z', 2, true],
    ['Day 2 at 23:59 the day before', '2026-11-23T23:59:00Z', 2, false],
  ])('%s → %s', (_name, instant, day, isAdmitted) => {
    const outcome = decide({ now: new Date(instant), day }).outcome;
    expect(outcome === 'check_in').toBe(isAdmitted);
  });

  test("a cut-off of 00:00 ends the day at midnight; before the cut-off, 'today' is still the night before", () => {
    const midnight = { ...festival, dayCutoff: '00:00' };
    expect(decide({ event: midnight, now: new Date('2026-11-24T00:30:00Z'), day: 1 })).toMatchObject({ reason: 'not_event_day' });
    expect(eventToday(festival, new Date('2026-11-24T05:59:00Z'))).toBe('2026-11-23');
    expect(eventToday(festival, new Date('2026-11-24T06:00:00Z'))).toBe('2026-11-24');
    expect(todaysEventDay(festival, new Date('2026-11-24T05:59:00Z'))?.day).toBe(1);
  });

  test('the rehearsal setting decides scans outside the days as if on the chosen day', () => {
    const rehearsal = { ...festival, allowsScanningOutsideDays: true };
    expect(decide({ event: rehearsal, now: new Date('2026-11-10T12:00:00Z'), day: 1 })).toEqual({ outcome: 'check_in' });
    // The rest of the rules still hold.
    expect(decide({ event: rehearsal, day: 1, ticket: { ...weekendPass, admittedDays: [2] } })).toMatchObject({ reason: 'not_valid_today' });
  });
});

describe('time zones and daylight-saving changes (the server clock is UTC)', () => {
  test('an event in Auckland is already on its day while it is still the day before in UTC', () => {
    const auckland = { timeZone: 'Pacific/Auckland', dayCutoff: '06:00' };
    // 2026-11-23 20:00 UTC = 2026-11-24 09:00 NZDT (UTC+13).
    const instant = new Date('2026-11-23T20:00:00Z');
    expect(isEventDayOpen(auckland, { date: '2026-11-24' }, instant)).toBe(true);
    expect(isEventDayOpen(auckland, { date: '2026-11-23' }, instant)).toBe(false);
  });

  test('an event in Los Angeles is still on its day while it is the next day in UTC', () => {
    const losAngeles = { timeZone: 'America/Los_Angeles', dayCutoff: '00:00' };
    // 2026-11-25 05:00 UTC = 2026-11-24 21:00 PST.
    expect(isEventDayOpen(losAngeles, { date: '2026-11-24' }, new Date('2026-11-25T05:00:00Z'))).toBe(true);
    expect(isEventDayOpen(losAngeles, { date: '2026-11-25' }, new Date('2026-11-25T05:00:00Z'))).toBe(false);
  });

  test('the cut-off is wall-clock time on the night the clocks go forward (London, 29 Mar 2026)', () => {
    const london = { timeZone: 'Europe/London', dayCutoff: '06:00' };
    // Clocks go from 01:00 GMT to 02:00 BST. 04:59 UTC = 05:59 BST: still Saturday's night.
    expect(isEventDayOpen(london, { date: '2026-03-28' }, new Date('2026-03-29T04:59:00Z'))).toBe(true);
    // 05:00 UTC = 06:00 BST: the cut-off (a UTC-offset calculation from winter would say 05:00).
    expect(isEventDayOpen(london, { date: '2026-03-28' }, new Date('2026-03-29T05:00:00Z'))).toBe(false);
  });

  test('the cut-off is wall-clock time on the night the clocks go back (London, 25 Oct 2026)', () => {
    const london = { timeZone: 'Europe/London', dayCutoff: '06:00' };
    // Clocks go from 02:00 BST back to 01:00 GMT. 05:59 UTC = 05:59 GMT: still Saturday's night.
    expect(isEventDayOpen(london, { date: '2026-10-24' }, new Date('2026-10-25T05:59:00Z'))).toBe(true);
    expect(isEventDayOpen(london, { date: '2026-10-24' }, new Date('2026-10-25T06:00:00Z'))).toBe(false);
  });

  test('the wall clock read again within a second is the same reading; the next second, another zone or the clocks going forward read anew', () => {
    // Clocks go from 01:00 GMT to 02:00 BST at 01:00:00 UTC on 29 Mar 2026.
    expect(wallClock('Europe/London', new Date('2026-03-29T00:59:59.100Z'))).toEqual({ date: '2026-03-29', time: '00:59' });
    expect(wallClock('Europe/London', new Date('2026-03-29T00:59:59.900Z'))).toEqual({ date: '2026-03-29', time: '00:59' });
    expect(wallClock('Europe/London', new Date('2026-03-29T01:00:00.000Z'))).toEqual({ date: '2026-03-29', time: '02:00' });
    expect(wallClock('Pacific/Auckland', new Date('2026-03-29T01:00:00.000Z'))).toEqual({ date: '2026-03-29', time: '14:00' });
    expect(wallClock('Europe/London', new Date('2026-03-29T01:00:00.500Z'))).toEqual({ date: '2026-03-29', time: '02:00' });
    // An earlier instant after a later one (a clock set back) is read anew too.
    expect(wallClock('Europe/London', new Date('2026-03-28T23:30:00Z'))).toEqual({ date: '2026-03-28', time: '23:30' });
  });

  test('a time zone nobody knows is an error every time, not a remembered reading', () => {
    expect(() => wallClock('Mars/Olympus_Mons', new Date('2026-11-24T12:00:00Z'))).toThrow(RangeError);
    expect(() => wallClock('Mars/Olympus_Mons', new Date('2026-11-24T12:00:00Z'))).toThrow(RangeError);
  });

  test('event dates are written as the gate reads them', () => {
    expect(formatEventDate('2026-11-28')).toBe('Sat 28 Nov');
  });
});

test('a ticket admits every day of its event without a day list, else only the days listed', () => {
  expect(ticketAdmitsDay(null, 2)).toBe(true);
  expect(ticketAdmitsDay(undefined, 2)).toBe(true);
  expect(ticketAdmitsDay([1, 3], 3)).toBe(true);
  expect(ticketAdmitsDay([1, 3], 2)).toBe(false);
  expect(ticketAdmitsDay([], 1)).toBe(false);
});

describe('decideCheckIn: check-in lists (docs/decisions/100)', () => {
  const main = { id: 'list-main', name: 'Main entrance', ticketTypes: null, days: null };
  const vipGate = { id: 'list-vip', name: 'VIP Gate', ticketTypes: ['VIP'], days: null };
  const merch = { id: 'list-merch', name: 'Merch desk', ticketTypes: ['VIP', 'General'], days: [2] };
  const lists = [main, vipGate, merch];
  const general: CheckInTicket = { ...weekendPass, ticketType: 'General' };
  const vip: CheckInTicket = { ...weekendPass, ticketType: 'VIP' };

  test('a ticket whose type the list admits is checked in', () => {
    expect(decide({ ticket: vip, checkInList: { list: vipGate, lists } })).toEqual({ outcome: 'check_in' });
    expect(decide({ ticket: general, checkInList: { list: main, lists } })).toEqual({ outcome: 'check_in' });
  });

  test('a ticket not on the list is denied, naming the lists that admit it today', () => {
    expect(decide({ ticket: general, checkInList: { list: vipGate, lists } })).toEqual({
      outcome: 'denied',
      reason: 'not_on_list',
      message: 'Not valid at this entrance — valid at Main entrance and Merch desk',
      listDenial: { checkInList: { id: 'list-vip', name: 'VIP Gate' }, validAt: [{ id: 'list-main', name: 'Main entrance' }, { id: 'list-merch', name: 'Merch desk' }] },
    });
    // Only the lists of the chosen day: on day 3 the merch desk takes no one.
    expect(decide({ ticket: { ...general, admittedDays: [3] }, day: 3, now: new Date('2026-11-25T15:00:00Z'), checkInList: { list: vipGate, lists } })).toMatchObject({
      message: 'Not valid at this entrance — valid at Main entrance',
    });
  });

  test('a list that does not admit the chosen day denies every ticket there', () => {
    const onlyDay3 = { ...merch, days: [3] };
    expect(decide({ ticket: vip, checkInList: { list: onlyDay3, lists: [main, vipGate, onlyDay3] } })).toMatchObject({
      reason: 'not_on_list',
      message: 'Not valid at this entrance — valid at Main entrance and VIP Gate',
    });
  });

  test('a ticket on no list today is denied and told so', () => {
    expect(decide({ ticket: { ...weekendPass, ticketType: 'Staff' }, checkInList: { list: vipGate, lists: [vipGate] } })).toMatchObject({
      outcome: 'denied',
      reason: 'not_on_list',
      message: 'Not valid at this entrance — no entrance admits this ticket today',
      listDenial: { validAt: [] },
    });
  });

  test('a ticket of unknown type is admitted only by a list of every type', () => {
    expect(decide({ ticket: weekendPass, checkInList: { list: main, lists } })).toEqual({ outcome: 'check_in' });
    expect(decide({ ticket: weekendPass, checkInList: { list: vipGate, lists } })).toMatchObject({ reason: 'not_on_list' });
  });

  test('the calendar and revocation come before the list; the check-in on the list after it', () => {
    expect(decide({ ticket: { ...general, isRevoked: true }, checkInList: { list: vipGate, lists } })).toMatchObject({ reason: 'revoked' });
    expect(decide({ ticket: general, day: 1, checkInList: { list: vipGate, lists } })).toMatchObject({ reason: 'not_event_day' });
    const existingCheckIn = { checkedInAt: duringDay2, checkedInBy: 'Alex', isSameScan: false };
    expect(decide({ ticket: general, existingCheckIn, checkInList: { list: vipGate, lists } })).toMatchObject({ reason: 'not_on_list' });
    expect(decide({ ticket: vip, existingCheckIn, checkInList: { list: vipGate, lists } })).toMatchObject({ reason: 'already_checked_in' });
  });
});
