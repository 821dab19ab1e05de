/**
 * The management area's ticket calls (docs/decisions/114): an event's ticket types and a ticket
 * search as query-options, the writes as TanStack mutations (each refreshes the management area's
 * data, the Activity page included), and the CSV upload: `previewTicketCsv` (what the import would
 * do) and `importTicketCsv` (reads the server's progress lines as they come). Paths and shapes
 * from the contract.
 */
import { TicketType, TicketTypesResponse } from '@gatecheck/contract/check-in-notes';
import { type CreateTicketTypeRequest, type EditTicketRequest, type EditTicketTypeRequest, ManagedTicket, ManagedTicketList, manageTicketPaths, TicketImportSummary } from '@gatecheck/contract/ticket-management';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiFetch, apiRequest } from '@/lib/api-client.ts';
import { manageQueries } from './api.ts';
import { readImportLines } from './tickets-logic.ts';

export const ticketQueries = {
  /** GET the event's ticket types with their ticket counts. @throws {ApiError} */
  types: (eventId: string) =>
    queryOptions({
      queryKey: [...manageQueries.all(), 'event', eventId, 'ticket-types'] as const,
      queryFn: ({ signal }) => apiRequest(manageTicketPaths.ticketTypes(eventId), { schema: TicketTypesResponse, signal }).then((answer) => answer.ticketTypes),
    }),
  /** GET tickets by name or code ('' = the first by name). */
  search: (eventId: string, query: string) =>
    queryOptions({
      queryKey: [...manageQueries.all(), 'event', eventId, 'tickets', query] as const,
      queryFn: ({ signal }) => apiRequest(manageTicketPaths.tickets(eventId, query), { schema: ManagedTicketList, signal }),
    }),
};

/** Refreshes everything the management area holds of the event (types, tickets, counts, activity). */
function useRefreshEvent(eventId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [...manageQueries.all(), 'event', eventId] });
}

/** POST a new ticket type. */
export function useCreateTicketType(eventId: string) {
  const refresh = useRefreshEvent(eventId);
  return useMutation({
    mutationFn: (request: CreateTicketTypeRequest) => apiRequest(manageTicketPaths.ticketTypes(eventId), { method: 'POST', body: request, schema: TicketType }),
    onSuccess: refresh,
  });
}

/** POST a type's note, flag, days and (when given) its new name (docs/decisions/125). */
export function useEditTicketType(eventId: string) {
  const refresh = useRefreshEvent(eventId);
  return useMutation({
    mutationFn: ({ name, change }: { name: string; change: EditTicketTypeRequest }) =>
      apiRequest(manageTicketPaths.ticketType(eventId, name), { method: 'POST', body: change, schema: TicketType }),
    onSuccess: refresh,
  });
}

/** POST delete of a type (409 while tickets, check-ins or a list use it). */
export function useDeleteTicketType(eventId: string) {
  const refresh = useRefreshEvent(eventId);
  return useMutation({
    mutationFn: (name: string) => apiRequest(manageTicketPaths.deleteTicketType(eventId, name), { method: 'POST', schema: TicketTypesResponse }),
    onSuccess: refresh,
  });
}

/** POST a ticket's holder and type. */
export function useEditTicket(eventId: string) {
  const refresh = useRefreshEvent(eventId);
  return useMutation({
    mutationFn: ({ ticketId, change }: { ticketId: string; change: EditTicketRequest }) =>
      apiRequest(manageTicketPaths.ticket(eventId, ticketId), { method: 'POST', body: change, schema: ManagedTicket }),
    onSuccess: refresh,
  });
}

/** POST revoke (`isRevoked`) or reinstate of a ticket. */
export function useRevokeTicket(eventId: string) {
  const refresh = useRefreshEvent(eventId);
  return useMutation({
    mutationFn: ({ ticketId, isRevoked }: { ticketId: string; isRevoked: boolean }) =>
      apiRequest(isRevoked ? manageTicketPaths.revokeTicket(eventId, ticketId) : manageTicketPaths.reinstateTicket(eventId, ticketId), { method: 'POST', schema: ManagedTicket }),
    onSuccess: refresh,
  });
}

/** POST the CSV file for its preview: what importing it would do. @throws {ApiError} (400 for a file refused whole) */
export async function previewTicketCsv(eventId: string, file: Blob): Promise<TicketImportSummary> {
  const response = await apiFetch(manageTicketPaths.importPreview(eventId), { method: 'POST', body: file, contentType: 'text/csv' });
  const parsed = TicketImportSummary.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new ApiError(response.status, 'invalid_response', 'The server answered in an unexpected format.');
  return parsed.data;
}

/**
 * POST the CSV file to import it; `onProgress(rows, bytes)` as the server's batches commit.
 * @returns the import's summary.
 * @throws {ApiError} before anything is imported (400 for a file refused whole), or with the
 *   server's code when the import stopped part way (the batches before stay imported).
 */
export async function importTicketCsv(eventId: string, file: Blob, onProgress: (progress: { rows: number; bytes: number }) => void): Promise<TicketImportSummary> {
  const response = await apiFetch(manageTicketPaths.importTickets(eventId), { method: 'POST', body: file, contentType: 'text/csv' });
  if (!response.body) throw new ApiError(response.status, 'invalid_response', 'The server answered in an unexpected format.');
  for await (const line of readImportLines(response.body)) {
    if (line.type === 'progress') onProgress(line);
    else if (line.type === 'done') return line.summary;
    else throw new ApiError(500, line.code, line.message);
  }
  throw new ApiError(0, 'network_error', 'The import stopped before the server said it was done.');
}
