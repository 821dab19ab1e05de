/**
 * The audit trail (docs/decisions/106): who changed what, when, from what to what. A service that
 * changes an organizer's resource calls `recordAudit` with its transaction, so the entry commits
 * with the change or not at all. Read back per event for its 'Activity' page.
 */
import { AuditAction, type AuditEntry, CheckInListAuditAction, CheckInListSnapshot, EventAuditAction, EventSnapshot, TicketAuditAction, TicketAuditSnapshot } from '@gatecheck/contract';
import { desc, eq } from 'drizzle-orm';
import { userInfo } from 'node:os';
import type { DbOrTx, Tx } from '../db/client.ts';
import { auditEntries } from '../db/schema.ts';

/** Who makes a change: a signed-in user (the management area) or the admin CLI (`userId` null). */
export interface Actor {
  kind: 'user' | 'cli';
  userId: string | null;
  /** As shown on the Activity page: the user's display name, or 'admin CLI (<os user>)'. */
  name: string;
}

/** The actor of a CLI run: the operating-system account that ran it (the CLI has no sign-in). */
export function cliActor(): Actor {
  let account = 'unknown';
  try {
    account = userInfo().username || account;
  } catch {
    // No passwd entry for the uid (some containers): the CLI is still the actor.
  }
  return { kind: 'cli', userId: null, name: `admin CLI (${account})` };
}

/**
 * Changes to an organization's door team (no event; not on an event's Activity page): an
 * invitation sent, revoked or accepted (`before`/`after`: the invitation's facts); a member added,
 * their role changed, removed (the member's facts: userId, name, email, role); an organization
 * created by the admin CLI; a door device's enrollment made, the device renamed or moved, revoked
 * (its id, name and event).
 */
export type TeamAuditAction =
  | 'member.invited'
  | 'invitation.revoked'
  | 'invitation.accepted'
  | 'member.added'
  | 'member.role_changed'
  | 'member.removed'
  | 'organization.created'
  | 'device.enrollment_created'
  | 'device.updated'
  | 'device.revoked';

/** One change to record. `before` null for a creation; `after` null for a deletion. */
export type AuditRecord =
  | { organizationId: string; eventId: string; action: EventAuditAction; before: EventSnapshot | null; after: EventSnapshot | null }
  | { organizationId: string; eventId: string; action: CheckInListAuditAction; before: CheckInListSnapshot | null; after: CheckInListSnapshot | null }
  | { organizationId: string; eventId: string; action: TicketAuditAction; before: TicketAuditSnapshot | null; after: TicketAuditSnapshot | null }
  | { organizationId: string; eventId: null; action: TeamAuditAction; before: Record<string, unknown> | null; after: Record<string, unknown> | null };

/** Writes one audit entry by `actor` in `tx`, the transaction of the change it records. */
export async function recordAudit(tx: Tx, actor: Actor, record: AuditRecord): Promise<void> {
  await tx.insert(auditEntries).values({
    organizationId: record.organizationId,
    eventId: record.eventId,
    actorKind: actor.kind,
    actorUserId: actor.userId,
    actorName: actor.name,
    action: record.action,
    before: record.before,
    after: record.after,
  });
}

/** The event's audit entries (the event's and its check-in lists' changes), newest first (at most `limit`, default 200). */
export async function listEventActivity(db: DbOrTx, eventId: string, limit = 200): Promise<AuditEntry[]> {
  const rows = await db
    .select()
    .from(auditEntries)
    .where(eq(auditEntries.eventId, eventId))
    .orderBy(desc(auditEntries.createdAt), desc(auditEntries.id))
    .limit(limit);
  return rows.map((row): AuditEntry => {
    const action = AuditAction.parse(row.action);
    const common = { id: row.id, at: row.createdAt.toISOString(), actor: { kind: row.actorKind === 'cli' ? ('cli' as const) : ('user' as const), name: row.actorName } };
    const snapshots = <T>(parse: (value: unknown) => T) => ({ before: row.before === null ? null : parse(row.before), after: row.after === null ? null : parse(row.after) });
    const list = CheckInListAuditAction.safeParse(action);
    if (list.success) return { ...common, action: list.data, ...snapshots((value) => CheckInListSnapshot.parse(value)) };
    const ticket = TicketAuditAction.safeParse(action);
    if (ticket.success) return { ...common, action: ticket.data, ...snapshots((value) => TicketAuditSnapshot.parse(value)) };
    return { ...common, action: EventAuditAction.parse(action), ...snapshots((value) => EventSnapshot.parse(value)) };
  });
}
