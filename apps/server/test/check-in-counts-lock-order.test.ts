/**
 * The check-in counters' statement trigger (drizzle `*_check_in_type_counts_triggers.sql`,
 * docs/decisions/132) locks a statement's tickets before it touches a counter row: a check-in that
 * waits for its ticket (a rename of its type updates every ticket of the type in one transaction,
 * services/ticket-types.ts) must not hold its list's arrivals row meanwhile, or every other scan at
 * that list and slot queues behind it.
 *
 * On PostgreSQL: a transaction holds ticket X's row lock (an UPDATE of X, not committed); X's
 * check-in starts and waits for it; a check-in of ticket Y at the same list and 5-minute slot must
 * complete while X's waits. Y runs under a `lock_timeout` that only a lock wait can reach (it
 * detects blocking, it measures no speed). Then both count. On PGlite (one connection, nothing
 * waits) the same check-ins one after the other, and the same counts.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { DEMO_COLLEAGUE } from '../src/db/seed.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { demoIds, firstCheckInListId, userIdOf } from './helpers/fixtures.ts';
import { createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let db: Db;
beforeAll(async () => {
  t = await createTestApp();
  db = t.database.db;
});
afterAll(async () => {
  await t.close();
});

/** A day and slot of their own, far from the demo's check-ins: its counters start empty. */
const DAY = 7;
const CHECKED_IN_AT = '2026-11-28T10:01:00Z';
const TICKET_TYPE = `Lock Order ${randomUUID().slice(0, 8)}`;

function checkIn(ids: { eventId: string; listId: string; staffId: string }, ticketId: string) {
  return sql`insert into check_ins (event_id, ticket_id, day, check_in_list_id, staff_user_id, checked_in_at)
    values (${ids.eventId}, ${ticketId}, ${DAY}, ${ids.listId}, ${ids.staffId}, ${CHECKED_IN_AT})`;
}

async function counters(eventId: string, listId: string) {
  const [arrivals] = rowsOf<{ arrivals: number }>(
    await db.execute(sql`select arrivals from check_in_arrivals where event_id = ${eventId} and day = ${DAY} and check_in_list_id = ${listId}`),
  );
  const [typeCount] = rowsOf<{ checked_in: number }>(
    await db.execute(sql`select checked_in from check_in_type_counts where event_id = ${eventId} and day = ${DAY} and check_in_list_id = ${listId} and ticket_type = ${TICKET_TYPE}`),
  );
  return { arrivals: arrivals?.arrivals, checkedIn: typeCount?.checked_in };
}

/** Resolves once a statement inserting into check_ins waits for a lock on PostgreSQL. */
async function untilACheckInWaitsForALock(): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const waiting = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query ilike 'insert into check_ins%'`),
    );
    if ((waiting[0]?.n ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("X's check-in never waited for its ticket's lock");
}

test(`a check-in waiting for its ticket's lock does not hold up another ticket's check-in at the same list and slot (${TEST_DATABASE_KIND})`, async () => {
  const { liveEventId: eventId } = await demoIds(db);
  const ids = { eventId, listId: await firstCheckInListId(db, eventId), staffId: await userIdOf(db, DEMO_COLLEAGUE.username) };
  const [x, y] = await insertTickets(db, [
    { code: `LOCK-X-${randomUUID().slice(0, 12)}`, eventId, holderName: 'Holder X', ticketType: TICKET_TYPE },
    { code: `LOCK-Y-${randomUUID().slice(0, 12)}`, eventId, holderName: 'Holder Y', ticketType: TICKET_TYPE },
  ]);
  if (!x || !y) throw new Error('no tickets');

  if (TEST_DATABASE_KIND === 'pglite') {
    await db.execute(checkIn(ids, x.id));
    await db.execute(checkIn(ids, y.id));
    expect(await counters(eventId, ids.listId)).toEqual({ arrivals: 2, checkedIn: 2 });
    return;
  }

  // Transaction 1 holds X's row lock, as a rename of its type does, until told to finish.
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let holding: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    holding = resolve;
  });
  const renaming = db.transaction(async (tx) => {
    await tx.execute(sql`update tickets set holder_name = holder_name where id = ${x.id}`);
    holding();
    await finished;
  });
  await held;
  // Drizzle's queries start when awaited: `then` sends it now.
  const checkingInX = db.execute(checkIn(ids, x.id)).then(() => undefined);
  try {
    await untilACheckInWaitsForALock();
    // Y's check-in: only a lock wait can reach its lock_timeout.
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local lock_timeout = '5s'`);
      await tx.execute(checkIn(ids, y.id));
    });
  } finally {
    finish();
    await renaming;
    await checkingInX;
  }
  expect(await counters(eventId, ids.listId)).toEqual({ arrivals: 2, checkedIn: 2 });
});
