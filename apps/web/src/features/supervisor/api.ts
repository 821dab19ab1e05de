/**
 * The supervisor's writes (issue 11) as TanStack mutations: manual check-in and undo with a reason.
 * Each refreshes the event day's check-in data (`refreshCheckInDay`, lib/check-ins, decision 097),
 * where the attendee search and the scan log are read from. Paths and shapes from the contract.
 */
import { InfoScanResponse } from '@gatecheck/contract/doors';
import { infoScanPath, supervisorPaths } from '@gatecheck/contract/paths';
import { ManualCheckInResponse, UndoCheckInResponse } from '@gatecheck/contract/supervisor';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.ts';
import { attendeeQueries, isSearchable } from '@/lib/check-ins/attendee-queries.ts';
import { recordOccupancy, refreshCheckInDay } from '@/lib/check-ins/check-in-queries.ts';
import { t } from '@/lib/i18n/index.ts';

/** The body's `checkInListId` when a list was chosen (docs/decisions/109); absent: the event's first. */
function listField(checkInListId: string | undefined): { checkInListId?: string } {
  return checkInListId ? { checkInListId } : {};
}

/**
 * POST …/attendees/{ticketId}/check-in for the selected day at `checkInListId`, under `scanId` (the id its check-in
 * keeps: an undo from the scanner's recent scans names it); refreshes the day's check-in data.
 */
export function useManualCheckIn(eventId: string, day: number, checkInListId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, scanId }: { ticketId: string; scanId: string }) =>
      apiRequest(supervisorPaths.manualCheckIn(eventId, ticketId), { method: 'POST', body: { day, scanId, ...listField(checkInListId) }, schema: ManualCheckInResponse }),
    // The list's guests inside after it, as a verify's (decision 120), before the day is read again.
    onSuccess: (verdict) => recordOccupancy(queryClient, { eventId, day, checkInListId }, verdict),
    onSettled: () => refreshCheckInDay(queryClient, { eventId, day }),
  });
}

/** POST …/attendees/{ticketId}/undo-check-in with a reason; refreshes the day's check-in data. */
export function useUndoCheckIn(eventId: string, day: number, checkInListId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ticketId, reason }: { ticketId: string; reason: string }) =>
      apiRequest(supervisorPaths.undoCheckIn(eventId, ticketId), { method: 'POST', body: { day, reason, ...listField(checkInListId) }, schema: UndoCheckInResponse }),
    onSettled: () => refreshCheckInDay(queryClient, { eventId, day }),
  });
}

/**
 * Undo by ticket code (issue 11), for a check-in known only by the code that was scanned (the
 * scanner's recent scans): finds the selected event's ticket with exactly that code (letter case
 * ignored, as verify does) through the attendee search, then POSTs …/undo-check-in with `reason`
 * and, when given, the `scanId` whose check-in alone may be undone. Refreshes the day's check-in data.
 * @throws {ApiError} from either call (409 when the ticket is not checked in that day, or its
 *   check-in is another scan's);
 * @throws {Error} 'Ticket not found' when no ticket of the event has the code.
 */
export function useUndoCheckInByCode(eventId: string, day: number, checkInListId?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ code, reason, scanId }: { code: string; reason: string; scanId?: string | undefined }) => {
      const wanted = code.trim().toLowerCase();
      const found = isSearchable(code) ? await queryClient.fetchQuery({ ...attendeeQueries.search(eventId, day, code, checkInListId), staleTime: 0 }) : null;
      const attendee = found?.attendees.find((candidate) => candidate.code.toLowerCase() === wanted);
      if (!attendee) throw new Error(t('scanner.notFound'));
      return apiRequest(supervisorPaths.undoCheckIn(eventId, attendee.ticketId), { method: 'POST', body: { day, reason, scanId, ...listField(checkInListId) }, schema: UndoCheckInResponse });
    },
    onSettled: () => refreshCheckInDay(queryClient, { eventId, day }),
  });
}

/**
 * POST …/info-scan (docs/decisions/111, 113): the ticket's state on each check-in list of `day`,
 * nobody admitted (the server logs an info scan). Refreshes the day's check-in data (the scan log).
 * @throws {ApiError} on no answer or an error answer.
 */
export async function infoScan(queryClient: QueryClient, eventId: string, day: number, qrCode: string): Promise<InfoScanResponse> {
  try {
    return await apiRequest(infoScanPath(eventId), { method: 'POST', body: { qrCode, day, scanId: crypto.randomUUID() }, schema: InfoScanResponse });
  } finally {
    void refreshCheckInDay(queryClient, { eventId, day });
  }
}
