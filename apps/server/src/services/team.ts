/**
 * The door team of an organization (issue 30 item 5): its members, and invitations by e-mail with a
 * one-time link through the mailer (SMTP, or the outbox folder in development). Every change is on
 * the audit trail in its own transaction (docs/decisions/106). Failures the caller can fix throw
 * ServiceError.
 */
import { AcceptInvitationResponse, INVITATION_LINK, INVITATION_TTL_MS, type InviteMemberRequest, type JoinWithNewAccountRequest, type Team } from '@gatecheck/contract';
import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
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
