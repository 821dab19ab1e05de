/** Organizations of the signed-in user (SPEC §7 GET /organizations/membership). */
import { OrganizationList } from '@gatecheck/contract/organizations';
import { apiPaths } from '@gatecheck/contract/paths';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.ts';
import { persistedQuery } from '@/lib/query-persister.ts';
import type { OrganizationItem } from '@/lib/entities.ts';
import { toOrganizationItem } from './organizations-logic.ts';
import { t } from '@/lib/i18n/index.ts';

/** GET /organizations/membership, mapped to local organizations. @throws {ApiError} */
async function fetchOrganizations(signal?: AbortSignal): Promise<OrganizationItem[]> {
  const organizations = await apiRequest(apiPaths.organizations, { schema: OrganizationList, signal });
  return organizations.map(toOrganizationItem);
}

export const organizationQueries = {
  all: () => ['organizations'] as const,
  /** The user's organizations; a final failure toasts 'Error' / 'Could not load organizations' (SPEC §8). */
  list: () =>
    queryOptions({
      queryKey: [...organizationQueries.all(), 'list'] as const,
      queryFn: ({ signal }) => fetchOrganizations(signal),
      // Kept in IndexedDB, so the screen shows it when the app starts offline (docs/decisions/056).
      persister: persistedQuery,
      meta: { errorToast: { title: t('common.error'), description: t('organizations.loadFailed') } },
    }),
};
