/**
 * The door team of an organization (issue 30 item 5): its members, and invitations by e-mail with a
 * one-time link through the mailer (SMTP, or the outbox folder in development); a member's role
 * changed, a member added or removed (the management area and the admin CLI alike: SEAMS §6). An
 * organization never loses its last admin. Every change is on the audit trail in its own
 * transaction (docs/decisions/106). Failures the caller can fix throw ServiceError.
 */
import {
  AcceptInvitationResponse,
  INVITATION_LINK,
  INVITATION_TTL_MS,
  type InviteMemberRequest,
  type JoinWithNewAccountRequest,
  type MembershipRole,
  type Team,
} from '@gatecheck/contract';
import { and, asc, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../db/client.ts';
import { inTransaction } from '../db/transactions.ts';
import { invitations, memberships, organizations, users } from '../db/schema.ts';
import { type Actor, recordAudit } from './audit.ts';
import { isId, ServiceError } from './errors.ts';
import type { MailMessage, Mailer } from './mailer.ts';
import { generateToken, hashToken } from './sessions.ts';
import { createAccount } from './users.ts';

/** What an invitation's mail needs besides the database. */
export interface InvitationMail {
  mailer: Mailer;
  /** Base URL of the web app; the link is `${publicUrl}/invitation?token=…`. */
  publicUrl: string;
}

/** What every unknown, used, revoked or expired invitation link is answered (400). */
export const INVALID_INVITATION_MESSAGE = 'This invitation link is not valid any more. Ask the organizer for a new one.';

/** The conditions of a live invitation at `now`. */
function isLive(now: Date) {
  return and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now));
}

/** Whether a member of `organizationId` has the e-mail address `email` (case-insensitive). */
async function memberWithEmail(tx: DbOrTx, organizationId: string, email: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(sql`lower(${users.email})`, email.toLowerCase())))
    .limit(1);
  return row !== undefined;
}

/**
 * Invites `request.email` to the organization with `request.role`: stores the invitation (its token
 * hashed; an earlier live invitation of the address is revoked), records it, and once committed
 * sends the link to the address. The token is in the mail only.
 * @returns the invitation's id.
 * @throws ServiceError `conflict` (field `email`) when a member already has the address.
 */
export async function inviteMember(
  db: Db,
  mail: InvitationMail,
  input: { organizationId: string; request: InviteMemberRequest; now?: Date },
  actor: Actor,
): Promise<string> {
  const { organizationId, request } = input;
  const now = input.now ?? new Date();
  const token = generateToken();
  const { id, organizationName } = await inTransaction(db, async (tx) => {
    const [organization] = await tx.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId));
    if (!organization) throw new ServiceError('not_found', 'Organization not found');
    if (await memberWithEmail(tx, organizationId, request.email)) {
      throw new ServiceError('conflict', `${request.email} is already a member of ${organization.name}: change their role instead.`, 'email');
    }
    await tx
      .update(invitations)
      .set({ revokedAt: now })
      .where(and(eq(invitations.organizationId, organizationId), eq(sql`lower(${invitations.email})`, request.email.toLowerCase()), isLive(now)));
    const [row] = await tx
      .insert(invitations)
      .values({
        organizationId,
        email: request.email,
        role: request.role,
        tokenHash: hashToken(token),
        invitedByUserId: actor.userId,
        invitedByName: actor.name,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      })
      .returning({ id: invitations.id });
    if (!row) throw new Error('insert into invitations returned no row');
    await recordAudit(tx, actor, { organizationId, eventId: null, action: 'member.invited', before: null, after: { invitationId: row.id, email: request.email, role: request.role } });
    return { id: row.id, organizationName: organization.name };
  });
  const link = `${mail.publicUrl}${INVITATION_LINK.path}?${new URLSearchParams({ [INVITATION_LINK.tokenParam]: token }).toString()}`;
  mail.mailer.enqueue(invitationMail({ to: request.email, organizationName, invitedBy: actor.name, role: request.role, link }));
  return id;
}

function invitationMail(facts: { to: string; organizationName: string; invitedBy: string; role: string; link: string }): MailMessage {
  return {
    to: facts.to,
    subject: `You are invited to the door team of ${facts.organizationName}`,
    text: [
      'Hello,',
      '',
      `${facts.invitedBy} invites you to scan tickets for ${facts.organizationName} with Gatecheck, as ${facts.role}.`,
      `Open this link within ${INVITATION_TTL_MS / 86_400_000} days and sign in with this e-mail address (${facts.to}) to join:`,
      '',
      facts.link,
      '',
      'If you did not expect this, ignore this e-mail: nothing happens unless you open the link.',
    ].join('\n'),
  };
}

/** The organization's members by name and its live invitations, newest first. */
export async function listTeam(db: DbOrTx, organizationId: string, now = new Date()): Promise<Team> {
  const members = await db
    .select({ userId: users.id, name: users.displayName, username: users.username, email: users.email, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, organizationId))
    .orderBy(asc(users.displayName), asc(users.id));
  const pending = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.organizationId, organizationId), isLive(now)))
    .orderBy(desc(invitations.createdAt));
  return {
    members,
    invitations: pending.map((row) => ({
      id: row.id,
      email: row.email,
      role: row.role,
      invitedBy: row.invitedByName,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
    })),
  };
}

/**
 * The organization of the invitation `invitationId`, for the caller's role check.
 * @throws ServiceError `not_found` for an unknown id.
 */
export async function organizationOfInvitation(db: DbOrTx, invitationId: string): Promise<string> {
  const [row] = isId(invitationId) ? await db.select({ organizationId: invitations.organizationId }).from(invitations).where(eq(invitations.id, invitationId)) : [];
  if (!row) throw new ServiceError('not_found', 'No such invitation');
  return row.organizationId;
}

/**
 * Revokes a live invitation: its link no longer works.
 * @throws ServiceError `not_found`; `conflict` when it was accepted, revoked or has expired.
 */
export async function revokeInvitation(db: Db, invitationId: string, actor: Actor, now = new Date()): Promise<void> {
  await inTransaction(db, async (tx) => {
    const [row] = isId(invitationId)
      ? await tx.update(invitations).set({ revokedAt: now }).where(and(eq(invitations.id, invitationId), isLive(now))).returning()
      : [];
    if (!row) {
      await organizationOfInvitation(tx, invitationId);
      throw new ServiceError('conflict', 'This invitation was already accepted, revoked or has expired.');
    }
    await recordAudit(tx, actor, {
      organizationId: row.organizationId,
      eventId: null,
      action: 'invitation.revoked',
      before: { invitationId: row.id, email: row.email, role: row.role },
      after: null,
    });
  });
}

/**
 * Accepts the invitation whose link holds `token`, for the signed-in user `userId`, who must have
 * the invited e-mail address: they become a member with the invited role (a member already keeps
 * the higher of the two roles). The link is used up.
 * @throws ServiceError `bad_request` for an unknown, used, revoked or expired link;
 *   `forbidden` when the signed-in account has another address.
 */
export async function acceptInvitation(db: Db, input: { token: string; userId: string; now?: Date }): Promise<AcceptInvitationResponse> {
  const now = input.now ?? new Date();
  return inTransaction(db, async (tx) => {
    const [invitation] = await tx
      .select()
      .from(invitations)
      .where(and(eq(invitations.tokenHash, hashToken(input.token)), isLive(now)))
      .for('update');
    if (!invitation) throw new ServiceError('bad_request', INVALID_INVITATION_MESSAGE);
    const [user] = await tx.select({ email: users.email, name: users.displayName }).from(users).where(eq(users.id, input.userId));
    if (!user || user.email.toLowerCase() !== invitation.email.toLowerCase()) {
      throw new ServiceError('forbidden', `This invitation is for ${invitation.email}. Sign in with that address to accept it.`);
    }
    const role = await joinWithRole(tx, { organizationId: invitation.organizationId, userId: input.userId, role: invitation.role });
    await tx.update(invitations).set({ acceptedAt: now, acceptedByUserId: input.userId }).where(eq(invitations.id, invitation.id));
    await recordAudit(tx, { kind: 'user', userId: input.userId, name: user.name }, {
      organizationId: invitation.organizationId,
      eventId: null,
      action: 'invitation.accepted',
      before: { invitationId: invitation.id, email: invitation.email, role: invitation.role },
      after: { userId: input.userId, role },
    });
    const [organization] = await tx.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, invitation.organizationId));
    return { organizationId: invitation.organizationId, organizationName: organization?.name ?? '', role };
  });
}

/**
 * Accepts an invitation for someone without an account: creates the account with the invited
 * address (the sign-up rules; a taken username or address is refused as on sign-up), then accepts
 * the invitation for it. Two steps, not one transaction (an account creation decides its races on
 * the unique indexes, which would abort a transaction): if the invitation is revoked between them,
 * the account stays without the membership and the answer says so.
 * @throws ServiceError `bad_request` for a link that is not live; AccountTakenError (409).
 */
export async function joinWithNewAccount(db: Db, request: JoinWithNewAccountRequest, now = new Date()): Promise<AcceptInvitationResponse> {
  const [invitation] = await db
    .select({ email: invitations.email })
    .from(invitations)
    .where(and(eq(invitations.tokenHash, hashToken(request.token)), isLive(now)));
  if (!invitation) throw new ServiceError('bad_request', INVALID_INVITATION_MESSAGE);
  const userId = await createAccount(db, { displayName: request.name, username: request.username, email: invitation.email, password: request.password });
  return acceptInvitation(db, { token: request.token, userId, now });
}

/** Makes the user a member with `role`, or keeps a higher role they already have; returns the role they end with. */
async function joinWithRole(tx: Tx, input: { organizationId: string; userId: string; role: Team['members'][number]['role'] }) {
  const [row] = await tx
    .insert(memberships)
    .values(input)
    .onConflictDoUpdate({
      target: [memberships.userId, memberships.organizationId],
      // Enum order is the role order (staff < supervisor < admin): an invitation never lowers a role.
      set: { role: sql`greatest(${memberships.role}, excluded.role)` },
    })
    .returning({ role: memberships.role });
  if (!row) throw new Error('upsert into memberships returned no row');
  return row.role;
}

/** A member as an audit entry records them. */
interface MemberFacts {
  userId: string;
  name: string;
  email: string;
  role: MembershipRole;
}

/**
 * Locks organization `organizationId` for a change of its door team (FOR UPDATE: two changes of one
 * team queue, so two admins demoting each other at once cannot leave it without one).
 * @throws ServiceError `not_found` for an unknown organization.
 */
async function lockOrganization(tx: Tx, organizationId: string): Promise<{ id: string; name: string }> {
  const [row] = isId(organizationId)
    ? await tx.select({ id: organizations.id, name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId)).for('update')
    : [];
  if (!row) throw new ServiceError('not_found', 'Organization not found');
  return row;
}

/** The membership of `userId` in `organizationId` with the user's facts, or undefined. */
async function memberFacts(tx: DbOrTx, organizationId: string, userId: string): Promise<MemberFacts | undefined> {
  if (!isId(userId)) return undefined;
  const [row] = await tx
    .select({ userId: users.id, name: users.displayName, email: users.email, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return row;
}

/**
 * @throws ServiceError `conflict` (field `role`, or none for a removal) when `member` is the last
 *   admin of `organization`: nobody could manage it any more (or sign in to undo the change).
 */
async function refuseLosingLastAdmin(tx: Tx, organization: { id: string; name: string }, member: MemberFacts, change: 'demote' | 'remove'): Promise<void> {
  if (member.role !== 'admin') return;
  const [admins] = await tx
    .select({ value: count() })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organization.id), eq(memberships.role, 'admin')));
  if ((admins?.value ?? 0) > 1) return;
  const what = change === 'demote' ? 'change their role' : 'remove them';
  throw new ServiceError(
    'conflict',
    `${member.name} is the only admin of ${organization.name}: make someone else admin before you ${what}, or nobody could manage it.`,
    change === 'demote' ? 'role' : undefined,
  );
}

/**
 * Changes the role of member `userId` of `organizationId` to `role`, with its audit entry
 * ('member.role_changed'; nothing is recorded when the role stays). Takes effect on the member's
 * next request: every call reads the role from the database.
 * @returns the role the member had before.
 * @throws ServiceError `not_found` when the user is not a member; `conflict` (field `role`) when the
 *   last admin would be demoted.
 */
export async function changeMemberRole(
  db: Db,
  input: { organizationId: string; userId: string; role: MembershipRole },
  actor: Actor,
): Promise<{ previousRole: MembershipRole }> {
  return inTransaction(db, async (tx) => {
    const organization = await lockOrganization(tx, input.organizationId);
    const member = await memberFacts(tx, organization.id, input.userId);
    if (!member) throw new ServiceError('not_found', `This person is not a member of ${organization.name}.`);
    if (member.role === input.role) return { previousRole: member.role };
    if (input.role !== 'admin') await refuseLosingLastAdmin(tx, organization, member, 'demote');
    await tx.update(memberships).set({ role: input.role }).where(and(eq(memberships.organizationId, organization.id), eq(memberships.userId, member.userId)));
    await recordAudit(tx, actor, { organizationId: organization.id, eventId: null, action: 'member.role_changed', before: { ...member }, after: { ...member, role: input.role } });
    return { previousRole: member.role };
  });
}

/**
 * Removes member `userId` from `organizationId`, with its audit entry ('member.removed'). Their
 * sessions lose the organization at once: every call checks the membership in the database, so
 * the next request of a signed-in phone is refused (404, as for a stranger). Their account, past
 * check-ins and scan log stay.
 * @throws ServiceError `not_found` when the user is not a member; `conflict` when they are the last admin.
 */
export async function removeMember(db: Db, input: { organizationId: string; userId: string }, actor: Actor): Promise<void> {
  await inTransaction(db, async (tx) => {
    const organization = await lockOrganization(tx, input.organizationId);
    const member = await memberFacts(tx, organization.id, input.userId);
    if (!member) throw new ServiceError('not_found', `This person is not a member of ${organization.name}.`);
    await refuseLosingLastAdmin(tx, organization, member, 'remove');
    await tx.delete(memberships).where(and(eq(memberships.organizationId, organization.id), eq(memberships.userId, member.userId)));
    await recordAudit(tx, actor, { organizationId: organization.id, eventId: null, action: 'member.removed', before: { ...member }, after: null });
  });
}

/**
 * Makes `userId` a member of `organizationId` with `role`, or changes an existing member's role
 * (the admin CLI's `org add-member`), with its audit entry ('member.added' or, through
 * `changeMemberRole`'s rule, 'member.role_changed').
 * @returns the role the user had before (null when they were not a member).
 * @throws ServiceError `not_found` for an unknown organization or user; `conflict` when it would demote the last admin.
 */
export async function addMember(
  db: Db,
  input: { organizationId: string; userId: string; role: MembershipRole },
  actor: Actor,
): Promise<{ previousRole: MembershipRole | null }> {
  const existing = await inTransaction(db, async (tx) => {
    const organization = await lockOrganization(tx, input.organizationId);
    if (await memberFacts(tx, organization.id, input.userId)) return true;
    const [user] = isId(input.userId) ? await tx.select({ name: users.displayName, email: users.email }).from(users).where(eq(users.id, input.userId)) : [];
    if (!user) throw new ServiceError('not_found', 'No such user');
    await tx.insert(memberships).values(input);
    await recordAudit(tx, actor, { organizationId: organization.id, eventId: null, action: 'member.added', before: null, after: { userId: input.userId, name: user.name, email: user.email, role: input.role } });
    return false;
  });
  if (!existing) return { previousRole: null };
  return changeMemberRole(db, input, actor);
}
