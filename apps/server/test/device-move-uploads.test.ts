/**
 * A door device moved from one check-in list to another with scans still queued (docs/decisions/129),
 * through the real API on a real database: the scans it made at its old list before the move are
 * recorded there (not at its new list), scans at its new list are recorded at the new one, a scan
 * claiming the old list made after the move is refused item by item with plain words, and a list it
 * was never at is refused for the whole batch. Sent again, nothing is recorded twice.
 */
import { randomUUID } from 'node:crypto';
import { ApiErrorBody, CreateEnrollmentResponse, devicePaths, deviceApiPaths, offlinePaths, OfflineScanBatchResponse, parseEnrollmentLink, RedeemEnrollmentResponse } from '@gatecheck/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkIns, tickets } from '../src/db/schema.ts';
import { DEMO_LIVE_EVENT_TITLE, DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { cliActor } from '../src/services/audit.ts';
import { createCheckInList, listCheckInLists } from '../src/services/check-in-lists.ts';
import { findEvent } from '../src/services/events.ts';
import { createOutsider, demoIds, ticketPicker } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, login, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const DAY = DEMO_TODAY_DAY_NUMBER;
let t: TestApp;
let ids: Awaited<ReturnType<typeof demoIds>>;
let pickTicket: ReturnType<typeof ticketPicker>;
let adminToken: string;

beforeAll(async () => {
  t = await createTestApp();
  ids = await demoIds(t.database.db);
  pickTicket = ticketPicker(t.demo?.tickets ?? []);
  adminToken = await login(t.app, DEMO_USER.username, DEMO_USER.password);
});
afterAll(async () => {
  await t.close();
});

function freshCode(): string {
  return pickTicket((ticket) => ticket.eventTitle === DEMO_LIVE_EVENT_TITLE && !ticket.isRevoked && ticket.days === null).code;
}

/** A moment later than every time taken before (the move is compared with scan times to the ms). */
async function tick(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 15));
}

/** A device enrolled for list `checkInListId` of the live event, as a phone redeems it. */
async function enrollAtList(checkInListId: string): Promise<RedeemEnrollmentResponse> {
  const created = await t.app.inject({ method: 'POST', url: api(devicePaths.createEnrollment(ids.liveEventId)), headers: bearer(adminToken), payload: { name: 'VIP phone', checkInListId } });
  expect(created.statusCode, created.body).toBe(201);
  const link = parseEnrollmentLink(CreateEnrollmentResponse.parse(created.json()).link);
  const redeemed = await t.app.inject({ method: 'POST', url: api(deviceApiPaths.redeemEnrollment), payload: { token: link?.token } });
  expect(redeemed.statusCode, redeemed.body).toBe(200);
  return RedeemEnrollmentResponse.parse(redeemed.json());
}

/** The check-in lists of every check-in of ticket `code` (an undone one too). */
async function listsCheckedInAt(code: string): Promise<string[]> {
  const rows = await t.database.db.select({ checkInListId: checkIns.checkInListId }).from(checkIns).innerJoin(tickets, eq(tickets.id, checkIns.ticketId)).where(eq(tickets.code, code));
  return rows.map((row) => row.checkInListId);
}

test(`a device moved from list A to list B uploads its queued scans of A at A, its scans of B at B, and none made at A after the move (${TEST_DATABASE_KIND})`, async () => {
  const event = await findEvent(t.database.db, ids.liveEventId);
  const suffix = randomUUID().slice(0, 6);
  const vipGate = await createCheckInList(t.database.db, event, { name: `VIP gate ${suffix}`, ticketTypes: null, days: null }, cliActor());
  const mainDoor = await createCheckInList(t.database.db, event, { name: `Main door ${suffix}`, ticketTypes: null, days: null }, cliActor());
  const neverThere = await createCheckInList(t.database.db, event, { name: `Merch desk ${suffix}`, ticketTypes: null, days: null }, cliActor());
  const { token, device } = await enrollAtList(vipGate.id);
  const scan = (code: string) => ({ scanId: randomUUID(), code, scannedAt: new Date().toISOString(), deviceId: device.id, verdict: 'approved' });
  const upload = (checkInListId: string | undefined, scans: unknown[]) =>
    t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(ids.liveEventId, DAY)), headers: bearer(token), payload: { ...(checkInListId ? { checkInListId } : {}), scans } });

  await tick();
  const atVipBefore = [scan(freshCode()), scan(freshCode())];
  await tick();
  const moved = await t.app.inject({ method: 'POST', url: api(devicePaths.updateDevice(device.id)), headers: bearer(adminToken), payload: { checkInListId: mainDoor.id } });
  expect(moved.statusCode, moved.body).toBe(200);
  await tick();
  const atVipAfter = scan(freshCode());
  const atMainAfter = scan(freshCode());
  const beforeEnrollment = { ...scan(freshCode()), scannedAt: new Date(Date.now() - 3_600_000).toISOString() };

  const first = await upload(vipGate.id, [...atVipBefore, atVipAfter, beforeEnrollment]);
  expect(first.statusCode, first.body).toBe(200);
  const results = OfflineScanBatchResponse.parse(first.json()).results;
  expect(results.map((result) => [result.status, result.reason ?? null])).toEqual([
    ['recorded', null],
    ['recorded', null],
    ['rejected', 'device_moved'],
    ['rejected', 'device_moved'],
  ]);
  expect(results[2]?.message).toBe('Scanned at this check-in list after the organizer moved this device to another list; the scan was not recorded.');
  expect(results[3]?.message).toBe('This device was not at this check-in list when it made this scan; the scan was not recorded.');
  for (const made of atVipBefore) expect(await listsCheckedInAt(made.code)).toEqual([vipGate.id]);
  expect(await listsCheckedInAt(atVipAfter.code)).toEqual([]);
  expect(await listsCheckedInAt(beforeEnrollment.code)).toEqual([]);

  // Its new list, named or not: recorded there.
  const atMain = await upload(mainDoor.id, [atMainAfter]);
  expect(OfflineScanBatchResponse.parse(atMain.json()).results.map((result) => result.status)).toEqual(['recorded']);
  expect(await listsCheckedInAt(atMainAfter.code)).toEqual([mainDoor.id]);

  // Sent again (the answer was lost): the same answers, one check-in each.
  const again = OfflineScanBatchResponse.parse((await upload(vipGate.id, [...atVipBefore, atVipAfter])).json()).results;
  expect(again.map((result) => [result.status, result.reason ?? null])).toEqual([['recorded', null], ['recorded', null], ['rejected', 'device_moved']]);
  for (const made of atVipBefore) expect(await listsCheckedInAt(made.code)).toEqual([vipGate.id]);

  // A list it never scanned at, and the first list it never was at either: the whole batch refused.
  const [firstList] = await listCheckInLists(t.database.db, ids.liveEventId);
  for (const elsewhere of [neverThere.id, firstList?.id]) {
    const refused = await upload(elsewhere, [scan(freshCode())]);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(ApiErrorBody.parse(refused.json())).toMatchObject({ code: 'bad_request', field: 'checkInListId' });
  }
});

test(`a device never uploads to a list of another event, even one it was at before a move of event (${TEST_DATABASE_KIND})`, async () => {
  const event = await findEvent(t.database.db, ids.liveEventId);
  const gate = await createCheckInList(t.database.db, event, { name: `Gate ${randomUUID().slice(0, 6)}`, ticketTypes: null, days: null }, cliActor());
  const { token, device } = await enrollAtList(gate.id);
  await tick();
  const made = { scanId: randomUUID(), code: freshCode(), scannedAt: new Date().toISOString(), deviceId: device.id, verdict: 'approved' };
  await tick();
  expect((await t.app.inject({ method: 'POST', url: api(devicePaths.updateDevice(device.id)), headers: bearer(adminToken), payload: { eventId: ids.singleDayEventId } })).statusCode).toBe(200);
  const toOldEvent = await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(ids.liveEventId, DAY)), headers: bearer(token), payload: { checkInListId: gate.id, scans: [made] } });
  expect(toOldEvent.statusCode).toBe(404);
  const outsider = await createOutsider(t.database.db);
  const [foreignList] = await listCheckInLists(t.database.db, outsider.eventId);
  const toForeignList = await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(ids.singleDayEventId, 1)), headers: bearer(token), payload: { checkInListId: foreignList?.id, scans: [made] } });
  expect(toForeignList.statusCode).toBe(400);
  expect(await listsCheckedInAt(made.code)).toEqual([]);
});

test(`a device at every list, then held to one, still uploads what it scanned before at the list it named (${TEST_DATABASE_KIND})`, async () => {
  const event = await findEvent(t.database.db, ids.liveEventId);
  const [firstList] = await listCheckInLists(t.database.db, ids.liveEventId);
  if (!firstList) throw new Error('the event has no list');
  const vipOnly = await createCheckInList(t.database.db, event, { name: `VIP only ${randomUUID().slice(0, 6)}`, ticketTypes: null, days: null }, cliActor());
  const redeemed = await enrollAtList(firstList.id);
  // Enrolled at a list, then set to every list, then held to the VIP list.
  const move = (checkInListId: string | null) => t.app.inject({ method: 'POST', url: api(devicePaths.updateDevice(redeemed.device.id)), headers: bearer(adminToken), payload: { checkInListId } });
  expect((await move(null)).statusCode).toBe(200);
  await tick();
  const atFirst = { scanId: randomUUID(), code: freshCode(), scannedAt: new Date().toISOString(), deviceId: redeemed.device.id, verdict: 'approved' };
  await tick();
  expect((await move(vipOnly.id)).statusCode).toBe(200);
  const upload = await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(ids.liveEventId, DAY)), headers: bearer(redeemed.token), payload: { checkInListId: firstList.id, scans: [atFirst] } });
  expect(upload.statusCode, upload.body).toBe(200);
  expect(OfflineScanBatchResponse.parse(upload.json()).results.map((result) => result.status)).toEqual(['recorded']);
  expect(await listsCheckedInAt(atFirst.code)).toEqual([firstList.id]);
});
