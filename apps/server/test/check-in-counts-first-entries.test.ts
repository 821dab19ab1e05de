/**
 * The counters' short path for first entries (drizzle `*_check_in_counts_first_entries.sql`,
 * docs/decisions/160): an INSERT whose check-ins are each their ticket's only active check-in that
 * day is counted by two upserts, and whether that holds is read by the number of the event's lists
 * (one list: it always holds) and else by each ticket's other check-ins. After every statement
 * `check_in_arrivals` and `check_in_type_counts` equal a recount of check_ins:
 * - at an event with one list: several tickets, two types, two days and a ticket whose earlier
 *   check-in was undone, in one INSERT, then single check-ins (the general case's);
 * - the same event once it has a second list: a ticket already in at one list checked in at the
 *   other (its count stays or moves, the general case's), beside a new ticket, in one INSERT;
 * - on PostgreSQL, the short path taking its ticket's turn: two tickets' check-ins in one INSERT at
 *   the event's only list, not committed; a second list made meanwhile; one ticket's check-in at that
 *   list waits for the first, then counts the ticket once (on PGlite, one connection, the same
 *   writes in turn).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { checkIns, eventDays, events } from '../src/db/schema.ts';
import { DEMO_USER } from '../src/db/seed.ts';
import { cliActor } from '../src/services/audit.ts';
import { createCheckInList, listCheckInLists } from '../src/services/check-in-lists.ts';
import { findEvent } from '../src/services/events.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { demoIds, userIdOf } from './helpers/fixtures.ts';
import { createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let db: Db;
let userId: string;
let organizationId: string;

beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db;
  organizationId = (await demoIds(db)).organizationId;
  userId = await userIdOf(db, DEMO_USER.username);
});
afterAll(async () => {
  await t.close();
});

/** A live event of its own with days 1 and 2 and its one list (made with the event); its tickets by name. */
async function eventWithTickets(names: string[]): Promise<{ eventId: string; tickets: Map<string, string> }> {
  const [row] = await db
    .insert(events)
    .values({ organizationId, title: `First Entries ${randomUUID().slice(0, 8)}`, date: '2026-06-01', status: 'live', allowsScanningOutsideDays: true })
    .returning();
  if (!row) throw new Error('no event');
  await db.insert(eventDays).values([
    { eventId: row.id, day: 1, name: 'Friday', date: '2026-06-01' },
    { eventId: row.id, day: 2, name: 'Saturday', date: '2026-06-02' },
  ]);
  const inserted = await insertTickets(
    db,
    names.map((name) => ({ code: `${name}-${randomUUID().slice(0, 8)}`, eventId: row.id, holderName: `Holder ${name}`, ticketType: name.startsWith('VIP') ? 'VIP' : 'General Admission' })),
  );
  return { eventId: row.id, tickets: new Map(inserted.map((ticket) => [ticket.code.split('-')[0] ?? '', ticket.id])) };
}

/** The event's lists by id (the order that decides where a ticket counts). */
async function listsOf(eventId: string): Promise<string[]> {
  return (await listCheckInLists(db, eventId)).map((list) => list.id).sort();
}

async function addList(eventId: string, name: string): Promise<void> {
  await createCheckInList(db, await findEvent(db, eventId), { name, ticketTypes: null, days: null }, cliActor());
}

/** One INSERT of check-ins `[ticket, list id, day]`, all at one moment. */
function checkInsAtOnce(eventId: string, tickets: Map<string, string>, entries: [string, string, number][]) {
  return sql`insert into check_ins (event_id, ticket_id, day, check_in_list_id, staff_user_id, checked_in_at)
    select ${eventId}::uuid, e.ticket_id, e.day, e.list_id, ${userId}::uuid, '2026-06-01T20:01:00Z'::timestamptz
    from unnest(${`{${entries.map(([name]) => tickets.get(name) ?? '').join(',')}}`}::uuid[],
                ${`{${entries.map(([, list]) => list).join(',')}}`}::uuid[],
                ${`{${entries.map(([, , day]) => day).join(',')}}`}::integer[]) as e(ticket_id, list_id, day)`;
}

/** The event's kept counters and a recount of its check-ins, each as sorted lines. */
async function countersAndRecount(eventId: string): Promise<{ kept: string[]; recounted: string[] }> {
  const lines = (rows: { line: string }[]) => rows.map((row) => row.line).sort();
  const kept = rowsOf<{ line: string }>(
    await db.execute(sql`
      select 'type ' || day || ' ' || check_in_list_id || ' ' || ticket_type || ' ' || checked_in as line from check_in_type_counts where event_id = ${eventId} and checked_in <> 0
      union all
      select 'arrivals ' || day || ' ' || check_in_list_id || ' ' || sum(arrivals) from check_in_arrivals where event_id = ${eventId} group by day, check_in_list_id having sum(arrivals) <> 0`),
  );
  const recounted = rowsOf<{ line: string }>(
    await db.execute(sql`
      select 'type ' || f.day || ' ' || f.check_in_list_id || ' ' || t.ticket_type || ' ' || count(*) as line
      from (select distinct on (ticket_id, day) ticket_id, day, check_in_list_id from check_ins
            where event_id = ${eventId} and undone_at is null order by ticket_id, day, check_in_list_id) as f
      join tickets as t on t.id = f.ticket_id group by f.day, f.check_in_list_id, t.ticket_type
      union all
      select 'arrivals ' || day || ' ' || check_in_list_id || ' ' || count(*) from check_ins where event_id = ${eventId} and undone_at is null group by day, check_in_list_id`),
  );
  return { kept: lines(kept), recounted: lines(recounted) };
}

test(`first entries at an event with one list, then with two, keep the counters equal to a recount (${TEST_DATABASE_KIND})`, async () => {
  const { eventId, tickets } = await eventWithTickets(['A', 'B', 'VIP1', 'VIP2', 'UNDONE', 'LATER', 'MOVES', 'STAYS', 'NEW']);
  const [only] = await listsOf(eventId);
  if (!only) throw new Error('no list');

  // UNDONE's check-in that day, undone: no longer active, so its next one is a first entry again.
  await db.insert(checkIns).values({ eventId, ticketId: tickets.get('UNDONE') ?? '', day: 1, checkInListId: only, staffUserId: userId });
  await db.execute(sql`update check_ins set undone_at = now(), undone_by = ${userId} where event_id = ${eventId} and ticket_id = ${tickets.get('UNDONE') ?? ''}`);
  await db.execute(
    checkInsAtOnce(eventId, tickets, [
      ['A', only, 1],
      ['B', only, 1],
      ['VIP1', only, 1],
      ['A', only, 2],
      ['VIP2', only, 2],
      ['UNDONE', only, 1],
    ]),
  );
  await db.execute(checkInsAtOnce(eventId, tickets, [['LATER', only, 1]]));
  await db.execute(checkInsAtOnce(eventId, tickets, [['MOVES', only, 1]]));
  await db.execute(checkInsAtOnce(eventId, tickets, [['STAYS', only, 2]]));
  let counts = await countersAndRecount(eventId);
  expect(counts.kept).toEqual(counts.recounted);
  expect(counts.kept).toEqual(
    [`type 1 ${only} General Admission 5`, `type 1 ${only} VIP 1`, `type 2 ${only} General Admission 2`, `type 2 ${only} VIP 1`, `arrivals 1 ${only} 6`, `arrivals 2 ${only} 3`].sort(),
  );

  // A second list: MOVES and STAYS, already in at the first list, checked in at the other one in
  // the same INSERT as a new ticket. Whichever list comes first by id, each still counts once.
  await addList(eventId, 'Bar');
  const second = (await listsOf(eventId)).find((list) => list !== only) ?? '';
  await db.execute(
    checkInsAtOnce(eventId, tickets, [
      ['MOVES', second, 1],
      ['STAYS', second, 2],
      ['NEW', second, 1],
    ]),
  );
  counts = await countersAndRecount(eventId);
  expect(counts.kept).toEqual(counts.recounted);
  const checkedInDay1 = counts.kept.filter((line) => line.startsWith('type 1 ')).reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
  expect(checkedInDay1).toBe(7);
});

test(`a first entry at an event's only list takes its ticket's turn before a check-in at a list made meanwhile (${TEST_DATABASE_KIND})`, async () => {
  const { eventId, tickets } = await eventWithTickets(['X', 'W']);
  const [only] = await listsOf(eventId);
  if (!only) throw new Error('no list');
  const second = async () => {
    await addList(eventId, 'Terrace');
    return (await listsOf(eventId)).find((list) => list !== only) ?? '';
  };

  if (TEST_DATABASE_KIND === 'pglite') {
    await db.execute(
      checkInsAtOnce(eventId, tickets, [
        ['X', only, 1],
        ['W', only, 1],
      ]),
    );
    await db.execute(checkInsAtOnce(eventId, tickets, [['X', await second(), 1]]));
  } else {
    // Transaction 1: X's and W's first entries (one INSERT of two: the short path) while the event
    // has one list, not committed until told.
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let entered: () => void = () => undefined;
    const isEntered = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const firstEntry = db.transaction(async (tx) => {
      await tx.execute(
        checkInsAtOnce(eventId, tickets, [
          ['X', only, 1],
          ['W', only, 1],
        ]),
      );
      entered();
      await finished;
    });
    await isEntered;
    const other = await second();
    // X's check-in at the new list: it must wait for transaction 1 (X's turn), then see it.
    let isDone = false;
    const atOther = db.execute(checkInsAtOnce(eventId, tickets, [['X', other, 1]])).then(() => {
      isDone = true;
    });
    try {
      for (let attempt = 0; attempt < 250 && !isDone; attempt += 1) {
        const waiting = rowsOf<{ n: number }>(
          await db.execute(sql`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and query ilike 'insert into check_ins%'`),
        );
        if ((waiting[0]?.n ?? 0) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      finish();
      await firstEntry;
      await atOther;
    }
  }
  const counts = await countersAndRecount(eventId);
  expect(counts.kept).toEqual(counts.recounted);
  // X and W, once each, whichever list comes first by id.
  expect(counts.kept.filter((line) => line.startsWith('type ')).reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0)).toBe(2);
});
