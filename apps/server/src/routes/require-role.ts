/**
 * The one role check of the API (SEAMS §3, issue 11, docs/decisions/037): `requireRole(role)` is a
 * preHandler for routes of the signed-in scope (signed-in.ts) under `/events/:eventId/...`. It
 * loads the event and checks the caller's role in the event's organization before the handler
 * runs, and hands the event to the handler (`eventOf(request)`), so a handler cannot forget it.
 *
 * Answers: 404 `not_found` for an unknown event or one of an organization the caller is not a
 * member of (nothing leaks across organizations), 403 `forbidden` `{ code, message }` for a member
 * with a lower role. A door device (docs/decisions/107) passes on its own event up to the staff
 * role (services/devices.ts `eventForDevice`), and the offline upload alone (`opensEventDeviceLeft`) on an
 * event it was moved away from while it may send the scans it made there (docs/decisions/139). The
 * route must declare them: `ruleErrors('forbidden', 'not_found')`.
 */
import type { MembershipRole } from '@gatecheck/contract';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { signedInUser } from '../plugins/auth.ts';
import { eventForDevice } from '../services/devices.ts';
import type { EventDetails } from '../services/events.ts';
import { eventForRole, organizationForRole } from '../services/organizations.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The event of a `requireRole` route, set once the caller's role has been checked; null elsewhere. */
    roleCheckedEvent: EventDetails | null;
    /** The organization of a `requireOrganizationRole` route, set once the caller's role has been checked; null elsewhere. */
    roleCheckedOrganization: { id: string; name: string } | null;
  }
}

/**
 * A preHandler that lets through callers with at least `role` in the organization of the event
 * `request.params.eventId`. `options.opensEventDeviceLeft`: a door device may also reach an event it
 * was moved away from (the offline upload's route only, docs/decisions/139).
 * @throws ServiceError `not_found` / `forbidden` as above; `unauthenticated` outside the signed-in scope.
 */
export function requireRole(role: MembershipRole, options: { opensEventDeviceLeft?: boolean } = {}): preHandlerAsyncHookHandler {
  return async function checkRole(request) {
    const { eventId } = request.params as { eventId?: unknown };
    if (typeof eventId !== 'string') throw new Error('requireRole is for routes with an :eventId parameter');
    const user = signedInUser(request);
    const leftEventUpload = options.opensEventDeviceLeft === true ? { now: request.server.clock() } : undefined;
    request.roleCheckedEvent = user.device
      ? await eventForDevice(request.server.db, { userId: user.userId, device: user.device }, eventId, role, leftEventUpload)
      : await eventForRole(request.server.db, user.userId, eventId, role);
  };
}

/**
 * The event whose role check `requireRole` passed for this request.
 * @throws Error when the route has no `requireRole` preHandler (a programming error: fails closed, 500).
 */
export function eventOf(request: FastifyRequest): EventDetails {
  if (!request.roleCheckedEvent) throw new Error('eventOf needs the requireRole preHandler on this route');
  return request.roleCheckedEvent;
}

/**
 * A preHandler that lets through callers with at least `role` in the organization
 * `request.params.organizationId` (the organization-level `requireRole`), with the same answers.
 */
export function requireOrganizationRole(role: MembershipRole): preHandlerAsyncHookHandler {
  return async function checkOrganizationRole(request) {
    const { organizationId } = request.params as { organizationId?: unknown };
    if (typeof organizationId !== 'string') throw new Error('requireOrganizationRole is for routes with an :organizationId parameter');
    request.roleCheckedOrganization = await organizationForRole(request.server.db, signedInUser(request).userId, organizationId, role);
  };
}

/**
 * The organization whose role check `requireOrganizationRole` passed for this request.
 * @throws Error when the route has no `requireOrganizationRole` preHandler (fails closed, 500).
 */
export function organizationOf(request: FastifyRequest): { id: string; name: string } {
  if (!request.roleCheckedOrganization) throw new Error('organizationOf needs the requireOrganizationRole preHandler on this route');
  return request.roleCheckedOrganization;
}
