/** Plain rules of the organization step (SPEC §2, §3). */
import { MembershipRole, type Organization } from '@gatecheck/contract/organizations';
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

/** The words of each role this app knows, by language (English: the role as the server names it). */
const ROLE_WORDS = {
  staff: 'organizations.roleStaff',
  supervisor: 'organizations.roleSupervisor',
  admin: 'organizations.roleAdmin',
} as const satisfies Record<MembershipRole, string>;

/**
 * The role badge's text (SPEC §2 "the user's role in it as a badge"; §6 lists no values): in English
 * the role as the server sends it ('staff'), in German its word ('Personal'); a role this app does not
 * know, as sent.
 */
export function roleBadgeText(role: string): string {
  const known = MembershipRole.safeParse(role);
  return known.success ? t(ROLE_WORDS[known.data]) : role;
}
