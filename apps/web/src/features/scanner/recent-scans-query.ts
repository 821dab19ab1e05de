/**
 * The scanner's 'Recent scans' as query data, under the event day's check-in root
 * (`checkInKeys.recent`, lib/check-ins, docs/decisions/097), and what a verdict, an undo and an
 * offline upload change in them. The server's data of the day is refreshed by the calls that write
 * it (`refreshCheckInDay`): the verify mutation (api.ts), the supervisor's mutations, an upload.
 */
import { type QueryClient, queryOptions, skipToken } from '@tanstack/react-query';
import { type CheckInDay, checkInKeys, refreshCheckInDay } from '@/lib/check-ins/check-in-queries.ts';
import { t } from '@/lib/i18n/index.ts';
import { notify } from '@/lib/toast.ts';
import type { ScanResult, UndoneCheckIn } from './scanner-logic.ts';
import { keepRecentScans, readRecentScans, withRecentScan, withScansMarked, withUndoneCheckIn } from './recent-scans.ts';
import { isSameScope, type ScannerScope } from './scanner-memory.ts';

/**
 * The day's last verdicts on this device, newest first (recent-scans.ts): read from tab memory when
 * first shown, then changed only by the functions below. Device data, never fetched: a refresh of
 * the day's root (`refreshCheckInDay`) leaves it as it is, so a read of tab memory under way can
 * never put back a list older than the verdict just recorded.
 */
export function recentScansQuery(scope: ScannerScope) {
  return queryOptions({
    // Per check-in list (docs/decisions/113): another list's scans are never shown here.
    queryKey: checkInKeys.recent(scope.eventId, scope.day, scope.checkInListId),
    queryFn: skipToken,
    initialData: () => readRecentScans(scope),
    staleTime: Infinity,
  });
}

/** Applies `change` to the recent scans of `scope`, in tab memory and in the query cache. */
function changeRecentScans(queryClient: QueryClient, scope: ScannerScope, change: (scans: readonly ScanResult[]) => ScanResult[]): void {
  const recentKey = recentScansQuery(scope).queryKey;
  const scans = change(queryClient.getQueryData(recentKey) ?? readRecentScans(scope));
  keepRecentScans(scope, scans);
  queryClient.setQueryData(recentKey, scans);
}

/** After a verdict for `scope`: puts `result` first in the day's recent scans. */
export function recordVerdict(queryClient: QueryClient, scope: ScannerScope, result: ScanResult): void {
  changeRecentScans(queryClient, scope, (scans) => withRecentScan(scans, result));
}

/**
 * After a supervisor undid the check-in of ticket `code` for `scope` (the undo mutation refreshed
 * the day): marks its approval in the day's recent scans as `undone` (see `withUndoneCheckIn`).
 */
export function recordUndo(queryClient: QueryClient, scope: ScannerScope, code: string, undone: UndoneCheckIn): void {
  changeRecentScans(queryClient, scope, (scans) => withUndoneCheckIn(scans, code, undone));
}

/** What `recordUpload` needs of an upload round's outcome (`UploadOutcome` of offline/outbox.ts). */
export interface UploadRecord {
  /** The scans the server answered `conflict` for, each with its event day and check-in list. */
  conflicts: readonly { scanId: string; eventId: string; day: number; checkInListId?: string | undefined }[];
  /** Exits this device denied 'Not inside' that the server recorded (docs/decisions/150), each with its event day and list. */
  exitsRecorded?: readonly { scanId: string; eventId: string; day: number; checkInListId?: string | undefined }[];
  /** The event days (and check-in lists) of which the server recorded scans. */
  days: readonly (CheckInDay & { eventId: string })[];
}

/**
 * After an outbox upload round (`uploadOutbox`; an upload sends every day's scans): the scans the
 * server answered `conflict` for are marked `conflict` in their day's recent scans, and a toast says
 * so (a ticket let in twice must not go unnoticed); the exits this device denied 'Not inside' that
 * the server recorded are marked `isExitRecordedOnUpload` (docs/decisions/150); then every event day
 * the server recorded scans of is refreshed (`refreshCheckInDay`: counts, inside now, 'Conflicts',
 * scan log ...).
 */
export function recordUpload(queryClient: QueryClient, outcome: UploadRecord): void {
  const { conflicts, days } = outcome;
  const exitsRecorded = outcome.exitsRecorded ?? [];
  if (conflicts.length > 0) {
    notify({ title: t('offline.conflictsFound', { count: conflicts.length }), description: t('offline.conflictsFoundHint'), variant: 'error', isKeptOnLanguageChange: true });
  }
  for (const scope of days) {
    const scanIds = conflicts.filter((conflict) => isSameScope(conflict, scope)).map((conflict) => conflict.scanId);
    if (scanIds.length > 0) changeRecentScans(queryClient, scope, (scans) => withScansMarked(scans, scanIds, 'isConflict'));
    const exitIds = exitsRecorded.filter((exit) => isSameScope(exit, scope)).map((exit) => exit.scanId);
    if (exitIds.length > 0) changeRecentScans(queryClient, scope, (scans) => withScansMarked(scans, exitIds, 'isExitRecordedOnUpload'));
    void refreshCheckInDay(queryClient, scope);
  }
}
