/**
 * The management area's calls (docs/decisions/105, 106, 115): an organization's events, one event,
 * its activity, its check-in lists and ticket types, and the writes (create, save, archive,
 * restore; add, save and delete a check-in list) as TanStack mutations. Every write
 * refreshes the management area's data of the event; the screen refreshes the scanner's lists.
 * Paths and shapes from the contract.
 */
import { CheckInList, CheckInLists, type CreateCheckInListRequest, type EditCheckInListRequest } from '@gatecheck/contract/check-in-lists';
import { TicketTypesResponse } from '@gatecheck/contract/check-in-notes';
import {
  AuditEntryList,
  type EventRequest,
  ManagedEvent,
  ManagedEventList,
  managePaths,
  OrganizationAuditEntryList,
  type UpdateEventRequest,
} from '@gatecheck/contract/event-management';
import { apiPaths, checkInListPath, checkInListsPath } from '@gatecheck/contract/paths';
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.ts';

/** Activity entries a page asks for. */
export const ACTIVITY_PAGE_SIZE = 50;

/** The cursor of the page after `page` (its last entry's id), or undefined when `page` was the last (shorter than a page). */
export function olderPageOf(page: ReadonlyArray<{ id: string }>): string | undefined {
  return page.length < ACTIVITY_PAGE_SIZE ? undefined : page.at(-1)?.id;
}

export const manageQueries = {
  all: () => ['manage'] as const,
  /** GET the organization's events, archived ones too. @throws {ApiError} */
  events: (organizationId: string) =>
    queryOptions({
      queryKey: [...manageQueries.all(), 'events', organizationId] as const,
      queryFn: ({ signal }) => apiRequest(managePaths.organizationEvents(organizationId), { schema: ManagedEventList, signal }),
    }),
  /** GET one event with its days and counts. */
  event: (eventId: string) =>
    queryOptions({
      queryKey: [...manageQueries.all(), 'event', eventId] as const,
      queryFn: ({ signal }) => apiRequest(managePaths.event(eventId), { schema: ManagedEvent, signal }),
    }),
  /**
   * GET the event's audit trail, newest first, ACTIVITY_PAGE_SIZE entries a page; the next page is
   * the entries older than the last one shown (docs/decisions/126), none after a short page.
   */
  activity: (eventId: string) =>
    infiniteQueryOptions({
      queryKey: [...manageQueries.all(), 'event', eventId, 'activity'] as const,
      queryFn: ({ pageParam, signal }) =>
        apiRequest(managePaths.eventActivity(eventId, { before: pageParam, limit: ACTIVITY_PAGE_SIZE }), { schema: AuditEntryList, signal }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: olderPageOf,
    }),
  /** GET the organization's own audit trail (team, invitations, devices; docs/decisions/126), newest first, a page at a time. */
  organizationActivity: (organizationId: string) =>
    infiniteQueryOptions({
      queryKey: [...manageQueries.all(), 'organization', organizationId, 'activity'] as const,
      queryFn: ({ pageParam, signal }) =>
        apiRequest(managePaths.organizationActivity(organizationId, { before: pageParam, limit: ACTIVITY_PAGE_SIZE }), { schema: OrganizationAuditEntryList, signal }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: olderPageOf,
    }),
  /** GET the event's check-in lists, first list first. */
  checkInLists: (eventId: string) =>
    queryOptions({
      queryKey: [...manageQueries.all(), 'event', eventId, 'check-in-lists'] as const,
      queryFn: ({ signal }) => apiRequest(checkInListsPath(eventId), { schema: CheckInLists, signal }),
    }),
  /** GET the event's ticket types (the names a check-in list can admit). */
  ticketTypes: (eventId: string) =>
    queryOptions({
      queryKey: [...manageQueries.all(), 'event', eventId, 'ticket-types'] as const,
      queryFn: ({ signal }) => apiRequest(apiPaths.ticketTypes.replace(':eventId', encodeURIComponent(eventId)), { schema: TicketTypesResponse, signal }),
    }),
};

/** POST a new check-in list of `eventId`; resolves to the list. */
export function useCreateCheckInList(eventId: string) {
  const refresh = useRefreshManage();
  return useMutation({
    mutationFn: (request: CreateCheckInListRequest) => apiRequest(checkInListsPath(eventId), { method: 'POST', body: request, schema: CheckInList }),
    onSuccess: refresh,
  });
}

/** PATCH a check-in list of `eventId` with the whole form; resolves to the list as saved. */
export function useSaveCheckInList(eventId: string) {
  const refresh = useRefreshManage();
  return useMutation({
    mutationFn: ({ checkInListId, request }: { checkInListId: string; request: EditCheckInListRequest }) =>
      apiRequest(checkInListPath(eventId, checkInListId), { method: 'PATCH', body: request, schema: CheckInList }),
    onSuccess: refresh,
  });
}

/** DELETE a check-in list of `eventId` (refused with 409 while it has check-ins); resolves to the deleted list. */
export function useDeleteCheckInList(eventId: string) {
  const refresh = useRefreshManage();
  return useMutation({
    mutationFn: (checkInListId: string) => apiRequest(checkInListPath(eventId, checkInListId), { method: 'DELETE', schema: CheckInList }),
    onSuccess: refresh,
  });
}

/** Refreshes everything the management area holds (lists, events, activity). */
function useRefreshManage() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: manageQueries.all() });
}

/** POST a new event of `organizationId`; resolves to the created event. */
export function useCreateEvent(organizationId: string) {
  const refresh = useRefreshManage();
  return useMutation({
    mutationFn: (request: EventRequest) => apiRequest(managePaths.organizationEvents(organizationId), { method: 'POST', body: request, schema: ManagedEvent }),
    onSuccess: refresh,
  });
}

/**
 * POST the event's settings and days; resolves to the event as saved. A day with check-ins moved
 * to another date is refused 409 `confirmation_required` unless the request has `confirm: true`
 * (docs/decisions/145).
 */
export function useSaveEvent(eventId: string) {
  const refresh = useRefreshManage();
  return useMutation({
    mutationFn: (request: UpdateEventRequest) => apiRequest(managePaths.event(eventId), { method: 'POST', body: request, schema: ManagedEvent }),
    onSuccess: refresh,
  });
}

/** POST archive or restore of the event. */
export function useArchiveEvent(eventId: string) {
  const refresh = useRefreshManage();
  return useMutation({
    mutationFn: (action: 'archive' | 'restore') =>
      apiRequest(action === 'archive' ? managePaths.archiveEvent(eventId) : managePaths.restoreEvent(eventId), { method: 'POST', schema: ManagedEvent }),
    onSuccess: refresh,
  });
}
