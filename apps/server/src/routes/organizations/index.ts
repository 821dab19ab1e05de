/**
 * GET /organizations/membership and GET /organizations/membership/:organizationId (SPEC §7): the
 * caller's organizations, and one organization's events for its members (404 otherwise, the answer
 * to an unknown id: docs/decisions/086).
 */
import { apiPaths, EventList, OrganizationList, OrganizationParams } from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInUser } from '../../plugins/auth.ts';
import { ruleErrors } from '../../plugins/error-responses.ts';
import { organizationsOfDevice } from '../../services/devices.ts';
import { listMemberships, listOrganizationEvents } from '../../services/organizations.ts';

const organizationsRoutes: FastifyPluginAsyncZod = async (app) => {
  // A door device sees its organization with its one event, as staff (docs/decisions/107).
  app.get(apiPaths.organizations, { schema: { operationId: 'listOrganizations', response: { 200: OrganizationList } } }, async (request) => {
    const { userId, device } = signedInUser(request);
    return device ? organizationsOfDevice(app.db, device) : listMemberships(app.db, userId);
  });

  app.get(
    apiPaths.organizationEvents,
    { schema: { operationId: 'listOrganizationEvents', params: OrganizationParams, response: { 200: EventList, ...ruleErrors('not_found') } } },
    async (request) => {
      const { userId, device } = signedInUser(request);
      return listOrganizationEvents(app.db, device ? { deviceEventId: device.eventId } : { userId }, request.params.organizationId);
    },
  );
};

export default organizationsRoutes;
