/**
 * Door devices (docs/decisions/107, 108): a phone set up by one QR code instead of a person's password.
 *
 * An admin of an event's organization creates an enrollment (`CreateEnrollmentRequest`) and gets a
 * link `{PUBLIC_URL}/enroll#token=…` (`DEVICE_ENROLLMENT_LINK`) and its QR code. The app redeems the
 * token once (`RedeemEnrollmentRequest`) and gets the device's own bearer token: it can scan that
 * event with the role of staff and nothing else. Whoever picks the phone up starts a shift with
 * their name (`StartShiftRequest`): the shift's token is what the app scans with, so the scan log
 * says who scanned. Admins list, rename, move and revoke devices; a revoked device's requests get
 * 401 `device_revoked`, except the offline upload of scans made before the revocation.
 */
import { z } from 'zod';
import { requestText } from './text.ts';

/** An enrollment token is valid this long after it was created (ms): 24 h. */
export const ENROLLMENT_TTL_MS = 24 * 60 * 60 * 1000;
/** Longest device name, in characters ('North gate 2'). */
export const DEVICE_NAME_MAX_LENGTH = 60;
/** Longest name a person types for their shift, in characters. */
export const SHIFT_NAME_MAX_LENGTH = 60;
/** Most scans a device may report waiting in its outbox (a sanity bound, not a limit of the outbox). */
export const SCANS_WAITING_MAX = 1_000_000;
/**
 * How often the app reports its state while signed in as a device (ms): once a minute, also when it
 * syncs its outbox (docs/decisions/116).
 */
export const DEVICE_HEARTBEAT_MS = 60_000;
/**
 * A device seen within this long is online (ms): three heartbeats, so one lost report on a poor
 * network does not flip it to offline (docs/decisions/116).
 */
export const DEVICE_ONLINE_WINDOW_MS = 3 * DEVICE_HEARTBEAT_MS;

/** A check-in list id as the API takes it (the lists' ids are uuids; anything else names no list). */
const checkInListIdField = () => requestText().min(1).max(64);

/** A device name or a shift name: trimmed, printable, 1–max characters. */
function personText(max: number) {
  return requestText()
    .trim()
    .min(1)
    .max(max)
    .refine((text) => !/\p{Cc}/u.test(text), 'must not contain control characters');
}

/** The body of POST /events/{eventId}/device-enrollments (admins). */
export const CreateEnrollmentRequest = z.object({
  /** The name the device will carry ('North gate 2'); absent: 'Door device'. */
  name: personText(DEVICE_NAME_MAX_LENGTH).optional(),
  /** The one check-in list of the event the device will scan; absent: every list (the app asks). */
  checkInListId: checkInListIdField().optional(),
}).meta({ id: 'CreateEnrollmentRequest' });
export type CreateEnrollmentRequest = z.infer<typeof CreateEnrollmentRequest>;

/** What the admin gets: the link (shown once; the server keeps only the token's hash) and its QR code. */
export const CreateEnrollmentResponse = z.object({
  enrollmentId: z.string(),
  eventId: z.string(),
  deviceName: z.string(),
  /** The check-in list the device will scan, with its name (null: every list). */
  checkInListId: z.string().nullable(),
  checkInListName: z.string().nullable(),
  /** `{PUBLIC_URL}/enroll#token=…`: what the QR code holds. */
  link: z.string(),
  /** The QR code of `link` as an SVG document. */
  qrCodeSvg: z.string(),
  expiresAt: z.iso.datetime({ offset: true }),
}).meta({ id: 'CreateEnrollmentResponse' });
export type CreateEnrollmentResponse = z.infer<typeof CreateEnrollmentResponse>;

/** What a phone says about itself (shown on the devices list). */
const DeviceFacts = {
  appVersion: requestText().trim().max(40).optional(),
  platform: z.enum(['web', 'android', 'ios']).optional(),
};

/** The body of POST /devices/enroll (open: the token is the credential; rate limited per address). */
export const RedeemEnrollmentRequest = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'an enrollment token (43 base64url characters)'),
  ...DeviceFacts,
  /** The web app: also set the HttpOnly session cookie (as POST /auth/login's `useCookie`). */
  useCookie: z.boolean().optional(),
}).meta({ id: 'RedeemEnrollmentRequest' });
export type RedeemEnrollmentRequest = z.infer<typeof RedeemEnrollmentRequest>;

/** A device as its own calls see it. */
export const DeviceSelf = z.object({
  id: z.string(),
  name: z.string(),
  organizationId: z.string(),
  eventId: z.string(),
  /** The check-in list it scans (null: every list of its event; absent from a server before decision 116). */
  checkInListId: z.string().nullish(),
}).meta({ id: 'DeviceSelf' });
export type DeviceSelf = z.infer<typeof DeviceSelf>;

/** The answer to a redeemed enrollment: the device's bearer token (shown once) and the device. */
export const RedeemEnrollmentResponse = z.object({
  token: z.string(),
  expiresAt: z.iso.datetime({ offset: true }),
  device: DeviceSelf,
}).meta({ id: 'RedeemEnrollmentResponse' });
export type RedeemEnrollmentResponse = z.infer<typeof RedeemEnrollmentResponse>;

/** The body of POST /devices/me/shifts: the name of whoever scans on this device now. */
export const StartShiftRequest = z.object({
  name: personText(SHIFT_NAME_MAX_LENGTH),
}).meta({ id: 'StartShiftRequest' });
export type StartShiftRequest = z.infer<typeof StartShiftRequest>;

/** A started shift: the bearer token to scan with until the next shift, and the name the scan log shows. */
export const StartShiftResponse = z.object({
  token: z.string(),
  expiresAt: z.iso.datetime({ offset: true }),
  /** 'Anna (North gate 2)': the shift's name in the scan log. */
  displayName: z.string(),
}).meta({ id: 'StartShiftResponse' });
export type StartShiftResponse = z.infer<typeof StartShiftResponse>;

/**
 * The body of POST /devices/me/status, sent when the app syncs. `place`: where the phone scans now,
 * the event and check-in list (null: every list) it has stored from its enrollment or its last
 * heartbeat answer. The server takes a move as told to the phone once a heartbeat reports the new
 * place (docs/decisions/129), not when an answer naming it was sent (that answer may be lost).
 * Optional: an app from before sends none, and is taken as told when the answer is sent.
 */
export const DeviceStatusRequest = z.object({
  ...DeviceFacts,
  scansWaiting: z.number().int().min(0).max(SCANS_WAITING_MAX),
  place: z.object({ eventId: requestText().max(64), checkInListId: checkInListIdField().nullable() }).optional(),
}).meta({ id: 'DeviceStatusRequest' });
export type DeviceStatusRequest = z.infer<typeof DeviceStatusRequest>;

/**
 * The answer to a status report: `device`, the device as the server has it now — a device its
 * organizer moved to another event or check-in list learns it at its next heartbeat and switches
 * (docs/decisions/127); absent from a server before that. The server keeps the time of the first
 * heartbeat reporting the new place (`place`; without it, of the first answer naming it): the scans
 * the device made at its old list until then are still taken (docs/decisions/129).
 */
export const DeviceStatusResponse = z.object({ success: z.boolean(), device: DeviceSelf.optional() }).meta({ id: 'DeviceStatusResponse' });
export type DeviceStatusResponse = z.infer<typeof DeviceStatusResponse>;

/** A device on an organization's devices list. */
export const DeviceSummary = z.object({
  id: z.string(),
  name: z.string(),
  eventId: z.string(),
  eventTitle: z.string(),
  /** The check-in list it scans, with its name (null: every list of its event). */
  checkInListId: z.string().nullable(),
  checkInListName: z.string().nullable(),
  appVersion: z.string().nullable(),
  platform: z.string().nullable(),
  enrolledAt: z.iso.datetime({ offset: true }),
  lastSeenAt: z.iso.datetime({ offset: true }).nullable(),
  /** Seen within DEVICE_ONLINE_WINDOW_MS of the answer, and not revoked. */
  isOnline: z.boolean(),
  /** Scans waiting in its outbox, as it reported when it last synced (null: never reported). */
  scansWaiting: z.number().int().nullable(),
  revokedAt: z.iso.datetime({ offset: true }).nullable(),
}).meta({ id: 'DeviceSummary' });
export type DeviceSummary = z.infer<typeof DeviceSummary>;

export const DeviceList = z.object({ devices: z.array(DeviceSummary) }).meta({ id: 'DeviceList' });
export type DeviceList = z.infer<typeof DeviceList>;

/**
 * The body of POST /devices/{deviceId}: a new name, another event (of the same organization), another
 * check-in list (null: every list), or several. A move to another event without `checkInListId`
 * leaves the device on every list of its new event.
 */
export const UpdateDeviceRequest = z
  .object({
    name: personText(DEVICE_NAME_MAX_LENGTH).optional(),
    eventId: requestText().min(1).max(64).optional(),
    checkInListId: checkInListIdField().nullable().optional(),
  })
  .refine((body) => body.name !== undefined || body.eventId !== undefined || body.checkInListId !== undefined, 'give a name, an eventId or a checkInListId')
  .meta({ id: 'UpdateDeviceRequest' });
export type UpdateDeviceRequest = z.infer<typeof UpdateDeviceRequest>;

export const DeviceParams = z.object({ deviceId: requestText().min(1).max(64) });
export type DeviceParams = z.infer<typeof DeviceParams>;

/** What a revoked device's requests are answered (401 `device_revoked`); the app shows its own words. */
export const DEVICE_REVOKED_MESSAGE = 'This device was removed by your organizer.';

/** Route patterns of the device calls (build concrete paths with `devicePaths`). */
export const deviceApiPaths = {
  createEnrollment: '/events/:eventId/device-enrollments',
  redeemEnrollment: '/devices/enroll',
  startShift: '/devices/me/shifts',
  reportStatus: '/devices/me/status',
  listDevices: '/organizations/:organizationId/devices',
  updateDevice: '/devices/:deviceId',
  revokeDevice: '/devices/:deviceId/revoke',
} as const;

/** Concrete paths of the device calls. */
export const devicePaths = {
  createEnrollment: (eventId: string) => `/events/${encodeURIComponent(eventId)}/device-enrollments`,
  listDevices: (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}/devices`,
  updateDevice: (deviceId: string) => `/devices/${encodeURIComponent(deviceId)}`,
  revokeDevice: (deviceId: string) => `/devices/${encodeURIComponent(deviceId)}/revoke`,
} as const;
