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
  type CreateCheckInListRequest,
  CreateCheckInListRequest as CreateBody,
  EditCheckInListRequest,
  EventParams,
} from '@gatecheck/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInUser } from '../../plugins/auth.ts';
import { ruleErrors } from '../../plugins/error-responses.ts';
import type { Actor } from '../../services/audit.ts';
import { createCheckInList, deleteCheckInList, editCheckInList } from '../../services/check-in-lists.ts';
import { ServiceError } from '../../services/errors.ts';
import { eventOf, requireRole } from '../require-role.ts';

function actorOf(request: FastifyRequest): Actor {
  const user = signedInUser(request);
  return { kind: 'user', userId: user.userId, name: user.displayName };
}

/** Runs `work`; a refusal that names a field of the input names it as a field of the body (`body.name`). */
async function namingBodyFields<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ServiceError && error.field) throw new ServiceError(error.code, error.message, `body.${error.field}`);
    throw error;
  }
}

/**
 * The door settings of docs/decisions/111 (re-entry, capacity, daily checkout) are kept by the
 * doors work's columns, not by this branch's service: a request that sets one is refused (400,
 * naming the field) rather than answered as if it had been kept.
 */
function refuseDoorSettingsNotKept(body: Partial<Pick<CreateCheckInListRequest, 'allowsReentry' | 'capacity' | 'dailyCheckoutTime'>>): void {
  const set = (['allowsReentry', 'capacity', 'dailyCheckoutTime'] as const).find((field) => body[field] !== undefined && body[field] !== null && body[field] !== false);
  if (set) throw new ServiceError('bad_request', `This server does not keep ${set} of a check-in list yet.`, `body.${set}`);
}

const checkInListRoutes: FastifyPluginAsyncZod = async (app) => {
  const adminOfEvent = requireRole('admin');

  app.post(
    apiPaths.checkInLists,
    {
      preHandler: adminOfEvent,
      schema: { operationId: 'createCheckInList', params: EventParams, body: CreateBody, response: { 201: CheckInList, ...ruleErrors('forbidden', 'not_found') } },
    },
    async (request, reply) => {
      const { name, ticketTypes, days, position, ...doorSettings } = request.body;
      refuseDoorSettingsNotKept(doorSettings);
      const input = { name, ticketTypes, days, ...(position === undefined ? {} : { position }) };
      const list = await namingBodyFields(() => createCheckInList(app.db, eventOf(request), input, actorOf(request)));
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
        response: { 200: CheckInList, ...ruleErrors('forbidden', 'not_found') },
      },
    },
    async (request) => {
      const { name, ticketTypes, days, position, ...doorSettings } = request.body;
      refuseDoorSettingsNotKept(doorSettings);
      return namingBodyFields(() => editCheckInList(app.db, eventOf(request), request.params.checkInListId, { name, ticketTypes, days, position }, actorOf(request)));
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
