/**
 * Who may open the management area (docs/decisions/105), apart from the management screens' own
 * rules (manage-logic.ts): the scanner and the event choice show 'Manage events' by it, and this
 * module keeps the management schemas (`EventRequest`, the activity entries) off their first load
 * (docs/decisions/128).
 */
import { hasRoleAtLeast, MembershipRole } from '@gatecheck/contract/organizations';

/** Whether a membership `role` (as the server sent it) may use the management area: admins only. */
export function canManage(role: string): boolean {
  const parsed = MembershipRole.safeParse(role);
  return parsed.success && hasRoleAtLeast(parsed.data, 'admin');
}
