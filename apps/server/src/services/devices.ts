/**
 * Door devices (docs/decisions/107, 108): enrollment by a one-time token, the device's own
 * credential, shifts named by whoever scans, and the admin's list, rename, move and revoke.
 *
 * A device acts through users rows of its own (`device_principals`): one for the device, one per
 * shift. They have no membership and no usable password (`DEVICE_PASSWORD_HASH` is no PHC string,
 * so `verifyPassword` answers false); their one right is to scan the device's event with the role of
 * staff, given by `eventForDevice` and the device checks of routes/device-access.ts. Check-ins and
 * the scan log reference them like any user, so 'Anna (North gate 2)' is who scanned.
 */
import { randomBytes } from 'node:crypto';
import {
  type CreateEnrollmentResponse,
  DEVICE_ENROLLMENT_LINK,
  DEVICE_ONLINE_WINDOW_MS,
  DEVICE_REVOKED_MESSAGE,
  type DeviceSelf,
  type DeviceStatusRequest,
  type DeviceSummary,
  ENROLLMENT_TTL_MS,
  hasRoleAtLeast,
  INACTIVE_EVENT_STATUSES,
  type MembershipRole,
  type Organization,
  type RedeemEnrollmentResponse,
  type StartShiftResponse,
} from '@gatecheck/contract';
import { and, asc, desc, eq, exists, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import QRCode from 'qrcode';
import type { Db, DbOrTx } from '../db/client.ts';
import { checkInLists, deviceEnrollments, deviceListHistory, devicePrincipals, devices, events, organizations, sessions, users } from '../db/schema.ts';
import { inTransaction } from '../db/transactions.ts';
import { type Actor, recordAudit } from './audit.ts';
import { resolveCheckInList } from './check-in-lists.ts';
import { AccessRefusedError, isId, ServiceError } from './errors.ts';
import { type EventDetails, findEvent } from './events.ts';
import { roleOf } from './organizations.ts';
import { generateToken, hashToken, type SessionDevice } from './sessions.ts';

/** A device's own session lasts this long (ms): 90 days; an admin revokes it sooner. */
export const DEVICE_SESSION_TTL_MS = 90 * 24 * 60 * 60 * 1000;
/** A shift's session lasts this long (ms): 24 h, or until the next shift on the device starts. */
export const SHIFT_SESSION_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long after its revocation a device may still upload the scans it made before (ms): 7 days
 * (docs/decisions/108). Every other request of a revoked device is refused at once.
 */
export const REVOKED_UPLOAD_GRACE_MS = 7 * 24 * 60 * 60 * 1000;
/** The stored password of a device's users rows: not a PHC string, so no password ever matches it. */
const DEVICE_PASSWORD_HASH = '!door-device';
/** The name of a device enrolled without one. */
const DEFAULT_DEVICE_NAME = 'Door device';

/** What a refused enrollment token is answered (400 `bad_request`): plain words for the person at the door. */
export const ENROLLMENT_MESSAGES = {
  unknown: 'This setup code is not valid. Ask your organizer for a new one.',
  used: 'This setup code was already used. Ask your organizer for a new one.',
  expired: 'This setup code has expired. Ask your organizer for a new one.',
} as const;

/**
 * Throws unless `userId` is an admin of `organizationId`.
 * @throws AccessRefusedError (404, as an unknown organization) for a non-member; ServiceError
 *   `forbidden` for a member below admin.
 */
export async function assertOrganizationAdmin(db: DbOrTx, userId: string, organizationId: string): Promise<void> {
  const role = isId(organizationId) ? await roleOf(db, userId, organizationId) : null;
  if (role === null) throw new AccessRefusedError(userId, { organizationId });
  if (!hasRoleAtLeast(role, 'admin')) throw new ServiceError('forbidden', `Managing devices needs the admin role; yours is ${role}.`);
}

/**
 * The check-in list `checkInListId` of event `eventId` (null when none is named: every list).
 * @throws ServiceError `bad_request` naming the field when the event has no such list.
 */
async function listOfEvent(db: DbOrTx, eventId: string, checkInListId: string | null | undefined): Promise<{ id: string; name: string } | null> {
  if (checkInListId === null || checkInListId === undefined) return null;
  const { list } = await resolveCheckInList(db, eventId, checkInListId).catch((error: unknown) => {
    throw error instanceof ServiceError ? new ServiceError('bad_request', error.message, 'checkInListId') : error;
  });
  return { id: list.id, name: list.name };
}

/**
 * Creates an enrollment for `eventId`: a one-time token (only its hash is stored) valid for
 * ENROLLMENT_TTL_MS, the link `{publicUrl}/enroll#token=…` and its QR code (SVG). With
 * `checkInListId` the device will scan that list of the event only (docs/decisions/116). Recorded
 * on the organization's trail ('device.enrollment_created', docs/decisions/115) in the same
 * transaction.
 * @throws ServiceError `not_found` for an unknown event; `bad_request` for a list the event lacks.
 */
export async function createEnrollment(
  db: Db,
  input: { eventId: string; name?: string | undefined; checkInListId?: string | undefined; createdBy: string | null; publicUrl: string; now: Date },
  actor: Actor,
): Promise<CreateEnrollmentResponse> {
  const event = await findEvent(db, input.eventId);
  const list = await listOfEvent(db, event.id, input.checkInListId);
  const token = generateToken();
  const expiresAt = new Date(input.now.getTime() + ENROLLMENT_TTL_MS);
  const deviceName = input.name ?? DEFAULT_DEVICE_NAME;
  const row = await inTransaction(db, async (tx) => {
    const [inserted] = await tx
      .insert(deviceEnrollments)
      .values({ eventId: event.id, checkInListId: list?.id ?? null, deviceName, tokenHash: hashToken(token), createdBy: input.createdBy, createdAt: input.now, expiresAt })
      .returning({ id: deviceEnrollments.id });
    if (!inserted) throw new Error('insert into device_enrollments returned no row');
    await recordAudit(tx, actor, {
      organizationId: event.organizationId,
      eventId: null,
      action: 'device.enrollment_created',
      before: null,
      after: { enrollmentId: inserted.id, deviceName, eventId: event.id, checkInListId: list?.id ?? null, expiresAt: expiresAt.toISOString() },
    });
    return inserted;
  });
  const link = enrollmentLink(input.publicUrl, token);
  return {
    enrollmentId: row.id,
    eventId: event.id,
    deviceName,
    checkInListId: list?.id ?? null,
    checkInListName: list?.name ?? null,
    link,
    qrCodeSvg: await QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }),
    expiresAt: expiresAt.toISOString(),
  };
}

/** `{publicUrl}/enroll#token=…` (contract DEVICE_ENROLLMENT_LINK). */
export function enrollmentLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${DEVICE_ENROLLMENT_LINK.path}#${DEVICE_ENROLLMENT_LINK.tokenParam}=${token}`;
}

/**
 * Redeems an enrollment token once: marks it used and, in the same transaction, makes the device
 * (its users row, its principal row) and its session. A token already used, expired or unknown is
 * refused and nothing is made; two redeems of one token at once make one device (the guarded
 * UPDATE lets one through).
 * @throws ServiceError `bad_request` with ENROLLMENT_MESSAGES' words.
 */
export async function redeemEnrollment(
  db: Db,
  input: { token: string; appVersion?: string | undefined; platform?: string | undefined; now: Date },
): Promise<RedeemEnrollmentResponse> {
  const tokenHash = hashToken(input.token);
  return inTransaction(db, async (tx) => {
    const [enrollment] = await tx
      .update(deviceEnrollments)
      .set({ usedAt: input.now })
      .where(and(eq(deviceEnrollments.tokenHash, tokenHash), isNull(deviceEnrollments.usedAt), sql`${deviceEnrollments.expiresAt} > ${input.now.toISOString()}`))
      .returning();
    if (!enrollment) {
      const [known] = await tx.select({ usedAt: deviceEnrollments.usedAt }).from(deviceEnrollments).where(eq(deviceEnrollments.tokenHash, tokenHash));
      throw new ServiceError('bad_request', !known ? ENROLLMENT_MESSAGES.unknown : known.usedAt ? ENROLLMENT_MESSAGES.used : ENROLLMENT_MESSAGES.expired);
    }
    const event = await findEvent(tx, enrollment.eventId);
    const [device] = await tx
      .insert(devices)
      .values({
        organizationId: event.organizationId,
        eventId: event.id,
        checkInListId: enrollment.checkInListId,
        name: enrollment.deviceName,
        appVersion: input.appVersion ?? null,
        platform: input.platform ?? null,
        lastSeenAt: input.now,
        createdAt: input.now,
      })
      .returning({ id: devices.id, name: devices.name, checkInListId: devices.checkInListId });
    if (!device) throw new Error('insert into devices returned no row');
    await tx.update(deviceEnrollments).set({ deviceId: device.id }).where(eq(deviceEnrollments.id, enrollment.id));
    const userId = await createPrincipal(tx, { deviceId: device.id, displayName: device.name, shiftName: null });
    const session = await createPrincipalSession(tx, userId, new Date(input.now.getTime() + DEVICE_SESSION_TTL_MS));
    return {
      token: session.token,
      expiresAt: session.expiresAt.toISOString(),
      device: { id: device.id, name: device.name, organizationId: event.organizationId, eventId: event.id, checkInListId: device.checkInListId },
    };
  });
}

/** Makes a users row the device acts as (no membership, no usable password) and its principal row. */
async function createPrincipal(tx: DbOrTx, input: { deviceId: string; displayName: string; shiftName: string | null }): Promise<string> {
  // Never typed by anyone: random, and shaped so that no sign-up can take it (`.invalid` is reserved).
  const handle = `device-${randomBytes(12).toString('hex')}`;
  const [user] = await tx
    .insert(users)
    .values({ displayName: input.displayName, username: handle, email: `${handle}@devices.invalid`, passwordHash: DEVICE_PASSWORD_HASH })
    .returning({ id: users.id });
  if (!user) throw new Error('insert into users returned no row');
  await tx.insert(devicePrincipals).values({ userId: user.id, deviceId: input.deviceId, shiftName: input.shiftName });
  return user.id;
}

async function createPrincipalSession(tx: DbOrTx, userId: string, expiresAt: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = generateToken();
  await tx.insert(sessions).values({ tokenHash: hashToken(token), userId, expiresAt });
  return { token, expiresAt };
}

/**
 * Starts a shift on `device` for the person named `name`: a users row 'Anna (North gate 2)' and a
 * session of SHIFT_SESSION_TTL_MS to scan with. The device's earlier shift sessions end now (their
 * offline scans still prove their maker up to now, docs/decisions/088).
 */
export async function startShift(db: Db, device: SessionDevice, name: string, now: Date): Promise<StartShiftResponse> {
  return inTransaction(db, async (tx) => {
    const shiftUsers = tx
      .select({ userId: devicePrincipals.userId })
      .from(devicePrincipals)
      .where(and(eq(devicePrincipals.deviceId, device.id), isNotNull(devicePrincipals.shiftName)));
    await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(inArray(sessions.userId, shiftUsers), isNull(sessions.revokedAt)));
    const displayName = `${name} (${device.name})`;
    const userId = await createPrincipal(tx, { deviceId: device.id, displayName, shiftName: name });
    const session = await createPrincipalSession(tx, userId, new Date(now.getTime() + SHIFT_SESSION_TTL_MS));
    return { token: session.token, expiresAt: session.expiresAt.toISOString(), displayName };
  });
}

/**
 * A device's last-seen time is written when it is older than this (ms): one write a minute per
 * device, not one per request (the access hook and the status report alike, docs/decisions/116).
 */
export const LAST_SEEN_RESOLUTION_MS = 60_000;

/**
 * Stores what the device reports when it syncs (app version, platform, scans waiting) and that it
 * was seen now. Written only when a reported fact changed or the last-seen time is older than
 * LAST_SEEN_RESOLUTION_MS, so a storm of reports costs no storm of writes.
 * @returns whether a row was written.
 */
export async function reportDeviceStatus(db: DbOrTx, deviceId: string, status: DeviceStatusRequest, now: Date): Promise<boolean> {
  const staleBefore = new Date(now.getTime() - LAST_SEEN_RESOLUTION_MS).toISOString();
  const changed = [
    sql`${devices.scansWaiting} is distinct from ${status.scansWaiting}`,
    sql`${devices.lastSeenAt} is null`,
    sql`${devices.lastSeenAt} <= ${staleBefore}`,
    ...(status.appVersion === undefined ? [] : [sql`${devices.appVersion} is distinct from ${status.appVersion}`]),
    ...(status.platform === undefined ? [] : [sql`${devices.platform} is distinct from ${status.platform}`]),
  ];
  const written = await db
    .update(devices)
    .set({
      scansWaiting: status.scansWaiting,
      lastSeenAt: now,
      ...(status.appVersion === undefined ? {} : { appVersion: status.appVersion }),
      ...(status.platform === undefined ? {} : { platform: status.platform }),
    })
    .where(and(eq(devices.id, deviceId), sql`(${sql.join(changed, sql` or `)})`))
    .returning({ id: devices.id });
  return written.length > 0;
}

/**
 * Where device `deviceId` scans now, as its heartbeat answers it (POST /devices/me/status,
 * docs/decisions/127), and whether the phone knows it (docs/decisions/129): every move of it not yet
 * told gets `told_at` = `now` when the phone reports (`reported`, its stored event and list) the
 * place the device is at — it has the answer that named it. A phone still reporting its old place
 * (the answer naming the new one was lost) is not told: it scans at its old list, and its scans
 * there stay taken until a heartbeat shows it knows. A report of no place (an app from before) is
 * taken as told now, when the answer naming the place is sent. Set once (a concurrent heartbeat
 * finds it set and leaves it).
 *
 * One statement, so one snapshot: the place compared and answered and the moves marked are the same
 * (a move committed meanwhile is neither compared, answered nor marked: a later heartbeat tells it).
 * Reading the place before and marking after could mark a move the phone does not know of, and
 * refuse the scans it goes on making at its old list.
 * @returns the device's event, check-in list (null: every list), name and organization; undefined
 *   for an unknown device.
 */
export async function tellDeviceItsPlace(db: DbOrTx, deviceId: string, now: Date, reported?: { eventId: string; checkInListId: string | null }): Promise<DeviceSelf | undefined> {
  // Compared as text: a reported id that is no uuid names no place (and raises no cast error).
  const knowsPlace =
    reported === undefined
      ? sql`true`
      : sql`exists (select 1 from ${devices} where ${devices.id} = ${deviceId} and ${devices.eventId}::text = ${reported.eventId}
          and ${devices.checkInListId}::text is not distinct from ${reported.checkInListId})`;
  const told = db.$with('told', { id: deviceListHistory.id }).as(sql`
    update ${deviceListHistory} set told_at = ${now.toISOString()}
    where ${deviceListHistory.deviceId} = ${deviceId} and ${deviceListHistory.toldAt} is null and ${knowsPlace}
    returning ${deviceListHistory.id}`);
  const [place] = await db
    .with(told)
    .select({ id: devices.id, name: devices.name, organizationId: devices.organizationId, eventId: devices.eventId, checkInListId: devices.checkInListId })
    .from(devices)
    .where(eq(devices.id, deviceId));
  return place;
}

/** Records that `deviceId` was seen at `now`. */
export async function touchDevice(db: DbOrTx, deviceId: string, now: Date): Promise<void> {
  await db.update(devices).set({ lastSeenAt: now }).where(eq(devices.id, deviceId));
}

/**
 * The event `eventId` for a door device asking with `needed` role: its own event, where it is
 * staff (docs/decisions/107) — or, for the offline upload only (`leftEventUpload`, at `now`), an
 * event it was moved away from, while it may still send the scans it made there
 * (`mayUploadToEventLeft`, docs/decisions/139).
 * @throws ServiceError `not_found` for an unknown event; AccessRefusedError (the same 404) for
 *   any other event; `forbidden` when `needed` is above staff.
 */
export async function eventForDevice(
  db: DbOrTx,
  principal: { userId: string; device: SessionDevice },
  eventId: string,
  needed: MembershipRole,
  leftEventUpload?: { now: Date },
): Promise<EventDetails> {
  const event = await findEvent(db, eventId);
  const isOwnEvent = event.id === principal.device.eventId;
  if (!isOwnEvent && !(leftEventUpload && (await mayUploadToEventLeft(db, principal.device.id, event.id, leftEventUpload.now)))) {
    throw new AccessRefusedError(principal.userId, { eventId });
  }
  if (!hasRoleAtLeast('staff', needed)) throw new ServiceError('forbidden', `This needs the ${needed} role; a door device scans with the staff role only.`);
  return event;
}

/**
 * How long after a door device was told of its move to another event it may still send that event
 * the scans it made there before (ms): 7 days, as after a revocation (docs/decisions/139). A phone
 * not told yet (offline since the move, or one that never reports its new place) gets as long from
 * the move itself: the event it left never stays open to it on the device's word alone.
 */
export const EVENT_LEFT_UPLOAD_GRACE_MS = REVOKED_UPLOAD_GRACE_MS;

/**
 * Whether device `deviceId`, now at another event, may upload offline scans to `eventId` at `now`
 * (docs/decisions/139): it was at that event before a move, and was told of the move not more than
 * EVENT_LEFT_UPLOAD_GRACE_MS ago, or, not told yet, was moved not more than that ago. Which of its
 * scans are taken is the upload's to judge (`timesAtListLeft`).
 */
export async function mayUploadToEventLeft(db: DbOrTx, deviceId: string, eventId: string, now: Date): Promise<boolean> {
  const toldSince = new Date(now.getTime() - EVENT_LEFT_UPLOAD_GRACE_MS).toISOString(); // told, or moved, since
  const [stay] = await db
    .select({ id: deviceListHistory.id })
    .from(deviceListHistory)
    .where(and(eq(deviceListHistory.deviceId, deviceId), eq(deviceListHistory.eventId, eventId), or(and(isNull(deviceListHistory.toldAt), sql`${deviceListHistory.boundUntil} > ${toldSince}`), sql`${deviceListHistory.toldAt} > ${toldSince}`)))
    .limit(1);
  return stay !== undefined;
}

/**
 * Whether `userId` is one of the users rows of a device that scans `eventId`, or scanned it before a
 * move (a maker of offline scans, decision 088: a shift's scans made at an event the device has left
 * are still that shift's, docs/decisions/139; which of them are taken is the upload's to judge).
 */
export async function isDevicePrincipalAtEvent(db: DbOrTx, userId: string, eventId: string): Promise<boolean> {
  const wasThere = db
    .select({ id: deviceListHistory.id })
    .from(deviceListHistory)
    .where(and(eq(deviceListHistory.deviceId, devices.id), eq(deviceListHistory.eventId, eventId)));
  const [row] = await db
    .select({ deviceId: devices.id })
    .from(devicePrincipals)
    .innerJoin(devices, eq(devices.id, devicePrincipals.deviceId))
    .where(and(eq(devicePrincipals.userId, userId), or(eq(devices.eventId, eventId), exists(wasThere))))
    .limit(1);
  return row !== undefined;
}

/** The organization list a door device sees (SPEC §7 GET organizations/membership): its own, as staff, with its event if active. */
export async function organizationsOfDevice(db: DbOrTx, device: SessionDevice): Promise<Organization[]> {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name, description: organizations.description, eventId: events.id, title: events.title, status: events.status })
    .from(devices)
    .innerJoin(organizations, eq(organizations.id, devices.organizationId))
    .innerJoin(events, eq(events.id, devices.eventId))
    .where(eq(devices.id, device.id));
  if (!row) return [];
  const isActive = !INACTIVE_EVENT_STATUSES.some((inactive) => inactive === row.status);
  return [{ _id: row.id, name: row.name, description: row.description, role: 'staff', activeEvents: isActive ? [{ _id: row.eventId, title: row.title }] : [] }];
}

/**
 * Every device of `organizationId` (or only those scanning `eventId`), newest first, revoked ones
 * included (they say when), with its list's name and whether it is online at `now` (seen within
 * DEVICE_ONLINE_WINDOW_MS and not revoked). One query; the devices admin and the live door page
 * read device state here.
 */
export async function listDevices(db: DbOrTx, organizationId: string, options: { eventId?: string; deviceId?: string; now?: Date } = {}): Promise<DeviceSummary[]> {
  const now = options.now ?? new Date();
  const rows = await db
    .select({ device: devices, eventTitle: events.title, checkInListName: checkInLists.name })
    .from(devices)
    .innerJoin(events, eq(events.id, devices.eventId))
    .leftJoin(checkInLists, and(eq(checkInLists.eventId, devices.eventId), eq(checkInLists.id, devices.checkInListId)))
    .where(
      and(
        eq(devices.organizationId, organizationId),
        options.eventId === undefined ? undefined : eq(devices.eventId, options.eventId),
        options.deviceId === undefined ? undefined : eq(devices.id, options.deviceId),
      ),
    )
    .orderBy(sql`${devices.createdAt} desc`, asc(devices.id));
  return rows.map(({ device, eventTitle, checkInListName }) => ({
    id: device.id,
    name: device.name,
    eventId: device.eventId,
    eventTitle,
    checkInListId: device.checkInListId,
    checkInListName,
    appVersion: device.appVersion,
    platform: device.platform,
    enrolledAt: device.createdAt.toISOString(),
    lastSeenAt: device.lastSeenAt?.toISOString() ?? null,
    isOnline: device.revokedAt === null && device.lastSeenAt !== null && now.getTime() - device.lastSeenAt.getTime() < DEVICE_ONLINE_WINDOW_MS,
    scansWaiting: device.scansWaiting,
    revokedAt: device.revokedAt?.toISOString() ?? null,
  }));
}

/**
 * The device `deviceId` with its organization.
 * @throws ServiceError `not_found` for an unknown id.
 */
export async function findDevice(db: DbOrTx, deviceId: string): Promise<typeof devices.$inferSelect> {
  const [device] = isId(deviceId) ? await db.select().from(devices).where(eq(devices.id, deviceId)) : [];
  if (!device) throw new ServiceError('not_found', `No device with id "${deviceId}"`);
  return device;
}

/**
 * The device `deviceId` for an admin of its organization (`adminUserId`; null: the operator's CLI).
 * @throws ServiceError `not_found` for an unknown device and, alike, one of an organization the
 *   caller is not a member of; `forbidden` for a member below admin.
 */
export async function deviceForAdmin(db: DbOrTx, adminUserId: string | null, deviceId: string): Promise<typeof devices.$inferSelect> {
  const device = await findDevice(db, deviceId);
  if (adminUserId !== null) {
    await assertOrganizationAdmin(db, adminUserId, device.organizationId).catch((error: unknown) => {
      throw error instanceof AccessRefusedError ? new ServiceError('not_found', `No device with id "${deviceId}"`) : error;
    });
  }
  return device;
}

/**
 * Renames a device, moves it to another event of its organization and/or to another check-in list
 * (null: every list); its next request then scans there (nothing is cached in a session). A move
 * to another event without a list leaves it on every list of the new event. `now`: the time its
 * online state is told at (default the system clock). Recorded ('device.updated', its name, event
 * and list before and after) in the same transaction.
 * @throws ServiceError `not_found` for an unknown event or one of another organization,
 *   `bad_request` for a list its (new) event lacks, `conflict` for a revoked device.
 */
export async function updateDevice(
  db: Db,
  device: typeof devices.$inferSelect,
  change: { name?: string | undefined; eventId?: string | undefined; checkInListId?: string | null | undefined; now?: Date },
  actor: Actor,
): Promise<DeviceSummary> {
  const now = change.now ?? new Date();
  if (device.revokedAt) throw new ServiceError('conflict', 'This device was removed; enroll the phone again.');
  let eventId = device.eventId;
  if (change.eventId !== undefined) {
    const event = await findEvent(db, change.eventId);
    if (event.organizationId !== device.organizationId) throw new ServiceError('not_found', `No event with id "${change.eventId}"`);
    eventId = event.id;
  }
  const isMoved = eventId !== device.eventId;
  const list = change.checkInListId !== undefined || isMoved ? await listOfEvent(db, eventId, change.checkInListId) : undefined;
  const name = change.name ?? device.name;
  const checkInListId = list === undefined ? device.checkInListId : (list?.id ?? null);
  await inTransaction(db, async (tx) => {
    // The place it leaves, read under the row's lock (a concurrent move waits), kept for its uploads.
    const [before] = await tx.select({ eventId: devices.eventId, checkInListId: devices.checkInListId, createdAt: devices.createdAt }).from(devices).where(eq(devices.id, device.id)).for('update');
    if (before && (before.eventId !== eventId || before.checkInListId !== checkInListId)) await keepPlaceLeft(tx, device.id, before, now);
    await tx.update(devices).set({ eventId, checkInListId, name }).where(eq(devices.id, device.id));
    await recordAudit(tx, actor, {
      organizationId: device.organizationId,
      eventId: null,
      action: 'device.updated',
      before: { deviceId: device.id, name: device.name, eventId: device.eventId, checkInListId: device.checkInListId },
      after: { deviceId: device.id, name, eventId, checkInListId },
    });
  });
  const updated = (await listDevices(db, device.organizationId, { deviceId: device.id, now }))[0];
  if (!updated) throw new Error('the device is gone');
  return updated;
}

/**
 * Records that device `deviceId` leaves `place` (its event and list; null: every list) at `now`
 * (docs/decisions/129): it was there since its previous move, or since its enrollment.
 */
async function keepPlaceLeft(tx: DbOrTx, deviceId: string, place: { eventId: string; checkInListId: string | null; createdAt: Date }, now: Date): Promise<void> {
  const [previous] = await tx
    .select({ until: sql<Date | null>`max(${deviceListHistory.boundUntil})`.mapWith(deviceListHistory.boundUntil) })
    .from(deviceListHistory)
    .where(eq(deviceListHistory.deviceId, deviceId));
  const boundFrom = previous?.until ?? place.createdAt;
  await tx.insert(deviceListHistory).values({ deviceId, eventId: place.eventId, checkInListId: place.checkInListId, boundFrom, boundUntil: now });
}

/**
 * The times a door device scanned at a check-in list it has since been moved away from
 * (docs/decisions/129): from its arrival (enrollment or the move before) until the server told it
 * of the move (`until`; null: not told yet, it may still be scanning there).
 */
export interface StayAtList {
  from: Date;
  until: Date | null;
}

/**
 * For an offline upload by `device` (null: not a device) to check-in list `checkInListId` of event
 * `eventId` (docs/decisions/129, 139): undefined when the device may upload there at any time (its
 * own event, and its own list or it is bound to none); else its stays at that list before being
 * moved away — to another list, or to another event (`eventId` is then an event it left) — each
 * until the device was told of the move; bound to every list of the event counts as being at this one.
 * @throws ServiceError `bad_request` naming `checkInListId` when the device never was at that list.
 */
export async function timesAtListLeft(db: DbOrTx, device: SessionDevice | null, eventId: string, checkInListId: string): Promise<StayAtList[] | undefined> {
  if (!device) return undefined;
  if (eventId === device.eventId && (!device.checkInListId || device.checkInListId === checkInListId)) return undefined;
  const times = await db
    .select({ from: deviceListHistory.boundFrom, until: deviceListHistory.toldAt })
    .from(deviceListHistory)
    .where(
      and(
        eq(deviceListHistory.deviceId, device.id),
        eq(deviceListHistory.eventId, eventId),
        or(eq(deviceListHistory.checkInListId, checkInListId), isNull(deviceListHistory.checkInListId)),
      ),
    )
    .orderBy(asc(deviceListHistory.boundFrom));
  if (times.length === 0) throw new ServiceError('bad_request', 'This door device scans its own check-in list only.', 'checkInListId');
  return times;
}

/**
 * The check-in list an offline upload by `device` to `eventId` naming no list is recorded at, when
 * `eventId` is an event the device left (docs/decisions/139): the list of its last stay there;
 * undefined for every list (then the event's first, as for any call naming none) or when `eventId`
 * is its own event (the access hook gave it the device's list already).
 */
export async function listLeftAt(db: DbOrTx, device: SessionDevice | null, eventId: string): Promise<string | undefined> {
  if (!device || device.eventId === eventId) return undefined;
  const [last] = await db
    .select({ checkInListId: deviceListHistory.checkInListId })
    .from(deviceListHistory)
    .where(and(eq(deviceListHistory.deviceId, device.id), eq(deviceListHistory.eventId, eventId)))
    .orderBy(desc(deviceListHistory.boundUntil))
    .limit(1);
  return last?.checkInListId ?? undefined;
}

/**
 * Revokes a device at `now` (again: keeps the first time). Its next request gets 401
 * `device_revoked`; its offline upload still takes the scans made before `now` for
 * REVOKED_UPLOAD_GRACE_MS (docs/decisions/108). Recorded ('device.revoked') when it was not revoked before.
 */
export async function revokeDevice(db: Db, device: typeof devices.$inferSelect, input: { revokedBy: string | null; now: Date }, actor: Actor): Promise<DeviceSummary> {
  const { revokedBy, now } = input;
  await inTransaction(db, async (tx) => {
    const revoked = await tx
      .update(devices)
      .set({ revokedAt: now, revokedBy })
      .where(and(eq(devices.id, device.id), isNull(devices.revokedAt)))
      .returning({ id: devices.id });
    if (revoked.length === 0) return;
    await recordAudit(tx, actor, {
      organizationId: device.organizationId,
      eventId: null,
      action: 'device.revoked',
      before: { deviceId: device.id, name: device.name, eventId: device.eventId },
      after: { deviceId: device.id, name: device.name, eventId: device.eventId, revokedAt: now.toISOString() },
    });
  });
  const revoked = (await listDevices(db, device.organizationId, { deviceId: device.id, now }))[0];
  if (!revoked) throw new Error('the device is gone');
  return revoked;
}

/**
 * Whether a revoked device's request may still go through: only its offline upload, within
 * REVOKED_UPLOAD_GRACE_MS of the revocation.
 * @throws ServiceError `device_revoked` (401) otherwise.
 */
export function assertRevokedDeviceMayUpload(device: SessionDevice, isOfflineUpload: boolean, now: Date): void {
  if (!device.revokedAt) return;
  if (isOfflineUpload && now.getTime() - device.revokedAt.getTime() < REVOKED_UPLOAD_GRACE_MS) return;
  throw new ServiceError('device_revoked', DEVICE_REVOKED_MESSAGE);
}
