/**
 * The scanner's 'Recent scans' (issue 10 item 5, docs/decisions/034): the last 50 verdicts of the
 * selected event day, newest first (SPEC §3 keeps results newest first). Kept in tab memory
 * (sessionStorage via `lib/tab-memory.ts`) with the event id and day number they belong to, so they
 * survive a reload of the tab on this device and are forgotten when the event day changes and at
 * logout (`lib/selection.ts`), like the latest verdict of decision 027. Not in the SPEC §3 device
 * storage, which holds just the user and the three selections.
 */
import { format } from 'date-fns';
import { z } from 'zod';
import { readTabMemory, tabMemoryKeys, writeTabMemory } from '@/lib/tab-memory.ts';
import { isSameTicket, type ScanResult, type UndoneCheckIn } from './scanner-logic.ts';
import { isSameScope, type ScannerScope } from './scanner-memory.ts';
import { StoredScanResult } from './stored-scan-result.ts';

/** How many verdicts the list keeps; an older one drops off the end (issue 10 item 5). */
export const RECENT_SCANS_MAX = 50;

const StoredRecentScans = z.object({
  eventId: z.string().nullable(),
  day: z.number(),
  // The check-in list they were made at (docs/decisions/113); absent (kept before lists): the first.
  checkInListId: z.string().nullable().optional(),
  scans: z.array(StoredScanResult).max(RECENT_SCANS_MAX),
});

/** The recent scans kept for `scope` (newest first), or [] when none are kept for that event day and check-in list. */
export function readRecentScans(scope: ScannerScope): ScanResult[] {
  const stored = readTabMemory(tabMemoryKeys.recentScans, StoredRecentScans);
  if (stored === null || !isSameScope(stored, scope)) return [];
  return stored.scans;
}

/**
 * `result` put first in `scans`, cut to the newest `RECENT_SCANS_MAX`. Pure. A result already in the
 * list (same id: a retried check) is not listed twice. An approval marks the earlier approvals of
 * the same ticket (`isSameTicket`) that still look standing as `isReplaced`: one ticket has
 * one check-in a day (SPEC §7, the server's rule), so a new one means the earlier was undone
 * elsewhere — otherwise two plain APPROVED rows would read as the ticket let in twice. A Conflict
 * row is left as it is: its check-in was never the one that stood.
 */
export function withRecentScan(scans: readonly ScanResult[], result: ScanResult): ScanResult[] {
  // With entry and exit (docs/decisions/113) a guest may enter again after an exit: then an earlier
  // entry was not undone; nothing is marked for a ticket with an exit listed, nor by an exit.
  const isExitListed = (scan: ScanResult) => (scan.isValid && scan.isExit === true) || scan.isExitRecordedOnUpload === true;
  const isReentryTicket = (result.isValid && result.isExit === true) || scans.some((scan) => isExitListed(scan) && isSameTicket(scan.ticketId, result.ticketId));
  const isEarlierStanding = (scan: ScanResult) =>
    !isReentryTicket && result.isValid && scan.isValid && scan.undone === undefined && !scan.isConflict && !scan.isReplaced && isSameTicket(scan.ticketId, result.ticketId);
  const earlier = scans.filter((scan) => scan.id !== result.id).map((scan) => (isEarlierStanding(scan) ? { ...scan, isReplaced: true } : scan));
  return [result, ...earlier].slice(0, RECENT_SCANS_MAX);
}

/**
 * `scans` with the check-in of ticket `code` marked `undone` (issue 11): the newest approved scan of
 * that code (`isSameTicket`: letter case ignored, as verify does) not yet undone; the same list
 * when there is none.
 * Pure. Only one approval of a code per day can still stand, so that is the one the undo removed.
 */
export function withUndoneCheckIn(scans: readonly ScanResult[], code: string, undone: UndoneCheckIn): ScanResult[] {
  const index = scans.findIndex((scan) => scan.isValid && scan.undone === undefined && isSameTicket(scan.ticketId, code));
  if (index === -1) return [...scans];
  return scans.map((scan, at) => (at === index ? { ...scan, undone } : scan));
}

/**
 * `scans` with those whose id is in `scanIds` marked `flag`; the others kept as they were (the same
 * objects). Pure. The marks:
 * - `isConflict` (issue 12 item 5): scans the server answered 'conflict' for.
 * - `isExitRecordedOnUpload` (docs/decisions/150): exits this device denied 'Not inside' that the
 *   server recorded when they were sent. The row keeps the verdict the gate showed (DENIED, 'Not
 *   inside') and says what the server did.
 */
export function withScansMarked(scans: readonly ScanResult[], scanIds: readonly string[], flag: 'isConflict' | 'isExitRecordedOnUpload'): ScanResult[] {
  const wanted = new Set(scanIds);
  return scans.map((scan) => (wanted.has(scan.id) ? { ...scan, [flag]: true } : scan));
}

/** Keeps `scans` for `scope` in tab memory, replacing what was kept for any event day or list. */
export function keepRecentScans(scope: ScannerScope, scans: readonly ScanResult[]): void {
  writeTabMemory(tabMemoryKeys.recentScans, { eventId: scope.eventId, day: scope.day, checkInListId: scope.checkInListId ?? null, scans });
}

/**
 * A scan's time on the device's clock, 24-hour 'HH:mm', or 'HH:mm:ss' with `precision` 'seconds'
 * (the conflicts list: two admissions of one ticket are often in the same minute); date-fns; '' for
 * an unreadable time.
 */
export function recentScanTime(timestamp: string, precision: 'minutes' | 'seconds' = 'minutes'): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? '' : format(date, precision === 'seconds' ? 'HH:mm:ss' : 'HH:mm');
}
