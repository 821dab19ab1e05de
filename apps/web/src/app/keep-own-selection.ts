/**
 * Sign-in on a shared device (SPEC §2 furthest step): the stored organization, event and day may
 * have been chosen by the previous user. Before the redirect, the stored organization is checked
 * against the signed-in user's memberships (GET organizations/membership); when it is not one of
 * theirs, all three choices are cleared, so the user lands on /organization-select instead of
 * someone else's event.
 */
import type { QueryClient } from '@tanstack/react-query';
import { organizationQueries } from '@/features/organizations/api.ts';
import type { OrganizationItem } from '@/lib/entities.ts';
import { clearSelection, getSelection } from '@/lib/selection.ts';

/**
 * Clears the stored selections unless the stored organization is one of the signed-in user's.
 * Needs the fresh user's credentials to be stored already (the list call sends them). When the
 * memberships cannot be loaded the choices are cleared too: a wrong event is worse than choosing
 * again. A selection that changed while the memberships were asked for is left as it is (it was made
 * since, so it is not the previous user's). Never throws.
 */
export async function keepOnlyOwnSelection(queryClient: QueryClient): Promise<void> {
  const checked = getSelection();
  const { organization } = checked;
  if (!organization) return;
  let memberships: OrganizationItem[] = [];
  try {
    memberships = await queryClient.fetchQuery(organizationQueries.list());
  } catch {
    // Unknown memberships: treated as "not a member" (see above).
  }
  // A choice made while the memberships were asked for is not the previous user's: leave it.
  if (getSelection() !== checked) return;
  if (!memberships.some((membership) => membership.id === organization.id)) await clearSelection('organization');
}
