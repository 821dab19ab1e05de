/**
 * The writes of an event's check-in lists (docs/decisions/100, 111, 115), for admins of the event's
 * organization (403 `forbidden` for staff, supervisors and door devices; 404 `not_found` for
 * non-members, docs/decisions/086; 401 signed out): POST /events/{eventId}/check-in-lists (create),
 * PATCH and DELETE /events/{eventId}/check-in-lists/{checkInListId} (change; delete, refused with
 * 409 while the list has check-ins or is the event's only list). Each answers the list. Thin: the
 * rules and the audit entry are services/check-in-lists.ts's, shared with the admin CLI. Reading
 * the lists (any member) stays in routes/events.
 */
import {
  apiPaths,
  CheckInList,
  CheckInListParams,
  CreateCheckInListRequest as CreateBody,
  EditCheckInListRequest,
  EventParams,
} from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ruleErrors } from '../../plugins/error-responses.ts';
import { createCheckInList, deleteCheckInList, editCheckInList } from '../../services/check-in-lists.ts';
import { eventOf, requireRole } from '../require-role.ts';
import { actorOf, namingBodyFields } from '../management-changes.ts';

const checkInListRoutes: FastifyPluginAsyncZod = async (app) => {
  const adminOfEvent = requireRole('admin');

  app.post(
    apiPaths.checkInLists,
    {
      preHandler: adminOfEvent,
      schema: { operationId: 'createCheckInList', params: EventParams, body: CreateBody, response: { 201: CheckInList, ...ruleErrors('bad_request', 'forbidden', 'not_found') } },
    },
    async (request, reply) => {
      const { position, ...input } = request.body;
      const list = await namingBodyFields(() => createCheckInList(app.db, eventOf(request), { ...input, ...(position === undefined ? {} : { position }) }, actorOf(request), app.clock()));
      return reply.status(201).send(list);
    },
  );

  app.patch(
    apiPaths.checkInList,
    {
      preHandler: adminOfEvent,
      schema: {
        operationId: 'editCheckInList',
        params: CheckInListParams,
        body: EditCheckInListRequest,
        response: { 200: CheckInList, ...ruleErrors('bad_request', 'forbidden', 'not_found') },
      },
    },
    async (request) => {
      return namingBodyFields(() => editCheckInList(app.db, eventOf(request), request.params.checkInListId, request.body, actorOf(request), app.clock()));
    },
  );

  app.delete(
    apiPaths.checkInList,
    {
      preHandler: adminOfEvent,
      schema: { operationId: 'deleteCheckInList', params: CheckInListParams, response: { 200: CheckInList, ...ruleErrors('forbidden', 'not_found', 'conflict') } },
    },
    async (request) => deleteCheckInList(app.db, eventOf(request), request.params.checkInListId, actorOf(request)),
  );
};

export default checkInListRoutes;
