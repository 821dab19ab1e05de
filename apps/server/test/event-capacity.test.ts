/**
 * The event's capacity (docs/decisions/147) on the real app and database, PGlite and PostgreSQL: set
 * by the management API and the admin CLI through one service rule (≤ 0 refused, a 400 naming its
 * field, nothing written); an entry at any list is DENIED 'At capacity: N inside' when the event's
 * inside-now (distinct tickets inside through any list) has reached it; an exit, an undo and the
 * daily checkout free a place; of 50 concurrent entries at two lists for the last place exactly one
 * wins; offline an entry over the capacity is recorded and listed as a conflict.
 */
import path from 'node:path';
import { tmpdir } from 'node:os';
import { randomUUID } from 'node:crypto';
import {
  ApiErrorBody,
  apiPaths,
  checkInCountsPath,
  CheckInCounts,
  CheckInList,
  checkInListPath,
  checkInListsPath,
  DoorList,
  LiveDoor,
  liveDoorPaths,
  ManagedEvent,
  managePaths,
  OfflineScanBatchResponse,
  offlinePaths,
  supervisorPaths,
  UndoCheckInResponse,
  VerifyTicketResponse,
  wallClock,
} from '@gatecheck/contract';
import { and, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkInListSlots, checkIns, events, eventSlots } from '../src/db/schema.ts';
import { nextDailyCheckout } from '../src/services/check-ins/event-places.ts';
import { DEMO_COLLEAGUE, DEMO_SUPERVISOR, DEMO_USER } from '../src/db/seed.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { runCli } from './cli/cli-harness.ts';
import { demoIds } from './helpers/fixtures.ts';
import { StatementRecorder } from './helpers/query-plans.ts';
import { api, bearer, createTestApp, login, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

/** Every event here allows scanning outside its days: its one day is day 1 whatever the clock. */
const DAY = 1;
const TIME_ZONE = 'Europe/Berlin';
let t: TestApp;
let ids: Awaited<ReturnType<typeof demoIds>>;
let adminToken: string;
let supervisorToken: string;
let staffToken: string;
/** How far the app's clock runs ahead of the real one (the daily checkout test moves it). */
let clockAheadMs = 0;
let nextTicket = 0;
/** The statements the app sends while a test records them (`recorder.during`). */
const recorder = new StatementRecorder();

beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(Date.now() + clockAheadMs), databaseOptions: { logger: recorder } });
  ids = await demoIds(t.database.db);
  adminToken = await login(t.app, DEMO_USER.username, DEMO_USER.password);
  supervisorToken = await login(t.app, DEMO_SUPERVISOR.username, DEMO_SUPERVISOR.password);
  staffToken = await login(t.app, DEMO_COLLEAGUE.username, DEMO_COLLEAGUE.password);
});
afterAll(async () => {
  await t.close();
});

function eventBody(capacity?: number | null) {
  return {
    title: `Venue ${randomUUID().slice(0, 8)}`,
    description: '',
    date: wallClock(TIME_ZONE, new Date()).date,
    location: 'Hall',
    status: 'live',
    timeZone: TIME_ZONE,
    dayCutoff: '04:00',
    allowsScanningOutsideDays: true,
    days: [],
    ...(capacity === undefined ? {} : { capacity }),
  };
}

async function newEvent(capacity?: number | null, overrides: Record<string, unknown> = {}): Promise<ManagedEvent> {
  const payload = { ...eventBody(capacity), ...overrides };
  const response = await t.app.inject({ method: 'POST', url: api(managePaths.organizationEvents(ids.organizationId)), headers: bearer(adminToken), payload });
  expect(response.statusCode, response.body).toBe(201);
  return ManagedEvent.parse(response.json());
}

async function editEvent(eventId: string, change: Record<string, unknown>) {
  const [row] = await t.database.db.select().from(events).where(eq(events.id, eventId));
  if (!row) throw new Error('no event');
  const body = { ...eventBody(), title: row.title, date: row.date, ...change };
  return t.app.inject({ method: 'POST', url: api(managePaths.event(eventId)), headers: bearer(adminToken), payload: body });
}

async function newList(eventId: string, body: Record<string, unknown> = {}): Promise<CheckInList> {
  const response = await t.app.inject({ method: 'POST', url: api(checkInListsPath(eventId)), headers: bearer(adminToken), payload: { name: `Door ${randomUUID().slice(0, 8)}`, ...body } });
  expect(response.statusCode, response.body).toBe(201);
  return CheckInList.parse(response.json());
}

async function newTicket(eventId: string): Promise<{ id: string; code: string }> {
  const code = `VENUE-${String(nextTicket++).padStart(3, '0')}-${randomUUID().slice(0, 18)}`;
  const [ticket] = await insertTickets(t.database.db, [{ code, eventId, holderName: `Holder ${code}`, ticketType: 'General Admission' }]);
  if (!ticket) throw new Error('no ticket');
  return { id: ticket.id, code };
}

async function verify(eventId: string, code: string, list: CheckInList, direction?: 'entry' | 'exit', day = DAY) {
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.verifyTicket),
    headers: bearer(staffToken),
    payload: { eventId, qrCode: code, day, checkInListId: list.id, scanId: randomUUID(), ...(direction ? { direction } : {}) },
  });
  expect(response.statusCode, response.body).toBe(200);
  return VerifyTicketResponse.parse(response.json());
}

async function eventInsideNow(eventId: string): Promise<number> {
  const response = await t.app.inject({ method: 'GET', url: api(checkInCountsPath(eventId, DAY)), headers: bearer(staffToken) });
  return CheckInCounts.parse(response.json()).insideNow ?? -1;
}

async function placesHeld(eventId: string): Promise<number> {
  const [row] = await t.database.db.select({ value: count() }).from(eventSlots).where(and(eq(eventSlots.eventId, eventId), isNotNull(eventSlots.ticketId)));
  return row?.value ?? 0;
}

async function listPlacesHeld(list: CheckInList): Promise<number> {
  const [row] = await t.database.db.select({ value: count() }).from(checkInListSlots).where(and(eq(checkInListSlots.checkInListId, list.id), isNotNull(checkInListSlots.checkInId)));
  return row?.value ?? 0;
}

describe('setting the capacity', () => {
  test('the management API sets, shows, changes and removes it; an edit without it keeps it', async () => {
    const event = await newEvent(500);
    expect(event.capacity).toBe(500);
    // The scanner's header reads it with the counts, beside the event's inside-now.
    const counts = await t.app.inject({ method: 'GET', url: api(checkInCountsPath(event.id, DAY)), headers: bearer(staffToken) });
    expect(CheckInCounts.parse(counts.json())).toMatchObject({ insideNow: 0, capacity: 500 });
    const edited = await editEvent(event.id, { capacity: 2000 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(ManagedEvent.parse(edited.json()).capacity).toBe(2000);
    const kept = await editEvent(event.id, { location: 'Main hall' });
    expect(ManagedEvent.parse(kept.json())).toMatchObject({ location: 'Main hall', capacity: 2000 });
    const removed = await editEvent(event.id, { capacity: null });
    expect(ManagedEvent.parse(removed.json()).capacity).toBeNull();
    expect(await t.database.db.select().from(eventSlots).where(eq(eventSlots.eventId, event.id))).toEqual([]);
  });

  test.each([
    ['a capacity of 0', 0],
    ['a negative capacity', -5],
    ['a capacity that is not whole', 2.5],
  ])('%s is a 400 naming body.capacity, on create and on edit, and nothing changes', async (_what, capacity) => {
    const [before] = await t.database.db.select({ value: count() }).from(events);
    const created = await t.app.inject({ method: 'POST', url: api(managePaths.organizationEvents(ids.organizationId)), headers: bearer(adminToken), payload: eventBody(capacity) });
    expect(created.statusCode).toBe(400);
    expect(ApiErrorBody.parse(created.json())).toMatchObject({ code: 'validation_failed', field: 'body.capacity' });
    const [after] = await t.database.db.select({ value: count() }).from(events);
    expect(after?.value).toBe(before?.value);

    const event = await newEvent(3);
    const edited = await editEvent(event.id, { capacity });
    expect(edited.statusCode).toBe(400);
    expect(ApiErrorBody.parse(edited.json())).toMatchObject({ code: 'validation_failed', field: 'body.capacity' });
    const [row] = await t.database.db.select({ capacity: events.capacity }).from(events).where(eq(events.id, event.id));
    expect(row?.capacity).toBe(3);
  });

  test('the admin CLI sets and removes it with the same rule: --capacity 0 is refused in the API\'s words', async () => {
    const dir = path.join(tmpdir(), 'gatecheck-event-capacity-cli');
    const env = { DATA_DIR: dir, INIT_CWD: dir, LOG_LEVEL: 'silent', WEB_DIST_DIR: path.join(dir, 'no-web-build') };
    const created = await runCli(['event', 'create', '--org', ids.organizationId, '--title', 'CLI Venue', '--date', '2026-12-10', '--capacity', '1200'], { env, database: t.database });
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.stdout).toContain('Capacity: 1200 guests inside at once');
    const eventId = /id ([0-9a-f-]{36})/.exec(created.stdout)?.[1] ?? '';
    const capacityOf = async () => (await t.database.db.select({ capacity: events.capacity }).from(events).where(eq(events.id, eventId)))[0]?.capacity;
    expect(await capacityOf()).toBe(1200);
    expect(await placesHeld(eventId)).toBe(0);

    const refused = await runCli(['event', 'set', '--event', eventId, '--capacity', '0'], { env, database: t.database });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('Invalid capacity: A capacity is at least 1 guest');
    expect(await capacityOf()).toBe(1200);

    const set = await runCli(['event', 'set', '--event', eventId, '--capacity', '300'], { env, database: t.database });
    expect(set.exitCode, set.stderr).toBe(0);
    expect(await capacityOf()).toBe(300);
    const none = await runCli(['event', 'set', '--event', eventId, '--capacity', 'none'], { env, database: t.database });
    expect(none.exitCode, none.stderr).toBe(0);
    expect(none.stdout).toContain('No capacity for the venue');
    expect(await capacityOf()).toBeNull();
  });
});

describe('the limit at every door', () => {
  test("a full venue denies an entry at any list 'At capacity: 2 inside'; a guest inside through two lists holds one place; an exit and an undo free it", async () => {
    const event = await newEvent(2);
    const [main, side] = [await newList(event.id, { allowsReentry: true }), await newList(event.id, { allowsReentry: true })];
    const [a, b, c, d] = [await newTicket(event.id), await newTicket(event.id), await newTicket(event.id), await newTicket(event.id)];
    expect(await verify(event.id, a.code, main)).toMatchObject({ isValid: true });
    expect(await verify(event.id, b.code, side)).toMatchObject({ isValid: true });
    const full = await verify(event.id, c.code, main);
    expect(full).toMatchObject({ isValid: false, reason: 'at_capacity', message: 'At capacity: 2 inside', capacityDenial: { insideNow: 2, capacity: 2 } });
    expect(await verify(event.id, c.code, side)).toMatchObject({ isValid: false, reason: 'at_capacity' });
    // A supervisor's check-in by hand is held to the same limit.
    const byHand = await t.app.inject({ method: 'POST', url: api(supervisorPaths.manualCheckIn(event.id, c.id)), headers: bearer(supervisorToken), payload: { day: DAY, checkInListId: main.id } });
    expect(VerifyTicketResponse.parse(byHand.json())).toMatchObject({ isValid: false, reason: 'at_capacity', message: 'At capacity: 2 inside' });
    expect(await t.database.db.select().from(checkIns).where(eq(checkIns.ticketId, c.id))).toEqual([]);
    // a is inside already: passing a second door takes no second place.
    expect(await verify(event.id, a.code, side)).toMatchObject({ isValid: true });
    expect(await eventInsideNow(event.id)).toBe(2);
    expect(await placesHeld(event.id)).toBe(2);
    const live = await t.app.inject({ method: 'GET', url: api(liveDoorPaths.live(event.id, DAY)), headers: bearer(supervisorToken) });
    expect(LiveDoor.parse(live.json()).occupancy).toEqual({ inside: 2, capacity: 2 });
    // Leaving through one door while still inside through the other frees nothing.
    expect(await verify(event.id, a.code, main, 'exit')).toMatchObject({ isValid: true, direction: 'exit' });
    expect(await verify(event.id, c.code, main)).toMatchObject({ isValid: false, reason: 'at_capacity' });
    expect(await verify(event.id, a.code, side, 'exit')).toMatchObject({ isValid: true, direction: 'exit' });
    expect(await eventInsideNow(event.id)).toBe(1);
    expect(await verify(event.id, c.code, main)).toMatchObject({ isValid: true });
    expect(await verify(event.id, d.code, main)).toMatchObject({ isValid: false, reason: 'at_capacity', message: 'At capacity: 2 inside' });
    const undo = await t.app.inject({ method: 'POST', url: api(supervisorPaths.undoCheckIn(event.id, b.id)), headers: bearer(supervisorToken), payload: { day: DAY, reason: 'wrong venue', checkInListId: side.id } });
    expect(UndoCheckInResponse.parse(undo.json()).exitedAt).toBeNull();
    expect(await placesHeld(event.id)).toBe(1);
    expect(await verify(event.id, d.code, main)).toMatchObject({ isValid: true });
  });

  test('an entry at a plain list counts too, and a ticket already in is denied already checked in, not at capacity', async () => {
    const event = await newEvent(1);
    const plain = await newList(event.id);
    const [a, b] = [await newTicket(event.id), await newTicket(event.id)];
    expect(await verify(event.id, a.code, plain)).toMatchObject({ isValid: true });
    expect(await verify(event.id, a.code, plain)).toMatchObject({ isValid: false, reason: 'already_checked_in' });
    expect(await verify(event.id, b.code, plain)).toMatchObject({ isValid: false, reason: 'at_capacity', message: 'At capacity: 1 inside' });
  });

  test('a capacity set while guests are inside counts them', async () => {
    const event = await newEvent();
    const door = await newList(event.id, { allowsReentry: true });
    const [a, b] = [await newTicket(event.id), await newTicket(event.id)];
    expect(await verify(event.id, a.code, door)).toMatchObject({ isValid: true });
    expect((await editEvent(event.id, { capacity: 1 })).statusCode).toBe(200);
    expect(await placesHeld(event.id)).toBe(1);
    expect(await verify(event.id, b.code, door)).toMatchObject({ isValid: false, reason: 'at_capacity', message: 'At capacity: 1 inside' });
    expect(await verify(event.id, a.code, door, 'exit')).toMatchObject({ isValid: true });
    expect(await verify(event.id, b.code, door)).toMatchObject({ isValid: true });
  });

  test("the daily checkout frees the places of the guests it checks out", async () => {
    const event = await newEvent(1);
    const wall = wallClock(TIME_ZONE, new Date(Date.now() + 60 * 60_000));
    const night = await newList(event.id, { allowsReentry: true, dailyCheckoutTime: wall.time.slice(0, 5) });
    const [a, b] = [await newTicket(event.id), await newTicket(event.id)];
    expect(await verify(event.id, a.code, night)).toMatchObject({ isValid: true });
    expect(await verify(event.id, b.code, night)).toMatchObject({ isValid: false, reason: 'at_capacity' });
    clockAheadMs = 2 * 60 * 60_000;
    try {
      expect(await eventInsideNow(event.id)).toBe(0);
      expect(await verify(event.id, b.code, night)).toMatchObject({ isValid: true });
    } finally {
      clockAheadMs = 0;
    }
  });

  // A list's daily checkout edited while guests are inside: their places of the venue (and of the
  // list) last as the new checkout says, so the next entry cannot take them over at the old time.
  test.each([
    ['removed', null],
    ['moved two hours later', 3],
  ])('a list\'s daily checkout %s: the places held through it are kept past the old checkout', async (_what, hoursAhead) => {
    const event = await newEvent(1);
    const at = (hours: number) => wallClock(TIME_ZONE, new Date(Date.now() + hours * 60 * 60_000)).time.slice(0, 5);
    const night = await newList(event.id, { allowsReentry: true, capacity: 1, dailyCheckoutTime: at(1) });
    const [a, b] = [await newTicket(event.id), await newTicket(event.id)];
    expect(await verify(event.id, a.code, night)).toMatchObject({ isValid: true });
    const edited = await t.app.inject({ method: 'PATCH', url: api(checkInListPath(event.id, night.id)), headers: bearer(adminToken), payload: { dailyCheckoutTime: hoursAhead === null ? null : at(hoursAhead) } });
    expect(edited.statusCode, edited.body).toBe(200);
    const [place] = await t.database.db.select({ expiresAt: eventSlots.expiresAt }).from(eventSlots).where(eq(eventSlots.ticketId, a.id));
    const [checkIn] = await t.database.db.select({ checkedInAt: checkIns.checkedInAt }).from(checkIns).where(eq(checkIns.ticketId, a.id));
    if (!checkIn) throw new Error('no check-in');
    expect(place?.expiresAt).toEqual(nextDailyCheckout(TIME_ZONE, CheckInList.parse(edited.json()).dailyCheckoutTime, checkIn.checkedInAt));
    const plain = await newList(event.id);
    clockAheadMs = 2 * 60 * 60_000;
    try {
      expect(await eventInsideNow(event.id)).toBe(1);
      expect(await verify(event.id, b.code, plain)).toMatchObject({ isValid: false, reason: 'at_capacity', message: 'At capacity: 1 inside' });
      expect(await verify(event.id, b.code, night)).toMatchObject({ isValid: false, reason: 'at_capacity', message: 'At capacity: 1 inside' });
      expect(await placesHeld(event.id)).toBe(1);
      expect(await listPlacesHeld(night)).toBe(1);
    } finally {
      clockAheadMs = 0;
    }
  });

  test('50 concurrent entries at two lists with one place of the venue left: exactly one is APPROVED, 49 DENIED at capacity', async () => {
    const event = await newEvent(3);
    const [main, side] = [await newList(event.id), await newList(event.id, { allowsReentry: true })];
    for (const ticket of [await newTicket(event.id), await newTicket(event.id)]) expect(await verify(event.id, ticket.code, main)).toMatchObject({ isValid: true });
    const tickets = await Promise.all(Array.from({ length: 50 }, () => newTicket(event.id)));
    const verdicts = await Promise.all(tickets.map((ticket, index) => verify(event.id, ticket.code, index % 2 === 0 ? main : side)));
    expect(verdicts.filter((verdict) => verdict.isValid)).toHaveLength(1);
    expect(verdicts.filter((verdict) => !verdict.isValid && verdict.reason === 'at_capacity')).toHaveLength(49);
    const [inside] = await t.database.db.select({ value: count() }).from(checkIns).where(and(eq(checkIns.eventId, event.id), isNull(checkIns.undoneAt)));
    expect(inside?.value).toBe(3);
    expect(await placesHeld(event.id)).toBe(3);
    expect(await eventInsideNow(event.id)).toBe(3);
  });
});

// Verify's first entry at such an event claims the event's place, and the list's where it has a
// capacity, in its one statement (docs/decisions/148); a scan that statement cannot settle is
// decided again in the door write's transaction.
describe("verify's one statement", () => {
  test("a first entry is that one statement (the check-in and the event's place together); a ticket holding a place already goes to the door write", async () => {
    const event = await newEvent(10);
    const [main, side] = [await newList(event.id), await newList(event.id)];
    const ticket = await newTicket(event.id);
    const isOneStatement = (text: string) => text.includes('insert into "check_ins"') && text.includes('update "event_slots"');
    const first = await recorder.during('first entry', () => verify(event.id, ticket.code, main));
    expect(first).toMatchObject({ isValid: true });
    const firstSent = recorder.statements.filter((statement) => statement.label === 'first entry').map((statement) => statement.sql);
    expect(firstSent.filter(isOneStatement)).toHaveLength(1);
    // Decision 147's door write would claim the place by itself, then hold it; the statement did.
    expect(firstSent.filter((text) => /^update "event_slots" set "ticket_id"/.test(text))).toEqual([]);
    // Inside through main, entering at side: the statement records nothing, the door write keeps the place.
    const second = await recorder.during('second door', () => verify(event.id, ticket.code, side));
    expect(second).toMatchObject({ isValid: true });
    const secondSent = recorder.statements.filter((statement) => statement.label === 'second door').map((statement) => statement.sql);
    expect(secondSent.filter(isOneStatement)).toHaveLength(1);
    expect(secondSent.filter((text) => /^update "event_slots" set "ticket_id"/.test(text))).toHaveLength(1);
    expect(await t.database.db.select({ list: checkIns.checkInListId }).from(checkIns).where(eq(checkIns.ticketId, ticket.id))).toHaveLength(2);
    expect(await placesHeld(event.id)).toBe(1);
  });

  test('tickets scanned at two lists at once: each holds one place of the venue (one entry per ticket in a batch)', async () => {
    const event = await newEvent(100);
    const [main, side] = [await newList(event.id), await newList(event.id)];
    const tickets = await Promise.all(Array.from({ length: 15 }, () => newTicket(event.id)));
    const verdicts = await Promise.all(tickets.flatMap((ticket) => [verify(event.id, ticket.code, main), verify(event.id, ticket.code, side)]));
    expect(verdicts.every((verdict) => verdict.isValid)).toBe(true);
    const held = await t.database.db.select({ ticketId: eventSlots.ticketId }).from(eventSlots).where(and(eq(eventSlots.eventId, event.id), isNotNull(eventSlots.ticketId)));
    expect(held.map((place) => place.ticketId).sort()).toEqual(tickets.map((ticket) => ticket.id).sort());
    expect(await eventInsideNow(event.id)).toBe(15);
  });

  test('an event capacity and a list capacity at once: either one full denies with its own N and keeps no place of the other; an approval holds one of each', async () => {
    const event = await newEvent(2);
    const [small, plain, large] = [await newList(event.id, { capacity: 1 }), await newList(event.id), await newList(event.id, { capacity: 5, allowsReentry: true })];
    const [a, b, c, d] = [await newTicket(event.id), await newTicket(event.id), await newTicket(event.id), await newTicket(event.id)];
    expect(await verify(event.id, a.code, small)).toMatchObject({ isValid: true, insideNow: 1, capacity: 1 });
    expect([await listPlacesHeld(small), await placesHeld(event.id)]).toEqual([1, 1]);
    // The list is full, the venue is not: the list's denial, and no place of the venue kept.
    expect(await verify(event.id, b.code, small)).toMatchObject({ isValid: false, reason: 'at_capacity', message: 'At capacity: 1 inside', capacityDenial: { insideNow: 1, capacity: 1 } });
    expect(await placesHeld(event.id)).toBe(1);
    expect(await verify(event.id, c.code, plain)).toMatchObject({ isValid: true });
    expect(await placesHeld(event.id)).toBe(2);
    // The venue is full, the list is not: the venue's denial, and no place of the list kept.
    expect(await verify(event.id, d.code, large)).toMatchObject({ isValid: false, reason: 'at_capacity', message: 'At capacity: 2 inside', capacityDenial: { insideNow: 2, capacity: 2 } });
    expect(await listPlacesHeld(large)).toBe(0);
    expect(await t.database.db.select().from(checkIns).where(eq(checkIns.ticketId, d.id))).toEqual([]);
    expect(await t.database.db.select().from(checkIns).where(eq(checkIns.ticketId, b.id))).toEqual([]);
    // A place of the venue freed: the entry at the list with places takes one of each, and the
    // approval carries that list's inside-now and capacity.
    const undo = await t.app.inject({ method: 'POST', url: api(supervisorPaths.undoCheckIn(event.id, c.id)), headers: bearer(supervisorToken), payload: { day: DAY, reason: 'wrong door', checkInListId: plain.id } });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(await verify(event.id, d.code, large)).toMatchObject({ isValid: true, insideNow: 1, capacity: 5 });
    expect([await listPlacesHeld(large), await placesHeld(event.id)]).toEqual([1, 2]);
  });

  test("the place held expires at the entry's list's next daily checkout after the check-in, today's or tomorrow's", async () => {
    const event = await newEvent(5);
    const later = await newList(event.id, { allowsReentry: true, dailyCheckoutTime: wallClock(TIME_ZONE, new Date(Date.now() + 60 * 60_000)).time.slice(0, 5) });
    const earlier = await newList(event.id, { allowsReentry: true, dailyCheckoutTime: wallClock(TIME_ZONE, new Date(Date.now() - 60 * 60_000)).time.slice(0, 5) });
    for (const list of [later, earlier]) {
      const ticket = await newTicket(event.id);
      expect(await verify(event.id, ticket.code, list)).toMatchObject({ isValid: true, insideNow: 1, capacity: null });
      const [checkIn] = await t.database.db.select({ checkedInAt: checkIns.checkedInAt }).from(checkIns).where(eq(checkIns.ticketId, ticket.id));
      const [place] = await t.database.db.select({ day: eventSlots.day, expiresAt: eventSlots.expiresAt }).from(eventSlots).where(eq(eventSlots.ticketId, ticket.id));
      if (!checkIn) throw new Error('no check-in');
      expect(place).toEqual({ day: DAY, expiresAt: nextDailyCheckout(TIME_ZONE, list.dailyCheckoutTime, checkIn.checkedInAt) });
    }
  });

  test("a place held on another day is taken over by the next day's entry", async () => {
    const date = wallClock(TIME_ZONE, new Date()).date;
    const event = await newEvent(1, { days: [{ day: 1, name: 'First', date }, { day: 2, name: 'Second', date }] });
    const door = await newList(event.id);
    const [a, b] = [await newTicket(event.id), await newTicket(event.id)];
    expect(await verify(event.id, a.code, door, undefined, 1)).toMatchObject({ isValid: true });
    expect(await verify(event.id, b.code, door, undefined, 1)).toMatchObject({ isValid: false, reason: 'at_capacity' });
    expect(await verify(event.id, b.code, door, undefined, 2)).toMatchObject({ isValid: true });
    expect(await t.database.db.select({ ticketId: eventSlots.ticketId, day: eventSlots.day }).from(eventSlots).where(eq(eventSlots.eventId, event.id))).toEqual([{ ticketId: b.id, day: 2 }]);
  });

  test('50 concurrent entries at a list with places and a plain list, one place of the venue left: exactly one is APPROVED, and no list place is kept by the others', async () => {
    const event = await newEvent(2);
    const [limited, plain] = [await newList(event.id, { capacity: 100 }), await newList(event.id)];
    expect(await verify(event.id, (await newTicket(event.id)).code, plain)).toMatchObject({ isValid: true });
    const tickets = await Promise.all(Array.from({ length: 50 }, () => newTicket(event.id)));
    const verdicts = await Promise.all(tickets.map((ticket, index) => verify(event.id, ticket.code, index % 2 === 0 ? limited : plain)));
    expect(verdicts.filter((verdict) => verdict.isValid)).toHaveLength(1);
    expect(verdicts.filter((verdict) => !verdict.isValid && verdict.reason === 'at_capacity' && verdict.message === 'At capacity: 2 inside')).toHaveLength(49);
    expect(await placesHeld(event.id)).toBe(2);
    const [inside] = await t.database.db.select({ value: count() }).from(checkIns).where(and(eq(checkIns.eventId, event.id), eq(checkIns.checkInListId, limited.id)));
    expect(await listPlacesHeld(limited)).toBe(inside?.value);
  });
});

describe('offline', () => {
  test('an offline entry over the venue capacity is recorded and reported as a conflict at_capacity', async () => {
    const event = await newEvent(1);
    const door = await newList(event.id, { allowsReentry: true });
    const [a, b] = [await newTicket(event.id), await newTicket(event.id)];
    expect(await verify(event.id, a.code, door)).toMatchObject({ isValid: true });
    // The door list tells the device there is a venue capacity it cannot check.
    const download = await t.app.inject({ method: 'GET', url: api(`${offlinePaths.doorList(event.id, DAY)}?checkInListId=${door.id}`), headers: bearer(staffToken) });
    expect(DoorList.parse(download.json()).event.capacity).toBe(1);
    const scan = { scanId: randomUUID(), code: b.code, scannedAt: new Date().toISOString(), deviceId: 'device-venue', verdict: 'approved' };
    const upload = await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(event.id, DAY)), headers: bearer(staffToken), payload: { checkInListId: door.id, scans: [scan] } });
    expect(upload.statusCode, upload.body).toBe(200);
    expect(OfflineScanBatchResponse.parse(upload.json()).results).toMatchObject([{ status: 'conflict', reason: 'at_capacity', message: expect.stringContaining('At capacity: 2 inside (capacity 1)') }]);
    expect(await eventInsideNow(event.id)).toBe(2);
  });
});

// Two transactions at once: PostgreSQL only (PGlite runs one at a time). An edit of the venue's
// capacity or time zone locks the event row, then rebuilds its places, waiting for a place verify's
// statement has claimed; that statement's check-in then takes its foreign-key lock on the event row
// (FOR KEY SHARE). With the edit holding the row FOR UPDATE the two deadlocked (PostgreSQL broke it
// after deadlock_timeout, decision 148); the edit holds it FOR NO KEY UPDATE (docs/decisions/154).
if (TEST_DATABASE_KIND === 'postgres') {
  describe('an event edit beside an entry (docs/decisions/154)', () => {
    test.each([
      ['capacity', { capacity: 19 }],
      ['time zone', { capacity: 20, timeZone: 'Europe/Lisbon' }],
    ])("an edit of the venue's %s held in its rebuild of the places: an entry whose statement claimed a place is answered meanwhile, and keeps its place after the rebuild", async (_what, change) => {
      const event = await newEvent(20);
      const door = await newList(event.id);
      const ticket = await newTicket(event.id);
      const { entryAnswer, editing, entering } = await t.database.db.transaction(async (tx) => {
        const waiting = async () => {
          // This database's sessions only; the activity view read afresh each round.
          await tx.execute(sql`select pg_stat_clear_snapshot()`);
          const result = (await tx.execute(sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)) as { rows: Array<{ waiting: number }> };
          return result.rows[0]?.waiting ?? 0;
        };
        // Place 1 held here: the edit, the event row locked, stops at it while it deletes the places.
        await tx.execute(sql`select slot from event_slots where event_id = ${event.id} and slot = 1 for update`);
        const editingNow = editEvent(event.id, change);
        for (let round = 0; round < 500 && (await waiting()) < 1; round += 1) await new Promise((resolve) => setTimeout(resolve, 10));
        const heldEvent = (await tx.execute(sql`select count(*)::int as locked from pg_locks where relation = 'events'::regclass and mode = 'RowShareLock' and granted and pid <> pg_backend_pid()`)) as { rows: Array<{ locked: number }> };
        expect(heldEvent.rows[0]?.locked, 'the edit has locked the event row').toBeGreaterThan(0);
        // The entry claims a free place (SKIP LOCKED) and writes its check-in: answered while the edit waits,
        // not the second session waiting for a lock.
        let answer: VerifyTicketResponse | 'waiting' | undefined;
        const enteringNow = verify(event.id, ticket.code, door);
        void enteringNow.then((verdict) => (answer ??= verdict));
        for (let round = 0; round < 500 && answer === undefined; round += 1) {
          if ((await waiting()) >= 2) answer = 'waiting';
          else await new Promise((resolve) => setTimeout(resolve, 10));
        }
        return { entryAnswer: answer, editing: editingNow, entering: enteringNow };
      });
      const edited = await editing;
      expect(edited.statusCode, edited.body).toBe(200);
      expect(entryAnswer, 'the entry waited for the edit').not.toBe('waiting');
      expect(await entering).toMatchObject({ isValid: true });
      // The rebuild saw the entry: the guest holds one of the new places.
      const [held] = await t.database.db.select({ value: count() }).from(eventSlots).where(and(eq(eventSlots.eventId, event.id), eq(eventSlots.ticketId, ticket.id)));
      expect(held?.value).toBe(1);
      expect(await eventInsideNow(event.id)).toBe(1);
    });
  });
}
