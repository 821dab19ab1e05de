/**
 * The door team of an organization (issue 30 item 5): its members and their roles, and invitations
 * by e-mail. An admin invites an e-mail address with a role; the invitation's one-time link (valid
 * `INVITATION_TTL_MS`) goes to that address; the person signed in with that address accepts it and
 * becomes a member. Pending invitations can be revoked. An admin changes a member's role or removes
 * them; an organization never loses its last admin (409 `conflict`).
 *
 * Paths: `teamPaths`. The team calls need the `admin` role in the organization (403 `forbidden` for
 * staff and supervisors, 404 `not_found` for non-members, docs/decisions/086); accepting needs only
 * a session, of the invited address.
 */
import { z } from 'zod';
import { RegisterRequest } from './auth.ts';
import { MembershipRole } from './organizations.ts';
import { requestText } from './text.ts';

/** How long an invitation's link stays valid: 7 days, in ms. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** What an admin sends to invite someone: their e-mail address and the role they will have. */
export const InviteMemberRequest = z.object({
  email: requestText().trim().email('Give an e-mail address such as sam@example.com').max(254, 'Use at most 254 characters'),
  role: MembershipRole,
}).meta({ id: 'InviteMemberRequest' });
export type InviteMemberRequest = z.infer<typeof InviteMemberRequest>;

/** A pending invitation (not accepted, revoked or expired). */
export const Invitation = z.object({
  id: z.string(),
  email: z.string(),
  role: MembershipRole,
  /** Who invited, as shown (their display name). */
  invitedBy: z.string(),
  /** ISO 8601 instants. */
  createdAt: z.string(),
  expiresAt: z.string(),
}).meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof Invitation>;

/** A member of the organization with their role. */
export const TeamMember = z.object({
  userId: z.string(),
  name: z.string(),
  username: z.string(),
  email: z.string(),
  role: MembershipRole,
}).meta({ id: 'TeamMember' });
export type TeamMember = z.infer<typeof TeamMember>;

/** The organization's members (by name) and its pending invitations (newest first). */
export const Team = z.object({
  members: z.array(TeamMember),
  invitations: z.array(Invitation),
}).meta({ id: 'Team' });
export type Team = z.infer<typeof Team>;

/** Accepting an invitation: the token of its link. */
export const AcceptInvitationRequest = z.object({
  token: requestText().min(1).max(200),
}).meta({ id: 'AcceptInvitationRequest' });
export type AcceptInvitationRequest = z.infer<typeof AcceptInvitationRequest>;

/** What accepting answers: the organization joined and the role in it. */
export const AcceptInvitationResponse = z.object({
  organizationId: z.string(),
  organizationName: z.string(),
  role: MembershipRole,
}).meta({ id: 'AcceptInvitationResponse' });
export type AcceptInvitationResponse = z.infer<typeof AcceptInvitationResponse>;

/**
 * Accepting an invitation without an account: the link's token and the new account's name,
 * username and password (the sign-up rules); its e-mail is the invited address. Open to anyone with
 * the link, also when sign-up is off: the invitation is the permission.
 */
export const JoinWithNewAccountRequest = RegisterRequest.pick({ name: true, username: true, password: true })
  .extend({ token: requestText().min(1).max(200) })
  .meta({ id: 'JoinWithNewAccountRequest' });
export type JoinWithNewAccountRequest = z.infer<typeof JoinWithNewAccountRequest>;

/** Changing a member's role (an organization always keeps at least one admin). */
export const ChangeMemberRoleRequest = z.object({
  role: MembershipRole,
}).meta({ id: 'ChangeMemberRoleRequest' });
export type ChangeMemberRoleRequest = z.infer<typeof ChangeMemberRoleRequest>;

/** Path params of the calls on one member of an organization. */
export const MemberParams = z.object({ organizationId: requestText().min(1).max(64), userId: requestText().min(1).max(64) });

/** Path params of the calls on one invitation. */
export const InvitationParams = z.object({ invitationId: requestText().min(1).max(64) });

/** The team calls (Fastify route patterns; build concrete paths with `teamPaths`). */
export const teamRoutes = {
  team: '/manage/organizations/:organizationId/team',
  invitations: '/manage/organizations/:organizationId/invitations',
  revokeInvitation: '/manage/invitations/:invitationId/revoke',
  memberRole: '/manage/organizations/:organizationId/members/:userId/role',
  removeMember: '/manage/organizations/:organizationId/members/:userId/remove',
  acceptInvitation: '/invitations/accept',
  joinWithNewAccount: '/invitations/join',
} as const;

/** The concrete paths of the team calls. */
export const teamPaths = {
  team: (organizationId: string) => `/manage/organizations/${encodeURIComponent(organizationId)}/team`,
  invitations: (organizationId: string) => `/manage/organizations/${encodeURIComponent(organizationId)}/invitations`,
  revokeInvitation: (invitationId: string) => `/manage/invitations/${encodeURIComponent(invitationId)}/revoke`,
  memberRole: (organizationId: string, userId: string) => `/manage/organizations/${encodeURIComponent(organizationId)}/members/${encodeURIComponent(userId)}/role`,
  removeMember: (organizationId: string, userId: string) => `/manage/organizations/${encodeURIComponent(organizationId)}/members/${encodeURIComponent(userId)}/remove`,
  acceptInvitation: teamRoutes.acceptInvitation,
  joinWithNewAccount: teamRoutes.joinWithNewAccount,
} as const;
