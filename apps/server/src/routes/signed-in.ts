/**
 * The routes that need a session, in one encapsulated scope (fastify/demo's autohooks pattern,
 * SEAMS §3, docs/decisions/022): its onRequest hook signs the caller in before anything else of the
 * request is read, so a route registered here cannot be left open by a forgotten line, and an
 * anonymous caller gets 401 whatever the body (issue 15 item 16: authentication before validation).
 * Handlers read the user with `signedInUser(request)`. A role check (`requireRole`, require-role.ts)
 * goes in as a preHandler of the routes that need it; the user is already there.
 */
import type { FastifyInstance } from 'fastify';
import { changePasswordRoutes } from './account/index.ts';
import { admitDevice, keepDeviceToItsEvent } from './device-access.ts';
import devicesRoutes from './devices/index.ts';
import checkInListRoutes from './check-in-lists/index.ts';
import eventsRoutes from './events/index.ts';
import liveDoorRoutes from './live-door/index.ts';
import manageRoutes from './manage/index.ts';
import teamRoutes from './manage/team.ts';
import manageTicketRoutes from './manage/tickets.ts';
import ticketTypesRoutes from './ticket-types/index.ts';
import organizationsRoutes from './organizations/index.ts';
import ticketsRoutes from './tickets/index.ts';
import usersRoutes from './users/index.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on every route of the signed-in scope: the OpenAPI document declares its security and 401. */
    requiresSession?: boolean;
  }
}

/** Registers the signed-in routes under the caller's prefix, behind the sign-in hook. */
export default async function signedInRoutes(scope: FastifyInstance): Promise<void> {
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, requiresSession: true };
  });
  scope.decorateRequest('roleCheckedEvent', null);
  scope.decorateRequest('roleCheckedOrganization', null);
  scope.addHook('onRequest', async (request) => {
    request.sessionUser = await scope.authenticate(request);
    await admitDevice(request);
  });
  // A door device reaches only its own event (docs/decisions/107).
  scope.addHook('preHandler', keepDeviceToItsEvent);
  await scope.register(changePasswordRoutes);
  await scope.register(usersRoutes);
  await scope.register(organizationsRoutes);
  await scope.register(ticketsRoutes);
  await scope.register(eventsRoutes);
  await scope.register(checkInListRoutes);
  await scope.register(liveDoorRoutes);
  await scope.register(manageRoutes);
  await scope.register(teamRoutes);
  await scope.register(manageTicketRoutes);
  await scope.register(ticketTypesRoutes);
  await scope.register(devicesRoutes);
}
