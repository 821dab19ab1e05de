/**
 * Check-in lists (docs/decisions/100) on the real app and database, PGlite and PostgreSQL: every
 * event has 'All tickets'; a ticket not on the list scanned at is DENIED naming where it is valid;
 * a ticket is checked in once per list and day; a client that names no list checks in at the first
 * list, as before lists; a list of another event is a 400 with nothing written, for every call
 * that takes one; the counts, the door list and the supervisor's tools work per list.
 */
import { randomUUID } from 'node:crypto';
import {
  apiPaths,
  ApiErrorBody,
  checkInCountsPath,
  CheckInCounts,
  CheckInLists,
  checkInListsPath,
  decideCheckIn,
  DEFAULT_CHECK_IN_LIST_NAME,
  DEFAULT_DAY_CUTOFF,
  DEFAULT_EVENT_TIME_ZONE,
  DoorList,
  doorListCheckInInput,
  doorListLookupKey,
  OfflineConflictList,
  OfflineScanBatchResponse,
  offlinePaths,
  supervisorPaths,
  UndoCheckInResponse,
  VerifyTicketResponse,
} from '@gatecheck/contract';
import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkIns, events, offlineScans, scanLog, tickets } from '../src/db/schema.ts';
import { DEMO_COLLEAGUE, DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { type CheckInListRow, createCheckInList, listCheckInLists } from '../src/services/check-in-lists.ts';
import { cliActor } from '../src/services/audit.ts';
import { createEvent, findEvent } from '../src/services/events.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { createOutsider, demoIds } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const DAY = DEMO_TODAY_DAY_NUMBER;
let t: TestApp;
let ids: Awaited<ReturnType<typeof demoIds>>;
let outsider: Awaited<ReturnType<typeof createOutsider>>;
let staffToken: string;
let supervisorToken: string;
let allTickets: CheckInListRow;
let vipGate: CheckInListRow;
let merchDesk: CheckInListRow;
/** A list of the outsider's event: never valid at the demo event. */
let foreignListId: string;
let nextTicket = 0;

beforeAll(async () => {
  t = await createTestApp();
  ids = await demoIds(t.database.db);
  outsider = await createOutsider(t.database.db);
  staffToken = await login(t.app, DEMO_COLLEAGUE.username, DEMO_COLLEAGUE.password);
  supervisorToken = await login(t.app, DEMO_USER.username, DEMO_USER.password);
  const event = await findEvent(t.database.db, ids.liveEventId);
  [allTickets] = (await listCheckInLists(t.database.db, event.id)) as [CheckInListRow];
  vipGate = await createCheckInList(t.database.db, event, { name: 'VIP Gate', ticketTypes: ['VIP'], days: null }, cliActor());
  merchDesk = await createCheckInList(t.database.db, event, { name: 'Merch desk', ticketTypes: ['VIP', 'General Admission'], days: [DAY] }, cliActor());
  const [foreign] = await listCheckInLists(t.database.db, outsider.eventId);
  foreignListId = foreign?.id ?? '';
});
afterAll(async () => {
  await t.close();
});

/** A new ticket of the demo's live event of `ticketType`, every day, with a code strong enough for the door list. */
async function newTicket(ticketType: string): Promise<{ id: string; code: string }> {
  const code = `LIST-${String(nextTicket++).padStart(3, '0')}-${randomUUID().slice(0, 18)}`;
  const [ticket] = await insertTickets(t.database.db, [{ code, eventId: ids.liveEventId, holderName: `Holder ${code}`, ticketType }]);
  if (!ticket) throw new Error('no ticket');
  return { id: ticket.id, code };
}

async function verify(body: Record<string, unknown>, token = staffToken) {
  return t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(token), payload: { eventId: ids.liveEventId, day: DAY, ...body } });
}

async function verdict(body: Record<string, unknown>, token = staffToken): Promise<VerifyTicketResponse> {
  const response = await verify(body, token);
  expect(response.statusCode, response.body).toBe(200);
  return VerifyTicketResponse.parse(response.json());
}

/** The ticket's active check-ins of the day, by list name. */
async function activeListsOf(ticketId: string): Promise<string[]> {
  const lists = await listCheckInLists(t.database.db, ids.liveEventId);
  const rows = await t.database.db
    .select({ listId: checkIns.checkInListId })
    .from(checkIns)
    .where(and(eq(checkIns.ticketId, ticketId), eq(checkIns.day, DAY), isNull(checkIns.undoneAt)));
  return rows.map((row) => lists.find((list) => list.id === row.listId)?.name ?? '?').sort();
}

async function scanLogRows(code: string): Promise<number> {
  const [row] = await t.database.db.select({ value: count() }).from(scanLog).where(eq(scanLog.code, code));
  return row?.value ?? 0;
}

test(`every event has one list, '${DEFAULT_CHECK_IN_LIST_NAME}', every type and every day, however it is made (${TEST_DATABASE_KIND})`, async () => {
  const made = await createEvent(t.database.db, { organizationId: ids.organizationId, title: 'Lists Fest', date: '2026-12-01', description: '', location: '', status: 'draft', timeZone: DEFAULT_EVENT_TIME_ZONE, dayCutoff: DEFAULT_DAY_CUTOFF, allowsScanningOutsideDays: false, days: [] }, cliActor());
  const [bySql] = await t.database.db.insert(events).values({ organizationId: ids.organizationId, title: 'By SQL', date: '2026-12-02' }).returning({ id: events.id });
  for (const eventId of [made, bySql?.id ?? '', ids.singleDayEventId]) {
    expect(await listCheckInLists(t.database.db, eventId)).toEqual([{ id: expect.any(String), name: 'All tickets', position: 1, ticketTypes: null, days: null, allowsReentry: false, capacity: null, dailyCheckoutTime: null }]);
  }
});

test('GET /events/{eventId}/check-in-lists answers the lists in order, to any member', async () => {
  const response = await t.app.inject({ method: 'GET', url: api(checkInListsPath(ids.liveEventId)), headers: bearer(staffToken) });
  expect(response.statusCode).toBe(200);
  expect(CheckInLists.parse(response.json())).toEqual({
    eventId: ids.liveEventId,
    lists: [
      { id: allTickets.id, name: 'All tickets', position: 1, ticketTypes: null, days: null, allowsReentry: false, capacity: null, dailyCheckoutTime: null },
      { id: vipGate.id, name: 'VIP Gate', position: 2, ticketTypes: ['VIP'], days: null, allowsReentry: false, capacity: null, dailyCheckoutTime: null },
      { id: merchDesk.id, name: 'Merch desk', position: 3, ticketTypes: ['VIP', 'General Admission'], days: [DAY], allowsReentry: false, capacity: null, dailyCheckoutTime: null },
    ],
  });
});

test('a ticket not on the list is DENIED with the lists it is valid at today, logged, and nothing is checked in', async () => {
  const ticket = await newTicket('General Admission');
  const denied = await verdict({ qrCode: ticket.code, checkInListId: vipGate.id });
  expect(denied).toEqual({
    isValid: false,
    reason: 'not_on_list',
    message: 'Not valid at this entrance — valid at All tickets and Merch desk',
    listDenial: {
      checkInList: { id: vipGate.id, name: 'VIP Gate' },
      validAt: [
        { id: allTickets.id, name: 'All tickets' },
        { id: merchDesk.id, name: 'Merch desk' },
      ],
    },
  });
  expect(await activeListsOf(ticket.id)).toEqual([]);
  const [logged] = await t.database.db.select({ verdict: scanLog.verdict, reason: scanLog.reason }).from(scanLog).where(eq(scanLog.code, ticket.code));
  expect(logged).toEqual({ verdict: 'denied', reason: 'not_on_list' });
});

test('a ticket is checked in once per list and day: once at each list is fine, twice at one is not', async () => {
  const ticket = await newTicket('VIP');
  // No list named: the event's first, as before lists.
  expect(await verdict({ qrCode: ticket.code })).toMatchObject({ isValid: true, ticketType: 'VIP' });
  expect(await verdict({ qrCode: ticket.code, checkInListId: vipGate.id })).toMatchObject({ isValid: true });
  expect(await verdict({ qrCode: ticket.code, checkInListId: merchDesk.id.toUpperCase() })).toMatchObject({ isValid: true });
  expect(await activeListsOf(ticket.id)).toEqual(['All tickets', 'Merch desk', 'VIP Gate']);
  for (const checkInListId of [undefined, allTickets.id, vipGate.id, merchDesk.id]) {
    expect(await verdict({ qrCode: ticket.code, checkInListId }), checkInListId).toMatchObject({ isValid: false, reason: 'already_checked_in', checkedInBy: DEMO_COLLEAGUE.displayName });
  }
  expect(await activeListsOf(ticket.id)).toEqual(['All tickets', 'Merch desk', 'VIP Gate']);
});

test('concurrent scans of one ticket at two lists admit exactly once at each', async () => {
  const ticket = await newTicket('VIP');
  const scans = await Promise.all(
    Array.from({ length: 20 }, (_, index) => verdict({ qrCode: ticket.code, checkInListId: index % 2 === 0 ? allTickets.id : vipGate.id, scanId: randomUUID() })),
  );
  expect(scans.filter((scan) => scan.isValid)).toHaveLength(2);
  expect(await activeListsOf(ticket.id)).toEqual(['All tickets', 'VIP Gate']);
});

describe('a checkInListId of another event is a 400 { code, message } and nothing is written', () => {
  const refused = async (response: { statusCode: number; json(): unknown }, listId = foreignListId) => {
    expect(response.statusCode).toBe(400);
    const body = ApiErrorBody.parse(response.json());
    expect(body.code).toBe('bad_request');
    expect(body.message).toContain(listId);
    // Named, so a phone scanning at a list deleted since hears which part of its call is refused (docs/decisions/151).
    expect(body.field).toBe('checkInListId');
  };

  test('verify', async () => {
    const ticket = await newTicket('VIP');
    await refused(await verify({ qrCode: ticket.code, checkInListId: foreignListId }));
    // A list id that is no list at all is the same answer.
    const noList = randomUUID();
    await refused(await verify({ qrCode: ticket.code, checkInListId: noList }), noList);
    expect(await activeListsOf(ticket.id)).toEqual([]);
    expect(await scanLogRows(ticket.code)).toBe(0);
  });

  test('manual check-in, undo, search, counts, door list and the offline upload', async () => {
    const ticket = await newTicket('VIP');
    const headers = bearer(supervisorToken);
    await refused(await t.app.inject({ method: 'POST', url: api(supervisorPaths.manualCheckIn(ids.liveEventId, ticket.id)), headers, payload: { day: DAY, checkInListId: foreignListId } }));
    expect(await verdict({ qrCode: ticket.code })).toMatchObject({ isValid: true });
    await refused(
      await t.app.inject({ method: 'POST', url: api(supervisorPaths.undoCheckIn(ids.liveEventId, ticket.id)), headers, payload: { day: DAY, reason: 'test', checkInListId: foreignListId } }),
    );
    expect(await activeListsOf(ticket.id)).toEqual(['All tickets']);
    await refused(await t.app.inject({ method: 'GET', url: api(`${supervisorPaths.attendeeSearch(ids.liveEventId)}?q=list-&day=${DAY}&checkInListId=${foreignListId}`), headers }));
    await refused(await t.app.inject({ method: 'GET', url: api(`${checkInCountsPath(ids.liveEventId, DAY)}?checkInListId=${foreignListId}`), headers }));
    await refused(await t.app.inject({ method: 'GET', url: api(`${offlinePaths.doorList(ids.liveEventId, DAY)}?checkInListId=${foreignListId}`), headers }));
    const other = await newTicket('VIP');
    const scan = { scanId: randomUUID(), code: other.code, scannedAt: new Date().toISOString(), deviceId: 'device-1', verdict: 'approved' };
    await refused(await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(ids.liveEventId, DAY)), headers, payload: { checkInListId: foreignListId, scans: [scan] } }));
    expect(await activeListsOf(other.id)).toEqual([]);
    expect(await t.database.db.select().from(offlineScans).where(eq(offlineScans.scanId, scan.scanId))).toEqual([]);
  });
});

test("a supervisor checks in and undoes per list: an undo at the VIP Gate leaves the ticket's other check-in standing", async () => {
  const ticket = await newTicket('VIP');
  const headers = bearer(supervisorToken);
  const manual = async (checkInListId?: string) =>
    VerifyTicketResponse.parse((await t.app.inject({ method: 'POST', url: api(supervisorPaths.manualCheckIn(ids.liveEventId, ticket.id)), headers, payload: { day: DAY, checkInListId } })).json());
  expect(await manual(vipGate.id)).toMatchObject({ isValid: true });
  expect(await manual()).toMatchObject({ isValid: true });
  expect(await manual(vipGate.id)).toMatchObject({ isValid: false, reason: 'already_checked_in' });

  const search = await t.app.inject({ method: 'GET', url: api(`${supervisorPaths.attendeeSearch(ids.liveEventId)}?q=${ticket.code.slice(0, 12)}&day=${DAY}&checkInListId=${merchDesk.id}`), headers });
  expect(search.json()).toMatchObject({ attendees: [{ ticketId: ticket.id, checkIn: null }] });

  const undo = await t.app.inject({ method: 'POST', url: api(supervisorPaths.undoCheckIn(ids.liveEventId, ticket.id)), headers, payload: { day: DAY, reason: 'wrong gate', checkInListId: vipGate.id } });
  expect(undo.statusCode, undo.body).toBe(200);
  UndoCheckInResponse.parse(undo.json());
  expect(await activeListsOf(ticket.id)).toEqual(['All tickets']);
  // Undone at the VIP Gate: nothing left to undo there; the ticket may enter there again.
  const again = await t.app.inject({ method: 'POST', url: api(supervisorPaths.undoCheckIn(ids.liveEventId, ticket.id)), headers, payload: { day: DAY, reason: 'again', checkInListId: vipGate.id } });
  expect(again.statusCode).toBe(409);
  const scanId = randomUUID();
  expect(await verdict({ qrCode: ticket.code, checkInListId: vipGate.id, scanId })).toMatchObject({ isValid: true });
  // An undo from the scanner's recent scans names its scan: found at whichever list it checked in at.
  const byScan = await t.app.inject({ method: 'POST', url: api(supervisorPaths.undoCheckIn(ids.liveEventId, ticket.id)), headers, payload: { day: DAY, reason: 'by scan', scanId } });
  expect(byScan.statusCode, byScan.body).toBe(200);
  expect(await activeListsOf(ticket.id)).toEqual(['All tickets']);
});

test('the offline upload decides and records at the batch list', async () => {
  const general = await newTicket('General Admission');
  const vip = await newTicket('VIP');
  const scan = (code: string) => ({ scanId: randomUUID(), code, scannedAt: new Date().toISOString(), deviceId: 'device-lists', verdict: 'approved' });
  const response = await t.app.inject({
    method: 'POST',
    url: api(offlinePaths.offlineScans(ids.liveEventId, DAY)),
    headers: bearer(staffToken),
    payload: { checkInListId: vipGate.id, scans: [scan(general.code), scan(vip.code), scan(vip.code)] },
  });
  expect(response.statusCode, response.body).toBe(200);
  const { results } = OfflineScanBatchResponse.parse(response.json());
  expect(results.map((result) => [result.status, result.reason])).toEqual([
    ['rejected', 'not_on_list'],
    ['recorded', undefined],
    ['conflict', undefined],
  ]);
  expect(results[0]?.message).toBe('Not valid at this entrance — valid at All tickets and Merch desk');
  expect(await activeListsOf(vip.id)).toEqual(['VIP Gate']);
  // The conflict is the VIP Gate's: listed there and for the whole day, not at another list.
  const conflictsAt = async (query: string) => {
    const listed = await t.app.inject({ method: 'GET', url: api(`${offlinePaths.offlineConflicts(ids.liveEventId, DAY)}${query}`), headers: bearer(staffToken) });
    expect(listed.statusCode, listed.body).toBe(200);
    return OfflineConflictList.parse(listed.json()).conflicts.map((conflict) => conflict.scanId);
  };
  const conflictScanId = results[2]?.scanId;
  expect(await conflictsAt(`?checkInListId=${vipGate.id}`)).toEqual([conflictScanId]);
  expect(await conflictsAt(`?checkInListId=${allTickets.id}`)).not.toContain(conflictScanId);
  expect(await conflictsAt('')).toContain(conflictScanId);
  const foreign = await t.app.inject({ method: 'GET', url: api(`${offlinePaths.offlineConflicts(ids.liveEventId, DAY)}?checkInListId=${foreignListId}`), headers: bearer(staffToken) });
  expect(foreign.statusCode).toBe(400);
  // Without a list: the first, as before lists.
  const plain = await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(ids.liveEventId, DAY)), headers: bearer(staffToken), payload: { scans: [scan(vip.code)] } });
  expect(OfflineScanBatchResponse.parse(plain.json()).results[0]?.status).toBe('recorded');
  expect(await activeListsOf(vip.id)).toEqual(['All tickets', 'VIP Gate']);
});

test('the door list carries the lists, each ticket type and the check-ins of its list: the phone decides as verify does', async () => {
  const general = await newTicket('General Admission');
  const vip = await newTicket('VIP');
  expect(await verdict({ qrCode: vip.code, checkInListId: vipGate.id })).toMatchObject({ isValid: true });
  const read = async (checkInListId?: string) => {
    const query = checkInListId ? `?checkInListId=${checkInListId}` : '';
    const response = await t.app.inject({ method: 'GET', url: api(`${offlinePaths.doorList(ids.liveEventId, DAY)}${query}`), headers: bearer(staffToken) });
    expect(response.statusCode, response.body).toBe(200);
    return DoorList.parse(response.json());
  };
  const atGate = await read(vipGate.id);
  const atFirst = await read();
  expect(atGate.checkInListId).toBe(vipGate.id);
  expect(atFirst.checkInListId).toBe(allTickets.id);
  expect(atGate.checkInLists.map((list) => list.name)).toEqual(['All tickets', 'VIP Gate', 'Merch desk']);
  const entryOf = (list: DoorList, code: string) => list.tickets.find((entry) => entry.lookupKey === keys.get(code));
  const keys = new Map([
    [general.code, await doorListLookupKey(ids.liveEventId, general.code)],
    [vip.code, await doorListLookupKey(ids.liveEventId, vip.code)],
  ]);
  expect(entryOf(atGate, vip.code)).toMatchObject({ ticketType: 'VIP', checkIn: { checkedInBy: DEMO_COLLEAGUE.displayName } });
  expect(entryOf(atFirst, vip.code)).toMatchObject({ ticketType: 'VIP', checkIn: null });
  const now = new Date();
  const offline = async (list: DoorList, code: string) => decideCheckIn(doorListCheckInInput(list, DAY, entryOf(list, code) ?? null, now));
  expect(await offline(atGate, general.code)).toMatchObject({ outcome: 'denied', reason: 'not_on_list', message: 'Not valid at this entrance — valid at All tickets and Merch desk' });
  expect(await offline(atGate, vip.code)).toMatchObject({ outcome: 'denied', reason: 'already_checked_in' });
  expect(await offline(atFirst, vip.code)).toEqual({ outcome: 'check_in' });
  // Online, the same words.
  expect(await verdict({ qrCode: general.code, checkInListId: vipGate.id })).toMatchObject({ reason: 'not_on_list', message: 'Not valid at this entrance — valid at All tickets and Merch desk' });
  expect(await verdict({ qrCode: vip.code })).toMatchObject({ isValid: true });
});

test('live counts per list and per event: a ticket in at two lists counts once for the event; M per list counts the types it admits', async () => {
  const ticket = await newTicket('VIP');
  const counts = async (checkInListId: string) => {
    const response = await t.app.inject({ method: 'GET', url: api(`${checkInCountsPath(ids.liveEventId, DAY)}?checkInListId=${checkInListId}`), headers: bearer(staffToken) });
    expect(response.statusCode, response.body).toBe(200);
    return CheckInCounts.parse(response.json());
  };
  /** Tickets of the event not revoked admitting DAY, of `types` (null: all), counted from the tickets. */
  const validOf = async (types: string[] | null) => {
    const [row] = await t.database.db
      .select({ value: count() })
      .from(tickets)
      .where(
        and(
          eq(tickets.eventId, ids.liveEventId),
          isNull(tickets.revokedAt),
          sql`(${tickets.admittedDays} is null or ${DAY} = any(${tickets.admittedDays}))`,
          types ? inArray(tickets.ticketType, types) : undefined,
        ),
      );
    return row?.value ?? 0;
  };
  /** Active check-ins of DAY at `listId` (null: distinct tickets at any list). */
  const checkedInOf = async (listId: string | null) => {
    const [row] = await t.database.db
      .select({ value: sql<number>`count(distinct ${checkIns.ticketId})`.mapWith(Number) })
      .from(checkIns)
      .where(and(eq(checkIns.eventId, ids.liveEventId), eq(checkIns.day, DAY), isNull(checkIns.undoneAt), listId ? eq(checkIns.checkInListId, listId) : undefined));
    return row?.value ?? 0;
  };
  const before = await counts(vipGate.id);
  expect(await verdict({ qrCode: ticket.code })).toMatchObject({ isValid: true });
  expect(await verdict({ qrCode: ticket.code, checkInListId: vipGate.id })).toMatchObject({ isValid: true });
  const after = await counts(vipGate.id);
  expect(after.checkedIn).toBe(before.checkedIn + 1);
  expect(after.checkInList?.checkedIn).toBe((before.checkInList?.checkedIn ?? 0) + 1);
  expect(after).toEqual({
    eventId: ids.liveEventId,
    day: DAY,
    checkedIn: await checkedInOf(null),
    validTickets: await validOf(null),
    // No list records exits here: inside now is who checked in (docs/decisions/111).
    insideNow: await checkedInOf(null),
    checkInList: {
      id: vipGate.id,
      name: 'VIP Gate',
      checkedIn: await checkedInOf(vipGate.id),
      validTickets: await validOf(['VIP']),
      insideNow: await checkedInOf(vipGate.id),
      capacity: null,
      allowsReentry: false,
    },
  });
  expect((await counts(merchDesk.id)).checkInList?.validTickets).toBe(await validOf(['VIP', 'General Admission']));
  expect((await counts(allTickets.id)).checkInList?.validTickets).toBe(await validOf(null));
  // Without a list asked for: the event's counts only, as before lists.
  const plain = await t.app.inject({ method: 'GET', url: api(checkInCountsPath(ids.liveEventId, DAY)), headers: bearer(staffToken) });
  expect(Object.keys(plain.json()).sort()).toEqual(['checkedIn', 'day', 'eventId', 'insideNow', 'validTickets']);
});
