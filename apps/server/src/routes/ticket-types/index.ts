/**
 * Ticket types of an event (docs/decisions/102): GET /events/{eventId}/ticket-types lists them with
 * their check-in note and attention flag (supervisor or higher: the people who set up a door);
 * PATCH /events/{eventId}/ticket-types/{name} sets a type's note and/or flag (admin), creating the
 * type when the event has none of that name. A note over CHECK_IN_NOTE_MAX_LENGTH characters or
 * with control characters is a 400 naming the field; nothing is written.
 */
import { apiPaths, EventParams, TicketType, TicketTypeParams, TicketTypesResponse, UpdateTicketTypeRequest } from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInUser } from '../../plugins/auth.ts';
import { ruleErrors } from '../../plugins/error-responses.ts';
import { listTicketTypes, updateTicketType } from '../../services/ticket-types.ts';
import { eventOf, requireRole } from '../require-role.ts';

const ticketTypesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    apiPaths.ticketTypes,
    {
      preHandler: requireRole('supervisor'),
      schema: { operationId: 'listTicketTypes', params: EventParams, response: { 200: TicketTypesResponse, ...ruleErrors('forbidden', 'not_found') } },
    },
    async (request) => ({ ticketTypes: await listTicketTypes(app.db, eventOf(request).id) }),
  );

  app.patch(
    apiPaths.ticketType,
    {
      preHandler: requireRole('admin'),
      schema: {
        operationId: 'updateTicketType',
        params: TicketTypeParams,
        body: UpdateTicketTypeRequest,
        response: { 200: TicketType, ...ruleErrors('bad_request', 'forbidden', 'not_found') },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      return updateTicketType(app.db, { eventId: eventOf(request).id, name: request.params.name, change: request.body }, { kind: 'user', userId: user.userId, name: user.displayName });
    },
  );
};

export default ticketTypesRoutes;
