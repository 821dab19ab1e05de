/**
 * The organizer's management of events (docs/decisions/105, 106) on the real app and database:
 * every endpoint × {anonymous, member of another organization, staff, supervisor, admin, door device}; bad input
 * answered 400 naming its field; a day with check-ins kept, and moved to another date only when
 * confirmed (docs/decisions/145); archive as the scanner sees it; the
 * audit trail written with each change, by the API and by the admin CLI, and never without it.
 */
import path from 'node:path';
import { tmpdir } from 'node:os';
import {
  ApiErrorBody,
  apiPaths,
  AuditEntryList,
  type EventRequest,
  EventList,
  EventSnapshot,
  ManagedEvent,
  ManagedEventList,
  managePaths,
  organizationEventsPath,
  OrganizationList,
  VerifyTicketResponse,
} from '@gatecheck/contract';
import { eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { auditEntries, eventDays, events, users } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_SUPERVISOR, DEMO_USER } from '../src/db/seed.ts';
import { cliActor } from '../src/services/audit.ts';
import { createCheckInList } from '../src/services/check-in-lists.ts';
import { findEvent } from '../src/services/events.ts';
import { createSession } from '../src/services/sessions.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { runCli } from './cli/cli-harness.ts';
import { newDeviceToken } from './helpers/devices.ts';
import { createOutsider, demoIds, OUTSIDER } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

/** `device`: a door device of the demo live event (docs/decisions/107), which scans and manages nothing. */
type Caller = 'anonymous' | 'otherOrganization' | 'staff' | 'supervisor' | 'admin' | 'device';
const CALLERS = ['anonymous', 'otherOrganization', 'staff', 'supervisor', 'admin', 'device'] as const satisfies readonly Caller[];

const USERNAMES: Record<Exclude<Caller, 'anonymous' | 'device'>, string> = {
  otherOrganization: OUTSIDER.username,
  staff: DEMO_COLLEAGUE.username,
  supervisor: DEMO_SUPERVISOR.username,
  admin: DEMO_USER.username,
};

let t: TestApp;
let ids: Awaited<ReturnType<typeof demoIds>>;

beforeAll(async () => {
  t = await createTestApp();
  ids = await demoIds(t.database.db);
  await createOutsider(t.database.db);
});
afterAll(async () => {
  await t.close();
});

async function send(caller: Caller, request: InjectOptions) {
  let headers = request.headers ?? {};
  if (caller === 'device') {
    headers = { ...headers, ...bearer((await newDeviceToken(t.database.db, ids.liveEventId)).token) };
  } else if (caller !== 'anonymous') {
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, USERNAMES[caller]));
    if (!user) throw new Error(`no user ${caller}`);
    headers = { ...headers, ...bearer((await createSession(t.database.db, user.id, 60_000)).token) };
  }
  return t.app.inject({ ...request, headers });
}

/** A valid two-day event; `overrides` change fields. */
function eventInput(overrides: Partial<EventRequest> = {}): EventRequest {
  return {
    title: 'Dockside Jazz',
    description: 'Two nights by the water',
    date: '2026-12-04',
    location: 'Pier 4',
    status: 'live',
    timeZone: 'Europe/Berlin',
    dayCutoff: '04:00',
    allowsScanningOutsideDays: true,
    days: [
      { day: 1, name: 'Friday', date: '2026-12-04' },
      { day: 2, name: 'Saturday', date: '2026-12-05' },
    ],
    ...overrides,
  };
}

/** Creates an event as the demo admin through the API. */
async function createAsAdmin(overrides: Partial<EventRequest> = {}): Promise<ManagedEvent> {
  const response = await send('admin', { method: 'POST', url: api(managePaths.organizationEvents(ids.organizationId)), payload: eventInput(overrides) });
  expect(response.statusCode, response.body).toBe(201);
  return ManagedEvent.parse(response.json());
}

async function activityOf(eventId: string) {
  const response = await send('admin', { method: 'GET', url: api(managePaths.eventActivity(eventId)) });
  expect(response.statusCode).toBe(200);
  return AuditEntryList.parse(response.json());
}

async function auditRowCount(eventId: string): Promise<number> {
  const rows = await t.database.db.select({ id: auditEntries.id }).from(auditEntries).where(eq(auditEntries.eventId, eventId));
  return rows.length;
}

describe(`the management endpoints admit only the organization's admins (${TEST_DATABASE_KIND})`, () => {
  const adminsOnly = { anonymous: 401, otherOrganization: 404, staff: 403, supervisor: 403, admin: 200, device: 403 };
  const rows: Array<{ endpoint: string; request: () => Promise<InjectOptions>; expected: Record<Caller, number> }> = [
    { endpoint: 'GET organization events', request: async () => ({ method: 'GET', url: api(managePaths.organizationEvents(ids.organizationId)) }), expected: adminsOnly },
    {
      endpoint: 'POST organization events',
      request: async () => ({ method: 'POST', url: api(managePaths.organizationEvents(ids.organizationId)), payload: eventInput({ title: 'Matrix event' }) }),
      expected: { ...adminsOnly, admin: 201 },
    },
    { endpoint: 'GET event', request: async () => ({ method: 'GET', url: api(managePaths.event(ids.liveEventId)) }), expected: adminsOnly },
    {
      endpoint: 'POST event',
      request: async () => {
        const event = await createAsAdmin({ title: 'To be edited' });
        return { method: 'POST', url: api(managePaths.event(event.id)), payload: eventInput({ title: 'Edited' }) };
      },
      expected: adminsOnly,
    },
    {
      endpoint: 'POST archive',
      request: async () => ({ method: 'POST', url: api(managePaths.archiveEvent((await createAsAdmin({ status: 'completed' })).id)) }),
      expected: adminsOnly,
    },
    {
      endpoint: 'POST restore',
      request: async () => {
        const event = await createAsAdmin({ status: 'draft' });
        expect((await send('admin', { method: 'POST', url: api(managePaths.archiveEvent(event.id)) })).statusCode).toBe(200);
        return { method: 'POST', url: api(managePaths.restoreEvent(event.id)) };
      },
      expected: adminsOnly,
    },
    { endpoint: 'GET activity', request: async () => ({ method: 'GET', url: api(managePaths.eventActivity(ids.liveEventId)) }), expected: adminsOnly },
    { endpoint: 'GET organization activity', request: async () => ({ method: 'GET', url: api(managePaths.organizationActivity(ids.organizationId)) }), expected: adminsOnly },
    {
      endpoint: 'GET unknown organization',
      request: async () => ({ method: 'GET', url: api(managePaths.organizationEvents('00000000-0000-4000-8000-000000000000')) }),
      expected: { anonymous: 401, otherOrganization: 404, staff: 404, supervisor: 404, admin: 404, device: 403 },
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

test('an admin creates an event with two days: it is in the management list, the scanner list and its activity', async () => {
  const created = await createAsAdmin({ title: 'Harbour Nights' });
  expect(created).toMatchObject({ title: 'Harbour Nights', status: 'live', timeZone: 'Europe/Berlin', dayCutoff: '04:00', allowsScanningOutsideDays: true, archivedAt: null });
  expect(created.days.map((day) => [day.day, day.name, day.date, day.checkIns])).toEqual([
    [1, 'Friday', '2026-12-04', 0],
    [2, 'Saturday', '2026-12-05', 0],
  ]);
  const managed = ManagedEventList.parse((await send('admin', { method: 'GET', url: api(managePaths.organizationEvents(ids.organizationId)) })).json());
  expect(managed.map((event) => event.id)).toContain(created.id);
  const scannerList = EventList.parse((await send('staff', { method: 'GET', url: api(organizationEventsPath(ids.organizationId)) })).json());
  expect(scannerList.find((event) => event._id === created.id)?.eventDays).toHaveLength(2);

  const [entry, ...rest] = await activityOf(created.id);
  expect(rest).toEqual([]);
  expect(entry).toMatchObject({ action: 'event.created', actor: { kind: 'user', name: DEMO_USER.displayName }, before: null });
  expect(EventSnapshot.parse(entry?.after).days).toHaveLength(2);
});

test('an edit changes settings and days, and its activity entry holds the event before and after', async () => {
  const created = await createAsAdmin({ title: 'Before the edit' });
  const response = await send('admin', {
    method: 'POST',
    url: api(managePaths.event(created.id)),
    payload: eventInput({
      title: 'After the edit',
      dayCutoff: '02:30',
      days: [
        { day: 1, name: 'Friday late', date: '2026-12-04' },
        { day: 3, name: 'Sunday', date: '2026-12-06' },
      ],
    }),
  });
  expect(response.statusCode, response.body).toBe(200);
  const updated = ManagedEvent.parse(response.json());
  expect(updated.title).toBe('After the edit');
  expect(updated.days.map((day) => `${day.day} ${day.name}`)).toEqual(['1 Friday late', '3 Sunday']);
  const [latest] = await activityOf(created.id);
  expect(latest).toMatchObject({ action: 'event.updated', before: { title: 'Before the edit', dayCutoff: '04:00' }, after: { title: 'After the edit', dayCutoff: '02:30' } });
  expect(latest?.action === 'event.updated' ? latest.before?.days.map((day) => day.name) : null).toEqual(['Friday', 'Saturday']);
});

describe('bad input is a 400 naming its field, and changes nothing', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['an empty title', { title: '   ' }, 'body.title'],
    ['a date that does not exist', { date: '2026-02-30' }, 'body.date'],
    ['an unknown time zone', { timeZone: 'Mars/Olympus' }, 'body.timeZone'],
    ['a day cut-off that is not HH:MM', { dayCutoff: '25:00' }, 'body.dayCutoff'],
    ['an unknown status', { status: 'open' }, 'body.status'],
    ['a day without a name', { days: [{ day: 1, name: '', date: '2026-12-04' }] }, 'body.days.0.name'],
    [
      'two days with one number',
      {
        days: [
          { day: 1, name: 'A', date: '2026-12-04' },
          { day: 1, name: 'B', date: '2026-12-05' },
        ],
      },
      'body.days.1.day',
    ],
  ];
  for (const [what, overrides, field] of cases) {
    test(`${what} → ${field}`, async () => {
      const before = await t.database.db.select({ value: sql<number>`count(*)::int` }).from(events);
      const response = await send('admin', { method: 'POST', url: api(managePaths.organizationEvents(ids.organizationId)), payload: { ...eventInput(), ...overrides } });
      expect(response.statusCode).toBe(400);
      expect(ApiErrorBody.parse(response.json())).toMatchObject({ code: 'validation_failed', field });
      const after = await t.database.db.select({ value: sql<number>`count(*)::int` }).from(events);
      expect(after).toEqual(before);
    });
  }
});

test('a day with check-ins cannot be removed: 409 naming the day, days and activity unchanged', async () => {
  const created = await createAsAdmin({ title: 'Checked-in event' });
  await insertTickets(t.database.db, [{ code: 'MANAGE-CHECKED-1', eventId: created.id, holderName: 'Cleo Check', ticketType: 'General Admission' }]);
  const verify = await send('staff', { method: 'POST', url: api(apiPaths.verifyTicket), payload: { eventId: created.id, qrCode: 'MANAGE-CHECKED-1', day: 2 } });
  expect(VerifyTicketResponse.parse(verify.json()).isValid).toBe(true);
  const entriesBefore = await auditRowCount(created.id);

  const response = await send('admin', {
    method: 'POST',
    url: api(managePaths.event(created.id)),
    payload: eventInput({ title: 'Checked-in event', days: [{ day: 1, name: 'Friday', date: '2026-12-04' }] }),
  });
  expect(response.statusCode).toBe(409);
  expect(ApiErrorBody.parse(response.json())).toMatchObject({ code: 'conflict', field: 'body.days', message: expect.stringContaining('Day 2 (Saturday) has 1 check-in') });
  const days = await t.database.db.select({ day: eventDays.day }).from(eventDays).where(eq(eventDays.eventId, created.id));
  expect(days.map((day) => day.day).sort()).toEqual([1, 2]);
  expect(await auditRowCount(created.id)).toBe(entriesBefore);

  // Renaming the day keeps its check-ins: allowed, no confirmation asked.
  const renamed = await send('admin', {
    method: 'POST',
    url: api(managePaths.event(created.id)),
    payload: eventInput({ days: [{ day: 1, name: 'Friday', date: '2026-12-04' }, { day: 2, name: 'Saturday (renamed)', date: '2026-12-05' }] }),
  });
  expect(renamed.statusCode, renamed.body).toBe(200);
  expect(ManagedEvent.parse(renamed.json()).days[1]).toMatchObject({ name: 'Saturday (renamed)', checkIns: 1 });
});

test('a day with check-ins moves to another date only when the edit confirms it: 409 naming the day and its check-ins, then moved with its check-ins and audited', async () => {
  const created = await createAsAdmin({ title: 'Moving day' });
  await insertTickets(t.database.db, [
    { code: 'MANAGE-MOVE-1', eventId: created.id, holderName: 'Mo Move', ticketType: 'General Admission' },
    { code: 'MANAGE-MOVE-2', eventId: created.id, holderName: 'Vi Move', ticketType: 'General Admission' },
  ]);
  for (const qrCode of ['MANAGE-MOVE-1', 'MANAGE-MOVE-2']) {
    const verify = await send('staff', { method: 'POST', url: api(apiPaths.verifyTicket), payload: { eventId: created.id, qrCode, day: 2 } });
    expect(VerifyTicketResponse.parse(verify.json()).isValid).toBe(true);
  }
  const entriesBefore = await auditRowCount(created.id);
  const moved = eventInput({ title: 'Moving day', days: [{ day: 1, name: 'Friday', date: '2026-12-04' }, { day: 2, name: 'Saturday', date: '2026-12-06' }] });

  for (const payload of [moved, { ...moved, confirm: false }]) {
    const refused = await send('admin', { method: 'POST', url: api(managePaths.event(created.id)), payload });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(ApiErrorBody.parse(refused.json())).toEqual({
      code: 'confirmation_required',
      field: 'body.days.1.date',
      message: expect.stringContaining('Day 2 (Saturday) has 2 check-ins and would move from Sat 5 Dec to Sun 6 Dec'),
    });
  }
  const [kept] = await t.database.db.select({ date: eventDays.date }).from(eventDays).where(sql`${eventDays.eventId} = ${created.id} and ${eventDays.day} = 2`);
  expect(kept?.date).toBe('2026-12-05');
  expect(await auditRowCount(created.id)).toBe(entriesBefore);

  // Day 1 has none: it moves without a question, in the same edit as other settings.
  const dayOne = await send('admin', { method: 'POST', url: api(managePaths.event(created.id)), payload: eventInput({ title: 'Moving day', days: [{ day: 1, name: 'Friday', date: '2026-12-03' }, { day: 2, name: 'Saturday', date: '2026-12-05' }] }) });
  expect(dayOne.statusCode, dayOne.body).toBe(200);

  const confirmed = await send('admin', { method: 'POST', url: api(managePaths.event(created.id)), payload: { ...moved, confirm: true } });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  expect(ManagedEvent.parse(confirmed.json()).days[1]).toMatchObject({ day: 2, date: '2026-12-06', checkIns: 2 });
  const [latest] = await activityOf(created.id);
  expect(latest?.action).toBe('event.updated');
  expect(latest?.action === 'event.updated' ? [latest.before?.days[1]?.date, latest.after?.days[1]?.date] : null).toEqual(['2026-12-05', '2026-12-06']);
});

test("a one-day event's date is its day 1: with check-ins it moves only when confirmed (409 on field date)", async () => {
  const created = await createAsAdmin({ title: 'One night', date: '2026-12-04', days: [] });
  await insertTickets(t.database.db, [{ code: 'MANAGE-ONE-DAY-1', eventId: created.id, holderName: 'Una Day', ticketType: 'General Admission' }]);
  const verify = await send('staff', { method: 'POST', url: api(apiPaths.verifyTicket), payload: { eventId: created.id, qrCode: 'MANAGE-ONE-DAY-1', day: 1 } });
  expect(VerifyTicketResponse.parse(verify.json()).isValid).toBe(true);

  const refused = await send('admin', { method: 'POST', url: api(managePaths.event(created.id)), payload: eventInput({ title: 'One night', date: '2026-12-11', days: [] }) });
  expect(refused.statusCode, refused.body).toBe(409);
  expect(ApiErrorBody.parse(refused.json())).toMatchObject({ code: 'confirmation_required', field: 'body.date', message: expect.stringContaining('Day 1 (Main Event) has 1 check-in and would move') });
  const confirmed = await send('admin', { method: 'POST', url: api(managePaths.event(created.id)), payload: { ...eventInput({ title: 'One night', date: '2026-12-11', days: [] }), confirm: true } });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  expect(ManagedEvent.parse(confirmed.json())).toMatchObject({ date: '2026-12-11', checkInCount: 1 });
});

test('a ticket checked in at two check-in lists on one day counts once in the event and in its day', async () => {
  const created = await createAsAdmin({ title: 'Two doors' });
  await insertTickets(t.database.db, [{ code: 'MANAGE-TWO-LISTS-1', eventId: created.id, holderName: 'Tess Twice', ticketType: 'General Admission' }]);
  const secondList = await createCheckInList(t.database.db, await findEvent(t.database.db, created.id), { name: 'Merch desk', ticketTypes: null, days: null }, cliActor());
  for (const checkInListId of [undefined, secondList.id]) {
    const verify = await send('staff', { method: 'POST', url: api(apiPaths.verifyTicket), payload: { eventId: created.id, qrCode: 'MANAGE-TWO-LISTS-1', day: 1, checkInListId } });
    expect(VerifyTicketResponse.parse(verify.json()).isValid).toBe(true);
  }
  const managed = ManagedEvent.parse((await send('admin', { method: 'GET', url: api(managePaths.event(created.id)) })).json());
  expect(managed.checkInCount).toBe(1);
  expect(managed.days.map((day) => day.checkIns)).toEqual([1, 0]);
  const listed = ManagedEventList.parse((await send('admin', { method: 'GET', url: api(managePaths.organizationEvents(ids.organizationId)) })).json());
  expect(listed.find((event) => event.id === created.id)?.checkInCount).toBe(1);
});

test('archive: refused while the event admits; once archived the scanner is not offered it and its tickets are denied; restore brings it back', async () => {
  const created = await createAsAdmin({ title: 'Season opener' });
  await insertTickets(t.database.db, [{ code: 'MANAGE-ARCHIVE-1', eventId: created.id, holderName: 'Ari Archive', ticketType: 'General Admission' }]);

  const refused = await send('admin', { method: 'POST', url: api(managePaths.archiveEvent(created.id)) });
  expect(refused.statusCode).toBe(409);
  expect(ApiErrorBody.parse(refused.json())).toMatchObject({ code: 'conflict', field: 'status' });

  expect((await send('admin', { method: 'POST', url: api(managePaths.event(created.id)), payload: eventInput({ title: 'Season opener', status: 'completed' }) })).statusCode).toBe(200);
  const archived = await send('admin', { method: 'POST', url: api(managePaths.archiveEvent(created.id)) });
  expect(archived.statusCode).toBe(200);
  expect(ManagedEvent.parse(archived.json()).archivedAt).not.toBeNull();

  const scannerList = EventList.parse((await send('staff', { method: 'GET', url: api(organizationEventsPath(ids.organizationId)) })).json());
  expect(scannerList.map((event) => event._id)).not.toContain(created.id);
  const organizations = OrganizationList.parse((await send('staff', { method: 'GET', url: api(apiPaths.organizations) })).json());
  expect(organizations.flatMap((organization) => organization.activeEvents.map((event) => event._id))).not.toContain(created.id);
  const verify = VerifyTicketResponse.parse((await send('staff', { method: 'POST', url: api(apiPaths.verifyTicket), payload: { eventId: created.id, qrCode: 'MANAGE-ARCHIVE-1', day: 1 } })).json());
  expect(verify).toMatchObject({ isValid: false, reason: 'event_not_active' });

  const editWhileArchived = await send('admin', { method: 'POST', url: api(managePaths.event(created.id)), payload: eventInput({ status: 'live' }) });
  expect(editWhileArchived.statusCode).toBe(409);
  const restored = await send('admin', { method: 'POST', url: api(managePaths.restoreEvent(created.id)) });
  expect(ManagedEvent.parse(restored.json())).toMatchObject({ archivedAt: null, status: 'completed', ticketCount: 1 });
  expect((await activityOf(created.id)).map((entry) => entry.action)).toEqual(['event.restored', 'event.archived', 'event.updated', 'event.created']);
});

describe('the audit entry and its change commit together', () => {
  /** Makes the database itself refuse writes to `table` (a real trigger), runs `work`, then lifts it. */
  async function whileRefusing(table: 'audit_entries' | 'event_days', work: () => Promise<void>): Promise<void> {
    const db = t.database.db;
    await db.execute(sql.raw(`create function gc_test_refuse() returns trigger language plpgsql as $$ begin raise exception 'refused by test'; end $$`));
    await db.execute(sql.raw(`create trigger gc_test_refuse before insert on ${table} for each row execute function gc_test_refuse()`));
    try {
      await work();
    } finally {
      await db.execute(sql.raw(`drop trigger gc_test_refuse on ${table}`));
      await db.execute(sql.raw('drop function gc_test_refuse()'));
    }
  }

  test('when the audit entry cannot be written, the change is not made', async () => {
    const created = await createAsAdmin({ title: 'Audited or nothing' });
    await whileRefusing('audit_entries', async () => {
      const response = await send('admin', { method: 'POST', url: api(managePaths.event(created.id)), payload: eventInput({ title: 'Unaudited title' }) });
      expect(response.statusCode).toBe(500);
    });
    const [row] = await t.database.db.select({ title: events.title }).from(events).where(eq(events.id, created.id));
    expect(row?.title).toBe('Audited or nothing');
  });

  test('when the change fails, no audit entry is left', async () => {
    const created = await createAsAdmin({ title: 'Failing change' });
    const entriesBefore = await auditRowCount(created.id);
    await whileRefusing('event_days', async () => {
      const response = await send('admin', { method: 'POST', url: api(managePaths.event(created.id)), payload: eventInput({ title: 'Never saved' }) });
      expect(response.statusCode).toBe(500);
    });
    expect(await auditRowCount(created.id)).toBe(entriesBefore);
    const [row] = await t.database.db.select({ title: events.title }).from(events).where(eq(events.id, created.id));
    expect(row?.title).toBe('Failing change');
  });
});

test('the admin CLI goes through the same service: its changes are on the activity page as the CLI, and it refuses what the API refuses', async () => {
  const dir = path.join(tmpdir(), 'gatecheck-manage-cli');
  const env = { DATA_DIR: dir, INIT_CWD: dir, LOG_LEVEL: 'silent', WEB_DIST_DIR: path.join(dir, 'no-web-build') };
  const created = await runCli(['event', 'create', '--org', ids.organizationId, '--title', 'CLI Night', '--date', '2026-12-10', '--days', 'One:2026-12-10,Two:2026-12-11'], {
    env,
    database: t.database,
  });
  expect(created.exitCode, created.stderr).toBe(0);
  const eventId = /id ([0-9a-f-]{36})/.exec(created.stdout)?.[1] ?? '';
  const set = await runCli(['event', 'set', '--event', eventId, '--status', 'upcoming'], { env, database: t.database });
  expect(set.exitCode, set.stderr).toBe(0);
  const activity = await activityOf(eventId);
  expect(activity.map((entry) => [entry.action, entry.actor.kind])).toEqual([
    ['event.updated', 'cli'],
    ['event.created', 'cli'],
  ]);
  expect(activity[0]?.actor.name).toMatch(/^admin CLI \(/);
  expect(activity[0]).toMatchObject({ before: { status: 'draft' }, after: { status: 'upcoming' } });

  const blank = await runCli(['event', 'create', '--org', ids.organizationId, '--title', '  ', '--date', '2026-12-10'], { env, database: t.database });
  expect(blank.exitCode).toBe(1);
  expect(blank.stderr).toContain('Invalid title: Give the event a title');

  // Moving a day that has check-ins: refused as the API refuses it, done with --confirm.
  await insertTickets(t.database.db, [{ code: 'MANAGE-CLI-MOVE-1', eventId, holderName: 'Cli Move', ticketType: 'General Admission' }]);
  const open = await runCli(['event', 'set', '--event', eventId, '--status', 'live', '--scan-outside-days', 'yes'], { env, database: t.database });
  expect(open.exitCode, open.stderr).toBe(0);
  const verify = await send('staff', { method: 'POST', url: api(apiPaths.verifyTicket), payload: { eventId, qrCode: 'MANAGE-CLI-MOVE-1', day: 2 } });
  expect(VerifyTicketResponse.parse(verify.json()).isValid).toBe(true);
  const unconfirmed = await runCli(['event', 'set', '--event', eventId, '--day-date', '2:2026-12-12'], { env, database: t.database });
  expect(unconfirmed.exitCode).toBe(1);
  expect(unconfirmed.stderr).toContain('Day 2 (Two) has 1 check-in and would move from Fri 11 Dec to Sat 12 Dec');
  expect(unconfirmed.stderr).toContain('--confirm');
  expect((await activityOf(eventId)).length).toBe(3);
  const unknownDay = await runCli(['event', 'set', '--event', eventId, '--day-date', '3:2026-12-12'], { env, database: t.database });
  expect(unknownDay.exitCode).toBe(1);
  expect(unknownDay.stderr).toContain('no configured day 3');
  const confirmed = await runCli(['event', 'set', '--event', eventId, '--day-date', '2:2026-12-12', '--confirm'], { env, database: t.database });
  expect(confirmed.exitCode, confirmed.stderr).toBe(0);
  const [moved] = await activityOf(eventId);
  expect(moved).toMatchObject({ action: 'event.updated', actor: { kind: 'cli' } });
  expect(moved?.action === 'event.updated' ? [moved.before?.days.map((day) => day.date), moved.after?.days.map((day) => day.date)] : null).toEqual([
    ['2026-12-10', '2026-12-11'],
    ['2026-12-10', '2026-12-12'],
  ]);
});
