/**
 * Every API endpoint × every kind of caller, with the status each must get. Access to organizations
 * and their events and tickets is by membership; the role does not matter for these SPEC §7 calls
 * (the supervisor calls of issue 11 have their own matrix: supervisor-authorization.test.ts).
 */
import { apiPaths, checkInCountsPath, checkInListsPath, OrganizationList, organizationEventsPath } from '@gatecheck/contract';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkIns, tickets, users } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_LIVE_EVENT_TITLE, DEMO_USER } from '../src/db/seed.ts';
import { createSession } from '../src/services/sessions.ts';
import { createOutsider, demoIds, OUTSIDER, ticketPicker } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, type TestApp } from './helpers/test-app.ts';

type Caller = 'anonymous' | 'outsider' | 'member' | 'staffMember';

/** Who each caller is: anonymous; the owner of "Other Org" only; the demo admin; a demo staff member. */
const CALLERS: Record<Exclude<Caller, 'anonymous'>, { username: string; password: string }> = {
  outsider: OUTSIDER,
  member: DEMO_USER,
  staffMember: DEMO_COLLEAGUE,
};

let t: TestApp;
let ids: Awaited<ReturnType<typeof demoIds>>;
let other: Awaited<ReturnType<typeof createOutsider>>;
let pickTicket: ReturnType<typeof ticketPicker>;
const UNKNOWN_ORGANIZATION_ID = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await createTestApp();
  ids = await demoIds(t.database.db);
  other = await createOutsider(t.database.db);
  pickTicket = ticketPicker(t.demo?.tickets ?? []);
});
afterAll(async () => {
  await t.close();
});

/** A fresh session for `caller` (each request gets its own: logout and change-password end sessions). */
async function tokenOf(caller: Caller): Promise<string | undefined> {
  if (caller === 'anonymous') return undefined;
  const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, CALLERS[caller].username));
  if (!user) throw new Error(`no user ${caller}`);
  return (await createSession(t.database.db, user.id, 60_000)).token;
}

function passwordOf(caller: Caller): string {
  return caller === 'anonymous' ? 'any-password' : CALLERS[caller].password;
}

function liveTicketForDayOne(): string {
  return pickTicket((ticket) => ticket.eventTitle === DEMO_LIVE_EVENT_TITLE && !ticket.isRevoked && (ticket.days?.includes(1) ?? true)).code;
}

interface Row {
  endpoint: string;
  request: (caller: Caller) => InjectOptions;
  expected: Record<Caller, number>;
}

const signedInOnly = { anonymous: 401, outsider: 200, member: 200, staffMember: 200 };
const demoMembersOnly = { anonymous: 401, outsider: 404, member: 200, staffMember: 200 };
const open = (status: number) => ({ anonymous: status, outsider: status, member: status, staffMember: status });

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
    expected: demoMembersOnly,
  },
  {
    endpoint: 'GET /organizations/membership/{other organization}',
    request: () => ({ method: 'GET', url: api(organizationEventsPath(other.organizationId)) }),
    expected: { anonymous: 401, outsider: 200, member: 404, staffMember: 404 },
  },
  {
    endpoint: 'GET /organizations/membership/{unknown organization}',
    request: () => ({ method: 'GET', url: api(organizationEventsPath(UNKNOWN_ORGANIZATION_ID)) }),
    expected: { anonymous: 401, outsider: 404, member: 404, staffMember: 404 },
  },
  {
    endpoint: 'POST /tickets/verify (demo event)',
    request: () => ({ method: 'POST', url: api(apiPaths.verifyTicket), payload: { eventId: ids.liveEventId, qrCode: liveTicketForDayOne(), day: 1 } }),
    expected: demoMembersOnly,
  },
  {
    endpoint: 'POST /tickets/verify (other event)',
    request: () => ({ method: 'POST', url: api(apiPaths.verifyTicket), payload: { eventId: other.eventId, qrCode: 'NO-SUCH-CODE', day: 1 } }),
    expected: { anonymous: 401, outsider: 200, member: 404, staffMember: 404 },
  },
  {
    endpoint: 'GET /events/{demo event}/days/1/counts',
    request: () => ({ method: 'GET', url: api(checkInCountsPath(ids.liveEventId, 1)) }),
    expected: demoMembersOnly,
  },
  {
    endpoint: 'GET /events/{other event}/days/1/counts',
    request: () => ({ method: 'GET', url: api(checkInCountsPath(other.eventId, 1)) }),
    expected: { anonymous: 401, outsider: 200, member: 404, staffMember: 404 },
  },
  {
    endpoint: 'GET /events/{unknown event}/days/1/counts',
    request: () => ({ method: 'GET', url: api(checkInCountsPath(UNKNOWN_ORGANIZATION_ID, 1)) }),
    expected: { anonymous: 401, outsider: 404, member: 404, staffMember: 404 },
  },
  {
    endpoint: 'GET /events/{demo event}/check-in-lists',
    request: () => ({ method: 'GET', url: api(checkInListsPath(ids.liveEventId)) }),
    expected: demoMembersOnly,
  },
  {
    endpoint: 'GET /events/{other event}/check-in-lists',
    request: () => ({ method: 'GET', url: api(checkInListsPath(other.eventId)) }),
    expected: { anonymous: 401, outsider: 200, member: 404, staffMember: 404 },
  },
  {
    endpoint: 'GET /events/{unknown event}/check-in-lists',
    request: () => ({ method: 'GET', url: api(checkInListsPath(UNKNOWN_ORGANIZATION_ID)) }),
    expected: { anonymous: 401, outsider: 404, member: 404, staffMember: 404 },
  },
  {
    // Ticket types and their check-in notes (docs/decisions/102): supervisors read, admins edit.
    endpoint: 'GET /events/{live event}/ticket-types',
    request: () => ({ method: 'GET', url: api(`/events/${ids.liveEventId}/ticket-types`) }),
    expected: { anonymous: 401, outsider: 404, member: 200, staffMember: 403 },
  },
  {
    endpoint: 'PATCH /events/{live event}/ticket-types/VIP',
    request: () => ({ method: 'PATCH', url: api(`/events/${ids.liveEventId}/ticket-types/VIP`), payload: { requiresAttention: true } }),
    expected: { anonymous: 401, outsider: 404, member: 200, staffMember: 403 },
  },
  {
    endpoint: 'POST /auth/change-password',
    request: (caller) => ({
      method: 'POST',
      url: api(apiPaths.changePassword),
      payload: { currentPassword: passwordOf(caller), newPassword: passwordOf(caller) },
    }),
    expected: signedInOnly,
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
  test.each(['anonymous', 'outsider', 'member', 'staffMember'] as const)('%s gets the expected status', async (caller) => {
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
