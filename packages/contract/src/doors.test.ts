import { describe, expect, test } from 'vitest';
import { type CheckInEvent, type CheckInInput, type CheckInListRule, decideCheckIn, isCheckInInside, lastDailyCheckout } from './check-in-rules.ts';
import { doorListCheckInInput, type DoorListEntry } from './door-list.ts';

const event: CheckInEvent = {
  id: 'event-1',
  organizationId: 'org-1',
  status: 'live',
  timeZone: 'Europe/Berlin',
  dayCutoff: '06:00',
  allowsScanningOutsideDays: false,
  days: [{ day: 1, name: 'Day 1', date: '2026-11-24' }],
};
const hall = { id: 'hall', name: 'Hall', ticketTypes: null, days: null, allowsReentry: true, capacity: 2, dailyCheckoutTime: '04:00' } satisfies CheckInListRule;
const merch: { id: string; name: string; ticketTypes: null; days: null; dailyCheckoutTime: null } = { id: 'merch', name: 'Merch desk', ticketTypes: null, days: null, dailyCheckoutTime: null };
/** 24 Nov 2026 20:00 in Berlin (UTC+1). */
const evening = new Date('2026-11-24T19:00:00Z');
const inside = { checkedInAt: evening, checkedInBy: 'Alex', isSameScan: false, isInside: true };
const left = { ...inside, isInside: false };

function decide(overrides: Partial<CheckInInput>, list: CheckInListRule = hall) {
  return decideCheckIn({
    ticket: { eventId: 'event-1', organizationId: 'org-1', isRevoked: false, admittedDays: null, ticketType: 'GA' },
    event,
    day: 1,
    existingCheckIn: null,
    now: evening,
    checkInList: { list, lists: [hall, merch] },
    ...overrides,
  });
}

describe('decideCheckIn: entry and exit', () => {
  test.each<[string, Partial<CheckInInput>, CheckInListRule, object]>([
    ['an exit of a guest inside is recorded', { direction: 'exit', existingCheckIn: inside }, hall, { outcome: 'check_out' }],
    ['an exit of a guest who left is not inside', { direction: 'exit', existingCheckIn: left }, hall, { outcome: 'denied', reason: 'not_inside', message: 'Not inside' }],
    ['an exit of a guest never in is not inside', { direction: 'exit' }, hall, { outcome: 'denied', reason: 'not_inside', message: 'Not inside' }],
    ['an exit at a list without re-entry', { direction: 'exit', existingCheckIn: inside }, merch, { outcome: 'denied', reason: 'not_inside', message: 'Merch desk does not allow re-entry: exits are not recorded there.' }],
    ['the entry of a guest who left is a re-entry', { existingCheckIn: left, insideNow: 1 }, hall, { outcome: 'check_in', isReentry: true }],
    ['the entry of a guest inside is already checked in', { existingCheckIn: inside, insideNow: 1 }, hall, { outcome: 'denied', reason: 'already_checked_in' }],
    ['a list without re-entry admits once, whatever the guest did', { existingCheckIn: left }, merch, { outcome: 'denied', reason: 'already_checked_in' }],
    ['a full list denies the entry', { insideNow: 2 }, hall, { outcome: 'denied', reason: 'at_capacity', message: 'At capacity: 2 inside', capacityDenial: { insideNow: 2, capacity: 2 } }],
    ['a full list denies the re-entry too', { existingCheckIn: left, insideNow: 2 }, hall, { outcome: 'denied', reason: 'at_capacity' }],
    ['a place left admits', { insideNow: 1 }, hall, { outcome: 'check_in' }],
    ['inside not known (offline): admitted, capacity not checked', {}, hall, { outcome: 'check_in', isCapacityUnchecked: true }],
    ['a full list still lets guests out', { direction: 'exit', existingCheckIn: inside, insideNow: 2 }, hall, { outcome: 'check_out' }],
    // A retry of the scan that made an entry (its answer was lost) is that entry, whatever the guest did since (docs/decisions/130).
    ['the retry of an entry whose guest has left since is that entry, not a re-entry', { existingCheckIn: { ...left, isSameScan: true }, insideNow: 1 }, hall, { outcome: 'checked_in_by_this_scan', checkedInAt: evening }],
    ['the retry of an entry at a full list is that entry', { existingCheckIn: { ...left, isSameScan: true }, insideNow: 2 }, hall, { outcome: 'checked_in_by_this_scan', checkedInAt: evening }],
    // A retry of the scan that recorded an exit is that exit, whatever the guest did since (docs/decisions/138).
    ['the retry of an exit whose guest came back in since is that exit, not a second one', { direction: 'exit', existingCheckIn: { ...inside, isSameScan: true, sameScanDirection: 'exit' } }, hall, { outcome: 'checked_out_by_this_scan', exitedAt: evening }],
    ['the retry of an exit whose guest is out is that exit, not Not inside', { direction: 'exit', existingCheckIn: { ...left, isSameScan: true, sameScanDirection: 'exit' } }, hall, { outcome: 'checked_out_by_this_scan', exitedAt: evening }],
    ["an exit's scan sent again as an entry is still that exit", { existingCheckIn: { ...left, isSameScan: true, sameScanDirection: 'exit' }, insideNow: 1 }, hall, { outcome: 'checked_out_by_this_scan', exitedAt: evening }],
    ["an entry's scan sent again as an exit is still that entry", { direction: 'exit', existingCheckIn: { ...inside, isSameScan: true } }, hall, { outcome: 'checked_in_by_this_scan', checkedInAt: evening }],
  ])('%s', (_name, overrides, list, expected) => {
    expect(decide(overrides, list)).toEqual(expect.objectContaining(expected));
  });
});

describe('daily checkout', () => {
  test('the last checkout is today after the time, yesterday before it, in the event time zone', () => {
    // 20:00 Berlin: 04:00 today (03:00 UTC); 03:00 Berlin the next night: still 04:00 of the 24th.
    expect(lastDailyCheckout('Europe/Berlin', '04:00', evening)?.toISOString()).toBe('2026-11-24T03:00:00.000Z');
    expect(lastDailyCheckout('Europe/Berlin', '04:00', new Date('2026-11-25T02:00:00Z'))?.toISOString()).toBe('2026-11-24T03:00:00.000Z');
    expect(lastDailyCheckout('Europe/Berlin', '04:00', new Date('2026-11-25T03:00:00Z'))?.toISOString()).toBe('2026-11-25T03:00:00.000Z');
    expect(lastDailyCheckout('Europe/Berlin', null, evening)).toBeNull();
  });

  test('a guest who entered before the checkout is not inside after it; one who entered after is', () => {
    const after = new Date('2026-11-25T03:30:00Z');
    expect(isCheckInInside({ lastEnteredAt: evening, exitedAt: null }, hall, event, evening)).toBe(true);
    expect(isCheckInInside({ lastEnteredAt: evening, exitedAt: null }, hall, event, after)).toBe(false);
    expect(isCheckInInside({ lastEnteredAt: new Date('2026-11-25T03:10:00Z'), exitedAt: null }, hall, event, after)).toBe(true);
    expect(isCheckInInside({ lastEnteredAt: evening, exitedAt: null }, merch, event, after)).toBe(true);
    expect(isCheckInInside({ lastEnteredAt: evening, exitedAt: evening }, merch, event, evening)).toBe(false);
  });
});

describe('the door list decides exits offline', () => {
  const entry: DoorListEntry = {
    lookupKey: 'k',
    ticketType: 'GA',
    admittedDays: null,
    isRevoked: false,
    holderName: { iv: '', data: '' },
    checkIn: { checkedInAt: evening.toISOString(), checkedInBy: 'Alex', exitedAt: null },
    requiresAttention: false,
  };
  const list = { event: { ...event, name: 'Fest', days: [...event.days] }, checkInListId: 'hall', checkInLists: [{ ...hall, position: 1 }, { ...merch, position: 2 }] };

  test('a guest inside at download may exit; one who left may enter again, capacity unchecked', () => {
    expect(decideCheckIn(doorListCheckInInput(list, 1, entry, evening, null, 'exit'))).toEqual({ outcome: 'check_out' });
    const exited = { ...entry, checkIn: { ...entry.checkIn!, exitedAt: evening.toISOString() } };
    expect(decideCheckIn(doorListCheckInInput(list, 1, exited, evening, null, 'exit'))).toMatchObject({ reason: 'not_inside' });
    expect(decideCheckIn(doorListCheckInInput(list, 1, exited, evening))).toEqual({ outcome: 'check_in', isReentry: true, isCapacityUnchecked: true });
  });

  test("at a list without a capacity of an event with one, an offline entry says the venue's capacity was not checked", () => {
    const newcomer = { ...entry, checkIn: null };
    const atMerch = { ...list, checkInListId: 'merch' };
    expect(decideCheckIn(doorListCheckInInput(atMerch, 1, newcomer, evening))).toEqual({ outcome: 'check_in' });
    const venue = { ...atMerch, event: { ...atMerch.event, capacity: 800 } };
    expect(decideCheckIn(doorListCheckInInput(venue, 1, newcomer, evening))).toEqual({ outcome: 'check_in', isCapacityUnchecked: true });
  });
});
