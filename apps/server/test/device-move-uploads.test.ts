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
import {
  ApiErrorBody,
  apiPaths,
  checkInCountsPath,
  checkInListPath,
  checkInListsPath,
  CreateEnrollmentResponse,
  devicePaths,
  deviceApiPaths,
  DeviceStatusResponse,
  offlinePaths,
  offlineScanProof,
  OfflineScanBatchResponse,
  parseEnrollmentLink,
  RedeemEnrollmentResponse,
  StartShiftResponse,
  UserMe,
} from '@gatecheck/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rowsOf } from '../src/db/rows.ts';
import { checkIns, deviceListHistory, devices, sessions, tickets } from '../src/db/schema.ts';
import { DEMO_LIVE_EVENT_TITLE, DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { cliActor } from '../src/services/audit.ts';
import { createCheckInList, listCheckInLists, resolveCheckInList } from '../src/services/check-in-lists.ts';
import { EVENT_LEFT_UPLOAD_GRACE_MS, timesAtListLeft } from '../src/services/devices.ts';
import { findEvent } from '../src/services/events.ts';
import { recordOfflineScans } from '../src/services/offline-scans.ts';
import { hashToken } from '../src/services/sessions.ts';
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

test(`a device never uploads to an event it was never at, nor to a list of another event (${TEST_DATABASE_KIND})`, async () => {
  const event = await findEvent(t.database.db, ids.liveEventId);
  const gate = await createCheckInList(t.database.db, event, { name: `Gate ${randomUUID().slice(0, 6)}`, ticketTypes: null, days: null }, cliActor());
  const { token, device } = await enrollAtList(gate.id);
  await tick();
  const made = { scanId: randomUUID(), code: freshCode(), scannedAt: new Date().toISOString(), deviceId: device.id, verdict: 'approved' };
  await tick();
  expect((await t.app.inject({ method: 'POST', url: api(devicePaths.updateDevice(device.id)), headers: bearer(adminToken), payload: { eventId: ids.singleDayEventId } })).statusCode).toBe(200);
  const outsider = await createOutsider(t.database.db);
  // Another organization's event: the 404 of an unknown event, as for any event it never scanned.
  const toForeignEvent = await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(outsider.eventId, 1)), headers: bearer(token), payload: { scans: [made] } });
  expect(toForeignEvent.statusCode).toBe(404);
  const [foreignList] = await listCheckInLists(t.database.db, outsider.eventId);
  const toForeignList = await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(ids.singleDayEventId, 1)), headers: bearer(token), payload: { checkInListId: foreignList?.id, scans: [made] } });
  expect(toForeignList.statusCode).toBe(400);
  // The event it left, at a list of it other than the one it was at: the whole batch refused.
  const otherGate = await newList('Other gate');
  const toOtherGate = await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(ids.liveEventId, DAY)), headers: bearer(token), payload: { checkInListId: otherGate.id, scans: [made] } });
  expect(toOtherGate.statusCode).toBe(400);
  expect(ApiErrorBody.parse(toOtherGate.json())).toMatchObject({ code: 'bad_request', field: 'checkInListId' });
  expect(await listsCheckedInAt(made.code)).toEqual([]);
});

/** Starts a shift named `name` on the device of `token`: the shift's token and its users row. */
async function startShift(token: string, name: string): Promise<{ token: string; userId: string }> {
  const started = await t.app.inject({ method: 'POST', url: api(deviceApiPaths.startShift), headers: bearer(token), payload: { name } });
  expect(started.statusCode, started.body).toBe(200);
  const shift = StartShiftResponse.parse(started.json());
  const me = await t.app.inject({ method: 'GET', url: api(apiPaths.usersMe), headers: bearer(shift.token) });
  return { token: shift.token, userId: UserMe.parse(me.json()).id };
}

/** What the device of `token` sends event `eventId` for `checkInListId` (none: no list named) today: each item's status and reason, and the messages. */
async function uploadToEvent(token: string, eventId: string, checkInListId: string | undefined, scans: unknown[]): Promise<{ statuses: [string, string | null][]; messages: (string | undefined)[] }> {
  const answer = await t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(eventId, DAY)), headers: bearer(token), payload: { ...(checkInListId ? { checkInListId } : {}), scans } });
  expect(answer.statusCode, answer.body).toBe(200);
  const results = OfflineScanBatchResponse.parse(answer.json()).results;
  return { statuses: results.map((result) => [result.status, result.reason ?? null]), messages: results.map((result) => result.message) };
}

/** Who checked ticket `code` in, for each of its check-ins. */
async function staffOf(code: string): Promise<string[]> {
  const rows = await t.database.db.select({ staffUserId: checkIns.staffUserId }).from(checkIns).innerJoin(tickets, eq(tickets.id, checkIns.ticketId)).where(eq(tickets.code, code));
  return rows.map((row) => row.staffUserId);
}

test(`a device moved to another event sends the old event the scans it made there — a shift's too — until its heartbeat told it of the move, none made after, and reaches nothing else of it (${TEST_DATABASE_KIND})`, async () => {
  const gate = await newList('North gate');
  const { token, device } = await enrollAtList(gate.id);
  const shift = await startShift(token, 'Anna');
  const scan = (code: string) => ({ scanId: randomUUID(), code, scannedAt: new Date().toISOString(), deviceId: device.id, verdict: 'approved' as const });
  const byShift = async (code: string) => {
    const item = scan(code);
    return { ...item, scannedBy: shift.userId, sessionProof: await offlineScanProof(shift.token, item) };
  };
  await tick();
  const beforeMove = scan(freshCode());
  const shiftBeforeMove = await byShift(freshCode());
  await tick();
  const moved = await t.app.inject({ method: 'POST', url: api(devicePaths.updateDevice(device.id)), headers: bearer(adminToken), payload: { eventId: ids.singleDayEventId } });
  expect(moved.statusCode, moved.body).toBe(200);
  await tick();
  // Not told yet (offline): still the north gate of the live event, it admits there.
  const notTold = scan(freshCode());
  const notToldNoList = scan(freshCode());
  const beforeEnrollment = { ...scan(freshCode()), scannedAt: new Date(Date.now() - 3_600_000).toISOString() };

  // Sent by the device's own session (the shift's scan naming its maker), before the heartbeat.
  const first = await uploadToEvent(token, ids.liveEventId, gate.id, [beforeMove, shiftBeforeMove, notTold, beforeEnrollment]);
  expect(first.statuses).toEqual([['recorded', null], ['recorded', null], ['recorded', null], ['rejected', 'device_moved']]);
  for (const made of [beforeMove, shiftBeforeMove, notTold]) expect(await listsCheckedInAt(made.code)).toEqual([gate.id]);
  expect(await staffOf(shiftBeforeMove.code)).toEqual([shift.userId]);
  expect(await listsCheckedInAt(beforeEnrollment.code)).toEqual([]);
  // Naming no list (queued before the phone kept its list with the day): the list it was at there.
  expect((await uploadToEvent(token, ids.liveEventId, undefined, [notToldNoList])).statuses).toEqual([['recorded', null]]);
  expect(await listsCheckedInAt(notToldNoList.code)).toEqual([gate.id]);

  // The heartbeat tells it; the phone follows and reports its new event.
  expect((await heartbeat(token, { eventId: ids.liveEventId, checkInListId: gate.id })).device).toMatchObject({ eventId: ids.singleDayEventId, checkInListId: null });
  await tick();
  expect((await heartbeat(token, { eventId: ids.singleDayEventId, checkInListId: null })).device?.eventId).toBe(ids.singleDayEventId);
  await tick();
  const afterTold = scan(freshCode());
  // Sent again (the answers were lost) with one made at the old event after it knew: the same answers, that one refused.
  const again = await uploadToEvent(token, ids.liveEventId, gate.id, [beforeMove, shiftBeforeMove, notTold, afterTold]);
  expect(again.statuses).toEqual([['recorded', null], ['recorded', null], ['recorded', null], ['rejected', 'device_moved']]);
  expect(again.messages[3]).toBe('Scanned at this event after this device was told of its move to another event; the scan was not recorded.');
  for (const made of [beforeMove, shiftBeforeMove, notTold]) expect(await listsCheckedInAt(made.code)).toHaveLength(1);
  expect(await listsCheckedInAt(afterTold.code)).toEqual([]);

  // Nothing else of the old event: the 404 of an unknown event, for the device and its shift.
  for (const caller of [token, shift.token]) {
    for (const request of [
      { method: 'POST' as const, url: api(apiPaths.verifyTicket), payload: { eventId: ids.liveEventId, qrCode: freshCode(), day: DAY, checkInListId: gate.id } },
      { method: 'GET' as const, url: api(offlinePaths.doorList(ids.liveEventId, DAY)) },
      { method: 'GET' as const, url: api(offlinePaths.offlineConflicts(ids.liveEventId, DAY)) },
      { method: 'GET' as const, url: api(offlinePaths.signingKeys(ids.liveEventId)) },
      { method: 'GET' as const, url: api(checkInCountsPath(ids.liveEventId, DAY)) },
      { method: 'GET' as const, url: api(checkInListsPath(ids.liveEventId)) },
    ]) {
      const refused = await t.app.inject({ ...request, headers: bearer(caller) });
      expect(refused.statusCode, `${request.method} ${request.url}: ${refused.body}`).toBe(404);
    }
  }
});

test(`a device moved to another event and then revoked still sends the old event what it made there before the revocation; a week after it was told, that event is closed to it (${TEST_DATABASE_KIND})`, async () => {
  const gate = await newList('South gate');
  const { token, device } = await enrollAtList(gate.id);
  const scan = () => ({ scanId: randomUUID(), code: freshCode(), scannedAt: new Date().toISOString(), deviceId: device.id, verdict: 'approved' as const });
  await tick();
  const beforeMove = scan();
  await tick();
  expect((await t.app.inject({ method: 'POST', url: api(devicePaths.updateDevice(device.id)), headers: bearer(adminToken), payload: { eventId: ids.singleDayEventId } })).statusCode).toBe(200);
  await tick();
  const movedNotTold = scan();
  await tick();
  expect((await t.app.inject({ method: 'POST', url: api(devicePaths.revokeDevice(device.id)), headers: bearer(adminToken) })).statusCode).toBe(200);
  await tick();
  const afterRevocation = scan();
  const sent = await uploadToEvent(token, ids.liveEventId, gate.id, [beforeMove, movedNotTold, afterRevocation]);
  expect(sent.statuses).toEqual([['recorded', null], ['recorded', null], ['rejected', 'device_revoked']]);
  for (const made of [beforeMove, movedNotTold]) expect(await listsCheckedInAt(made.code)).toEqual([gate.id]);
  expect(await listsCheckedInAt(afterRevocation.code)).toEqual([]);

  // Another device, moved and told more than a week ago: the old event answers as an unknown one.
  const late = await enrollAtList(gate.id);
  await tick();
  const madeLongAgo = { scanId: randomUUID(), code: freshCode(), scannedAt: new Date().toISOString(), deviceId: late.device.id, verdict: 'approved' as const };
  await tick();
  expect((await t.app.inject({ method: 'POST', url: api(devicePaths.updateDevice(late.device.id)), headers: bearer(adminToken), payload: { eventId: ids.singleDayEventId } })).statusCode).toBe(200);
  await heartbeat(late.token, { eventId: ids.singleDayEventId, checkInListId: null });
  const upload = () => t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(ids.liveEventId, DAY)), headers: bearer(late.token), payload: { checkInListId: gate.id, scans: [madeLongAgo] } });
  await t.database.db
    .update(deviceListHistory)
    .set({ toldAt: new Date(Date.now() - EVENT_LEFT_UPLOAD_GRACE_MS + 60_000) })
    .where(eq(deviceListHistory.deviceId, late.device.id));
  expect((await upload()).statusCode).toBe(200);
  await t.database.db
    .update(deviceListHistory)
    .set({ toldAt: new Date(Date.now() - EVENT_LEFT_UPLOAD_GRACE_MS - 60_000) })
    .where(eq(deviceListHistory.deviceId, late.device.id));
  expect((await upload()).statusCode).toBe(404);
  // Never told (a phone that goes on reporting its old place): the week runs from the move itself.
  await t.database.db
    .update(deviceListHistory)
    .set({ toldAt: null, boundUntil: new Date(Date.now() - EVENT_LEFT_UPLOAD_GRACE_MS + 60_000) })
    .where(eq(deviceListHistory.deviceId, late.device.id));
  expect((await upload()).statusCode).toBe(200);
  await t.database.db
    .update(deviceListHistory)
    .set({ toldAt: null, boundUntil: new Date(Date.now() - EVENT_LEFT_UPLOAD_GRACE_MS - 60_000) })
    .where(eq(deviceListHistory.deviceId, late.device.id));
  expect((await upload()).statusCode).toBe(404);
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

/**
 * A device moved from the north gate of the live event to the single-day event, a scan it made at
 * the north gate by a clock running 3 s ahead (so it claims a time after the heartbeat that tells
 * the phone of the move), and the upload of that scan as the server runs it.
 */
async function movedWithScanAhead() {
  const gate = await newList('Straddle gate');
  const { token, device } = await enrollAtList(gate.id);
  await tick();
  expect((await t.app.inject({ method: 'POST', url: api(devicePaths.updateDevice(device.id)), headers: bearer(adminToken), payload: { eventId: ids.singleDayEventId } })).statusCode).toBe(200);
  const code = freshCode();
  const made = { scanId: randomUUID(), code, scannedAt: new Date(Date.now() + 3_000).toISOString(), deviceId: device.id, verdict: 'approved' as const };
  const upload = () =>
    t.app.inject({ method: 'POST', url: api(offlinePaths.offlineScans(ids.liveEventId, DAY)), headers: bearer(token), payload: { checkInListId: gate.id, scans: [made] } });
  const told = () => heartbeat(token, { eventId: ids.singleDayEventId, checkInListId: null });
  return { gate, token, device, made, upload, told };
}

test(`an upload that read the device's place before the heartbeat told it of its move and reaches a scan after that scan's re-send was refused answers the same refusal and records nothing (${TEST_DATABASE_KIND})`, async () => {
  const { gate, token, device, made, upload, told } = await movedWithScanAhead();
  // The original upload: the route has read where the device was (not told yet), and goes on to the item later.
  const [session] = await t.database.db.select({ id: sessions.id, userId: sessions.userId }).from(sessions).where(eq(sessions.tokenHash, hashToken(token)));
  if (!session) throw new Error('no session');
  const [row] = await t.database.db.select().from(devices).where(eq(devices.id, device.id));
  if (!row) throw new Error('no device');
  const sessionDevice = { id: row.id, eventId: row.eventId, organizationId: row.organizationId, name: row.name, checkInListId: row.checkInListId, revokedAt: row.revokedAt, lastSeenAt: row.lastSeenAt };
  const stays = await timesAtListLeft(t.database.db, sessionDevice, ids.liveEventId, gate.id);
  expect(stays).toMatchObject([{ until: null }]);
  const originalUploader = { userId: session.userId, sessionId: session.id, acceptsScansWhileAt: stays, hasLeftEvent: true };
  // Meanwhile the heartbeat tells the phone, and the re-send of the scan (the phone gave up waiting) is judged after it.
  await told();
  const resent = OfflineScanBatchResponse.parse((await upload()).json()).results;
  expect(resent).toMatchObject([{ status: 'rejected', reason: 'device_moved' }]);
  // The original now reaches the item: one answer for the scan, and no check-in the phone was told is not there.
  const place = { day: DAY, checkInList: await resolveCheckInList(t.database.db, ids.liveEventId, gate.id) };
  const original = await recordOfflineScans(t.database.db, originalUploader, await findEvent(t.database.db, ids.liveEventId), place, [made], new Date());
  expect(original.results.map(({ index: _index, ...result }) => result)).toEqual(resent.map(({ index: _index, ...result }) => result));
  expect(await listsCheckedInAt(made.code)).toEqual([]);
});

test(`an original upload still recording a scan and its re-send judged after the heartbeat told the device of its move give the one answer: recorded (${TEST_DATABASE_KIND})`, async () => {
  const { gate, made, upload, told } = await movedWithScanAhead();
  if (TEST_DATABASE_KIND === 'pglite') {
    // One connection: the two uploads run one statement at a time, never inside each other's
    // transaction; whichever order they take, they answer alike.
    const [original, resent] = await Promise.all([upload(), told().then(upload)]);
    const answers = [original, resent].map((answer) => OfflineScanBatchResponse.parse(answer.json()).results[0]?.status);
    expect(answers[1]).toBe(answers[0]);
    expect(await listsCheckedInAt(made.code)).toEqual(answers[0] === 'recorded' ? [gate.id] : []);
    return;
  }
  // PostgreSQL, each upload on its own connection. The original is held inside its transaction after
  // it wrote the scan's row and its check-in (the scan log waits on a lock taken here), not committed.
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let signalLocked: () => void = () => undefined;
  const locked = new Promise<void>((resolve) => (signalLocked = resolve));
  const holder = t.database.db.transaction(async (tx) => {
    await tx.execute(sql`lock table scan_log in share mode`);
    signalLocked();
    await released;
  });
  await locked;
  const waitingOnLocks = async () => rowsOf<{ n: number }>(await t.database.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`))[0]?.n ?? 0;
  const until = async (isDone: () => Promise<boolean>) => {
    for (let tries = 0; tries < 500 && !(await isDone()); tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  };
  const original = upload();
  await until(async () => (await waitingOnLocks()) >= 1);
  // The phone is told of the move; its re-send is judged after that, while the original has not committed.
  await told();
  let isResentAnswered = false;
  const resent = upload().finally(() => (isResentAnswered = true));
  // The re-send waits for the original (a second lock wait), or answers at once (as it did before).
  await until(async () => isResentAnswered || (await waitingOnLocks()) >= 2);
  release();
  await holder;
  const answers = await Promise.all([original, resent]);
  expect(answers.map((answer) => OfflineScanBatchResponse.parse(answer.json()).results.map((result) => [result.status, result.reason ?? null]))).toEqual([[['recorded', null]], [['recorded', null]]]);
  expect(await listsCheckedInAt(made.code)).toEqual([gate.id]);
});

test(`a device moved off a list its organizer then deletes still has the scans it made there before it was told taken, at the list that admits them; one made after it was told is still refused (${TEST_DATABASE_KIND})`, async () => {
  const gateA = await newList('Gate A');
  const gateB = await newList('Gate B');
  const { token, device } = await enrollAtList(gateA.id);
  const scan = (code: string) => ({ scanId: randomUUID(), code, scannedAt: new Date().toISOString(), deviceId: device.id, verdict: 'approved' });
  await tick();
  const atA = scan(freshCode());
  await tick();
  const moved = await t.app.inject({ method: 'POST', url: api(devicePaths.updateDevice(device.id)), headers: bearer(adminToken), payload: { checkInListId: gateB.id } });
  expect(moved.statusCode, moved.body).toBe(200);
  await tick();
  const atANotTold = scan(freshCode());
  await tick();
  expect((await heartbeat(token)).device).toMatchObject({ id: device.id, checkInListId: gateB.id });
  await tick();
  const atAAfterTold = scan(freshCode());
  // Gate A is deleted while the phone still holds what it admitted there (the delete saw no check-in).
  const deleted = await t.app.inject({ method: 'DELETE', url: api(checkInListPath(ids.liveEventId, gateA.id)), headers: bearer(adminToken) });
  expect(deleted.statusCode, deleted.body).toBe(200);

  // Its stays at gate A are still known: taken at the event's first list admitting the tickets (decision 153).
  expect(await uploadAt(token, gateA.id, [atA, atANotTold, atAAfterTold])).toEqual([['recorded', null], ['recorded', null], ['rejected', 'device_moved']]);
  const firstList = (await listCheckInLists(t.database.db, ids.liveEventId))[0];
  for (const made of [atA, atANotTold]) expect(await listsCheckedInAt(made.code)).toEqual([firstList?.id]);
  expect(await listsCheckedInAt(atAAfterTold.code)).toEqual([]);
  // A re-send writes nothing more.
  expect(await uploadAt(token, gateA.id, [atA, atANotTold])).toEqual([['recorded', null], ['recorded', null]]);
  for (const made of [atA, atANotTold]) expect(await listsCheckedInAt(made.code)).toEqual([firstList?.id]);
});
