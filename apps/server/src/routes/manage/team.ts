/**
 * The door team (issue 30 item 5). For admins of the organization only (403 `forbidden` for staff
 * and supervisors, 404 `not_found` for non-members, docs/decisions/086): GET …/team (members and
 * pending invitations), POST …/invitations (invite an e-mail address with a role: the link is
 * mailed), POST /manage/invitations/{id}/revoke, POST …/members/{userId}/role (change a member's
 * role) and …/members/{userId}/remove (an organization never loses its last admin: 409). For any signed-in user: POST /invitations/accept
 * with the link's token, by the account of the invited address; POST /invitations/join (open) for
 * someone without an account. Thin: the rules are services/team.ts's.
 */
import {
  AcceptInvitationRequest,
  AcceptInvitationResponse,
  ChangeMemberRoleRequest,
  InvitationParams,
  InviteMemberRequest,
  JoinWithNewAccountRequest,
  MemberParams,
  OrganizationParams,
  Team,
  teamRoutes as routes,
} from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInUser } from '../../plugins/auth.ts';
import { ruleErrors } from '../../plugins/error-responses.ts';
import { organizationForRole } from '../../services/organizations.ts';
import {
  acceptInvitation,
  changeMemberRole,
  inviteMember,
  joinWithNewAccount,
  listTeam,
  organizationOfInvitation,
  removeMember,
  revokeInvitation,
} from '../../services/team.ts';
import { organizationOf, requireOrganizationRole } from '../require-role.ts';
import { actorOf, namingBodyFields } from '../management-changes.ts';

const teamRoutes: FastifyPluginAsyncZod = async (app) => {
  const adminOfOrganization = requireOrganizationRole('admin');

  app.get(
    routes.team,
    { preHandler: adminOfOrganization, schema: { operationId: 'getTeam', params: OrganizationParams, response: { 200: Team, ...ruleErrors('forbidden', 'not_found') } } },
    async (request) => listTeam(app.db, organizationOf(request).id),
  );

  app.post(
    routes.invitations,
    {
      preHandler: adminOfOrganization,
      schema: { operationId: 'inviteMember', params: OrganizationParams, body: InviteMemberRequest, response: { 201: Team, ...ruleErrors('forbidden', 'not_found', 'conflict') } },
    },
    async (request, reply) => {
      const organizationId = organizationOf(request).id;
      await namingBodyFields(() => inviteMember(app.db, { mailer: app.mailer, publicUrl: app.config.publicUrl }, { organizationId, request: request.body }, actorOf(request)));
      return reply.status(201).send(await listTeam(app.db, organizationId));
    },
  );

  app.post(
    routes.revokeInvitation,
    { schema: { operationId: 'revokeInvitation', params: InvitationParams, response: { 200: Team, ...ruleErrors('forbidden', 'not_found', 'conflict') } } },
    async (request) => {
      const organizationId = await organizationOfInvitation(app.db, request.params.invitationId);
      await organizationForRole(app.db, signedInUser(request).userId, organizationId, 'admin');
      await revokeInvitation(app.db, request.params.invitationId, actorOf(request));
      return listTeam(app.db, organizationId);
    },
  );

  app.post(
    routes.memberRole,
    {
      preHandler: adminOfOrganization,
      schema: { operationId: 'changeMemberRole', params: MemberParams, body: ChangeMemberRoleRequest, response: { 200: Team, ...ruleErrors('forbidden', 'not_found', 'conflict') } },
    },
    async (request) => {
      const organizationId = organizationOf(request).id;
      await namingBodyFields(() => changeMemberRole(app.db, { organizationId, userId: request.params.userId, role: request.body.role }, actorOf(request)));
      return listTeam(app.db, organizationId);
    },
  );

  app.post(
    routes.removeMember,
    { preHandler: adminOfOrganization, schema: { operationId: 'removeMember', params: MemberParams, response: { 200: Team, ...ruleErrors('forbidden', 'not_found', 'conflict') } } },
    async (request) => {
      const organizationId = organizationOf(request).id;
      await removeMember(app.db, { organizationId, userId: request.params.userId }, actorOf(request));
      return listTeam(app.db, organizationId);
    },
  );

  app.post(
    routes.acceptInvitation,
    { schema: { operationId: 'acceptInvitation', body: AcceptInvitationRequest, response: { 200: AcceptInvitationResponse, ...ruleErrors('forbidden') } } },
    async (request) => acceptInvitation(app.db, { token: request.body.token, userId: signedInUser(request).userId }),
  );
};

export default teamRoutes;

/**
 * POST /invitations/join, outside the signed-in scope: someone without an account opens the mailed
 * link, chooses a name, username and password, and joins (services/team.ts `joinWithNewAccount`);
 * they sign in afterwards as anyone does. 400 for a link that is not live, 409 for a taken username.
 */
export const invitationJoinRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    routes.joinWithNewAccount,
    { schema: { operationId: 'joinWithNewAccount', body: JoinWithNewAccountRequest, response: { 200: AcceptInvitationResponse, ...ruleErrors('conflict') } } },
    async (request) => joinWithNewAccount(app.db, request.body),
  );
};
