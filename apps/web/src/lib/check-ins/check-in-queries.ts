/**
 * The check-in data of an event day on the web, in one place (docs/decisions/097): one key root per
 * event day, `checkInKeys.day(eventId, day)`, with everything the server knows about that day's
 * check-ins below it — the counts, the conflicts of offline uploads, the scan log, the attendee
 * search — and the device's recent scans. Every write to the day's check-ins (a verify, a manual
 * check-in, an undo, an offline upload) ends in `refreshCheckInDay`, one invalidation of that root,
 * so each screen showing the day reads it again, whichever screen made the change.
 *
 * Shared by the scanner and the supervisor features, so it sits below them, in lib/ (features do
 * not import each other); it imports only the contract and lib. The scan log's and the attendee
 * search's queries are attendee-queries.ts, the live door's live-door-query.ts: the scanner's first
 * screen loads without their schemas (docs/decisions/128).
 */
import { CheckInCounts } from '@gatecheck/contract/check-in-counts';
import { OfflineConflictList } from '@gatecheck/contract/offline-scans';
import { checkInCountsPath, offlinePaths } from '@gatecheck/contract/paths';
import type { ScanLogVerdict } from '@gatecheck/contract/supervisor';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.ts';

/** While the scanner is open the counts are fetched again at least this often, in ms. */
export const CHECK_IN_COUNTS_REFRESH_MS = 30_000;

/**
 * Which event day: the selected event's id (null or '' when none is stored, SPEC §5) and day number;
 * and the check-in list scanned at (`checkInListId`, docs/decisions/109), absent for the event's first.
 */
export interface CheckInDay {
  eventId: string | null;
  day: number;
  checkInListId?: string | undefined;
}

/** `?checkInListId=` for a call that takes one, or nothing for the event's first list. */
export function listParam(checkInListId: string | undefined): Record<string, string> {
  return checkInListId ? { checkInListId } : {};
}

/**
 * The query keys of check-in data (TkDodo's key factories): `['check-ins', eventId, day, ...]`.
 * Everything of one event day starts with `day(eventId, day)`; a key of one kind without its last
 * part (`scanLogs`, `searches`) matches every variant of that kind.
 */
export const checkInKeys = {
  all: () => ['check-ins'] as const,
  /** The root of one event day: invalidating it refreshes all of the day's check-in data. */
  day: (eventId: string | null, day: number) => [...checkInKeys.all(), eventId, day] as const,
  /** The counts at a check-in list (null: the event's first, no list named) under the day's root. */
  counts: (eventId: string, day: number, checkInListId?: string) => [...checkInKeys.day(eventId, day), 'counts', checkInListId ?? null] as const,
  /** This device's recent verdicts of the day at a check-in list (kept by the scanner in tab memory). */
  recent: (eventId: string | null, day: number, checkInListId?: string) => [...checkInKeys.day(eventId, day), 'recent', checkInListId ?? null] as const,
  /** The day's offline conflicts at a check-in list (null: every list's, as before lists). */
  conflicts: (eventId: string, day: number, checkInListId?: string) => [...checkInKeys.day(eventId, day), 'conflicts', checkInListId ?? null] as const,
  scanLogs: (eventId: string, day: number) => [...checkInKeys.day(eventId, day), 'scan-log'] as const,
  scanLog: (eventId: string, day: number, verdict: ScanLogVerdict | 'all') => [...checkInKeys.scanLogs(eventId, day), verdict] as const,
  searches: (eventId: string, day: number) => [...checkInKeys.day(eventId, day), 'search'] as const,
  /** The live door's figures of the day (docs/decisions/117). */
  live: (eventId: string, day: number) => [...checkInKeys.day(eventId, day), 'live'] as const,
  search: (eventId: string, day: number, text: string, checkInListId?: string) => [...checkInKeys.searches(eventId, day), checkInListId ?? null, text.trim()] as const,
};

/**
 * GET /events/{eventId}/days/{day}/counts, with `?checkInListId=` when given (the answer then carries
 * the list's counts too, decision 101). @throws {ApiError} on a network failure or an error answer.
 */
export async function fetchCheckInCounts(eventId: string, day: number, signal?: AbortSignal, checkInListId?: string): Promise<CheckInCounts> {
  const query = new URLSearchParams(listParam(checkInListId)).toString();
  return apiRequest(`${checkInCountsPath(eventId, day)}${query ? `?${query}` : ''}`, { schema: CheckInCounts, signal });
}

/** The server's check-in data of an event day as query options; each call @throws {ApiError}. */
export const checkInQueries = {
  /**
   * 'Checked in N / M' of the day: refetched every `CHECK_IN_COUNTS_REFRESH_MS` while shown and
   * with the day's root. No error toast: the header keeps the last numbers it had.
   */
  counts: (eventId: string, day: number, checkInListId?: string) =>
    queryOptions({
      queryKey: checkInKeys.counts(eventId, day, checkInListId),
      queryFn: ({ signal }) => fetchCheckInCounts(eventId, day, signal, checkInListId),
      refetchInterval: CHECK_IN_COUNTS_REFRESH_MS,
      // No event id stored: nothing to count (verify refuses too, SPEC §5).
      enabled: eventId !== '',
    }),
  /**
   * The day's conflicts (GET conflicts, decision 045), fetched while the 'Conflicts' list is open;
   * at a chosen check-in list only that list's (`?checkInListId=`, docs/decisions/113).
   */
  conflicts: (eventId: string, day: number, checkInListId?: string) =>
    queryOptions({
      queryKey: checkInKeys.conflicts(eventId, day, checkInListId),
      queryFn: ({ signal }) => {
        const query = new URLSearchParams(listParam(checkInListId)).toString();
        return apiRequest(`${offlinePaths.offlineConflicts(eventId, day)}${query ? `?${query}` : ''}`, { schema: OfflineConflictList, signal });
      },
    }),
};

/**
 * Puts a verdict's occupancy — `insideNow` and `capacity` of the list it was given at, after it
 * (verify and the manual check-in answer them at a list that counts its guests inside, decisions
 * 111, 120) — into the day's cached counts of that list, so the header shows the new number with
 * the verdict instead of the old one until the counts are read again. Counts that carry a list's
 * (`checkInList`: a list named by `scope.checkInListId`, or filled in by the server for a phone bound
 * to one list, docs/decisions/116) take it as that list's, whatever the key; the top-level
 * `insideNow` is the whole event's, so it takes the verdict's figure only when no list is in the
 * counts and none is named (an event of one list, where both are the same). A verdict without
 * them, or counts not read yet, change nothing.
 */
export function recordOccupancy(queryClient: QueryClient, scope: CheckInDay, occupancy: { insideNow?: number | undefined; capacity?: number | null | undefined }): void {
  const { insideNow, capacity } = occupancy;
  if (!scope.eventId || insideNow === undefined) return;
  queryClient.setQueryData(checkInKeys.counts(scope.eventId, scope.day, scope.checkInListId), (counts: CheckInCounts | undefined) => {
    if (counts === undefined) return counts;
    if (counts.checkInList !== undefined) return { ...counts, checkInList: { ...counts.checkInList, insideNow, ...(capacity === undefined ? {} : { capacity }) } };
    return scope.checkInListId === undefined ? { ...counts, insideNow } : counts;
  });
}

/**
 * After the server recorded something for `scope`'s check-ins (a verify's verdict, a manual
 * check-in, an undo, an offline upload): marks all of that day's check-in data stale, and refetches
 * what is shown. Every list's data of the day (a check-in at one list changes the event's counts shown
 * at another). Resolves when the refetches have settled. No event id: nothing to refresh.
 */
export function refreshCheckInDay(queryClient: QueryClient, scope: CheckInDay): Promise<void> {
  if (!scope.eventId) return Promise.resolve();
  return queryClient.invalidateQueries({ queryKey: checkInKeys.day(scope.eventId, scope.day) });
}
