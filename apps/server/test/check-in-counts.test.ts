/**
 * GET /events/{eventId}/days/{day}/counts (issue 10 item 4): the sign-in and membership rules of
 * verify, and the numbers — check-ins of the day and tickets valid that day — before and after real
 * verify calls, on the real database (PGlite, or PostgreSQL under test:server:pg). Since
 * docs/decisions/062 the valid tickets come from `ticket_day_counts`, kept by triggers on tickets:
 * the exactness tests compare them with the tickets counted directly after every kind of write.
 */
import { randomUUID } from 'node:crypto';
import { apiPaths, ApiErrorBody, CheckInCounts, checkInCountsPath, supervisorPaths, VerifyTicketResponse } from '@gatecheck/contract';
import { and, arrayContains, count, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventDays, events, ticketDayCounts, tickets } from '../src/db/schema.ts';
import { revokeTicket } from '../src/services/tickets.ts';
import { importTicketsCsv } from '../src/services/tickets-import.ts';
import { DEMO_LIVE_EVENT_TITLE, DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { createOutsider, demoIds, OUTSIDER } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let demoToken: string;
let outsiderToken: string;
let ids: Awaited<ReturnType<typeof demoIds>>;
let outsider: Awaited<ReturnType<typeof createOutsider>>;
/** A two-day event of the demo organization with known tickets (see beforeAll). */
let doorEventId: string;

/** The door event's tickets: which days each admits (null = every day) and whether it is revoked. */
const DOOR_TICKETS = [
  { code: 'COUNT-ALL-1', admittedDays: null, revoked: false },
  { code: 'COUNT-ALL-2', admittedDays: null, revoked: false },
  { code: 'COUNT-DAY1', admittedDays: [1], revoked: false },
  { code: 'COUNT-DAY2', admittedDays: [2], revoked: false },
  { code: 'COUNT-REVOKED', admittedDays: null, revoked: true },
] as const;

beforeAll(async () => {
  t = await createTestApp();
  outsider = await createOutsider(t.database.db);
  ids = await demoIds(t.database.db);
  demoToken = await login(t.app, DEMO_USER.email, DEMO_USER.password);
  outsiderToken = await login(t.app, OUTSIDER.username, OUTSIDER.password);
  // Rehearsal mode: verify decides as if on the chosen day, whatever the test machine's date.
  const [event] = await t.database.db
    .insert(events)
    .values({ organizationId: ids.organizationId, title: 'Counting Night', date: '2026-06-01', status: 'live', allowsScanningOutsideDays: true })
    .returning();
  if (!event) throw new Error('no event');
  doorEventId = event.id;
  await t.database.db.insert(eventDays).values([
    { eventId: doorEventId, day: 1, name: 'Friday', date: '2026-06-01' },
    { eventId: doorEventId, day: 2, name: 'Saturday', date: '2026-06-02' },
  ]);
  await t.database.db.insert(tickets).values(
    DOOR_TICKETS.map((ticket) => ({
      code: ticket.code,
      eventId: doorEventId,
      holderName: `Holder ${ticket.code}`,
      ticketType: 'General Admission',
      admittedDays: ticket.admittedDays === null ? null : [...ticket.admittedDays],
      revokedAt: ticket.revoked ? new Date() : null,
    })),
  );
});
afterAll(async () => {
  await t.close();
});

function getCounts(token: string | null, eventId: string, day: number | string) {
  return t.app.inject({
    method: 'GET',
    url: api(typeof day === 'number' ? checkInCountsPath(eventId, day) : `/events/${eventId}/days/${day}/counts`),
    headers: token === null ? {} : bearer(token),
  });
}

async function counts(eventId: string, day: number): Promise<CheckInCounts> {
  const response = await getCounts(demoToken, eventId, day);
  expect(response.statusCode, response.body).toBe(200);
  return CheckInCounts.parse(response.json());
}

async function scan(qrCode: string, day: number, eventId = doorEventId): Promise<VerifyTicketResponse> {
  const response = await t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(demoToken), payload: { eventId, qrCode, day } });
  expect(response.statusCode).toBe(200);
  return VerifyTicketResponse.parse(response.json());
}

/** A supervisor's undo (issue 11) of `ticketId`'s check-in on `day`, through the API. */
async function undoCheckIn(eventId: string, ticketId: string, day: number): Promise<void> {
  const undo = await t.app.inject({
    method: 'POST',
    url: api(supervisorPaths.undoCheckIn(eventId, ticketId)),
    headers: bearer(demoToken),
    payload: { day, reason: 'Scanned the wrong wristband' },
  });
  expect(undo.statusCode, undo.body).toBe(200);
}

test(`counts check-ins of the day and tickets valid that day, before and after scans (${TEST_DATABASE_KIND})`, async () => {
  // Day 1 admits the two all-days tickets and the day-1 ticket; the revoked one and the day-2 one do not count.
  expect(await counts(doorEventId, 1)).toEqual({ eventId: doorEventId, day: 1, checkedIn: 0, validTickets: 3, insideNow: 0 });
  expect(await counts(doorEventId, 2)).toEqual({ eventId: doorEventId, day: 2, checkedIn: 0, validTickets: 3, insideNow: 0 });

  expect((await scan('COUNT-ALL-1', 1)).isValid).toBe(true);
  expect(await counts(doorEventId, 1)).toMatchObject({ checkedIn: 1, validTickets: 3, insideNow: 1 });

  // A re-scan (also in another letter case) is denied and does not count twice.
  expect(await scan('count-all-1', 1)).toMatchObject({ isValid: false, reason: 'already_checked_in' });
  // Denied scans add nothing: revoked, not valid that day, unknown.
  expect(await scan('COUNT-REVOKED', 1)).toMatchObject({ isValid: false, reason: 'revoked' });
  expect(await scan('COUNT-DAY2', 1)).toMatchObject({ isValid: false, reason: 'not_valid_today' });
  expect(await scan('COUNT-NOPE', 1)).toMatchObject({ isValid: false, reason: 'not_found' });
  expect(await counts(doorEventId, 1)).toMatchObject({ checkedIn: 1, validTickets: 3, insideNow: 1 });

  expect((await scan('COUNT-DAY1', 1)).isValid).toBe(true);
  expect(await counts(doorEventId, 1)).toMatchObject({ checkedIn: 2, validTickets: 3, insideNow: 2 });

  // Another day's check-ins count on that day only.
  expect(await counts(doorEventId, 2)).toMatchObject({ checkedIn: 0, validTickets: 3, insideNow: 0 });
  expect((await scan('COUNT-ALL-1', 2)).isValid).toBe(true);
  expect((await scan('COUNT-DAY2', 2)).isValid).toBe(true);
  expect(await counts(doorEventId, 2)).toMatchObject({ checkedIn: 2, validTickets: 3, insideNow: 2 });
  expect(await counts(doorEventId, 1)).toMatchObject({ checkedIn: 2, validTickets: 3, insideNow: 2 });
});

test(`a check-in undone by a supervisor no longer counts, and the ticket admitted again counts once (${TEST_DATABASE_KIND})`, async () => {
  const [ticket] = await t.database.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.code, 'COUNT-ALL-2'));
  if (!ticket) throw new Error('no ticket');
  expect((await scan('COUNT-ALL-2', 2)).isValid).toBe(true);
  const before = await counts(doorEventId, 2);
  await undoCheckIn(doorEventId, ticket.id, 2);
  expect(await counts(doorEventId, 2)).toMatchObject({ checkedIn: before.checkedIn - 1 });
  expect((await scan('COUNT-ALL-2', 2)).isValid).toBe(true);
  expect(await counts(doorEventId, 2)).toMatchObject({ checkedIn: before.checkedIn });
});

test('a day the event does not have counts nothing', async () => {
  expect(await counts(doorEventId, 3)).toEqual({ eventId: doorEventId, day: 3, checkedIn: 0, validTickets: 0, insideNow: 0 });
});

test("the demo event's counts match its seeded tickets, and another event's check-ins do not count", async () => {
  const liveTickets = (t.demo?.tickets ?? []).filter((ticket) => ticket.eventTitle === DEMO_LIVE_EVENT_TITLE);
  const validToday = liveTickets.filter((ticket) => !ticket.isRevoked && (ticket.days === null || ticket.days.includes(DEMO_TODAY_DAY_NUMBER)));
  expect(validToday.length).toBeGreaterThan(0);
  // The door event's check-ins (previous test) are not the demo event's.
  expect(await counts(ids.liveEventId, DEMO_TODAY_DAY_NUMBER)).toEqual({
    eventId: ids.liveEventId,
    day: DEMO_TODAY_DAY_NUMBER,
    checkedIn: 0,
    validTickets: validToday.length,
    insideNow: 0,
  });
  const [first] = validToday;
  if (!first) throw new Error('no ticket');
  expect((await scan(first.code, DEMO_TODAY_DAY_NUMBER, ids.liveEventId)).isValid).toBe(true);
  expect(await counts(ids.liveEventId, DEMO_TODAY_DAY_NUMBER)).toMatchObject({ checkedIn: 1, validTickets: validToday.length });
});

test('without signing in the counts are a 401', async () => {
  const response = await getCounts(null, doorEventId, 1);
  expect(response.statusCode).toBe(401);
  expect(ApiErrorBody.parse(response.json()).code).toBe('unauthenticated');
});

test("a member of another organization may not read this event's counts (404, as for an unknown event), and a member may not read theirs", async () => {
  const refused = await getCounts(outsiderToken, doorEventId, 1);
  expect(refused.statusCode).toBe(404);
  expect(ApiErrorBody.parse(refused.json())).toEqual({ code: 'not_found', message: `No event with id "${doorEventId}"` });
  expect((await getCounts(demoToken, outsider.eventId, 1)).statusCode).toBe(404);
  // The outsider reads their own event: one valid ticket, none checked in.
  const own = await getCounts(outsiderToken, outsider.eventId, 1);
  expect(own.statusCode).toBe(200);
  expect(CheckInCounts.parse(own.json())).toEqual({ eventId: outsider.eventId, day: 1, checkedIn: 0, validTickets: 1, insideNow: 0 });
});

test('an unknown event is a 404', async () => {
  for (const eventId of [randomUUID(), 'nope']) {
    const response = await getCounts(demoToken, eventId, 1);
    expect(response.statusCode).toBe(404);
    expect(ApiErrorBody.parse(response.json()).code).toBe('not_found');
  }
});

test('a day that is not a whole number from 1 to 366 is a 400 naming params.day', async () => {
  for (const day of ['0', '367', 'two', '1.5', '-1', '1e2', '0x2']) {
    const response = await getCounts(demoToken, doorEventId, day);
    expect(response.statusCode, day).toBe(400);
    expect(ApiErrorBody.parse(response.json()), day).toMatchObject({ code: 'validation_failed', field: 'params.day' });
  }
});

/**
 * M as the tickets table says it, read the slow way (the query the counts used before
 * docs/decisions/062): the reference the trigger-kept ticket_day_counts must equal.
 */
async function validTicketsFromTickets(eventId: string, day: number): Promise<number> {
  const [row] = await t.database.db
    .select({ valid: count() })
    .from(tickets)
    .where(
      and(eq(tickets.eventId, eventId), isNull(tickets.revokedAt), or(isNull(tickets.admittedDays), arrayContains(tickets.admittedDays, [day]))),
    );
  return row?.valid ?? 0;
}

/** A fresh three-day event of the demo organization without tickets (rehearsal mode: verify works on any day). */
async function createEmptyEvent(title: string): Promise<string> {
  const [event] = await t.database.db
    .insert(events)
    .values({ organizationId: ids.organizationId, title, date: '2026-07-01', status: 'live', allowsScanningOutsideDays: true })
    .returning();
  if (!event) throw new Error('no event');
  await t.database.db.insert(eventDays).values([1, 2, 3].map((day) => ({ eventId: event.id, day, name: `Day ${day}`, date: `2026-07-0${day}` })));
  return event.id;
}

async function expectValid(eventId: string, expected: Record<number, number>): Promise<void> {
  for (const [day, valid] of Object.entries(expected)) {
    expect(await counts(eventId, Number(day)), `day ${day}`).toMatchObject({ validTickets: valid });
    expect(await validTicketsFromTickets(eventId, Number(day)), `day ${day} from tickets`).toBe(valid);
  }
}

test(`counts are exact right after an import, a revoke, a ticket edit, a deletion and a rolled-back import (${TEST_DATABASE_KIND})`, async () => {
  const eventId = await createEmptyEvent('Counting Exactly');
  await expectValid(eventId, { 1: 0, 2: 0, 3: 0 });

  const csv = [
    'code,holder_name,ticket_type,days',
    'EXACT-ALL-1,Ada,General,all',
    'EXACT-ALL-2,Bea,General,all',
    'EXACT-D1,Cem,Day,1',
    'EXACT-D13,Dua,Day,1|3',
    // A code already taken (by the first event's ticket): refused, so it must not count.
    'COUNT-ALL-1,Eli,Day,2',
    // A repeated code within the file: the second one is refused.
    'EXACT-D1,Fay,Day,2',
  ].join('\n');
  const summary = await importTicketsCsv(t.database.db, { eventId, csv, batchSize: 2 });
  expect(summary.imported).toBe(4);
  await expectValid(eventId, { 1: 4, 2: 2, 3: 3 });
  // Another event's counts did not move.
  expect(await counts(doorEventId, 1)).toMatchObject({ validTickets: 3 });

  // Revoking takes the ticket away from every day it admitted; revoking again changes nothing.
  expect((await revokeTicket(t.database.db, 'exact-d13')).wasAlreadyRevoked).toBe(false);
  await expectValid(eventId, { 1: 3, 2: 2, 3: 2 });
  expect((await revokeTicket(t.database.db, 'EXACT-D13')).wasAlreadyRevoked).toBe(true);
  await expectValid(eventId, { 1: 3, 2: 2, 3: 2 });

  // An edit of the admitted days (one statement over several tickets; a day listed twice counts once).
  await t.database.db
    .update(tickets)
    .set({ admittedDays: [2, 2, 3] })
    .where(and(eq(tickets.eventId, eventId), inArray(tickets.code, ['EXACT-ALL-1', 'EXACT-D1'])));
  await expectValid(eventId, { 1: 1, 2: 3, 3: 3 });
  // Un-revoking (an operator's fix in SQL) counts the ticket again.
  await t.database.db.update(tickets).set({ revokedAt: null }).where(eq(tickets.code, 'EXACT-D13'));
  await expectValid(eventId, { 1: 2, 2: 3, 3: 4 });

  // A deleted ticket no longer counts.
  await t.database.db.delete(tickets).where(eq(tickets.code, 'EXACT-ALL-2'));
  await expectValid(eventId, { 1: 1, 2: 2, 3: 3 });

  // Tickets inserted in a transaction that rolls back never count.
  await expect(
    t.database.db.transaction(async (tx) => {
      await tx.insert(tickets).values({ code: 'EXACT-ROLLED-BACK', eventId, holderName: 'Gil', ticketType: 'General', admittedDays: null });
      throw new Error('roll back');
    }),
  ).rejects.toThrow('roll back');
  await expectValid(eventId, { 1: 1, 2: 2, 3: 3 });
});

test(`checked-in counts are exact right after a check-in and an undo, per day and per event (${TEST_DATABASE_KIND})`, async () => {
  const eventId = await createEmptyEvent('Counting Doors');
  const csv = ['code,holder_name,ticket_type,days', 'DOOR-A,Ada,General,all', 'DOOR-B,Bea,General,all', 'DOOR-C,Cem,Day,2'].join('\n');
  expect((await importTicketsCsv(t.database.db, { eventId, csv })).imported).toBe(3);
  expect(await counts(eventId, 1)).toEqual({ eventId, day: 1, checkedIn: 0, validTickets: 2, insideNow: 0 });

  expect((await scan('DOOR-A', 1, eventId)).isValid).toBe(true);
  expect(await counts(eventId, 1)).toEqual({ eventId, day: 1, checkedIn: 1, validTickets: 2, insideNow: 1 });
  expect((await scan('DOOR-B', 1, eventId)).isValid).toBe(true);
  expect(await counts(eventId, 1)).toEqual({ eventId, day: 1, checkedIn: 2, validTickets: 2, insideNow: 2 });
  expect(await counts(eventId, 2)).toEqual({ eventId, day: 2, checkedIn: 0, validTickets: 3, insideNow: 0 });

  const [ticket] = await t.database.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.code, 'DOOR-A'));
  if (!ticket) throw new Error('no ticket');
  await undoCheckIn(eventId, ticket.id, 1);
  expect(await counts(eventId, 1)).toEqual({ eventId, day: 1, checkedIn: 1, validTickets: 2, insideNow: 1 });
  // A revoked ticket's check-in stays counted; the ticket leaves M.
  await revokeTicket(t.database.db, 'DOOR-B');
  expect(await counts(eventId, 1)).toEqual({ eventId, day: 1, checkedIn: 1, validTickets: 1, insideNow: 1 });
});

test(`deleting an event with tickets cascades through the kept counts without an error and leaves none of its rows (${TEST_DATABASE_KIND})`, async () => {
  const eventId = await createEmptyEvent('Counting Gone');
  const csv = ['code,holder_name,ticket_type,days', 'GONE-A,Ada,General,all', 'GONE-B,Bea,General,2'].join('\n');
  expect((await importTicketsCsv(t.database.db, { eventId, csv })).imported).toBe(2);
  expect(await t.database.db.select().from(ticketDayCounts).where(eq(ticketDayCounts.eventId, eventId))).toHaveLength(2);
  await t.database.db.delete(events).where(eq(events.id, eventId));
  expect(await t.database.db.select().from(ticketDayCounts).where(eq(ticketDayCounts.eventId, eventId))).toEqual([]);
  expect(await t.database.db.select().from(tickets).where(eq(tickets.eventId, eventId))).toEqual([]);
});

test(`concurrent imports and revokes of one event leave the counts exact (${TEST_DATABASE_KIND})`, async () => {
  const eventId = await createEmptyEvent('Counting Together');
  const csvOf = (prefix: string) =>
    ['code,holder_name,ticket_type,days', ...Array.from({ length: 60 }, (_, i) => `${prefix}-${i},Holder ${i},General,${['all', '1', '2|3', '1|2|3'][i % 4]}`)].join('\n');
  const first = await importTicketsCsv(t.database.db, { eventId, csv: csvOf('TOGETHER-A'), batchSize: 7 });
  expect(first.imported).toBe(60);
  // Two more imports in small batches and revokes of the first import's tickets, all at once (on
  // PostgreSQL on separate pooled connections, so their transactions interleave).
  const [second, third] = await Promise.all([
    importTicketsCsv(t.database.db, { eventId, csv: csvOf('TOGETHER-B'), batchSize: 7 }),
    importTicketsCsv(t.database.db, { eventId, csv: csvOf('TOGETHER-C'), batchSize: 5 }),
    Promise.all(Array.from({ length: 20 }, (_, i) => revokeTicket(t.database.db, `TOGETHER-A-${i * 3}`))),
  ]);
  expect([second.imported, third.imported]).toEqual([60, 60]);
  // Each file admits 45 tickets per day (15 each of all, 1, 2|3, 1|2|3 → 45 on every day), so
  // 135 of the 180. The revoked ones (i = 0, 3, …, 57 of the first file) are 5 of each kind, 15
  // per day: 120 left on every day.
  await expectValid(eventId, { 1: 120, 2: 120, 3: 120 });
});

test(`truncating tickets empties the kept counts in the same transaction (${TEST_DATABASE_KIND})`, async () => {
  expect((await t.database.db.select().from(ticketDayCounts)).length).toBeGreaterThan(0);
  await expect(
    t.database.db.transaction(async (tx) => {
      await tx.execute(sql`truncate tickets cascade`);
      expect(await tx.select().from(ticketDayCounts)).toEqual([]);
      throw new Error('roll back');
    }),
  ).rejects.toThrow('roll back');
  // Rolled back with the truncate: the door event's counts are as before.
  expect(await counts(doorEventId, 1)).toMatchObject({ validTickets: 3 });
});
