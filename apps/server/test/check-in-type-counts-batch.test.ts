/**
 * The per-type checked-in counts (check_in_type_counts, docs/decisions/132) after one INSERT of
 * several check-ins, the statement a coalesced batch of scans or an offline upload sends, which
 * the counters' statement trigger answers for all its rows at once: a ticket new that day, a
 * ticket checked in at two lists in the same statement, a ticket already in at a list that comes
 * later (its count moves to the new list), a ticket already in at a list that comes earlier (its
 * count stays), and a statement whose counts only grow. After each statement the counters equal a
 * recount of check_ins (each ticket once a day, at the first of its active check-ins' lists, under
 * its type), on the real database (PGlite, or PostgreSQL under server-pg).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rowsOf } from '../src/db/rows.ts';
import { checkIns, eventDays, events } from '../src/db/schema.ts';
import { DEMO_USER } from '../src/db/seed.ts';
import { cliActor } from '../src/services/audit.ts';
import { type CheckInListRow, createCheckInList, listCheckInLists } from '../src/services/check-in-lists.ts';
import { findEvent } from '../src/services/events.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { demoIds, userIdOf } from './helpers/fixtures.ts';
import { createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const DAY = 1;
let t: TestApp;
let eventId: string;
let userId: string;
/** The event's three lists in the order that decides where a ticket counts (by id). */
let lists: [CheckInListRow, CheckInListRow, CheckInListRow];
const tickets = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp();
  const ids = await demoIds(t.database.db);
  userId = await userIdOf(t.database.db, DEMO_USER.username);
  const [row] = await t.database.db
    .insert(events)
    .values({ organizationId: ids.organizationId, title: 'Batch Counts Night', date: '2026-06-01', status: 'live', allowsScanningOutsideDays: true })
    .returning();
  if (!row) throw new Error('no event');
  eventId = row.id;
  await t.database.db.insert(eventDays).values({ eventId, day: DAY, name: 'Friday', date: '2026-06-01' });
  const event = await findEvent(t.database.db, eventId);
  await createCheckInList(t.database.db, event, { name: 'Hall', ticketTypes: null, days: null }, cliActor());
  await createCheckInList(t.database.db, event, { name: 'Bar', ticketTypes: null, days: null }, cliActor());
  lists = [...(await listCheckInLists(t.database.db, eventId))].sort((a, b) => (a.id < b.id ? -1 : 1)) as typeof lists;
  const codes = ['NEW', 'TWO', 'MOVES', 'STAYS', 'GROW1', 'GROW2', 'VIP'].map((name) => `${name}-${randomUUID().slice(0, 8)}`);
  const inserted = await insertTickets(
    t.database.db,
    codes.map((code) => ({ code, eventId, holderName: `Holder ${code}`, ticketType: code.startsWith('VIP') ? 'VIP' : 'General Admission', admittedDays: null })),
  );
  for (const ticket of inserted) tickets.set(ticket.code.split('-')[0] ?? '', ticket.id);
});
afterAll(async () => {
  await t.close();
});

/** Inserts the check-ins `[ticket name, list index]` in one statement. */
async function checkInAtOnce(entries: [string, number][]): Promise<void> {
  await t.database.db.insert(checkIns).values(
    entries.map(([name, list]) => ({ eventId, ticketId: tickets.get(name) ?? '', day: DAY, checkInListId: lists[list]?.id ?? '', staffUserId: userId, scanId: randomUUID() })),
  );
}

/** The day's counters and a recount of check_ins, each as sorted `list index:type=count` lines. */
async function countersAndRecount(): Promise<{ kept: string[]; recounted: string[] }> {
  const line = (row: { list: string; type: string; n: number }) => `${lists.findIndex((list) => list.id === row.list)}:${row.type}=${row.n}`;
  const kept = rowsOf<{ list: string; type: string; n: number }>(
    await t.database.db.execute(sql`select check_in_list_id as list, ticket_type as type, checked_in as n from check_in_type_counts
      where event_id = ${eventId} and day = ${DAY} and checked_in <> 0`),
  );
  const recounted = rowsOf<{ list: string; type: string; n: number }>(
    await t.database.db.execute(sql`select f.check_in_list_id as list, t.ticket_type as type, count(*)::integer as n
      from (select distinct on (ticket_id) ticket_id, check_in_list_id from check_ins
            where event_id = ${eventId} and day = ${DAY} and undone_at is null order by ticket_id, check_in_list_id) as f
      join tickets as t on t.id = f.ticket_id group by 1, 2`),
  );
  return { kept: kept.map(line).sort(), recounted: recounted.map(line).sort() };
}

test(`one INSERT of several check-ins keeps the per-type counts equal to a recount (${TEST_DATABASE_KIND})`, async () => {
  // Before: MOVES is in at the last list, STAYS at the first.
  await checkInAtOnce([
    ['MOVES', 2],
    ['STAYS', 0],
  ]);
  expect(await countersAndRecount()).toEqual({ kept: ['0:General Admission=1', '2:General Admission=1'], recounted: ['0:General Admission=1', '2:General Admission=1'] });

  // Counts that only grow: two new tickets of two types at the middle list.
  await checkInAtOnce([
    ['GROW1', 1],
    ['VIP', 1],
  ]);
  let counts = await countersAndRecount();
  expect(counts.kept).toEqual(counts.recounted);
  expect(counts.kept).toEqual(['0:General Admission=1', '1:General Admission=1', '1:VIP=1', '2:General Admission=1']);

  // A new ticket; one at two lists in the same statement (counts at the first); MOVES at the first
  // list (its count leaves the last list); STAYS at the middle one (still counts at the first).
  await checkInAtOnce([
    ['NEW', 2],
    ['TWO', 2],
    ['TWO', 1],
    ['MOVES', 0],
    ['STAYS', 1],
    ['GROW2', 1],
  ]);
  counts = await countersAndRecount();
  expect(counts.kept).toEqual(counts.recounted);
  expect(counts.kept).toEqual(['0:General Admission=2', '1:General Admission=3', '1:VIP=1', '2:General Admission=1']);
});
