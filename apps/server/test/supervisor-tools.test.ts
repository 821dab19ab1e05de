/**
 * Issue 11 on a real database: attendee search (accents, case, word starts, code prefixes,
 * wildcards and SQL-looking text as plain text, too-short searches), manual check-in with the
 * verify rules, undo with a reason (history kept, 409 when not checked in), the races around an
 * undo, and the scan log's filters and pages.
 */
import { randomUUID } from 'node:crypto';
import {
  apiPaths,
  AttendeeSearchResponse,
  ScanLogPage,
  supervisorPaths,
  UndoCheckInResponse,
  VerifyTicketResponse,
} from '@gatecheck/contract';
import { and, count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkIns, scanLog, tickets, users } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_LIVE_EVENT_TITLE, DEMO_SUPERVISOR, DEMO_TODAY_DAY_NUMBER } from '../src/db/seed.ts';
import { createSession } from '../src/services/sessions.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { demoIds, ticketPicker } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const DAY = DEMO_TODAY_DAY_NUMBER;
let t: TestApp;
let ids: Awaited<ReturnType<typeof demoIds>>;
let supervisor: string;
let staff: string;
let pickTicket: ReturnType<typeof ticketPicker>;
const searchTickets: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  ids = await demoIds(t.database.db);
  pickTicket = ticketPicker(t.demo?.tickets ?? []);
  supervisor = await tokenFor(DEMO_SUPERVISOR.username);
  staff = await tokenFor(DEMO_COLLEAGUE.username);
  const inserted = await insertTickets(t.database.db, [
    { code: 'SRCH-ZOE-1', eventId: ids.liveEventId, holderName: 'Zoë Ångström', ticketType: 'VIP' },
    { code: 'SRCH-ZOE-2', eventId: ids.liveEventId, holderName: 'ZOE  SMITH', ticketType: 'Day Pass', admittedDays: [1, 3] },
    { code: 'SRCH-REN-1', eventId: ids.liveEventId, holderName: 'Renée Müller-Straße', ticketType: 'Student', revokedAt: new Date() },
    { code: 'SRCH-PCT-1', eventId: ids.liveEventId, holderName: '100% Pure_Joy', ticketType: 'General Admission' },
    // Same name in another event of the organization: never listed for the live event.
    { code: 'SRCH-ZOE-9', eventId: ids.singleDayEventId, holderName: 'Zoe Elsewhere', ticketType: 'VIP' },
  ]);
  for (const ticket of inserted) searchTickets[ticket.code] = ticket.id;
});
afterAll(async () => {
  await t.close();
});

async function tokenFor(username: string): Promise<string> {
  const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!user) throw new Error(`no user ${username}`);
  return (await createSession(t.database.db, user.id, 600_000)).token;
}

async function search(q: string, day = DAY) {
  const query = new URLSearchParams({ q, day: String(day) });
  return t.app.inject({ method: 'GET', url: api(`${supervisorPaths.attendeeSearch(ids.liveEventId)}?${query}`), headers: bearer(supervisor) });
}

async function searchCodes(q: string): Promise<string[]> {
  const response = await search(q);
  expect(response.statusCode, response.body).toBe(200);
  return AttendeeSearchResponse.parse(response.json()).attendees.map((attendee) => attendee.code).sort();
}

async function verify(code: string, token = staff, scanId?: string) {
  const response = await t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(token), payload: { eventId: ids.liveEventId, qrCode: code, day: DAY, scanId } });
  expect(response.statusCode, response.body).toBe(200);
  return VerifyTicketResponse.parse(response.json());
}

async function undo(ticketId: string, reason: string, token = supervisor, scanId?: string) {
  return t.app.inject({ method: 'POST', url: api(supervisorPaths.undoCheckIn(ids.liveEventId, ticketId)), headers: bearer(token), payload: { day: DAY, reason, scanId } });
}

async function manual(ticketId: string) {
  const response = await t.app.inject({ method: 'POST', url: api(supervisorPaths.manualCheckIn(ids.liveEventId, ticketId)), headers: bearer(supervisor), payload: { day: DAY } });
  expect(response.statusCode, response.body).toBe(200);
  return VerifyTicketResponse.parse(response.json());
}

async function freshTicket(): Promise<{ id: string; code: string }> {
  const code = pickTicket((ticket) => ticket.eventTitle === DEMO_LIVE_EVENT_TITLE && !ticket.isRevoked && ticket.days === null).code;
  const [row] = await t.database.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.code, code));
  if (!row) throw new Error('demo ticket missing');
  return { id: row.id, code };
}

describe(`attendee search (${TEST_DATABASE_KIND})`, () => {
  test('finds holders by the start of any word, ignoring case and accents, only in the selected event', async () => {
    expect(await searchCodes('zoe')).toEqual(['SRCH-ZOE-1', 'SRCH-ZOE-2']);
    expect(await searchCodes('ZOË')).toEqual(['SRCH-ZOE-1', 'SRCH-ZOE-2']);
    expect(await searchCodes('angst')).toEqual(['SRCH-ZOE-1']);
    expect(await searchCodes('ÅNGSTRÖM')).toEqual(['SRCH-ZOE-1']);
    expect(await searchCodes('zoe smi')).toEqual(['SRCH-ZOE-2']);
    expect(await searchCodes('muller-strasse')).toEqual(['SRCH-REN-1']);
    expect(await searchCodes('RENEE')).toEqual(['SRCH-REN-1']);
    // Only word starts: the middle of a word finds nothing.
    expect(await searchCodes('strom')).toEqual([]);
  });

  test('finds a ticket by the start of its code, any case', async () => {
    const demo = (t.demo?.tickets ?? []).find((ticket) => ticket.eventTitle === DEMO_LIVE_EVENT_TITLE);
    const prefix = demo?.code.slice(0, 10) ?? '';
    expect(await searchCodes(prefix.toLowerCase())).toContain(demo?.code);
    expect(await searchCodes('srch-zoe')).toEqual(['SRCH-ZOE-1', 'SRCH-ZOE-2']);
  });

  test('wildcards and SQL-looking text are plain text', async () => {
    expect(await searchCodes('%%%')).toEqual([]);
    expect(await searchCodes('___')).toEqual([]);
    expect(await searchCodes('z%e')).toEqual([]);
    expect(await searchCodes('100%')).toEqual(['SRCH-PCT-1']);
    expect(await searchCodes('pure_j')).toEqual(['SRCH-PCT-1']);
    expect(await searchCodes("zoe' OR '1'='1")).toEqual([]);
    expect(await searchCodes("'; DROP TABLE tickets; --")).toEqual([]);
    expect(await searchCodes('\\\\\\')).toEqual([]);
    const [left] = await t.database.db.select({ value: count() }).from(tickets);
    expect(left?.value).toBeGreaterThan(200);
  });

  test('fewer than 3 characters (after trimming) is a 400 that lists nobody', async () => {
    for (const q of ['', 'zo', '  zo  ', 'é']) {
      const response = await search(q);
      expect(response.statusCode, q).toBe(400);
      expect(response.json()).toMatchObject({ code: 'validation_failed', field: 'querystring.q' });
      expect(response.json()).not.toHaveProperty('attendees');
    }
    expect((await search('x'.repeat(101))).statusCode).toBe(400);
    expect((await search('zoe', 0)).statusCode).toBe(400);
  });

  test('results show type, days admitted, revoked, and the check-in of the selected day', async () => {
    const before = AttendeeSearchResponse.parse((await search('srch-')).json());
    expect(before.hasMore).toBe(false);
    const byCode = new Map(before.attendees.map((attendee) => [attendee.code, attendee]));
    expect(byCode.get('SRCH-ZOE-2')).toMatchObject({ holderName: 'ZOE  SMITH', ticketType: 'Day Pass', admittedDays: [1, 3], revokedAt: null, checkIn: null, day: DAY });
    expect(byCode.get('SRCH-ZOE-1')).toMatchObject({ admittedDays: null, checkIn: null });
    expect(byCode.get('SRCH-REN-1')?.revokedAt).toEqual(expect.any(String));

    const approved = await verify('SRCH-ZOE-1');
    expect(approved.isValid).toBe(true);
    const after = AttendeeSearchResponse.parse((await search('zoe ang')).json());
    expect(after.attendees[0]?.checkIn).toEqual({ checkedInAt: approved.isValid ? approved.checkedInAt : '', checkedInBy: DEMO_COLLEAGUE.displayName });
    // Another day: not checked in.
    const otherDay = AttendeeSearchResponse.parse((await search('zoe ang', 1)).json());
    expect(otherDay.attendees[0]?.checkIn).toBeNull();
  });

  test('at most 50 results, with hasMore', async () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ code: `MANY-${i}`, eventId: ids.liveEventId, holderName: `Manyfold Person${i}`, ticketType: 'VIP' }));
    await insertTickets(t.database.db, many);
    const page = AttendeeSearchResponse.parse((await search('manyfold')).json());
    expect(page.attendees).toHaveLength(50);
    expect(page.hasMore).toBe(true);
  });
});

describe(`manual check-in (${TEST_DATABASE_KIND})`, () => {
  test('admits once, with the verify rules, and is logged as manual', async () => {
    const ticket = await freshTicket();
    const first = await manual(ticket.id);
    expect(first).toMatchObject({ isValid: true, ticketType: expect.any(String) });
    const second = await manual(ticket.id);
    expect(second).toMatchObject({ isValid: false, reason: 'already_checked_in', checkedInBy: DEMO_SUPERVISOR.displayName });
    // A scan of the same ticket after the manual check-in is denied too: one rule.
    expect(await verify(ticket.code)).toMatchObject({ isValid: false, reason: 'already_checked_in' });
    const logged = await t.database.db.select({ source: scanLog.source, verdict: scanLog.verdict }).from(scanLog).where(eq(scanLog.code, ticket.code)).orderBy(scanLog.scannedAt);
    expect(logged).toEqual([
      { source: 'manual', verdict: 'approved' },
      { source: 'manual', verdict: 'denied' },
      { source: 'scan', verdict: 'denied' },
    ]);
  });

  test('a revoked ticket and a day the ticket does not admit are denied as a scan would be', async () => {
    expect(await manual(searchTickets['SRCH-REN-1'] ?? '')).toMatchObject({ isValid: false, reason: 'revoked' });
    expect(await manual(searchTickets['SRCH-ZOE-2'] ?? '')).toMatchObject({ isValid: false, reason: 'not_valid_today' });
  });

  test("another event's ticket is 404 (not found in this event)", async () => {
    const response = await t.app.inject({ method: 'POST', url: api(supervisorPaths.manualCheckIn(ids.liveEventId, searchTickets['SRCH-ZOE-9'] ?? '')), headers: bearer(supervisor), payload: { day: DAY } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 'not_found', message: 'No ticket with this id in this event.' });
  });
});

describe(`undo (${TEST_DATABASE_KIND})`, () => {
  test('removes the check-in for the day with who, when and why; the ticket is admitted again; history stays', async () => {
    const ticket = await freshTicket();
    const first = await verify(ticket.code);
    expect(first.isValid).toBe(true);
    const response = await undo(ticket.id, '  Wrong wristband  ');
    expect(response.statusCode, response.body).toBe(200);
    const undone = UndoCheckInResponse.parse(response.json());
    expect(undone).toMatchObject({ ticketId: ticket.id, day: DAY, undoneBy: DEMO_SUPERVISOR.displayName, reason: 'Wrong wristband' });
    expect(undone.checkedInAt).toBe(first.isValid ? first.checkedInAt : '');
    expect(await verify(ticket.code)).toMatchObject({ isValid: true });
    expect(await verify(ticket.code)).toMatchObject({ isValid: false, reason: 'already_checked_in' });

    const rows = await t.database.db.select().from(checkIns).where(eq(checkIns.ticketId, ticket.id)).orderBy(checkIns.checkedInAt);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ undoReason: 'Wrong wristband', undoneAt: expect.any(Date), undoneBy: expect.any(String) });
    expect(rows[1]).toMatchObject({ undoneAt: null, undoReason: null });
    const logged = await t.database.db.select({ verdict: scanLog.verdict, reason: scanLog.reason, source: scanLog.source }).from(scanLog).where(eq(scanLog.code, ticket.code)).orderBy(scanLog.scannedAt);
    expect(logged).toEqual([
      { verdict: 'approved', reason: null, source: 'scan' },
      { verdict: 'undone', reason: 'Wrong wristband', source: 'undo' },
      { verdict: 'approved', reason: null, source: 'scan' },
      { verdict: 'denied', reason: 'already_checked_in', source: 'scan' },
    ]);
  });

  test('a ticket that is not checked in that day gets 409 with a clear message', async () => {
    const ticket = await freshTicket();
    const response = await undo(ticket.id, 'Nothing to undo');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ code: 'conflict', message: `This ticket is not checked in on day ${DAY}, so there is nothing to undo.` });
    // An undone check-in cannot be undone twice.
    await verify(ticket.code);
    expect((await undo(ticket.id, 'once')).statusCode).toBe(200);
    expect((await undo(ticket.id, 'twice')).statusCode).toBe(409);
  });

  test("an undo from a scan's row undoes only the check-in that scan made: another scan's check-in stands (409 check_in_changed)", async () => {
    const ticket = await freshTicket();
    const [firstScan, secondScan] = [randomUUID(), randomUUID()];
    expect(await verify(ticket.code, staff, firstScan)).toMatchObject({ isValid: true });
    expect((await undo(ticket.id, 'Wrong wristband', supervisor, firstScan)).statusCode).toBe(200);
    // Checked in again by another scan; the first scan's row is stale now.
    expect(await verify(ticket.code, staff, secondScan)).toMatchObject({ isValid: true });
    const stale = await undo(ticket.id, 'From the old row', supervisor, firstScan);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'check_in_changed' });
    expect(await verify(ticket.code)).toMatchObject({ isValid: false, reason: 'already_checked_in' });
    // The check-in that stands can be undone from its own scan's row, or without a scan (Find attendee).
    expect((await undo(ticket.id, 'Left the venue', supervisor, secondScan)).statusCode).toBe(200);
    const none = await undo(ticket.id, 'Again', supervisor, secondScan);
    expect(none.json()).toMatchObject({ code: 'conflict' });
  });

  test('the reason is required', async () => {
    const ticket = await freshTicket();
    await verify(ticket.code);
    for (const reason of ['', '   ']) {
      const response = await undo(ticket.id, reason);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'validation_failed', field: 'body.reason' });
    }
    const missing = await t.app.inject({ method: 'POST', url: api(supervisorPaths.undoCheckIn(ids.liveEventId, ticket.id)), headers: bearer(supervisor), payload: { day: DAY } });
    expect(missing.statusCode).toBe(400);
    expect((await undo(ticket.id, 'x'.repeat(501))).statusCode).toBe(400);
  });

  test('50 concurrent scans after an undo approve exactly once, round after round', async () => {
    const ticket = await freshTicket();
    expect((await verify(ticket.code)).isValid).toBe(true);
    for (let round = 0; round < 3; round++) {
      expect((await undo(ticket.id, `round ${round}`)).statusCode).toBe(200);
      const verdicts = await Promise.all(Array.from({ length: 50 }, (_, i) => verify(ticket.code, i % 2 === 0 ? staff : supervisor)));
      expect(verdicts.filter((verdict) => verdict.isValid)).toHaveLength(1);
      expect(verdicts.filter((verdict) => !verdict.isValid && verdict.reason === 'already_checked_in')).toHaveLength(49);
    }
    const [active] = await t.database.db
      .select({ value: count() })
      .from(checkIns)
      .where(and(eq(checkIns.ticketId, ticket.id), eq(checkIns.day, DAY)));
    expect(active?.value).toBe(4);
  });

  test('10 concurrent undos of one check-in: one succeeds, nine get 409; manual check-ins racing scans admit once', async () => {
    const ticket = await freshTicket();
    await verify(ticket.code);
    const statuses = (await Promise.all(Array.from({ length: 10 }, (_, i) => undo(ticket.id, `race ${i}`)))).map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(9);
    const mixed = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? manual(ticket.id) : verify(ticket.code))));
    expect(mixed.filter((verdict) => verdict.isValid)).toHaveLength(1);
  });

  test('undos racing scans never fail: every scan gets a verdict and at most one check-in is active', async () => {
    const ticket = await freshTicket();
    await verify(ticket.code);
    const work = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? undo(ticket.id, `churn ${i}`).then((r) => r.statusCode) : verify(ticket.code).then(() => 200)));
    const results = await Promise.all(work);
    expect(results.every((status) => status === 200 || status === 409)).toBe(true);
    const active = await t.database.db.select().from(checkIns).where(and(eq(checkIns.ticketId, ticket.id), eq(checkIns.day, DAY)));
    expect(active.filter((row) => row.undoneAt === null).length).toBeLessThanOrEqual(1);
  });
});

describe(`scan log (${TEST_DATABASE_KIND})`, () => {
  async function readLog(query: Record<string, string>) {
    const response = await t.app.inject({ method: 'GET', url: api(`${supervisorPaths.scanLog(ids.liveEventId)}?${new URLSearchParams(query)}`), headers: bearer(supervisor) });
    expect(response.statusCode, response.body).toBe(200);
    return ScanLogPage.parse(response.json());
  }

  test('every verify, manual check-in and undo, newest first, with the gate user', async () => {
    const ticket = await freshTicket();
    await verify(ticket.code);
    await verify(ticket.code);
    await undo(ticket.id, 'Scanned the wrong guest');
    await manual(ticket.id);
    const page = await readLog({ limit: '200' });
    const mine = page.entries.filter((entry) => entry.code === ticket.code);
    expect(mine.map((entry) => [entry.verdict, entry.source, entry.userName, entry.reason])).toEqual([
      ['approved', 'manual', DEMO_SUPERVISOR.displayName, null],
      ['undone', 'undo', DEMO_SUPERVISOR.displayName, 'Scanned the wrong guest'],
      ['denied', 'scan', DEMO_COLLEAGUE.displayName, 'already_checked_in'],
      ['approved', 'scan', DEMO_COLLEAGUE.displayName, null],
    ]);
    const times = page.entries.map((entry) => entry.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  test('filters by verdict and by day', async () => {
    for (const verdict of ['approved', 'denied', 'undone'] as const) {
      const page = await readLog({ verdict, limit: '200' });
      expect(page.entries.length).toBeGreaterThan(0);
      expect(page.entries.every((entry) => entry.verdict === verdict)).toBe(true);
    }
    await t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(staff), payload: { eventId: ids.liveEventId, qrCode: 'NO-SUCH', day: 1 } });
    const dayOne = await readLog({ day: '1', limit: '200' });
    expect(dayOne.entries.length).toBeGreaterThan(0);
    expect(dayOne.entries.every((entry) => entry.day === 1)).toBe(true);
    const [total] = await t.database.db.select({ value: count() }).from(scanLog).where(and(eq(scanLog.eventId, ids.liveEventId), eq(scanLog.day, 1)));
    expect(dayOne.entries).toHaveLength(total?.value ?? -1);
  });

  test('pages of 7 walk the whole log once, newest first, whatever arrives meanwhile', async () => {
    for (let i = 0; i < 20; i++) await verify(`PAGING-${i}`);
    const all = await t.database.db
      .select({ id: scanLog.id })
      .from(scanLog)
      .where(eq(scanLog.eventId, ids.liveEventId))
      .orderBy(desc(scanLog.scannedAt), desc(scanLog.id));
    expect(all.length).toBeGreaterThanOrEqual(20);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof readLog>> = await readLog({ limit: '7', ...(cursor ? { cursor } : {}) });
      expect(page.entries.length).toBeLessThanOrEqual(7);
      seen.push(...page.entries.map((entry) => entry.id));
      cursor = page.nextCursor;
      pages += 1;
      // A scan while paging lands before the first page, never inside the walk.
      if (pages === 1) await verify('NEW-WHILE-PAGING');
    } while (cursor);
    expect(seen).toEqual(all.map((entry) => entry.id));
    expect(pages).toBe(Math.ceil(all.length / 7));
  });

  test('a bad cursor is 400; the limit is bounded', async () => {
    const cursorResponse = await t.app.inject({ method: 'GET', url: api(`${supervisorPaths.scanLog(ids.liveEventId)}?cursor=bm90LWEtY3Vyc29y`), headers: bearer(supervisor) });
    expect(cursorResponse.statusCode).toBe(400);
    expect(cursorResponse.json()).toEqual({ code: 'bad_request', message: 'This page cursor is not valid; start from the first page.' });
    for (const query of ['limit=0', 'limit=201', 'limit=abc', 'verdict=maybe', 'day=0']) {
      const response = await t.app.inject({ method: 'GET', url: api(`${supervisorPaths.scanLog(ids.liveEventId)}?${query}`), headers: bearer(supervisor) });
      expect(response.statusCode, query).toBe(400);
    }
    expect((await readLog({})).entries.length).toBeLessThanOrEqual(50);
  });
});
