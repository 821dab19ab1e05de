/**
 * Door devices (docs/decisions/107, 108) through the real API on a real database: enrollment by a
 * one-time token, the device's own credential scoped to one event, shifts that name who scanned,
 * the admin's list, rename, move and revoke, and the upload of scans made before a revocation.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  apiPaths,
  ApiErrorBody,
  checkInCountsPath,
  CheckInLists,
  checkInListsPath,
  CreateEnrollmentResponse,
  DeviceList,
  DeviceStatusResponse,
  devicePaths,
  deviceApiPaths,
  DeviceSummary,
  EventList,
  offlinePaths,
  OfflineScanBatchResponse,
  OrganizationList,
  organizationEventsPath,
  parseEnrollmentLink,
  RedeemEnrollmentResponse,
  ScanLogPage,
  StartShiftResponse,
  supervisorPaths,
  UserMe,
  VerifyTicketResponse,
} from '@gatecheck/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkIns, deviceEnrollments, devices, tickets, users } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_LIVE_EVENT_TITLE, DEMO_SUPERVISOR, DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { cliActor } from '../src/services/audit.ts';
import { createCheckInList, deleteCheckInList, listCheckInLists } from '../src/services/check-in-lists.ts';
import { REVOKED_UPLOAD_GRACE_MS, reportDeviceStatus } from '../src/services/devices.ts';
import { findEvent } from '../src/services/events.ts';
import { createEnrollmentAs, enrollDevice } from './helpers/devices.ts';
import { createOutsider, demoIds, OUTSIDER, ticketPicker } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const DAY = DEMO_TODAY_DAY_NUMBER;
let t: TestApp;
let ids: Awaited<ReturnType<typeof demoIds>>;
let other: Awaited<ReturnType<typeof createOutsider>>;
let pickTicket: ReturnType<typeof ticketPicker>;
let adminToken: string;
/** Added to the system clock by the app's clock: a test moves time forward (24 h expiry, 7-day grace). */
let clockOffsetMs = 0;

beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(Date.now() + clockOffsetMs) });
  ids = await demoIds(t.database.db);
  other = await createOutsider(t.database.db);
  pickTicket = ticketPicker(t.demo?.tickets ?? []);
  adminToken = await login(t.app, DEMO_USER.username, DEMO_USER.password);
});
afterAll(async () => {
  await t.close();
});

function freshCode(): string {
  return pickTicket((ticket) => ticket.eventTitle === DEMO_LIVE_EVENT_TITLE && !ticket.isRevoked && ticket.days === null).code;
}

async function verifyAs(token: string, eventId = ids.liveEventId, code = freshCode()) {
  return t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(token), payload: { eventId, qrCode: code, day: DAY, scanId: randomUUID() } });
}

async function redeem(token: string) {
  return t.app.inject({ method: 'POST', url: api(deviceApiPaths.redeemEnrollment), payload: { token } });
}

function tokenOfLink(link: string): string {
  const parsed = parseEnrollmentLink(link);
  if (!parsed) throw new Error(`not an enrollment link: ${link}`);
  return parsed.token;
}

async function devicesOfDemo(): Promise<DeviceSummary[]> {
  const response = await t.app.inject({ method: 'GET', url: api(devicePaths.listDevices(ids.organizationId)), headers: bearer(adminToken) });
  expect(response.statusCode, response.body).toBe(200);
  return DeviceList.parse(response.json()).devices;
}

describe(`enrollment (${TEST_DATABASE_KIND})`, () => {
  test('an admin gets a link and a QR code; only the hash of the one-time token is stored', async () => {
    const enrollment = await createEnrollmentAs(t.app, adminToken, ids.liveEventId, 'North gate 2');
    expect(enrollment.deviceName).toBe('North gate 2');
    expect(enrollment.link.startsWith(`${t.config.publicUrl}/enroll#token=`)).toBe(true);
    expect(parseEnrollmentLink(enrollment.link)?.serverUrl).toBe(t.config.publicUrl);
    expect(enrollment.qrCodeSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(Date.parse(enrollment.expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    const token = tokenOfLink(enrollment.link);
    const [row] = await t.database.db.select().from(deviceEnrollments).where(eq(deviceEnrollments.id, enrollment.enrollmentId));
    expect(row?.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);
  });

  test('the token works once: a stolen QR used after the real phone enrolled gets nothing', async () => {
    const token = tokenOfLink((await createEnrollmentAs(t.app, adminToken, ids.liveEventId)).link);
    const first = await redeem(token);
    expect(first.statusCode, first.body).toBe(200);
    const devicesBefore = (await devicesOfDemo()).length;
    const second = await redeem(token);
    expect(second.statusCode).toBe(400);
    expect(ApiErrorBody.parse(second.json())).toEqual({ code: 'bad_request', message: 'This setup code was already used. Ask your organizer for a new one.' });
    expect((await devicesOfDemo()).length).toBe(devicesBefore);
  });

  test('two phones redeeming one token at the same moment make one device', async () => {
    const token = tokenOfLink((await createEnrollmentAs(t.app, adminToken, ids.liveEventId)).link);
    const answers = await Promise.all([redeem(token), redeem(token), redeem(token)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400, 400]);
  });

  test('the web app redeems with useCookie: the session cookie then signs the device in', async () => {
    const token = tokenOfLink((await createEnrollmentAs(t.app, adminToken, ids.liveEventId, 'Web door')).link);
    const response = await t.app.inject({ method: 'POST', url: api(deviceApiPaths.redeemEnrollment), payload: { token, useCookie: true, platform: 'web' } });
    expect(response.statusCode, response.body).toBe(200);
    const cookie = response.cookies.find((candidate) => candidate.name === 'gatecheck_session');
    expect(cookie?.httpOnly).toBe(true);
    const me = await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), cookies: { gatecheck_session: cookie?.value ?? '' } });
    expect(UserMe.parse(me.json()).displayName).toBe('Web door');
  });

  test('an expired or unknown token is refused in plain words', async () => {
    const token = tokenOfLink((await createEnrollmentAs(t.app, adminToken, ids.liveEventId)).link);
    clockOffsetMs = 24 * 3600_000 + 1000;
    try {
      const expired = await redeem(token);
      expect(expired.statusCode).toBe(400);
      expect(expired.json().message).toBe('This setup code has expired. Ask your organizer for a new one.');
    } finally {
      clockOffsetMs = 0;
    }
    const unknown = await redeem('A'.repeat(43));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('This setup code is not valid. Ask your organizer for a new one.');
    const malformed = await redeem('not a token');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('validation_failed');
  });

  test('only admins of the event’s organization create enrollments', async () => {
    const supervisor = await login(t.app, DEMO_SUPERVISOR.username, DEMO_SUPERVISOR.password);
    const outsider = await login(t.app, OUTSIDER.username, OUTSIDER.password);
    const asSupervisor = await t.app.inject({ method: 'POST', url: api(devicePaths.createEnrollment(ids.liveEventId)), headers: bearer(supervisor), payload: {} });
    expect(asSupervisor.statusCode).toBe(403);
    const asOutsider = await t.app.inject({ method: 'POST', url: api(devicePaths.createEnrollment(ids.liveEventId)), headers: bearer(outsider), payload: {} });
    expect(asOutsider.statusCode).toBe(404);
  });

  test('a device name with control characters, or too long, is refused', async () => {
    for (const name of ['Gate\u0007', 'x'.repeat(61), '   ']) {
      const response = await t.app.inject({ method: 'POST', url: api(devicePaths.createEnrollment(ids.liveEventId)), headers: bearer(adminToken), payload: { name } });
      expect(response.statusCode, name).toBe(400);
      expect(response.json().field).toBe('body.name');
    }
  });
});

describe(`what a device may do (${TEST_DATABASE_KIND})`, () => {
  test('it scans its event without anyone’s password, and the scan log names the device', async () => {
    const { token, device } = await enrollDevice(t.app, adminToken, ids.liveEventId, 'East door');
    const code = freshCode();
    const verdict = VerifyTicketResponse.parse((await verifyAs(token, ids.liveEventId, code)).json());
    expect(verdict.isValid).toBe(true);
    const again = VerifyTicketResponse.parse((await verifyAs(token, ids.liveEventId, code)).json());
    expect(again).toMatchObject({ isValid: false, reason: 'already_checked_in', checkedInBy: 'East door' });
    expect(device).toMatchObject({ name: 'East door', eventId: ids.liveEventId, organizationId: ids.organizationId });
    const me = UserMe.parse((await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), headers: bearer(token) })).json());
    expect(me.displayName).toBe('East door');
  });

  test('it sees its organization with only its event, and nothing of another event or organization', async () => {
    const { token } = await enrollDevice(t.app, adminToken, ids.liveEventId);
    const organizations = OrganizationList.parse((await t.app.inject({ method: 'GET', url: api(apiPaths.organizations), headers: bearer(token) })).json());
    expect(organizations).toEqual([expect.objectContaining({ _id: ids.organizationId, role: 'staff', activeEvents: [expect.objectContaining({ _id: ids.liveEventId })] })]);
    const events = EventList.parse((await t.app.inject({ method: 'GET', url: api(organizationEventsPath(ids.organizationId)), headers: bearer(token) })).json());
    expect(events.map((event) => event._id)).toEqual([ids.liveEventId]);
    expect((await verifyAs(token, ids.singleDayEventId)).statusCode).toBe(404);
    expect((await verifyAs(token, other.eventId, other.ticketCode)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: api(checkInCountsPath(ids.singleDayEventId, 1)), headers: bearer(token) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: api(organizationEventsPath(other.organizationId)), headers: bearer(token) })).statusCode).toBe(404);
  });

  test('it cannot reach supervisor tools, account calls or the devices admin', async () => {
    const { token, device } = await enrollDevice(t.app, adminToken, ids.liveEventId);
    const refused = [
      { method: 'GET' as const, url: api(`${supervisorPaths.scanLog(ids.liveEventId)}?day=${DAY}`) },
      { method: 'POST' as const, url: api(apiPaths.changePassword), payload: { currentPassword: 'x', newPassword: 'long-enough' } },
      { method: 'GET' as const, url: api(devicePaths.listDevices(ids.organizationId)) },
      { method: 'POST' as const, url: api(devicePaths.createEnrollment(ids.liveEventId)), payload: {} },
      { method: 'POST' as const, url: api(devicePaths.revokeDevice(device.id)) },
    ];
    for (const request of refused) {
      const response = await t.app.inject({ ...request, headers: bearer(token) });
      expect(response.statusCode, request.url).toBe(403);
      expect(response.json().code).toBe('forbidden');
    }
  });

  test('a shift names who scanned: the scan log says "Anna (North gate 2)"', async () => {
    const { token } = await enrollDevice(t.app, adminToken, ids.liveEventId, 'North gate 2');
    const shift = await t.app.inject({ method: 'POST', url: api(deviceApiPaths.startShift), headers: bearer(token), payload: { name: '  Anna ' } });
    expect(shift.statusCode, shift.body).toBe(200);
    const { token: shiftToken, displayName } = StartShiftResponse.parse(shift.json());
    expect(displayName).toBe('Anna (North gate 2)');
    const code = freshCode();
    expect(VerifyTicketResponse.parse((await verifyAs(shiftToken, ids.liveEventId, code)).json()).isValid).toBe(true);
    const log = await t.app.inject({ method: 'GET', url: api(`${supervisorPaths.scanLog(ids.liveEventId)}?day=${DAY}&limit=200`), headers: bearer(adminToken) });
    const entry = ScanLogPage.parse(log.json()).entries.find((candidate) => candidate.code === code);
    expect(entry?.userName).toBe('Anna (North gate 2)');
    // The next shift ends this one: its token no longer works.
    await t.app.inject({ method: 'POST', url: api(deviceApiPaths.startShift), headers: bearer(token), payload: { name: 'Ben' } });
    expect((await verifyAs(shiftToken)).statusCode).toBe(401);
    for (const name of ['', 'A\u0000', 'x'.repeat(61), 'Tab\there']) {
      const bad = await t.app.inject({ method: 'POST', url: api(deviceApiPaths.startShift), headers: bearer(token), payload: { name } });
      expect(bad.statusCode, JSON.stringify(name)).toBe(400);
    }
    const person = await login(t.app, DEMO_COLLEAGUE.username, DEMO_COLLEAGUE.password);
    expect((await t.app.inject({ method: 'POST', url: api(deviceApiPaths.startShift), headers: bearer(person), payload: { name: 'Anna' } })).statusCode).toBe(403);
  });

  test('a device user cannot sign in with a password', async () => {
    const { device } = await enrollDevice(t.app, adminToken, ids.liveEventId);
    const [row] = await t.database.db.select({ username: users.username }).from(users).where(eq(users.displayName, device.name)).limit(1);
    const response = await t.app.inject({ method: 'POST', url: api(apiPaths.login), payload: { email: row?.username ?? '', password: '!door-device' } });
    expect(response.statusCode).toBe(401);
  });
});

describe(`devices list, rename, move, revoke (${TEST_DATABASE_KIND})`, () => {
  test('the list shows what the device reported when it synced', async () => {
    const { token, device } = await enrollDevice(t.app, adminToken, ids.liveEventId, 'Box office');
    const status = await t.app.inject({ method: 'POST', url: api(deviceApiPaths.reportStatus), headers: bearer(token), payload: { scansWaiting: 7, appVersion: '1.5.0', platform: 'ios' } });
    expect(status.statusCode, status.body).toBe(200);
    const listed = (await devicesOfDemo()).find((entry) => entry.id === device.id);
    expect(listed).toMatchObject({ name: 'Box office', eventId: ids.liveEventId, eventTitle: DEMO_LIVE_EVENT_TITLE, appVersion: '1.5.0', platform: 'ios', scansWaiting: 7, revokedAt: null });
    expect(listed?.lastSeenAt).not.toBeNull();
    const outsider = await login(t.app, OUTSIDER.username, OUTSIDER.password);
    expect((await t.app.inject({ method: 'GET', url: api(devicePaths.listDevices(ids.organizationId)), headers: bearer(outsider) })).statusCode).toBe(404);
  });

  test('a moved device scans its new event on its next request, and no longer the old one', async () => {
    const { token, device } = await enrollDevice(t.app, adminToken, ids.liveEventId);
    const moved = await t.app.inject({ method: 'POST', url: api(devicePaths.updateDevice(device.id)), headers: bearer(adminToken), payload: { eventId: ids.singleDayEventId, name: 'Summit door' } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(DeviceSummary.parse(moved.json())).toMatchObject({ name: 'Summit door', eventId: ids.singleDayEventId });
    expect((await verifyAs(token, ids.liveEventId)).statusCode).toBe(404);
    expect((await verifyAs(token, ids.singleDayEventId, 'NO-SUCH-CODE')).statusCode).toBe(200);
    const elsewhere = await t.app.inject({ method: 'POST', url: api(devicePaths.updateDevice(device.id)), headers: bearer(adminToken), payload: { eventId: other.eventId } });
    expect(elsewhere.statusCode).toBe(404);
  });

  test('a revoked device gets 401 device_revoked on its next request', async () => {
    const { token, device } = await enrollDevice(t.app, adminToken, ids.liveEventId);
    const shiftToken = StartShiftResponse.parse(
      (await t.app.inject({ method: 'POST', url: api(deviceApiPaths.startShift), headers: bearer(token), payload: { name: 'Cleo' } })).json(),
    ).token;
    const revoked = await t.app.inject({ method: 'POST', url: api(devicePaths.revokeDevice(device.id)), headers: bearer(adminToken) });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(DeviceSummary.parse(revoked.json()).revokedAt).not.toBeNull();
    for (const bearerToken of [token, shiftToken]) {
      for (const response of [await verifyAs(bearerToken), await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), headers: bearer(bearerToken) })]) {
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ code: 'device_revoked', message: 'This device was removed by your organizer.' });
      }
    }
    const plainNobody = await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), headers: bearer('B'.repeat(43)) });
    expect(plainNobody.json().code).toBe('unauthenticated');
  });

  test('scans made offline before the revocation are still accepted once; later ones are refused', async () => {
    const { token, device } = await enrollDevice(t.app, adminToken, ids.liveEventId);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const before = { scanId: randomUUID(), code: freshCode(), scannedAt: new Date().toISOString(), deviceId: device.id, verdict: 'approved' };
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await t.app.inject({ method: 'POST', url: api(devicePaths.revokeDevice(device.id)), headers: bearer(adminToken) })).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const after = { scanId: randomUUID(), code: freshCode(), scannedAt: new Date().toISOString(), deviceId: device.id, verdict: 'approved' };
    const upload = () =>
      t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(ids.liveEventId, DAY)), headers: bearer(token), payload: { scans: [before, after] } });
    const first = await upload();
    expect(first.statusCode, first.body).toBe(200);
    const results = OfflineScanBatchResponse.parse(first.json()).results;
    expect(results.map((result) => [result.status, result.reason ?? null])).toEqual([
      ['recorded', null],
      ['rejected', 'device_revoked'],
    ]);
    // Sent again (the answer was lost): the same answers, and one check-in.
    const again = OfflineScanBatchResponse.parse((await upload()).json()).results;
    expect(again.map((result) => result.status)).toEqual(['recorded', 'rejected']);
    const admitted = await t.database.db.select({ id: checkIns.id }).from(checkIns).innerJoin(tickets, eq(tickets.id, checkIns.ticketId)).where(eq(tickets.code, before.code));
    expect(admitted).toHaveLength(1);
    const refused = await t.database.db.select({ id: checkIns.id }).from(checkIns).innerJoin(tickets, eq(tickets.id, checkIns.ticketId)).where(eq(tickets.code, after.code));
    expect(refused).toHaveLength(0);
    // Anything else is refused, and after the grace period the upload too.
    expect((await t.app.inject({ method: 'GET', url: api(offlinePaths.doorList(ids.liveEventId, DAY)), headers: bearer(token) })).statusCode).toBe(401);
    clockOffsetMs = REVOKED_UPLOAD_GRACE_MS + 1000;
    try {
      const late = await upload();
      expect(late.statusCode).toBe(401);
      expect(late.json().code).toBe('device_revoked');
    } finally {
      clockOffsetMs = 0;
    }
  });

  test('a scan recorded before the revocation, whose answer was lost, answers the same when sent again after it', async () => {
    const { token, device } = await enrollDevice(t.app, adminToken, ids.liveEventId);
    // Made by a phone whose clock runs 3 s ahead, recorded; the answer is lost and the device revoked.
    const made = { scanId: randomUUID(), code: freshCode(), scannedAt: new Date(Date.now() + 3_000).toISOString(), deviceId: device.id, verdict: 'approved' };
    const upload = async () => {
      const answer = await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(ids.liveEventId, DAY)), headers: bearer(token), payload: { scans: [made] } });
      expect(answer.statusCode, answer.body).toBe(200);
      return OfflineScanBatchResponse.parse(answer.json()).results.map((result) => [result.status, result.reason ?? null]);
    };
    expect(await upload()).toEqual([['recorded', null]]);
    expect((await t.app.inject({ method: 'POST', url: api(devicePaths.revokeDevice(device.id)), headers: bearer(adminToken) })).statusCode).toBe(200);
    // Sent again: the stored answer, not 'removed' for a scan that was recorded.
    expect(await upload()).toEqual([['recorded', null]]);
    const admitted = await t.database.db.select({ id: checkIns.id }).from(checkIns).innerJoin(tickets, eq(tickets.id, checkIns.ticketId)).where(eq(tickets.code, made.code));
    expect(admitted).toHaveLength(1);
  });
});

describe(`check-in lists, online state and status reports (${TEST_DATABASE_KIND})`, () => {
  test('an enrollment may name one list of its event: the device scans there only; a list of another event is refused', async () => {
    const event = await findEvent(t.database.db, ids.liveEventId);
    const northGate = await createCheckInList(t.database.db, event, { name: `North gate ${randomUUID().slice(0, 6)}`, ticketTypes: null, days: null }, cliActor());
    const created = await t.app.inject({
      method: 'POST',
      url: api(devicePaths.createEnrollment(ids.liveEventId)),
      headers: bearer(adminToken),
      payload: { name: 'North phone', checkInListId: northGate.id },
    });
    expect(created.statusCode, created.body).toBe(201);
    const enrollment = CreateEnrollmentResponse.parse(created.json());
    expect(enrollment).toMatchObject({ checkInListId: northGate.id, checkInListName: northGate.name });
    const redeemed = RedeemEnrollmentResponse.parse((await redeem(tokenOfLink(enrollment.link))).json());
    expect(redeemed.device.checkInListId).toBe(northGate.id);
    expect((await devicesOfDemo()).find((entry) => entry.id === redeemed.device.id)).toMatchObject({ checkInListId: northGate.id, checkInListName: northGate.name });

    // It sees its list only, scans there when it names none, and may not name another.
    const lists = await t.app.inject({ method: 'GET', url: api(checkInListsPath(ids.liveEventId)), headers: bearer(redeemed.token) });
    expect(CheckInLists.parse(lists.json()).lists.map((list) => list.id)).toEqual([northGate.id]);
    const code = freshCode();
    expect((await verifyAs(redeemed.token, ids.liveEventId, code)).statusCode).toBe(200);
    const [made] = await t.database.db.select({ checkInListId: checkIns.checkInListId }).from(checkIns).innerJoin(tickets, eq(tickets.id, checkIns.ticketId)).where(eq(tickets.code, code));
    expect(made?.checkInListId).toBe(northGate.id);
    const [firstList] = await listCheckInLists(t.database.db, ids.liveEventId);
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: api(apiPaths.verifyTicket),
      headers: bearer(redeemed.token),
      payload: { eventId: ids.liveEventId, qrCode: freshCode(), day: DAY, scanId: randomUUID(), checkInListId: firstList?.id },
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(ApiErrorBody.parse(elsewhere.json())).toMatchObject({ code: 'bad_request', field: 'checkInListId' });

    const [foreignList] = await listCheckInLists(t.database.db, other.eventId);
    const refused = await t.app.inject({
      method: 'POST',
      url: api(devicePaths.createEnrollment(ids.liveEventId)),
      headers: bearer(adminToken),
      payload: { checkInListId: foreignList?.id },
    });
    expect(refused.statusCode).toBe(400);
    expect(ApiErrorBody.parse(refused.json())).toMatchObject({ code: 'bad_request', field: 'checkInListId' });
    // The database holds the rule too: a list of another event cannot be written beside this event.
    await expect(
      t.database.db.update(devices).set({ checkInListId: foreignList?.id ?? null }).where(eq(devices.id, redeemed.device.id)),
    ).rejects.toThrow();
  });

  test('a device is moved to another list and back to every list; a move of event drops the list; deleting its list frees it', async () => {
    const event = await findEvent(t.database.db, ids.liveEventId);
    const sideDoor = await createCheckInList(t.database.db, event, { name: `Side door ${randomUUID().slice(0, 6)}`, ticketTypes: null, days: null }, cliActor());
    const { device } = await enrollDevice(t.app, adminToken, ids.liveEventId, 'Side phone');
    const update = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: api(devicePaths.updateDevice(device.id)), headers: bearer(adminToken), payload });
    const onList = await update({ checkInListId: sideDoor.id });
    expect(onList.statusCode, onList.body).toBe(200);
    expect(DeviceSummary.parse(onList.json())).toMatchObject({ checkInListId: sideDoor.id, checkInListName: sideDoor.name });
    expect(DeviceSummary.parse((await update({ checkInListId: null })).json()).checkInListId).toBeNull();
    await update({ checkInListId: sideDoor.id });
    expect(DeviceSummary.parse((await update({ name: 'Side phone 2' })).json()).checkInListId).toBe(sideDoor.id);
    await deleteCheckInList(t.database.db, event, sideDoor.id, cliActor());
    expect((await devicesOfDemo()).find((entry) => entry.id === device.id)).toMatchObject({ checkInListId: null, checkInListName: null });

    const moved = DeviceSummary.parse((await update({ checkInListId: (await listCheckInLists(t.database.db, event.id))[0]?.id })).json());
    expect(moved.checkInListId).not.toBeNull();
    expect(DeviceSummary.parse((await update({ eventId: ids.singleDayEventId })).json())).toMatchObject({ eventId: ids.singleDayEventId, checkInListId: null });
  });

  test("a device's status report answers its event and list as they are now, so a moved device learns of its move", async () => {
    const event = await findEvent(t.database.db, ids.liveEventId);
    const northDoor = await createCheckInList(t.database.db, event, { name: `North door ${randomUUID().slice(0, 6)}`, ticketTypes: null, days: null }, cliActor());
    const { token, device } = await enrollDevice(t.app, adminToken, ids.liveEventId, 'Moving phone');
    const report = async () => {
      const answer = await t.app.inject({ method: 'POST', url: api(deviceApiPaths.reportStatus), headers: bearer(token), payload: { scansWaiting: 0 } });
      expect(answer.statusCode, answer.body).toBe(200);
      return DeviceStatusResponse.parse(answer.json()).device;
    };
    expect(await report()).toEqual({ id: device.id, name: 'Moving phone', organizationId: device.organizationId, eventId: ids.liveEventId, checkInListId: null });
    const move = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: api(devicePaths.updateDevice(device.id)), headers: bearer(adminToken), payload });
    expect((await move({ checkInListId: northDoor.id })).statusCode).toBe(200);
    expect(await report()).toMatchObject({ eventId: ids.liveEventId, checkInListId: northDoor.id });
    expect((await move({ eventId: ids.singleDayEventId, name: 'Summit phone' })).statusCode).toBe(200);
    expect(await report()).toMatchObject({ name: 'Summit phone', eventId: ids.singleDayEventId, checkInListId: null });
  });

  test('online while seen within three minutes; offline after, and when revoked', async () => {
    const { token, device } = await enrollDevice(t.app, adminToken, ids.liveEventId, 'Heartbeat phone');
    const listed = async () => (await devicesOfDemo()).find((entry) => entry.id === device.id);
    expect((await listed())?.isOnline).toBe(true);
    clockOffsetMs = 3 * 60_000 + 1000;
    try {
      expect((await listed())?.isOnline).toBe(false);
      // Its next report (a heartbeat) makes it online again.
      const report = await t.app.inject({ method: 'POST', url: api(deviceApiPaths.reportStatus), headers: bearer(token), payload: { scansWaiting: 0 } });
      expect(report.statusCode, report.body).toBe(200);
      expect((await listed())?.isOnline).toBe(true);
    } finally {
      clockOffsetMs = 0;
    }
    await t.app.inject({ method: 'POST', url: api(devicePaths.revokeDevice(device.id)), headers: bearer(adminToken) });
    expect((await listed())?.isOnline).toBe(false);
  });

  test('a storm of status reports writes the row only when a fact changed or once a minute', async () => {
    const { device } = await enrollDevice(t.app, adminToken, ids.liveEventId, 'Stormy phone');
    const start = new Date(Date.now() + 5 * 60_000);
    const report = { scansWaiting: 3, appVersion: '2.0.0', platform: 'android' as const };
    expect(await reportDeviceStatus(t.database.db, device.id, report, start)).toBe(true);
    for (let second = 1; second <= 20; second += 1) {
      expect(await reportDeviceStatus(t.database.db, device.id, report, new Date(start.getTime() + second * 1000))).toBe(false);
    }
    expect(await reportDeviceStatus(t.database.db, device.id, { ...report, scansWaiting: 2 }, new Date(start.getTime() + 21_000))).toBe(true);
    expect(await reportDeviceStatus(t.database.db, device.id, { ...report, scansWaiting: 2 }, new Date(start.getTime() + 81_000))).toBe(true);
    const [row] = await t.database.db.select().from(devices).where(eq(devices.id, device.id));
    expect(row).toMatchObject({ scansWaiting: 2, appVersion: '2.0.0', platform: 'android' });
    expect(row?.lastSeenAt?.getTime()).toBe(start.getTime() + 81_000);
  });
});

test(`redeeming is rate limited per address like the account calls (${TEST_DATABASE_KIND})`, async () => {
  const limited = await createTestApp({ seed: false, env: { RATE_LIMIT_IP_MAX: '3' } });
  try {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      statuses.push((await limited.app.inject({ method: 'POST', url: api(deviceApiPaths.redeemEnrollment), payload: { token: 'C'.repeat(43) } })).statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
  } finally {
    await limited.close();
  }
});
