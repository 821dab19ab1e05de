/**
 * Organizations, memberships and their events: as the scanning flow reads them (SPEC §3, §7), where
 * access is by membership (a user sees only the organizations they belong to and only those
 * organizations' events), and as an operator keeps them (create, list, find by id or name: the
 * admin CLI). Memberships are changed by services/team.ts. Failures the caller can fix throw ServiceError.
 */
import { type Event, type EventDay, hasRoleAtLeast, INACTIVE_EVENT_STATUSES, type MembershipRole, type Organization } from '@gatecheck/contract';
import { and, asc, count, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { inTransaction } from '../db/transactions.ts';
import { eventDays, events, memberships, organizations, tickets } from '../db/schema.ts';
import { type Actor, recordAudit } from './audit.ts';
import { AccessRefusedError, isId, NO_SUCH_ORGANIZATION_MESSAGE, ServiceError } from './errors.ts';
import { type EventDetails, findEvent, toDayCutoff } from './events.ts';

/** The organizations `userId` belongs to, each with the user's role and its active events, by name. */
export async function listMemberships(db: DbOrTx, userId: string): Promise<Organization[]> {
  const rows = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      description: organizations.description,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(organizations.name), asc(organizations.id));
  if (rows.length === 0) return [];
  const active = await db
    .select({ id: events.id, title: events.title, organizationId: events.organizationId })
    .from(events)
    .where(
      and(
        inArray(
          events.organizationId,
          rows.map((row) => row.id),
        ),
        notInArray(events.status, [...INACTIVE_EVENT_STATUSES]),
        isNull(events.archivedAt),
      ),
    )
    .orderBy(asc(events.date), asc(events.title));
  return rows.map((row) => ({
    _id: row.id,
    name: row.name,
    description: row.description,
    role: row.role,
    activeEvents: active
      .filter((event) => event.organizationId === row.id)
      .map((event) => ({ _id: event.id, title: event.title })),
  }));
}

/** Whether `userId` is a member of the existing organization `organizationId` (an id from our database). */
export async function isMember(db: DbOrTx, userId: string, organizationId: string): Promise<boolean> {
  const [membership] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.organizationId, organizationId)))
    .limit(1);
  return membership !== undefined;
}

/** `userId`'s role in `organizationId`, or null when they are not a member. */
export async function roleOf(db: DbOrTx, userId: string, organizationId: string): Promise<MembershipRole | null> {
  const [membership] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.organizationId, organizationId)))
    .limit(1);
  return membership?.role ?? null;
}

/**
 * The event `eventId` when `userId` has at least role `needed` in its organization (issue 11,
 * docs/decisions/037): the one check behind every supervisor call (routes/require-role.ts).
 * @throws ServiceError `not_found` for an unknown event, AccessRefusedError (the same 404) for an
 *   event of an organization the user is not a member of (no existence leak across organizations,
 *   docs/decisions/086); `forbidden` for a member whose role is lower than `needed`.
 */
export async function eventForRole(db: DbOrTx, userId: string, eventId: string, needed: MembershipRole): Promise<EventDetails> {
  const event = await findEvent(db, eventId);
  const role = await roleOf(db, userId, event.organizationId);
  if (role === null) throw new AccessRefusedError(userId, { eventId });
  if (!hasRoleAtLeast(role, needed)) throw new ServiceError('forbidden', `This needs the ${needed} role in ${event.organizationName}; yours is ${role}.`);
  return event;
}

/**
 * The organization `organizationId` when `userId` has at least role `needed` in it: the
 * organization-level twin of `eventForRole` (routes/require-role.ts).
 * @throws ServiceError `not_found` for an unknown organization, AccessRefusedError (the same 404)
 *   for a non-member (docs/decisions/086); `forbidden` for a member whose role is lower.
 */
export async function organizationForRole(db: DbOrTx, userId: string, organizationId: string, needed: MembershipRole): Promise<{ id: string; name: string }> {
  const [organization] = isId(organizationId)
    ? await db.select({ id: organizations.id, name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId)).limit(1)
    : [];
  if (!organization) throw new ServiceError('not_found', NO_SUCH_ORGANIZATION_MESSAGE);
  const role = await roleOf(db, userId, organization.id);
  if (role === null) throw new AccessRefusedError(userId, { organizationId });
  if (!hasRoleAtLeast(role, needed)) throw new ServiceError('forbidden', `This needs the ${needed} role in ${organization.name}; yours is ${role}.`);
  return organization;
}

/**
 * Throws unless `userId` is a member of `organizationId`.
 * @throws ServiceError `not_found` for an unknown organization; AccessRefusedError (the same 404) for
 *   a non-member, so the answer does not tell that the organization exists (docs/decisions/086).
 */
export async function assertMember(db: DbOrTx, userId: string, organizationId: string): Promise<void> {
  const [organization] = isId(organizationId)
    ? await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, organizationId)).limit(1)
    : [];
  if (!organization) throw new ServiceError('not_found', NO_SUCH_ORGANIZATION_MESSAGE);
  if (!(await isMember(db, userId, organizationId))) throw new AccessRefusedError(userId, { organizationId });
}

/**
 * The events of `organizationId` (every status, by date; not the archived ones), with `ticketsSold` (tickets not revoked)
 * and the configured event days (empty when the event has a single implicit day), plus the event's
 * calendar (time zone, day cut-off 'HH:MM', rehearsal setting) so the client can say 'not today'.
 * A door device (`deviceEventId`) sees its one event (docs/decisions/107).
 * @throws ServiceError `not_found` / AccessRefusedError as assertMember.
 */
export async function listOrganizationEvents(db: DbOrTx, caller: { userId: string } | { deviceEventId: string }, organizationId: string): Promise<Event[]> {
  // A door device's organization was checked by the device access hook (routes/device-access.ts).
  if ('userId' in caller) await assertMember(db, caller.userId, organizationId);
  const rows = await db
    .select()
    .from(events)
    // An archived event is not offered for scanning (docs/decisions/105); a door device sees only its own.
    .where(and(eq(events.organizationId, organizationId), isNull(events.archivedAt), 'deviceEventId' in caller ? eq(events.id, caller.deviceEventId) : undefined))
    .orderBy(asc(events.date), asc(events.title));
  if (rows.length === 0) return [];
  const eventIds = rows.map((row) => row.id);
  const days = await db
    .select()
    .from(eventDays)
    .where(inArray(eventDays.eventId, eventIds))
    .orderBy(asc(eventDays.day));
  const sold = await db
    .select({ eventId: tickets.eventId, count: count() })
    .from(tickets)
    .where(and(inArray(tickets.eventId, eventIds), isNull(tickets.revokedAt)))
    .groupBy(tickets.eventId);
  return rows.map((row) => ({
    _id: row.id,
    title: row.title,
    description: row.description,
    date: row.date,
    location: row.location,
    ticketsSold: sold.find((entry) => entry.eventId === row.id)?.count ?? 0,
    status: row.status,
    eventDays: days
      .filter((day) => day.eventId === row.id)
      .map((day): EventDay => ({ day: day.day, name: day.name, date: day.date })),
    timeZone: row.timeZone,
    dayCutoff: toDayCutoff(row.dayCutoff),
    allowsScanningOutsideDays: row.allowsScanningOutsideDays,
  }));
}

/**
 * The first key of the advisory locks `createOrganization` takes (the two-int form, a key space apart
 * from the migration lock's bigint, db/client.ts); the second is the hash of the lower-cased name.
 */
const ORGANIZATION_NAME_LOCK = 428_322_436;

/**
 * Creates an organization. Names are unique case-insensitively here, so that an organization can be
 * named instead of given by id in the other commands. The check and the insert run in one
 * transaction holding an advisory lock on the name, so two creations of one name at once (two
 * operators, two scripts) make one organization and the other is refused, as a later one would be.
 * Recorded on the audit trail ('organization.created', docs/decisions/106) in the same transaction.
 * @returns the new organization's id.
 * @throws ServiceError `conflict` when the name is taken.
 */
export async function createOrganization(db: Db, input: { name: string; description?: string }, actor: Actor): Promise<string> {
  return inTransaction(db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ORGANIZATION_NAME_LOCK}, hashtext(${input.name.toLowerCase()}))`);
    const [existing] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(sql`lower(${organizations.name})`, input.name.toLowerCase()))
      .limit(1);
    if (existing) throw new ServiceError('conflict', `An organization named "${input.name}" already exists (id ${existing.id})`);
    const [row] = await tx
      .insert(organizations)
      .values({ name: input.name, description: input.description ?? '' })
      .returning({ id: organizations.id });
    if (!row) throw new Error('insert into organizations returned no row');
    await recordAudit(tx, actor, { organizationId: row.id, eventId: null, action: 'organization.created', before: null, after: { name: input.name, description: input.description ?? '' } });
    return row.id;
  });
}

/** An organization as listed by the CLI. */
export interface OrganizationSummary {
  id: string;
  name: string;
  description: string;
  members: number;
  events: number;
}

/** Every organization by name, with its member and event counts. */
export async function listOrganizations(db: DbOrTx): Promise<OrganizationSummary[]> {
  const rows = await db
    .select({ id: organizations.id, name: organizations.name, description: organizations.description })
    .from(organizations)
    .orderBy(asc(organizations.name), asc(organizations.id));
  const members = await db
    .select({ organizationId: memberships.organizationId, value: count() })
    .from(memberships)
    .groupBy(memberships.organizationId);
  const eventCounts = await db
    .select({ organizationId: events.organizationId, value: count() })
    .from(events)
    .groupBy(events.organizationId);
  return rows.map((row) => ({
    ...row,
    members: members.find((entry) => entry.organizationId === row.id)?.value ?? 0,
    events: eventCounts.find((entry) => entry.organizationId === row.id)?.value ?? 0,
  }));
}

/**
 * The organization with id `idOrName`, or else the one named `idOrName` (case-insensitive).
 * @throws ServiceError `not_found`, or `conflict` when several organizations have that name.
 */
export async function findOrganization(db: DbOrTx, idOrName: string): Promise<{ id: string; name: string }> {
  const columns = { id: organizations.id, name: organizations.name };
  if (isId(idOrName)) {
    const [byId] = await db.select(columns).from(organizations).where(eq(organizations.id, idOrName));
    if (byId) return byId;
  }
  const byName = await db
    .select(columns)
    .from(organizations)
    .where(eq(sql`lower(${organizations.name})`, idOrName.toLowerCase()))
    .limit(2);
  if (byName.length > 1) throw new ServiceError('conflict', `Several organizations are named "${idOrName}"; give its id`);
  const [found] = byName;
  if (!found) throw new ServiceError('not_found', `No organization with id or name "${idOrName}"`);
  return found;
}
