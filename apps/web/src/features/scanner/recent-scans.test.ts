import { expect, test } from 'vitest';
import { keepRecentScans, readRecentScans, RECENT_SCANS_MAX, recentScanTime, withRecentScan, withScansMarked, withUndoneCheckIn } from './recent-scans.ts';
import type { ScanResult } from './scanner-logic.ts';

function approval(id: string): ScanResult {
  return { id, ticketId: `GC-${id}`, timestamp: '2026-07-11T19:07:00.000Z', isValid: true, details: { holderName: `Holder ${id}` } };
}

test('a new verdict goes first and the list keeps the newest 50', () => {
  let scans: ScanResult[] = [];
  for (let index = 1; index <= RECENT_SCANS_MAX + 1; index += 1) scans = withRecentScan(scans, approval(String(index)));
  expect(RECENT_SCANS_MAX).toBe(50);
  expect(scans).toHaveLength(50);
  expect(scans[0]?.id).toBe('51');
  expect(scans.at(-1)?.id).toBe('2');
});

test('a verdict with an id already listed (a retried check) is listed once, first', () => {
  const scans = withRecentScan(withRecentScan([approval('a'), approval('b')], approval('c')), approval('b'));
  expect(scans.map((scan) => scan.id)).toEqual(['b', 'c', 'a']);
});

test('the list is read back for the same event day only', () => {
  const denial: ScanResult = { id: 'd', ticketId: 'GC-X', timestamp: '2026-07-11T19:08:00.000Z', isValid: false, denial: { reason: 'revoked' } };
  keepRecentScans({ eventId: 'event-1', day: 2 }, [denial, approval('a')]);
  expect(readRecentScans({ eventId: 'event-1', day: 2 })).toEqual([denial, approval('a')]);
  expect(readRecentScans({ eventId: 'event-1', day: 3 })).toEqual([]);
  expect(readRecentScans({ eventId: 'event-2', day: 2 })).toEqual([]);
});

test('a tampered or outdated stored value reads as an empty list', () => {
  sessionStorage.setItem('gatecheck.recentScans', JSON.stringify({ eventId: 'event-1', day: 2, scans: [{ id: 1 }] }));
  expect(readRecentScans({ eventId: 'event-1', day: 2 })).toEqual([]);
  sessionStorage.setItem('gatecheck.recentScans', '{not json');
  expect(readRecentScans({ eventId: 'event-1', day: 2 })).toEqual([]);
});

test("a scan's time is HH:mm, 24-hour, on the device clock", () => {
  const evening = new Date(2026, 6, 11, 21, 7, 30);
  expect(recentScanTime(evening.toISOString())).toBe('21:07');
  expect(recentScanTime(new Date(2026, 6, 11, 9, 5).toISOString())).toBe('09:05');
  expect(recentScanTime('not a time')).toBe('');
});

test('an undo marks the newest approval of the code still standing, letter case ignored, and is kept in tab memory (issue 11)', () => {
  const undone = { at: '2026-07-11T19:09:00.000Z', reason: 'Wrong guest' };
  const denial: ScanResult = { id: 'd', ticketId: 'GC-a', timestamp: '2026-07-11T19:08:00.000Z', isValid: false, denial: { reason: 'already_checked_in' } };
  const earlier: ScanResult = { ...approval('a'), id: 'a0', undone: { at: '2026-07-11T18:00:00.000Z', reason: 'Earlier undo' } };
  const scans = [denial, approval('b'), approval('a'), earlier];
  const marked = withUndoneCheckIn(scans, ' gc-A ', undone);
  expect(marked.map((scan) => scan.undone ?? null)).toEqual([null, null, undone, earlier.undone]);
  expect(scans[2]?.undone).toBeUndefined();
  expect(withUndoneCheckIn(scans, 'GC-none', undone)).toEqual(scans);
  keepRecentScans({ eventId: 'event-1', day: 2 }, marked);
  expect(readRecentScans({ eventId: 'event-1', day: 2 })[2]?.undone).toEqual(undone);
});

test("withScansMarked(…, 'isConflict') marks the scans the server answered 'conflict' for, and keeps the others as they were (issue 12)", () => {
  const scans: ScanResult[] = [
    { id: 's2', ticketId: 'GC-2', timestamp: '2026-07-11T10:01:00.000Z', isOffline: true, isValid: true, details: {} },
    { id: 's1', ticketId: 'GC-1', timestamp: '2026-07-11T10:00:00.000Z', isOffline: true, isValid: true, details: {} },
  ];
  const marked = withScansMarked(scans, ['s1', 'unknown'], 'isConflict');
  expect(marked.map((scan) => scan.isConflict ?? false)).toEqual([false, true]);
  expect(marked[0]).toBe(scans[0]);
});

test("a later approval of the same ticket marks the earlier one undone elsewhere (one check-in a day); denials, conflicts and other tickets stay as they are", () => {
  const first: ScanResult = { ...approval('1'), ticketId: 'GC-ZOE' };
  const conflict: ScanResult = { ...approval('2'), ticketId: 'GC-ZOE', isConflict: true };
  const other = approval('3');
  const again: ScanResult = { ...approval('4'), ticketId: 'gc-zoe ' };
  const scans = withRecentScan([other, conflict, first], again);
  expect(scans.map((scan) => [scan.id, scan.isReplaced === true])).toEqual([
    ['4', false],
    ['3', false],
    ['2', false],
    ['1', true],
  ]);
  // A denial of the ticket says nothing about the earlier approval.
  const denial: ScanResult = { id: '5', ticketId: 'GC-ZOE', timestamp: '2026-07-11T19:08:00.000Z', isValid: false, denial: { reason: 'already_checked_in' } };
  expect(withRecentScan([first], denial)[1]?.isReplaced).toBeUndefined();
});

test('a guest who entered, left and entered again: the first entry is not marked replaced (docs/decisions/113)', () => {
  const entry = approval('in-1');
  const exit: ScanResult = { id: 'out-1', ticketId: entry.ticketId, timestamp: '2026-07-11T19:10:00.000Z', isValid: true, details: {}, isExit: true };
  const again: ScanResult = { id: 'in-2', ticketId: entry.ticketId, timestamp: '2026-07-11T19:20:00.000Z', isValid: true, details: {} };
  const scans = withRecentScan(withRecentScan(withRecentScan([], entry), exit), again);
  expect(scans.map((scan) => [scan.id, scan.isReplaced ?? false])).toEqual([
    ['in-2', false],
    ['out-1', false],
    ['in-1', false],
  ]);
});

test("an exit denied 'Not inside' here that the server recorded on upload keeps its DENIED verdict, is marked, read back so after a reload, and a later entry of the guest is a re-entry, not a replacement (docs/decisions/150)", () => {
  const admitted: ScanResult = { ...approval('a'), ticketId: 'GC-ADA', isOffline: true };
  const exit: ScanResult = { id: 'x', ticketId: 'GC-ADA', timestamp: '2026-07-11T19:08:00.000Z', isValid: false, denial: { reason: 'not_inside' }, isOffline: true };
  const other: ScanResult = { ...exit, id: 'y', ticketId: 'GC-BOB' };
  const marked = withScansMarked([other, exit, admitted], ['x'], 'isExitRecordedOnUpload');
  expect(marked).toEqual([other, { ...exit, isExitRecordedOnUpload: true }, admitted]);
  keepRecentScans({ eventId: 'event-1', day: 2 }, marked);
  expect(readRecentScans({ eventId: 'event-1', day: 2 })).toEqual(marked);
  // The guest comes back in: the earlier admission was not undone elsewhere, the guest left.
  const again = withRecentScan(marked, { ...approval('b'), ticketId: 'GC-ADA' });
  expect(again.find((scan) => scan.id === 'a')?.isReplaced).toBeUndefined();
});
