/**
 * Check-in state as query data (SEAMS §6): the live counts of the selected event day (issue 10 item
 * 4, from GET /events/{eventId}/days/{day}/counts) and its recent scans (item 5, kept on the device),
 * under one key factory, so the verify mutation (api.ts) can refresh them after a verdict.
 */
import { CheckInCounts, checkInCountsPath } from '@gatecheck/contract';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.ts';
import { t } from '@/lib/i18n/index.ts';
import { notify } from '@/lib/toast.ts';
import { offlineQueries } from './offline/offline-api.ts';
import type { ScanResult, UndoneCheckIn } from './scanner-logic.ts';
import { keepRecentScans, readRecentScans, withConflicts, withRecentScan, withUndoneCheckIn } from './recent-scans.ts';
import type { ScannerScope } from './scanner-memory.ts';

/** While the scanner is open the counts are fetched again at least this often, in ms (issue 10 item 4). */
export const CHECK_IN_COUNTS_REFRESH_MS = 30_000;

/** GET /events/{eventId}/days/{day}/counts. @throws {ApiError} on a network failure or an error answer. */
export async function fetchCheckInCounts(eventId: string, day: number, signal?: AbortSignal): Promise<CheckInCounts> {
  return apiRequest(checkInCountsPath(eventId, day), { schema: CheckInCounts, signal });
}

export const checkInQueries = {
  all: () => ['check-ins'] as const,
  /** Everything about one event day. */
  day: (eventId: string | null, day: number) => [...checkInQueries.all(), eventId, day] as const,
  /**
   * 'Checked in N / M' of the day: refetched every `CHECK_IN_COUNTS_REFRESH_MS` while shown, and when
   * a verify approves (api.ts). No error toast: the header keeps the last numbers it had.
   */
  counts: (eventId: string, day: number) =>
    queryOptions({
      queryKey: [...checkInQueries.day(eventId, day), 'counts'] as const,
      queryFn: ({ signal }) => fetchCheckInCounts(eventId, day, signal),
      refetchInterval: CHECK_IN_COUNTS_REFRESH_MS,
      // No event id stored: nothing to count (verify refuses too, SPEC §5).
      enabled: eventId !== '',
    }),
  /** The day's last verdicts on this device, newest first (recent-scans.ts); never stale, only added to. */
  recent: (eventId: string | null, day: number) =>
    queryOptions({
      queryKey: [...checkInQueries.day(eventId, day), 'recent'] as const,
      queryFn: () => readRecentScans({ eventId, day }),
      staleTime: Infinity,
    }),
};

/**
 * After a verdict for `scope`: puts `result` first in the day's recent scans (kept in tab memory and
 * in the query cache) and, for an approval, refetches the day's counts.
 */
export function recordVerdict(queryClient: QueryClient, scope: ScannerScope, result: ScanResult): void {
  const recentKey = checkInQueries.recent(scope.eventId, scope.day).queryKey;
  const scans = withRecentScan(queryClient.getQueryData(recentKey) ?? readRecentScans(scope), result);
  keepRecentScans(scope, scans);
  queryClient.setQueryData(recentKey, scans);
  if (result.isValid && scope.eventId) void queryClient.invalidateQueries({ queryKey: checkInQueries.counts(scope.eventId, scope.day).queryKey });
}

/**
 * After a supervisor undid the check-in of ticket `code` for `scope` (issue 11): marks its approval
 * in the day's recent scans as `undone` (tab memory and query cache; see `withUndoneCheckIn`) and
 * refetches the day's counts, which leave undone check-ins out.
 */
export function recordUndo(queryClient: QueryClient, scope: ScannerScope, code: string, undone: UndoneCheckIn): void {
  const recentKey = checkInQueries.recent(scope.eventId, scope.day).queryKey;
  const scans = withUndoneCheckIn(queryClient.getQueryData(recentKey) ?? readRecentScans(scope), code, undone);
  keepRecentScans(scope, scans);
  queryClient.setQueryData(recentKey, scans);
  if (scope.eventId) void queryClient.invalidateQueries({ queryKey: checkInQueries.counts(scope.eventId, scope.day).queryKey });
}

/**
 * After an outbox upload (issue 12 item 5): the scans of `scope` the server answered `conflict` for
 * (by scanId) are marked `conflict` in the day's recent scans (tab memory and query cache).
 */
export function recordConflicts(queryClient: QueryClient, scope: ScannerScope, scanIds: readonly string[]): void {
  const recentKey = checkInQueries.recent(scope.eventId, scope.day).queryKey;
  const scans = withConflicts(queryClient.getQueryData(recentKey) ?? readRecentScans(scope), scanIds);
  keepRecentScans(scope, scans);
  queryClient.setQueryData(recentKey, scans);
}

/**
 * `recordConflicts` for the scans of an upload, each under its own event day (an upload sends every
 * day's scans); says so in a toast (a ticket let in twice must not go unnoticed) and refreshes each
 * day's 'Conflicts' list.
 */
export function recordUploadConflicts(queryClient: QueryClient, conflicts: readonly { scanId: string; eventId: string; day: number }[]): void {
  if (conflicts.length > 0) {
    notify({ title: t('offline.conflictsFound', { count: conflicts.length }), description: t('offline.conflictsFoundHint'), variant: 'error', isKeptOnLanguageChange: true });
  }
  const byDay = new Map<string, { eventId: string; day: number; scanIds: string[] }>();
  for (const { scanId, eventId, day } of conflicts) {
    const key = `${eventId}\u0000${day}`;
    const group = byDay.get(key) ?? { eventId, day, scanIds: [] };
    group.scanIds.push(scanId);
    byDay.set(key, group);
  }
  for (const { eventId, day, scanIds } of byDay.values()) {
    recordConflicts(queryClient, { eventId, day }, scanIds);
    void queryClient.invalidateQueries({ queryKey: offlineQueries.conflicts(eventId, day).queryKey });
  }
}
