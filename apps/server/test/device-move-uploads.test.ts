/**
 * A door device moved from one check-in list to another with scans still queued (docs/decisions/129),
 * through the real API on a real database: the scans it made at its old list until its heartbeat
 * told it of the move are recorded there (not at its new list) — sent before or after that
 * heartbeat, after one move or two, and a move back leaves it where it was — scans at its new list
 * are recorded at the new one, a scan claiming the old list made after it was told is refused item
 * by item with plain words, and a list it was never at is refused for the whole batch. Sent again,
 * nothing is recorded twice.
 */
import { randomUUID } from 'node:crypto';
import { ApiErrorBody, CreateEnrollmentResponse, devicePaths, deviceApiPaths, DeviceStatusResponse, offlinePaths, OfflineScanBatchResponse, parseEnrollmentLink, RedeemEnrollmentResponse } from '@gatecheck/contract';
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

/**
 * The device's heartbeat (POST /devices/me/status): its answer tells it where it scans now. `place`:
 * where the phone says it scans (none: an app that does not say, taken as told by this answer).
 */
async function heartbeat(token: string, place?: { eventId: string; checkInListId: string | null }): Promise<DeviceStatusResponse> {
  const answer = await t.app.inject({ method: 'POST', url: api(deviceApiPaths.reportStatus), headers: bearer(token), payload: { scansWaiting: 1, ...(place ? { place } : {}) } });
  expect(answer.statusCode, answer.body).toBe(200);
  return DeviceStatusResponse.parse(answer.json());
}

/** A list of the live event named `name` and a fresh suffix. */
async function newList(name: string) {
  const event = await findEvent(t.database.db, ids.liveEventId);
  return createCheckInList(t.database.db, event, { name: `${name} ${randomUUID().slice(0, 6)}`, ticketTypes: null, days: null }, cliActor());
}

/** What the device of `token` sends for list `checkInListId` (none: its own) of the live event today, each item's status and reason. */
async function uploadAt(token: string, checkInListId: string | undefined, scans: unknown[]): Promise<[string, string | null][]> {
  const answer = await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(ids.liveEventId, DAY)), headers: bearer(token), payload: { ...(checkInListId ? { checkInListId } : {}), scans } });
  expect(answer.statusCode, answer.body).toBe(200);
  return OfflineScanBatchResponse.parse(answer.json()).results.map((result) => [result.status, result.reason ?? null]);
}

test(`a device moved from list A to list B uploads its queued scans of A at A — those made until its heartbeat told it of the move too — its scans of B at B, and none made at A after it was told (${TEST_DATABASE_KIND})`, async () => {
  const vipGate = await newList('VIP gate');
  const mainDoor = await newList('Main door');
  const neverThere = await newList('Merch desk');
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
  // The phone, not told yet (offline, or between two heartbeats), is still the VIP gate: it admits.
  const atVipNotTold = scan(freshCode());
  const atVipNotToldSentLate = scan(freshCode());
  const beforeEnrollment = { ...scan(freshCode()), scannedAt: new Date(Date.now() - 3_600_000).toISOString() };

  // Sent before the heartbeat: the device has not been told, all it made at the VIP gate is taken there.
  const first = await upload(vipGate.id, [...atVipBefore, atVipNotTold, beforeEnrollment]);
  expect(first.statusCode, first.body).toBe(200);
  const results = OfflineScanBatchResponse.parse(first.json()).results;
  expect(results.map((result) => [result.status, result.reason ?? null])).toEqual([
    ['recorded', null],
    ['recorded', null],
    ['recorded', null],
    ['rejected', 'device_moved'],
  ]);
  expect(results[3]?.message).toBe('This device was not at this check-in list when it made this scan; the scan was not recorded.');
  for (const made of [...atVipBefore, atVipNotTold]) expect(await listsCheckedInAt(made.code)).toEqual([vipGate.id]);
  expect(await listsCheckedInAt(beforeEnrollment.code)).toEqual([]);

  // Its heartbeat tells it of the move (the phone switches to the main door on this answer).
  await tick();
  expect((await heartbeat(token)).device).toMatchObject({ id: device.id, checkInListId: mainDoor.id });
  await tick();
  const atVipAfterTold = scan(freshCode());
  const atMainAfter = scan(freshCode());
  // Sent after the heartbeat: what it made at the VIP gate before being told is still taken, what it made there after is not.
  const second = OfflineScanBatchResponse.parse((await upload(vipGate.id, [atVipNotToldSentLate, atVipAfterTold])).json()).results;
  expect(second.map((result) => [result.status, result.reason ?? null])).toEqual([['recorded', null], ['rejected', 'device_moved']]);
  expect(second[1]?.message).toBe('Scanned at this check-in list after this device was told of its move to another list; the scan was not recorded.');
  expect(await listsCheckedInAt(atVipNotToldSentLate.code)).toEqual([vipGate.id]);
  expect(await listsCheckedInAt(atVipAfterTold.code)).toEqual([]);

  // Its new list, named or not: recorded there.
  expect(await uploadAt(token, mainDoor.id, [atMainAfter])).toEqual([['recorded', null]]);
  expect(await listsCheckedInAt(atMainAfter.code)).toEqual([mainDoor.id]);

  // Sent again (the answer was lost): the same answers, one check-in each.
  expect(await uploadAt(token, vipGate.id, [...atVipBefore, atVipNotTold, atVipAfterTold])).toEqual([['recorded', null], ['recorded', null], ['recorded', null], ['rejected', 'device_moved']]);
  for (const made of [...atVipBefore, atVipNotTold]) expect(await listsCheckedInAt(made.code)).toEqual([vipGate.id]);

  // A list it never scanned at, and the first list it never was at either: the whole batch refused.
  const [firstList] = await listCheckInLists(t.database.db, ids.liveEventId);
  for (const elsewhere of [neverThere.id, firstList?.id]) {
    const refused = await upload(elsewhere, [scan(freshCode())]);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(ApiErrorBody.parse(refused.json())).toMatchObject({ code: 'bad_request', field: 'checkInListId' });
  }
});

test(`a device moved twice while offline is at its first list until its heartbeat tells it, told once; moved back before it heard, it never left (${TEST_DATABASE_KIND})`, async () => {
  const [gateA, gateB, gateC] = [await newList('Gate A'), await newList('Gate B'), await newList('Gate C')];
  const move = (deviceId: string, checkInListId: string) => t.app.inject({ method: 'POST', url: api(devicePaths.updateDevice(deviceId)), headers: bearer(adminToken), payload: { checkInListId } });
  const scanBy = (deviceId: string) => ({ scanId: randomUUID(), code: freshCode(), scannedAt: new Date().toISOString(), deviceId, verdict: 'approved' });

  // A → B → C while the phone is offline at A: its scans at A are taken until the heartbeat answers C.
  const offline = await enrollAtList(gateA.id);
  await tick();
  expect((await move(offline.device.id, gateB.id)).statusCode).toBe(200);
  await tick();
  expect((await move(offline.device.id, gateC.id)).statusCode).toBe(200);
  await tick();
  const atANotTold = scanBy(offline.device.id);
  await tick();
  expect((await heartbeat(offline.token)).device?.checkInListId).toBe(gateC.id);
  await tick();
  const atAAfterTold = scanBy(offline.device.id);
  // A second heartbeat does not move the time it was told.
  await tick();
  await heartbeat(offline.token);
  expect(await uploadAt(offline.token, gateA.id, [atANotTold, atAAfterTold])).toEqual([['recorded', null], ['rejected', 'device_moved']]);
  expect(await listsCheckedInAt(atANotTold.code)).toEqual([gateA.id]);
  expect(await listsCheckedInAt(atAAfterTold.code)).toEqual([]);

  // A → B and back to A before any heartbeat: the phone never left A, everything it made there is A's.
  const movedBack = await enrollAtList(gateA.id);
  await tick();
  expect((await move(movedBack.device.id, gateB.id)).statusCode).toBe(200);
  await tick();
  const whileAway = scanBy(movedBack.device.id);
  expect((await move(movedBack.device.id, gateA.id)).statusCode).toBe(200);
  expect((await heartbeat(movedBack.token)).device?.checkInListId).toBe(gateA.id);
  await tick();
  const afterBack = scanBy(movedBack.device.id);
  expect(await uploadAt(movedBack.token, gateA.id, [whileAway, afterBack])).toEqual([['recorded', null], ['recorded', null]]);
  for (const made of [whileAway, afterBack]) expect(await listsCheckedInAt(made.code)).toEqual([gateA.id]);
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

test(`a scan recorded at its old list, whose answer was lost, answers the same when sent again after the heartbeat told the device of its move (${TEST_DATABASE_KIND})`, async () => {
  const [gateA, gateB] = [await newList('Gate A'), await newList('Gate B')];
  const { token, device } = await enrollAtList(gateA.id);
  await tick();
  expect((await t.app.inject({ method: 'POST', url: api(devicePaths.updateDevice(device.id)), headers: bearer(adminToken), payload: { checkInListId: gateB.id } })).statusCode).toBe(200);
  // Made at A before the phone heard of the move, by a phone whose clock runs 3 s ahead: coming back
  // online it sends the upload and the heartbeat together, and the upload's answer is lost.
  const code = freshCode();
  const scannedAt = new Date(Date.now() + 3_000).toISOString();
  const admitted = { scanId: randomUUID(), code, scannedAt, deviceId: device.id, verdict: 'approved' };
  // The same ticket admitted again by the phone (a second guest with a copy): a conflict, stored too.
  const admittedAgain = { ...admitted, scanId: randomUUID() };
  const first = await uploadAt(token, gateA.id, [admitted, admittedAgain]);
  expect(first).toEqual([['recorded', null], ['conflict', null]]);
  expect((await heartbeat(token)).device?.checkInListId).toBe(gateB.id);
  // Sent again: the stored answers, not 'not recorded' for a scan that was.
  expect(await uploadAt(token, gateA.id, [admitted, admittedAgain])).toEqual(first);
  expect(await listsCheckedInAt(code)).toEqual([gateA.id]);
});

test(`a heartbeat answer that is lost tells the phone nothing: its scans at its old list stay taken until a heartbeat reports the new list (${TEST_DATABASE_KIND})`, async () => {
  const [gateA, gateB] = [await newList('Gate A'), await newList('Gate B')];
  const { token, device } = await enrollAtList(gateA.id);
  const at = (checkInListId: string) => ({ eventId: ids.liveEventId, checkInListId });
  const scan = () => ({ scanId: randomUUID(), code: freshCode(), scannedAt: new Date().toISOString(), deviceId: device.id, verdict: 'approved' });
  await tick();
  expect((await t.app.inject({ method: 'POST', url: api(devicePaths.updateDevice(device.id)), headers: bearer(adminToken), payload: { checkInListId: gateB.id } })).statusCode).toBe(200);
  // The server answers B, the answer never reaches the phone: it goes on reporting A, scanning at A.
  expect((await heartbeat(token, at(gateA.id))).device?.checkInListId).toBe(gateB.id);
  await tick();
  const afterLostAnswer = scan();
  expect((await heartbeat(token, at(gateA.id))).device?.checkInListId).toBe(gateB.id);
  await tick();
  const afterSecondLostAnswer = scan();
  // A report of a place that is no id is no place: not told, and no error.
  expect((await heartbeat(token, { eventId: 'not-an-id', checkInListId: 'nor-this' })).device?.checkInListId).toBe(gateB.id);
  await tick();
  // Now it has the answer: it reports B. From here a scan claiming A is not the phone at A.
  expect((await heartbeat(token, at(gateB.id))).device?.checkInListId).toBe(gateB.id);
  await tick();
  const afterKnown = scan();
  await tick();
  expect(await heartbeat(token, at(gateB.id))).toMatchObject({ success: true });
  expect(await uploadAt(token, gateA.id, [afterLostAnswer, afterSecondLostAnswer, afterKnown])).toEqual([['recorded', null], ['recorded', null], ['rejected', 'device_moved']]);
  for (const made of [afterLostAnswer, afterSecondLostAnswer]) expect(await listsCheckedInAt(made.code)).toEqual([gateA.id]);
  expect(await listsCheckedInAt(afterKnown.code)).toEqual([]);
});
