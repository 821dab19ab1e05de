/**
 * GET /organizations/membership and GET /organizations/membership/:organizationId (SPEC §7): the
 * caller's organizations, and one organization's events for its members (403 otherwise, 404 unknown).
 */
import { apiPaths, EventList, OrganizationList, OrganizationParams } from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listMemberships, listOrganizationEvents } from '../../services/organizations.ts';

const organizationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(apiPaths.organizations, { schema: { response: { 200: OrganizationList } } }, async (request) => {
    const session = await app.authenticate(request);
    return listMemberships(app.db, session.userId);
  });

  app.get(
    apiPaths.organizationEvents,
    { schema: { params: OrganizationParams, response: { 200: EventList } } },
    async (request) => {
      const session = await app.authenticate(request);
      return listOrganizationEvents(app.db, session.userId, request.params.organizationId);
    },
  );
};

export default organizationsRoutes;
