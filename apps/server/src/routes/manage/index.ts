/**
 * The organizer's management area (issue 30; docs/decisions/105, 106), every route for admins of
 * the organization only: staff and supervisors get 403 `forbidden`, non-members 404 `not_found`
 * (docs/decisions/086), the signed-out 401 (the signed-in scope).
 *
 * GET/POST /manage/organizations/{organizationId}/events: the organization's events (archived ones
 * too) / create one with its days. GET/POST /manage/events/{eventId}: one event / change it (its
 * settings and its whole set of days; moving a day that has check-ins needs `confirm`,
 * docs/decisions/145). POST …/archive and …/restore. GET …/activity: the event's
 * audit trail, newest first, a page at a time; GET /manage/organizations/{id}/activity: the
 * organization's own (team, invitations, devices; docs/decisions/126). Thin: the rules are services/events.ts's, shared with the admin CLI.
 */
import {
  ActivityQuery,
  AuditEntryList,
  EventRequest,
  ManagedEvent,
  ManagedEventList,
  ManagedEventParams,
  manageRoutes as routes,
  OrganizationAuditEntryList,
  OrganizationParams,
  UpdateEventRequest,
} from '@gatecheck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ruleErrors } from '../../plugins/error-responses.ts';
import { listEventActivity, listOrganizationActivity } from '../../services/audit.ts';
import { archiveEvent, createEvent, findManagedEvent, listManagedEvents, restoreEvent, updateEvent } from '../../services/events.ts';
import { eventOf, organizationOf, requireOrganizationRole, requireRole } from '../require-role.ts';
import { actorOf, namingBodyFields } from '../management-changes.ts';

const manageRoutes: FastifyPluginAsyncZod = async (app) => {
  const adminOfOrganization = requireOrganizationRole('admin');
  const adminOfEvent = requireRole('admin');

  app.get(
    routes.organizationEvents,
    {
      preHandler: adminOfOrganization,
      schema: { operationId: 'listManagedEvents', params: OrganizationParams, response: { 200: ManagedEventList, ...ruleErrors('forbidden', 'not_found') } },
    },
    async (request) => listManagedEvents(app.db, organizationOf(request).id),
  );

  app.post(
    routes.organizationEvents,
    {
      preHandler: adminOfOrganization,
      schema: {
        operationId: 'createEvent',
        params: OrganizationParams,
        body: EventRequest,
        response: { 201: ManagedEvent, ...ruleErrors('forbidden', 'not_found') },
      },
    },
    async (request, reply) => {
      const id = await namingBodyFields(() => createEvent(app.db, { organizationId: organizationOf(request).id, ...request.body }, actorOf(request)));
      return reply.status(201).send(await findManagedEvent(app.db, id));
    },
  );

  app.get(
    routes.event,
    { preHandler: adminOfEvent, schema: { operationId: 'getManagedEvent', params: ManagedEventParams, response: { 200: ManagedEvent, ...ruleErrors('forbidden', 'not_found') } } },
    async (request) => findManagedEvent(app.db, eventOf(request).id),
  );

  app.post(
    routes.event,
    {
      preHandler: adminOfEvent,
      schema: {
        operationId: 'updateEvent',
        params: ManagedEventParams,
        body: UpdateEventRequest,
        response: { 200: ManagedEvent, ...ruleErrors('forbidden', 'not_found', 'conflict', 'confirmation_required') },
      },
    },
    async (request) => {
      const event = eventOf(request);
      await namingBodyFields(() => updateEvent(app.db, event.id, request.body, actorOf(request)));
      return findManagedEvent(app.db, event.id);
    },
  );

  app.post(
    routes.archiveEvent,
    { preHandler: adminOfEvent, schema: { operationId: 'archiveEvent', params: ManagedEventParams, response: { 200: ManagedEvent, ...ruleErrors('forbidden', 'not_found', 'conflict') } } },
    async (request) => {
      const event = eventOf(request);
      await archiveEvent(app.db, event.id, actorOf(request));
      return findManagedEvent(app.db, event.id);
    },
  );

  app.post(
    routes.restoreEvent,
    { preHandler: adminOfEvent, schema: { operationId: 'restoreEvent', params: ManagedEventParams, response: { 200: ManagedEvent, ...ruleErrors('forbidden', 'not_found', 'conflict') } } },
    async (request) => {
      const event = eventOf(request);
      await restoreEvent(app.db, event.id, actorOf(request));
      return findManagedEvent(app.db, event.id);
    },
  );

  app.get(
    routes.eventActivity,
    {
      preHandler: adminOfEvent,
      schema: { operationId: 'listEventActivity', params: ManagedEventParams, querystring: ActivityQuery, response: { 200: AuditEntryList, ...ruleErrors('forbidden', 'not_found') } },
    },
    async (request) => listEventActivity(app.db, eventOf(request).id, request.query),
  );

  app.get(
    routes.organizationActivity,
    {
      preHandler: adminOfOrganization,
      schema: {
        operationId: 'listOrganizationActivity',
        params: OrganizationParams,
        querystring: ActivityQuery,
        response: { 200: OrganizationAuditEntryList, ...ruleErrors('forbidden', 'not_found') },
      },
    },
    async (request) => listOrganizationActivity(app.db, organizationOf(request).id, request.query),
  );
};

export default manageRoutes;
