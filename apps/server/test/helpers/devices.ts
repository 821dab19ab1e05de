/**
 * Door devices for the server suite, made through the real API (docs/decisions/107): an admin's
 * enrollment, redeemed as a phone would redeem it.
 */
import { CreateEnrollmentResponse, devicePaths, deviceApiPaths, parseEnrollmentLink, RedeemEnrollmentResponse } from '@gatecheck/contract';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/db/client.ts';
import { cliActor } from '../../src/services/audit.ts';
import { createEnrollment, redeemEnrollment } from '../../src/services/devices.ts';
import { api, bearer } from './test-app.ts';

/**
 * Creates an enrollment for `eventId` as the admin holding `adminToken`.
 * @throws when the API does not answer 201.
 */
export async function createEnrollmentAs(app: FastifyInstance, adminToken: string, eventId: string, name?: string): Promise<CreateEnrollmentResponse> {
  const response = await app.inject({ method: 'POST', url: api(devicePaths.createEnrollment(eventId)), headers: bearer(adminToken), payload: name === undefined ? {} : { name } });
  if (response.statusCode !== 201) throw new Error(`enrollment failed: ${response.statusCode} ${response.body}`);
  return CreateEnrollmentResponse.parse(response.json());
}

/**
 * Enrolls a device for `eventId` (the admin's enrollment, redeemed from its link).
 * @returns the device's bearer token and the device.
 */
export async function enrollDevice(app: FastifyInstance, adminToken: string, eventId: string, name = 'North gate 2'): Promise<RedeemEnrollmentResponse> {
  const enrollment = await createEnrollmentAs(app, adminToken, eventId, name);
  const link = parseEnrollmentLink(enrollment.link);
  if (!link) throw new Error(`not an enrollment link: ${enrollment.link}`);
  const response = await app.inject({ method: 'POST', url: api(deviceApiPaths.redeemEnrollment), payload: { token: link.token, platform: 'android', appVersion: '1.4.0' } });
  if (response.statusCode !== 200) throw new Error(`redeem failed: ${response.statusCode} ${response.body}`);
  return RedeemEnrollmentResponse.parse(response.json());
}

/**
 * A fresh device of `eventId` made by the services (no HTTP; for the authorization matrices, which
 * need a new credential per request).
 * @returns its bearer token and id.
 */
export async function newDeviceToken(db: Db, eventId: string, name = 'Matrix gate'): Promise<{ token: string; deviceId: string }> {
  const now = new Date();
  const enrollment = await createEnrollment(db, { eventId, name, createdBy: null, publicUrl: 'http://localhost', now }, cliActor());
  const link = parseEnrollmentLink(enrollment.link);
  if (!link) throw new Error('not an enrollment link');
  const redeemed = await redeemEnrollment(db, { token: link.token, now });
  return { token: redeemed.token, deviceId: redeemed.device.id };
}
