/**
 * Deleting a check-in list while check-ins at it are being written (docs/decisions/100, 151), through
 * the real app on the real database: the delete is refused (409) once a check-in at the list has
 * committed; a check-in whose write meets the list deleted under it is refused 400 naming
 * `checkInListId`, the answer of a list that is not there; never a 500, nothing half-written.
 *
 * On PostgreSQL the exact interleaving is forced: the delete is held after its check (no check-ins)
 * by a row lock on an enrollment it must update, while it holds the lists' lock; a verify at the list
 * then waits in its foreign-key check, and is answered once the delete has committed. PGlite runs one
 * transaction at a time, so there only the many-at-once race runs (its answers must be as coherent).
 * Also on PostgreSQL: an exit at a list is answered while a reorder or a delete of another list
 * holds the event's lists (they lock them FOR NO KEY UPDATE, which a door's FOR KEY SHARE passes).
 */
import { randomUUID } from 'node:crypto';
import { ApiErrorBody, apiPaths, checkInListPath, type VerifyTicketResponse } from '@gatecheck/contract';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkIns, deviceEnrollments, scanLog } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { createCheckInList, type CheckInListRow } from '../src/services/check-in-lists.ts';
import { cliActor } from '../src/services/audit.ts';
import { findEvent } from '../src/services/events.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { demoIds } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const DAY = DEMO_TODAY_DAY_NUMBER;
let t: TestApp;
let ids: Awaited<ReturnType<typeof demoIds>>;
let staffToken: string;
let adminToken: string;

beforeAll(async () => {
  t = await createTestApp();
  ids = await demoIds(t.database.db);
  staffToken = await login(t.app, DEMO_COLLEAGUE.username, DEMO_COLLEAGUE.password);
  adminToken = await login(t.app, DEMO_USER.username, DEMO_USER.password);
});
afterAll(async () => {
  await t.close();
});

async function newList(name: string, capacity: number | null = null): Promise<CheckInListRow> {
  const event = await findEvent(t.database.db, ids.liveEventId);
  return createCheckInList(t.database.db, event, { name: `${name} ${randomUUID().slice(0, 8)}`, ticketTypes: null, days: null, capacity }, cliActor());
}

async function newTickets(howMany: number): Promise<string[]> {
  const rows = Array.from({ length: howMany }, () => {
    const code = `RACE-${randomUUID()}`;
    return { code, eventId: ids.liveEventId, holderName: `Holder ${code}`, ticketType: 'General Admission' };
  });
  await insertTickets(t.database.db, rows);
  return rows.map((row) => row.code);
}

function verify(code: string, checkInListId: string) {
  return t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(staffToken), payload: { eventId: ids.liveEventId, day: DAY, qrCode: code, checkInListId } });
}

function deleteList(checkInListId: string) {
  return t.app.inject({ method: 'DELETE', url: api(checkInListPath(ids.liveEventId, checkInListId)), headers: bearer(adminToken) });
}

async function checkInsAt(checkInListId: string): Promise<number> {
  const [row] = await t.database.db.select({ value: count() }).from(checkIns).where(and(eq(checkIns.eventId, ids.liveEventId), eq(checkIns.checkInListId, checkInListId)));
  return row?.value ?? 0;
}

/** What a refused list is answered: a 400 `{ code, message, field }` naming `checkInListId`. */
function expectListRefused(response: { statusCode: number; body: string; json(): unknown }): void {
  expect(response.statusCode, response.body).toBe(400);
  expect(ApiErrorBody.parse(response.json())).toMatchObject({ code: 'bad_request', field: 'checkInListId' });
}

test(`a delete and 30 verifies at the list at once: no 500; either the delete is refused and the approvals stand, or no scan was admitted there (${TEST_DATABASE_KIND})`, async () => {
  const list = await newList('Side door');
  const codes = await newTickets(30);
  const [deleted, ...verifies] = await Promise.all([deleteList(list.id), ...codes.map((code) => verify(code, list.id))]);
  if (!deleted) throw new Error('no answer');
  expect([200, 409], deleted.body).toContain(deleted.statusCode);
  const approved = verifies.filter((response) => response.statusCode === 200 && (response.json() as VerifyTicketResponse).isValid);
  for (const response of verifies) {
    if (response.statusCode !== 200) expectListRefused(response);
  }
  if (deleted.statusCode === 200) {
    expect(approved).toEqual([]);
    expect(await checkInsAt(list.id)).toBe(0);
  } else {
    expect(ApiErrorBody.parse(deleted.json()).code).toBe('conflict');
    expect(await checkInsAt(list.id)).toBe(approved.length);
  }
});

// The exact interleaving needs two transactions at once: PostgreSQL only (PGlite runs one at a time).
if (TEST_DATABASE_KIND === 'postgres') {
  // Without a capacity the check-in is verify's one statement. With one, that statement claims a place
  // first and meets the delete's removal of the places in a deadlock; PostgreSQL breaks it (after its
  // deadlock_timeout) and the retry, in the door transaction, holds the list first and finds it gone.
  test.each([null, 5])('a verify whose check-in is written while a delete that passed its check holds the list (capacity %s): 400 naming checkInListId, the delete done, nothing written', async (capacity) => {
    const list = await newList('VIP Gate', capacity);
    const [code] = await newTickets(1);
    // An enrollment held to the list: the delete updates it after its check, so a lock on it holds the delete there.
    const [enrollment] = await t.database.db
      .insert(deviceEnrollments)
      .values({ eventId: ids.liveEventId, checkInListId: list.id, deviceName: 'Held', tokenHash: randomUUID(), expiresAt: new Date(Date.now() + 3_600_000) })
      .returning({ id: deviceEnrollments.id });
    const waitingForLocks = async (tx: { execute: (query: ReturnType<typeof sql>) => Promise<unknown> }, howMany: number) => {
      for (let round = 0; round < 500; round += 1) {
        // This database's sessions only (other test files share the server); the activity view is
        // read afresh each round (a transaction otherwise keeps its first reading).
        await tx.execute(sql`select pg_stat_clear_snapshot()`);
        const result = (await tx.execute(sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)) as {
          rows: Array<{ waiting: number }>;
        };
        if ((result.rows[0]?.waiting ?? 0) >= howMany) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`never ${howMany} waiting`);
    };
    const { deleting, verifying } = await t.database.db.transaction(async (tx) => {
      await tx.select({ id: deviceEnrollments.id }).from(deviceEnrollments).where(eq(deviceEnrollments.id, enrollment?.id ?? '')).for('update');
      const deletingNow = deleteList(list.id);
      // The delete has locked the lists, found no check-in and waits for the enrollment.
      await waitingForLocks(tx, 1);
      const verifyingNow = verify(code ?? '', list.id);
      // The verify read the list (it was there) and its write waits for the list's row in its foreign-key check.
      await waitingForLocks(tx, 2);
      return { deleting: deletingNow, verifying: verifyingNow };
    });
    const deleted = await deleting;
    expect(deleted.statusCode, deleted.body).toBe(200);
    const verified = await verifying;
    expectListRefused(verified);
    expect(await checkInsAt(list.id)).toBe(0);
    const [logged] = await t.database.db.select({ value: count() }).from(scanLog).where(eq(scanLog.code, code ?? ''));
    expect(logged?.value).toBe(0);
  });
}

if (TEST_DATABASE_KIND === 'postgres') {
  // A reorder and a delete lock the event's lists FOR NO KEY UPDATE (only the list deleted FOR
  // UPDATE): a door transaction's FOR KEY SHARE on another list does not wait for them.
  test.each(['a reorder of another list', 'a delete of another list'])('an exit at a list while %s holds the lists: answered at once, not after it', async (change) => {
    const moved = await newList('Moved gate');
    const door = await newList('Exit door');
    await t.database.db.execute(sql`update check_in_lists set allows_reentry = true where id = ${door.id}`);
    const [code] = await newTickets(1);
    expect(((await verify(code ?? '', door.id)).json() as VerifyTicketResponse).isValid).toBe(true);
    const event = await findEvent(t.database.db, ids.liveEventId);
    const { exitAnswer, changed, exiting } = await t.database.db.transaction(async (tx) => {
      // The change's audit entry names the organization: this lock holds the change after its lists' locks.
      await tx.execute(sql`select id from organizations where id = ${event.organizationId} for update`);
      const changing =
        change === 'a reorder of another list'
          ? t.app.inject({ method: 'PATCH', url: api(checkInListPath(ids.liveEventId, moved.id)), headers: bearer(adminToken), payload: { position: 1 } })
          : deleteList(moved.id);
      const waiting = async () => {
        await tx.execute(sql`select pg_stat_clear_snapshot()`);
        const result = (await tx.execute(sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)) as { rows: Array<{ waiting: number }> };
        return result.rows[0]?.waiting ?? 0;
      };
      for (let round = 0; round < 500 && (await waiting()) < 1; round += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      const lockedLists = (await tx.execute(sql`select count(*)::int as locked from pg_locks where relation = 'check_in_lists'::regclass and granted and pid <> pg_backend_pid()`)) as { rows: Array<{ locked: number }> };
      expect(lockedLists.rows[0]?.locked, 'the change holds no lock on the lists').toBeGreaterThan(0);
      // The exit is answered while the change still waits (it would be the second session waiting for a lock otherwise).
      let answer: Awaited<ReturnType<typeof verify>> | 'waiting' | undefined;
      const exiting = t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(staffToken), payload: { eventId: ids.liveEventId, qrCode: code, day: DAY, checkInListId: door.id, direction: 'exit' } });
      void exiting.then((response) => (answer ??= response));
      for (let round = 0; round < 500 && answer === undefined; round += 1) {
        if ((await waiting()) >= 2) answer = 'waiting';
        else await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return { exitAnswer: answer, changed: changing, exiting };
    });
    await exiting;
    expect(exitAnswer, 'the exit waited for the change').not.toBe('waiting');
    expect(exitAnswer === 'waiting' || exitAnswer === undefined ? null : (exitAnswer.json() as VerifyTicketResponse)).toMatchObject({ isValid: true, direction: 'exit' });
    expect((await changed).statusCode).toBe(200);
  });
}

if (TEST_DATABASE_KIND === 'postgres') {
  // A PATCH of a list's capacity and position while an exit at that list holds it (KEY SHARE): its
  // update and its places' rewrite pass the door's lock, and so does its reorder (FOR NO KEY UPDATE).
  // FOR UPDATE there waited for the door, which could then wait for the places the PATCH rewrote: a deadlock.
  test('a PATCH of capacity and position of a list while an exit there holds it: the PATCH is not held by the exit', async () => {
    const hall = await newList('Capacity hall', 5);
    await t.database.db.execute(sql`update check_in_lists set allows_reentry = true where id = ${hall.id}`);
    const [code] = await newTickets(1);
    expect(((await verify(code ?? '', hall.id)).json() as VerifyTicketResponse).isValid).toBe(true);
    const { patchAnswer, patching, exiting } = await t.database.db.transaction(async (tx) => {
      const waiting = async () => {
        await tx.execute(sql`select pg_stat_clear_snapshot()`);
        const result = (await tx.execute(sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)) as { rows: Array<{ waiting: number }> };
        return result.rows[0]?.waiting ?? 0;
      };
      // The exit holds the list, then waits here for the guest's check-in.
      await tx.execute(sql`select c.id from check_ins c join tickets k on k.id = c.ticket_id where k.code = ${code ?? ''} for update of c`);
      const exitingNow = t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(staffToken), payload: { eventId: ids.liveEventId, qrCode: code, day: DAY, checkInListId: hall.id, direction: 'exit' } });
      for (let round = 0; round < 500 && (await waiting()) < 1; round += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      const patchingNow = t.app.inject({ method: 'PATCH', url: api(checkInListPath(ids.liveEventId, hall.id)), headers: bearer(adminToken), payload: { capacity: 6, position: 1 } });
      let answer: 'answered' | 'waiting' | undefined;
      void patchingNow.then(() => (answer ??= 'answered'));
      for (let round = 0; round < 500 && answer === undefined; round += 1) {
        if ((await waiting()) >= 2) answer = 'waiting';
        else await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return { patchAnswer: answer, patching: patchingNow, exiting: exitingNow };
    });
    expect(patchAnswer, 'the PATCH waited for the exit').toBe('answered');
    expect((await patching).statusCode).toBe(200);
    const exited = await exiting;
    expect(exited.statusCode, exited.body).toBe(200);
    expect(exited.json()).toMatchObject({ isValid: true, direction: 'exit' });
  });
}
