/**
 * The management of check-in lists (docs/decisions/100, 115) on the real app and database: create,
 * change and delete a list through POST/PATCH/DELETE …/check-in-lists; only the event's admins may
 * (anonymous, another organization, staff, supervisor, a door device refused); bad input a 400
 * naming its field, nothing written; a list with check-ins or the only list is never deleted; each
 * change on the event's Activity page with the list before and after, from the API and the CLI.
 */
import path from 'node:path';
import { tmpdir } from 'node:os';
import {
  ApiErrorBody,
  apiPaths,
  AuditEntryList,
  CheckInList,
  CheckInLists,
  checkInListPath,
  checkInListsPath,
  ManagedEvent,
  managePaths,
  VerifyTicketResponse,
} from '@gatecheck/contract';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { auditEntries, checkInLists } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_SUPERVISOR, DEMO_USER } from '../src/db/seed.ts';
import { createSession } from '../src/services/sessions.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { runCli } from './cli/cli-harness.ts';
import { newDeviceToken } from './helpers/devices.ts';
import { createOutsider, demoIds, OUTSIDER, userIdOf } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

type Caller = 'anonymous' | 'otherOrganization' | 'staff' | 'supervisor' | 'admin' | 'device';
const CALLERS = ['anonymous', 'otherOrganization', 'staff', 'supervisor', 'admin', 'device'] as const satisfies readonly Caller[];

let t: TestApp;
let ids: Awaited<ReturnType<typeof demoIds>>;
let made = 0;

beforeAll(async () => {
  t = await createTestApp();
  ids = await demoIds(t.database.db);
  await createOutsider(t.database.db);
});
afterAll(async () => {
  await t.close();
});

async function send(caller: Caller, request: InjectOptions) {
  let token: string | null = null;
  if (caller === 'device') token = (await newDeviceToken(t.database.db, ids.liveEventId)).token;
  else if (caller !== 'anonymous') {
    const username = { otherOrganization: OUTSIDER.username, staff: DEMO_COLLEAGUE.username, supervisor: DEMO_SUPERVISOR.username, admin: DEMO_USER.username }[caller];
    token = (await createSession(t.database.db, await userIdOf(t.database.db, username), 60_000)).token;
  }
  return t.app.inject({ ...request, headers: token ? { ...request.headers, ...bearer(token) } : request.headers });
}

function uniqueName(prefix: string): string {
  made += 1;
  return `${prefix} ${made}`;
}

/** Creates a list of the demo live event as its admin. */
async function createList(body: Record<string, unknown>): Promise<CheckInList> {
  const response = await send('admin', { method: 'POST', url: api(checkInListsPath(ids.liveEventId)), payload: body });
  expect(response.statusCode, response.body).toBe(201);
  return CheckInList.parse(response.json());
}

async function activity(eventId = ids.liveEventId) {
  return AuditEntryList.parse((await send('admin', { method: 'GET', url: api(managePaths.eventActivity(eventId)) })).json());
}

describe(`only the event's admins write its check-in lists (${TEST_DATABASE_KIND})`, () => {
  // A door device is refused every call but scanning its event (docs/decisions/107).
  const expected = (admin: number): Record<Caller, number> => ({ anonymous: 401, otherOrganization: 404, staff: 403, supervisor: 403, admin, device: 403 });
  const rows: Array<{ endpoint: string; request: () => Promise<InjectOptions>; expected: Record<Caller, number> }> = [
    {
      endpoint: 'POST check-in list',
      request: async () => ({ method: 'POST', url: api(checkInListsPath(ids.liveEventId)), payload: { name: uniqueName('Matrix gate') } }),
      expected: expected(201),
    },
    {
      endpoint: 'PATCH check-in list',
      request: async () => ({ method: 'PATCH', url: api(checkInListPath(ids.liveEventId, (await createList({ name: uniqueName('To edit') })).id)), payload: { name: uniqueName('Edited') } }),
      expected: expected(200),
    },
    {
      endpoint: 'DELETE check-in list',
      request: async () => ({ method: 'DELETE', url: api(checkInListPath(ids.liveEventId, (await createList({ name: uniqueName('To delete') })).id)) }),
      expected: expected(200),
    },
  ];
  for (const row of rows) {
    for (const caller of CALLERS) {
      test(`${row.endpoint}: ${caller} gets ${row.expected[caller]}`, async () => {
        const response = await send(caller, await row.request());
        expect(response.statusCode, response.body).toBe(row.expected[caller]);
        if (response.statusCode >= 400) ApiErrorBody.parse(response.json());
      });
    }
  }
});

test("an admin creates the 'VIP Gate' list: the scanner's lists have it, and the activity page records it", async () => {
  const created = await createList({ name: 'VIP Gate', ticketTypes: ['vip'], days: [1] });
  expect(created).toMatchObject({ name: 'VIP Gate', ticketTypes: ['VIP'], days: [1] });
  const scannerLists = CheckInLists.parse((await send('staff', { method: 'GET', url: api(checkInListsPath(ids.liveEventId)) })).json());
  expect(scannerLists.lists.map((list) => list.name)).toContain('VIP Gate');
  const [entry] = await activity();
  expect(entry).toMatchObject({
    action: 'check_in_list.created',
    actor: { kind: 'user', name: DEMO_USER.displayName },
    before: null,
    after: { checkInListId: created.id, name: 'VIP Gate', ticketTypes: ['VIP'], days: [1] },
  });

  const edited = await send('admin', { method: 'PATCH', url: api(checkInListPath(ids.liveEventId, created.id)), payload: { ticketTypes: null, position: 1 } });
  expect(edited.statusCode, edited.body).toBe(200);
  expect(CheckInList.parse(edited.json())).toMatchObject({ ticketTypes: null, position: 1 });
  const [change] = await activity();
  expect(change).toMatchObject({ action: 'check_in_list.updated', before: { ticketTypes: ['VIP'] }, after: { ticketTypes: null, position: 1 } });
  // Put it back last, so the event's first list stays 'All tickets' for the other tests.
  expect((await send('admin', { method: 'PATCH', url: api(checkInListPath(ids.liveEventId, created.id)), payload: { position: 1000 } })).statusCode).toBe(200);
});

describe('bad input is a 400 naming its field, and writes nothing', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['an empty name', { name: '   ' }, 'body.name'],
    ['a name the event has in another letter case', { name: 'all TICKETS' }, 'body.name'],
    ['no ticket type at all', { name: 'Nobody', ticketTypes: [] }, 'body.ticketTypes'],
    ['a ticket type the event does not know', { name: 'Ghosts', ticketTypes: ['Backstage'] }, 'body.ticketTypes'],
    ['a day the event does not have', { name: 'Day nine', days: [9] }, 'body.days'],
    ['a capacity of 0', { name: 'Tiny', capacity: 0 }, 'body.capacity'],
  ];
  for (const [what, body, field] of cases) {
    test(`${what} → ${field}`, async () => {
      const listsBefore = await t.database.db.select({ id: checkInLists.id }).from(checkInLists).where(eq(checkInLists.eventId, ids.liveEventId));
      const entriesBefore = await t.database.db.select({ id: auditEntries.id }).from(auditEntries).where(eq(auditEntries.eventId, ids.liveEventId));
      const response = await send('admin', { method: 'POST', url: api(checkInListsPath(ids.liveEventId)), payload: body });
      expect(response.statusCode, response.body).toBe(400);
      expect(ApiErrorBody.parse(response.json()).field).toBe(field);
      expect(await t.database.db.select({ id: checkInLists.id }).from(checkInLists).where(eq(checkInLists.eventId, ids.liveEventId))).toHaveLength(listsBefore.length);
      expect(await t.database.db.select({ id: auditEntries.id }).from(auditEntries).where(eq(auditEntries.eventId, ids.liveEventId))).toHaveLength(entriesBefore.length);
    });
  }

  test('an edit that changes nothing, and an unknown list, are refused', async () => {
    const list = await createList({ name: uniqueName('Unchanged') });
    expect((await send('admin', { method: 'PATCH', url: api(checkInListPath(ids.liveEventId, list.id)), payload: {} })).statusCode).toBe(400);
    const unknown = await send('admin', { method: 'PATCH', url: api(checkInListPath(ids.liveEventId, '00000000-0000-4000-8000-000000000000')), payload: { name: 'x' } });
    expect(unknown.statusCode).toBe(404);
  });
});

test('a list with check-ins is not deleted (409, it and its check-ins stay), nor the only list; an unused one is, on the record', async () => {
  // An event that admits today whatever the date (a rehearsal), so the ticket is checked in.
  const event = await send('admin', {
    method: 'POST',
    url: api(managePaths.organizationEvents(ids.organizationId)),
    payload: { title: 'Doors rehearsal', description: '', date: '2026-12-04', location: '', status: 'live', timeZone: 'UTC', dayCutoff: '04:00', allowsScanningOutsideDays: true, days: [] },
  });
  const eventId = ManagedEvent.parse(event.json()).id;
  await insertTickets(t.database.db, [{ code: 'MANAGE-LIST-1', eventId, holderName: 'Lia List', ticketType: 'General Admission' }]);
  const createdAnswer = await send('admin', { method: 'POST', url: api(checkInListsPath(eventId)), payload: { name: 'Side door' } });
  const created = CheckInList.parse(createdAnswer.json());
  const verify = await send('staff', { method: 'POST', url: api(apiPaths.verifyTicket), payload: { eventId, qrCode: 'MANAGE-LIST-1', day: 1, checkInListId: created.id } });
  expect(VerifyTicketResponse.parse(verify.json()).isValid).toBe(true);
  const refused = await send('admin', { method: 'DELETE', url: api(checkInListPath(eventId, created.id)) });
  expect(refused.statusCode).toBe(409);
  expect(ApiErrorBody.parse(refused.json())).toMatchObject({ code: 'conflict', message: expect.stringContaining('1 check-in') });
  expect(await t.database.db.select({ id: checkInLists.id }).from(checkInLists).where(eq(checkInLists.id, created.id))).toHaveLength(1);

  const unused = await createList({ name: uniqueName('Unused') });
  const deleted = await send('admin', { method: 'DELETE', url: api(checkInListPath(ids.liveEventId, unused.id)) });
  expect(deleted.statusCode, deleted.body).toBe(200);
  const [entry] = await activity();
  expect(entry).toMatchObject({ action: 'check_in_list.deleted', before: { checkInListId: unused.id, name: unused.name }, after: null });

  const [only] = CheckInLists.parse((await send('admin', { method: 'GET', url: api(checkInListsPath(ids.singleDayEventId)) })).json()).lists;
  const last = await send('admin', { method: 'DELETE', url: api(checkInListPath(ids.singleDayEventId, only?.id ?? '')) });
  expect(last.statusCode).toBe(409);
});

test('the admin CLI changes lists through the same service: on the activity page as the CLI', async () => {
  const dir = path.join(tmpdir(), 'gatecheck-lists-cli');
  const env = { DATA_DIR: dir, INIT_CWD: dir, LOG_LEVEL: 'silent', WEB_DIST_DIR: path.join(dir, 'no-web-build') };
  const cli = (argv: string[]) => runCli(argv, { env, database: t.database });
  expect((await cli(['list', 'create', '--event', ids.singleDayEventId, '--name', 'CLI desk'])).exitCode).toBe(0);
  expect((await cli(['list', 'edit', '--event', ids.singleDayEventId, '--list', 'CLI desk', '--name', 'CLI desk 2'])).exitCode).toBe(0);
  expect((await cli(['list', 'delete', '--event', ids.singleDayEventId, '--list', 'CLI desk 2'])).exitCode).toBe(0);
  const entries = (await activity(ids.singleDayEventId)).filter((entry) => entry.action.startsWith('check_in_list.'));
  expect(entries.map((entry) => [entry.action, entry.actor.kind])).toEqual([
    ['check_in_list.deleted', 'cli'],
    ['check_in_list.updated', 'cli'],
    ['check_in_list.created', 'cli'],
  ]);
});
