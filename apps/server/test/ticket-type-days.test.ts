/**
 * A ticket type's days and its rename (docs/decisions/125) on the real app and database: the
 * management API keeps the days (the event's, at least one) and renames a type with its tickets and
 * the check-in lists that name it, each change on the event's activity with before and after; the
 * door rule then denies the type's tickets on its other days — online verify, the offline upload
 * and the door list's own decision alike — with a list's days applying as well; the CLI sets both
 * through the same service.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ApiErrorBody,
  apiPaths,
  AttendeeSearchResponse,
  AuditEntryList,
  CheckInCounts,
  checkInCountsPath,
  decideCheckIn,
  DoorList,
  doorListCheckInInput,
  doorListLookupKey,
  InfoScanResponse,
  infoScanPath,
  LiveDoor,
  liveDoorPaths,
  managePaths,
  manageTicketPaths,
  OfflineScanBatchResponse,
  offlinePaths,
  offlineScanProof,
  supervisorPaths,
  TicketType,
  TicketTypesResponse,
  VerifyTicketResponse,
} from '@gatecheck/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkInLists, tickets } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_USER } from '../src/db/seed.ts';
import { cliActor } from '../src/services/audit.ts';
import { createCheckInList, listCheckInLists } from '../src/services/check-in-lists.ts';
import { createEvent, findEvent } from '../src/services/events.ts';
import { createSession } from '../src/services/sessions.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { runCli } from './cli/cli-harness.ts';
import { demoIds, userIdOf } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let organizationId: string;
let adminToken: string;
let staffToken: string;
let eventCounter = 0;

beforeAll(async () => {
  t = await createTestApp();
  organizationId = (await demoIds(t.database.db)).organizationId;
  adminToken = (await createSession(t.database.db, await userIdOf(t.database.db, DEMO_USER.username), 60_000)).token;
  staffToken = (await createSession(t.database.db, await userIdOf(t.database.db, DEMO_COLLEAGUE.username), 60_000)).token;
});
afterAll(async () => {
  await t.close();
});

/** A fresh live two-day event (Fri 4 Dec, Sat 5 Dec) that admits outside its days, with tickets. */
async function newEvent() {
  eventCounter += 1;
  const eventId = await createEvent(
    t.database.db,
    {
      organizationId,
      title: `Type days ${eventCounter}`,
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
    cliActor(),
  );
  const prefix = `TD${eventCounter}`;
  const codes = { friday: `${prefix}-FRI-0001-AAAA-BBBB`, fridayTwo: `${prefix}-FRI-0002-AAAA-BBBB`, ownDay2: `${prefix}-OWN-0003-CCCC-DDDD`, general: `${prefix}-GEN-0004-EEEE-FFFF` };
  await insertTickets(t.database.db, [
    { eventId, code: codes.friday, holderName: 'Anna Berg', ticketType: 'Friday pass' },
    { eventId, code: codes.fridayTwo, holderName: 'Ben Ode', ticketType: 'Friday pass' },
    { eventId, code: codes.ownDay2, holderName: 'Cleo Line', ticketType: 'Friday pass', admittedDays: [2] },
    { eventId, code: codes.general, holderName: 'Dana Fox', ticketType: 'General' },
  ]);
  return { eventId, codes };
}

const admin = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url: api(url), headers: bearer(adminToken), ...(payload ? { payload } : {}) });

async function verify(eventId: string, code: string, day: number, checkInListId?: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.verifyTicket),
    headers: bearer(staffToken),
    payload: { eventId, qrCode: code, day, scanId: randomUUID(), ...(checkInListId ? { checkInListId } : {}) },
  });
  expect(response.statusCode, response.body).toBe(200);
  return VerifyTicketResponse.parse(response.json());
}

async function setFridayOnly(eventId: string) {
  const response = await admin('POST', manageTicketPaths.ticketType(eventId, 'Friday pass'), { checkInNote: '', requiresAttention: false, days: [1] });
  expect(response.statusCode, response.body).toBe(200);
  return TicketType.parse(response.json());
}

test(`a ticket type limited to a day: kept and listed, refused days named on their field, and its tickets denied on its other days with the reason (${TEST_DATABASE_KIND})`, async () => {
  const { eventId, codes } = await newEvent();
  expect(await setFridayOnly(eventId)).toMatchObject({ name: 'Friday pass', days: [1], tickets: 3 });
  const listed = TicketTypesResponse.parse((await admin('GET', manageTicketPaths.ticketTypes(eventId))).json());
  expect(listed.ticketTypes.map((type) => [type.name, type.days])).toEqual([
    ['Friday pass', [1]],
    ['General', null],
  ]);

  for (const days of [[3], []]) {
    const refused = await admin('POST', manageTicketPaths.ticketType(eventId, 'Friday pass'), { checkInNote: '', requiresAttention: false, days });
    expect(refused.statusCode).toBe(400);
    expect(ApiErrorBody.parse(refused.json())).toMatchObject({ field: expect.stringMatching(/^body\.days/) });
  }
  const created = await admin('POST', manageTicketPaths.ticketTypes(eventId), { name: 'Saturday pass', checkInNote: '', requiresAttention: false, days: [2, 2] });
  expect(created.statusCode, created.body).toBe(201);
  expect(TicketType.parse(created.json())).toMatchObject({ days: [2] });

  expect(await verify(eventId, codes.friday, 1)).toMatchObject({ isValid: true });
  const saturday = await verify(eventId, codes.fridayTwo, 2);
  expect(saturday).toMatchObject({ isValid: false, reason: 'not_valid_today', message: 'This ticket is for Day 1, Fri 4 Dec.' });
  // The ticket's own days (2) and its type's (1) admit no day together.
  expect(await verify(eventId, codes.ownDay2, 2)).toMatchObject({ isValid: false, reason: 'not_valid_today', message: 'This ticket is not valid on day 2.' });
  expect(await verify(eventId, codes.general, 2)).toMatchObject({ isValid: true });

  // Back to every day: the type's tickets are admitted on day 2 again.
  const everyDay = await admin('POST', manageTicketPaths.ticketType(eventId, 'Friday pass'), { checkInNote: '', requiresAttention: false, days: null });
  expect(TicketType.parse(everyDay.json()).days).toBeNull();
  expect(await verify(eventId, codes.fridayTwo, 2)).toMatchObject({ isValid: true });
});

/** What the door's figures and a supervisor's tools say about day `day` of `eventId`, read through the API as the web reads them. */
async function doorFigures(eventId: string, day: number, code: string, checkInListId: string) {
  const counts = await admin('GET', `${checkInCountsPath(eventId, day)}?checkInListId=${checkInListId}`);
  expect(counts.statusCode, counts.body).toBe(200);
  const live = await admin('GET', liveDoorPaths.live(eventId, day));
  expect(live.statusCode, live.body).toBe(200);
  const info = await admin('POST', infoScanPath(eventId), { qrCode: code, day });
  expect(info.statusCode, info.body).toBe(200);
  const search = await admin('GET', `${supervisorPaths.attendeeSearch(eventId)}?${new URLSearchParams({ q: 'Anna Berg', day: String(day) })}`);
  expect(search.statusCode, search.body).toBe(200);
  return {
    counts: CheckInCounts.parse(counts.json()),
    live: LiveDoor.parse(live.json()),
    info: InfoScanResponse.parse(info.json()),
    attendees: AttendeeSearchResponse.parse(search.json()).attendees,
  };
}

test(`a type limited to day 2 is not in day 1's figures nor valid there for the info scan and the search, as the door denies it; on day 2 it is (${TEST_DATABASE_KIND})`, async () => {
  const { eventId, codes } = await newEvent();
  // Three 'Friday pass' tickets (one with its own days [2]) and one 'General'; the type now admits day 2 only.
  const saturdayOnly = await admin('POST', manageTicketPaths.ticketType(eventId, 'Friday pass'), { checkInNote: '', requiresAttention: false, days: [2] });
  expect(saturdayOnly.statusCode, saturdayOnly.body).toBe(200);
  const event = await findEvent(t.database.db, eventId);
  const passGate = await createCheckInList(t.database.db, event, { name: 'Pass Gate', ticketTypes: ['Friday pass'], days: null }, cliActor());
  const [firstList] = await listCheckInLists(t.database.db, eventId);
  if (!firstList) throw new Error('the event has no check-in list');
  expect(await verify(eventId, codes.friday, 1)).toMatchObject({ isValid: false, reason: 'not_valid_today' });

  const day1 = await doorFigures(eventId, 1, codes.friday, passGate.id);
  // M: only the General ticket admits day 1, at the event, its first list and the live door; the
  // Pass Gate admits nobody that day.
  expect(day1.counts).toMatchObject({ checkedIn: 0, validTickets: 1, checkInList: { id: passGate.id, validTickets: 0 } });
  expect(day1.live.validTickets).toBe(1);
  expect(day1.live.lists.map((list) => [list.name, list.validTickets])).toEqual([
    [firstList.name, 1],
    ['Pass Gate', 0],
  ]);
  expect(day1.live.ticketTypes.filter((type) => type.validTickets > 0).map((type) => type.name)).toEqual(['General']);
  // The info scan: the ticket admits day 2 only (its type's days), so no list admits it on day 1.
  expect(day1.info.ticket).toMatchObject({ code: codes.friday, admittedDays: [2] });
  expect(day1.info.lists.map((list) => [list.name, list.admitsTicket])).toEqual([
    [firstList.name, false],
    ['Pass Gate', false],
  ]);
  // The search: the days it admits, with which the web says 'Not valid on Day 1'.
  expect(day1.attendees.map((attendee) => [attendee.code, attendee.admittedDays, attendee.day])).toEqual([[codes.friday, [2], 1]]);
  // And the manual check-in from that result is denied as the scan is (the same read of the type).
  const ticketId = day1.attendees[0]?.ticketId ?? '';
  const manual = await admin('POST', supervisorPaths.manualCheckIn(eventId, ticketId), { day: 1 });
  expect(manual.statusCode, manual.body).toBe(200);
  expect(VerifyTicketResponse.parse(manual.json())).toMatchObject({ isValid: false, reason: 'not_valid_today', message: 'This ticket is for Day 2, Sat 5 Dec.' });

  expect(await verify(eventId, codes.friday, 2)).toMatchObject({ isValid: true });
  const day2 = await doorFigures(eventId, 2, codes.friday, passGate.id);
  expect(day2.counts).toMatchObject({ checkedIn: 1, validTickets: 4, checkInList: { id: passGate.id, validTickets: 3 } });
  expect(day2.live.validTickets).toBe(4);
  expect(day2.live.ticketTypes.map((type) => [type.name, type.checkedIn, type.validTickets])).toEqual([
    ['Friday pass', 1, 3],
    ['General', 0, 1],
  ]);
  expect(day2.info.lists.map((list) => [list.name, list.admitsTicket, list.checkIn !== null])).toEqual([
    [firstList.name, true, true],
    ['Pass Gate', true, false],
  ]);
  expect(day2.attendees.map((attendee) => [attendee.code, attendee.admittedDays, attendee.checkIn !== null])).toEqual([[codes.friday, [2], true]]);

  // A ticket whose own days (2) and type's (1) admit no day together admits none: in no figure, an empty list of days.
  await setFridayOnly(eventId);
  const none = await doorFigures(eventId, 2, codes.ownDay2, passGate.id);
  expect(none.counts).toMatchObject({ validTickets: 1, checkInList: { validTickets: 0 } });
  expect(none.info.ticket).toMatchObject({ code: codes.ownDay2, admittedDays: [] });
  expect(none.info.lists.every((list) => !list.admitsTicket)).toBe(true);
});

test("a type's days combine with a check-in list's days: a list for day 2 does not admit a Friday-only ticket on either day", async () => {
  const { eventId, codes } = await newEvent();
  await setFridayOnly(eventId);
  const event = await findEvent(t.database.db, eventId);
  const saturdayGate = await createCheckInList(t.database.db, event, { name: 'Saturday Gate', ticketTypes: null, days: [2] }, cliActor());
  const onDay1 = await verify(eventId, codes.friday, 1, saturdayGate.id);
  expect(onDay1).toMatchObject({ isValid: false, reason: 'not_on_list' });
  const onDay2 = await verify(eventId, codes.friday, 2, saturdayGate.id);
  expect(onDay2).toMatchObject({ isValid: false, reason: 'not_valid_today', message: 'This ticket is for Day 1, Fri 4 Dec.' });
});

test("the door list carries a type's days and the device's decision denies as the server does; the offline upload of such an admission is rejected with the reason", async () => {
  const { eventId, codes } = await newEvent();
  await setFridayOnly(eventId);
  const response = await t.app.inject({ method: 'GET', url: api(offlinePaths.doorList(eventId, 2)), headers: bearer(staffToken) });
  expect(response.statusCode, response.body).toBe(200);
  const doorList = DoorList.parse(response.json());
  expect(doorList.ticketTypes).toContainEqual({ name: 'Friday pass', checkInNote: '', requiresAttention: false, days: [1] });
  const key = await doorListLookupKey(eventId, codes.fridayTwo);
  const entry = doorList.tickets.find((candidate) => candidate.lookupKey === key) ?? null;
  expect(entry).not.toBeNull();
  const decision = decideCheckIn(doorListCheckInInput(doorList, 2, entry, new Date()));
  expect(decision).toMatchObject({ outcome: 'denied', reason: 'not_valid_today', message: 'This ticket is for Day 1, Fri 4 Dec.' });

  const item = { scanId: randomUUID(), code: codes.fridayTwo, scannedAt: new Date(Date.now() - 60_000).toISOString(), deviceId: 'gate-7', verdict: 'approved' as const };
  const upload = await t.app.inject({
    method: 'POST',
    url: api(offlinePaths.offlineScans(eventId, 2)),
    headers: bearer(staffToken),
    payload: { scans: [{ ...item, sessionProof: await offlineScanProof(staffToken, item) }] },
  });
  expect(upload.statusCode, upload.body).toBe(200);
  const [answer] = OfflineScanBatchResponse.parse(upload.json()).results;
  expect(answer).toMatchObject({ scanId: item.scanId, status: 'rejected', reason: 'not_valid_today' });
});

test('a rename carries the tickets and the lists that name the type; a name another type has is refused on its field; both on the activity with before and after', async () => {
  const { eventId, codes } = await newEvent();
  const event = await findEvent(t.database.db, eventId);
  await createCheckInList(t.database.db, event, { name: 'Early Gate', ticketTypes: ['Friday pass', 'General'], days: null }, cliActor());
  const taken = await admin('POST', manageTicketPaths.ticketType(eventId, 'Friday pass'), { name: 'General', checkInNote: '', requiresAttention: false });
  expect(taken.statusCode).toBe(409);
  expect(ApiErrorBody.parse(taken.json())).toMatchObject({ code: 'conflict', field: 'body.name' });

  const renamed = await admin('POST', manageTicketPaths.ticketType(eventId, 'Friday pass'), { name: '  Friday   Night ', checkInNote: 'Blue band', requiresAttention: false, days: [1] });
  expect(renamed.statusCode, renamed.body).toBe(200);
  expect(TicketType.parse(renamed.json())).toMatchObject({ name: 'Friday Night', checkInNote: 'Blue band', days: [1], tickets: 3 });
  const carried = await t.database.db.select({ ticketType: tickets.ticketType }).from(tickets).where(eq(tickets.eventId, eventId));
  expect(carried.map((row) => row.ticketType).sort()).toEqual(['Friday Night', 'Friday Night', 'Friday Night', 'General']);
  const [list] = await t.database.db.select({ ticketTypes: checkInLists.ticketTypes }).from(checkInLists).where(eq(checkInLists.name, 'Early Gate'));
  expect(list?.ticketTypes).toEqual(['Friday Night', 'General']);
  const names = TicketTypesResponse.parse((await admin('GET', manageTicketPaths.ticketTypes(eventId))).json()).ticketTypes.map((type) => type.name);
  expect(names).toEqual(['Friday Night', 'General']);
  // The ticket keeps the door's answer under its type's new name.
  expect(await verify(eventId, codes.friday, 1)).toMatchObject({ isValid: true, ticketType: 'Friday Night' });
  const gone = await admin('POST', manageTicketPaths.ticketType(eventId, 'Friday pass'), { checkInNote: '', requiresAttention: false });
  expect(gone.statusCode).toBe(404);

  const activity = AuditEntryList.parse((await admin('GET', managePaths.eventActivity(eventId))).json()).filter((entry) => entry.action.startsWith('ticket-type.'));
  expect(activity[0]).toMatchObject({
    action: 'ticket-type.updated',
    before: { name: 'Friday pass', checkInNote: '', requiresAttention: false, days: null },
    after: { name: 'Friday Night', checkInNote: 'Blue band', requiresAttention: false, days: [1] },
  });
});

test("the CLI's ticket-type set limits the days and renames through the same service, on the activity as the CLI", async () => {
  const { eventId, codes } = await newEvent();
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-type-days-cli-'));
  const env = { DATA_DIR: dir, INIT_CWD: dir, LOG_LEVEL: 'silent', WEB_DIST_DIR: path.join(dir, 'no-web-build') };
  const cli = (argv: string[]) => runCli(argv, { env, database: t.database });
  const set = await cli(['ticket-type', 'set', '--event', eventId, 'Friday pass', '--days', '1', '--rename', 'Friday only']);
  expect(set.exitCode, set.stderr).toBe(0);
  expect(set.stdout).toContain('Friday only (3 tickets): no attention; no note; days 1');
  expect(await verify(eventId, codes.fridayTwo, 2)).toMatchObject({ isValid: false, reason: 'not_valid_today' });
  const both = await cli(['ticket-type', 'set', '--event', eventId, 'Friday only', '--days', '1', '--all-days']);
  expect(both.exitCode).not.toBe(0);
  expect(both.stderr).toContain('Give either --days or --all-days, not both');
  const allDays = await cli(['ticket-type', 'set', '--event', eventId, 'Friday only', '--all-days']);
  expect(allDays.stdout).toContain('every day');
  const activity = AuditEntryList.parse((await admin('GET', managePaths.eventActivity(eventId))).json()).filter((entry) => entry.action.startsWith('ticket-type.'));
  expect(activity.map((entry) => [entry.actor.kind, entry.before && 'name' in entry.before ? entry.before.name : null])).toEqual([
    ['cli', 'Friday only'],
    ['cli', 'Friday pass'],
  ]);
});

test(`two types renamed at once to the same new name: one 200, the other 409 on its name, never a 500 (${TEST_DATABASE_KIND}, where PostgreSQL runs them truly at once)`, async () => {
  for (let round = 0; round < 4; round += 1) {
    const { eventId } = await newEvent();
    const answers = await Promise.all(
      ['Friday pass', 'General'].map((name) => admin('POST', manageTicketPaths.ticketType(eventId, name), { name: 'Weekend', checkInNote: '', requiresAttention: false })),
    );
    expect(answers.map((answer) => answer.statusCode).sort(), answers.map((answer) => answer.body).join('\n')).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409);
    expect(ApiErrorBody.parse(refused?.json())).toMatchObject({ code: 'conflict', field: 'body.name' });
    const names = TicketTypesResponse.parse((await admin('GET', manageTicketPaths.ticketTypes(eventId))).json()).ticketTypes.map((type) => type.name);
    expect(names.sort()).toEqual(names.includes('Friday pass') ? ['Friday pass', 'Weekend'] : ['General', 'Weekend']);
  }
});
