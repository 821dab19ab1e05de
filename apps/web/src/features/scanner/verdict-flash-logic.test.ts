import { expect, test } from 'vitest';
import { formatClockTime, type ScanResult } from './scanner-logic.ts';
import { verdictFlashContent, VERDICT_FLASH_MS } from './verdict-flash-logic.ts';

const base = { id: 'r1', ticketId: 'GC-1001', timestamp: '2026-07-11T10:45:00.000Z' };
const denied = (denial: Extract<ScanResult, { isValid: false }>['denial']): ScanResult => ({ ...base, isValid: false, denial });

test('an approval flashes APPROVED with no reason', () => {
  expect(verdictFlashContent({ ...base, isValid: true, details: { holderName: 'Ada' } })).toEqual({
    isApproved: true,
    word: 'APPROVED',
    reason: null,
    offline: null,
    announcement: 'APPROVED',
    attention: null,
  });
});

test('a denial flashes DENIED with the reason in plain words, and announces both', () => {
  const checkedInAt = '2026-07-11T10:42:00.000Z';
  const time = formatClockTime(checkedInAt);
  const cases: Array<[ScanResult, string]> = [
    [denied({ reason: 'already_checked_in', checkedInAt, checkedInBy: 'Demo Staff' }), `Already checked in at ${time} by Demo Staff`],
    [denied({ reason: 'revoked' }), 'Ticket revoked'],
    [denied({ reason: 'wrong_event' }), 'Ticket for another event'],
    [denied({ reason: 'not_valid_today', dayDenial: { kind: 'ticket_days', day: 1, admitted: [{ day: 2, name: 'Day Two', date: '2026-11-28' }] } }), 'This ticket is for Day 2, Sat 28 Nov.'],
    [denied({ reason: 'not_valid_today' }), 'Not valid today'],
    [denied({ reason: 'not_found' }), 'Ticket not found'],
  ];
  for (const [result, reason] of cases) {
    expect(verdictFlashContent(result)).toEqual({ isApproved: false, word: 'DENIED', reason, offline: null, announcement: `DENIED. ${reason}`, attention: null });
  }
});

test('a denial without a reason flashes DENIED alone', () => {
  expect(verdictFlashContent(denied({}))).toEqual({ isApproved: false, word: 'DENIED', reason: null, offline: null, announcement: 'DENIED', attention: null });
});

test("a verdict decided on the device says 'Offline' beside APPROVED or DENIED, and announces it (issue 12)", () => {
  expect(verdictFlashContent({ ...base, isOffline: true, isValid: true, details: {} })).toEqual({ isApproved: true, word: 'APPROVED', reason: null, offline: 'Offline', announcement: 'APPROVED (Offline)', attention: null });
  expect(verdictFlashContent({ ...denied({ reason: 'not_found' }), isOffline: true })).toEqual({
    isApproved: false,
    word: 'DENIED',
    reason: 'Ticket not found',
    offline: 'Offline',
    announcement: 'DENIED. Ticket not found (Offline)',
    attention: null,
  });
});

test('an offline approval with a note announces the verdict, Offline, then the note (docs/decisions/102)', () => {
  expect(verdictFlashContent({ ...base, isOffline: true, isValid: true, details: {}, attention: { note: 'Green wristband', requiresAttention: true } }).announcement).toBe(
    'APPROVED (Offline). ATTENTION: Green wristband',
  );
});

test('the flash lasts about a second', () => {
  expect(VERDICT_FLASH_MS).toBe(1_000);
});
