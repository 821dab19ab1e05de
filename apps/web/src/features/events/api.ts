/** Events of an organization (SPEC §7 GET /organizations/membership/{organizationId}). */
import { EventList } from '@gatecheck/contract/organizations';
import { organizationEventsPath } from '@gatecheck/contract/paths';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.ts';
import { persistedQuery } from '@/lib/query-persister.ts';
import type { EventItem } from '@/lib/entities.ts';
import { toEventItem } from './events-logic.ts';
import { t } from '@/lib/i18n/index.ts';

/** GET /organizations/membership/{organizationId}, mapped to local events. @throws {ApiError} */
async function fetchEvents(organizationId: string, signal?: AbortSignal): Promise<EventItem[]> {
  const events = await apiRequest(organizationEventsPath(organizationId), { schema: EventList, signal });
  return events.map(toEventItem);
}

export const eventQueries = {
  all: () => ['events'] as const,
  /** The organization's events; a final failure toasts 'Error' / 'Failed to fetch events' (SPEC §8). */
  list: (organizationId: string) =>
    queryOptions({
      queryKey: [...eventQueries.all(), 'list', organizationId] as const,
      queryFn: ({ signal }) => fetchEvents(organizationId, signal),
      // Kept in IndexedDB, so the screen shows it when the app starts offline (docs/decisions/056).
      persister: persistedQuery,
      meta: { errorToast: { title: t('common.error'), description: t('events.loadFailed') } },
    }),
};
