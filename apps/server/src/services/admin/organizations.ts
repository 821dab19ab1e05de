/**
 * Organizations and memberships for the admin CLI (issue 4): create, list, find by id or name, add a
 * member with a role. No CLI or HTTP types in here; failures the operator can fix throw
 * ServiceError (`not_found`, `conflict`, `bad_request`).
 */
import type { MembershipRole } from '@gatecheck/contract';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { inTransaction } from '../../db/transactions.ts';
import { events, memberships, organizations } from '../../db/schema.ts';
import { isId, ServiceError } from '../errors.ts';

/**
 * Creates an organization. Names are unique case-insensitively here, so that an organization can be
 * named instead of given by id in the other commands.
 * @returns the new organization's id.
 * @throws ServiceError `conflict` when the name is taken.
 */
export async function createOrganization(db: DbOrTx, input: { name: string; description?: string }): Promise<string> {
  const [existing] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(sql`lower(${organizations.name})`, input.name.toLowerCase()))
    .limit(1);
  if (existing) throw new ServiceError('conflict', `An organization named "${input.name}" already exists (id ${existing.id})`);
  const [row] = await db
    .insert(organizations)
    .values({ name: input.name, description: input.description ?? '' })
    .returning({ id: organizations.id });
  if (!row) throw new Error('insert into organizations returned no row');
  return row.id;
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

/**
 * Makes `userId` a member of `organizationId` with `role`, or changes the role of an existing member.
 * @returns the role the user had before (null when they were not a member).
 */
export async function addMember(
  db: Db,
  input: { organizationId: string; userId: string; role: MembershipRole },
): Promise<{ previousRole: MembershipRole | null }> {
  return inTransaction(db, async (tx) => {
    const [existing] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.userId, input.userId), eq(memberships.organizationId, input.organizationId)));
    await tx
      .insert(memberships)
      .values(input)
      .onConflictDoUpdate({ target: [memberships.userId, memberships.organizationId], set: { role: input.role } });
    return { previousRole: existing?.role ?? null };
  });
}

/**
 * Changes the role of `userId`, who must already be a member of `organizationId` (issue 11: `org
 * set-role`; `addMember` also adds).
 * @returns the role the member had before.
 * @throws ServiceError `not_found` when the user is not a member.
 */
export async function setMemberRole(
  db: DbOrTx,
  input: { organizationId: string; userId: string; role: MembershipRole },
): Promise<{ previousRole: MembershipRole }> {
  const [previous] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, input.userId), eq(memberships.organizationId, input.organizationId)));
  const [updated] = await db
    .update(memberships)
    .set({ role: input.role })
    .where(and(eq(memberships.userId, input.userId), eq(memberships.organizationId, input.organizationId)))
    .returning({ id: memberships.id });
  if (!previous || !updated) throw new ServiceError('not_found', 'This user is not a member of this organization (add them: org add-member)');
  return { previousRole: previous.role };
}
