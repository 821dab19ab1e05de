/**
 * The live door's trigger-kept arrivals (docs/decisions/127) against a full recount of check_ins,
 * on the real database (PGlite, or PostgreSQL under server-pg, where the concurrent requests really
 * run at once on the pool's connections): after entries at two lists, 50 check-ins at one list and
 * slot sent at once, exits and re-entries, undos (some at once with new check-ins), offline uploads
 * at earlier device times, a check-in moved to another slot and a deleted ticket. Each time the
 * `check_in_arrivals` rows, the live door's arrivals and N per list, and its inside now per list
 * (one grouped statement) must equal what check_ins says when counted from scratch.
 */
import { createHash, randomUUID } from 'node:crypto';
import { apiPaths, lastDailyCheckout, LiveDoor, liveDoorPaths, offlinePaths, OfflineScanBatchResponse, supervisorPaths, VerifyTicketResponse } from '@gatecheck/contract';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkInArrivals, checkIns, checkInTypeCounts, eventDays, events, sessions, tickets } from '../src/db/schema.ts';
import { DEMO_SUPERVISOR } from '../src/db/seed.ts';
import { cliActor } from '../src/services/audit.ts';
import { countListInside } from '../src/services/check-in-counts.ts';
import { type CheckInListRow, createCheckInList, listCheckInLists } from '../src/services/check-in-lists.ts';
import { type EventDetails, findEvent } from '../src/services/events.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { newDeviceToken } from './helpers/devices.ts';
import { demoIds } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const DAY = 1;
const SLOT_MS = 5 * 60_000;
/** Tickets of the event: enough for the 50 at once and the rest of the mix. */
const TICKETS = 120;
let t: TestApp;
let supervisorToken: string;
let event: EventDetails;
let main: CheckInListRow;
let hall: CheckInListRow;
let bar: CheckInListRow;
let codes: string[];
let ticketIds: Map<string, string>;
let device: { token: string; deviceId: string };

beforeAll(async () => {
  t = await createTestApp({ env: { LIVE_DOOR_SHARE_MS: '0' } });
  const ids = await demoIds(t.database.db);
  supervisorToken = await login(t.app, DEMO_SUPERVISOR.username, DEMO_SUPERVISOR.password);
  // Rehearsal mode: verify decides as if on the chosen day, whatever the test machine's date.
  const [row] = await t.database.db
    .insert(events)
    .values({ organizationId: ids.organizationId, title: 'Recount Night', date: '2026-06-01', status: 'live', allowsScanningOutsideDays: true })
    .returning();
  if (!row) throw new Error('no event');
  await t.database.db.insert(eventDays).values({ eventId: row.id, day: DAY, name: 'Friday', date: '2026-06-01' });
  event = await findEvent(t.database.db, row.id);
  [main] = (await listCheckInLists(t.database.db, event.id)) as [CheckInListRow];
  // A hall that records exits (docs/decisions/111): exits and re-entries change inside now, not arrivals.
  hall = await createCheckInList(t.database.db, event, { name: 'Hall', ticketTypes: null, days: null, allowsReentry: true }, cliActor());
  // A bar whose guests are checked out every day 30 minutes ago (the event's clock): inside now
  // counts only those who entered since.
  const checkout = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: event.timeZone }).format(Date.now() - 30 * 60_000);
  bar = await createCheckInList(t.database.db, event, { name: 'Bar', ticketTypes: null, days: null, allowsReentry: true, dailyCheckoutTime: checkout }, cliActor());
  const prefix = `RC-${randomUUID().slice(0, 8)}`;
  codes = Array.from({ length: TICKETS }, (_, index) => `${prefix}-${String(index).padStart(3, '0')}`);
  const inserted = await insertTickets(
    t.database.db,
    codes.map((code, index) => ({ code, eventId: event.id, holderName: `Holder ${code}`, ticketType: index % 4 === 3 ? 'Balcony' : 'General Admission', admittedDays: null })),
  );
  ticketIds = new Map(inserted.map((ticket) => [ticket.code, ticket.id]));
  device = await newDeviceToken(t.database.db, event.id);
  // Its session started two hours ago: an offline scan's time is clamped to its session's start.
  const tokenHash = createHash('sha256').update(device.token).digest('hex');
  await t.database.db.update(sessions).set({ createdAt: new Date(Date.now() - 2 * 3_600_000) }).where(eq(sessions.tokenHash, tokenHash));
});
afterAll(async () => {
  await t.close();
});

const code = (index: number) => codes[index] ?? '';
const ticketId = (index: number) => ticketIds.get(code(index)) ?? '';

async function verify(index: number, list: CheckInListRow, direction?: 'entry' | 'exit', scanId = randomUUID()): Promise<boolean> {
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.verifyTicket),
    headers: bearer(supervisorToken),
    payload: { eventId: event.id, qrCode: code(index), day: DAY, checkInListId: list.id, scanId, ...(direction ? { direction } : {}) },
  });
  expect(response.statusCode, response.body).toBe(200);
  return VerifyTicketResponse.parse(response.json()).isValid;
}

async function undo(index: number, list: CheckInListRow): Promise<void> {
  const response = await t.app.inject({
    method: 'POST',
    url: api(supervisorPaths.undoCheckIn(event.id, ticketId(index))),
    headers: bearer(supervisorToken),
    payload: { day: DAY, reason: 'Recount test', checkInListId: list.id },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function uploadOffline(list: CheckInListRow, scans: Array<{ index: number; scannedAt: Date; scanId?: string }>, status: 'recorded' | 'duplicate' = 'recorded'): Promise<void> {
  const response = await t.app.inject({
    method: 'POST',
    url: api(offlinePaths.offlineScans(event.id, DAY)),
    headers: bearer(device.token),
    payload: {
      checkInListId: list.id,
      scans: scans.map((scan) => ({ scanId: scan.scanId ?? randomUUID(), code: code(scan.index), scannedAt: scan.scannedAt.toISOString(), deviceId: 'recount-phone', verdict: 'approved' })),
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(OfflineScanBatchResponse.parse(response.json()).results.map((result) => result.status)).toEqual(scans.map(() => status));
}

async function live(): Promise<LiveDoor> {
  const response = await t.app.inject({ method: 'GET', url: api(liveDoorPaths.live(event.id, DAY)), headers: bearer(supervisorToken) });
  expect(response.statusCode, response.body).toBe(200);
  return LiveDoor.parse(response.json());
}

const slotOf = (at: Date) => new Date(Math.floor(at.getTime() / SLOT_MS) * SLOT_MS).toISOString().replace('.000Z', 'Z');

/** list id → slot → arrivals, counted here from check_ins itself (active check-ins of the day). */
async function recountArrivals(): Promise<Record<string, Record<string, number>>> {
  const rows = await t.database.db
    .select({ listId: checkIns.checkInListId, at: checkIns.checkedInAt })
    .from(checkIns)
    .where(and(eq(checkIns.eventId, event.id), eq(checkIns.day, DAY), isNull(checkIns.undoneAt)));
  const byList: Record<string, Record<string, number>> = {};
  for (const row of rows) {
    const slots = (byList[row.listId] ??= {});
    slots[slotOf(row.at)] = (slots[slotOf(row.at)] ?? 0) + 1;
  }
  return byList;
}

/** The trigger-kept rows of the event's day with a count, in the same shape. */
async function storedArrivals(): Promise<Record<string, Record<string, number>>> {
  const rows = await t.database.db
    .select()
    .from(checkInArrivals)
    .where(and(eq(checkInArrivals.eventId, event.id), eq(checkInArrivals.day, DAY), gt(checkInArrivals.arrivals, 0)));
  const byList: Record<string, Record<string, number>> = {};
  for (const row of rows) (byList[row.checkInListId] ??= {})[slotOf(row.slotStart)] = row.arrivals;
  return byList;
}

/** Ticket type → distinct tickets with an active check-in of the day, by the ticket's type now, counted from check_ins. */
async function recountTypes(): Promise<Record<string, number>> {
  const rows = await t.database.db
    .selectDistinct({ ticketId: checkIns.ticketId, type: tickets.ticketType })
    .from(checkIns)
    .innerJoin(tickets, eq(tickets.id, checkIns.ticketId))
    .where(and(eq(checkIns.eventId, event.id), eq(checkIns.day, DAY), isNull(checkIns.undoneAt)));
  const byType: Record<string, number> = {};
  for (const row of rows) byType[row.type] = (byType[row.type] ?? 0) + 1;
  return byType;
}

/** The trigger-kept per-type rows of the event's day, summed over the lists, the types with a count. */
async function storedTypes(): Promise<Record<string, number>> {
  const rows = await t.database.db.select().from(checkInTypeCounts).where(and(eq(checkInTypeCounts.eventId, event.id), eq(checkInTypeCounts.day, DAY)));
  const byType: Record<string, number> = {};
  for (const row of rows) byType[row.ticketType] = (byType[row.ticketType] ?? 0) + row.checkedIn;
  return Object.fromEntries(Object.entries(byType).filter(([, n]) => n !== 0));
}

/** Every figure the triggers or the grouped inside-now statement give equals the recount. */
async function expectExact(): Promise<LiveDoor> {
  const recount = await recountArrivals();
  expect(await storedArrivals()).toEqual(recount);
  const types = await recountTypes();
  expect(await storedTypes()).toEqual(types);
  // No row below zero: an undo or delete never takes away more than was counted.
  const negative = await t.database.db.select().from(checkInArrivals).where(and(eq(checkInArrivals.eventId, event.id), lt(checkInArrivals.arrivals, 0)));
  expect(negative).toEqual([]);
  const negativeTypes = await t.database.db.select().from(checkInTypeCounts).where(and(eq(checkInTypeCounts.eventId, event.id), lt(checkInTypeCounts.checkedIn, 0)));
  expect(negativeTypes).toEqual([]);
  const figures = await live();
  expect(Object.fromEntries(figures.ticketTypes.filter((type) => type.checkedIn > 0).map((type) => [type.name, type.checkedIn]))).toEqual(types);
  expect(figures.checkedIn).toBe(Object.values(types).reduce((total, n) => total + n, 0));
  for (const list of [main, hall, bar]) {
    const line = figures.lists.find((entry) => entry.id === list.id);
    const expected = recount[list.id] ?? {};
    expect(Object.fromEntries((line?.arrivals ?? []).map((slot) => [slot.at, slot.count]))).toEqual(expected);
    expect(line?.checkedIn).toBe(Object.values(expected).reduce((total, n) => total + n, 0));
    // The grouped statement against the per-list count the scanner's counts use.
    expect(line?.insideNow).toBe(await countListInside(t.database.db, event, list, DAY, new Date()));
  }
  // The event's guests inside: distinct tickets, each list's daily checkout applied (docs/decisions/141).
  expect(figures.occupancy.inside).toBe(await recountEventInside());
  return figures;
}

/** Distinct tickets inside now through any list, recounted in JS from the check-in rows and the lists' checkouts. */
async function recountEventInside(): Promise<number> {
  const now = new Date();
  const lists = new Map((await listCheckInLists(t.database.db, event.id)).map((list) => [list.id, lastDailyCheckout(event.timeZone, list.dailyCheckoutTime ?? null, now)]));
  const rows = await t.database.db
    .select()
    .from(checkIns)
    .where(and(eq(checkIns.eventId, event.id), eq(checkIns.day, DAY), isNull(checkIns.undoneAt), isNull(checkIns.exitedAt)));
  const inside = rows.filter((row) => {
    const checkout = lists.get(row.checkInListId) ?? null;
    return checkout === null || (row.lastEnteredAt ?? row.checkedInAt).getTime() >= checkout.getTime();
  });
  return new Set(inside.map((row) => row.ticketId)).size;
}

test(`arrivals and inside now equal a recount after entries, exits, re-entries, undos and offline uploads (${TEST_DATABASE_KIND})`, async () => {
  await expectExact();
  for (const index of [0, 1, 2, 3]) expect(await verify(index, main)).toBe(true);
  for (const index of [4, 5, 6]) expect(await verify(index, hall)).toBe(true);
  // The same person at the second list: an arrival at each list.
  expect(await verify(0, hall)).toBe(true);
  // Exits and a re-entry at the hall: arrivals stay, inside now changes.
  expect(await verify(4, hall, 'exit')).toBe(true);
  expect(await verify(5, hall, 'exit')).toBe(true);
  expect(await verify(5, hall)).toBe(true);
  let figures = await expectExact();
  expect(figures.lists.find((list) => list.id === hall.id)).toMatchObject({ checkedIn: 4, insideNow: 3 });
  // A re-entry retried with its scanId (its answer lost), online and from the offline queue, before
  // and after the guest leaves again (docs/decisions/130): answered, never counted again.
  const reentryScan = randomUUID();
  expect(await verify(4, hall, undefined, reentryScan)).toBe(true);
  expect(await verify(4, hall, undefined, reentryScan)).toBe(true);
  await uploadOffline(hall, [{ index: 4, scannedAt: new Date(), scanId: reentryScan }], 'duplicate');
  figures = await expectExact();
  expect(figures.lists.find((list) => list.id === hall.id)).toMatchObject({ checkedIn: 4, insideNow: 4 });
  expect(await verify(4, hall, 'exit')).toBe(true);
  expect(await verify(4, hall, undefined, reentryScan)).toBe(true);
  figures = await expectExact();
  expect(figures.lists.find((list) => list.id === hall.id)).toMatchObject({ checkedIn: 4, insideNow: 3 });
  // Undos: one at each list.
  await undo(1, main);
  await undo(6, hall);
  // Offline scans made 20 and 40 minutes ago, uploaded now: each in its own earlier slot.
  const now = Date.now();
  await uploadOffline(main, [
    { index: 7, scannedAt: new Date(now - 40 * 60_000) },
    { index: 8, scannedAt: new Date(now - 20 * 60_000) },
    { index: 9, scannedAt: new Date(now - 20 * 60_000) },
  ]);
  // At the bar: one guest in before its checkout (arrived, not inside now), one after.
  await uploadOffline(bar, [
    { index: 10, scannedAt: new Date(now - 50 * 60_000) },
    { index: 11, scannedAt: new Date(now - 10 * 60_000) },
  ]);
  // A check-in checked in again after its undo: counted once more.
  expect(await verify(1, main)).toBe(true);
  figures = await expectExact();
  expect(figures.lists.find((list) => list.id === main.id)).toMatchObject({ checkedIn: 7, insideNow: 7 });
  expect(figures.lists.find((list) => list.id === main.id)?.arrivals.length).toBeGreaterThanOrEqual(3);
  expect(figures.lists.find((list) => list.id === bar.id)).toMatchObject({ checkedIn: 2, insideNow: 1 });
  // A check-in's time moved (as a corrected device time would) to another slot, and a ticket
  // deleted with its check-ins (the cascade): the old slot loses it, the new one gains it.
  await t.database.db.update(checkIns).set({ checkedInAt: new Date(now - 60 * 60_000) }).where(eq(checkIns.ticketId, ticketId(2)));
  await t.database.db.delete(tickets).where(eq(tickets.id, ticketId(3)));
  figures = await expectExact();
  expect(figures.lists.find((list) => list.id === main.id)?.checkedIn).toBe(6);

  // Checked in per ticket type. Ticket 0, in at the main list and the hall, moved to another type
  // after its check-ins: one person of its new type, none of its old (the figure follows the type).
  const typesBefore = await recountTypes();
  await t.database.db.update(tickets).set({ ticketType: 'Balcony' }).where(eq(tickets.id, ticketId(0)));
  figures = await expectExact();
  expect(figures.ticketTypes.find((type) => type.name === 'Balcony')?.checkedIn).toBe((typesBefore.Balcony ?? 0) + 1);
  // A rename of the type (one statement over all its tickets, as the management area does it).
  await t.database.db.update(tickets).set({ ticketType: 'Upper Balcony' }).where(and(eq(tickets.eventId, event.id), eq(tickets.ticketType, 'Balcony')));
  figures = await expectExact();
  expect(figures.ticketTypes.find((type) => type.name === 'Balcony')?.checkedIn ?? 0).toBe(0);
  expect(figures.ticketTypes.find((type) => type.name === 'Upper Balcony')?.checkedIn).toBe((typesBefore.Balcony ?? 0) + 1);
  // A revoked ticket was let in: it stays checked in (it leaves the expected figure).
  await t.database.db.update(tickets).set({ revokedAt: new Date() }).where(eq(tickets.id, ticketId(4)));
  await expectExact();
  // Two check-ins of one ticket in one statement, at both lists, then a check-in moved to another
  // list, then undone one by one: one person until the last undo.
  const staff = (await t.database.db.select({ id: checkIns.staffUserId }).from(checkIns).where(eq(checkIns.eventId, event.id)).limit(1))[0]?.id ?? '';
  await t.database.db.insert(checkIns).values([main, hall].map((list) => ({ eventId: event.id, ticketId: ticketId(12), day: DAY, checkInListId: list.id, staffUserId: staff })));
  await t.database.db.insert(checkIns).values({ eventId: event.id, ticketId: ticketId(13), day: DAY, checkInListId: hall.id, staffUserId: staff });
  figures = await expectExact();
  await t.database.db.update(checkIns).set({ checkInListId: main.id }).where(and(eq(checkIns.ticketId, ticketId(13)), isNull(checkIns.undoneAt)));
  await expectExact();
  const twice = await recountTypes();
  await undo(12, main);
  expect(await recountTypes()).toEqual(twice);
  await expectExact();
  await undo(12, hall);
  await expectExact();
});

async function manualCheckIn(index: number, list: CheckInListRow): Promise<boolean> {
  const response = await t.app.inject({
    method: 'POST',
    url: api(supervisorPaths.manualCheckIn(event.id, ticketId(index))),
    headers: bearer(supervisorToken),
    payload: { day: DAY, checkInListId: list.id },
  });
  expect(response.statusCode, response.body).toBe(200);
  return VerifyTicketResponse.parse(response.json()).isValid;
}

test(`50 check-ins at one list and slot sent at once, with undos and an offline upload among them, are all counted (${TEST_DATABASE_KIND})`, async () => {
  const before = (await live()).lists.find((list) => list.id === main.id)?.checkedIn ?? 0;
  const fifty = Array.from({ length: 50 }, (_, k) => 20 + k);
  // Scans coalesce into multi-row statements (docs/decisions/070); manual check-ins are a
  // transaction each: on PostgreSQL these run on the pool's connections at the same moment.
  const results = await Promise.all([
    ...fifty.map((index) => (index % 2 === 0 ? verify(index, main) : manualCheckIn(index, main))),
    // At the same moment: two undos at the same list and slot, and an upload into the current slot.
    undo(0, main).then(() => true),
    undo(8, main).then(() => true),
    uploadOffline(main, [{ index: 80, scannedAt: new Date() }, { index: 81, scannedAt: new Date() }]).then(() => true),
  ]);
  expect(results.every(Boolean)).toBe(true);
  const figures = await expectExact();
  // 50 in, 2 undone, 2 uploaded.
  expect(figures.lists.find((list) => list.id === main.id)?.checkedIn).toBe(before + 50 - 2 + 2);
  // And at once at both lists, each ticket at each: the two lists' rows of the slot apart.
  const both = Array.from({ length: 20 }, (_, k) => 90 + k);
  await Promise.all(both.flatMap((index) => [verify(index, main), verify(index, hall)]));
  await expectExact();
  // The same tickets undone at both lists at once, half of them checked in again at the main list
  // at the same moment, while every General Admission ticket is moved to another type: each ticket
  // whose check-ins all went counts no more, a ticket counts once under its type at commit.
  await Promise.all([
    ...both.flatMap((index) => [undo(index, main), undo(index, hall)]),
    t.database.db.update(tickets).set({ ticketType: 'General' }).where(and(eq(tickets.eventId, event.id), eq(tickets.ticketType, 'General Admission'))),
  ]);
  await expectExact();
  await Promise.all(both.filter((index) => index % 2 === 0).flatMap((index) => [verify(index, main), verify(index, hall)]));
  await expectExact();
});
