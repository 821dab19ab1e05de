/**
 * The supervisor calls (issue 11) as TanStack queries and mutations: attendee search, manual
 * check-in, undo with a reason, and the scan log a page at a time. Paths and shapes from the
 * contract.
 */
import {
  AttendeeSearchResponse,
  ManualCheckInResponse,
  ScanLogPage,
  type ScanLogVerdict,
  supervisorPaths,
  UndoCheckInResponse,
} from '@gatecheck/contract';
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.ts';
import { t } from '@/lib/i18n/index.ts';
import { isSearchable } from './supervisor-logic.ts';

/** How often the open scan log is read again, in ms (the scanner's counts: every 30 s). */
export const SCAN_LOG_REFRESH_MS = 15_000;

export const supervisorQueries = {
  all: () => ['supervisor'] as const,
  /** GET …/attendees?q=&day= (only when `text` is searchable). @throws {ApiError} */
  search: (eventId: string, day: number, text: string) =>
    queryOptions({
      queryKey: [...supervisorQueries.all(), 'search', eventId, day, text.trim()] as const,
      queryFn: ({ signal }) =>
        apiRequest(`${supervisorPaths.attendeeSearch(eventId)}?${new URLSearchParams({ q: text.trim(), day: String(day) })}`, {
          schema: AttendeeSearchResponse,
          signal,
        }),
      enabled: isSearchable(text),
    }),
  /**
   * GET …/scan-log?day=&verdict=&cursor=, newest first, 50 a page; read again every
   * `SCAN_LOG_REFRESH_MS` while the screen is shown and only its first page is loaded, so the
   * gates' scans appear as they come (with 'Load more' pages, every page would be read again).
   * @throws {ApiError}
   */
  scanLog: (eventId: string, day: number, verdict: ScanLogVerdict | 'all') =>
    infiniteQueryOptions({
      queryKey: [...supervisorQueries.all(), 'scan-log', eventId, day, verdict] as const,
      queryFn: ({ signal, pageParam }) => {
        const query = new URLSearchParams({ day: String(day), ...(verdict === 'all' ? {} : { verdict }), ...(pageParam ? { cursor: pageParam } : {}) });
        return apiRequest(`${supervisorPaths.scanLog(eventId)}?${query}`, { schema: ScanLogPage, signal });
      },
      initialPageParam: '',
      getNextPageParam: (page) => page.nextCursor ?? undefined,
      refetchInterval: (query) => ((query.state.data?.pages.length ?? 1) > 1 ? false : SCAN_LOG_REFRESH_MS),
    }),
};

/**
 * POST …/attendees/{ticketId}/check-in for the selected day, under `scanId` (the id its check-in
 * keeps: an undo from the scanner's recent scans names it); refreshes the search and the log.
 */
export function useManualCheckIn(eventId: string, day: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, scanId }: { ticketId: string; scanId: string }) =>
      apiRequest(supervisorPaths.manualCheckIn(eventId, ticketId), { method: 'POST', body: { day, scanId }, schema: ManualCheckInResponse }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: supervisorQueries.all() }),
  });
}

/** POST …/attendees/{ticketId}/undo-check-in with a reason; refreshes the search and the log. */
export function useUndoCheckIn(eventId: string, day: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, reason }: { ticketId: string; reason: string }) =>
      apiRequest(supervisorPaths.undoCheckIn(eventId, ticketId), { method: 'POST', body: { day, reason }, schema: UndoCheckInResponse }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: supervisorQueries.all() }),
  });
}

/**
 * Undo by ticket code (issue 11), for a check-in known only by the code that was scanned (the
 * scanner's recent scans): finds the selected event's ticket with exactly that code (letter case
 * ignored, as verify does) through the attendee search, then POSTs …/undo-check-in with `reason`
 * and, when given, the `scanId` whose check-in alone may be undone. Refreshes the search and the log.
 * @throws {ApiError} from either call (409 when the ticket is not checked in that day, or its
 *   check-in is another scan's);
 * @throws {Error} 'Ticket not found' when no ticket of the event has the code.
 */
export function useUndoCheckInByCode(eventId: string, day: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ code, reason, scanId }: { code: string; reason: string; scanId?: string | undefined }) => {
      const wanted = code.trim().toLowerCase();
      const found = isSearchable(code) ? await queryClient.fetchQuery({ ...supervisorQueries.search(eventId, day, code), staleTime: 0 }) : null;
      const attendee = found?.attendees.find((candidate) => candidate.code.toLowerCase() === wanted);
      if (!attendee) throw new Error(t('scanner.notFound'));
      return apiRequest(supervisorPaths.undoCheckIn(eventId, attendee.ticketId), { method: 'POST', body: { day, reason, scanId }, schema: UndoCheckInResponse });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: supervisorQueries.all() }),
  });
}
