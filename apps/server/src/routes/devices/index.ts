/**
 * Door devices (docs/decisions/107, 108).
 *
 * Open (`deviceEnrollmentRoutes`, rate limited per address like the account calls): POST
 * /devices/enroll redeems a one-time enrollment token for the device's own bearer token.
 *
 * Signed in (`devicesRoutes`): admins of the organization create enrollments
 * (POST /events/{eventId}/device-enrollments), list devices (GET /organizations/{organizationId}/devices),
 * rename or move one (POST /devices/{deviceId}: the API uses GET and POST only, as its CORS allows) and revoke one (POST /devices/{deviceId}/revoke);
 * a device starts a shift (POST /devices/me/shifts) and reports its state (POST /devices/me/status).
 */
import {
  CreateEnrollmentRequest,
  CreateEnrollmentResponse,
  deviceApiPaths,
  DeviceList,
  DeviceParams,
  DeviceStatusRequest,
  DeviceSummary,
  EventParams,
  DeviceStatusResponse,
  OrganizationParams,
  RedeemEnrollmentRequest,
  RedeemEnrollmentResponse,
  StartShiftRequest,
  StartShiftResponse,
  UpdateDeviceRequest,
} from '@gatecheck/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { setSessionCookie, signedInUser } from '../../plugins/auth.ts';
import { ruleErrors } from '../../plugins/error-responses.ts';
import {
  assertOrganizationAdmin,
  createEnrollment,
  deviceForAdmin,
  listDevices,
  redeemEnrollment,
  reportDeviceStatus,
  revokeDevice,
  startShift,
  tellDeviceItsPlace,
  updateDevice,
} from '../../services/devices.ts';
import { ServiceError } from '../../services/errors.ts';
import type { SessionDevice } from '../../services/sessions.ts';
import { eventOf, requireRole } from '../require-role.ts';
import { actorOf } from '../management-changes.ts';

/** POST /devices/enroll: open, the token is the credential. */
export const deviceEnrollmentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    deviceApiPaths.redeemEnrollment,
    { schema: { operationId: 'redeemDeviceEnrollment', body: RedeemEnrollmentRequest, response: { 200: RedeemEnrollmentResponse } } },
    async (request, reply) => {
      const redeemed = await redeemEnrollment(app.db, { ...request.body, now: app.clock() });
      if (request.body.useCookie) setSessionCookie(request, reply, redeemed.token, new Date(redeemed.expiresAt));
      return redeemed;
    },
  );
};

/**
 * The device of the signed-in caller.
 * @throws ServiceError `forbidden` for a person.
 */
function deviceOf(request: FastifyRequest): SessionDevice {
  const { device } = signedInUser(request);
  if (!device) throw new ServiceError('forbidden', 'Only a door device enrolled by its organizer makes this call.');
  return device;
}

const devicesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    deviceApiPaths.createEnrollment,
    {
      preHandler: requireRole('admin'),
      schema: {
        operationId: 'createDeviceEnrollment',
        params: EventParams,
        body: CreateEnrollmentRequest,
        response: { 201: CreateEnrollmentResponse, ...ruleErrors('bad_request', 'forbidden', 'not_found') },
      },
    },
    async (request, reply) => {
      const enrollment = await createEnrollment(
        app.db,
        {
          eventId: eventOf(request).id,
          name: request.body.name,
          checkInListId: request.body.checkInListId,
          createdBy: signedInUser(request).userId,
          publicUrl: app.config.publicUrl,
          now: app.clock(),
        },
        actorOf(request),
      );
      return reply.status(201).send(enrollment);
    },
  );

  app.get(
    deviceApiPaths.listDevices,
    { schema: { operationId: 'listDevices', params: OrganizationParams, response: { 200: DeviceList, ...ruleErrors('forbidden', 'not_found') } } },
    async (request) => {
      await assertOrganizationAdmin(app.db, signedInUser(request).userId, request.params.organizationId);
      return { devices: await listDevices(app.db, request.params.organizationId, { now: app.clock() }) };
    },
  );

  app.post(
    deviceApiPaths.updateDevice,
    {
      schema: {
        operationId: 'updateDevice',
        params: DeviceParams,
        body: UpdateDeviceRequest,
        response: { 200: DeviceSummary, ...ruleErrors('bad_request', 'forbidden', 'not_found', 'conflict') },
      },
    },
    async (request) => updateDevice(app.db, await deviceForAdmin(app.db, signedInUser(request).userId, request.params.deviceId), { ...request.body, now: app.clock() }, actorOf(request)),
  );

  app.post(
    deviceApiPaths.revokeDevice,
    { schema: { operationId: 'revokeDevice', params: DeviceParams, response: { 200: DeviceSummary, ...ruleErrors('forbidden', 'not_found') } } },
    async (request) => {
      const { userId } = signedInUser(request);
      return revokeDevice(app.db, await deviceForAdmin(app.db, userId, request.params.deviceId), { revokedBy: userId, now: app.clock() }, actorOf(request));
    },
  );

  app.post(
    deviceApiPaths.startShift,
    { schema: { operationId: 'startDeviceShift', body: StartShiftRequest, response: { 200: StartShiftResponse, ...ruleErrors('forbidden') } } },
    async (request) => startShift(app.db, deviceOf(request), request.body.name, app.clock()),
  );

  app.post(
    deviceApiPaths.reportStatus,
    { schema: { operationId: 'reportDeviceStatus', body: DeviceStatusRequest, response: { 200: DeviceStatusResponse, ...ruleErrors('forbidden') } } },
    async (request) => {
      const { id } = deviceOf(request);
      const now = app.clock();
      await reportDeviceStatus(app.db, id, request.body, now);
      // Its event and list now (a moved device switches), read as its moves are marked told once it
      // reports the place it is at: its scans at its old list until then are still taken (docs/decisions/129).
      const device = await tellDeviceItsPlace(app.db, id, now, request.body.place);
      return { success: true as const, ...(device ? { device } : {}) };
    },
  );
};

export default devicesRoutes;
