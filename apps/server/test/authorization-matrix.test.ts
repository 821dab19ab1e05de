/**
 * Every API endpoint × every kind of caller, with the status each must get. Access to organizations
 * and their events and tickets is by membership; the role does not matter for these SPEC §7 calls
 * (the supervisor calls of issue 11 have their own matrix: supervisor-authorization.test.ts). A
 * supervisor is a member who also reads ticket types and makes info scans, and keeps no devices,
 * lists or ticket types. A door
 * device (docs/decisions/107) scans its one event (the demo live event) as staff and calls nothing
 * else; the device calls themselves are in this matrix too. A device moved to another event scans
 * that one, and of the event it left reaches the offline upload only (docs/decisions/139).
 */
import { apiPaths, checkInCountsPath, checkInListPath, checkInListsPath, infoScanPath, deviceApiPaths, devicePaths, offlinePaths, OrganizationList, organizationEventsPath } from '@gatecheck/contract';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkIns, tickets, users } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_LIVE_EVENT_TITLE, DEMO_SUPERVISOR, DEMO_USER } from '../src/db/seed.ts';
import { cliActor } from '../src/services/audit.ts';
import { findDevice, updateDevice } from '../src/services/devices.ts';
import { createSession } from '../src/services/sessions.ts';
import { newDeviceToken } from './helpers/devices.ts';
import { createOutsider, demoIds, OUTSIDER, ticketPicker } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

type Caller = 'anonymous' | 'outsider' | 'member' | 'staffMember' | 'supervisor' | 'device' | 'movedDevice';
const CALLER_KINDS = ['anonymous', 'outsider', 'member', 'staffMember', 'supervisor', 'device', 'movedDevice'] as const satisfies readonly Caller[];

/**
 * Who each caller is: anonymous; the owner of "Other Org" only; the demo admin; a demo staff member;
 * the demo supervisor; a device of the demo live event; a device moved from the demo live event to
 * the demo organization's single-day event, not told yet (docs/decisions/139: of the live event it
 * reaches the offline upload only).
 */
const CALLERS: Record<Exclude<Caller, 'anonymous' | 'device' | 'movedDevice'>, { username: string; password: string }> = {
  outsider: OUTSIDER,
  member: DEMO_USER,
  staffMember: DEMO_COLLEAGUE,
  supervisor: DEMO_SUPERVISOR,
};

let t: TestApp;
let ids: Awaited<ReturnType<typeof demoIds>>;
let other: Awaited<ReturnType<typeof createOutsider>>;
let pickTicket: ReturnType<typeof ticketPicker>;
/** Devices the admin renames, moves and revokes in the matrix. */
let renamedDeviceId: string;
let revokedDeviceId: string;
let movedDeviceId: string;
const UNKNOWN_ORGANIZATION_ID = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await createTestApp();
  ids = await demoIds(t.database.db);
  other = await createOutsider(t.database.db);
  pickTicket = ticketPicker(t.demo?.tickets ?? []);
  renamedDeviceId = (await newDeviceToken(t.database.db, ids.liveEventId, 'Renamed gate')).deviceId;
  revokedDeviceId = (await newDeviceToken(t.database.db, ids.liveEventId, 'Revoked gate')).deviceId;
  movedDeviceId = (await newDeviceToken(t.database.db, ids.liveEventId, 'Moved gate')).deviceId;
});
afterAll(async () => {
  await t.close();
});

/** A fresh session for `caller` (each request gets its own: logout and change-password end sessions). */
async function tokenOf(caller: Caller): Promise<string | undefined> {
  if (caller === 'anonymous') return undefined;
  if (caller === 'device') return (await newDeviceToken(t.database.db, ids.liveEventId)).token;
  if (caller === 'movedDevice') {
    const moved = await newDeviceToken(t.database.db, ids.liveEventId, 'Moved gate');
    await updateDevice(t.database.db, await findDevice(t.database.db, moved.deviceId), { eventId: ids.singleDayEventId }, cliActor());
    return moved.token;
  }
  const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, CALLERS[caller].username));
  if (!user) throw new Error(`no user ${caller}`);
  return (await createSession(t.database.db, user.id, 60_000)).token;
}

function passwordOf(caller: Caller): string {
  return caller === 'anonymous' || caller === 'device' || caller === 'movedDevice' ? 'any-password' : CALLERS[caller].password;
}

function liveTicketForDayOne(): string {
  return pickTicket((ticket) => ticket.eventTitle === DEMO_LIVE_EVENT_TITLE && !ticket.isRevoked && (ticket.days?.includes(1) ?? true)).code;
}

interface Row {
  endpoint: string;
  request: (caller: Caller) => InjectOptions;
  expected: Record<Caller, number>;
}

const signedInOnly = { anonymous: 401, outsider: 200, member: 200, staffMember: 200, supervisor: 200, device: 200, movedDevice: 200 };
/** The demo live event's calls: its members and its device; the device moved away reaches none (but its offline upload). */
const demoMembersOnly = { anonymous: 401, outsider: 404, member: 200, staffMember: 200, supervisor: 200, device: 200, movedDevice: 404 };
const demoAdminsOnly = { anonymous: 401, outsider: 404, member: 200, staffMember: 403, supervisor: 403, device: 403, movedDevice: 403 };
const devicesOnly = { anonymous: 401, outsider: 403, member: 403, staffMember: 403, supervisor: 403, device: 200, movedDevice: 200 };
const open = (status: number) => ({ anonymous: status, outsider: status, member: status, staffMember: status, supervisor: status, device: status, movedDevice: status });

let registrations = 0;
const MATRIX: Row[] = [
  { endpoint: 'GET /users/me', request: () => ({ method: 'GET', url: api(apiPaths.usersMe) }), expected: signedInOnly },
  {
    endpoint: 'GET /organizations/membership',
    request: () => ({ method: 'GET', url: api(apiPaths.organizations) }),
    expected: signedInOnly,
  },
  {
    endpoint: 'GET /organizations/membership/{demo organization}',
    request: () => ({ method: 'GET', url: api(organizationEventsPath(ids.organizationId)) }),
    expected: { ...demoMembersOnly, movedDevice: 200 },
  },
  {
    endpoint: 'GET /organizations/membership/{other organization}',
    request: () => ({ method: 'GET', url: api(organizationEventsPath(other.organizationId)) }),
    expected: { anonymous: 401, outsider: 200, member: 404, staffMember: 404, supervisor: 404, device: 404, movedDevice: 404 },
  },
  {
    endpoint: 'GET /organizations/membership/{unknown organization}',
    request: () => ({ method: 'GET', url: api(organizationEventsPath(UNKNOWN_ORGANIZATION_ID)) }),
    expected: { anonymous: 401, outsider: 404, member: 404, staffMember: 404, supervisor: 404, device: 404, movedDevice: 404 },
  },
  {
    endpoint: 'POST /tickets/verify (demo event)',
    request: () => ({ method: 'POST', url: api(apiPaths.verifyTicket), payload: { eventId: ids.liveEventId, qrCode: liveTicketForDayOne(), day: 1 } }),
    expected: demoMembersOnly,
  },
  {
    endpoint: 'POST /tickets/verify (other event)',
    request: () => ({ method: 'POST', url: api(apiPaths.verifyTicket), payload: { eventId: other.eventId, qrCode: 'NO-SUCH-CODE', day: 1 } }),
    expected: { anonymous: 401, outsider: 200, member: 404, staffMember: 404, supervisor: 404, device: 404, movedDevice: 404 },
  },
  {
    endpoint: 'POST /tickets/verify (another event of the demo organization)',
    request: () => ({ method: 'POST', url: api(apiPaths.verifyTicket), payload: { eventId: ids.singleDayEventId, qrCode: 'NO-SUCH-CODE', day: 1 } }),
    expected: { anonymous: 401, outsider: 404, member: 200, staffMember: 200, supervisor: 200, device: 404, movedDevice: 200 },
  },
  {
    endpoint: 'GET /events/{demo event}/days/1/counts',
    request: () => ({ method: 'GET', url: api(checkInCountsPath(ids.liveEventId, 1)) }),
    expected: demoMembersOnly,
  },
  {
    endpoint: 'GET /events/{other event}/days/1/counts',
    request: () => ({ method: 'GET', url: api(checkInCountsPath(other.eventId, 1)) }),
    expected: { anonymous: 401, outsider: 200, member: 404, staffMember: 404, supervisor: 404, device: 404, movedDevice: 404 },
  },
  {
    endpoint: 'GET /events/{unknown event}/days/1/counts',
    request: () => ({ method: 'GET', url: api(checkInCountsPath(UNKNOWN_ORGANIZATION_ID, 1)) }),
    expected: { anonymous: 401, outsider: 404, member: 404, staffMember: 404, supervisor: 404, device: 404, movedDevice: 404 },
  },
  ...(['demo event', 'another event of the demo organization'] as const).flatMap((which): Row[] => {
    const eventId = () => (which === 'demo event' ? ids.liveEventId : ids.singleDayEventId);
    // A device scans only its own event (the demo live event); the moved one its new event, and of
    // the event it left only the offline upload (docs/decisions/139).
    const expected = which === 'demo event' ? demoMembersOnly : { ...demoMembersOnly, device: 404, movedDevice: 200 };
    return [
      { endpoint: `GET /events/{${which}}/days/1/door-list`, request: () => ({ method: 'GET', url: api(offlinePaths.doorList(eventId(), 1)) }), expected },
      {
        endpoint: `POST /events/{${which}}/days/1/offline-scans (empty batch)`,
        request: () => ({ method: 'POST', url: api(offlinePaths.offlineScans(eventId(), 1)), payload: { scans: [] } }),
        expected: { ...expected, movedDevice: 200 },
      },
      { endpoint: `GET /events/{${which}}/days/1/conflicts`, request: () => ({ method: 'GET', url: api(offlinePaths.offlineConflicts(eventId(), 1)) }), expected },
      { endpoint: `GET /events/{${which}}/signing-keys`, request: () => ({ method: 'GET', url: api(offlinePaths.signingKeys(eventId())) }), expected },
    ];
  }),
  {
    endpoint: 'GET /events/{other organization event}/days/1/door-list',
    request: () => ({ method: 'GET', url: api(offlinePaths.doorList(other.eventId, 1)) }),
    expected: { anonymous: 401, outsider: 200, member: 404, staffMember: 404, supervisor: 404, device: 404, movedDevice: 404 },
  },
  {
    endpoint: 'GET /events/{demo event}/check-in-lists',
    request: () => ({ method: 'GET', url: api(checkInListsPath(ids.liveEventId)) }),
    expected: demoMembersOnly,
  },
  {
    // A device reads its own event's lists as staff do (docs/decisions/100, 107), no other event's.
    endpoint: 'GET /events/{another event of the demo organization}/check-in-lists',
    request: () => ({ method: 'GET', url: api(checkInListsPath(ids.singleDayEventId)) }),
    expected: { anonymous: 401, outsider: 404, member: 200, staffMember: 200, supervisor: 200, device: 404, movedDevice: 200 },
  },
  {
    endpoint: 'GET /events/{other event}/check-in-lists',
    request: () => ({ method: 'GET', url: api(checkInListsPath(other.eventId)) }),
    expected: { anonymous: 401, outsider: 200, member: 404, staffMember: 404, supervisor: 404, device: 404, movedDevice: 404 },
  },
  {
    endpoint: 'GET /events/{unknown event}/check-in-lists',
    request: () => ({ method: 'GET', url: api(checkInListsPath(UNKNOWN_ORGANIZATION_ID)) }),
    expected: { anonymous: 401, outsider: 404, member: 404, staffMember: 404, supervisor: 404, device: 404, movedDevice: 404 },
  },
  {
    // Keeping lists (docs/decisions/111): admins and owners; staff 403; a device none (403).
    endpoint: 'POST /events/{demo event}/check-in-lists',
    request: () => ({ method: 'POST', url: api(checkInListsPath(ids.liveEventId)), payload: { name: `Matrix ${Math.random().toString(36).slice(2)}` } }),
    expected: { anonymous: 401, outsider: 404, member: 201, staffMember: 403, supervisor: 403, device: 403, movedDevice: 403 },
  },
  {
    endpoint: 'PATCH /events/{demo event}/check-in-lists/{unknown list}',
    request: () => ({ method: 'PATCH', url: api(checkInListPath(ids.liveEventId, UNKNOWN_ORGANIZATION_ID)), payload: { name: 'Renamed' } }),
    expected: { anonymous: 401, outsider: 404, member: 404, staffMember: 403, supervisor: 403, device: 403, movedDevice: 403 },
  },
  {
    endpoint: 'DELETE /events/{other event}/check-in-lists/{unknown list}',
    request: () => ({ method: 'DELETE', url: api(checkInListPath(other.eventId, UNKNOWN_ORGANIZATION_ID)) }),
    expected: { anonymous: 401, outsider: 404, member: 404, staffMember: 404, supervisor: 404, device: 403, movedDevice: 403 },
  },
  {
    // The info scan (docs/decisions/111): supervisors and up, nobody admitted.
    endpoint: 'POST /events/{demo event}/info-scan',
    request: () => ({ method: 'POST', url: api(infoScanPath(ids.liveEventId)), payload: { qrCode: 'NO-SUCH-CODE', day: 1 } }),
    expected: { anonymous: 401, outsider: 404, member: 200, staffMember: 403, supervisor: 200, device: 403, movedDevice: 403 },
  },
  {
    // Ticket types and their check-in notes (docs/decisions/102): supervisors read, admins edit; a
    // device, staff at most, neither (it gets the notes with its door list and verdicts).
    endpoint: 'GET /events/{live event}/ticket-types',
    request: () => ({ method: 'GET', url: api(`/events/${ids.liveEventId}/ticket-types`) }),
    expected: { anonymous: 401, outsider: 404, member: 200, staffMember: 403, supervisor: 200, device: 403, movedDevice: 403 },
  },
  {
    endpoint: 'PATCH /events/{live event}/ticket-types/VIP',
    request: () => ({ method: 'PATCH', url: api(`/events/${ids.liveEventId}/ticket-types/VIP`), payload: { requiresAttention: true } }),
    expected: { anonymous: 401, outsider: 404, member: 200, staffMember: 403, supervisor: 403, device: 403, movedDevice: 403 },
  },
  {
    endpoint: 'POST /auth/change-password',
    request: (caller) => ({
      method: 'POST',
      url: api(apiPaths.changePassword),
      payload: { currentPassword: passwordOf(caller), newPassword: passwordOf(caller) },
    }),
    expected: { ...signedInOnly, device: 403, movedDevice: 403 },
  },
  {
    endpoint: 'POST /events/{demo event}/device-enrollments',
    request: () => ({ method: 'POST', url: api(devicePaths.createEnrollment(ids.liveEventId)), payload: { name: 'Matrix gate' } }),
    expected: { ...demoAdminsOnly, member: 201 },
  },
  {
    endpoint: 'POST /events/{other event}/device-enrollments',
    request: () => ({ method: 'POST', url: api(devicePaths.createEnrollment(other.eventId)), payload: {} }),
    expected: { anonymous: 401, outsider: 201, member: 404, staffMember: 404, supervisor: 404, device: 403, movedDevice: 403 },
  },
  {
    endpoint: 'GET /organizations/{demo organization}/devices',
    request: () => ({ method: 'GET', url: api(devicePaths.listDevices(ids.organizationId)) }),
    expected: demoAdminsOnly,
  },
  {
    endpoint: 'POST /devices/{demo device} (rename)',
    request: () => ({ method: 'POST', url: api(devicePaths.updateDevice(renamedDeviceId)), payload: { name: 'Renamed gate' } }),
    expected: demoAdminsOnly,
  },
  {
    // Moving a device to another event of its organization (docs/decisions/116, 127): admins only.
    endpoint: 'POST /devices/{demo device} (move)',
    request: () => ({ method: 'POST', url: api(devicePaths.updateDevice(movedDeviceId)), payload: { eventId: ids.singleDayEventId } }),
    expected: demoAdminsOnly,
  },
  {
    endpoint: 'POST /devices/{demo device}/revoke',
    request: () => ({ method: 'POST', url: api(devicePaths.revokeDevice(revokedDeviceId)) }),
    expected: demoAdminsOnly,
  },
  {
    endpoint: 'POST /devices/me/shifts',
    request: () => ({ method: 'POST', url: api(deviceApiPaths.startShift), payload: { name: 'Matrix Person' } }),
    expected: devicesOnly,
  },
  {
    endpoint: 'POST /devices/me/status',
    request: () => ({ method: 'POST', url: api(deviceApiPaths.reportStatus), payload: { scansWaiting: 0 } }),
    expected: devicesOnly,
  },
  {
    endpoint: 'POST /devices/enroll (unknown token)',
    request: () => ({ method: 'POST', url: api(deviceApiPaths.redeemEnrollment), payload: { token: 'D'.repeat(43) } }),
    expected: open(400),
  },
  { endpoint: 'POST /auth/logout', request: () => ({ method: 'POST', url: api(apiPaths.logout), payload: {} }), expected: open(200) },
  {
    endpoint: 'POST /auth/login',
    request: () => ({ method: 'POST', url: api(apiPaths.login), payload: { email: OUTSIDER.email, password: OUTSIDER.password } }),
    expected: open(200),
  },
  {
    endpoint: 'POST /auth/register',
    request: () => {
      registrations += 1;
      const name = `matrix${registrations}`;
      return { method: 'POST', url: api(apiPaths.register), payload: { name, username: name, email: `${name}@example.org`, password: 'long-enough', country: '' } };
    },
    expected: open(201),
  },
  {
    endpoint: 'POST /auth/forgot-password',
    request: () => ({ method: 'POST', url: api(apiPaths.forgotPassword), payload: { email: 'someone@example.org' } }),
    expected: open(200),
  },
  {
    endpoint: 'POST /auth/reset-password (bad token)',
    request: () => ({ method: 'POST', url: api(apiPaths.resetPassword), payload: { token: 'not-a-token', newPassword: 'long-enough' } }),
    expected: open(400),
  },
  { endpoint: 'GET /auth/options', request: () => ({ method: 'GET', url: api(apiPaths.authOptions) }), expected: open(200) },
  { endpoint: 'GET /docs/json', request: () => ({ method: 'GET', url: api('/docs/json') }), expected: open(200) },
];

describe.each(MATRIX)('$endpoint', (row) => {
  test.each(CALLER_KINDS)(`%s gets the expected status (${TEST_DATABASE_KIND})`, async (caller) => {
    const token = await tokenOf(caller);
    const request = row.request(caller);
    const response = await t.app.inject({ ...request, headers: { ...request.headers, ...(token ? bearer(token) : {}) } });
    expect(response.statusCode, response.body).toBe(row.expected[caller]);
    if (response.statusCode >= 400) expect(Object.keys(response.json()).sort()).toEqual(['code', 'message']);
  });

  test('a member signed in by the session cookie (web, same origin) gets what the bearer member gets', async () => {
    const token = (await tokenOf('member')) ?? '';
    const request = row.request('member');
    const response = await t.app.inject({
      ...request,
      cookies: { gatecheck_session: token },
      headers: { ...request.headers, origin: 'http://localhost' },
    });
    expect(response.statusCode, response.body).toBe(row.expected.member);
  });
});

test('an outsider sees only their own organization in the membership list', async () => {
  const response = await t.app.inject({ method: 'GET', url: api(apiPaths.organizations), headers: bearer((await tokenOf('outsider')) ?? '') });
  const organizations = OrganizationList.parse(response.json());
  expect(organizations.map((organization) => organization._id)).toEqual([other.organizationId]);
});

test('a refused verify by an outsider checks nothing in', async () => {
  const code = liveTicketForDayOne();
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.verifyTicket),
    headers: bearer((await tokenOf('outsider')) ?? ''),
    payload: { eventId: ids.liveEventId, qrCode: code, day: 1 },
  });
  expect(response.statusCode).toBe(404);
  const [ticket] = await t.database.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.code, code));
  expect(await t.database.db.select().from(checkIns).where(eq(checkIns.ticketId, ticket?.id ?? ''))).toEqual([]);
});
