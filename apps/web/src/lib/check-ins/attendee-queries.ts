/**
 * The supervisor's reads of an event day's attendees (issue 11): the scan log and the attendee
 * search, under the day's key root of check-in-queries.ts (`checkInKeys`), so every write to the
 * day's check-ins refreshes them too (docs/decisions/097). Apart from the scanner's counts so the
 * scanner's first screen loads without their schemas; 'Find attendee' and the supervisor's screen
 * load them (docs/decisions/128).
 */
import { supervisorPaths } from '@gatecheck/contract/paths';
import { ATTENDEE_SEARCH_MIN_LENGTH, AttendeeSearchResponse, ScanLogPage, type ScanLogVerdict } from '@gatecheck/contract/supervisor';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.ts';
import { checkInKeys, listParam } from './check-in-queries.ts';

/** How often the open scan log is read again, in ms (the scanner's counts: every 30 s). */
export const SCAN_LOG_REFRESH_MS = 15_000;

/** Whether `text` is long enough to search (trimmed, at least `ATTENDEE_SEARCH_MIN_LENGTH` = 3 characters; fewer lists nobody). */
export function isSearchable(text: string): boolean {
  return text.trim().length >= ATTENDEE_SEARCH_MIN_LENGTH;
}

/** The scan log and the attendee search as query options; each call @throws {ApiError}. */
export const attendeeQueries = {
  /**
   * GET …/scan-log?day=&verdict=&cursor=, newest first, 50 a page; read again every
   * `SCAN_LOG_REFRESH_MS` while the screen is shown and only its first page is loaded, so the
   * gates' scans appear as they come (with 'Load more' pages, every page would be read again).
   */
  scanLog: (eventId: string, day: number, verdict: ScanLogVerdict | 'all') =>
    infiniteQueryOptions({
      queryKey: checkInKeys.scanLog(eventId, day, verdict),
      queryFn: ({ signal, pageParam }) => {
        const query = new URLSearchParams({ day: String(day), ...(verdict === 'all' ? {} : { verdict }), ...(pageParam ? { cursor: pageParam } : {}) });
        return apiRequest(`${supervisorPaths.scanLog(eventId)}?${query}`, { schema: ScanLogPage, signal });
      },
      initialPageParam: '',
      getNextPageParam: (page) => page.nextCursor ?? undefined,
      refetchInterval: (query) => ((query.state.data?.pages.length ?? 1) > 1 ? false : SCAN_LOG_REFRESH_MS),
    }),
  /** GET …/attendees?q=&day=&checkInListId= (only when `text` is searchable); check-ins as at the list. */
  search: (eventId: string, day: number, text: string, checkInListId?: string) =>
    queryOptions({
      queryKey: checkInKeys.search(eventId, day, text, checkInListId),
      queryFn: ({ signal }) =>
        apiRequest(`${supervisorPaths.attendeeSearch(eventId)}?${new URLSearchParams({ q: text.trim(), day: String(day), ...listParam(checkInListId) })}`, {
          schema: AttendeeSearchResponse,
          signal,
        }),
      enabled: isSearchable(text),
    }),
};
