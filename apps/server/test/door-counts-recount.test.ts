/**
 * The door's counts read from the trigger-kept counters (docs/decisions/140) against a recount of
 * check_ins, on the real database (PGlite, or PostgreSQL under server-pg): an event with two lists
 * and no daily checkout, through entries, exits and a re-entry, a ticket checked in at both lists
 * (inside now then counted by distinct tickets, the other branch of the one statement), its exit
 * and undo (back to the counters), and an undo. After each step the day's counts, a list's counts,
 * the live door and the door list's inside now must equal what check_ins says counted from scratch.
 */
import { randomUUID } from 'node:crypto';
import { apiPaths, CheckInCounts, checkInCountsPath, DoorList, LiveDoor, liveDoorPaths, offlinePaths, supervisorPaths, VerifyTicketResponse } from '@gatecheck/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkIns, eventDays, events } from '../src/db/schema.ts';
import { DEMO_SUPERVISOR } from '../src/db/seed.ts';
import { cliActor } from '../src/services/audit.ts';
import { type CheckInListRow, createCheckInList, listCheckInLists } from '../src/services/check-in-lists.ts';
import { type EventDetails, findEvent } from '../src/services/events.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { demoIds } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const DAY = 1;
let t: TestApp;
let token: string;
let event: EventDetails;
let main: CheckInListRow;
let hall: CheckInListRow;
const codes = Array.from({ length: 12 }, (_, index) => `DC-${randomUUID().slice(0, 8)}-${String(index).padStart(3, '0')}`);
const ticketIds = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp({ env: { LIVE_DOOR_SHARE_MS: '0' } });
  const ids = await demoIds(t.database.db);
  token = await login(t.app, DEMO_SUPERVISOR.username, DEMO_SUPERVISOR.password);
  const [row] = await t.database.db
    .insert(events)
    .values({ organizationId: ids.organizationId, title: 'Counters Night', date: '2026-06-01', status: 'live', allowsScanningOutsideDays: true })
    .returning();
  if (!row) throw new Error('no event');
  await t.database.db.insert(eventDays).values({ eventId: row.id, day: DAY, name: 'Friday', date: '2026-06-01' });
  event = await findEvent(t.database.db, row.id);
  [main] = (await listCheckInLists(t.database.db, event.id)) as [CheckInListRow];
  // Exits and re-entries at the hall; neither list has a daily checkout.
  hall = await createCheckInList(t.database.db, event, { name: 'Hall', ticketTypes: null, days: null, allowsReentry: true }, cliActor());
  const inserted = await insertTickets(t.database.db, codes.map((code) => ({ code, eventId: event.id, holderName: `Holder ${code}`, ticketType: 'General Admission', admittedDays: null })));
  for (const ticket of inserted) ticketIds.set(ticket.code, ticket.id);
});
afterAll(async () => {
  await t.close();
});

async function verify(index: number, list: CheckInListRow, direction?: 'exit'): Promise<void> {
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.verifyTicket),
    headers: bearer(token),
    payload: { eventId: event.id, qrCode: codes[index], day: DAY, checkInListId: list.id, scanId: randomUUID(), ...(direction ? { direction } : {}) },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(VerifyTicketResponse.parse(response.json()).isValid, response.body).toBe(true);
}

async function undo(index: number, list: CheckInListRow): Promise<void> {
  const response = await t.app.inject({
    method: 'POST',
    url: api(supervisorPaths.undoCheckIn(event.id, ticketIds.get(codes[index] ?? '') ?? '')),
    headers: bearer(token),
    payload: { day: DAY, reason: 'Counters test', checkInListId: list.id },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function get<T>(url: string, schema: { parse: (value: unknown) => T }): Promise<T> {
  const response = await t.app.inject({ method: 'GET', url: api(url), headers: bearer(token) });
  expect(response.statusCode, response.body).toBe(200);
  return schema.parse(response.json());
}

/** Every figure against check_ins counted here: active check-ins per list, those not exited, distinct tickets of each. */
async function expectExact(): Promise<{ checkedIn: number; inside: number }> {
  const rows = await t.database.db
    .select({ listId: checkIns.checkInListId, ticketId: checkIns.ticketId, exitedAt: checkIns.exitedAt })
    .from(checkIns)
    .where(and(eq(checkIns.eventId, event.id), eq(checkIns.day, DAY), isNull(checkIns.undoneAt)));
  const inside = rows.filter((row) => row.exitedAt === null);
  const expected = {
    checkedIn: new Set(rows.map((row) => row.ticketId)).size,
    inside: new Set(inside.map((row) => row.ticketId)).size,
  };
  const perList = (list: CheckInListRow) => ({
    checkedIn: rows.filter((row) => row.listId === list.id).length,
    insideNow: inside.filter((row) => row.listId === list.id).length,
  });

  const counts = await get(checkInCountsPath(event.id, DAY), CheckInCounts);
  expect({ checkedIn: counts.checkedIn, inside: counts.insideNow }).toEqual(expected);
  const figures = await get(liveDoorPaths.live(event.id, DAY), LiveDoor);
  expect({ checkedIn: figures.checkedIn, inside: figures.occupancy.inside }).toEqual(expected);
  for (const list of [main, hall]) {
    const atList = await get(`${checkInCountsPath(event.id, DAY)}?checkInListId=${list.id}`, CheckInCounts);
    expect({ checkedIn: atList.checkInList?.checkedIn, insideNow: atList.checkInList?.insideNow }).toEqual(perList(list));
    const line = figures.lists.find((entry) => entry.id === list.id);
    expect({ checkedIn: line?.checkedIn, insideNow: line?.insideNow }).toEqual(perList(list));
    const doorList = await get(`${offlinePaths.doorList(event.id, DAY)}?checkInListId=${list.id}`, DoorList);
    expect(doorList.insideNow).toBe(perList(list).insideNow);
  }
  return expected;
}

test(`the counts, a list's counts, the live door and the door list equal a recount through exits, a ticket at two lists and undos (${TEST_DATABASE_KIND})`, async () => {
  expect(await expectExact()).toEqual({ checkedIn: 0, inside: 0 });
  for (const index of [0, 1, 2, 3]) await verify(index, main);
  for (const index of [4, 5, 6]) await verify(index, hall);
  expect(await expectExact()).toEqual({ checkedIn: 7, inside: 7 });
  // Exits and a re-entry at the hall.
  await verify(4, hall, 'exit');
  await verify(5, hall, 'exit');
  await verify(5, hall);
  expect(await expectExact()).toEqual({ checkedIn: 7, inside: 6 });
  // Ticket 0 at the hall too: one person at two lists.
  await verify(0, hall);
  expect(await expectExact()).toEqual({ checkedIn: 7, inside: 6 });
  // It leaves the hall: still inside through the main door.
  await verify(0, hall, 'exit');
  expect(await expectExact()).toEqual({ checkedIn: 7, inside: 6 });
  // Its hall check-in undone, then ticket 1's at the main door.
  await undo(0, hall);
  await undo(1, main);
  expect(await expectExact()).toEqual({ checkedIn: 6, inside: 5 });
  // Ticket 6 leaves, and is let in again at the main door (two active check-ins, one inside).
  await verify(6, hall, 'exit');
  await verify(6, main);
  expect(await expectExact()).toEqual({ checkedIn: 6, inside: 5 });
});
