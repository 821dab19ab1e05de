/**
 * The one check-in write (services/check-ins/write.ts), which verify, the manual check-in, the
 * offline upload and undo rely on: a ticket is recorded at most once per day however many writers
 * race, the loser is told which check-in stands, a retry of the same scan is recognised as that
 * scan, an undo frees the day (and, given a scanId, only that scan's check-in), and the hot path's
 * batched write records one check-in and one scan-log row per ticket and day (at a list with a
 * capacity, holding one free place each, searched from the batch's first entry's start).
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkInListSlots, checkInMovements, checkIns, eventSlots, scanLog } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { inTransaction } from '../src/db/transactions.ts';
import { cliActor } from '../src/services/audit.ts';
import { createCheckInList } from '../src/services/check-in-lists.ts';
import { existingForRule, findRetriedMovement, recordCheckIn, recordScannedCheckIn, recordScannedEntryAtEvent, recordScannedEntryWithPlace, undoActiveCheckIn } from '../src/services/check-ins/write.ts';
import { createEvent, findEvent } from '../src/services/events.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { demoIds, firstCheckInListId, userIdOf } from './helpers/fixtures.ts';
import { explainStatement, StatementRecorder } from './helpers/query-plans.ts';
import { createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const DAY = DEMO_TODAY_DAY_NUMBER;
let t: TestApp;
let eventId: string;
let checkInListId: string;
let staffId: string;
let colleagueId: string;
let nextTicket = 0;
const recorder = new StatementRecorder();

beforeAll(async () => {
  t = await createTestApp({ databaseOptions: { logger: recorder } });
  eventId = (await demoIds(t.database.db)).liveEventId;
  checkInListId = await firstCheckInListId(t.database.db, eventId);
  staffId = await userIdOf(t.database.db, DEMO_USER.username);
  colleagueId = await userIdOf(t.database.db, DEMO_COLLEAGUE.username);
});
afterAll(async () => {
  await t.close();
});

/** A new ticket of the demo's live event, admitted every day: its id and code. */
async function newTicket(): Promise<{ id: string; code: string }> {
  const code = `WRITE-${String(nextTicket++).padStart(4, '0')}`;
  const [ticket] = await insertTickets(t.database.db, [{ code, eventId, holderName: `Holder ${code}`, ticketType: 'General Admission' }]);
  if (!ticket) throw new Error('no ticket inserted');
  return ticket;
}

async function activeCheckIns(ticketId: string): Promise<number> {
  const [rows] = await t.database.db
    .select({ value: count() })
    .from(checkIns)
    .where(and(eq(checkIns.ticketId, ticketId), eq(checkIns.day, DAY), isNull(checkIns.undoneAt)));
  return rows?.value ?? 0;
}

test(`20 concurrent writes of one ticket and day record one check-in; each other writer is told the one that stands (${TEST_DATABASE_KIND})`, async () => {
  const ticket = await newTicket();
  const writers = Array.from({ length: 20 }, (_, i) => ({ staffUserId: i % 2 === 0 ? staffId : colleagueId, scanId: randomUUID() }));
  const writes = await Promise.all(
    writers.map((writer) => inTransaction(t.database.db, (tx) => recordCheckIn(tx, { eventId, ticketId: ticket.id, day: DAY, checkInListId, ...writer }))),
  );
  const recorded = writes.flatMap((write) => (write.isRecorded ? [write] : []));
  expect(recorded).toHaveLength(1);
  const winner = recorded[0];
  const winnerScan = writers[writes.findIndex((write) => write.isRecorded)];
  for (const write of writes) {
    if (write.isRecorded) continue;
    expect(write.standing).toMatchObject({ id: winner?.id, scanId: winnerScan?.scanId, staffUserId: winnerScan?.staffUserId });
    expect(write.standing.checkedInAt.getTime()).toBe(winner?.checkedInAt.getTime());
    expect(write.standing.staffName).toBe(winnerScan?.staffUserId === staffId ? DEMO_USER.displayName : DEMO_COLLEAGUE.displayName);
  }
  expect(await activeCheckIns(ticket.id)).toBe(1);
});

test(`a retry of the same scan by the same staff member is that scan; another staff member or another scan is not (${TEST_DATABASE_KIND})`, async () => {
  const ticket = await newTicket();
  const scanId = randomUUID();
  const first = await recordCheckIn(t.database.db, { eventId, ticketId: ticket.id, day: DAY, checkInListId, staffUserId: staffId, scanId });
  expect(first.isRecorded).toBe(true);
  const retry = await recordCheckIn(t.database.db, { eventId, ticketId: ticket.id, day: DAY, checkInListId, staffUserId: staffId, scanId });
  if (retry.isRecorded) throw new Error('the retry recorded a second check-in');
  expect(await activeCheckIns(ticket.id)).toBe(1);

  // The retry finds the movement its scan recorded (the first entry: the check-in row's own scan,
  // no row of check_in_movements), and the rule's input says so.
  const checkIn = { ...retry.standing, eventId };
  expect(await t.database.db.select().from(checkInMovements).where(eq(checkInMovements.checkInId, retry.standing.id))).toEqual([]);
  const movement = await findRetriedMovement(t.database.db, checkIn, { scanId, staffUserId: staffId });
  expect(movement).toEqual({ direction: 'entry', at: first.isRecorded ? first.checkedInAt : null });
  expect(existingForRule(retry.standing, movement)).toEqual({ checkedInAt: first.isRecorded ? first.checkedInAt : null, checkedInBy: DEMO_USER.displayName, isSameScan: true });
  expect(await findRetriedMovement(t.database.db, checkIn, { scanId, staffUserId: colleagueId })).toBeUndefined();
  expect(await findRetriedMovement(t.database.db, checkIn, { scanId: randomUUID(), staffUserId: staffId })).toBeUndefined();
  expect(await findRetriedMovement(t.database.db, checkIn, { scanId: null, staffUserId: staffId })).toBeUndefined();
  expect(existingForRule(retry.standing, undefined).isSameScan).toBe(false);
});

test(`an undo frees the day, only once; given a scanId it leaves another scan's check-in standing (${TEST_DATABASE_KIND})`, async () => {
  const ticket = await newTicket();
  const scanId = randomUUID();
  const undo = { eventId, ticketId: ticket.id, day: DAY, checkInListId, undoneBy: colleagueId, reason: 'Wrong guest' };
  expect(await undoActiveCheckIn(t.database.db, undo)).toEqual({ isUndone: false, standing: 'none' });

  const made = await recordCheckIn(t.database.db, { eventId, ticketId: ticket.id, day: DAY, checkInListId, staffUserId: staffId, scanId });
  expect(await undoActiveCheckIn(t.database.db, { ...undo, scanId: randomUUID() })).toEqual({ isUndone: false, standing: 'another' });
  expect(await activeCheckIns(ticket.id)).toBe(1);

  const undone = await undoActiveCheckIn(t.database.db, { ...undo, scanId });
  expect(undone).toMatchObject({ isUndone: true, checkedInAt: made.isRecorded ? made.checkedInAt : null });
  expect(await undoActiveCheckIn(t.database.db, undo)).toEqual({ isUndone: false, standing: 'none' });
  expect(await activeCheckIns(ticket.id)).toBe(0);

  const again = await recordCheckIn(t.database.db, { eventId, ticketId: ticket.id, day: DAY, checkInListId, staffUserId: colleagueId, scanId: randomUUID() });
  expect(again.isRecorded).toBe(true);
  expect(again.isRecorded && made.isRecorded && again.id !== made.id).toBe(true);
  expect(await activeCheckIns(ticket.id)).toBe(1);
});

test(`the hot path's batched write: scans of one ticket at once record one check-in and one scan-log row; a standing check-in is not overwritten (${TEST_DATABASE_KIND})`, async () => {
  const ticket = await newTicket();
  const scan = () => recordScannedCheckIn(t.database.db, { eventId, ticketId: ticket.id, day: DAY, checkInListId, userId: staffId, scanId: randomUUID(), code: ticket.code });
  const written = await Promise.all(Array.from({ length: 10 }, scan));
  expect(written.filter((at) => at !== null)).toHaveLength(1);
  expect(await activeCheckIns(ticket.id)).toBe(1);
  const logged = await t.database.db.select({ verdict: scanLog.verdict, source: scanLog.source }).from(scanLog).where(eq(scanLog.code, ticket.code));
  expect(logged).toEqual([{ verdict: 'approved', source: 'scan' }]);

  // A scan after it, and a transactional write after that: neither records a second check-in.
  expect(await scan()).toBeNull();
  const late = await recordCheckIn(t.database.db, { eventId, ticketId: ticket.id, day: DAY, checkInListId, staffUserId: colleagueId, scanId: randomUUID() });
  expect(late.isRecorded).toBe(false);
  expect(await activeCheckIns(ticket.id)).toBe(1);
});

test(`the hot path's entry with a place: a batch of entries at a list with a capacity claims one free place each, from any start, holds it with its check-in and counts those inside; entries beyond the free places and a ticket already in record nothing (${TEST_DATABASE_KIND})`, async () => {
  const event = await findEvent(t.database.db, eventId);
  const list = await createCheckInList(t.database.db, event, { name: `Places ${randomUUID().slice(0, 8)}`, ticketTypes: null, days: null, capacity: 4 }, cliActor());
  const tickets = await Promise.all(Array.from({ length: 6 }, newTicket));
  const enter = (ticket: { id: string; code: string }, start: number) =>
    recordScannedEntryWithPlace(t.database.db, { eventId, ticketId: ticket.id, day: DAY, checkInListId: list.id, userId: staffId, scanId: randomUUID(), code: ticket.code, start, checkout: null });
  const first = tickets[0];
  if (!first) throw new Error('no ticket');
  expect(await enter(first, 4)).toEqual({ checkedInAt: expect.any(Date), insideNow: 1 });
  // Five at once for the three places left, each starting its search elsewhere (the last wraps round).
  const written = await Promise.all(tickets.slice(1).map((ticket, index) => enter(ticket, 1 + index)));
  const recorded = written.flatMap((entry) => (entry ? [entry.insideNow] : []));
  expect(recorded).toHaveLength(3);
  // Each counts those inside once its batch is in: the last of them sees the list full.
  expect(Math.max(...recorded)).toBe(4);
  expect(recorded.every((insideNow) => insideNow >= 2 && insideNow <= 4)).toBe(true);
  expect(await enter(first, 1)).toBeNull();

  const places = await t.database.db.select().from(checkInListSlots).where(eq(checkInListSlots.checkInListId, list.id)).orderBy(checkInListSlots.slot);
  const held = await t.database.db.select({ id: checkIns.id, checkedInAt: checkIns.checkedInAt }).from(checkIns).where(and(eq(checkIns.checkInListId, list.id), isNull(checkIns.undoneAt)));
  expect(held).toHaveLength(4);
  expect(places.map((place) => place.slot)).toEqual([1, 2, 3, 4]);
  expect(new Set(places.map((place) => place.checkInId))).toEqual(new Set(held.map((row) => row.id)));
  expect(places.every((place) => place.day === DAY && held.some((row) => row.id === place.checkInId && row.checkedInAt.getTime() === place.heldSince?.getTime()))).toBe(true);
  const [logged] = await t.database.db.select({ value: count() }).from(scanLog).where(and(eq(scanLog.eventId, eventId), inArray(scanLog.code, tickets.map((ticket) => ticket.code))));
  expect(logged?.value).toBe(4);
});

test(`the hot path's entries with a place count those inside once per list and day of their batch, not once per entry; each entry is told its own list's count (${TEST_DATABASE_KIND})`, async () => {
  const event = await findEvent(t.database.db, eventId);
  const newList = () => createCheckInList(t.database.db, event, { name: `Count ${randomUUID().slice(0, 8)}`, ticketTypes: null, days: null, capacity: 50 }, cliActor());
  const [hall, bar] = [await newList(), await newList()];
  const enter = (list: { id: string }, ticket: { id: string; code: string }, checkout: Date | null) =>
    recordScannedEntryWithPlace(t.database.db, { eventId, ticketId: ticket.id, day: DAY, checkInListId: list.id, userId: staffId, scanId: randomUUID(), code: ticket.code, start: 1, checkout });
  // Inside before the batch: three in the hall; two at the bar, the first of them entered before
  // the bar's last daily checkout (so out), the second at it (so in).
  for (const ticket of await Promise.all(Array.from({ length: 3 }, newTicket))) expect(await enter(hall, ticket, null)).not.toBeNull();
  expect(await enter(bar, await newTicket(), null)).not.toBeNull();
  await new Promise((resolve) => setTimeout(resolve, 5));
  const atCheckout = await enter(bar, await newTicket(), null);
  if (!atCheckout) throw new Error('not recorded');
  const checkout = atCheckout.checkedInAt;

  // One batch: five entries at the hall, three at the bar.
  const tickets = await Promise.all(Array.from({ length: 8 }, newTicket));
  const lists = tickets.map((_, index) => (index < 5 ? hall : bar));
  const written = await recorder.during('entries with a place', () => Promise.all(tickets.map((ticket, index) => enter(lists[index] ?? hall, ticket, lists[index] === bar ? checkout : null))));
  expect(written.map((entry) => entry?.insideNow)).toEqual([8, 8, 8, 8, 8, 4, 4, 4]);

  // The statement of that batch, run again for eight fresh tickets (rolled back): those inside are
  // counted once per list of the batch, not once per entry (eight) — the hall's (no daily checkout)
  // from its kept arrivals less the exited check-ins' partial index (docs/decisions/159), the bar's
  // from its inside check-ins since the checkout.
  const [statement, ...more] = recorder.statements.filter((captured) => captured.label === 'entries with a place');
  expect(more).toEqual([]);
  if (!statement) throw new Error('no statement recorded');
  expect(statement.sql).toMatch(/unnest\(/);
  const fresh = await Promise.all(Array.from({ length: 8 }, newTicket));
  const [, ticketIds, , , , , codes] = statement.params;
  const replace = new Map<unknown, unknown>([
    [ticketIds, fresh.map((ticket) => ticket.id)],
    [codes, fresh.map((ticket) => ticket.code)],
  ]);
  const plan = await explainStatement(t.database.db, statement, { analyze: true, replace });
  const countScans = plan.scans.filter((scan) => scan.relation === 'check_ins' || scan.index?.startsWith('check_ins'));
  expect(countScans.map((scan) => scan.loops)).toEqual([1, 1]);
  expect(countScans.map((scan) => scan.index === 'check_ins_exited_event_day_idx')).toEqual([true, false]);
  expect(plan.scans.filter((scan) => scan.relation === 'check_in_arrivals' || scan.index?.startsWith('check_in_arrivals')).map((scan) => scan.loops)).toEqual([1]);
});

test(`a batch's search for free places starts at its first entry's random start, not at the smallest of its entries' starts, for the list's places and the event's (${TEST_DATABASE_KIND})`, async () => {
  const db = t.database.db;
  const heldSlots = async (rows: { slot: number }[]) => rows.map((row) => row.slot).sort((a, b) => a - b);
  // A list with a capacity (`recordScannedEntryWithPlace`): four entries at once, the first's start 60.
  const event = await findEvent(db, eventId);
  const list = await createCheckInList(db, event, { name: `Starts ${randomUUID().slice(0, 8)}`, ticketTypes: null, days: null, capacity: 100 }, cliActor());
  const tickets = await Promise.all(Array.from({ length: 4 }, newTicket));
  const listStarts = [60, 10, 70, 80];
  const written = await Promise.all(
    tickets.map((ticket, index) =>
      recordScannedEntryWithPlace(db, { eventId, ticketId: ticket.id, day: DAY, checkInListId: list.id, userId: staffId, scanId: randomUUID(), code: ticket.code, start: listStarts[index] ?? 1, checkout: null }),
    ),
  );
  expect(written.every((entry) => entry !== null)).toBe(true);
  const listPlaces = await db.select({ slot: checkInListSlots.slot }).from(checkInListSlots).where(and(eq(checkInListSlots.checkInListId, list.id), isNotNull(checkInListSlots.checkInId)));
  expect(await heldSlots(listPlaces)).toEqual([60, 61, 62, 63]);

  // An event with a capacity and a list with one (`recordScannedEntryAtEvent`): the same for both searches.
  const venueId = await createEvent(
    db,
    {
      organizationId: event.organizationId,
      title: `Starts venue ${randomUUID().slice(0, 8)}`,
      description: '',
      date: event.date,
      location: '',
      status: 'live',
      timeZone: event.timeZone,
      dayCutoff: event.dayCutoff.slice(0, 5),
      allowsScanningOutsideDays: event.allowsScanningOutsideDays,
      capacity: 100,
      days: event.days.map(({ day, name, date }) => ({ day, name: name || `Day ${day}`, date })),
    },
    cliActor(),
  );
  const venue = await findEvent(db, venueId);
  const door = await createCheckInList(db, venue, { name: 'Door', ticketTypes: null, days: null, capacity: 100 }, cliActor());
  const guests = await insertTickets(db, Array.from({ length: 4 }, (_, index) => ({ code: `STARTS-${randomUUID().slice(0, 8)}-${index}`, eventId: venueId, holderName: 'Holder', ticketType: 'General Admission' })));
  const eventStarts = [30, 3, 90, 95];
  const entered = await Promise.all(
    guests.map((guest, index) =>
      recordScannedEntryAtEvent(db, {
        eventId: venueId,
        ticketId: guest.id,
        day: DAY,
        checkInListId: door.id,
        userId: staffId,
        scanId: randomUUID(),
        code: guest.code,
        listStart: [40, 5, 50, 55][index] ?? 1,
        eventStart: eventStarts[index] ?? 1,
        checkout: null,
        countsInside: true,
        now: new Date(),
        timeZone: venue.timeZone,
        checkoutTime: null,
      }),
    ),
  );
  expect(entered.map((entry) => entry?.insideNow)).toEqual([4, 4, 4, 4]);
  const doorPlaces = await db.select({ slot: checkInListSlots.slot }).from(checkInListSlots).where(and(eq(checkInListSlots.checkInListId, door.id), isNotNull(checkInListSlots.checkInId)));
  expect(await heldSlots(doorPlaces)).toEqual([40, 41, 42, 43]);
  const venuePlaces = await db.select({ slot: eventSlots.slot }).from(eventSlots).where(and(eq(eventSlots.eventId, venueId), isNotNull(eventSlots.ticketId)));
  expect(await heldSlots(venuePlaces)).toEqual([30, 31, 32, 33]);
});
