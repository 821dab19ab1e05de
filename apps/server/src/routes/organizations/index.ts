/**
 * GET /organizations/membership and GET /organizations/membership/:organizationId (SPEC §7): the
 * caller's organizations, and one organization's events for its members (404 otherwise, the answer
 * to an unknown id: docs/decisions/086).
 */
import { apiPaths, EventList, OrganizationList, OrganizationParams } from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInUser } from '../../plugins/auth.ts';
import { ruleErrors } from '../../plugins/error-responses.ts';
import { listMemberships, listOrganizationEvents } from '../../services/organizations.ts';

const organizationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(apiPaths.organizations, { schema: { operationId: 'listOrganizations', response: { 200: OrganizationList } } }, async (request) =>
    listMemberships(app.db, signedInUser(request).userId),
  );

  app.get(
    apiPaths.organizationEvents,
    { schema: { operationId: 'listOrganizationEvents', params: OrganizationParams, response: { 200: EventList, ...ruleErrors('not_found') } } },
    async (request) => listOrganizationEvents(app.db, signedInUser(request).userId, request.params.organizationId),
  );
};

export default organizationsRoutes;
