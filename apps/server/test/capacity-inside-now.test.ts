/**
 * The `insideNow` of an approval at a list that counts its guests inside, against a recount of
 * check_ins on the real database (PGlite, or PostgreSQL under server-pg; docs/decisions/120, 131,
 * 148, 159): verify's one-statement first entry at a list with a capacity, through entries, exits,
 * a re-entry and undos at a re-entry list (the kept counters less the exited check-ins), at a list
 * with a daily checkout (still counted: only those entered since the checkout), and for first
 * entries sent at once to two lists (coalesced into batches); the exits and re-entries of the door
 * write and every approval at a re-entry list without a capacity (`countInside`). Each case runs at
 * a list of an event without a capacity (`recordScannedEntryWithPlace`) and at a list of an event
 * with one (`recordScannedEntryAtEvent`). Every first entry at a list with a capacity checked here
 * must have been recorded by the statement (no door-write transaction, no count of its own): that
 * is the count under test.
 */
import { randomUUID } from 'node:crypto';
import { apiPaths, CheckInList, checkInListsPath, lastDailyCheckout, ManagedEvent, managePaths, supervisorPaths, VerifyTicketResponse, wallClock } from '@gatecheck/contract';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkInListSlots, checkIns } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_SUPERVISOR, DEMO_USER } from '../src/db/seed.ts';
import { insertTickets } from '../src/services/tickets.ts';
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
const recorder = new StatementRecorder();

beforeAll(async () => {
  t = await createTestApp({ databaseOptions: { logger: recorder } });
  ids = await demoIds(t.database.db);
  adminToken = await login(t.app, DEMO_USER.username, DEMO_USER.password);
  supervisorToken = await login(t.app, DEMO_SUPERVISOR.username, DEMO_SUPERVISOR.password);
  staffToken = await login(t.app, DEMO_COLLEAGUE.username, DEMO_COLLEAGUE.password);
});
afterAll(async () => {
  await t.close();
});

async function newEvent(capacity: number | undefined): Promise<ManagedEvent> {
  const payload = {
    title: `Inside ${randomUUID().slice(0, 8)}`,
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
  const response = await t.app.inject({ method: 'POST', url: api(managePaths.organizationEvents(ids.organizationId)), headers: bearer(adminToken), payload });
  expect(response.statusCode, response.body).toBe(201);
  return ManagedEvent.parse(response.json());
}

async function newList(eventId: string, body: Record<string, unknown>): Promise<CheckInList> {
  const response = await t.app.inject({ method: 'POST', url: api(checkInListsPath(eventId)), headers: bearer(adminToken), payload: { name: `Door ${randomUUID().slice(0, 8)}`, ...body } });
  expect(response.statusCode, response.body).toBe(201);
  return CheckInList.parse(response.json());
}

async function newTickets(eventId: string, howMany: number): Promise<{ id: string; code: string }[]> {
  const codes = Array.from({ length: howMany }, (_, index) => `IN-${String(index).padStart(3, '0')}-${randomUUID().slice(0, 18)}`);
  const inserted = await insertTickets(t.database.db, codes.map((code) => ({ code, eventId, holderName: `Holder ${code}`, ticketType: 'General Admission' })));
  return inserted.map((ticket) => ({ id: ticket.id, code: ticket.code }));
}

async function verify(eventId: string, code: string, list: CheckInList, options: { direction?: 'exit'; scanId?: string } = {}) {
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.verifyTicket),
    headers: bearer(staffToken),
    payload: { eventId, qrCode: code, day: DAY, checkInListId: list.id, scanId: options.scanId ?? randomUUID(), ...(options.direction ? { direction: options.direction } : {}) },
  });
  expect(response.statusCode, response.body).toBe(200);
  const answer = VerifyTicketResponse.parse(response.json());
  expect(answer.isValid, response.body).toBe(true);
  return answer;
}

async function undo(eventId: string, ticketId: string, list: CheckInList, scanId?: string): Promise<void> {
  const response = await t.app.inject({
    method: 'POST',
    url: api(supervisorPaths.undoCheckIn(eventId, ticketId)),
    headers: bearer(supervisorToken),
    payload: { day: DAY, reason: 'Inside-now test', checkInListId: list.id, ...(scanId ? { scanId } : {}) },
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** The one statement of a first entry with a place (either form): the check-in, its place and its answer's count. */
const isOneStatement = (text: string) => text.includes('insert into "check_ins"') && text.includes('update "check_in_list_slots"') && text.includes('answers');

/**
 * First entries of `codes` at `list` (or of each `[list, codes]` of `atLists`), all sent at once
 * (coalesced into batches); each must be approved and recorded by the one statement — no statement of
 * the door write's transaction (a lock of the check-in: `FOR UPDATE` without SKIP LOCKED) and no
 * count of its own was sent — and carry its list's capacity.
 * @returns each approval's `insideNow`, per list, in the order of its codes.
 */
async function firstEntries(eventId: string, ...atLists: (readonly [CheckInList, readonly string[]])[]): Promise<number[][]> {
  const label = randomUUID();
  const answers = await recorder.during(label, () => Promise.all(atLists.map(([list, codes]) => Promise.all(codes.map((code) => verify(eventId, code, list))))));
  const sent = recorder.statements.filter((statement) => statement.label === label).map((statement) => statement.sql);
  expect(sent.filter(isOneStatement).length).toBeGreaterThan(0);
  expect(sent.filter((text) => !isOneStatement(text) && (/for (no key )?update/.test(text) || text.includes('count(*)')))).toEqual([]);
  return atLists.map(([list], index) =>
    (answers[index] ?? []).map((answer) => {
      expect(answer.capacity).toBe(list.capacity);
      return answer.insideNow ?? -1;
    }),
  );
}

/** The `insideNow` of the first entry of `code` at `list` (`firstEntries`). */
async function firstEntry(eventId: string, list: CheckInList, code: string): Promise<number> {
  const [[insideNow]] = (await firstEntries(eventId, [list, [code]])) as [[number]];
  return insideNow;
}

/** An exit or a re-entry at `list` (the door write): its approval's `insideNow`, checked against the recount after it. */
async function movement(eventId: string, code: string, list: CheckInList, options: { direction?: 'exit'; scanId?: string }): Promise<number> {
  const answer = await verify(eventId, code, list, options);
  expect(answer.insideNow).toBe(await recount(eventId, list));
  return answer.insideNow ?? -1;
}

/** Guests inside `list` on DAY counted from scratch: active, not exited, and entered since its last daily checkout. */
async function recount(eventId: string, list: CheckInList): Promise<number> {
  const rows = await t.database.db
    .select({ checkedInAt: checkIns.checkedInAt, lastEnteredAt: checkIns.lastEnteredAt, exitedAt: checkIns.exitedAt })
    .from(checkIns)
    .where(and(eq(checkIns.eventId, eventId), eq(checkIns.checkInListId, list.id), eq(checkIns.day, DAY), isNull(checkIns.undoneAt)));
  const checkout = lastDailyCheckout(TIME_ZONE, list.dailyCheckoutTime ?? null, new Date());
  return rows.filter((row) => row.exitedAt === null && (checkout === null || (row.lastEnteredAt ?? row.checkedInAt) >= checkout)).length;
}

describe.each([
  ['an event without a capacity', undefined],
  ['an event with a capacity', 500],
])(`the approval's insideNow at a list with a capacity equals a recount, at %s (${TEST_DATABASE_KIND})`, (_what, eventCapacity) => {
  test('through entries, exits, a re-entry, the undo of a re-entry, of a guest inside and of one who left', async () => {
    const event = await newEvent(eventCapacity);
    const door = await newList(event.id, { allowsReentry: true, capacity: 50 });
    const guests = await newTickets(event.id, 7);
    const code = (index: number) => guests[index]?.code ?? '';
    const ticketId = (index: number) => guests[index]?.id ?? '';
    for (const index of [0, 1, 2, 3]) expect(await firstEntry(event.id, door, code(index))).toBe(index + 1);
    // Two leave, one comes back: 3 inside, 4 arrivals, 1 exited. Exits and re-entries are the door
    // write's (`countInside` in its transaction): their answers too.
    expect(await movement(event.id, code(0), door, { direction: 'exit' })).toBe(3);
    expect(await movement(event.id, code(1), door, { direction: 'exit' })).toBe(2);
    const reentry = randomUUID();
    expect(await movement(event.id, code(0), door, { scanId: reentry })).toBe(3);
    expect(await firstEntry(event.id, door, code(4))).toBe(4);
    // Guest 2 undone while inside; guest 3 leaves and is undone (an exited check-in undone is no
    // longer one of the exited); guest 0's re-entry undone (out again since its exit).
    await undo(event.id, ticketId(2), door);
    expect(await movement(event.id, code(3), door, { direction: 'exit' })).toBe(2);
    await undo(event.id, ticketId(3), door);
    await undo(event.id, ticketId(0), door, reentry);
    expect(await recount(event.id, door)).toBe(1);
    expect(await firstEntry(event.id, door, code(5))).toBe(2);
    // Guest 2, undone, checks in again: a new check-in beside the undone one.
    expect(await firstEntry(event.id, door, code(2))).toBe(3);
    expect(await recount(event.id, door)).toBe(3);
  });

  test('at a re-entry list without a capacity: every approval through entries, exits, re-entries and undos', async () => {
    const event = await newEvent(eventCapacity);
    const hall = await newList(event.id, { allowsReentry: true });
    const guests = await newTickets(event.id, 5);
    const code = (index: number) => guests[index]?.code ?? '';
    // First entries: verify's statement, then (without an event capacity) a count after it.
    for (const index of [0, 1, 2, 3]) expect(await movement(event.id, code(index), hall, {})).toBe(index + 1);
    expect(await movement(event.id, code(0), hall, { direction: 'exit' })).toBe(3);
    expect(await movement(event.id, code(1), hall, { direction: 'exit' })).toBe(2);
    expect(await movement(event.id, code(0), hall, {})).toBe(3);
    await undo(event.id, guests[2]?.id ?? '', hall);
    expect(await movement(event.id, code(3), hall, { direction: 'exit' })).toBe(1);
    await undo(event.id, guests[3]?.id ?? '', hall);
    expect(await movement(event.id, code(4), hall, {})).toBe(2);
    expect(await movement(event.id, code(2), hall, {})).toBe(3);
  });

  test('at a list with a daily checkout: only the guests entered since its last checkout', async () => {
    const event = await newEvent(eventCapacity);
    // Its last checkout an hour ago (today's, or yesterday's just before midnight).
    const checkoutTime = wallClock(TIME_ZONE, new Date(Date.now() - 60 * 60_000)).time.slice(0, 5);
    const night = await newList(event.id, { allowsReentry: true, capacity: 50, dailyCheckoutTime: checkoutTime });
    const guests = await newTickets(event.id, 6);
    const codes = guests.map((guest) => guest.code);
    expect(Math.max(...((await firstEntries(event.id, [night, codes.slice(0, 3)]))[0] ?? []))).toBe(3);
    // Guests 0 and 1 entered before the checkout: still checked in (and counted by the kept
    // arrivals), no longer inside, their places stale.
    const earlier = sql`now() - interval '2 hours'`;
    const before = guests.slice(0, 2).map((guest) => guest.id);
    await t.database.db.update(checkIns).set({ checkedInAt: earlier }).where(and(eq(checkIns.checkInListId, night.id), inArray(checkIns.ticketId, before)));
    await t.database.db
      .update(checkInListSlots)
      .set({ heldSince: earlier })
      .where(inArray(checkInListSlots.checkInId, t.database.db.select({ id: checkIns.id }).from(checkIns).where(and(eq(checkIns.checkInListId, night.id), inArray(checkIns.ticketId, before)))));
    expect(await recount(event.id, night)).toBe(1);
    expect(await firstEntry(event.id, night, codes[3] ?? '')).toBe(2);
    expect(await firstEntry(event.id, night, codes[4] ?? '')).toBe(3);
    expect(await recount(event.id, night)).toBe(3);
  });

  test('first entries sent at once to two lists: no answer above the recount, and the next entry at each equals it', async () => {
    const event = await newEvent(eventCapacity);
    const hall = await newList(event.id, { allowsReentry: true, capacity: 100 });
    const bar = await newList(event.id, { capacity: 100 });
    const guests = await newTickets(event.id, 42);
    const codes = guests.map((guest) => guest.code);
    const [atHall = [], atBar = []] = await firstEntries(event.id, [hall, codes.slice(0, 24)], [bar, codes.slice(24, 40)]);
    expect(await recount(event.id, hall)).toBe(24);
    expect(await recount(event.id, bar)).toBe(16);
    // Each approval counts those inside at its statement's snapshot plus its batch's own: at most
    // all of them, at least its own entry.
    for (const [answers, inside] of [
      [atHall, 24],
      [atBar, 16],
    ] as const) {
      expect(Math.max(...answers)).toBeLessThanOrEqual(inside);
      expect(Math.min(...answers)).toBeGreaterThanOrEqual(1);
      // On PGlite's one connection the batches run one after the other: the last counts them all.
      if (TEST_DATABASE_KIND === 'pglite') expect(Math.max(...answers)).toBe(inside);
    }
    expect(await firstEntry(event.id, hall, codes[40] ?? '')).toBe(25);
    expect(await firstEntry(event.id, bar, codes[41] ?? '')).toBe(17);
  });
});
