/**
 * An offline exit the phone denied 'Not inside' because it did not know the guest was inside
 * (docs/decisions/150), on the real app and database, PGlite and PostgreSQL: the upload decides it
 * with the server's knowledge. A guest who came in at another gate is let out (exit recorded,
 * inside-now down, the place freed, the next entry a re-entry), answered `recorded` with
 * `isExitRecorded`, the same again on a re-send with nothing written twice, a venue's place freed
 * too; older than the guest's latest movement it is history; a guest who was never inside, or had
 * already left, stays a logged denial; an exit at a list without re-entry stays refused, nothing
 * written; an exit the phone knew was inside (queued approved) is recorded as before. The phone's
 * online exit of the same scan, recorded before it gave up, is answered `duplicate` with
 * `isExitRecorded`; a scan time before the session began is judged at its start (decision 088).
 */
import { randomUUID } from 'node:crypto';
import {
  apiPaths,
  CheckInCounts,
  CheckInList,
  checkInCountsPath,
  checkInListsPath,
  ManagedEvent,
  managePaths,
  OfflineScanBatchResponse,
  offlinePaths,
  VerifyTicketResponse,
  wallClock,
} from '@gatecheck/contract';
import { and, count, desc, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkInListSlots, checkInMovements, checkIns, eventSlots, scanLog, sessions, users } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_SUPERVISOR, DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { demoIds } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, type TestApp } from './helpers/test-app.ts';

const DAY = DEMO_TODAY_DAY_NUMBER;
const MINUTE = 60_000;
let t: TestApp;
let ids: Awaited<ReturnType<typeof demoIds>>;
let adminToken: string;
/** Gate A: online. */
let gateAToken: string;
/** Phone B: offline, uploads later. */
let phoneBToken: string;
/** How far the app's clock runs ahead of the real one: each test moves it to order its scans. */
let clockAheadMs = 0;
/** The real time the app's clock starts from in a test (after every sign-in, so scans are in the sessions). */
let base = 0;

beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(Date.now() + clockAheadMs) });
  ids = await demoIds(t.database.db);
  adminToken = await login(t.app, DEMO_USER.username, DEMO_USER.password);
  gateAToken = await login(t.app, DEMO_SUPERVISOR.username, DEMO_SUPERVISOR.password);
  phoneBToken = await login(t.app, DEMO_COLLEAGUE.username, DEMO_COLLEAGUE.password);
});
afterAll(async () => {
  await t.close();
});

/** Sets the app's clock to `minutes` after the test's start; returns that time. */
function at(minutes: number): Date {
  clockAheadMs = base - Date.now() + minutes * MINUTE;
  return new Date(base + minutes * MINUTE);
}

async function setUp(rules: Record<string, unknown>) {
  clockAheadMs = 0;
  base = Date.now();
  const created = await t.app.inject({ method: 'POST', url: api(checkInListsPath(ids.liveEventId)), headers: bearer(adminToken), payload: { name: `Hall ${randomUUID().slice(0, 8)}`, ...rules } });
  expect(created.statusCode, created.body).toBe(201);
  const code = `OFFEXIT-${randomUUID().slice(0, 20)}`;
  const [ticket] = await insertTickets(t.database.db, [{ code, eventId: ids.liveEventId, holderName: `Holder ${code}`, ticketType: 'General Admission' }]);
  if (!ticket) throw new Error('no ticket');
  return { hall: CheckInList.parse(created.json()), guest: { id: ticket.id, code } };
}

/** An online scan at gate A. */
async function scanAtGateA(guest: { code: string }, hall: CheckInList, direction?: 'exit') {
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.verifyTicket),
    headers: bearer(gateAToken),
    payload: { eventId: ids.liveEventId, qrCode: guest.code, day: DAY, checkInListId: hall.id, scanId: randomUUID(), ...(direction ? { direction } : {}) },
  });
  expect(response.statusCode, response.body).toBe(200);
  return VerifyTicketResponse.parse(response.json());
}

/** Phone B uploads the exit it denied 'Not inside' offline, as the app queues it. */
async function uploadDeniedExit(hall: CheckInList, exit: { scanId: string; code: string; scannedAt: Date }) {
  const scans = [{ ...exit, scannedAt: exit.scannedAt.toISOString(), deviceId: 'phone-b', verdict: 'denied', reason: 'not_inside', direction: 'exit' }];
  const response = await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(ids.liveEventId, DAY)), headers: bearer(phoneBToken), payload: { checkInListId: hall.id, scans } });
  expect(response.statusCode, response.body).toBe(200);
  return OfflineScanBatchResponse.parse(response.json()).results;
}

/** The list's inside-now, the places held there, the guest's movements and scan-log rows. */
async function door(hall: CheckInList, guest: { id: string; code: string }) {
  const response = await t.app.inject({ method: 'GET', url: api(`${checkInCountsPath(ids.liveEventId, DAY)}?checkInListId=${hall.id}`), headers: bearer(gateAToken) });
  const counted = CheckInCounts.parse(response.json()).checkInList;
  const [held] = await t.database.db.select({ value: count() }).from(checkInListSlots).where(and(eq(checkInListSlots.checkInListId, hall.id), isNotNull(checkInListSlots.checkInId)));
  const [moved] = await t.database.db
    .select({ value: count() })
    .from(checkInMovements)
    .innerJoin(checkIns, and(eq(checkIns.eventId, checkInMovements.eventId), eq(checkIns.id, checkInMovements.checkInId)))
    .where(eq(checkIns.ticketId, guest.id));
  const [logged] = await t.database.db.select({ value: count() }).from(scanLog).where(eq(scanLog.code, guest.code));
  return { insideNow: counted?.insideNow, placesHeld: held?.value ?? 0, movements: moved?.value ?? 0, logged: logged?.value ?? 0 };
}

async function lastLogged(guest: { code: string }) {
  const [row] = await t.database.db.select({ verdict: scanLog.verdict, reason: scanLog.reason, source: scanLog.source }).from(scanLog).where(eq(scanLog.code, guest.code)).orderBy(desc(scanLog.scannedAt)).limit(1);
  return row;
}

async function checkInsOf(guest: { id: string }) {
  return t.database.db.select({ exitedAt: checkIns.exitedAt, undoneAt: checkIns.undoneAt }).from(checkIns).where(eq(checkIns.ticketId, guest.id));
}

describe('an offline exit the phone denied "Not inside" is decided by the server at upload', () => {
  test('the guest entered at gate A; phone B, offline and unaware, scanned them out: the exit is recorded, the place freed, the next entry a re-entry; a re-send answers the same and writes nothing', async () => {
    const { hall, guest } = await setUp({ allowsReentry: true, capacity: 1 });
    at(1);
    expect(await scanAtGateA(guest, hall)).toMatchObject({ isValid: true, insideNow: 1, capacity: 1 });
    expect(await door(hall, guest)).toMatchObject({ insideNow: 1, placesHeld: 1, movements: 0 });

    const exit = { scanId: randomUUID(), code: guest.code, scannedAt: new Date(base + 2 * MINUTE) };
    at(3);
    const [answer] = await uploadDeniedExit(hall, exit);
    expect(answer).toEqual({ index: 0, scanId: exit.scanId, status: 'recorded', isExitRecorded: true, checkedInAt: exit.scannedAt.toISOString(), checkedInBy: DEMO_COLLEAGUE.displayName });
    const out = await door(hall, guest);
    expect(out).toMatchObject({ insideNow: 0, placesHeld: 0, movements: 1 });
    expect(await checkInsOf(guest)).toEqual([{ exitedAt: exit.scannedAt, undoneAt: null }]);
    expect(await lastLogged(guest)).toEqual({ verdict: 'exited', reason: null, source: 'offline' });

    // The answer was lost; the phone sends the same item again: the same answer, nothing written.
    expect(await uploadDeniedExit(hall, exit)).toEqual([answer]);
    expect(await door(hall, guest)).toEqual(out);

    // The guest comes back: a re-entry at the list that was full while the server kept them inside.
    at(4);
    expect(await scanAtGateA(guest, hall)).toMatchObject({ isValid: true, insideNow: 1, capacity: 1 });
    expect(await door(hall, guest)).toMatchObject({ insideNow: 1, placesHeld: 1, movements: 2 });
  });

  test("phone B's online exit reached the server before it gave up and denied the same scan offline: the upload answers duplicate with the exit's time, isExitRecorded, nothing written again", async () => {
    const { hall, guest } = await setUp({ allowsReentry: true, capacity: 5 });
    at(1);
    await scanAtGateA(guest, hall);
    const scanId = randomUUID();
    at(2);
    const online = await t.app.inject({
      method: 'POST',
      url: api(apiPaths.verifyTicket),
      headers: bearer(phoneBToken),
      payload: { eventId: ids.liveEventId, qrCode: guest.code, day: DAY, checkInListId: hall.id, scanId, direction: 'exit' },
    });
    const exited = VerifyTicketResponse.parse(online.json());
    expect(exited).toMatchObject({ isValid: true, direction: 'exit' });
    const after = await door(hall, guest);
    expect(after).toMatchObject({ insideNow: 0, movements: 1 });
    at(3);
    expect(await uploadDeniedExit(hall, { scanId, code: guest.code, scannedAt: new Date(base + 2 * MINUTE) })).toEqual([
      { index: 0, scanId, status: 'duplicate', isExitRecorded: true, checkedInAt: exited.isValid ? exited.exitedAt : '', checkedInBy: DEMO_COLLEAGUE.displayName },
    ]);
    expect(await door(hall, guest)).toEqual(after);
  });

  test("a denied exit claiming a time before its session began is judged at the session's start (decision 088): the guest was inside then, so the exit is recorded at that start, logged scanned_before_session", async () => {
    const { hall, guest } = await setUp({ allowsReentry: true, capacity: 5 });
    at(0);
    await scanAtGateA(guest, hall);
    const [entered] = await t.database.db.select({ checkedInAt: checkIns.checkedInAt }).from(checkIns).where(eq(checkIns.ticketId, guest.id));
    // Phone B signs in again after the entry: its new session's start is after the guest came in.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const freshToken = await login(t.app, DEMO_COLLEAGUE.username, DEMO_COLLEAGUE.password);
    const [session] = await t.database.db
      .select({ createdAt: sessions.createdAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(users.username, DEMO_COLLEAGUE.username))
      .orderBy(desc(sessions.createdAt))
      .limit(1);
    if (!session || !entered) throw new Error('no session or check-in');
    expect(session.createdAt.getTime()).toBeGreaterThan(entered.checkedInAt.getTime());
    const scanId = randomUUID();
    const scans = [{ scanId, code: guest.code, scannedAt: new Date(base - 60 * MINUTE).toISOString(), deviceId: 'phone-b', verdict: 'denied', reason: 'not_inside', direction: 'exit' }];
    at(1);
    const response = await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(ids.liveEventId, DAY)), headers: bearer(freshToken), payload: { checkInListId: hall.id, scans } });
    expect(response.statusCode, response.body).toBe(200);
    expect(OfflineScanBatchResponse.parse(response.json()).results).toEqual([
      { index: 0, scanId, status: 'recorded', isExitRecorded: true, checkedInAt: session.createdAt.toISOString(), checkedInBy: DEMO_COLLEAGUE.displayName },
    ]);
    expect(await checkInsOf(guest)).toEqual([{ exitedAt: session.createdAt, undoneAt: null }]);
    expect(await lastLogged(guest)).toEqual({ verdict: 'exited', reason: 'scanned_before_session', source: 'offline' });
    expect(await door(hall, guest)).toMatchObject({ insideNow: 0, placesHeld: 0, movements: 1 });
  });

  test("older than the guest's latest movement (they left at gate A after it) the exit is recorded as history: who is inside and the places stay as gate A left them", async () => {
    const { hall, guest } = await setUp({ allowsReentry: true, capacity: 5 });
    at(1);
    await scanAtGateA(guest, hall);
    const exit = { scanId: randomUUID(), code: guest.code, scannedAt: new Date(base + 2 * MINUTE) };
    at(3);
    const left = await scanAtGateA(guest, hall, 'exit');
    expect(left).toMatchObject({ isValid: true, direction: 'exit' });
    const before = await door(hall, guest);
    at(4);
    expect(await uploadDeniedExit(hall, exit)).toMatchObject([{ status: 'recorded', isExitRecorded: true, checkedInAt: exit.scannedAt.toISOString() }]);
    expect(await door(hall, guest)).toEqual({ ...before, movements: before.movements + 1, logged: before.logged + 1 });
    expect(await checkInsOf(guest)).toEqual([{ exitedAt: new Date(left.isValid ? (left.exitedAt ?? '') : ''), undoneAt: null }]);
  });

  test('an exit the phone knew was inside (queued approved) is still recorded as before, without the flag', async () => {
    const { hall, guest } = await setUp({ allowsReentry: true, capacity: 5 });
    at(1);
    await scanAtGateA(guest, hall);
    at(3);
    const scans = [{ scanId: randomUUID(), code: guest.code, scannedAt: new Date(base + 2 * MINUTE).toISOString(), deviceId: 'phone-b', verdict: 'approved', direction: 'exit' }];
    const response = await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(ids.liveEventId, DAY)), headers: bearer(phoneBToken), payload: { checkInListId: hall.id, scans } });
    const [answer] = OfflineScanBatchResponse.parse(response.json()).results;
    expect(answer).toMatchObject({ status: 'recorded', checkedInAt: scans[0]?.scannedAt });
    expect(answer?.isExitRecorded).toBeUndefined();
    expect(await door(hall, guest)).toMatchObject({ insideNow: 0, placesHeld: 0, movements: 1 });
  });

  test('a guest who was never inside stays a logged denial: no check-in, nothing recorded', async () => {
    const { hall, guest } = await setUp({ allowsReentry: true, capacity: 5 });
    const exit = { scanId: randomUUID(), code: guest.code, scannedAt: at(1) };
    at(2);
    expect(await uploadDeniedExit(hall, exit)).toEqual([{ index: 0, scanId: exit.scanId, status: 'recorded' }]);
    expect(await checkInsOf(guest)).toEqual([]);
    expect(await door(hall, guest)).toMatchObject({ insideNow: 0, placesHeld: 0, movements: 0, logged: 1 });
    expect(await lastLogged(guest)).toEqual({ verdict: 'denied', reason: 'not_inside', source: 'offline' });
  });

  test('a guest who had already left at gate A before the scan stays out: a logged denial, no second exit', async () => {
    const { hall, guest } = await setUp({ allowsReentry: true });
    at(1);
    await scanAtGateA(guest, hall);
    at(2);
    const left = await scanAtGateA(guest, hall, 'exit');
    expect(left).toMatchObject({ isValid: true, direction: 'exit' });
    const before = await door(hall, guest);
    const exit = { scanId: randomUUID(), code: guest.code, scannedAt: at(3) };
    at(4);
    expect(await uploadDeniedExit(hall, exit)).toEqual([{ index: 0, scanId: exit.scanId, status: 'recorded' }]);
    expect(await door(hall, guest)).toEqual({ ...before, logged: before.logged + 1 });
    expect(await checkInsOf(guest)).toEqual([{ exitedAt: new Date(left.isValid ? (left.exitedAt ?? '') : ''), undoneAt: null }]);
    expect(await lastLogged(guest)).toEqual({ verdict: 'denied', reason: 'not_inside', source: 'offline' });
  });

  test('an exit at a list without re-entry stays refused: the guest stays checked in, nothing written but the log', async () => {
    const { hall, guest } = await setUp({ allowsReentry: false });
    at(1);
    await scanAtGateA(guest, hall);
    const before = await door(hall, guest);
    const exit = { scanId: randomUUID(), code: guest.code, scannedAt: at(2) };
    at(3);
    expect(await uploadDeniedExit(hall, exit)).toEqual([{ index: 0, scanId: exit.scanId, status: 'recorded' }]);
    expect(await checkInsOf(guest)).toEqual([{ exitedAt: null, undoneAt: null }]);
    expect(await door(hall, guest)).toEqual({ ...before, logged: before.logged + 1 });
    expect((await lastLogged(guest))?.verdict).toBe('denied');
  });

  test("at a venue with a capacity, the exit frees the guest's place there: the next guest is admitted, not 'At capacity'", async () => {
    clockAheadMs = 0;
    base = Date.now();
    const created = await t.app.inject({
      method: 'POST',
      url: api(managePaths.organizationEvents(ids.organizationId)),
      headers: bearer(adminToken),
      payload: { title: `Venue ${randomUUID().slice(0, 8)}`, description: '', date: wallClock('Europe/London', new Date()).date, location: 'Hall', status: 'live', timeZone: 'Europe/London', dayCutoff: '04:00', allowsScanningOutsideDays: true, days: [], capacity: 1 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const venue = ManagedEvent.parse(created.json());
    const listed = await t.app.inject({ method: 'POST', url: api(checkInListsPath(venue.id)), headers: bearer(adminToken), payload: { name: 'Door', allowsReentry: true } });
    expect(listed.statusCode, listed.body).toBe(201);
    const hall = CheckInList.parse(listed.json());
    const [first, second] = await insertTickets(t.database.db, [1, 2].map((n) => ({ code: `VENUE-${n}-${randomUUID().slice(0, 18)}`, eventId: venue.id, holderName: `Guest ${n}`, ticketType: 'General Admission' })));
    if (!first || !second) throw new Error('no tickets');
    const verifyAtVenue = async (code: string) => {
      const response = await t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(gateAToken), payload: { eventId: venue.id, qrCode: code, day: 1, checkInListId: hall.id, scanId: randomUUID() } });
      expect(response.statusCode, response.body).toBe(200);
      return VerifyTicketResponse.parse(response.json());
    };
    const venuePlacesHeld = async () => (await t.database.db.select({ value: count() }).from(eventSlots).where(and(eq(eventSlots.eventId, venue.id), isNotNull(eventSlots.ticketId))))[0]?.value;

    at(1);
    expect(await verifyAtVenue(first.code)).toMatchObject({ isValid: true });
    expect(await verifyAtVenue(second.code)).toMatchObject({ isValid: false, reason: 'at_capacity' });
    at(3);
    const scans = [{ scanId: randomUUID(), code: first.code, scannedAt: new Date(base + 2 * MINUTE).toISOString(), deviceId: 'phone-b', verdict: 'denied', reason: 'not_inside', direction: 'exit' }];
    const uploaded = await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(venue.id, 1)), headers: bearer(phoneBToken), payload: { checkInListId: hall.id, scans } });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(OfflineScanBatchResponse.parse(uploaded.json()).results).toMatchObject([{ status: 'recorded', isExitRecorded: true }]);
    expect(await venuePlacesHeld()).toBe(0);
    at(4);
    expect(await verifyAtVenue(second.code)).toMatchObject({ isValid: true });
    expect(await venuePlacesHeld()).toBe(1);
  });
});
