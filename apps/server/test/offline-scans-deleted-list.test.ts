/**
 * Offline scans made at a check-in list that the organizer deleted before the phone could send them
 * (docs/decisions/153), through the real app on the real database. The delete saw no check-in at the
 * list (the server could not see the phone's), so it went through; the upload naming the deleted
 * list is taken, each admission recorded at the first of the event's lists that admits the ticket
 * that day, exactly once (a re-send answers the same and writes nothing), a ticket already in there
 * a conflict. A list id the event never had is still refused for the whole batch (400 naming
 * `checkInListId`), nothing written.
 */
import { randomUUID } from 'node:crypto';
import { ApiErrorBody, checkInListPath, devicePaths, offlinePaths, OfflineScanBatchResponse } from '@gatecheck/contract';
import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkIns, offlineScans, scanLog, sessions, tickets } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { cliActor } from '../src/services/audit.ts';
import { createCheckInList, type CheckInListRow, resolveCheckInList } from '../src/services/check-in-lists.ts';
import { findEvent } from '../src/services/events.ts';
import { recordOfflineScans } from '../src/services/offline-scans.ts';
import { hashToken } from '../src/services/sessions.ts';
import { updateTicketType } from '../src/services/ticket-types.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { enrollDevice } from './helpers/devices.ts';
import { demoIds, firstCheckInListId } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const DAY = DEMO_TODAY_DAY_NUMBER;
let t: TestApp;
let eventId: string;
let allTicketsId: string;
let staffToken: string;
let adminToken: string;
/** 'General door' (General Admission only), first of the event's lists. */
let generalDoor: CheckInListRow;

beforeAll(async () => {
  t = await createTestApp();
  eventId = (await demoIds(t.database.db)).liveEventId;
  allTicketsId = await firstCheckInListId(t.database.db, eventId);
  staffToken = await login(t.app, DEMO_COLLEAGUE.username, DEMO_COLLEAGUE.password);
  adminToken = await login(t.app, DEMO_USER.username, DEMO_USER.password);
  generalDoor = await newList('General door', { ticketTypes: ['General Admission'], position: 1 });
});
afterAll(async () => {
  await t.close();
});

async function newList(name: string, settings: { ticketTypes: string[] | null; position?: number; allowsReentry?: boolean }): Promise<CheckInListRow> {
  const event = await findEvent(t.database.db, eventId);
  return createCheckInList(t.database.db, event, { name, days: null, ...settings }, cliActor());
}

async function newTicket(ticketType: string): Promise<string> {
  const code = `DELETED-LIST-${randomUUID()}`;
  await insertTickets(t.database.db, [{ code, eventId, holderName: `Holder ${code}`, ticketType }]);
  return code;
}

/** An offline admission made a minute ago (or `agoMs` ago). */
function admission(code: string, agoMs = 60_000) {
  return { scanId: randomUUID(), code, scannedAt: new Date(Date.now() - agoMs).toISOString(), deviceId: 'vip-phone', verdict: 'approved' };
}

/** A ticket type of its own, so the lists made for one test admit none of the others' tickets. */
function uniqueTypeName(name: string): string {
  return `${name} ${randomUUID().slice(0, 8)}`;
}

function upload(checkInListId: string, scans: unknown[], token = staffToken) {
  return t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(eventId, DAY)), headers: bearer(token), payload: { checkInListId, scans } });
}

async function deleteList(list: CheckInListRow): Promise<void> {
  const response = await t.app.inject({ method: 'DELETE', url: api(checkInListPath(eventId, list.id)), headers: bearer(adminToken) });
  expect(response.statusCode, response.body).toBe(200);
}

async function checkInListsOf(code: string): Promise<string[]> {
  return (await checkInsOf(code)).map((row) => row.checkInListId);
}

/** The ticket's check-ins not undone: at which list, and whether its guest has left. */
async function checkInsOf(code: string): Promise<{ checkInListId: string; hasExited: boolean }[]> {
  const rows = await t.database.db
    .select({ checkInListId: checkIns.checkInListId, exitedAt: checkIns.exitedAt })
    .from(checkIns)
    .innerJoin(tickets, eq(tickets.id, checkIns.ticketId))
    .where(and(eq(tickets.code, code), isNull(checkIns.undoneAt)));
  return rows.map((row) => ({ checkInListId: row.checkInListId, hasExited: row.exitedAt !== null }));
}

async function rowCounts(): Promise<{ checkIns: number; scanLog: number; offlineScans: number }> {
  const db = t.database.db;
  const [c] = await db.select({ n: count() }).from(checkIns).where(eq(checkIns.eventId, eventId));
  const [l] = await db.select({ n: count() }).from(scanLog).where(eq(scanLog.eventId, eventId));
  const [o] = await db.select({ n: count() }).from(offlineScans).where(eq(offlineScans.eventId, eventId));
  return { checkIns: c?.n ?? 0, scanLog: l?.n ?? 0, offlineScans: o?.n ?? 0 };
}

test(`admissions made offline at a list deleted since are recorded once, each at the first list admitting its ticket (${TEST_DATABASE_KIND})`, async () => {
  const vipGate = await newList(`VIP Gate ${randomUUID().slice(0, 8)}`, { ticketTypes: null });
  const vip = await newTicket('VIP');
  const general = await newTicket('General Admission');
  const scans = [admission(vip), admission(general)];
  // The phone admitted both at the VIP Gate while offline; the organizer deleted the list meanwhile.
  await deleteList(vipGate);

  const response = await upload(vipGate.id, scans);
  expect(response.statusCode, response.body).toBe(200);
  const answer = OfflineScanBatchResponse.parse(response.json());
  expect(answer.results.map((result) => [result.scanId, result.status])).toEqual(scans.map((scan) => [scan.scanId, 'recorded']));
  // The VIP ticket at 'All tickets' (the General door does not take it), the general one at the General door.
  expect(await checkInListsOf(vip)).toEqual([allTicketsId]);
  expect(await checkInListsOf(general)).toEqual([generalDoor.id]);
  const logged = await t.database.db
    .select({ verdict: scanLog.verdict, checkInListId: scanLog.checkInListId })
    .from(scanLog)
    .where(and(eq(scanLog.eventId, eventId), eq(scanLog.scanId, scans[0]!.scanId)));
  expect(logged).toEqual([{ verdict: 'approved', checkInListId: allTicketsId }]);

  // Sent again (the answer was lost): the same answers, nothing written twice.
  const before = await rowCounts();
  const again = await upload(vipGate.id, scans);
  expect(again.statusCode, again.body).toBe(200);
  expect(OfflineScanBatchResponse.parse(again.json()).results).toEqual(answer.results);
  expect(await rowCounts()).toEqual(before);
});

test(`a ticket already checked in where the deleted list's scan lands is a conflict, one check-in (${TEST_DATABASE_KIND})`, async () => {
  const vipGate = await newList(`VIP Gate ${randomUUID().slice(0, 8)}`, { ticketTypes: ['VIP'] });
  const vip = await newTicket('VIP');
  const scan = admission(vip);
  await deleteList(vipGate);
  // Meanwhile the guest was checked in online at 'All tickets'.
  const online = await upload(allTicketsId, [{ ...admission(vip), scannedAt: new Date(Date.now() - 120_000).toISOString() }]);
  expect(online.statusCode, online.body).toBe(200);

  const response = await upload(vipGate.id, [scan]);
  expect(response.statusCode, response.body).toBe(200);
  expect(OfflineScanBatchResponse.parse(response.json()).results).toMatchObject([{ scanId: scan.scanId, status: 'conflict' }]);
  expect(await checkInListsOf(vip)).toEqual([allTicketsId]);
});

test(`a door device bound to the deleted list has the scans it queued there taken (${TEST_DATABASE_KIND})`, async () => {
  const vipGate = await newList(`VIP Gate ${randomUUID().slice(0, 8)}`, { ticketTypes: ['VIP'] });
  const phone = await enrollDevice(t.app, adminToken, eventId, `VIP phone ${randomUUID().slice(0, 8)}`);
  const bound = await t.app.inject({ method: 'POST', url: api(devicePaths.updateDevice(phone.device.id)), headers: bearer(adminToken), payload: { checkInListId: vipGate.id } });
  expect(bound.statusCode, bound.body).toBe(200);
  const vip = await newTicket('VIP');
  const scan = admission(vip);
  await deleteList(vipGate);

  const response = await upload(vipGate.id, [scan], phone.token);
  expect(response.statusCode, response.body).toBe(200);
  expect(OfflineScanBatchResponse.parse(response.json()).results).toMatchObject([{ scanId: scan.scanId, status: 'recorded' }]);
  expect(await checkInListsOf(vip)).toEqual([allTicketsId]);
});

test(`a list the event never had still refuses the whole batch, nothing written (${TEST_DATABASE_KIND})`, async () => {
  const vip = await newTicket('VIP');
  const before = await rowCounts();
  const response = await upload(randomUUID(), [admission(vip)]);
  expect(response.statusCode, response.body).toBe(400);
  expect(ApiErrorBody.parse(response.json())).toMatchObject({ code: 'bad_request', field: 'checkInListId' });
  expect(await rowCounts()).toEqual(before);
});

test(`an upload that read the list before its delete records its items where one naming the deleted list would (${TEST_DATABASE_KIND})`, async () => {
  const vipGate = await newList(`VIP Gate ${randomUUID().slice(0, 8)}`, { ticketTypes: null });
  const vip = await newTicket('VIP');
  const scan = admission(vip);
  const db = t.database.db;
  const [session] = await db.select({ id: sessions.id, userId: sessions.userId }).from(sessions).where(eq(sessions.tokenHash, hashToken(staffToken)));
  if (!session) throw new Error('no session');
  // The route has read the list (still there); the delete commits before the item's transaction.
  const place = { day: DAY, checkInList: await resolveCheckInList(db, eventId, vipGate.id) };
  await deleteList(vipGate);

  const answer = await recordOfflineScans(db, { userId: session.userId, sessionId: session.id }, await findEvent(db, eventId), place, [scan], new Date());
  expect(answer.results).toMatchObject([{ scanId: scan.scanId, status: 'recorded' }]);
  expect(await checkInListsOf(vip)).toEqual([allTicketsId]);
});

test(`a ticket type renamed after the delete: the admission lands at the list admitting it and is judged by that list, not refused as 'valid at' that list (${TEST_DATABASE_KIND})`, async () => {
  const crew = uniqueTypeName('Crew');
  const code = await newTicket(crew);
  const crewGate = await newList(`Crew gate ${randomUUID().slice(0, 8)}`, { ticketTypes: [crew] });
  await deleteList(crewGate);
  // The deleted list's snapshot still names the old type; 'All tickets' admits the new name.
  await updateTicketType(t.database.db, { eventId, name: crew, change: { checkInNote: 'Crew wristband' }, newName: `${crew} renamed` });

  const response = await upload(crewGate.id, [admission(code)]);
  expect(response.statusCode, response.body).toBe(200);
  expect(OfflineScanBatchResponse.parse(response.json()).results).toMatchObject([{ status: 'recorded' }]);
  expect(await checkInListsOf(code)).toEqual([allTicketsId]);
});

test(`two phones' admissions of one ticket at the deleted list land at the same list even when a list admitting it is added between the uploads: a conflict, one check-in (${TEST_DATABASE_KIND})`, async () => {
  const crew = uniqueTypeName('Crew');
  const code = await newTicket(crew);
  const crewGate = await newList(`Crew gate ${randomUUID().slice(0, 8)}`, { ticketTypes: [crew] });
  await deleteList(crewGate);
  const first = await upload(crewGate.id, [{ ...admission(code, 120_000), deviceId: 'phone-a' }]);
  expect(OfflineScanBatchResponse.parse(first.json()).results).toMatchObject([{ status: 'recorded' }]);
  expect(await checkInListsOf(code)).toEqual([allTicketsId]);
  // The organizer makes a new crew entrance before 'All tickets' (after the General door, first).
  await newList(`Crew entrance ${randomUUID().slice(0, 8)}`, { ticketTypes: [crew], position: 2 });

  const second = await upload(crewGate.id, [{ ...admission(code), deviceId: 'phone-b' }]);
  expect(second.statusCode, second.body).toBe(200);
  expect(OfflineScanBatchResponse.parse(second.json()).results).toMatchObject([{ status: 'conflict' }]);
  expect(await checkInListsOf(code)).toEqual([allTicketsId]);
});

test(`an exit at the deleted list sent in a later batch than its entry is recorded at the list the entry landed at, even when a list admitting the ticket is added between (${TEST_DATABASE_KIND})`, async () => {
  const crew = uniqueTypeName('Crew');
  const code = await newTicket(crew);
  const crewHall = await newList(`Crew hall ${randomUUID().slice(0, 8)}`, { ticketTypes: [crew], position: 2, allowsReentry: true });
  const crewGate = await newList(`Crew gate ${randomUUID().slice(0, 8)}`, { ticketTypes: [crew], allowsReentry: true });
  await deleteList(crewGate);
  const entered = await upload(crewGate.id, [admission(code, 120_000)]);
  expect(OfflineScanBatchResponse.parse(entered.json()).results).toMatchObject([{ status: 'recorded' }]);
  expect(await checkInsOf(code)).toEqual([{ checkInListId: crewHall.id, hasExited: false }]);
  await newList(`Crew entrance ${randomUUID().slice(0, 8)}`, { ticketTypes: [crew], position: 2, allowsReentry: true });

  const left = await upload(crewGate.id, [{ ...admission(code), direction: 'exit' }]);
  expect(left.statusCode, left.body).toBe(200);
  expect(OfflineScanBatchResponse.parse(left.json()).results).toMatchObject([{ status: 'recorded' }]);
  expect(await checkInsOf(code)).toEqual([{ checkInListId: crewHall.id, hasExited: true }]);
});

// Last: it narrows 'All tickets' for the rest of this file.
test(`the deleted list was the only one admitting the ticket: the admission is judged by the list it was made at and kept at the event's first list (${TEST_DATABASE_KIND})`, async () => {
  const narrowed = await t.app.inject({ method: 'PATCH', url: api(checkInListPath(eventId, allTicketsId)), headers: bearer(adminToken), payload: { ticketTypes: ['General Admission'] } });
  expect(narrowed.statusCode, narrowed.body).toBe(200);
  const vipGate = await newList(`VIP Gate ${randomUUID().slice(0, 8)}`, { ticketTypes: ['VIP'] });
  const vip = await newTicket('VIP');
  const scan = admission(vip);
  await deleteList(vipGate);

  const response = await upload(vipGate.id, [scan]);
  expect(response.statusCode, response.body).toBe(200);
  expect(OfflineScanBatchResponse.parse(response.json()).results).toMatchObject([{ scanId: scan.scanId, status: 'recorded' }]);
  expect(await checkInListsOf(vip)).toEqual([generalDoor.id]);
});
