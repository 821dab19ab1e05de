/**
 * Every entry and exit is remembered by its scan (docs/decisions/138), on the real app and database,
 * PGlite and PostgreSQL: a retried or late-uploaded scan of a recorded movement — an exit after a
 * later re-entry, a re-entry before the last — answers that movement and writes nothing; an offline
 * movement older than the check-in's latest is recorded as history and changes neither who is
 * inside nor a place; an undo of a re-entry from the recent scans undoes that re-entry and what
 * followed it, and the guest is out since the exit before it. After each case: inside-now, the
 * places held, the arrivals and the counts.
 */
import { randomUUID } from 'node:crypto';
import {
  apiPaths,
  CheckInCounts,
  CheckInList,
  checkInCountsPath,
  checkInListsPath,
  OfflineScanBatchResponse,
  offlinePaths,
  supervisorPaths,
  UndoCheckInResponse,
  VerifyTicketResponse,
} from '@gatecheck/contract';
import { and, count, eq, isNotNull, sum } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkInArrivals, checkInListSlots, checkInMovements, checkIns, scanLog } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_SUPERVISOR, DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { demoIds } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, type TestApp } from './helpers/test-app.ts';

const DAY = DEMO_TODAY_DAY_NUMBER;
const MINUTE = 60_000;
let t: TestApp;
let ids: Awaited<ReturnType<typeof demoIds>>;
let adminToken: string;
let supervisorToken: string;
let staffToken: string;
/** How far the app's clock runs ahead of the real one: each test moves it to order its scans. */
let clockAheadMs = 0;
/** The real time the app's clock starts from in a test (after every sign-in, so scans are in the sessions). */
let base = 0;

beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(Date.now() + clockAheadMs) });
  ids = await demoIds(t.database.db);
  adminToken = await login(t.app, DEMO_USER.username, DEMO_USER.password);
  supervisorToken = await login(t.app, DEMO_SUPERVISOR.username, DEMO_SUPERVISOR.password);
  staffToken = await login(t.app, DEMO_COLLEAGUE.username, DEMO_COLLEAGUE.password);
});
afterAll(async () => {
  await t.close();
});

/** Sets the app's clock to `minutes` after the test's start. */
function at(minutes: number): Date {
  clockAheadMs = base - Date.now() + minutes * MINUTE;
  return new Date(base + minutes * MINUTE);
}

async function setUp(rules: Record<string, unknown>) {
  clockAheadMs = 0;
  base = Date.now();
  const created = await t.app.inject({ method: 'POST', url: api(checkInListsPath(ids.liveEventId)), headers: bearer(adminToken), payload: { name: `Hall ${randomUUID().slice(0, 8)}`, allowsReentry: true, ...rules } });
  expect(created.statusCode, created.body).toBe(201);
  const code = `MOVE-${randomUUID().slice(0, 20)}`;
  const [ticket] = await insertTickets(t.database.db, [{ code, eventId: ids.liveEventId, holderName: `Holder ${code}`, ticketType: 'General Admission' }]);
  if (!ticket) throw new Error('no ticket');
  return { hall: CheckInList.parse(created.json()), guest: { id: ticket.id, code } };
}

async function scan(guest: { code: string }, hall: CheckInList, scanId: string, direction?: 'exit') {
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.verifyTicket),
    headers: bearer(staffToken),
    payload: { eventId: ids.liveEventId, qrCode: guest.code, day: DAY, checkInListId: hall.id, scanId, ...(direction ? { direction } : {}) },
  });
  expect(response.statusCode, response.body).toBe(200);
  return VerifyTicketResponse.parse(response.json());
}

async function upload(hall: CheckInList, items: { scanId: string; code: string; scannedAt: Date; direction?: 'exit' }[]) {
  const scans = items.map((item) => ({ ...item, scannedAt: item.scannedAt.toISOString(), deviceId: 'phone-a', verdict: 'approved' }));
  const response = await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(ids.liveEventId, DAY)), headers: bearer(staffToken), payload: { checkInListId: hall.id, scans } });
  expect(response.statusCode, response.body).toBe(200);
  return OfflineScanBatchResponse.parse(response.json()).results;
}

async function undo(guest: { id: string }, scanId: string) {
  return t.app.inject({ method: 'POST', url: api(supervisorPaths.undoCheckIn(ids.liveEventId, guest.id)), headers: bearer(supervisorToken), payload: { day: DAY, reason: 'scanned by mistake', scanId } });
}

/** What the list's door shows and holds: inside-now and checked in (the counts), places held, arrivals, scan-log rows of the ticket. */
async function door(hall: CheckInList, guest: { code: string }) {
  const response = await t.app.inject({ method: 'GET', url: api(`${checkInCountsPath(ids.liveEventId, DAY)}?checkInListId=${hall.id}`), headers: bearer(staffToken) });
  const counted = CheckInCounts.parse(response.json()).checkInList;
  const [held] = await t.database.db.select({ value: count() }).from(checkInListSlots).where(and(eq(checkInListSlots.checkInListId, hall.id), isNotNull(checkInListSlots.checkInId)));
  const [arrived] = await t.database.db.select({ value: sum(checkInArrivals.arrivals).mapWith(Number) }).from(checkInArrivals).where(eq(checkInArrivals.checkInListId, hall.id));
  const [logged] = await t.database.db.select({ value: count() }).from(scanLog).where(eq(scanLog.code, guest.code));
  return { insideNow: counted?.insideNow, checkedIn: counted?.checkedIn, placesHeld: held?.value ?? 0, arrivals: arrived?.value ?? 0, logged: logged?.value ?? 0 };
}

async function checkInOf(guest: { id: string }) {
  const rows = await t.database.db.select().from(checkIns).where(eq(checkIns.ticketId, guest.id));
  expect(rows).toHaveLength(1);
  return rows[0];
}

const approvedAt = (verdict: VerifyTicketResponse): string => (verdict.isValid ? (verdict.checkedInAt ?? 'none') : 'denied');

describe('a retried or late-uploaded scan of a recorded movement answers it and writes nothing', () => {
  test('an exit at phone A, the guest back in at phone B: A retrying the exit online, then uploading it from its queue, leaves the guest inside', async () => {
    const { hall, guest } = await setUp({ capacity: 5 });
    at(1);
    expect(await scan(guest, hall, randomUUID())).toMatchObject({ isValid: true });
    at(2);
    const exitScan = randomUUID();
    const exit = await scan(guest, hall, exitScan, 'exit');
    expect(exit).toMatchObject({ isValid: true, direction: 'exit' });
    const exitedAt = exit.isValid ? exit.exitedAt : undefined;
    at(3);
    expect(await scan(guest, hall, randomUUID())).toMatchObject({ isValid: true });
    const inside = await door(hall, guest);
    expect(inside).toMatchObject({ insideNow: 1, checkedIn: 1, placesHeld: 1, arrivals: 1 });

    // A's answer was lost: its retry is that exit again, not a second one.
    at(4);
    expect(await scan(guest, hall, exitScan, 'exit')).toMatchObject({ isValid: true, direction: 'exit', exitedAt });
    expect(await door(hall, guest)).toEqual({ ...inside, logged: inside.logged + 1 });
    // A gave up and queued it; the upload is a duplicate of the exit recorded.
    expect(await upload(hall, [{ scanId: exitScan, code: guest.code, scannedAt: new Date(exitedAt ?? 0), direction: 'exit' }])).toMatchObject([
      { scanId: exitScan, status: 'duplicate', checkedInAt: exitedAt },
    ]);
    expect(await door(hall, guest)).toEqual({ ...inside, logged: inside.logged + 1 });
    expect((await checkInOf(guest))?.exitedAt).toBeNull();
  });

  test('a re-entry before the last, retried online and uploaded late, answers that re-entry: no conflict, no second entry', async () => {
    const { hall, guest } = await setUp({ capacity: 5 });
    at(1);
    await scan(guest, hall, randomUUID());
    at(2);
    await scan(guest, hall, randomUUID(), 'exit');
    at(3);
    const olderScan = randomUUID();
    const older = await scan(guest, hall, olderScan);
    expect(older).toMatchObject({ isValid: true });
    at(4);
    await scan(guest, hall, randomUUID(), 'exit');
    at(5);
    expect(await scan(guest, hall, randomUUID())).toMatchObject({ isValid: true });
    at(6);
    await scan(guest, hall, randomUUID(), 'exit');
    const out = await door(hall, guest);
    expect(out).toMatchObject({ insideNow: 0, checkedIn: 1, placesHeld: 0, arrivals: 1 });

    at(7);
    expect(await scan(guest, hall, olderScan)).toMatchObject({ isValid: true, checkedInAt: approvedAt(older) });
    expect(await door(hall, guest)).toEqual({ ...out, logged: out.logged + 1 });
    expect(await upload(hall, [{ scanId: olderScan, code: guest.code, scannedAt: new Date(approvedAt(older)) }])).toEqual([
      { index: 0, scanId: olderScan, status: 'duplicate', checkedInAt: approvedAt(older), checkedInBy: DEMO_COLLEAGUE.displayName },
    ]);
    expect(await door(hall, guest)).toEqual({ ...out, logged: out.logged + 1 });
  });
});

describe("the first entry is the check-in's own scan, not a movement row", () => {
  test('retried after a re-entry it answers the first entry; undone and then uploaded from the queue it is a duplicate, not a new check-in', async () => {
    const { hall, guest } = await setUp({});
    at(1);
    const firstScan = randomUUID();
    const first = await scan(guest, hall, firstScan);
    expect(first).toMatchObject({ isValid: true });
    at(2);
    expect(await scan(guest, hall, randomUUID(), 'exit')).toMatchObject({ isValid: true, direction: 'exit' });
    at(3);
    expect(await scan(guest, hall, randomUUID())).toMatchObject({ isValid: true });
    expect((await checkInOf(guest))?.scanId).toBe(firstScan);
    const movements = await t.database.db.select({ scanId: checkInMovements.scanId }).from(checkInMovements).where(eq(checkInMovements.checkInId, (await checkInOf(guest))?.id ?? ''));
    expect(movements.map((movement) => movement.scanId)).not.toContain(firstScan);

    // A retry of the first entry's scan is that first entry's approval, though the guest re-entered since.
    at(4);
    expect(approvedAt(await scan(guest, hall, firstScan))).toBe(approvedAt(first));
    // An undo of the first entry's scan undoes the whole check-in.
    const undone = await undo(guest, firstScan);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(UndoCheckInResponse.parse(undone.json()).checkedInAt).toBe(approvedAt(first));
    expect((await checkInOf(guest))?.undoneAt).not.toBeNull();
    const before = await door(hall, guest);
    expect(before).toMatchObject({ insideNow: 0, checkedIn: 0, placesHeld: 0 });
    // The phone had queued that first entry: its upload answers it, and checks nobody in again.
    at(5);
    expect((await upload(hall, [{ scanId: firstScan, code: guest.code, scannedAt: new Date(base + MINUTE) }])).map((result) => [result.status, result.checkedInAt])).toEqual([
      ['duplicate', approvedAt(first)],
    ]);
    expect(await door(hall, guest)).toEqual(before);
  });
});

describe('an offline movement older than the latest is history', () => {
  test("phone A, offline, let the guest out and back in; phone B, online, let the guest out after that: A's late upload is recorded as history and the guest stays out", async () => {
    const { hall, guest } = await setUp({ capacity: 5 });
    at(1);
    await scan(guest, hall, randomUUID());
    at(4);
    const exitB = await scan(guest, hall, randomUUID(), 'exit');
    expect(exitB).toMatchObject({ isValid: true });
    const out = await door(hall, guest);
    expect(out).toMatchObject({ insideNow: 0, placesHeld: 0, arrivals: 1 });

    at(5);
    const [exitA, entryA] = [randomUUID(), randomUUID()];
    const results = await upload(hall, [
      { scanId: exitA, code: guest.code, scannedAt: new Date(base + 2 * MINUTE), direction: 'exit' },
      { scanId: entryA, code: guest.code, scannedAt: new Date(base + 3 * MINUTE) },
    ]);
    expect(results.map((result) => [result.scanId, result.status, result.checkedInAt])).toEqual([
      [exitA, 'recorded', new Date(base + 2 * MINUTE).toISOString()],
      [entryA, 'recorded', new Date(base + 3 * MINUTE).toISOString()],
    ]);
    // Both passages are in the scan log; who is inside, the places and the arrivals are B's.
    expect(await door(hall, guest)).toEqual({ ...out, logged: out.logged + 2 });
    const row = await checkInOf(guest);
    expect(row?.exitedAt?.toISOString()).toBe(exitB.isValid ? exitB.exitedAt : '');
    const history = await t.database.db
      .select({ direction: checkInMovements.direction, isLate: checkInMovements.isLate, scanId: checkInMovements.scanId })
      .from(checkInMovements)
      .where(eq(checkInMovements.checkInId, row?.id ?? ''))
      .orderBy(checkInMovements.at);
    // The first entry is the check-in row's own (its scan), not a movement row (docs/decisions/138).
    expect(row?.scanId).toEqual(expect.any(String));
    expect(history).toEqual([
      { direction: 'exit', isLate: true, scanId: exitA },
      { direction: 'entry', isLate: true, scanId: entryA },
      { direction: 'exit', isLate: false, scanId: expect.any(String) },
    ]);
    // Sent again, it answers what it answered first.
    expect((await upload(hall, [{ scanId: entryA, code: guest.code, scannedAt: new Date(base + 3 * MINUTE) }])).map((result) => result.status)).toEqual(['recorded']);
    at(6);
    expect(await scan(guest, hall, randomUUID())).toMatchObject({ isValid: true, insideNow: 1 });
  });
});

describe('an undo of a re-entry from the recent scans', () => {
  test('undoes that re-entry: the guest is out since the exit before it, the place is free, the first entry stands', async () => {
    const { hall, guest } = await setUp({ capacity: 5 });
    at(1);
    const entry = await scan(guest, hall, randomUUID());
    at(2);
    const exit = await scan(guest, hall, randomUUID(), 'exit');
    at(3);
    const reentryScan = randomUUID();
    const reentry = await scan(guest, hall, reentryScan);
    expect(await door(hall, guest)).toMatchObject({ insideNow: 1, placesHeld: 1, arrivals: 1 });

    const undone = await undo(guest, reentryScan);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(UndoCheckInResponse.parse(undone.json())).toMatchObject({ checkedInAt: approvedAt(reentry), exitedAt: null });
    expect(await door(hall, guest)).toMatchObject({ insideNow: 0, checkedIn: 1, placesHeld: 0, arrivals: 1 });
    const row = await checkInOf(guest);
    expect(row).toMatchObject({ undoneAt: null, checkedInAt: new Date(approvedAt(entry)), exitedAt: new Date(exit.isValid ? (exit.exitedAt ?? '') : '') });
    // The retry of the undone scan is no longer that re-entry; the guest can come in again.
    at(4);
    expect(await scan(guest, hall, randomUUID())).toMatchObject({ isValid: true, insideNow: 1 });
    expect(await door(hall, guest)).toMatchObject({ insideNow: 1, checkedIn: 1, placesHeld: 1, arrivals: 1 });
  });

  test('of a guest who has left since, undoes the re-entry and that exit together: still out, inside-now unchanged', async () => {
    const { hall, guest } = await setUp({ capacity: 5 });
    at(1);
    await scan(guest, hall, randomUUID());
    at(2);
    const exit = await scan(guest, hall, randomUUID(), 'exit');
    at(3);
    const reentryScan = randomUUID();
    const reentry = await scan(guest, hall, reentryScan);
    at(4);
    const laterExit = await scan(guest, hall, randomUUID(), 'exit');
    expect(await door(hall, guest)).toMatchObject({ insideNow: 0, placesHeld: 0 });

    const undone = await undo(guest, reentryScan);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(UndoCheckInResponse.parse(undone.json())).toMatchObject({ checkedInAt: approvedAt(reentry), exitedAt: laterExit.isValid ? laterExit.exitedAt : '' });
    expect(await door(hall, guest)).toMatchObject({ insideNow: 0, checkedIn: 1, placesHeld: 0, arrivals: 1 });
    expect((await checkInOf(guest))?.exitedAt?.toISOString()).toBe(exit.isValid ? exit.exitedAt : '');
    // Undone once: the same undo again finds nothing of that scan.
    expect((await undo(guest, reentryScan)).statusCode).toBe(409);
  });
});

describe("phones' clocks apart (review of docs/decisions/138)", () => {
  test("a phone whose clock is far behind (its scan times taken as its session's start): its exit after the guest came in is recorded, placed after the entry, never history", async () => {
    const { hall, guest } = await setUp({ capacity: 5 });
    at(1);
    await scan(guest, hall, randomUUID());
    expect(await door(hall, guest)).toMatchObject({ insideNow: 1, placesHeld: 1 });
    at(2);
    const exitA = randomUUID();
    const [result] = await upload(hall, [{ scanId: exitA, code: guest.code, scannedAt: new Date(base - 24 * 60 * MINUTE), direction: 'exit' }]);
    expect(result).toMatchObject({ scanId: exitA, status: 'recorded' });
    expect(await door(hall, guest)).toMatchObject({ insideNow: 0, checkedIn: 1, placesHeld: 0, arrivals: 1 });
    const row = await checkInOf(guest);
    expect(row?.exitedAt?.getTime()).toBeGreaterThanOrEqual(row?.checkedInAt.getTime() ?? Number.POSITIVE_INFINITY);
    // The guest comes back in.
    at(3);
    expect(await scan(guest, hall, randomUUID())).toMatchObject({ isValid: true });
    expect(await door(hall, guest)).toMatchObject({ insideNow: 1, placesHeld: 1 });
  });

  test('an undo of a re-entry that also undoes an exit stamped later by a phone running ahead leaves the guest counted inside with a place, never inside without one', async () => {
    const { hall, guest } = await setUp({ capacity: 5 });
    at(1);
    await scan(guest, hall, randomUUID());
    // Phone A, offline and 3 minutes ahead, lets the guest out at real minute 2 and sends it at once.
    at(2);
    const [exitA] = await upload(hall, [{ scanId: randomUUID(), code: guest.code, scannedAt: new Date(base + 5 * MINUTE), direction: 'exit' }]);
    expect(exitA).toMatchObject({ status: 'recorded' });
    // Phone B, online, lets the guest back in at minute 3; a supervisor undoes that re-entry.
    at(3);
    const reentryScan = randomUUID();
    expect(await scan(guest, hall, reentryScan)).toMatchObject({ isValid: true });
    expect((await undo(guest, reentryScan)).statusCode).toBe(200);
    const after = await door(hall, guest);
    expect(after.placesHeld).toBe(after.insideNow);
  });
});
