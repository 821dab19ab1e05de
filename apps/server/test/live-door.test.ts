/**
 * The live door (docs/decisions/117): GET /events/{eventId}/days/{day}/live and its CSV exports, on
 * the real database (PGlite, or PostgreSQL under server-pg). The figures are checked by hand on a
 * small event after real scans at two check-in lists — approvals, denials, a re-scan at a second
 * list, an undo and an offline upload — and the arrivals against the check_ins table read
 * independently. Who may call them is in supervisor-authorization.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { apiPaths, ARRIVALS_SLOT_MINUTES, infoScanPath, LiveDoor, liveDoorPaths, offlinePaths, OfflineScanBatchResponse, supervisorPaths, VerifyTicketResponse } from '@gatecheck/contract';
import { parse } from 'csv-parse/sync';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rowsOf } from '../src/db/rows.ts';
import { checkIns, eventDays, events, tickets } from '../src/db/schema.ts';
import { DEMO_LIVE_EVENT_TITLE, DEMO_SUPERVISOR, DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { cliActor } from '../src/services/audit.ts';
import { type CheckInListRow, createCheckInList, editCheckInList, listCheckInLists } from '../src/services/check-in-lists.ts';
import { findEvent } from '../src/services/events.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { newDeviceToken } from './helpers/devices.ts';
import { demoIds, ticketPicker } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const DAY = 1;
const SLOT_MS = 5 * 60_000;
let t: TestApp;
let supervisorToken: string;
let eventId: string;
let allTickets: CheckInListRow;
let vipGate: CheckInListRow;
const code = (name: string) => `LIVE-${name}-${randomUUID().slice(0, 18)}`;
const CODES = { ga1: code('GA1'), ga2: code('GA2'), ga3: code('GA3'), vip1: code('VIP1'), vip2: code('VIP2'), day2: code('DAY2'), revoked: code('REV') };

beforeAll(async () => {
  // Every ask reads the database here (the sharing between watchers has its own test below).
  t = await createTestApp({ env: { LIVE_DOOR_SHARE_MS: '0' } });
  const ids = await demoIds(t.database.db);
  supervisorToken = await login(t.app, DEMO_SUPERVISOR.username, DEMO_SUPERVISOR.password);
  // Rehearsal mode: verify decides as if on the chosen day, whatever the test machine's date.
  const [event] = await t.database.db
    .insert(events)
    .values({ organizationId: ids.organizationId, title: 'Live Night', date: '2026-06-01', status: 'live', allowsScanningOutsideDays: true })
    .returning();
  if (!event) throw new Error('no event');
  eventId = event.id;
  await t.database.db.insert(eventDays).values([
    { eventId, day: 1, name: 'Friday', date: '2026-06-01' },
    { eventId, day: 2, name: 'Saturday', date: '2026-06-02' },
  ]);
  const details = await findEvent(t.database.db, eventId);
  [allTickets] = (await listCheckInLists(t.database.db, eventId)) as [CheckInListRow];
  const ticket = (ticketCode: string, ticketType: string, admittedDays: number[] | null = null) => ({ code: ticketCode, eventId, holderName: `Holder ${ticketCode}`, ticketType, admittedDays });
  await insertTickets(t.database.db, [
    ticket(CODES.ga1, 'General Admission'),
    ticket(CODES.ga2, 'General Admission'),
    ticket(CODES.ga3, 'General Admission'),
    ticket(CODES.vip1, 'VIP'),
    ticket(CODES.vip2, 'VIP'),
    ticket(CODES.day2, 'General Admission', [2]),
    ticket(CODES.revoked, 'General Admission'),
  ]);
  await t.database.db.update(tickets).set({ revokedAt: new Date() }).where(eq(tickets.code, CODES.revoked));
  vipGate = await createCheckInList(t.database.db, details, { name: 'VIP Gate', ticketTypes: ['VIP'], days: null }, cliActor());
});
afterAll(async () => {
  await t.close();
});

async function verify(qrCode: string, checkInListId: string): Promise<boolean> {
  const response = await t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(supervisorToken), payload: { eventId, qrCode, day: DAY, checkInListId } });
  expect(response.statusCode, response.body).toBe(200);
  return VerifyTicketResponse.parse(response.json()).isValid;
}

async function live(day = DAY): Promise<LiveDoor> {
  const response = await t.app.inject({ method: 'GET', url: api(liveDoorPaths.live(eventId, day)), headers: bearer(supervisorToken) });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  return LiveDoor.parse(response.json());
}

/** The arrivals of each list counted here from check_ins: active check-ins of the day per 5-minute slot. */
async function arrivalsFromCheckIns(): Promise<Record<string, Record<string, number>>> {
  const rows = await t.database.db
    .select({ listId: checkIns.checkInListId, at: checkIns.checkedInAt })
    .from(checkIns)
    .where(and(eq(checkIns.eventId, eventId), eq(checkIns.day, DAY), isNull(checkIns.undoneAt)));
  const byList: Record<string, Record<string, number>> = {};
  for (const row of rows) {
    const slot = new Date(Math.floor(row.at.getTime() / SLOT_MS) * SLOT_MS).toISOString().replace('.000Z', 'Z');
    const slots = (byList[row.listId] ??= {});
    slots[slot] = (slots[slot] ?? 0) + 1;
  }
  return byList;
}

test(`a quiet day answers every list and type at zero, expected from the tickets (${TEST_DATABASE_KIND})`, async () => {
  const before = await live(2);
  expect(before).toMatchObject({
    eventId,
    day: 2,
    slotMinutes: 5,
    checkedIn: 0,
    // Day 2: GA ×3 and VIP ×2 of every day, and the day-2 ticket; the revoked one never.
    validTickets: 6,
    ticketTypes: [
      { name: 'General Admission', checkedIn: 0, validTickets: 4 },
      { name: 'VIP', checkedIn: 0, validTickets: 2 },
    ],
    lists: [
      { id: allTickets.id, name: 'All tickets', checkedIn: 0, validTickets: 6, insideNow: 0, capacity: null, arrivals: [] },
      { id: vipGate.id, name: 'VIP Gate', checkedIn: 0, validTickets: 2, insideNow: 0, capacity: null, arrivals: [] },
    ],
    scansLastMinute: 0,
    denials: [],
    occupancy: { inside: 0, capacity: null },
  });
});

test(`the figures are exact after scans at two lists, a denial, an undo and an offline upload (${TEST_DATABASE_KIND})`, async () => {
  expect(await verify(CODES.ga1, allTickets.id)).toBe(true);
  expect(await verify(CODES.vip1, vipGate.id)).toBe(true);
  // The same person at a second list: one more check-in at that list, still one ticket in.
  expect(await verify(CODES.vip1, allTickets.id)).toBe(true);
  expect(await verify(CODES.ga1, allTickets.id)).toBe(false);
  expect(await verify('LIVE-NO-SUCH-TICKET', allTickets.id)).toBe(false);
  expect(await verify(CODES.ga2, vipGate.id)).toBe(false);
  expect(await verify(CODES.ga2, allTickets.id)).toBe(true);
  // The GA2 check-in undone by a supervisor: it counts no more.
  const [ga2] = await t.database.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.code, CODES.ga2));
  const undo = await t.app.inject({
    method: 'POST',
    url: api(supervisorPaths.undoCheckIn(eventId, ga2?.id ?? '')),
    headers: bearer(supervisorToken),
    payload: { day: DAY, reason: 'Wrong wristband', checkInListId: allTickets.id },
  });
  expect(undo.statusCode, undo.body).toBe(200);
  // GA3 admitted offline by a door device and uploaded now.
  const device = await newDeviceToken(t.database.db, eventId);
  const upload = await t.app.inject({
    method: 'POST',
    url: api(offlinePaths.offlineScans(eventId, DAY)),
    headers: bearer(device.token),
    payload: { checkInListId: allTickets.id, scans: [{ scanId: randomUUID(), code: CODES.ga3, scannedAt: new Date().toISOString(), deviceId: 'live-door-phone', verdict: 'approved' }] },
  });
  expect(OfflineScanBatchResponse.parse(upload.json()).results.map((result) => result.status)).toEqual(['recorded']);

  const figures = await live();
  expect(figures).toMatchObject({
    // GA1, VIP1 (at two lists) and GA3: three tickets in of five valid on day 1.
    checkedIn: 3,
    validTickets: 5,
    ticketTypes: [
      { name: 'General Admission', checkedIn: 2, validTickets: 3 },
      { name: 'VIP', checkedIn: 1, validTickets: 2 },
    ],
    // Lists without exits count their guests inside all day; VIP1 is one guest at two lists.
    lists: [
      { id: allTickets.id, checkedIn: 3, validTickets: 5, insideNow: 3 },
      { id: vipGate.id, checkedIn: 1, validTickets: 2, insideNow: 1 },
    ],
    occupancy: { inside: 3, capacity: null },
    // Online approvals 4 and denials 3 in the last minute; the undo is no scan.
    denials: expect.arrayContaining([
      { reason: 'already_checked_in', count: 1 },
      { reason: 'not_found', count: 1 },
      { reason: 'not_on_list', count: 1 },
    ]),
  });
  expect(figures.denials).toHaveLength(3);
  // The offline upload's scan-log row is at its device time, just now: in the window too.
  expect(figures.scansLastMinute).toBe(8);
  const expectedArrivals = await arrivalsFromCheckIns();
  for (const list of figures.lists) {
    expect(Object.fromEntries(list.arrivals.map((slot) => [slot.at, slot.count]))).toEqual(expectedArrivals[list.id] ?? {});
  }
  expect(figures.devices.map((entry) => entry.id)).toContain(device.deviceId);
});

test(`an arrival scanned earlier (an offline scan's device time) lands in its own slot, on its list's line (${TEST_DATABASE_KIND})`, async () => {
  const [ga3] = await t.database.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.code, CODES.ga3));
  const earlier = new Date(Date.now() - 3 * SLOT_MS);
  await t.database.db.update(checkIns).set({ checkedInAt: earlier }).where(eq(checkIns.ticketId, ga3?.id ?? ''));
  const figures = await live();
  const line = figures.lists.find((list) => list.id === allTickets.id);
  const slot = new Date(Math.floor(earlier.getTime() / SLOT_MS) * SLOT_MS).toISOString().replace('.000Z', 'Z');
  expect(line?.arrivals[0]).toEqual({ at: slot, count: 1 });
  expect(line?.arrivals.reduce((total, entry) => total + entry.count, 0)).toBe(3);
  expect(figures.lists.find((list) => list.id === vipGate.id)?.arrivals.map((entry) => entry.at)).not.toContain(slot);
});

test(`the arrivals CSV has every slot from the first arrival to the last per list, zeros included (${TEST_DATABASE_KIND})`, async () => {
  const response = await t.app.inject({ method: 'GET', url: api(liveDoorPaths.arrivalsCsv(eventId, DAY)), headers: bearer(supervisorToken) });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(response.headers['content-disposition']).toBe('attachment; filename="live-night-day-1-arrivals.csv"');
  const rows: Array<Record<string, string>> = parse(response.body, { columns: true });
  const figures = await live();
  const slots = new Set(figures.lists.flatMap((list) => list.arrivals.map((slot) => slot.at)));
  const first = Math.min(...[...slots].map((at) => Date.parse(at)));
  const last = Math.max(...[...slots].map((at) => Date.parse(at)));
  const perList = (last - first) / SLOT_MS + 1;
  expect(rows).toHaveLength(2 * perList);
  const allRows = rows.filter((row) => row.check_in_list === 'All tickets');
  expect(allRows.reduce((total, row) => total + Number(row.arrivals), 0)).toBe(3);
  expect(rows.filter((row) => row.check_in_list === 'VIP Gate').reduce((total, row) => total + Number(row.arrivals), 0)).toBe(1);
  expect(allRows[1]).toMatchObject({ arrivals: '0' });
  expect(Date.parse(allRows[0]?.slot_end ?? '') - Date.parse(allRows[0]?.slot_start ?? '')).toBe(SLOT_MS);
});

test(`the scan log CSV holds the day's scans oldest first, formulas kept as text (${TEST_DATABASE_KIND})`, async () => {
  expect(await verify('=HYPERLINK("http://x")', allTickets.id)).toBe(false);
  const response = await t.app.inject({ method: 'GET', url: `${api(liveDoorPaths.scanLogCsv(eventId))}?day=${DAY}`, headers: bearer(supervisorToken) });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-disposition']).toBe('attachment; filename="live-night-day-1-scan-log.csv"');
  const rows: Array<Record<string, string>> = parse(response.body, { columns: true });
  expect(Object.keys(rows[0] ?? {})).toEqual(['at', 'day', 'user', 'code', 'verdict', 'reason', 'source', 'sent_by', 'received_at']);
  // 8 scans, the undo and the formula-looking code.
  expect(rows).toHaveLength(10);
  expect(rows.map((row) => row.verdict).filter((verdict) => verdict === 'undone')).toHaveLength(1);
  expect(rows.at(-1)?.code).toBe(`'=HYPERLINK("http://x")`);
  expect(rows[0]?.code).toBe(CODES.ga1);
  expect(rows.some((row) => row.user === DEMO_SUPERVISOR.displayName)).toBe(true);
  expect(rows.every((row) => row.user !== DEMO_USER.displayName)).toBe(true);
});

test(`a day the event does not have answers zeros, and a bad day is a 400 (${TEST_DATABASE_KIND})`, async () => {
  expect(await live(9)).toMatchObject({ checkedIn: 0, validTickets: 0, ticketTypes: [], lists: [{ validTickets: 0 }, { validTickets: 0 }] });
  const response = await t.app.inject({ method: 'GET', url: api(`/events/${eventId}/days/0/live`), headers: bearer(supervisorToken) });
  expect(response.statusCode).toBe(400);
});

test(`watchers asking within LIVE_DOOR_SHARE_MS share one read; the next ask after it reads again (${TEST_DATABASE_KIND})`, async () => {
  let now = new Date();
  const shared = await createTestApp({ env: { LIVE_DOOR_SHARE_MS: '1000' }, clock: () => now });
  try {
    const ids = await demoIds(shared.database.db);
    const token = await login(shared.app, DEMO_SUPERVISOR.username, DEMO_SUPERVISOR.password);
    const ask = async () => {
      const response = await shared.app.inject({ method: 'GET', url: api(liveDoorPaths.live(ids.liveEventId, DEMO_TODAY_DAY_NUMBER)), headers: bearer(token) });
      expect(response.statusCode, response.body).toBe(200);
      return LiveDoor.parse(response.json());
    };
    const first = await ask();
    const ticket = ticketPicker(shared.demo?.tickets ?? [])((candidate) => candidate.eventTitle === DEMO_LIVE_EVENT_TITLE && !candidate.isRevoked && candidate.days === null);
    const scan = await shared.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(token), payload: { eventId: ids.liveEventId, qrCode: ticket.code, day: DEMO_TODAY_DAY_NUMBER } });
    expect(VerifyTicketResponse.parse(scan.json()).isValid).toBe(true);
    // 999 ms later: the read of the first ask answers (the scan is not in it yet).
    now = new Date(now.getTime() + 999);
    expect(await ask()).toEqual(first);
    now = new Date(now.getTime() + 1);
    const fresh = await ask();
    expect(fresh.checkedIn).toBe(first.checkedIn + 1);
    expect(fresh.generatedAt).toBe(now.toISOString());
  } finally {
    await shared.close();
  }
});

test(`an exit at a list with re-entry leaves its line's inside now and counts as a door movement; an info scan does not (${TEST_DATABASE_KIND})`, async () => {
  await editCheckInList(t.database.db, await findEvent(t.database.db, eventId), vipGate.id, { allowsReentry: true, capacity: 10 }, cliActor());
  const before = await live();
  const exit = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.verifyTicket),
    headers: bearer(supervisorToken),
    payload: { eventId, qrCode: CODES.vip1, day: DAY, checkInListId: vipGate.id, direction: 'exit' },
  });
  expect(VerifyTicketResponse.parse(exit.json()).isValid).toBe(true);
  const info = await t.app.inject({ method: 'POST', url: api(infoScanPath(eventId)), headers: bearer(supervisorToken), payload: { qrCode: CODES.ga1, day: DAY } });
  expect(info.statusCode, info.body).toBe(200);

  const after = await live();
  expect(after.lists).toEqual([
    expect.objectContaining({ id: allTickets.id, insideNow: 3, capacity: null }),
    // VIP1 left through the VIP Gate: still checked in there, no longer inside it.
    expect.objectContaining({ id: vipGate.id, checkedIn: 1, insideNow: 0, capacity: 10 }),
  ]);
  // VIP1 is still inside through 'All tickets', a list without exits: the event's guests stay 3.
  expect(after.occupancy).toEqual({ inside: 3, capacity: null });
  // The exit is one more scan in the last minute; the info scan is none.
  expect(after.scansLastMinute).toBe(before.scansLastMinute + 1);
});

test("the arrivals trigger's slot, hard-coded in its SQL, is the live door's ARRIVALS_SLOT_MINUTES", async () => {
  // The trigger function as the database runs it (the migration that made it may be renumbered).
  const [source] = rowsOf<{ prosrc: string }>(await t.database.db.execute(sql`select prosrc from pg_proc where proname = 'check_in_counts_apply'`));
  const slots = [...(source?.prosrc ?? '').matchAll(/date_bin\('(\d+) minutes'/g)].map((match) => Number(match[1]));
  // The slots of the check-ins a statement counts in and out (an insert, a delete, an update's old
  // and new rows), each the live door's.
  expect(slots.length).toBeGreaterThanOrEqual(4);
  expect(new Set(slots)).toEqual(new Set([ARRIVALS_SLOT_MINUTES]));
});
