/**
 * Issue 12 on a real database (PGlite, or PostgreSQL under scripts/with-postgres.ts): the door list
 * (authorization, content, holder names opened with the code through WebCrypto, the same verdicts
 * as verify through the one rule, the change cursor — also against a writer still running when the
 * list is read), the outbox upload (recorded with the scan time, idempotent on scanId, in the order
 * sent, conflicts with both admissions logged, duplicates of an online verify, bad items answered
 * one by one, the size bound) and the conflicts list.
 */
import {
  decideCheckIn,
  DoorList,
  doorListCheckInInput,
  doorListLookupKey,
  OFFLINE_BATCH_MAX_ITEMS,
  OfflineConflictList,
  OfflineScanBatchResponse,
  offlinePaths,
  offlineScanProof,
  openHolderName,
  apiPaths,
  ScanLogPage,
  supervisorPaths,
  VerifyTicketResponse,
} from '@gatecheck/contract';
import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkIns, offlineScans, scanLog, sessions, users } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_SUPERVISOR, DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { readDoorList } from '../src/services/door-list.ts';
import { findEvent } from '../src/services/events.ts';
import { createSession, hashToken } from '../src/services/sessions.ts';
import { insertTickets, revokeTicket } from '../src/services/tickets.ts';
import { createOutsider, demoIds, firstCheckInListId, OUTSIDER, userIdOf } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const DAY = DEMO_TODAY_DAY_NUMBER;
let t: TestApp;
let eventId: string;
let otherEventId: string;
let staff: string;
let colleague: string;
let supervisor: string;
let outsider: string;
let serial = 0;

beforeAll(async () => {
  t = await createTestApp();
  const ids = await demoIds(t.database.db);
  eventId = ids.liveEventId;
  otherEventId = ids.singleDayEventId;
  staff = await tokenFor(DEMO_USER.username);
  colleague = await tokenFor(DEMO_COLLEAGUE.username);
  supervisor = await tokenFor(DEMO_SUPERVISOR.username);
  const other = await createOutsider(t.database.db);
  outsider = (await createSession(t.database.db, other.userId, 600_000)).token;
});
afterAll(async () => {
  await t.close();
});

async function tokenFor(username: string): Promise<string> {
  return (await createSession(t.database.db, await userIdOf(t.database.db, username), 600_000)).token;
}

/** A fresh ticket of the live event (or `event`), so tests never share one. */
async function newTicket(options: { holderName?: string; admittedDays?: number[]; revoked?: boolean; event?: string } = {}) {
  serial += 1;
  // Strong enough for the door list (docs/decisions/087).
  const code = `OFF-${serial}-${randomUUID().toUpperCase()}`;
  const [ticket] = await insertTickets(t.database.db, [
    {
      code,
      eventId: options.event ?? eventId,
      holderName: options.holderName ?? `Holder ${serial}`,
      ticketType: 'Weekend',
      admittedDays: options.admittedDays ?? null,
      revokedAt: options.revoked ? new Date() : null,
    },
  ]);
  if (!ticket) throw new Error('no ticket');
  return { id: ticket.id, code };
}

async function doorList(token: string, since?: string) {
  const query = since === undefined ? '' : `?since=${since}`;
  return t.app.inject({ method: 'GET', url: api(`${offlinePaths.doorList(eventId, DAY)}${query}`), headers: bearer(token) });
}
async function readList(since?: string): Promise<DoorList> {
  const response = await doorList(staff, since);
  expect(response.statusCode).toBe(200);
  return DoorList.parse(response.json());
}
async function entryOf(list: DoorList, code: string) {
  const key = await doorListLookupKey(eventId, code);
  return list.tickets.find((entry) => entry.lookupKey === key) ?? null;
}
async function verify(token: string, code: string, scanId?: string) {
  const response = await t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(token), payload: { eventId, qrCode: code, day: DAY, scanId } });
  expect(response.statusCode).toBe(200);
  return VerifyTicketResponse.parse(response.json());
}

/** An offline scan item: approved now minus `secondsAgo`, on device 'gate-7'. */
function scan(code: string, overrides: Record<string, unknown> = {}, secondsAgo = 60) {
  return { scanId: randomUUID(), code, scannedAt: new Date(Date.now() - secondsAgo * 1000).toISOString(), deviceId: 'gate-7', verdict: 'approved', ...overrides };
}
/** `item` with the proof that it was made in the session of `token` (decision 088). */
async function proven<T extends { scanId: string; code: string; scannedAt: string; deviceId: string }>(token: string, item: T): Promise<T & { sessionProof: string }> {
  return { ...item, sessionProof: await offlineScanProof(token, item) };
}
async function upload(token: string, scans: unknown[], day = DAY) {
  return t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(eventId, day)), headers: bearer(token), payload: { scans } });
}
async function uploaded(token: string, scans: unknown[]) {
  const response = await upload(token, scans);
  expect(response.statusCode).toBe(200);
  return OfflineScanBatchResponse.parse(response.json());
}
async function countRows() {
  const db = t.database.db;
  const [c] = await db.select({ n: count() }).from(checkIns);
  const [l] = await db.select({ n: count() }).from(scanLog);
  const [o] = await db.select({ n: count() }).from(offlineScans);
  return { checkIns: c?.n, scanLog: l?.n, offlineScans: o?.n };
}

describe('door list: who may read it', () => {
  test('anonymous 401; a member of another organization and an unknown event 404; a bad day or cursor 400', async () => {
    expect((await t.app.inject({ method: 'GET', url: api(offlinePaths.doorList(eventId, DAY)) })).statusCode).toBe(401);
    expect((await doorList(outsider)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: api(offlinePaths.doorList(randomUUID(), DAY)), headers: bearer(staff) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: api(offlinePaths.doorList(eventId, 0)), headers: bearer(staff) })).statusCode).toBe(400);
    expect((await doorList(staff, 'abc')).statusCode).toBe(400);
  });

  test('every member may read it: staff, colleague and supervisor', async () => {
    for (const token of [staff, colleague, supervisor]) expect((await doorList(token)).statusCode).toBe(200);
  });
});

describe('door list: content', () => {
  test('one entry per ticket of the event, none of another event; names sealed, opened only with the code', async () => {
    const mine = await newTicket({ holderName: 'Zoë Ångström', admittedDays: [2, 3] });
    const elsewhere = await newTicket({ event: otherEventId });
    const list = await readList();
    expect(list.isComplete).toBe(true);
    expect(list.event).toMatchObject({ id: eventId, status: 'live', timeZone: 'Europe/London' });
    expect(new Set(list.tickets.map((entry) => entry.lookupKey)).size).toBe(list.tickets.length);
    expect(await entryOf(list, elsewhere.code)).toBeNull();
    const entry = await entryOf(list, mine.code.toLowerCase());
    expect(entry).toMatchObject({ ticketType: 'Weekend', admittedDays: [2, 3], isRevoked: false, checkIn: null });
    if (!entry) throw new Error('unreachable');
    // No holder name or code in the clear anywhere in the list.
    const text = JSON.stringify(list);
    expect(text).not.toContain('Ångström');
    expect(text).not.toContain(mine.code);
    expect(typeof globalThis.crypto.subtle.decrypt).toBe('function');
    expect(await openHolderName(eventId, mine.code.toLowerCase(), entry.holderName)).toBe('Zoë Ångström');
    await expect(openHolderName(eventId, elsewhere.code, entry.holderName)).rejects.toThrow();
  });

  test('the door list decides as verify does: one rule, two callers', async () => {
    const fresh = await newTicket();
    const revoked = await newTicket({ revoked: true });
    const otherDay = await newTicket({ admittedDays: [3] });
    const used = await newTicket();
    expect(await verify(colleague, used.code)).toMatchObject({ isValid: true });
    const list = await readList();
    const now = new Date();
    const offline = async (code: string) => decideCheckIn(doorListCheckInInput(list, DAY, await entryOf(list, code), now));
    expect(await offline(fresh.code)).toEqual({ outcome: 'check_in' });
    for (const [code, reason] of [
      [revoked.code, 'revoked'],
      [otherDay.code, 'not_valid_today'],
      [used.code, 'already_checked_in'],
      ['NO-SUCH-CODE', 'not_found'],
    ] as const) {
      const decision = await offline(code);
      const online = await verify(staff, code);
      expect(decision).toMatchObject({ outcome: 'denied', reason });
      expect(online).toMatchObject({ isValid: false, reason });
      if (decision.outcome === 'denied') expect(online).toMatchObject({ message: decision.message });
    }
    expect(await entryOf(list, used.code)).toMatchObject({ checkIn: { checkedInBy: DEMO_COLLEAGUE.displayName } });
  });
});

describe('door list: the change cursor', () => {
  test('since a cursor: exactly the tickets checked in, revoked or undone since, each with its whole state', async () => {
    const checkedIn = await newTicket();
    const toRevoke = await newTicket();
    const toUndo = await newTicket();
    const untouched = await newTicket();
    expect(await verify(staff, toUndo.code)).toMatchObject({ isValid: true });
    const first = await readList();
    expect(await entryOf(first, toUndo.code)).toMatchObject({ checkIn: { checkedInBy: DEMO_USER.displayName } });

    expect(await verify(staff, checkedIn.code)).toMatchObject({ isValid: true });
    await revokeTicket(t.database.db, toRevoke.code);
    const undo = await t.app.inject({
      method: 'POST',
      url: api(supervisorPaths.undoCheckIn(eventId, toUndo.id)),
      headers: bearer(supervisor),
      payload: { day: DAY, reason: 'wrong person' },
    });
    expect(undo.statusCode).toBe(200);

    const changes = await readList(first.cursor);
    expect(changes.isComplete).toBe(false);
    const keys = await Promise.all([checkedIn, toRevoke, toUndo].map((ticket) => doorListLookupKey(eventId, ticket.code)));
    expect(changes.tickets.map((entry) => entry.lookupKey).sort()).toEqual([...keys].sort());
    expect(await entryOf(changes, checkedIn.code)).toMatchObject({ checkIn: { checkedInBy: DEMO_USER.displayName } });
    expect(await entryOf(changes, toRevoke.code)).toMatchObject({ isRevoked: true });
    expect(await entryOf(changes, toUndo.code)).toMatchObject({ checkIn: null });
    expect(await entryOf(changes, untouched.code)).toBeNull();

    // Nothing changed since: nothing comes.
    expect((await readList(changes.cursor)).tickets).toEqual([]);
  });

  test('a check-in on another day is not a change of this day', async () => {
    const ticket = await newTicket();
    const before = await readList();
    await t.database.db.insert(checkIns).values({ eventId, ticketId: ticket.id, day: DAY + 1, checkInListId: await firstCheckInListId(t.database.db, eventId), staffUserId: await userId(DEMO_USER.username) });
    expect((await readList(before.cursor)).tickets).toEqual([]);
  });

  test(`a write still running while the list is read comes with the next changes (${TEST_DATABASE_KIND})`, async () => {
    const ticket = await newTicket();
    const staffId = await userId(DEMO_USER.username);
    const checkInListId = await firstCheckInListId(t.database.db, eventId);
    if (TEST_DATABASE_KIND === 'pglite') {
      // One connection: the list is read inside the writing transaction, before it commits; its
      // cursor must still be at or below the writer's transaction id.
      const inside = await t.database.db.transaction(async (tx) => {
        await tx.insert(checkIns).values({ eventId, ticketId: ticket.id, day: DAY, checkInListId, staffUserId: staffId });
        return readDoorList(tx, await findEvent(tx, eventId), { day: DAY }, new Date());
      });
      expect(await entryOf(await readList(inside.cursor), ticket.code)).toMatchObject({ checkIn: { checkedInBy: DEMO_USER.displayName } });
      return;
    }
    // PostgreSQL: a writer on its own connection, holding its transaction open across the download.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let signalWritten: () => void = () => undefined;
    const written = new Promise<void>((resolve) => (signalWritten = resolve));
    const writer = t.database.db.transaction(async (tx) => {
      await tx.insert(checkIns).values({ eventId, ticketId: ticket.id, day: DAY, checkInListId, staffUserId: staffId });
      signalWritten();
      await gate;
    });
    await written;
    // A later, committed write: a "highest change seen" cursor would pass the running writer.
    const later = await newTicket();
    const first = await readList();
    expect(await entryOf(first, ticket.code)).toMatchObject({ checkIn: null });
    expect(await entryOf(first, later.code)).not.toBeNull();
    release();
    await writer;
    expect(await entryOf(await readList(first.cursor), ticket.code)).toMatchObject({ checkIn: { checkedInBy: DEMO_USER.displayName } });
  });
});

async function userId(username: string): Promise<string> {
  const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!user) throw new Error(`no user ${username}`);
  return user.id;
}

describe('offline scans: the upload', () => {
  test('an offline approval is recorded with the scan time, the receive time and the device, and logged as offline', async () => {
    const ticket = await newTicket();
    const item = scan(ticket.code.toLowerCase(), {}, 90);
    const answer = await uploaded(staff, [item]);
    expect(answer.results).toEqual([{ index: 0, scanId: item.scanId, status: 'recorded', checkedInAt: item.scannedAt, checkedInBy: DEMO_USER.displayName }]);
    const [row] = await t.database.db.select().from(checkIns).where(eq(checkIns.ticketId, ticket.id));
    expect(row?.checkedInAt.toISOString()).toBe(item.scannedAt);
    expect(row?.deviceId).toBe('gate-7');
    expect(row?.scanId).toBe(item.scanId);
    expect(row?.receivedAt?.toISOString()).toBe(answer.receivedAt);
    const logged = await t.database.db.select().from(scanLog).where(eq(scanLog.scanId, item.scanId));
    expect(logged).toMatchObject([{ verdict: 'approved', source: 'offline', reason: null }]);
    expect(logged[0]?.scannedAt.toISOString()).toBe(item.scannedAt);
    // Online, the ticket is now used, with the offline scan's time.
    expect(await verify(colleague, ticket.code)).toMatchObject({ isValid: false, reason: 'already_checked_in', checkedInAt: item.scannedAt });
  });

  test('sending the same batch again changes nothing and answers the same', async () => {
    const a = await newTicket();
    const b = await newTicket();
    const batch = [scan(a.code), scan(b.code, { verdict: 'denied', reason: 'not_found' }), scan(a.code)];
    const first = await uploaded(staff, batch);
    const rows = await countRows();
    const again = await uploaded(staff, batch);
    expect(again.results).toEqual(first.results);
    expect(await countRows()).toEqual(rows);
    expect(first.results.map((result) => result.status)).toEqual(['recorded', 'recorded', 'conflict']);
  });

  test('the same batch sent twice at once is still recorded once', async () => {
    const tickets = await Promise.all([newTicket(), newTicket(), newTicket()]);
    const batch = tickets.map((ticket) => scan(ticket.code));
    const [one, two] = await Promise.all([uploaded(staff, batch), uploaded(staff, batch)]);
    expect(one?.results).toEqual(two?.results);
    expect(one?.results.every((result) => result.status === 'recorded')).toBe(true);
    for (const ticket of tickets) {
      const [row] = await t.database.db.select({ n: count() }).from(checkIns).where(eq(checkIns.ticketId, ticket.id));
      expect(row?.n).toBe(1);
    }
  });

  test('items are taken in the order sent: the first admission of a ticket is the check-in', async () => {
    const ticket = await newTicket();
    const early = scan(ticket.code, { deviceId: 'gate-1' }, 120);
    const late = scan(ticket.code, { deviceId: 'gate-1' }, 30);
    const answer = await uploaded(staff, [early, late]);
    expect(answer.results.map((result) => [result.index, result.scanId, result.status])).toEqual([
      [0, early.scanId, 'recorded'],
      [1, late.scanId, 'conflict'],
    ]);
    expect(answer.results[1]).toMatchObject({ checkedInAt: early.scannedAt, checkedInBy: DEMO_USER.displayName });
  });

  test('a ticket another gate checked in online is a conflict: both admissions in the scan log, listed with both gates', async () => {
    const ticket = await newTicket({ holderName: 'Conflicted Carla' });
    const online = await verify(colleague, ticket.code);
    expect(online).toMatchObject({ isValid: true });
    const item = scan(ticket.code, { deviceId: 'gate-9' }, 10);
    const answer = await uploaded(staff, [item]);
    expect(answer.results[0]).toMatchObject({ status: 'conflict', checkedInBy: DEMO_COLLEAGUE.displayName, checkedInAt: online.isValid ? online.checkedInAt : '' });
    const [active] = await t.database.db.select({ n: count() }).from(checkIns).where(eq(checkIns.ticketId, ticket.id));
    expect(active?.n).toBe(1);
    const logged = await t.database.db.select().from(scanLog).where(and(eq(scanLog.eventId, eventId), eq(scanLog.code, ticket.code)));
    expect(logged.map((row) => [row.source, row.verdict]).sort()).toEqual([
      ['offline', 'approved'],
      ['scan', 'approved'],
    ]);

    for (const token of [staff, supervisor]) {
      const response = await t.app.inject({ method: 'GET', url: api(offlinePaths.offlineConflicts(eventId, DAY)), headers: bearer(token) });
      expect(response.statusCode).toBe(200);
      const { conflicts } = OfflineConflictList.parse(response.json());
      expect(conflicts.find((conflict) => conflict.scanId === item.scanId)).toEqual({
        scanId: item.scanId,
        code: ticket.code,
        holderName: 'Conflicted Carla',
        offline: { scannedAt: item.scannedAt, receivedAt: answer.receivedAt, deviceId: 'gate-9', staffName: DEMO_USER.displayName },
        existing: { checkedInAt: online.isValid ? online.checkedInAt : '', checkedInBy: DEMO_COLLEAGUE.displayName },
      });
    }
    expect((await t.app.inject({ method: 'GET', url: api(offlinePaths.offlineConflicts(eventId, DAY)), headers: bearer(outsider) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: api(offlinePaths.offlineConflicts(eventId, DAY)) })).statusCode).toBe(401);
  });

  test("a scan whose online verify reached the server before the device gave up is a duplicate, not a second check-in", async () => {
    const ticket = await newTicket();
    const scanId = randomUUID();
    const online = await verify(staff, ticket.code, scanId);
    expect(online).toMatchObject({ isValid: true });
    const answer = await uploaded(staff, [scan(ticket.code, { scanId })]);
    expect(answer.results[0]).toMatchObject({ status: 'duplicate', checkedInAt: online.isValid ? online.checkedInAt : '' });
    const [active] = await t.database.db.select({ n: count() }).from(checkIns).where(eq(checkIns.ticketId, ticket.id));
    expect(active?.n).toBe(1);
  });

  test('bad items are rejected one by one with a reason; the good ones around them are recorded', async () => {
    const good = await newTicket();
    const revoked = await newTicket({ revoked: true });
    const otherDay = await newTicket({ admittedDays: [3] });
    const future = scan(good.code, {}, -3600);
    const items: unknown[] = [
      42,
      { scanId: 'not-a-uuid', code: good.code },
      { ...scan(good.code), verdict: 'maybe' },
      future,
      scan(revoked.code),
      scan(otherDay.code),
      scan('NO-SUCH-TICKET'),
      scan(good.code),
    ];
    const answer = await uploaded(staff, items);
    expect(answer.results.map((result) => [result.index, result.status, result.reason])).toEqual([
      [0, 'rejected', 'invalid_item'],
      [1, 'rejected', 'invalid_item'],
      [2, 'rejected', 'invalid_item'],
      [3, 'rejected', 'scanned_in_future'],
      [4, 'rejected', 'revoked'],
      [5, 'rejected', 'not_valid_today'],
      [6, 'rejected', 'not_found'],
      [7, 'recorded', undefined],
    ]);
    expect(answer.results[0]?.scanId).toBeNull();
    expect(answer.results[2]?.scanId).toBe((items[2] as { scanId: string }).scanId);
    expect(answer.results[2]?.message).toMatch(/^verdict: /);
    expect(answer.results[4]?.message).toBe('This ticket has been revoked.');
    // The admission on a revoked ticket is in the scan log with the server's reason.
    const logged = await t.database.db.select().from(scanLog).where(eq(scanLog.code, revoked.code));
    expect(logged).toMatchObject([{ source: 'offline', verdict: 'approved', reason: 'revoked' }]);
  });

  test("a scanId already used by another staff member's scan is refused, and theirs is untouched", async () => {
    const ticket = await newTicket();
    const item = scan(ticket.code);
    expect((await uploaded(staff, [item])).results[0]?.status).toBe('recorded');
    const answer = await uploaded(colleague, [{ ...item, code: 'SOMETHING-ELSE' }]);
    expect(answer.results[0]).toMatchObject({ status: 'rejected', reason: 'scan_id_taken' });
    expect((await uploaded(staff, [item])).results[0]).toMatchObject({ status: 'recorded', checkedInBy: DEMO_USER.displayName });
  });

  test("a colleague's scan made on this device is sent by the one signed in now: the check-in is the colleague's, and who sent it is kept (decision 077)", async () => {
    const db = t.database.db;
    const ticket = await newTicket();
    const staffId = await userIdOf(db, DEMO_USER.username);
    const colleagueId = await userIdOf(db, DEMO_COLLEAGUE.username);
    const item = await proven(colleague, scan(ticket.code, { scannedBy: colleagueId }));
    const answer = await uploaded(staff, [item]);
    expect(answer.results).toEqual([{ index: 0, scanId: item.scanId, status: 'recorded', checkedInAt: item.scannedAt, checkedInBy: DEMO_COLLEAGUE.displayName }]);
    expect(await db.select({ staffUserId: checkIns.staffUserId }).from(checkIns).where(eq(checkIns.ticketId, ticket.id))).toEqual([{ staffUserId: colleagueId }]);
    expect(await db.select({ userId: scanLog.userId, source: scanLog.source }).from(scanLog).where(eq(scanLog.scanId, item.scanId))).toEqual([{ userId: colleagueId, source: 'offline' }]);
    expect(await db.select({ userId: offlineScans.userId, sentBy: offlineScans.sentBy }).from(offlineScans).where(eq(offlineScans.scanId, item.scanId))).toEqual([{ userId: colleagueId, sentBy: staffId }]);
    // The same scan sent again, by the colleague this time (their own, so without scannedBy): the same answer, nothing new.
    const rows = await countRows();
    expect((await uploaded(colleague, [{ ...item, scannedBy: undefined }])).results).toEqual(answer.results);
    expect(await countRows()).toEqual(rows);
    // One's own scan named as one's own is simply one's own: no sender is kept.
    const mine = scan((await newTicket()).code, { scannedBy: staffId });
    expect((await uploaded(staff, [mine])).results[0]).toMatchObject({ status: 'recorded', checkedInBy: DEMO_USER.displayName });
    expect(await db.select({ sentBy: offlineScans.sentBy }).from(offlineScans).where(eq(offlineScans.scanId, mine.scanId))).toEqual([{ sentBy: null }]);
    // The supervisor's scan log names the maker, and the sender of the colleague's scan only.
    const log = await t.app.inject({ method: 'GET', url: api(`${supervisorPaths.scanLog(eventId)}?day=${DAY}&limit=100`), headers: bearer(supervisor) });
    expect(log.statusCode).toBe(200);
    const entries = ScanLogPage.parse(log.json()).entries;
    expect(entries.find((entry) => entry.code === ticket.code)).toMatchObject({ userName: DEMO_COLLEAGUE.displayName, source: 'offline', sentBy: DEMO_USER.displayName });
    expect(entries.find((entry) => entry.code === mine.code)).toMatchObject({ userName: DEMO_USER.displayName, source: 'offline', sentBy: null });
  });

  test('a scan said to be made by someone who is not a member of the organization is rejected (unknown_staff): no check-in, but logged under its sender', async () => {
    const db = t.database.db;
    const ticket = await newTicket();
    const staffId = await userIdOf(db, DEMO_USER.username);
    const outsiderId = await userIdOf(db, OUTSIDER.username);
    // Made, provably, in the outsider's own session (decision 088): a real person, but not of this organization.
    const items = [await proven(outsider, scan(ticket.code, { scannedBy: outsiderId }))];
    const answer = await uploaded(staff, items);
    expect(answer.results.map((result) => [result.status, result.reason])).toEqual([['rejected', 'unknown_staff']]);
    expect(await db.select().from(checkIns).where(eq(checkIns.ticketId, ticket.id))).toEqual([]);
    // The admissions at the gate leave a trace: stored and logged under the sender, with the reason.
    for (const item of items) {
      expect(await db.select({ userId: scanLog.userId, verdict: scanLog.verdict, reason: scanLog.reason }).from(scanLog).where(eq(scanLog.scanId, item.scanId))).toEqual([
        { userId: staffId, verdict: 'approved', reason: 'unknown_staff' },
      ]);
      expect(await db.select({ userId: offlineScans.userId, sentBy: offlineScans.sentBy }).from(offlineScans).where(eq(offlineScans.scanId, item.scanId))).toEqual([{ userId: staffId, sentBy: staffId }]);
    }
    // Sent again: the same answer, nothing new.
    const rows = await countRows();
    expect((await uploaded(staff, items)).results).toEqual(answer.results);
    expect(await countRows()).toEqual(rows);
    // The ticket is still unused.
    expect(await verify(colleague, ticket.code)).toMatchObject({ isValid: true });
  });

  test('a scan sent before for one maker and sent again naming another is refused (scan_id_taken), the first untouched', async () => {
    const db = t.database.db;
    const ticket = await newTicket();
    const item = await proven(colleague, scan(ticket.code, { scannedBy: await userIdOf(db, DEMO_COLLEAGUE.username) }));
    expect((await uploaded(staff, [item])).results[0]).toMatchObject({ status: 'recorded', checkedInBy: DEMO_COLLEAGUE.displayName });
    const supervisorId = await userIdOf(db, DEMO_SUPERVISOR.username);
    expect((await uploaded(staff, [{ ...item, scannedBy: supervisorId }])).results[0]).toMatchObject({ status: 'rejected', reason: 'scan_id_taken' });
    expect(await db.select({ userId: offlineScans.userId }).from(offlineScans).where(eq(offlineScans.scanId, item.scanId))).toEqual([{ userId: await userIdOf(db, DEMO_COLLEAGUE.username) }]);
  });

  test('a scan naming a colleague without a proof of their session is the uploader\'s to answer for (decision 088)', async () => {
    const db = t.database.db;
    const staffId = await userIdOf(db, DEMO_USER.username);
    const colleagueId = await userIdOf(db, DEMO_COLLEAGUE.username);
    const unproven = scan((await newTicket()).code, { scannedBy: colleagueId });
    // A proof made in the uploader's own session does not make the scan the colleague's.
    const ownProof = await proven(staff, scan((await newTicket()).code, { scannedBy: colleagueId }));
    // A genuine proof of the colleague's, for another scan time than the one sent.
    const moved = { ...(await proven(colleague, scan((await newTicket()).code, { scannedBy: colleagueId }))), scannedAt: new Date(Date.now() - 30_000).toISOString() };
    const answer = await uploaded(staff, [unproven, ownProof, moved]);
    expect(answer.results.map((result) => [result.status, result.checkedInBy])).toEqual([
      ['recorded', DEMO_USER.displayName],
      ['recorded', DEMO_USER.displayName],
      ['recorded', DEMO_USER.displayName],
    ]);
    for (const item of [unproven, ownProof, moved]) {
      expect(await db.select({ userId: offlineScans.userId, sentBy: offlineScans.sentBy }).from(offlineScans).where(eq(offlineScans.scanId, item.scanId))).toEqual([{ userId: staffId, sentBy: null }]);
      expect(await db.select({ userId: scanLog.userId }).from(scanLog).where(eq(scanLog.scanId, item.scanId))).toEqual([{ userId: staffId }]);
    }
  });

  test('a scan time before the session it was made in began is taken as that start and judged by the rule there: an admission of today is recorded and marked, a backdated one of yesterday refused (decision 088)', async () => {
    const db = t.database.db;
    const colleagueId = await userIdOf(db, DEMO_COLLEAGUE.username);
    // Signed in just now, e.g. after the phone's session was revoked while it was offline, or with a clock more than 5 min slow.
    const fresh = await tokenFor(DEMO_USER.username);
    const [session] = await db.select({ createdAt: sessions.createdAt }).from(sessions).where(eq(sessions.tokenHash, hashToken(fresh)));
    const sessionStart = session?.createdAt.toISOString();
    const slowClock = await newTicket();
    const early = scan(slowClock.code, {}, 60 * 60);
    // Proven made in the colleague's session, but at a time before that session began: the uploader's, at the upload session's start.
    const beforeColleague = await proven(colleague, scan((await newTicket()).code, { scannedBy: colleagueId }, 2 * 60 * 60));
    const answer = await uploaded(fresh, [early, beforeColleague]);
    expect(answer.results.map((result) => [result.status, result.checkedInAt, result.checkedInBy])).toEqual([
      ['recorded', sessionStart, DEMO_USER.displayName],
      ['recorded', sessionStart, DEMO_USER.displayName],
    ]);
    // The check-in is at the session start; offline_scans keeps the time the device claimed; the scan log marks it.
    expect(await db.select({ checkedInAt: checkIns.checkedInAt }).from(checkIns).where(eq(checkIns.ticketId, slowClock.id))).toEqual([{ checkedInAt: session?.createdAt }]);
    expect(await db.select({ scannedAt: offlineScans.scannedAt }).from(offlineScans).where(eq(offlineScans.scanId, early.scanId))).toEqual([{ scannedAt: new Date(early.scannedAt) }]);
    expect(await db.select({ verdict: scanLog.verdict, reason: scanLog.reason, scannedAt: scanLog.scannedAt }).from(scanLog).where(eq(scanLog.scanId, early.scanId))).toEqual([
      { verdict: 'approved', reason: 'scanned_before_session', scannedAt: session?.createdAt },
    ]);
    // The ticket is used: another gate is denied.
    expect(await verify(staff, slowClock.code)).toMatchObject({ isValid: false, reason: 'already_checked_in', checkedInAt: sessionStart });

    // A day-1 scan uploaded on day 2 with a day-1 time (issue 28 item 5): judged at the session start, on day 2, day 1 is over.
    const backdated = await newTicket();
    const yesterday = scan(backdated.code, {}, 24 * 60 * 60);
    const refused = await upload(fresh, [yesterday], DAY - 1);
    expect(refused.statusCode).toBe(200);
    expect(OfflineScanBatchResponse.parse(refused.json()).results.map((result) => [result.status, result.reason])).toEqual([['rejected', 'not_event_day']]);
    expect(await db.select().from(checkIns).where(eq(checkIns.ticketId, backdated.id))).toEqual([]);
    // Logged, with the reason, so a supervisor sees the attempt.
    expect(await db.select({ verdict: scanLog.verdict, reason: scanLog.reason }).from(scanLog).where(eq(scanLog.scanId, yesterday.scanId))).toEqual([{ verdict: 'approved', reason: 'not_event_day' }]);
    expect(await verify(staff, backdated.code)).toMatchObject({ isValid: true });

    // The colleague's session of two hours ago, still open an hour ago when they scanned; sent now by
    // someone who signed in a minute ago: recorded, the colleague's, at the scan time.
    const earlier = await tokenFor(DEMO_COLLEAGUE.username);
    await db.update(sessions).set({ createdAt: new Date(Date.now() - 2 * 60 * 60 * 1000) }).where(eq(sessions.tokenHash, hashToken(earlier)));
    const ticket = await newTicket();
    const madeEarlier = await proven(earlier, scan(ticket.code, { scannedBy: colleagueId }, 60 * 60));
    expect((await uploaded(fresh, [madeEarlier])).results[0]).toMatchObject({ status: 'recorded', checkedInBy: DEMO_COLLEAGUE.displayName, checkedInAt: madeEarlier.scannedAt });
  });

  test('the scan log shows when the server received an offline scan beside the time the device claims (decision 088)', async () => {
    const ticket = await newTicket();
    const item = scan(ticket.code, {}, 120);
    const before = Date.now();
    await uploaded(staff, [item]);
    const log = await t.app.inject({ method: 'GET', url: api(`${supervisorPaths.scanLog(eventId)}?day=${DAY}&limit=100`), headers: bearer(supervisor) });
    const entry = ScanLogPage.parse(log.json()).entries.find((candidate) => candidate.code === ticket.code);
    expect(entry?.at).toBe(item.scannedAt);
    expect(new Date(entry?.receivedAt ?? 0).getTime()).toBeGreaterThanOrEqual(before - 1000);
    // An online scan was received when it was made.
    const online = await newTicket();
    await verify(staff, online.code);
    const onlineLog = await t.app.inject({ method: 'GET', url: api(`${supervisorPaths.scanLog(eventId)}?day=${DAY}&limit=100`), headers: bearer(supervisor) });
    const onlineEntry = ScanLogPage.parse(onlineLog.json()).entries.find((candidate) => candidate.code === online.code);
    expect(onlineEntry?.receivedAt).toBe(onlineEntry?.at);
  });

  test('the envelope: anonymous 401, another organization 404, not a list or too many items 400, an empty batch is fine', async () => {
    const ticket = await newTicket();
    expect((await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(eventId, DAY)), payload: { scans: [] } })).statusCode).toBe(401);
    expect((await upload(outsider, [scan(ticket.code)])).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(eventId, DAY)), headers: bearer(staff), payload: { scans: 'x' } })).statusCode).toBe(400);
    const tooMany = Array.from({ length: OFFLINE_BATCH_MAX_ITEMS + 1 }, () => scan(ticket.code));
    expect((await upload(staff, tooMany)).statusCode).toBe(400);
    expect((await uploaded(staff, [])).results).toEqual([]);
    // Nothing of the refused batches was recorded.
    const [row] = await t.database.db.select({ n: count() }).from(checkIns).where(eq(checkIns.ticketId, ticket.id));
    expect(row?.n).toBe(0);
  });

  // 500 transactions, one per item: 26 s alone on PGlite, 46 s in a CI run at load 20 (28 Nov 2026).
  test(`a full batch of ${OFFLINE_BATCH_MAX_ITEMS} items fits the body limit and is answered item by item`, { timeout: 120_000 }, async () => {
    const tickets = await insertTickets(
      t.database.db,
      Array.from({ length: OFFLINE_BATCH_MAX_ITEMS }, (_, i) => ({ code: `BULK-${i}-${randomUUID().slice(0, 8)}`, eventId, holderName: `Bulk ${i}`, ticketType: 'Weekend' })),
    );
    const answer = await uploaded(staff, tickets.map((ticket) => scan(ticket.code, { deviceId: 'd'.repeat(100) })));
    expect(answer.results).toHaveLength(OFFLINE_BATCH_MAX_ITEMS);
    expect(answer.results.every((result) => result.status === 'recorded')).toBe(true);
  });
});
