/**
 * A verify whose check-in commits after its database deadline (docs/decisions/134): the answer must
 * say what is true. Here the database is slow for real — a trigger on `check_ins` (created by the
 * test, for one ticket) holds the INSERT's statement in `pg_sleep_until` until a wall-clock time the
 * test picks relative to the request — and the database's contents are read afterwards.
 *
 * On PostgreSQL: a write that commits within the settle grace after the deadline answers APPROVED
 * (it committed); one that commits later answers the 503 that says it may have been saved, within
 * the phone's 3 s, and the phone's upload of its offline decision under the same scanId answers
 * `duplicate` (one check-in). The same for a re-entry at a list that records exits, written in the
 * door transaction, whose COMMIT answers after the deadline (a deferred constraint trigger holds it):
 * the ROLLBACK that Drizzle then sends on the lost connection must not turn the answer into
 * "nothing was saved". On PGlite there is no deadline (one in-process connection, decision 103):
 * the verifies wait for the write and answer APPROVED.
 */
import { randomUUID } from 'node:crypto';
import { apiPaths, OfflineScanBatchResponse, offlinePaths, offlineScanProof, VerifyTicketResponse } from '@gatecheck/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rowsOf } from '../src/db/rows.ts';
import { DEMO_COLLEAGUE, DEMO_TODAY_DAY_NUMBER } from '../src/db/seed.ts';
import { DATABASE_TROUBLE_ANSWERS } from '../src/plugins/errors.ts';
import { VERIFY_DATABASE_DEADLINE_MS } from '../src/routes/tickets/index.ts';
import { VERIFY_WRITE_SETTLE_MS } from '../src/services/check-ins/verify.ts';
import { cliActor } from '../src/services/audit.ts';
import { type CheckInListRow, createCheckInList } from '../src/services/check-in-lists.ts';
import { findEvent } from '../src/services/events.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { PHONE_CUT_OVER_MS } from './faults/gates.ts';
import { demoIds } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let staffToken: string;
let eventId: string;
/** A list of the live event that records exits (docs/decisions/111): re-entries are door writes. */
let hall: CheckInListRow;

beforeAll(async () => {
  t = await createTestApp();
  eventId = (await demoIds(t.database.db)).liveEventId;
  staffToken = await login(t.app, DEMO_COLLEAGUE.username, DEMO_COLLEAGUE.password);
  // A check-in of a ticket named in slow_check_ins holds its INSERT until that row's time.
  await t.database.db.execute(sql.raw(`create table public.slow_check_ins (ticket_id uuid primary key, until timestamptz not null)`));
  await t.database.db.execute(sql.raw(`
    create function public.slow_check_in() returns trigger language plpgsql as $$
    declare held_until timestamptz;
    begin
      select until into held_until from public.slow_check_ins where ticket_id = new.ticket_id;
      if held_until is not null then perform pg_sleep_until(held_until); end if;
      return null;
    end $$`));
  await t.database.db.execute(sql.raw(`create trigger slow_check_in after insert on public.check_ins for each row execute function public.slow_check_in()`));
  // A write of a check-in of a ticket named in slow_commits holds its transaction's COMMIT (a
  // deferred constraint trigger runs at COMMIT) until that row's time.
  await t.database.db.execute(sql.raw(`create table public.slow_commits (ticket_id uuid primary key, until timestamptz not null)`));
  await t.database.db.execute(sql.raw(`
    create function public.slow_commit() returns trigger language plpgsql as $$
    declare held_until timestamptz;
    begin
      select until into held_until from public.slow_commits where ticket_id = new.ticket_id;
      if held_until is not null then perform pg_sleep_until(held_until); end if;
      return null;
    end $$`));
  await t.database.db.execute(
    sql.raw(`create constraint trigger slow_commit after insert or update on public.check_ins deferrable initially deferred for each row execute function public.slow_commit()`),
  );
  hall = await createCheckInList(t.database.db, await findEvent(t.database.db, eventId), { name: 'Late Hall', ticketTypes: null, days: null, allowsReentry: true }, cliActor());
});
afterAll(async () => {
  await t.close();
});

/** A new ticket of the live event whose check-in's INSERT commits `commitAfterMs` after now. */
async function slowTicket(commitAfterMs: number): Promise<{ code: string; ticketId: string }> {
  const code = `LATE-${randomUUID().slice(0, 18)}`;
  const [ticket] = await insertTickets(t.database.db, [{ code, eventId, holderName: 'Late Holder', ticketType: 'General Admission' }]);
  if (!ticket) throw new Error('no ticket');
  const until = new Date(Date.now() + commitAfterMs).toISOString();
  await t.database.db.execute(sql`insert into public.slow_check_ins (ticket_id, until) values (${ticket.id}, ${until})`);
  return { code, ticketId: ticket.id };
}

async function checkInsOf(ticketId: string): Promise<{ scan_id: string | null }[]> {
  return rowsOf<{ scan_id: string | null }>(await t.database.db.execute(sql`select scan_id from public.check_ins where ticket_id = ${ticketId}`));
}

async function verifyTimed(code: string, scanId: string, at: { checkInListId?: string; direction?: 'entry' | 'exit' } = {}) {
  const started = performance.now();
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.verifyTicket),
    headers: bearer(staffToken),
    payload: { eventId, qrCode: code, day: DEMO_TODAY_DAY_NUMBER, scanId, ...at },
  });
  return { response, elapsedMs: performance.now() - started };
}

test(`a check-in that commits after the deadline but within the settle grace answers APPROVED (${TEST_DATABASE_KIND})`, async () => {
  // Half way into the grace: after the deadline has passed, well before the grace ends.
  const { code, ticketId } = await slowTicket(VERIFY_DATABASE_DEADLINE_MS + VERIFY_WRITE_SETTLE_MS / 2);
  const scanId = randomUUID();

  const { response, elapsedMs } = await verifyTimed(code, scanId);

  expect(response.statusCode, response.body).toBe(200);
  expect(VerifyTicketResponse.parse(response.json())).toMatchObject({ isValid: true, holderName: 'Late Holder' });
  // Answered after the deadline had passed: the commit came in the grace (the answer's own time
  // after it follows the machine's load; the database part is bounded by deadline + grace).
  expect(elapsedMs).toBeGreaterThan(VERIFY_DATABASE_DEADLINE_MS);
  expect(await checkInsOf(ticketId)).toEqual([{ scan_id: scanId }]);
});

test(`a check-in that commits after the settle grace: a 503 within the phone's cut-over that says it may have been saved; the phone's upload answers duplicate (${TEST_DATABASE_KIND})`, async () => {
  const commitAfterMs = PHONE_CUT_OVER_MS + 1_000;
  const { code, ticketId } = await slowTicket(commitAfterMs);
  const scanId = randomUUID();
  const scannedAt = new Date().toISOString();

  const { response, elapsedMs } = await verifyTimed(code, scanId);

  if (TEST_DATABASE_KIND === 'pglite') {
    // No deadline on the embedded database: the answer waits for the write and tells it.
    expect(response.statusCode, response.body).toBe(200);
    expect(VerifyTicketResponse.parse(response.json())).toMatchObject({ isValid: true });
    expect(await checkInsOf(ticketId)).toEqual([{ scan_id: scanId }]);
    return;
  }
  expect(elapsedMs).toBeLessThan(PHONE_CUT_OVER_MS);
  expect(response.statusCode, response.body).toBe(503);
  expect(response.headers['retry-after']).toBe(String(DATABASE_TROUBLE_ANSWERS.unconfirmed.retryAfterSeconds));
  expect(response.json()).toEqual({ code: 'not_ready', message: DATABASE_TROUBLE_ANSWERS.unconfirmed.message });
  expect(DATABASE_TROUBLE_ANSWERS.unconfirmed.message).not.toMatch(/nothing was saved/);

  // The statement runs on inside PostgreSQL and commits: the 503's words were the truth.
  await new Promise((resolve) => setTimeout(resolve, commitAfterMs - elapsedMs + 300));
  expect(await checkInsOf(ticketId)).toEqual([{ scan_id: scanId }]);

  // The phone decided it offline (APPROVED) under the same scanId and uploads it.
  const item = { scanId, code, scannedAt, deviceId: 'gate-late', verdict: 'approved' as const };
  const uploaded = await t.app.inject({
    method: 'POST',
    url: api(offlinePaths.offlineScans(eventId, DEMO_TODAY_DAY_NUMBER)),
    headers: bearer(staffToken),
    payload: { scans: [{ ...item, sessionProof: await offlineScanProof(staffToken, item) }] },
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  expect(OfflineScanBatchResponse.parse(uploaded.json()).results).toMatchObject([{ scanId, status: 'duplicate' }]);
  expect(await checkInsOf(ticketId)).toEqual([{ scan_id: scanId }]);
});

test(`a re-entry (the door transaction) whose COMMIT answers after the settle grace: the 503 says it may have been saved; the phone's upload answers duplicate (${TEST_DATABASE_KIND})`, async () => {
  const code = `LATE-DOOR-${randomUUID().slice(0, 13)}`;
  const [ticket] = await insertTickets(t.database.db, [{ code, eventId, holderName: 'Door Holder', ticketType: 'General Admission' }]);
  if (!ticket) throw new Error('no ticket');
  const at = { checkInListId: hall.id };
  // In, then out: the next entry is a re-entry, written in the door transaction.
  expect((await verifyTimed(code, randomUUID(), at)).response.statusCode).toBe(200);
  const exit = await verifyTimed(code, randomUUID(), { ...at, direction: 'exit' });
  expect(exit.response.statusCode, exit.response.body).toBe(200);
  expect(VerifyTicketResponse.parse(exit.response.json())).toMatchObject({ isValid: true });
  const commitAfterMs = PHONE_CUT_OVER_MS + 1_000;
  await t.database.db.execute(sql`insert into public.slow_commits (ticket_id, until) values (${ticket.id}, ${new Date(Date.now() + commitAfterMs).toISOString()})`);
  const scanId = randomUUID();
  const scannedAt = new Date().toISOString();
  const inside = async () =>
    rowsOf<{ inside: boolean; last_entry_scan_id: string | null }>(
      await t.database.db.execute(
        sql`select c.exited_at is null as inside, (select m.scan_id from public.check_in_movements m where m.event_id = c.event_id and m.check_in_id = c.id and m.direction = 'entry' order by m.at desc limit 1) as last_entry_scan_id from public.check_ins c where c.ticket_id = ${ticket.id} and c.undone_at is null`,
      ),
    );

  const { response, elapsedMs } = await verifyTimed(code, scanId, at);

  if (TEST_DATABASE_KIND === 'pglite') {
    expect(response.statusCode, response.body).toBe(200);
    expect(VerifyTicketResponse.parse(response.json())).toMatchObject({ isValid: true });
    expect(await inside()).toEqual([{ inside: true, last_entry_scan_id: scanId }]);
    return;
  }
  expect(elapsedMs).toBeLessThan(PHONE_CUT_OVER_MS);
  expect(response.statusCode, response.body).toBe(503);
  expect(response.json()).toEqual({ code: 'not_ready', message: DATABASE_TROUBLE_ANSWERS.unconfirmed.message });

  // The COMMIT goes on inside PostgreSQL and commits: the guest is inside by that scan.
  await new Promise((resolve) => setTimeout(resolve, commitAfterMs - elapsedMs + 300));
  expect(await inside()).toEqual([{ inside: true, last_entry_scan_id: scanId }]);

  const item = { scanId, code, scannedAt, deviceId: 'gate-late-door', verdict: 'approved' as const };
  const uploaded = await t.app.inject({
    method: 'POST',
    url: api(offlinePaths.offlineScans(eventId, DEMO_TODAY_DAY_NUMBER)),
    headers: bearer(staffToken),
    payload: { checkInListId: hall.id, scans: [{ ...item, sessionProof: await offlineScanProof(staffToken, item) }] },
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  expect(OfflineScanBatchResponse.parse(uploaded.json()).results).toMatchObject([{ scanId, status: 'duplicate' }]);
  expect(await inside()).toEqual([{ inside: true, last_entry_scan_id: scanId }]);
});
