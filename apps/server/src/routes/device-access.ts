/**
 * What a door device may call (docs/decisions/107, 108), checked for every route of the signed-in
 * scope (routes/signed-in.ts) once the caller is known, so a new route is closed to devices until it
 * is listed here (an allowlist, as pretix's device security profiles).
 *
 * - `admitDevice` (onRequest): a revoked device gets 401 `device_revoked`, except its offline upload
 *   for a while (services/devices.ts `assertRevokedDeviceMayUpload`); a route not in DEVICE_ROUTES
 *   gets 403 `forbidden`; the device's last-seen time is kept (written at most once a minute).
 * - `keepDeviceToItsEvent` (preHandler, after validation): an `eventId` in the path or the body, or
 *   an `organizationId` in the path, other than the device's own gets the 404 of an unknown id
 *   (docs/decisions/086). The role checks (`requireRole`) then give it the staff role there. The one
 *   exception is the offline upload's path naming an event the device was moved away from: its
 *   route's role check (`opensEventDeviceLeft`) lets it send the scans it made there, and nothing
 *   else of that event is reachable (docs/decisions/139).
 */
import { API_PREFIX, apiPaths, deviceApiPaths } from '@gatecheck/contract';
import type { FastifyRequest } from 'fastify';
import { AccessRefusedError, ServiceError } from '../services/errors.ts';
import { assertRevokedDeviceMayUpload, LAST_SEEN_RESOLUTION_MS, touchDevice } from '../services/devices.ts';

/**
 * The routes a door device may call (method and full route pattern): scanning its event (with its
 * check-in lists, which any staff member may read, docs/decisions/100), and its own calls.
 */
const DEVICE_ROUTES: ReadonlySet<string> = new Set(
  [
    ['GET', apiPaths.usersMe],
    ['GET', apiPaths.organizations],
    ['GET', apiPaths.organizationEvents],
    ['GET', apiPaths.checkInLists],
    ['POST', apiPaths.verifyTicket],
    ['GET', apiPaths.checkInCounts],
    ['GET', apiPaths.doorList],
    ['POST', apiPaths.offlineScans],
    ['GET', apiPaths.offlineConflicts],
    ['GET', apiPaths.signingKeys],
    ['POST', deviceApiPaths.startShift],
    ['POST', deviceApiPaths.reportStatus],
  ].map(([method, path]) => `${method} ${API_PREFIX}${path}`),
);

/** Whether a door device may call the route `method` `url` (full route pattern, `/api/...`). */
export function isDeviceRoute(method: string, url: string): boolean {
  return DEVICE_ROUTES.has(`${method === 'HEAD' ? 'GET' : method} ${url}`);
}

const OFFLINE_UPLOAD = `POST ${API_PREFIX}${apiPaths.offlineScans}`;


/** The route of `request` as DEVICE_ROUTES names it (HEAD as GET). */
function routeOf(request: FastifyRequest): string {
  return `${request.method === 'HEAD' ? 'GET' : request.method} ${request.routeOptions.url ?? ''}`;
}

/**
 * onRequest, after authentication: refuses what a device may not call.
 * @throws ServiceError `device_revoked` (401), `forbidden` (403).
 */
export async function admitDevice(request: FastifyRequest): Promise<void> {
  const device = request.sessionUser?.device;
  if (!device) return;
  const route = routeOf(request);
  const now = request.server.clock();
  assertRevokedDeviceMayUpload(device, route === OFFLINE_UPLOAD, now);
  if (!DEVICE_ROUTES.has(route)) throw new ServiceError('forbidden', 'A door device can only scan tickets of its event.');
  if (!device.lastSeenAt || now.getTime() - device.lastSeenAt.getTime() >= LAST_SEEN_RESOLUTION_MS) await touchDevice(request.server.db, device.id, now);
}

/**
 * preHandler: keeps a device to its event and organization.
 * @throws AccessRefusedError (404 as an unknown id).
 */
export async function keepDeviceToItsEvent(request: FastifyRequest): Promise<void> {
  const user = request.sessionUser;
  const device = user?.device;
  if (!user || !device) return;
  const params = (request.params ?? {}) as { eventId?: unknown; organizationId?: unknown };
  const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as { eventId?: unknown };
  // The scans queued at an event the device left: judged by the upload's role check, which opens
  // that event to the upload only while the device may send them (docs/decisions/139). No list is
  // filled in: the device's list is one of its new event.
  if (routeOf(request) === OFFLINE_UPLOAD && typeof params.eventId === 'string' && params.eventId !== device.eventId) return;
  for (const eventId of [params.eventId, body.eventId]) {
    if (typeof eventId === 'string' && eventId !== device.eventId) throw new AccessRefusedError(user.userId, { eventId });
  }
  if (typeof params.organizationId === 'string' && params.organizationId !== device.organizationId) {
    throw new AccessRefusedError(user.userId, { organizationId: params.organizationId });
  }
  if (device.checkInListId) keepDeviceToItsList(request, device.checkInListId);
}

/** The routes whose body (POST) or query (GET) may name a check-in list. */
const ROUTES_WITH_A_LIST: ReadonlySet<string> = new Set(
  [
    ['POST', apiPaths.verifyTicket],
    ['POST', apiPaths.offlineScans],
    ['GET', apiPaths.checkInCounts],
    ['GET', apiPaths.doorList],
  ].map(([method, path]) => `${method} ${API_PREFIX}${path}`),
);

/**
 * A device enrolled for one check-in list scans there only (docs/decisions/116): a request naming
 * another list is refused; one naming none is given the device's list (so an app that sees one list
 * and names none scans, counts and downloads at it). An offline upload naming another list is left
 * to its route, which takes it only for a list the device was moved away from (docs/decisions/129).
 * @throws ServiceError `bad_request` naming `checkInListId` for another list (a 400 every such route declares).
 */
function keepDeviceToItsList(request: FastifyRequest, checkInListId: string): void {
  const route = routeOf(request);
  const holder = route.startsWith('GET ') ? request.query : request.body;
  if (typeof holder !== 'object' || holder === null) return;
  const named = (holder as { checkInListId?: unknown }).checkInListId;
  // Scans queued at a list the device was moved away from are judged item by item by the upload
  // (docs/decisions/129: recorded there when made before the move).
  if (route === OFFLINE_UPLOAD && typeof named === 'string') return;
  if (typeof named === 'string' && named.toLowerCase() !== checkInListId.toLowerCase()) {
    throw new ServiceError('bad_request', 'This door device scans its own check-in list only.', 'checkInListId');
  }
  if (named === undefined && ROUTES_WITH_A_LIST.has(route)) (holder as { checkInListId?: string }).checkInListId = checkInListId;
}
