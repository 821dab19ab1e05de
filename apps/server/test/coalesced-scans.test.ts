/**
 * Scans coalesced into batches (docs/decisions/070) keep every rule of a scan: each verdict is its
 * own, each approval is one check-in and one scan-log row, two scans of one ticket in one batch
 * approve once, a retried scan answers its own approval, and a scan whose statement fails does not
 * take the scans batched with it down. A batch that mixes two events' scans reads each event's days
 * and lists once (in its first row) and decides each scan by its own event's.
 */
import { randomUUID } from 'node:crypto';
import { apiPaths, VerifyTicketResponse } from '@gatecheck/contract';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkIns, scanLog, tickets } from '../src/db/schema.ts';
import { DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { verifyTicket } from '../src/services/check-ins/verify.ts';
import { createCheckInList } from '../src/services/check-in-lists.ts';
import { cliActor } from '../src/services/audit.ts';
import { findEvent } from '../src/services/events.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { ServiceError } from '../src/services/errors.ts';
import { demoIds, userIdOf } from './helpers/fixtures.ts';
import { StatementRecorder } from './helpers/query-plans.ts';
import { api, bearer, createTestApp, login, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const recorder = new StatementRecorder();
let t: TestApp;
let token: string;
let userId: string;
let eventId: string;
let nextTicket = 0;

beforeAll(async () => {
  t = await createTestApp({ databaseOptions: { logger: recorder } });
  token = await login(t.app, DEMO_USER.username, DEMO_USER.password);
  eventId = (await demoIds(t.database.db)).liveEventId;
  userId = await userIdOf(t.database.db, DEMO_USER.username);
});
afterAll(async () => {
  await t.close();
});

/** `n` new tickets of the demo's live event, admitted every day. */
async function newTickets(n: number): Promise<string[]> {
  const codes = Array.from({ length: n }, () => `BATCH-${String(nextTicket++).padStart(4, '0')}`);
  await insertTickets(t.database.db, codes.map((code) => ({ code, eventId, holderName: `Holder ${code}`, ticketType: 'General Admission' })));
  return codes;
}

function scan(qrCode: string, scanId: string = randomUUID()) {
  return t.app.inject({
    method: 'POST',
    url: api(apiPaths.verifyTicket),
    headers: bearer(token),
    payload: { eventId, qrCode, day: DEMO_TODAY_DAY_NUMBER, scanId },
  });
}

async function verdictsOf(responses: Awaited<ReturnType<typeof scan>>[]) {
  return responses.map((response) => {
    expect(response.statusCode).toBe(200);
    return VerifyTicketResponse.parse(response.json());
  });
}

async function rowsOf(codes: string[]) {
  const ids = (await t.database.db.select({ id: tickets.id }).from(tickets).where(inArray(tickets.code, codes))).map((row) => row.id);
  const [checkedIn] = await t.database.db
    .select({ value: count() })
    .from(checkIns)
    .where(and(inArray(checkIns.ticketId, ids), eq(checkIns.day, DEMO_TODAY_DAY_NUMBER)));
  const logged = await t.database.db.select({ code: scanLog.code, verdict: scanLog.verdict, reason: scanLog.reason }).from(scanLog).where(inArray(scanLog.code, codes));
  return { checkIns: checkedIn?.value ?? 0, logged };
}

test(`30 scans of 30 tickets at once: 30 approvals through batched statements, then 30 denials (${TEST_DATABASE_KIND})`, async () => {
  const codes = await newTickets(30);
  const approvals = await verdictsOf(await recorder.during('30 scans at once', () => Promise.all(codes.map((code) => scan(code)))));
  expect(approvals.map((verdict) => verdict.isValid && verdict.holderName)).toEqual(codes.map((code) => `Holder ${code}`));
  const sent = recorder.statements.map((statement) => statement.sql);
  // Coalesced: fewer statements than 3 per scan, and some of them for several scans.
  expect(sent.length).toBeLessThan(3 * codes.length);
  expect(sent.some((text) => text.includes('unnest(') && /insert into "check_ins"/.test(text))).toBe(true);

  const denials = await verdictsOf(await Promise.all(codes.map((code) => scan(code))));
  for (const [index, verdict] of denials.entries()) {
    expect(verdict).toMatchObject({ isValid: false, reason: 'already_checked_in', checkedInAt: approvals[index]?.isValid ? approvals[index].checkedInAt : 'missing' });
  }
  const rows = await rowsOf(codes);
  expect(rows.checkIns).toBe(30);
  expect(rows.logged.filter((row) => row.verdict === 'approved')).toHaveLength(30);
  expect(rows.logged.filter((row) => row.verdict === 'denied' && row.reason === 'already_checked_in')).toHaveLength(30);
});

test('two scans of one ticket in one batch approve once; the other is told who checked it in', async () => {
  const [code = '', ...others] = await newTickets(6);
  const responses = await Promise.all([scan(code), ...others.map((other) => scan(other)), scan(code)]);
  const verdicts = await verdictsOf(responses);
  const ofCode = [verdicts[0], verdicts.at(-1)];
  expect(ofCode.filter((verdict) => verdict?.isValid)).toHaveLength(1);
  expect(ofCode.find((verdict) => !verdict?.isValid)).toMatchObject({ isValid: false, reason: 'already_checked_in', checkedInBy: 'Demo Staff' });
  expect(verdicts.slice(1, -1).every((verdict) => verdict.isValid)).toBe(true);
  expect((await rowsOf([code])).checkIns).toBe(1);
});

test('a scan sent twice at once with one scan id (a retry) answers the same approval twice', async () => {
  const [code = '', ...others] = await newTickets(4);
  const scanId = randomUUID();
  const verdicts = await verdictsOf(await Promise.all([scan(code, scanId), ...others.map((other) => scan(other)), scan(code, scanId)]));
  const [first, last] = [verdicts[0], verdicts.at(-1)];
  expect(first?.isValid).toBe(true);
  expect(last).toEqual(first);
  expect((await rowsOf([code])).checkIns).toBe(1);
});

test('a scan whose scan-log row cannot be written fails alone: the scans batched with it get their verdicts', async () => {
  const codes = await newTickets(5);
  const now = new Date();
  const scanAs = (scanner: { userId: string }, qrCode: string) => verifyTicket(t.database.db, scanner, { eventId, qrCode, day: DEMO_TODAY_DAY_NUMBER }, now);
  // Used tickets first: their denials' scan-log rows go in one batch below.
  await Promise.all(codes.map((code) => scanAs({ userId }, code)));
  // From now on the database refuses the scan-log row of the second code (a trigger of this test),
  // so the batch holding it fails and its scans run again one by one.
  const refusedCode = codes[1] ?? '';
  await t.database.db.execute(
    sql.raw(`create function refuse_scan_log_row() returns trigger language plpgsql as $$ begin
      if new.code = '${refusedCode}' then raise exception 'scan_log row refused by the test'; end if; return new; end $$`),
  );
  await t.database.db.execute(sql`create trigger refuse_scan_log_row before insert on scan_log for each row execute function refuse_scan_log_row()`);
  const results = await Promise.allSettled(codes.map((code) => scanAs({ userId }, code))).finally(async () => {
    await t.database.db.execute(sql`drop trigger refuse_scan_log_row on scan_log`);
    await t.database.db.execute(sql`drop function refuse_scan_log_row()`);
  });
  expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
  const refusedError = results[1]?.status === 'rejected' ? results[1].reason : undefined;
  expect(refusedError).not.toBeInstanceOf(ServiceError);
  // Drizzle's error names the failed statement (the scan-log INSERT, run alone for this scan).
  expect(String(refusedError)).toMatch(/insert into "scan_log"/);
  expect(String(refusedError)).toContain(refusedCode);
  for (const result of results) {
    if (result.status === 'fulfilled') expect(result.value).toMatchObject({ isValid: false, reason: 'already_checked_in' });
  }
  const rows = await rowsOf(codes);
  expect(rows.checkIns).toBe(5);
  expect(rows.logged.filter((row) => row.reason === 'already_checked_in')).toHaveLength(4);
});

test("one read of a batch mixing two events' scans: each scan is decided by its own event's lists", async () => {
  const live = await findEvent(t.database.db, eventId);
  const vipGate = await createCheckInList(t.database.db, live, { name: `VIP Gate ${randomUUID().slice(0, 8)}`, ticketTypes: ['VIP'], days: null }, cliActor());
  const { singleDayEventId } = await demoIds(t.database.db);
  const codes = await newTickets(4);
  const now = new Date();
  const at = (scanEventId: string, qrCode: string, checkInListId?: string) =>
    verifyTicket(t.database.db, { userId }, { eventId: scanEventId, qrCode, day: DEMO_TODAY_DAY_NUMBER, ...(checkInListId ? { checkInListId } : {}) }, now);
  // Interleaved, all at once: the first read goes alone, the others wait and go as one batch.
  const scans = codes.flatMap((code, index) => [
    // A General Admission ticket at the live event's VIP Gate: not on that list.
    () => at(eventId, code, vipGate.id),
    // The live event's list named at the other event: refused (a 400), nothing written.
    () => at(singleDayEventId, `NO-SUCH-${index}`, vipGate.id),
    // The other event at its own first list: decided there (no such ticket).
    () => at(singleDayEventId, `NO-SUCH-${index}`),
  ]);
  const results = await recorder.during('two events in one batch', () => Promise.allSettled(scans.map((scanOne) => scanOne())));
  const reads = recorder.statements.filter((statement) => statement.label === 'two events in one batch' && statement.sql.includes('row_number() over'));
  // The read of a batch held scans of both events (its first parameter: the events' ids).
  expect(reads.some((statement) => Array.isArray(statement.params[0]) && new Set(statement.params[0]).size === 2)).toBe(true);
  for (const [index, result] of results.entries()) {
    if (index % 3 === 0) expect(result).toMatchObject({ status: 'fulfilled', value: { isValid: false, reason: 'not_on_list' } });
    else if (index % 3 === 1) expect(result).toMatchObject({ status: 'rejected', reason: { code: 'bad_request' } });
    else expect(result).toMatchObject({ status: 'fulfilled', value: { isValid: false, reason: 'not_found' } });
  }
});
