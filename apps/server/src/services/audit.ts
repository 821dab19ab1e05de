/**
 * The audit trail (docs/decisions/106): who changed what, when, from what to what. A service that
 * changes an organizer's resource calls `recordAudit` with its transaction, so the entry commits
 * with the change or not at all. Read back per event for its 'Activity' page.
 */
import { AuditAction, type AuditEntry, OrganizationAuditAction, type OrganizationAuditEntry, OrganizationAuditSnapshot, CheckInListAuditAction, CheckInListSnapshot, EventAuditAction, EventSnapshot, TicketAuditAction, TicketAuditSnapshot } from '@gatecheck/contract';
import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
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
export type TeamAuditAction = OrganizationAuditAction;

/** One change to record. `before` null for a creation; `after` null for a deletion. */
export type AuditRecord =
  | { organizationId: string; eventId: string; action: EventAuditAction; before: EventSnapshot | null; after: EventSnapshot | null }
  | { organizationId: string; eventId: string; action: CheckInListAuditAction; before: CheckInListSnapshot | null; after: CheckInListSnapshot | null }
  | { organizationId: string; eventId: string; action: TicketAuditAction; before: TicketAuditSnapshot | null; after: TicketAuditSnapshot | null }
  | { organizationId: string; eventId: null; action: TeamAuditAction; before: Record<string, unknown> | null; after: Record<string, unknown> | null };

/** Writes one audit entry by `actor` in `tx`, the transaction of the change it records. */
export async function recordAudit(tx: Tx, actor: Actor, record: AuditRecord): Promise<void> {
  await recordAuditReturningId(tx, actor, record);
}

/** A page of activity: the entries older than entry `before` (absent: the newest), at most `limit`. */
export interface ActivityPage {
  before?: string | undefined;
  limit?: number | undefined;
}

/**
 * The rows of `scope`, newest first (created_at, then id, both descending), older than the entry
 * `page.before` when given (keyset pagination, docs/decisions/126: the cursor entry's own
 * created_at and id, compared in SQL at the database's microsecond precision), at most `page.limit`
 * (default 200). An unknown `before` answers no rows.
 */
async function activityRows(db: DbOrTx, scope: SQL, page: ActivityPage) {
  const older = page.before
    ? sql`(${auditEntries.createdAt}, ${auditEntries.id}) < (select cursor.created_at, cursor.id from ${auditEntries} as cursor where cursor.id = ${page.before})`
    : undefined;
  return db
    .select()
    .from(auditEntries)
    .where(older ? and(scope, older) : scope)
    .orderBy(desc(auditEntries.createdAt), desc(auditEntries.id))
    .limit(page.limit ?? 200);
}

/**
 * Writes `after` into the audit entry `id` on `tx`: a running import's one entry, brought up to date
 * in the transaction of each batch it commits (docs/decisions/126).
 */
export async function updateAuditAfter(tx: Tx, id: string, after: TicketAuditSnapshot): Promise<void> {
  await tx.update(auditEntries).set({ after }).where(eq(auditEntries.id, id));
}

/** Like `recordAudit`, answering the new entry's id. */
export async function recordAuditReturningId(tx: Tx, actor: Actor, record: AuditRecord): Promise<string> {
  const [row] = await tx
    .insert(auditEntries)
    .values({
      organizationId: record.organizationId,
      eventId: record.eventId,
      actorKind: actor.kind,
      actorUserId: actor.userId,
      actorName: actor.name,
      action: record.action,
      before: record.before,
      after: record.after,
    })
    .returning({ id: auditEntries.id });
  if (!row) throw new Error('audit entry not written');
  return row.id;
}

/**
 * The event's audit entries (the event's, its check-in lists' and its tickets' changes), newest
 * first, a page at a time (`ActivityPage`; default the newest 200).
 */
export async function listEventActivity(db: DbOrTx, eventId: string, page: ActivityPage = {}): Promise<AuditEntry[]> {
  const rows = await activityRows(db, eq(auditEntries.eventId, eventId), page);
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

/**
 * The organization's own audit entries (`event_id` null: its door team, invitations and door
 * devices; docs/decisions/126), newest first, a page at a time (`ActivityPage`). An entry whose
 * action this server does not know is left out.
 */
export async function listOrganizationActivity(db: DbOrTx, organizationId: string, page: ActivityPage = {}): Promise<OrganizationAuditEntry[]> {
  const rows = await activityRows(db, and(eq(auditEntries.organizationId, organizationId), isNull(auditEntries.eventId)) ?? sql`false`, page);
  return rows.flatMap((row): OrganizationAuditEntry[] => {
    const action = OrganizationAuditAction.safeParse(row.action);
    if (!action.success) return [];
    const snapshot = (value: unknown) => {
      const parsed = OrganizationAuditSnapshot.safeParse(value);
      return parsed.success ? parsed.data : null;
    };
    return [
      {
        id: row.id,
        at: row.createdAt.toISOString(),
        actor: { kind: row.actorKind === 'cli' ? 'cli' : 'user', name: row.actorName },
        action: action.data,
        before: snapshot(row.before),
        after: snapshot(row.after),
      },
    ];
  });
}
