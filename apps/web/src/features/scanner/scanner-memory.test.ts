import { renderHook } from '@testing-library/react';
import { expect, test } from 'vitest';
import { initialScannerState, type ScanResult } from './scanner-logic.ts';
import { keepScannerState, restoreScannerState, scannerScope, useScannerScope } from './scanner-memory.ts';

const denied: ScanResult = {
  id: 'r1',
  ticketId: 'GC-1001',
  timestamp: '2026-07-11T10:42:00.000Z',
  isValid: false,
  denial: { reason: 'already_checked_in', checkedInAt: '2026-07-11T10:40:00.000Z', checkedInBy: 'Demo Staff' },
};

test('the open panel and the latest verdict come back for the same event day, with the camera off', () => {
  keepScannerState({ eventId: 'event-1', day: 2 }, { isScanning: true, latestResult: denied });
  expect(restoreScannerState({ eventId: 'event-1', day: 2 })).toEqual({ ...initialScannerState, isScanning: true, latestResult: denied, history: [denied] });
});

test('another day or event, or a value that does not parse, starts from the initial state', () => {
  keepScannerState({ eventId: 'event-1', day: 2 }, { isScanning: true, latestResult: denied });
  expect(restoreScannerState({ eventId: 'event-1', day: 3 })).toEqual(initialScannerState);
  expect(restoreScannerState({ eventId: 'event-2', day: 2 })).toEqual(initialScannerState);
  sessionStorage.setItem('gatecheck.scanner', JSON.stringify({ eventId: 'event-1', day: 2, isScanning: true, latestResult: { id: 'r1', isValid: 'yes' } }));
  expect(restoreScannerState({ eventId: 'event-1', day: 2 })).toEqual(initialScannerState);
});

test('after a reload the latest verdict keeps everything its card shows: the day denial, Offline, Conflict, replaced, undone', () => {
  const notToday: ScanResult = {
    id: 'r2',
    ticketId: 'GC-1002',
    timestamp: '2026-07-11T10:43:00.000Z',
    isValid: false,
    isOffline: true,
    denial: { reason: 'not_valid_today', dayDenial: { kind: 'ticket_days', day: 1, admitted: [{ day: 2, name: 'Saturday', date: '2026-07-11' }] } },
  };
  keepScannerState({ eventId: 'event-1', day: 1 }, { isScanning: false, latestResult: notToday });
  expect(restoreScannerState({ eventId: 'event-1', day: 1 }).latestResult).toEqual(notToday);

  const conflict: ScanResult = {
    id: 'r3',
    ticketId: 'GC-1003',
    timestamp: '2026-07-11T10:44:00.000Z',
    isValid: true,
    isOffline: true,
    isConflict: true,
    isReplaced: true,
    undone: { at: '2026-07-11T10:45:00.000Z', reason: 'Wrong ticket' },
    details: { holderName: 'Ada' },
  };
  keepScannerState({ eventId: 'event-1', day: 1 }, { isScanning: true, latestResult: conflict });
  expect(restoreScannerState({ eventId: 'event-1', day: 1 }).latestResult).toEqual(conflict);
});

test("the scanner's scope is the event, the day's number and the list chosen with it; the hook's stays the same object while they do", () => {
  const day = { day: 2, name: 'Saturday', date: '2026-07-11' };
  expect(scannerScope('event-1', day)).toEqual({ eventId: 'event-1', day: 2 });
  expect(scannerScope('event-1', { ...day, checkInList: null })).toEqual({ eventId: 'event-1', day: 2 });
  expect(scannerScope(null, { ...day, checkInList: { id: 'list-bar', name: 'Bar' } })).toEqual({ eventId: null, day: 2, checkInListId: 'list-bar' });

  const { result, rerender } = renderHook(({ selected }) => useScannerScope('event-1', selected), { initialProps: { selected: { ...day, checkInList: { id: 'list-bar', name: 'Bar' } } } });
  const first = result.current;
  // A day read again from storage is a new object: the scope is not.
  rerender({ selected: { ...day, checkInList: { id: 'list-bar', name: 'Bar' } } });
  expect(result.current).toBe(first);
  rerender({ selected: { ...day, checkInList: { id: 'list-vip', name: 'VIP Gate' } } });
  expect(result.current).toEqual({ eventId: 'event-1', day: 2, checkInListId: 'list-vip' });
});
