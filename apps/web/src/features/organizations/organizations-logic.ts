/** Plain rules of the organization step (SPEC §2, §3). */
import type { Organization } from '@gatecheck/contract';
import type { OrganizationItem } from '@/lib/entities.ts';
import { t } from '@/lib/i18n/index.ts';

/** Maps a wire organization to the local one (SPEC §3): `_id` → id, description default '', active-event count. */
export function toOrganizationItem(organization: Organization): OrganizationItem {
  return {
    id: organization._id,
    name: organization.name,
    description: organization.description ?? '',
    role: organization.role,
    activeEventCount: organization.activeEvents.length,
  };
}

/** '1 active event', '3 active events'. */
export function activeEventsLabel(count: number): string {
  return t('organizations.activeEvents', { count });
}
