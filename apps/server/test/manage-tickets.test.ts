/**
 * The management area's ticket types and tickets (docs/decisions/114) on the real app and database:
 * every endpoint × {anonymous, member of another organization, staff, supervisor, door device,
 * admin}; ticket types created, changed and deleted (refused while checked in); a CSV preview that
 * names each rejected row and writes nothing, a file refused whole, an import that streams its
 * progress; tickets found, changed, revoked and reinstated, their QR and PDF; every change on the
 * event's activity with before and after.
 */
import {
  ApiErrorBody,
  AuditEntryList,
  ManagedTicket,
  ManagedTicketList,
  managePaths,
  manageTicketPaths,
  TicketImportEvent,
  TicketImportSummary,
  TicketType,
  TicketTypesResponse,
} from '@gatecheck/contract';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkIns, tickets, users } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_SUPERVISOR, DEMO_USER } from '../src/db/seed.ts';
import { createEvent } from '../src/services/events.ts';
import { createSession } from '../src/services/sessions.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { importTicketsCsv } from '../src/services/tickets-import.ts';
import { runCli } from './cli/cli-harness.ts';
import { newDeviceToken } from './helpers/devices.ts';
import { createOutsider, demoIds, firstCheckInListId, OUTSIDER, userIdOf } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const CALLERS = ['anonymous', 'otherOrganization', 'staff', 'supervisor', 'device', 'admin'] as const;
type Caller = (typeof CALLERS)[number];

const USERNAMES = { otherOrganization: OUTSIDER.username, staff: DEMO_COLLEAGUE.username, supervisor: DEMO_SUPERVISOR.username, admin: DEMO_USER.username } as const;

let t: TestApp;
let organizationId: string;
let adminId: string;
let eventCounter = 0;

beforeAll(async () => {
  t = await createTestApp();
  organizationId = (await demoIds(t.database.db)).organizationId;
  await createOutsider(t.database.db);
  adminId = await userIdOf(t.database.db, DEMO_USER.username);
});
afterAll(async () => {
  await t.close();
});

/** A fresh two-day event of the demo organization. */
async function newEvent(): Promise<string> {
  eventCounter += 1;
  return createEvent(
    t.database.db,
    {
      organizationId,
      title: `Ticket desk ${eventCounter}`,
      description: '',
      date: '2026-12-04',
      location: '',
      status: 'live',
      timeZone: 'Europe/Berlin',
      dayCutoff: '04:00',
      allowsScanningOutsideDays: true,
      days: [
        { day: 1, name: 'Friday', date: '2026-12-04' },
        { day: 2, name: 'Saturday', date: '2026-12-05' },
      ],
    },
    { kind: 'user', userId: adminId, name: DEMO_USER.displayName },
  );
}

async function send(caller: Caller, request: InjectOptions & { eventId: string }) {
  const { eventId, ...options } = request;
  let headers = options.headers ?? {};
  if (caller === 'device') headers = { ...headers, ...bearer((await newDeviceToken(t.database.db, eventId)).token) };
  else if (caller !== 'anonymous') {
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, USERNAMES[caller]));
    if (!user) throw new Error(`no user ${caller}`);
    headers = { ...headers, ...bearer((await createSession(t.database.db, user.id, 60_000)).token) };
  }
  return t.app.inject({ ...options, headers });
}

const asAdmin = (request: InjectOptions & { eventId: string }) => send('admin', request);

/** A CSV upload request. */
function csvUpload(url: string, csv: string): InjectOptions {
  return { method: 'POST', url: api(url), headers: { 'content-type': 'text/csv' }, payload: csv };
}

/** Two tickets of the event, returned with their ids. */
async function seedTickets(eventId: string, prefix: string) {
  return insertTickets(t.database.db, [
    { eventId, code: `${prefix}-ANNA-0001-AAAA-BBBB`, holderName: 'Anna Berg', ticketType: 'General' },
    { eventId, code: `${prefix}-ZOE-0002-CCCC-DDDD`, holderName: 'Zoë van Dijk', ticketType: 'VIP' },
  ]);
}

async function activityOf(eventId: string) {
  const response = await asAdmin({ eventId, method: 'GET', url: api(managePaths.eventActivity(eventId)) });
  expect(response.statusCode).toBe(200);
  return AuditEntryList.parse(response.json());
}

describe(`the ticket endpoints admit only the organization's admins (${TEST_DATABASE_KIND})`, () => {
  const expected = (admin: number): Record<Caller, number> => ({ anonymous: 401, otherOrganization: 404, staff: 403, supervisor: 403, device: 403, admin });
  let eventId: string;
  let ticketId: string;
  beforeAll(async () => {
    eventId = await newEvent();
    const [ticket] = await seedTickets(eventId, 'MATRIX');
    ticketId = ticket?.id ?? '';
  });
  let typeCounter = 0;
  const rows: Array<{ endpoint: string; request: () => Promise<InjectOptions>; admin: number }> = [
    { endpoint: 'GET ticket types', request: async () => ({ method: 'GET', url: api(manageTicketPaths.ticketTypes(eventId)) }), admin: 200 },
    {
      endpoint: 'POST ticket types',
      request: async () => ({ method: 'POST', url: api(manageTicketPaths.ticketTypes(eventId)), payload: { name: `Matrix ${(typeCounter += 1)}`, checkInNote: '', requiresAttention: false } }),
      admin: 201,
    },
    { endpoint: 'POST ticket type', request: async () => ({ method: 'POST', url: api(manageTicketPaths.ticketType(eventId, 'VIP')), payload: { checkInNote: 'Green band', requiresAttention: true } }), admin: 200 },
    {
      endpoint: 'POST delete ticket type',
      request: async () => {
        const name = `Doomed ${(typeCounter += 1)}`;
        expect((await asAdmin({ eventId, method: 'POST', url: api(manageTicketPaths.ticketTypes(eventId)), payload: { name, checkInNote: '', requiresAttention: false } })).statusCode).toBe(201);
        return { method: 'POST', url: api(manageTicketPaths.deleteTicketType(eventId, name)) };
      },
      admin: 200,
    },
    { endpoint: 'GET tickets', request: async () => ({ method: 'GET', url: api(manageTicketPaths.tickets(eventId, 'anna')) }), admin: 200 },
    { endpoint: 'POST ticket', request: async () => ({ method: 'POST', url: api(manageTicketPaths.ticket(eventId, ticketId)), payload: { holderName: 'Anna Berg', ticketType: 'General' } }), admin: 200 },
    { endpoint: 'POST revoke', request: async () => ({ method: 'POST', url: api(manageTicketPaths.revokeTicket(eventId, ticketId)) }), admin: 200 },
    { endpoint: 'POST reinstate', request: async () => ({ method: 'POST', url: api(manageTicketPaths.reinstateTicket(eventId, ticketId)) }), admin: 200 },
    { endpoint: 'GET QR', request: async () => ({ method: 'GET', url: api(manageTicketPaths.ticketQr(eventId, ticketId)) }), admin: 200 },
    { endpoint: 'GET PDF', request: async () => ({ method: 'GET', url: api(manageTicketPaths.ticketsPdf(eventId)) }), admin: 200 },
    { endpoint: 'GET signed QR', request: async () => ({ method: 'GET', url: api(manageTicketPaths.ticketQr(eventId, ticketId, { signed: true })) }), admin: 200 },
    { endpoint: 'GET signed PDF', request: async () => ({ method: 'GET', url: api(manageTicketPaths.ticketsPdf(eventId, { signed: true })) }), admin: 200 },
    { endpoint: 'POST preview', request: async () => csvUpload(manageTicketPaths.importPreview(eventId), 'holder_name,ticket_type,days\nMatrix Person,General,all\n'), admin: 200 },
    { endpoint: 'POST import', request: async () => csvUpload(manageTicketPaths.importTickets(eventId), 'holder_name,ticket_type,days\nMatrix Person,General,all\n'), admin: 200 },
  ];
  for (const row of rows) {
    for (const caller of CALLERS) {
      test(`${row.endpoint}: ${caller} gets ${expected(row.admin)[caller]}`, async () => {
        const response = await send(caller, { eventId, ...(await row.request()) });
        expect(response.statusCode, response.body).toBe(expected(row.admin)[caller]);
        if (response.statusCode >= 400) ApiErrorBody.parse(response.json());
      });
    }
  }
});

test('ticket types: created with note and flag, a repeated name and a bad note refused on their fields, changed, deleted only without check-ins, each on the activity', async () => {
  const eventId = await newEvent();
  const url = api(manageTicketPaths.ticketTypes(eventId));
  const created = await asAdmin({ eventId, method: 'POST', url, payload: { name: '  Early   Bird ', checkInNote: 'Stamp the hand', requiresAttention: true } });
  expect(created.statusCode, created.body).toBe(201);
  expect(TicketType.parse(created.json())).toEqual({ name: 'Early Bird', checkInNote: 'Stamp the hand', requiresAttention: true, days: null, tickets: 0 });

  const repeated = await asAdmin({ eventId, method: 'POST', url, payload: { name: 'Early Bird', checkInNote: '', requiresAttention: false } });
  expect(repeated.statusCode).toBe(409);
  expect(ApiErrorBody.parse(repeated.json()).field).toBe('body.name');
  const badNote = await asAdmin({ eventId, method: 'POST', url, payload: { name: 'Late', checkInNote: 'x'.repeat(301), requiresAttention: false } });
  expect(badNote.statusCode).toBe(400);
  expect(ApiErrorBody.parse(badNote.json()).field).toBe('body.checkInNote');

  const edited = await asAdmin({ eventId, method: 'POST', url: api(manageTicketPaths.ticketType(eventId, 'Early Bird')), payload: { checkInNote: '', requiresAttention: false } });
  expect(TicketType.parse(edited.json())).toMatchObject({ checkInNote: '', requiresAttention: false });
  const unknown = await asAdmin({ eventId, method: 'POST', url: api(manageTicketPaths.ticketType(eventId, 'Nobody')), payload: { checkInNote: '', requiresAttention: false } });
  expect(unknown.statusCode).toBe(404);

  // A type with a checked-in ticket stays, and so does the ticket's check-in.
  const [ticket] = await insertTickets(t.database.db, [{ eventId, code: 'TYPE-CHECKED-IN-0001-XYZW', holderName: 'Kim Lee', ticketType: 'Early Bird' }]);
  await t.database.db.insert(checkIns).values({ eventId, ticketId: ticket?.id ?? '', day: 1, checkInListId: await firstCheckInListId(t.database.db, eventId), staffUserId: adminId });
  const refused = await asAdmin({ eventId, method: 'POST', url: api(manageTicketPaths.deleteTicketType(eventId, 'Early Bird')) });
  expect(refused.statusCode).toBe(409);
  expect(ApiErrorBody.parse(refused.json())).toMatchObject({ code: 'conflict', field: 'name' });
  expect(ApiErrorBody.parse(refused.json()).message).toContain('1 check-in');
  const types = await asAdmin({ eventId, method: 'GET', url });
  expect(TicketTypesResponse.parse(types.json()).ticketTypes.map((type) => type.name)).toEqual(['Early Bird']);

  await asAdmin({ eventId, method: 'POST', url, payload: { name: 'Spare', checkInNote: '', requiresAttention: false } });
  const deleted = await asAdmin({ eventId, method: 'POST', url: api(manageTicketPaths.deleteTicketType(eventId, 'Spare')) });
  expect(TicketTypesResponse.parse(deleted.json()).ticketTypes.map((type) => type.name)).toEqual(['Early Bird']);

  const activity = (await activityOf(eventId)).filter((entry) => entry.action.startsWith('ticket-type.'));
  expect(activity.map((entry) => entry.action)).toEqual(['ticket-type.deleted', 'ticket-type.created', 'ticket-type.updated', 'ticket-type.created']);
  expect(activity[2]).toMatchObject({
    actor: { kind: 'user', name: DEMO_USER.displayName },
    before: { name: 'Early Bird', checkInNote: 'Stamp the hand', requiresAttention: true },
    after: { name: 'Early Bird', checkInNote: '', requiresAttention: false },
  });
  expect(activity[0]).toMatchObject({ before: { name: 'Spare' }, after: null });
});

describe('CSV upload', () => {
  const csv = ['code,holder_name,ticket_type,days', 'UPLOAD-A-0001-QWER-TYUI,Ada Lovelace,General,all', ',Grace Hopper,VIP,1', 'UPLOAD-C-0003-ASDF-GHJK,Alan Turing,General,7', 'UPLOAD-A-0001-QWER-TYUI,Twice Listed,General,all', ''].join('\n');

  test('the preview names each rejected row with its line and why, and writes nothing', async () => {
    const eventId = await newEvent();
    const response = await asAdmin({ eventId, ...csvUpload(manageTicketPaths.importPreview(eventId), csv) });
    expect(response.statusCode, response.body).toBe(200);
    const preview = TicketImportSummary.parse(response.json());
    expect(preview).toMatchObject({ rows: 4, imported: 2, generatedCodes: 1, rejectedCount: 2 });
    expect(preview.rejected).toEqual([
      { line: 4, code: 'UPLOAD-C-0003-ASDF-GHJK', reason: 'unknown day 7 for this event (its days: 1, 2)' },
      { line: 5, code: 'UPLOAD-A-0001-QWER-TYUI', reason: 'duplicate code: already on line 2' },
    ]);
    expect(await t.database.db.select().from(tickets).where(eq(tickets.eventId, eventId))).toEqual([]);
    expect(await activityOf(eventId)).toHaveLength(1);
  });

  test('the import streams progress, then the summary; its tickets are found, and the import is one entry on the activity with its counts', async () => {
    const eventId = await newEvent();
    const response = await asAdmin({ eventId, ...csvUpload(manageTicketPaths.importTickets(eventId), csv) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/x-ndjson');
    const lines = response.body.trim().split('\n').map((line) => TicketImportEvent.parse(JSON.parse(line)));
    expect(lines.some((line) => line.type === 'progress')).toBe(true);
    const last = lines.at(-1);
    expect(last?.type === 'done' && last.summary).toMatchObject({ imported: 2, rejectedCount: 2, rejected: [{ line: 4 }, { line: 5 }] });

    const found = await asAdmin({ eventId, method: 'GET', url: api(manageTicketPaths.tickets(eventId, 'grace')) });
    expect(ManagedTicketList.parse(found.json()).tickets.map((ticket) => ticket.holderName)).toEqual(['Grace Hopper']);
    const [entry] = await activityOf(eventId);
    expect(entry).toMatchObject({ action: 'tickets.imported', before: null, after: { rows: 4, added: 2, skipped: 1, rejected: 1, isFinished: true } });

    // The same file again: every code is taken now (the generated one is new).
    const again = await asAdmin({ eventId, ...csvUpload(manageTicketPaths.importPreview(eventId), csv) });
    expect(TicketImportSummary.parse(again.json()).rejected.find((row) => row.line === 2)?.reason).toBe('duplicate code: a ticket with this code already exists');
  });

  test('the upload imports in batches of 100 rows (short transactions beside the doors), a progress line for each, still one activity entry', async () => {
    const eventId = await newEvent();
    const rows = Array.from({ length: 250 }, (_, index) => `Batch Holder ${index},General,all`);
    const response = await asAdmin({ eventId, ...csvUpload(manageTicketPaths.importTickets(eventId), ['holder_name,ticket_type,days', ...rows].join('\n')) });
    const lines = response.body.trim().split('\n').map((line) => TicketImportEvent.parse(JSON.parse(line)));
    expect(lines.flatMap((line) => (line.type === 'progress' ? [line.rows] : []))).toEqual([100, 200, 250, 250]);
    expect(lines.at(-1)).toMatchObject({ type: 'done', summary: { imported: 250, rejectedCount: 0 } });
    const activity = await activityOf(eventId);
    expect(activity.filter((entry) => entry.action === 'tickets.imported')).toMatchObject([{ after: { rows: 250, added: 250, skipped: 0, rejected: 0, isFinished: true } }]);
  });

  test('a file refused whole is a 400 from the preview and the import, and nothing is imported', async () => {
    const eventId = await newEvent();
    const broken = 'holder_name,ticket_type,days\nAda,General,all\n"Grace Hopper,VIP,1\nAlan,General,all\n';
    for (const path of [manageTicketPaths.importPreview(eventId), manageTicketPaths.importTickets(eventId)]) {
      const response = await asAdmin({ eventId, ...csvUpload(path, broken) });
      expect(response.statusCode, path).toBe(400);
      expect(ApiErrorBody.parse(response.json()).message).toContain('never closed');
    }
    const noHeader = await asAdmin({ eventId, ...csvUpload(manageTicketPaths.importTickets(eventId), 'name,type\nAda,General\n') });
    expect(noHeader.statusCode).toBe(400);
    const notCsv = await asAdmin({ eventId, method: 'POST', url: api(manageTicketPaths.importTickets(eventId)), payload: { csv: 'holder_name' } });
    expect(notCsv.statusCode).toBe(400);
    expect(await t.database.db.select().from(tickets).where(eq(tickets.eventId, eventId))).toEqual([]);
  });
});

test('a ticket is found by name or code, its holder and type changed, revoked and reinstated, each change on the activity; its QR and the PDF download', async () => {
  const eventId = await newEvent();
  await seedTickets(eventId, 'DESK');
  const byName = await asAdmin({ eventId, method: 'GET', url: api(manageTicketPaths.tickets(eventId, 'van dij')) });
  const [zoe] = ManagedTicketList.parse(byName.json()).tickets;
  expect(zoe).toMatchObject({ holderName: 'Zoë van Dijk', ticketType: 'VIP', revokedAt: null, checkIns: 0 });
  const byCode = await asAdmin({ eventId, method: 'GET', url: api(manageTicketPaths.tickets(eventId, 'desk-anna')) });
  expect(ManagedTicketList.parse(byCode.json()).tickets.map((ticket) => ticket.holderName)).toEqual(['Anna Berg']);
  const all = await asAdmin({ eventId, method: 'GET', url: api(manageTicketPaths.tickets(eventId)) });
  expect(ManagedTicketList.parse(all.json())).toMatchObject({ hasMore: false, tickets: [{ holderName: 'Anna Berg' }, { holderName: 'Zoë van Dijk' }] });
  const id = zoe?.id ?? '';

  const emptyName = await asAdmin({ eventId, method: 'POST', url: api(manageTicketPaths.ticket(eventId, id)), payload: { holderName: '  ', ticketType: 'VIP' } });
  expect(emptyName.statusCode).toBe(400);
  expect(ApiErrorBody.parse(emptyName.json()).field).toBe('body.holderName');
  const edited = await asAdmin({ eventId, method: 'POST', url: api(manageTicketPaths.ticket(eventId, id)), payload: { holderName: 'Zoe Smith', ticketType: 'Backstage' } });
  expect(ManagedTicket.parse(edited.json())).toMatchObject({ holderName: 'Zoe Smith', ticketType: 'Backstage' });
  const renamed = await asAdmin({ eventId, method: 'GET', url: api(manageTicketPaths.tickets(eventId, 'smith')) });
  expect(ManagedTicketList.parse(renamed.json()).tickets.map((ticket) => ticket.id)).toEqual([id]);
  const types = await asAdmin({ eventId, method: 'GET', url: api(manageTicketPaths.ticketTypes(eventId)) });
  expect(TicketTypesResponse.parse(types.json()).ticketTypes.map((type) => type.name)).toContain('Backstage');

  const revoked = await asAdmin({ eventId, method: 'POST', url: api(manageTicketPaths.revokeTicket(eventId, id)) });
  expect(ManagedTicket.parse(revoked.json()).revokedAt).not.toBeNull();
  const again = await asAdmin({ eventId, method: 'POST', url: api(manageTicketPaths.revokeTicket(eventId, id)) });
  expect(again.statusCode).toBe(200);
  const reinstated = await asAdmin({ eventId, method: 'POST', url: api(manageTicketPaths.reinstateTicket(eventId, id)) });
  expect(ManagedTicket.parse(reinstated.json()).revokedAt).toBeNull();

  const otherEvent = await newEvent();
  const elsewhere = await asAdmin({ eventId: otherEvent, method: 'POST', url: api(manageTicketPaths.revokeTicket(otherEvent, id)) });
  expect(elsewhere.statusCode).toBe(404);

  const activity = (await activityOf(eventId)).filter((entry) => entry.action.startsWith('ticket.'));
  expect(activity.map((entry) => entry.action)).toEqual(['ticket.reinstated', 'ticket.revoked', 'ticket.updated']);
  expect(activity[2]).toMatchObject({ before: { holderName: 'Zoë van Dijk', ticketType: 'VIP', revokedAt: null }, after: { holderName: 'Zoe Smith', ticketType: 'Backstage' } });

  const qr = await asAdmin({ eventId, method: 'GET', url: api(manageTicketPaths.ticketQr(eventId, id)) });
  expect(qr.headers['content-type']).toBe('image/png');
  expect(qr.rawPayload.subarray(1, 4).toString()).toBe('PNG');
  const pdf = await asAdmin({ eventId, method: 'GET', url: api(manageTicketPaths.ticketsPdf(eventId)) });
  expect(pdf.headers['content-type']).toBe('application/pdf');
  expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
});

test("the admin CLI's ticket commands go through the same services: its import, note, revoke and type note are on the activity as the CLI", async () => {
  const eventId = await newEvent();
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-manage-tickets-cli-'));
  const env = { DATA_DIR: dir, INIT_CWD: dir, LOG_LEVEL: 'silent', WEB_DIST_DIR: path.join(dir, 'no-web-build') };
  await writeFile(path.join(dir, 'tickets.csv'), 'code,holder_name,ticket_type,days\nCLI-DESK-0001-ABCD-EFGH,Cleo Line,General,all\n');
  const cli = (argv: string[]) => runCli(argv, { env, database: t.database });
  for (const argv of [
    ['tickets', 'import', '--event', eventId, 'tickets.csv'],
    ['tickets', 'note', 'CLI-DESK-0001-ABCD-EFGH', '--note', 'Side gate'],
    ['tickets', 'revoke', 'CLI-DESK-0001-ABCD-EFGH'],
    ['ticket-type', 'set', '--event', eventId, 'General', '--attention', 'yes'],
  ]) {
    const result = await cli(argv);
    expect(result.exitCode, result.stderr).toBe(0);
  }
  const activity = (await activityOf(eventId)).filter((entry) => entry.action !== 'event.created');
  expect(activity.map((entry) => [entry.action, entry.actor.kind])).toEqual([
    ['ticket-type.updated', 'cli'],
    ['ticket.revoked', 'cli'],
    ['ticket.updated', 'cli'],
    ['tickets.imported', 'cli'],
  ]);
  expect(activity[2]).toMatchObject({ before: { checkInNote: '' }, after: { checkInNote: 'Side gate' } });
});

test('an import gives other requests their turn while it goes: a timer set as it starts fires long before it ends', async () => {
  const eventId = await newEvent();
  const csv = ['holder_name,ticket_type,days', ...Array.from({ length: 3_000 }, (_, index) => `Turn ${index},General,all`)].join('\n');
  const batches: number[] = [];
  let batchesWhenTimerFired: number | undefined;
  setTimeout(() => {
    batchesWhenTimerFired = batches.length;
  }, 0);
  const summary = await importTicketsCsv(t.database.db, { eventId, csv, onProgress: (progress) => batches.push(progress.batches) });
  expect(summary.imported).toBe(3_000);
  // Six batches of 500 and the final report: the timer (a door's verify, on a server) ran before the second.
  expect(batches).toHaveLength(7);
  expect(batchesWhenTimerFired).toBeLessThanOrEqual(1);
});
