/**
 * The scanner's state that survives a reload of the tab (issue 15 item 7, decision 027): whether the
 * scanner panel is open and the latest verdict, for one event day. Kept in tab memory
 * (sessionStorage via `lib/tab-memory.ts`), which the selection forgets when the day changes and at
 * logout; the event id and day number are stored too, so a verdict is only ever restored under the
 * header of the day it was given for. The history of SPEC §3 stays in memory only.
 */
import { useMemo } from 'react';
import { z } from 'zod';
import type { SelectedDay } from '@/lib/entities.ts';
import { readTabMemory, tabMemoryKeys, writeTabMemory } from '@/lib/tab-memory.ts';
import { initialScannerState, type ScannerState } from './scanner-logic.ts';
import { StoredScanResult } from './stored-scan-result.ts';

const StoredScanner = z.object({
  eventId: z.string().nullable(),
  day: z.number(),
  checkInListId: z.string().nullable().optional(),
  isScanning: z.boolean(),
  latestResult: StoredScanResult.nullable(),
});

/**
 * Which event day the scanner is open for: the selected event's id (null when none), day number and
 * the check-in list chosen (absent: the event's first, docs/decisions/109). What is kept for one list
 * is never shown at another (docs/decisions/113).
 */
export interface ScannerScope {
  eventId: string | null;
  day: number;
  checkInListId?: string | undefined;
}

/**
 * The scope of the scanner open for event `eventId` (null or '' when none is stored, SPEC §5) on the
 * selected `day`: its number and the check-in list chosen with it (docs/decisions/109; absent: the
 * event's first). The one place the scanner's scope is built from the selection.
 */
export function scannerScope(eventId: string | null, day: Pick<SelectedDay, 'day' | 'checkInList'>): ScannerScope {
  return scopeOf(eventId, day.day, day.checkInList?.id);
}

/** `scannerScope` as a hook: the same object while the event, day and list stay, so it can be an effect's dependency. */
export function useScannerScope(eventId: string | null, day: Pick<SelectedDay, 'day' | 'checkInList'>): ScannerScope {
  const dayNumber = day.day;
  const checkInListId = day.checkInList?.id;
  return useMemo(() => scopeOf(eventId, dayNumber, checkInListId), [eventId, dayNumber, checkInListId]);
}

function scopeOf(eventId: string | null, day: number, checkInListId: string | undefined): ScannerScope {
  return { eventId, day, ...(checkInListId === undefined ? {} : { checkInListId }) };
}

/** Whether what was kept for `stored` belongs to `scope` (same event, day and check-in list). */
export function isSameScope(stored: { eventId: string | null; day: number; checkInListId?: string | null | undefined }, scope: ScannerScope): boolean {
  return stored.eventId === scope.eventId && stored.day === scope.day && (stored.checkInListId ?? null) === (scope.checkInListId ?? null);
}

/**
 * The scanner state to start with: the open panel and latest verdict kept for `scope` before a
 * reload (camera off, nothing processing), else the SPEC §4 initial state (idle, no result).
 */
export function restoreScannerState(scope: ScannerScope): ScannerState {
  const stored = readTabMemory(tabMemoryKeys.scanner, StoredScanner);
  if (stored === null || !isSameScope(stored, scope)) return initialScannerState;
  const history = stored.latestResult === null ? [] : [stored.latestResult];
  return { ...initialScannerState, isScanning: stored.isScanning, latestResult: stored.latestResult, history };
}

/** Keeps the panel state and latest verdict of `state` for `scope` until the tab closes or the day changes. */
export function keepScannerState(scope: ScannerScope, state: Pick<ScannerState, 'isScanning' | 'latestResult'>): void {
  writeTabMemory(tabMemoryKeys.scanner, { eventId: scope.eventId, day: scope.day, checkInListId: scope.checkInListId ?? null, isScanning: state.isScanning, latestResult: state.latestResult });
}

const StoredUncheckedCode = z.object({ eventId: z.string().nullable(), day: z.number(), code: z.string() });

/**
 * Keeps `code` for `scope`: its verify was answered 401, the session had ended, and the staff
 * member is about to be sent to sign in. Nobody checked the ticket; `takeUncheckedCode` tells them
 * once they are back.
 */
export function rememberUncheckedCode(scope: ScannerScope, code: string): void {
  writeTabMemory(tabMemoryKeys.uncheckedCode, { eventId: scope.eventId, day: scope.day, code });
}

/** The code `rememberUncheckedCode` kept for `scope` (null if none), forgotten as it is read. */
export function takeUncheckedCode(scope: ScannerScope): string | null {
  const stored = readTabMemory(tabMemoryKeys.uncheckedCode, StoredUncheckedCode);
  if (stored === null) return null;
  writeTabMemory(tabMemoryKeys.uncheckedCode, null);
  return stored.eventId === scope.eventId && stored.day === scope.day ? stored.code : null;
}
