/**
 * The live door's denials by reason, kept in `denial_counts` by statement triggers on `scan_log`
 * (docs/decisions/149), against a fresh GROUP BY over scan_log (what the live door counted before),
 * on the real database (PGlite, or PostgreSQL under server-pg, where the concurrent requests really
 * run at once on the pool's connections and so on several counter shards). After each step of a mix
 * of every path that writes scan_log rows — online denials, manual check-ins (approved and denied),
 * offline uploads (the phone's own denials, with and without a reason; the server's refusals of its
 * approvals, logged as passages; conflicts), info scans, undos, 50 denials sent at once, and
 * database-level edits, deletes and a TRUNCATE of the log — the table's sums, the live door's denials and the
 * recount must agree, day by day.
 */
import { randomUUID } from 'node:crypto';
import { apiPaths, infoScanPath, LiveDoor, liveDoorPaths, offlinePaths, OfflineScanBatchResponse, supervisorPaths, VerifyTicketResponse } from '@gatecheck/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { denialCounts, eventDays, events, scanLog } from '../src/db/schema.ts';
import { DEMO_SUPERVISOR } from '../src/db/seed.ts';
import { type CheckInListRow, listCheckInLists } from '../src/services/check-in-lists.ts';
import { type EventDetails, findEvent } from '../src/services/events.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { newDeviceToken } from './helpers/devices.ts';
import { demoIds } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const DAY = 1;
const OTHER_DAY = 2;
const TICKETS = 80;
let t: TestApp;
let supervisorToken: string;
let event: EventDetails;
let main: CheckInListRow;
let codes: string[];
let ticketIds: Map<string, string>;
let device: { token: string; deviceId: string };

beforeAll(async () => {
  t = await createTestApp({ env: { LIVE_DOOR_SHARE_MS: '0' } });
  const ids = await demoIds(t.database.db);
  supervisorToken = await login(t.app, DEMO_SUPERVISOR.username, DEMO_SUPERVISOR.password);
  // Rehearsal mode: verify decides as if on the chosen day, whatever the test machine's date.
  const [row] = await t.database.db
    .insert(events)
    .values({ organizationId: ids.organizationId, title: 'Denials Night', date: '2026-06-01', status: 'live', allowsScanningOutsideDays: true })
    .returning();
  if (!row) throw new Error('no event');
  await t.database.db.insert(eventDays).values([
    { eventId: row.id, day: DAY, name: 'Friday', date: '2026-06-01' },
    { eventId: row.id, day: OTHER_DAY, name: 'Saturday', date: '2026-06-02' },
  ]);
  event = await findEvent(t.database.db, row.id);
  [main] = (await listCheckInLists(t.database.db, event.id)) as [CheckInListRow];
  const prefix = `DN-${randomUUID().slice(0, 8)}`;
  codes = Array.from({ length: TICKETS }, (_, index) => `${prefix}-${String(index).padStart(3, '0')}`);
  // Tickets 70 and up admit day 1 only: scanned on day 2 they are denied not_valid_today.
  const inserted = await insertTickets(
    t.database.db,
    codes.map((code, index) => ({ code, eventId: event.id, holderName: `Holder ${code}`, ticketType: 'General Admission', admittedDays: index >= 70 ? [DAY] : null })),
  );
  ticketIds = new Map(inserted.map((ticket) => [ticket.code, ticket.id]));
  device = await newDeviceToken(t.database.db, event.id);
});
afterAll(async () => {
  await t.close();
});

const code = (index: number) => codes[index] ?? '';
const ticketId = (index: number) => ticketIds.get(code(index)) ?? '';

async function verify(qrCode: string, day = DAY): Promise<VerifyTicketResponse> {
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.verifyTicket),
    headers: bearer(supervisorToken),
    payload: { eventId: event.id, qrCode, day, checkInListId: main.id, scanId: randomUUID() },
  });
  expect(response.statusCode, response.body).toBe(200);
  return VerifyTicketResponse.parse(response.json());
}

async function manualCheckIn(index: number): Promise<VerifyTicketResponse> {
  const response = await t.app.inject({
    method: 'POST',
    url: api(supervisorPaths.manualCheckIn(event.id, ticketId(index))),
    headers: bearer(supervisorToken),
    payload: { day: DAY, checkInListId: main.id },
  });
  expect(response.statusCode, response.body).toBe(200);
  return VerifyTicketResponse.parse(response.json());
}

async function undo(index: number): Promise<void> {
  const response = await t.app.inject({
    method: 'POST',
    url: api(supervisorPaths.undoCheckIn(event.id, ticketId(index))),
    headers: bearer(supervisorToken),
    payload: { day: DAY, reason: 'Denials test', checkInListId: main.id },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function infoScan(qrCode: string): Promise<void> {
  const response = await t.app.inject({ method: 'POST', url: api(infoScanPath(event.id)), headers: bearer(supervisorToken), payload: { qrCode, day: DAY } });
  expect(response.statusCode, response.body).toBe(200);
}

type UploadedScan = { code: string; verdict: 'approved' | 'denied'; reason?: 'already_checked_in' | 'not_found' | 'revoked' };

async function uploadOffline(scans: UploadedScan[]): Promise<string[]> {
  const response = await t.app.inject({
    method: 'POST',
    url: api(offlinePaths.offlineScans(event.id, DAY)),
    headers: bearer(device.token),
    payload: {
      checkInListId: main.id,
      scans: scans.map((scan) => ({ scanId: randomUUID(), code: scan.code, scannedAt: new Date().toISOString(), deviceId: 'denials-phone', verdict: scan.verdict, ...(scan.reason ? { reason: scan.reason } : {}) })),
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return OfflineScanBatchResponse.parse(response.json()).results.map((result) => result.status);
}

async function liveDenials(day: number): Promise<LiveDoor['denials']> {
  const response = await t.app.inject({ method: 'GET', url: api(liveDoorPaths.live(event.id, day)), headers: bearer(supervisorToken) });
  expect(response.statusCode, response.body).toBe(200);
  return LiveDoor.parse(response.json()).denials;
}

/** The day's denied scans by reason, counted from scan_log itself as the live door did before decision 149. */
async function recount(day: number): Promise<Array<{ reason: string; count: number }>> {
  return t.database.db
    .select({ reason: sql<string>`coalesce(${scanLog.reason}, 'unknown')`, count: sql<number>`count(*)`.mapWith(Number) })
    .from(scanLog)
    .where(and(eq(scanLog.eventId, event.id), eq(scanLog.day, day), eq(scanLog.verdict, 'denied')))
    .groupBy(sql`1`)
    .orderBy(sql`2 desc`, sql`1`);
}

/** The trigger-kept rows of the day, the shards summed per reason, in the recount's order. */
async function stored(day: number): Promise<Array<{ reason: string; count: number }>> {
  const rows = await t.database.db.select().from(denialCounts).where(and(eq(denialCounts.eventId, event.id), eq(denialCounts.day, day)));
  const byReason = new Map<string, number>();
  for (const row of rows) byReason.set(row.reason, (byReason.get(row.reason) ?? 0) + row.denials);
  return [...byReason]
    .filter(([, count]) => count !== 0)
    .map(([reason, count]) => ({ reason, count }))
    .sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0));
}

/** For both days: the kept counts and the live door's denials equal the recount; answers day 1's. */
async function expectExact(): Promise<Array<{ reason: string; count: number }>> {
  for (const day of [OTHER_DAY, DAY]) {
    const expected = await recount(day);
    expect(await stored(day), `denial_counts of day ${day}`).toEqual(expected);
    expect(await liveDenials(day), `live door of day ${day}`).toEqual(expected);
  }
  return recount(DAY);
}

const countOf = (rows: Array<{ reason: string; count: number }>, reason: string) => rows.find((row) => row.reason === reason)?.count ?? 0;

test(`the live door's denials by reason equal a recount of scan_log through every path that writes it (${TEST_DATABASE_KIND})`, async () => {
  expect(await expectExact()).toEqual([]);
  // Online: approvals (not counted), then the same tickets again, an unknown code and a day-1-only
  // ticket on day 2.
  for (const index of [0, 1, 2, 70]) expect((await verify(code(index))).isValid).toBe(true);
  for (const index of [0, 1]) expect(await verify(code(index))).toMatchObject({ isValid: false, reason: 'already_checked_in' });
  expect(await verify('NO-SUCH-TICKET')).toMatchObject({ isValid: false, reason: 'not_found' });
  expect(await verify(code(71), OTHER_DAY)).toMatchObject({ isValid: false, reason: 'not_valid_today' });
  let rows = await expectExact();
  expect(countOf(rows, 'already_checked_in')).toBe(2);
  expect(countOf(await recount(OTHER_DAY), 'not_valid_today')).toBe(1);

  // Manual check-ins: one admitted, one denied (already in); an undo (its log row has a reason, not a denial).
  expect((await manualCheckIn(3)).isValid).toBe(true);
  expect(await manualCheckIn(0)).toMatchObject({ isValid: false, reason: 'already_checked_in' });
  await undo(2);
  // Info scans are no denials, of a known code or not.
  await infoScan(code(0));
  await infoScan('NO-SUCH-TICKET');
  rows = await expectExact();
  expect(countOf(rows, 'already_checked_in')).toBe(3);
  expect(countOf(rows, 'not_found')).toBe(1);

  // Offline: the phone's own denials (one without a reason: counted as 'unknown'), an approval the
  // server refuses (logged as the passage it was, not as a denial), a conflict, a new admission.
  const statuses = await uploadOffline([
    { code: code(1), verdict: 'denied', reason: 'already_checked_in' },
    { code: 'NO-SUCH-OFFLINE', verdict: 'denied', reason: 'not_found' },
    { code: code(4), verdict: 'denied' },
    { code: 'NO-SUCH-OFFLINE-2', verdict: 'approved' },
    { code: code(0), verdict: 'approved' },
    { code: code(5), verdict: 'approved' },
  ]);
  expect(statuses).toEqual(['recorded', 'recorded', 'recorded', 'rejected', 'conflict', 'recorded']);
  rows = await expectExact();
  expect(countOf(rows, 'already_checked_in')).toBe(4);
  expect(countOf(rows, 'not_found')).toBe(2);
  expect(countOf(rows, 'unknown')).toBe(1);
});

test(`50 denials sent at once, with approvals, manual check-ins and info scans among them, are all counted (${TEST_DATABASE_KIND})`, async () => {
  const before = await expectExact();
  // Tickets already in at the main list (online, manual, offline): each scan again is a denial.
  const used = [0, 1, 3, 5, 70];
  const fifty = Array.from({ length: 50 }, (_, k) => used[k % used.length] ?? 0);
  // Scans coalesce into multi-row statements (docs/decisions/070); manual check-ins are a
  // transaction each: on PostgreSQL these run on the pool's connections at the same moment.
  const results = await Promise.all([
    ...fifty.map((index, k) => (k % 10 === 9 ? manualCheckIn(index) : verify(code(index)))),
    ...[10, 11, 12, 13].map((index) => verify(code(index))),
    ...[20, 21].map((index) => infoScan(code(index)).then(() => undefined)),
    verify('NO-SUCH-AT-ONCE'),
  ]);
  expect(results.filter((result) => result?.isValid === false)).toHaveLength(51);
  const rows = await expectExact();
  expect(countOf(rows, 'already_checked_in')).toBe(countOf(before, 'already_checked_in') + 50);
  expect(countOf(rows, 'not_found')).toBe(countOf(before, 'not_found') + 1);
  if (TEST_DATABASE_KIND === 'postgres') {
    // On the pool's connections the reason's count is spread over several shards, and summed right.
    const shards = await t.database.db.select({ shard: denialCounts.shard }).from(denialCounts).where(and(eq(denialCounts.eventId, event.id), eq(denialCounts.day, DAY), eq(denialCounts.reason, 'already_checked_in')));
    expect(shards.length).toBeGreaterThan(1);
  }
});

test(`edits and deletes of the log at the database keep the counts, and an event deleted takes its counts with it (${TEST_DATABASE_KIND})`, async () => {
  await expectExact();
  const denied = and(eq(scanLog.eventId, event.id), eq(scanLog.day, DAY), eq(scanLog.verdict, 'denied'), eq(scanLog.reason, 'already_checked_in'));
  const [first, second, third] = await t.database.db.select({ id: scanLog.id }).from(scanLog).where(denied).limit(3);
  if (!first || !second || !third) throw new Error('too few denials');
  // A reason changed, a denial moved to another day, an approval turned into a denial, one deleted.
  await t.database.db.update(scanLog).set({ reason: 'revoked' }).where(and(eq(scanLog.eventId, event.id), eq(scanLog.id, first.id)));
  await t.database.db.update(scanLog).set({ day: OTHER_DAY }).where(and(eq(scanLog.eventId, event.id), eq(scanLog.id, second.id)));
  const [approval] = await t.database.db.select({ id: scanLog.id }).from(scanLog).where(and(eq(scanLog.eventId, event.id), eq(scanLog.verdict, 'approved'))).limit(1);
  await t.database.db.update(scanLog).set({ verdict: 'denied', reason: null }).where(and(eq(scanLog.eventId, event.id), eq(scanLog.id, approval?.id ?? '')));
  await t.database.db.delete(scanLog).where(and(eq(scanLog.eventId, event.id), eq(scanLog.id, third.id)));
  // Every not_found denial of the day deleted in one statement.
  await t.database.db.delete(scanLog).where(and(eq(scanLog.eventId, event.id), eq(scanLog.day, DAY), eq(scanLog.reason, 'not_found')));
  const rows = await expectExact();
  expect(countOf(rows, 'revoked')).toBe(1);
  expect(countOf(rows, 'not_found')).toBe(0);

  // An event deleted at the database: its log and its counts go (cascades), nothing is left behind.
  // (An event whose tickets have check-ins cannot be deleted so today: decision 132's ticket trigger
  // updates a type count of the event being deleted and fails its foreign key; not this table's.)
  const ids = await demoIds(t.database.db);
  const [gone] = await t.database.db.insert(events).values({ organizationId: ids.organizationId, title: 'Gone Night', date: '2026-06-01', status: 'live', allowsScanningOutsideDays: true }).returning();
  if (!gone) throw new Error('no event');
  const [someone] = await t.database.db.select({ id: scanLog.userId }).from(scanLog).limit(1);
  const userId = someone?.id ?? '';
  const [revoked] = await insertTickets(t.database.db, [{ code: `GONE-${randomUUID().slice(0, 8)}`, eventId: gone.id, holderName: 'Gone', ticketType: 'General Admission', admittedDays: null }]);
  await t.database.db.insert(scanLog).values([
    { userId, eventId: gone.id, day: DAY, code: revoked?.code ?? '', verdict: 'denied', reason: 'revoked' },
    { userId, eventId: gone.id, day: DAY, code: 'NOPE', verdict: 'denied', reason: 'not_found' },
  ]);
  expect(await t.database.db.select({ reason: denialCounts.reason, denials: denialCounts.denials }).from(denialCounts).where(eq(denialCounts.eventId, gone.id)).orderBy(denialCounts.reason)).toEqual([
    { reason: 'not_found', denials: 1 },
    { reason: 'revoked', denials: 1 },
  ]);
  // A denial logged and the event deleted in one transaction: the cascade's subtraction meets a
  // count row this transaction wrote, and the event's counts still go with it.
  await t.database.db.transaction(async (tx) => {
    await tx.insert(scanLog).values({ userId, eventId: gone.id, day: DAY, code: 'NOPE-2', verdict: 'denied', reason: 'not_found' });
    await tx.delete(events).where(eq(events.id, gone.id));
  });
  expect(await t.database.db.select().from(denialCounts).where(eq(denialCounts.eventId, gone.id))).toEqual([]);
});

test(`TRUNCATE of the log at the database empties the counts, and the triggers count again from there (${TEST_DATABASE_KIND})`, async () => {
  expect(await t.database.db.select().from(denialCounts)).not.toEqual([]);
  await t.database.db.execute(sql`truncate scan_log`);
  // Every key's sum is zero: no row is left at all (the truncate trigger deletes them).
  expect(await t.database.db.select().from(denialCounts)).toEqual([]);
  expect(await liveDenials(DAY)).toEqual([]);
  expect(await verify('UNKNOWN-AFTER-TRUNCATE')).toMatchObject({ isValid: false, reason: 'not_found' });
  expect(await stored(DAY)).toEqual([{ reason: 'not_found', count: 1 }]);
  await expectExact();
});
