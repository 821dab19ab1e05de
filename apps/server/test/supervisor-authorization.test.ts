/**
 * Issue 11: every supervisor endpoint (the live door and its exports too, docs/decisions/117) × {anonymous, member of another organization, staff,
 * supervisor, admin, a door device of the demo live event (docs/decisions/107: staff there)}. The role check is on the server (routes/require-role.ts): staff get 403
 * `{ code, message }`, a member of another organization gets 404 (nothing leaks), supervisors and
 * admins get through. Also: tickets of another organization are 404 for a supervisor, whatever the
 * event named in the path.
 */
import { ApiErrorBody, checkInListsPath, liveDoorPaths, supervisorPaths, UndoCheckInResponse, VerifyTicketResponse } from '@gatecheck/contract';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tickets, users } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_LIVE_EVENT_TITLE, DEMO_SUPERVISOR, DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { cliActor } from '../src/services/audit.ts';
import { changeMemberRole } from '../src/services/team.ts';
import { createSession } from '../src/services/sessions.ts';
import { newDeviceToken } from './helpers/devices.ts';
import { createOutsider, demoIds, OUTSIDER, ticketPicker } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

type Caller = 'anonymous' | 'otherOrganization' | 'staff' | 'supervisor' | 'admin' | 'device';
const CALLERS = ['anonymous', 'otherOrganization', 'staff', 'supervisor', 'admin', 'device'] as const satisfies readonly Caller[];

/** Who each caller is: the admin of "Other Org" only; the demo organization's staff, supervisor and admin. */
const USERNAMES: Record<Exclude<Caller, 'anonymous' | 'device'>, string> = {
  otherOrganization: OUTSIDER.username,
  staff: DEMO_COLLEAGUE.username,
  supervisor: DEMO_SUPERVISOR.username,
  admin: DEMO_USER.username,
};

let t: TestApp;
let ids: Awaited<ReturnType<typeof demoIds>>;
let other: Awaited<ReturnType<typeof createOutsider>>;
let pickTicket: ReturnType<typeof ticketPicker>;
const DAY = DEMO_TODAY_DAY_NUMBER;

beforeAll(async () => {
  t = await createTestApp();
  ids = await demoIds(t.database.db);
  other = await createOutsider(t.database.db);
  pickTicket = ticketPicker(t.demo?.tickets ?? []);
});
afterAll(async () => {
  await t.close();
});

async function tokenOf(caller: Caller): Promise<string | undefined> {
  if (caller === 'anonymous') return undefined;
  if (caller === 'device') return (await newDeviceToken(t.database.db, ids.liveEventId)).token;
  const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, USERNAMES[caller]));
  if (!user) throw new Error(`no user ${caller}`);
  return (await createSession(t.database.db, user.id, 60_000)).token;
}

async function send(caller: Caller, request: InjectOptions) {
  const token = await tokenOf(caller);
  return t.app.inject({ ...request, headers: { ...request.headers, ...(token ? bearer(token) : {}) } });
}

/** The id of an unused live-event ticket that admits today's day. */
async function freshTicketId(): Promise<string> {
  const code = pickTicket((ticket) => ticket.eventTitle === DEMO_LIVE_EVENT_TITLE && !ticket.isRevoked && ticket.days === null).code;
  const [row] = await t.database.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.code, code));
  if (!row) throw new Error('demo ticket missing');
  return row.id;
}

/** A fresh ticket checked in today by the demo supervisor, for an undo to find. */
async function checkedInTicketId(): Promise<string> {
  const ticketId = await freshTicketId();
  const response = await send('supervisor', { method: 'POST', url: api(supervisorPaths.manualCheckIn(ids.liveEventId, ticketId)), payload: { day: DAY } });
  expect(VerifyTicketResponse.parse(response.json()).isValid).toBe(true);
  return ticketId;
}

interface Row {
  endpoint: string;
  /** Builds the request (after any set-up it needs). */
  request: () => Promise<InjectOptions>;
  expected: Record<Caller, number>;
}

const supervisorsOnly = { anonymous: 401, otherOrganization: 404, staff: 403, supervisor: 200, admin: 200, device: 403 };
// A door device is refused the supervisor routes themselves (403, whatever the id: nothing about
// the id is told), before any event is looked up (routes/device-access.ts).
const nobodyFinds = { anonymous: 401, otherOrganization: 404, staff: 404, supervisor: 404, admin: 404, device: 403 };

const MATRIX: Row[] = [
  {
    // Not a supervisor tool: any member may read the check-in lists a scanner offers (docs/decisions/100),
    // and so may a door device of the event, as staff (docs/decisions/107).
    endpoint: 'GET /events/{demo event}/check-in-lists',
    request: async () => ({ method: 'GET', url: api(checkInListsPath(ids.liveEventId)) }),
    expected: { anonymous: 401, otherOrganization: 404, staff: 200, supervisor: 200, admin: 200, device: 200 },
  },
  {
    endpoint: 'GET /events/{demo event}/attendees',
    request: async () => ({ method: 'GET', url: api(`${supervisorPaths.attendeeSearch(ids.liveEventId)}?q=gc-&day=${DAY}`) }),
    expected: supervisorsOnly,
  },
  {
    endpoint: 'POST /events/{demo event}/attendees/{ticket}/check-in',
    request: async () => ({ method: 'POST', url: api(supervisorPaths.manualCheckIn(ids.liveEventId, await freshTicketId())), payload: { day: DAY } }),
    expected: supervisorsOnly,
  },
  {
    endpoint: 'POST /events/{demo event}/attendees/{checked-in ticket}/undo-check-in',
    request: async () => ({
      method: 'POST',
      url: api(supervisorPaths.undoCheckIn(ids.liveEventId, await checkedInTicketId())),
      payload: { day: DAY, reason: 'Admitted by mistake' },
    }),
    expected: supervisorsOnly,
  },
  {
    endpoint: 'GET /events/{demo event}/scan-log',
    request: async () => ({ method: 'GET', url: api(`${supervisorPaths.scanLog(ids.liveEventId)}?day=${DAY}&verdict=approved&limit=5`) }),
    expected: supervisorsOnly,
  },
  {
    endpoint: 'GET /events/{demo event}/days/{day}/live',
    request: async () => ({ method: 'GET', url: api(liveDoorPaths.live(ids.liveEventId, DAY)) }),
    expected: supervisorsOnly,
  },
  {
    endpoint: 'GET /events/{demo event}/days/{day}/arrivals.csv',
    request: async () => ({ method: 'GET', url: api(liveDoorPaths.arrivalsCsv(ids.liveEventId, DAY)) }),
    expected: supervisorsOnly,
  },
  {
    endpoint: 'GET /events/{demo event}/scan-log.csv',
    request: async () => ({ method: 'GET', url: api(`${liveDoorPaths.scanLogCsv(ids.liveEventId)}?day=${DAY}`) }),
    expected: supervisorsOnly,
  },
  {
    endpoint: 'GET /events/{other organization event}/days/{day}/live',
    request: async () => ({ method: 'GET', url: api(liveDoorPaths.live(other.eventId, 1)) }),
    expected: { anonymous: 401, otherOrganization: 200, staff: 404, supervisor: 404, admin: 404, device: 403 },
  },
  {
    endpoint: 'GET /events/{other organization event}/scan-log.csv',
    request: async () => ({ method: 'GET', url: api(liveDoorPaths.scanLogCsv(other.eventId)) }),
    expected: { anonymous: 401, otherOrganization: 200, staff: 404, supervisor: 404, admin: 404, device: 403 },
  },
  {
    endpoint: 'GET /events/{other organization event}/attendees',
    request: async () => ({ method: 'GET', url: api(`${supervisorPaths.attendeeSearch(other.eventId)}?q=otto&day=1`) }),
    expected: { anonymous: 401, otherOrganization: 200, staff: 404, supervisor: 404, admin: 404, device: 403 },
  },
  {
    endpoint: 'GET /events/{other organization event}/scan-log',
    request: async () => ({ method: 'GET', url: api(supervisorPaths.scanLog(other.eventId)) }),
    expected: { anonymous: 401, otherOrganization: 200, staff: 404, supervisor: 404, admin: 404, device: 403 },
  },
  {
    endpoint: "POST /events/{demo event}/attendees/{other organization's ticket}/check-in",
    request: async () => ({ method: 'POST', url: api(supervisorPaths.manualCheckIn(ids.liveEventId, other.ticketId)), payload: { day: DAY } }),
    expected: { anonymous: 401, otherOrganization: 404, staff: 403, supervisor: 404, admin: 404, device: 403 },
  },
  {
    endpoint: "POST /events/{demo event}/attendees/{other organization's ticket}/undo-check-in",
    request: async () => ({ method: 'POST', url: api(supervisorPaths.undoCheckIn(ids.liveEventId, other.ticketId)), payload: { day: DAY, reason: 'x' } }),
    expected: { anonymous: 401, otherOrganization: 404, staff: 403, supervisor: 404, admin: 404, device: 403 },
  },
  {
    endpoint: 'GET /events/{unknown event}/attendees',
    request: async () => ({ method: 'GET', url: api(`${supervisorPaths.attendeeSearch('00000000-0000-4000-8000-000000000000')}?q=abc&day=1`) }),
    expected: nobodyFinds,
  },
  {
    endpoint: 'POST /events/{not an id}/attendees/{not an id}/undo-check-in',
    request: async () => ({ method: 'POST', url: api(supervisorPaths.undoCheckIn('not-an-id', 'nor-this')), payload: { day: 1, reason: 'x' } }),
    expected: nobodyFinds,
  },
];

describe.each(MATRIX)('$endpoint', (row) => {
  test.each(CALLERS)(`%s gets the expected status (${TEST_DATABASE_KIND})`, async (caller) => {
    const response = await send(caller, await row.request());
    expect(response.statusCode, response.body).toBe(row.expected[caller]);
    if (response.statusCode >= 400) {
      const body = ApiErrorBody.parse(response.json());
      expect(Object.keys(response.json()).sort()).toEqual(['code', 'message']);
      const code = { 401: 'unauthenticated', 403: 'forbidden', 404: 'not_found' }[response.statusCode];
      expect(body.code).toBe(code);
    }
  });
});

test("the 404 for another organization's event says what an unknown event says (no existence leak)", async () => {
  const theirs = await send('supervisor', { method: 'GET', url: api(supervisorPaths.scanLog(other.eventId)) });
  const unknown = await send('supervisor', { method: 'GET', url: api(supervisorPaths.scanLog('00000000-0000-4000-8000-000000000000')) });
  expect(theirs.statusCode).toBe(404);
  expect(theirs.json().message.replace(other.eventId, '<id>')).toBe(unknown.json().message.replace('00000000-0000-4000-8000-000000000000', '<id>'));
});

test('a staff member refused a manual check-in or an undo changes nothing', async () => {
  const ticketId = await checkedInTicketId();
  const undo = await send('staff', { method: 'POST', url: api(supervisorPaths.undoCheckIn(ids.liveEventId, ticketId)), payload: { day: DAY, reason: 'no' } });
  expect(undo.statusCode).toBe(403);
  expect(undo.json().message).toMatch(/supervisor/);
  // Still checked in: the supervisor's own undo succeeds once.
  const ok = await send('supervisor', { method: 'POST', url: api(supervisorPaths.undoCheckIn(ids.liveEventId, ticketId)), payload: { day: DAY, reason: 'yes' } });
  expect(UndoCheckInResponse.parse(ok.json()).undoneBy).toBe(DEMO_SUPERVISOR.displayName);
});

test('a role change takes effect on the next request (no role is cached in the session)', async () => {
  const token = (await tokenOf('staff')) ?? '';
  const url = api(`${supervisorPaths.scanLog(ids.liveEventId)}`);
  expect((await t.app.inject({ method: 'GET', url, headers: bearer(token) })).statusCode).toBe(403);
  const [staff] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, DEMO_COLLEAGUE.username));
  await changeMemberRole(t.database.db, { organizationId: ids.organizationId, userId: staff?.id ?? '', role: 'supervisor' }, cliActor());
  expect((await t.app.inject({ method: 'GET', url, headers: bearer(token) })).statusCode).toBe(200);
  await changeMemberRole(t.database.db, { organizationId: ids.organizationId, userId: staff?.id ?? '', role: 'staff' }, cliActor());
  expect((await t.app.inject({ method: 'GET', url, headers: bearer(token) })).statusCode).toBe(403);
});
