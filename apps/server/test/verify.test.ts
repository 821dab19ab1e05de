import { randomUUID } from 'node:crypto';
import { apiPaths, ApiErrorBody, formatEventDate, INACTIVE_EVENT_STATUSES, VerifyTicketResponse } from '@gatecheck/contract';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { checkIns, eventDays, events, scanLog, tickets } from '../src/db/schema.ts';
import {
  DEMO_COLLEAGUE,
  DEMO_DRAFT_EVENT_TITLE,
  DEMO_LIVE_EVENT_TITLE,
  DEMO_SINGLE_DAY_EVENT_TITLE,
  DEMO_TODAY_DAY_NUMBER,
  DEMO_USER,
  type DemoTicket,
} from '../src/db/seed.ts';
import { createOutsider, demoIds, OUTSIDER, ticketPicker } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let demoToken: string;
let colleagueToken: string;
let outsiderToken: string;
let ids: Awaited<ReturnType<typeof demoIds>>;
let outsider: Awaited<ReturnType<typeof createOutsider>>;
let pick: (predicate: (ticket: DemoTicket) => boolean) => DemoTicket;
/** The door's clock: the system clock unless a test puts the door at another instant. */
let doorTime: Date | null = null;

/** Noon UTC (afternoon in London, the demo's zone) on the date of `day` of `eventId`. */
async function noonOn(eventId: string, day: number): Promise<Date> {
  const [row] = await t.database.db.select().from(eventDays).where(and(eq(eventDays.eventId, eventId), eq(eventDays.day, day)));
  if (!row) throw new Error(`no day ${day}`);
  return new Date(`${row.date}T12:00:00Z`);
}

beforeAll(async () => {
  t = await createTestApp({ clock: () => doorTime ?? new Date() });
  outsider = await createOutsider(t.database.db);
  ids = await demoIds(t.database.db);
  pick = ticketPicker(t.demo?.tickets ?? []);
  demoToken = await login(t.app, DEMO_USER.email, DEMO_USER.password);
  colleagueToken = await login(t.app, DEMO_COLLEAGUE.username, DEMO_COLLEAGUE.password);
  outsiderToken = await login(t.app, OUTSIDER.username, OUTSIDER.password);
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  doorTime = null;
});

const isLiveAllDays = (ticket: DemoTicket) => ticket.eventTitle === DEMO_LIVE_EVENT_TITLE && !ticket.isRevoked && ticket.days === null;

async function verify(token: string, body: Record<string, unknown>) {
  const response = await t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(token), payload: body });
  return response;
}

async function verdict(token: string, body: Record<string, unknown>) {
  const response = await verify(token, body);
  expect(response.statusCode).toBe(200);
  return VerifyTicketResponse.parse(response.json());
}

test('the first scan of a valid ticket is approved with the event, holder and ticket type', async () => {
  const ticket = pick(isLiveAllDays);
  const result = await verdict(demoToken, { eventId: ids.liveEventId, qrCode: ticket.code, day: 2 });
  expect(result).toMatchObject({
    isValid: true,
    eventName: DEMO_LIVE_EVENT_TITLE,
    holderName: ticket.holderName,
    ticketType: ticket.ticketType,
  });
  expect(Number.isNaN(Date.parse(result.checkedInAt ?? ''))).toBe(false);
});

test('a second scan the same day is denied as already checked in, with when and by whom', async () => {
  const ticket = pick(isLiveAllDays);
  const first = await verdict(colleagueToken, { eventId: ids.liveEventId, qrCode: ticket.code, day: DEMO_TODAY_DAY_NUMBER });
  expect(first.isValid).toBe(true);
  const second = await verdict(demoToken, { eventId: ids.liveEventId, qrCode: ticket.code, day: DEMO_TODAY_DAY_NUMBER });
  expect(second).toMatchObject({
    isValid: false,
    reason: 'already_checked_in',
    checkedInAt: first.checkedInAt,
    checkedInBy: DEMO_COLLEAGUE.displayName,
  });
  expect(second.isValid === false && second.message).toMatch(/already checked in/);
});

test('the same ticket is approved again on another day it admits, on that day', async () => {
  const ticket = pick(isLiveAllDays);
  expect((await verdict(demoToken, { eventId: ids.liveEventId, qrCode: ticket.code, day: 2 })).isValid).toBe(true);
  doorTime = await noonOn(ids.liveEventId, 3);
  expect((await verdict(demoToken, { eventId: ids.liveEventId, qrCode: ticket.code, day: 3 })).isValid).toBe(true);
});

test('scanned text with surrounding spaces is trimmed before the look-up', async () => {
  const ticket = pick(isLiveAllDays);
  expect((await verdict(demoToken, { eventId: ids.liveEventId, qrCode: `  ${ticket.code}\n`, day: 2 })).isValid).toBe(true);
});

test('a code typed in another case is the same ticket (a phone keyboard capitalises)', async () => {
  const ticket = pick(isLiveAllDays);
  const typed = ticket.code.toLowerCase();
  expect(typed).not.toBe(ticket.code);
  expect(await verdict(demoToken, { eventId: ids.liveEventId, qrCode: typed, day: 2 })).toMatchObject({ isValid: true, holderName: ticket.holderName });
  expect(await verdict(demoToken, { eventId: ids.liveEventId, qrCode: ticket.code, day: 2 })).toMatchObject({ reason: 'already_checked_in' });
});

test('an unknown code is denied as not found', async () => {
  const result = await verdict(demoToken, { eventId: ids.liveEventId, qrCode: 'GC-DOESNOTEXIST0000', day: 1 });
  expect(result).toMatchObject({ isValid: false, reason: 'not_found' });
  expect(result.isValid === false && result.message).toBeTruthy();
});

test('a ticket of another event is denied as wrong event', async () => {
  const ticket = pick((candidate) => candidate.eventTitle === DEMO_SINGLE_DAY_EVENT_TITLE && !candidate.isRevoked);
  const result = await verdict(demoToken, { eventId: ids.liveEventId, qrCode: ticket.code, day: 1 });
  expect(result).toMatchObject({ isValid: false, reason: 'wrong_event' });
});

test("a ticket of another organization's event is denied as not found, like an unknown code", async () => {
  const result = await verdict(demoToken, { eventId: ids.liveEventId, qrCode: outsider.ticketCode, day: 1 });
  expect(result).toMatchObject({ isValid: false, reason: 'not_found', message: 'No ticket with this code exists.' });
});

test('tickets of a draft, completed or cancelled event are denied as event not active, before revoked and day checks', async () => {
  const [draft] = await t.database.db.select().from(events).where(eq(events.title, DEMO_DRAFT_EVENT_TITLE));
  if (!draft) throw new Error('no draft event');
  for (const status of INACTIVE_EVENT_STATUSES) {
    const eventId = status === 'draft' ? draft.id : await insertEvent(ids.organizationId, status);
    const code = `INACTIVE-${status}`;
    await t.database.db.insert(tickets).values({ code, eventId, holderName: 'Ina Active', ticketType: 'General Admission', revokedAt: new Date() });
    const result = await verdict(demoToken, { eventId, qrCode: code, day: 9 });
    expect(result).toMatchObject({ isValid: false, reason: 'event_not_active' });
    expect(result.isValid === false && result.message).toMatch(/draft|ended|cancelled/);
    // A ticket of another event of the organization is still named as such.
    const other = pick(isLiveAllDays);
    expect(await verdict(demoToken, { eventId, qrCode: other.code, day: 1 })).toMatchObject({ reason: 'wrong_event' });
  }
  const checkInCount = await t.database.db.select().from(checkIns).innerJoin(tickets, eq(tickets.id, checkIns.ticketId)).where(like(tickets.code, 'INACTIVE-%'));
  expect(checkInCount).toHaveLength(0);
});

async function insertEvent(organizationId: string, status: 'completed' | 'cancelled'): Promise<string> {
  const [row] = await t.database.db.insert(events).values({ organizationId, title: `A ${status} event`, date: '2026-01-01', status }).returning();
  if (!row) throw new Error('no event');
  return row.id;
}

test('a day pass is denied on a day it does not admit and approved on its day', async () => {
  const ticket = pick((candidate) => candidate.ticketType === 'Day Pass' && candidate.days?.[0] === 2 && !candidate.isRevoked);
  const wrongDay = await verdict(demoToken, { eventId: ids.liveEventId, qrCode: ticket.code, day: 1 });
  expect(wrongDay).toMatchObject({ isValid: false, reason: 'not_valid_today' });
  expect((await verdict(demoToken, { eventId: ids.liveEventId, qrCode: ticket.code, day: 2 })).isValid).toBe(true);
});

test('a two-day ticket (days 1|3) is denied on day 2', async () => {
  const ticket = pick((candidate) => candidate.days?.join('|') === '1|3' && !candidate.isRevoked);
  expect(await verdict(demoToken, { eventId: ids.liveEventId, qrCode: ticket.code, day: 2 })).toMatchObject({
    isValid: false,
    reason: 'not_valid_today',
  });
});

test('a day the event does not have is denied as not valid today', async () => {
  const ticket = pick(isLiveAllDays);
  expect(await verdict(demoToken, { eventId: ids.liveEventId, qrCode: ticket.code, day: 4 })).toMatchObject({
    isValid: false,
    reason: 'not_valid_today',
    message: 'This event has no day 4.',
    dayDenial: { kind: 'no_such_day', day: 4 },
  });
});

test('an event without configured days has only day 1, on its date', async () => {
  const ticket = pick((candidate) => candidate.eventTitle === DEMO_SINGLE_DAY_EVENT_TITLE && !candidate.isRevoked && candidate.days === null);
  const [single] = await t.database.db.select().from(events).where(eq(events.id, ids.singleDayEventId));
  doorTime = new Date(`${single?.date}T12:00:00Z`);
  expect(await verdict(demoToken, { eventId: ids.singleDayEventId, qrCode: ticket.code, day: 2 })).toMatchObject({
    isValid: false,
    reason: 'not_valid_today',
  });
  expect((await verdict(demoToken, { eventId: ids.singleDayEventId, qrCode: ticket.code, day: 1 })).isValid).toBe(true);
});

test('a ticket of an event two weeks ahead is denied today, saying when the event is (issue 15)', async () => {
  const ticket = pick((candidate) => candidate.eventTitle === DEMO_SINGLE_DAY_EVENT_TITLE && !candidate.isRevoked && candidate.days === null);
  const [single] = await t.database.db.select().from(events).where(eq(events.id, ids.singleDayEventId));
  const result = await verdict(demoToken, { eventId: ids.singleDayEventId, qrCode: ticket.code, day: 1 });
  expect(result).toMatchObject({ isValid: false, reason: 'not_event_day' });
  expect(result.isValid === false && result.message).toBe(
    `Day 1 (Main Event) is ${formatEventDate(single?.date ?? '')}, not today. The event is on ${formatEventDate(single?.date ?? '')}.`,
  );
  expect(await t.database.db.select().from(checkIns).innerJoin(tickets, eq(tickets.id, checkIns.ticketId)).where(eq(tickets.code, ticket.code))).toHaveLength(0);
});

test("yesterday's day admits until the cut-off the next morning and is denied from it, in the event's time zone (issue 15)", async () => {
  // A night in New York (UTC-5 in November), the server's clock in UTC.
  const eventId = await insertCalendarEvent({ timeZone: 'America/New_York', dayCutoff: '06:00', allowsScanningOutsideDays: false });
  const early = await insertTicket(eventId, 'NIGHT-EARLY');
  const late = await insertTicket(eventId, 'NIGHT-LATE');
  // 05:59 in New York on 2 Dec = 10:59 UTC: the night of Day 1 (1 Dec) still runs.
  doorTime = new Date('2026-12-02T10:59:00Z');
  expect(await verdict(demoToken, { eventId, qrCode: early, day: 1 })).toMatchObject({ isValid: true });
  // 06:00 in New York: Day 1 is over; today is Day 2.
  doorTime = new Date('2026-12-02T11:00:00Z');
  expect(await verdict(demoToken, { eventId, qrCode: late, day: 1 })).toMatchObject({
    isValid: false,
    reason: 'not_event_day',
    message: 'Day 1 (Night One) was Tue 1 Dec. Today is Day 2, Wed 2 Dec.',
    // The facts, for a client that words them in its own language (issue 10 item 9).
    dayDenial: { kind: 'not_event_day', selected: { day: 1, name: 'Night One', date: '2026-12-01' }, isPast: true, today: { day: 2, date: '2026-12-02' } },
  });
  expect((await verdict(demoToken, { eventId, qrCode: late, day: 2 })).isValid).toBe(true);
});

test('an event that allows scanning outside its days (rehearsal) admits on any date as if on the chosen day (issue 15)', async () => {
  const eventId = await insertCalendarEvent({ timeZone: 'Australia/Sydney', dayCutoff: '06:00', allowsScanningOutsideDays: true });
  const code = await insertTicket(eventId, 'REHEARSAL-1');
  doorTime = new Date('2026-11-20T09:00:00Z');
  expect(await verdict(demoToken, { eventId, qrCode: code, day: 2 })).toMatchObject({ isValid: true });
  expect(await verdict(demoToken, { eventId, qrCode: code, day: 2 })).toMatchObject({ isValid: false, reason: 'already_checked_in' });
});

/** A live two-day event of the demo organization on 1 and 2 Dec 2026 with the given calendar. */
async function insertCalendarEvent(calendar: { timeZone: string; dayCutoff: string; allowsScanningOutsideDays: boolean }): Promise<string> {
  const [row] = await t.database.db
    .insert(events)
    .values({ organizationId: ids.organizationId, title: `Nights in ${calendar.timeZone}`, date: '2026-12-01', status: 'live', ...calendar })
    .returning();
  if (!row) throw new Error('no event');
  await t.database.db.insert(eventDays).values([
    { eventId: row.id, day: 1, name: 'Night One', date: '2026-12-01' },
    { eventId: row.id, day: 2, name: 'Night Two', date: '2026-12-02' },
  ]);
  return row.id;
}

async function insertTicket(eventId: string, code: string): Promise<string> {
  await t.database.db.insert(tickets).values({ code, eventId, holderName: 'Nia Night', ticketType: 'Weekend Pass' });
  return code;
}

test('a revoked ticket is denied as revoked', async () => {
  const ticket = pick((candidate) => candidate.eventTitle === DEMO_LIVE_EVENT_TITLE && candidate.isRevoked);
  expect(await verdict(demoToken, { eventId: ids.liveEventId, qrCode: ticket.code, day: 1 })).toMatchObject({
    isValid: false,
    reason: 'revoked',
  });
});

test('a retried request with the same scanId returns the original approval', async () => {
  const ticket = pick(isLiveAllDays);
  const scanId = randomUUID();
  const body = { eventId: ids.liveEventId, qrCode: ticket.code, day: 2, scanId };
  const first = await verdict(demoToken, body);
  const retry = await verdict(demoToken, body);
  expect(first.isValid).toBe(true);
  expect(retry).toEqual(first);
  const otherScan = await verdict(demoToken, { ...body, scanId: randomUUID() });
  expect(otherScan).toMatchObject({ isValid: false, reason: 'already_checked_in' });
  const otherStaff = await verdict(colleagueToken, body);
  expect(otherStaff).toMatchObject({ isValid: false, reason: 'already_checked_in' });
});

test('every attempt, approvals and denials, is written to the scan log', async () => {
  const ticket = pick(isLiveAllDays);
  const before = await t.database.db.select().from(scanLog).where(eq(scanLog.code, ticket.code));
  expect(before).toHaveLength(0);
  await verdict(demoToken, { eventId: ids.liveEventId, qrCode: ticket.code, day: DEMO_TODAY_DAY_NUMBER });
  await verdict(demoToken, { eventId: ids.liveEventId, qrCode: ticket.code, day: DEMO_TODAY_DAY_NUMBER });
  await verdict(demoToken, { eventId: ids.liveEventId, qrCode: 'GC-NOPE', day: DEMO_TODAY_DAY_NUMBER });
  const rows = await t.database.db.select().from(scanLog).where(eq(scanLog.eventId, ids.liveEventId)).orderBy(scanLog.scannedAt);
  const forTicket = rows.filter((row) => row.code === ticket.code).map((row) => [row.verdict, row.reason]);
  expect(forTicket).toEqual([
    ['approved', null],
    ['denied', 'already_checked_in'],
  ]);
  expect(rows.some((row) => row.code === 'GC-NOPE' && row.reason === 'not_found')).toBe(true);
});

test("a member of another organization may not verify this event's tickets (404, as for an unknown event)", async () => {
  const ticket = pick(isLiveAllDays);
  const response = await verify(outsiderToken, { eventId: ids.liveEventId, qrCode: ticket.code, day: 1 });
  expect(response.statusCode).toBe(404);
  expect(ApiErrorBody.parse(response.json())).toEqual({ code: 'not_found', message: `No event with id "${ids.liveEventId}"` });
  // Nothing written into that organization's scan log, and the ticket was not consumed.
  expect(await t.database.db.select().from(scanLog).where(eq(scanLog.code, ticket.code))).toEqual([]);
  expect((await verdict(demoToken, { eventId: ids.liveEventId, qrCode: ticket.code, day: DEMO_TODAY_DAY_NUMBER })).isValid).toBe(true);
});

test('an unknown event is a 404', async () => {
  for (const eventId of [randomUUID(), 'nope']) {
    const response = await verify(demoToken, { eventId, qrCode: 'GC-X', day: 1 });
    expect(response.statusCode).toBe(404);
    expect(ApiErrorBody.parse(response.json()).code).toBe('not_found');
  }
});

test('verifying without signing in is a 401', async () => {
  const response = await t.app.inject({
    method: 'POST',
    url: api(apiPaths.verifyTicket),
    payload: { eventId: ids.liveEventId, qrCode: 'GC-X', day: 1 },
  });
  expect(response.statusCode).toBe(401);
});

test('a malformed verify body is a 400 naming the field', async () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ eventId: ids.liveEventId, day: 1 }, 'body.qrCode'],
    [{ eventId: ids.liveEventId, qrCode: '   ', day: 1 }, 'body.qrCode'],
    [{ eventId: ids.liveEventId, qrCode: 'GC-X', day: 'two' }, 'body.day'],
    [{ eventId: ids.liveEventId, qrCode: 'GC-X', day: 1.5 }, 'body.day'],
    [{ qrCode: 'GC-X', day: 1 }, 'body.eventId'],
    [{ eventId: ids.liveEventId, qrCode: 'GC-X', day: 1, scanId: 'not-a-uuid' }, 'body.scanId'],
  ];
  for (const [body, field] of cases) {
    const response = await verify(demoToken, body);
    expect(response.statusCode).toBe(400);
    expect(ApiErrorBody.parse(response.json())).toMatchObject({ code: 'validation_failed', field });
  }
});
