/**
 * Signed tickets on the server (issue 12 item 6): the signer matches the contract's test vectors,
 * an event's keys (one active, rotation keeps old ones verifying), the public keys endpoint, and
 * verify / the offline upload / the door list taking a signed QR text like its plain code, with a
 * forged text as an unknown code. PGlite or PostgreSQL.
 */
import {
  apiPaths,
  DoorList,
  doorListLookupKey,
  EventSigningKeys,
  OfflineScanBatchResponse,
  offlinePaths,
  openHolderName,
  parseSignedTicket,
  SIGNED_TICKET_VECTOR,
  signedTicketPayloadBytes,
  formatSignedTicket,
  VerifyTicketResponse,
} from '@gatecheck/contract';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { scanLog } from '../src/db/schema.ts';
import { DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { createSession } from '../src/services/sessions.ts';
import { activeSigningKey, rotateSigningKey, signedQrText, signWith } from '../src/services/signing-keys.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { createOutsider, demoIds, userIdOf } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const DAY = DEMO_TODAY_DAY_NUMBER;
let t: TestApp;
let eventId: string;
let otherEventId: string;
let staff: string;
let outsider: string;

beforeAll(async () => {
  t = await createTestApp();
  const ids = await demoIds(t.database.db);
  eventId = ids.liveEventId;
  otherEventId = ids.singleDayEventId;
  staff = (await createSession(t.database.db, await userIdOf(t.database.db, DEMO_USER.username), 600_000)).token;
  const other = await createOutsider(t.database.db);
  outsider = (await createSession(t.database.db, other.userId, 600_000)).token;
});
afterAll(async () => {
  await t.close();
});

async function newTicket(holderName = 'Signed Sam', admittedDays: number[] | null = null) {
  const code = `SIG-${randomUUID().slice(0, 8).toUpperCase()}`;
  await insertTickets(t.database.db, [{ code, eventId, holderName, ticketType: 'Weekend', admittedDays }]);
  return code;
}
async function verify(qrCode: string) {
  const response = await t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(staff), payload: { eventId, qrCode, day: DAY } });
  expect(response.statusCode).toBe(200);
  return VerifyTicketResponse.parse(response.json());
}
async function keysOf(token: string | undefined, event = eventId) {
  return t.app.inject({ method: 'GET', url: api(offlinePaths.signingKeys(event)), headers: token ? bearer(token) : {} });
}

test("the server's signer (node:crypto) gives the contract's test vector exactly", () => {
  const V = SIGNED_TICKET_VECTOR;
  // PKCS#8 DER of an Ed25519 secret key: a fixed 16-byte header and the 32-byte seed.
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(V.secretKeyHex, 'hex')]);
  expect(signWith({ keyId: V.keyId, privateKey: pkcs8.toString('base64url') }, { eventId: V.eventId, code: V.code, days: V.days })).toBe(V.qrText);
});

describe('event keys', () => {
  test(`one active key per event, the same for callers at once (${TEST_DATABASE_KIND})`, async () => {
    const keys = await Promise.all([activeSigningKey(t.database.db, otherEventId), activeSigningKey(t.database.db, otherEventId)]);
    expect(keys[0]?.keyId).toBe(keys[1]?.keyId);
    expect(keys[0]?.keyId).toMatch(/^[A-Za-z0-9_-]{12}$/);
  });

  test('the public keys endpoint: members only, public halves only; a rotated key stays listed and verifying', async () => {
    expect((await keysOf(undefined)).statusCode).toBe(401);
    expect((await keysOf(outsider)).statusCode).toBe(404);
    const code = await newTicket();
    const oldText = await signedQrText(t.database.db, { eventId, code, days: null });
    const oldKey = await activeSigningKey(t.database.db, eventId);
    const newKey = await t.database.db.transaction((tx) => rotateSigningKey(tx, eventId));
    expect(newKey.keyId).not.toBe(oldKey.keyId);

    const response = await keysOf(staff);
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain(oldKey.privateKey);
    const { keys } = EventSigningKeys.parse(response.json());
    expect(keys.map((key) => [key.keyId, key.retiredAt === null])).toEqual([
      [newKey.keyId, true],
      [oldKey.keyId, false],
    ]);
    expect(keys[1]?.publicKey).toBe(oldKey.publicKey);
    // A ticket printed before the rotation still scans.
    expect(await verify(oldText)).toMatchObject({ isValid: true, holderName: 'Signed Sam' });
    expect(parseSignedTicket(await signedQrText(t.database.db, { eventId, code, days: null }))?.keyId).toBe(newKey.keyId);
  });
});

describe('verify takes both forms', () => {
  test('a signed text admits like its code; then the plain code is already checked in', async () => {
    const code = await newTicket();
    const text = await signedQrText(t.database.db, { eventId, code, days: null });
    expect(text.startsWith('GC1.')).toBe(true);
    expect(await verify(text)).toMatchObject({ isValid: true, holderName: 'Signed Sam' });
    // The scan log shows the code, not the long signed text.
    expect(await t.database.db.select({ code: scanLog.code, verdict: scanLog.verdict }).from(scanLog).where(eq(scanLog.code, code))).toEqual([{ code, verdict: 'approved' }]);
    expect(await verify(code.toLowerCase())).toMatchObject({ isValid: false, reason: 'already_checked_in' });
    expect(await verify(text)).toMatchObject({ isValid: false, reason: 'already_checked_in' });
  });

  test('a forged text (days changed, signature kept; unknown key; another event) is an unknown code', async () => {
    const code = await newTicket('Forged Fay', [3]);
    const text = await signedQrText(t.database.db, { eventId, code, days: [3] });
    const parsed = parseSignedTicket(text);
    if (!parsed) throw new Error('unreachable');
    const widened = formatSignedTicket(signedTicketPayloadBytes({ ...parsed, days: [2, 3] }), parsed.signature);
    expect(await verify(widened)).toMatchObject({ isValid: false, reason: 'not_found' });
    const unknownKey = formatSignedTicket(signedTicketPayloadBytes({ ...parsed, keyId: 'AAAAAAAAAAAA' }), parsed.signature);
    expect(await verify(unknownKey)).toMatchObject({ isValid: false, reason: 'not_found' });
    // The genuine text is decided on the rows: day 2 is not one of the ticket's days.
    expect(await verify(text)).toMatchObject({ isValid: false, reason: 'not_valid_today' });
    // A genuine ticket of another event signed by that event's key: wrong event, as its plain code.
    const [other] = await insertTickets(t.database.db, [{ code: `SIG-O-${randomUUID().slice(0, 6)}`, eventId: otherEventId, holderName: 'O', ticketType: 'GA' }]);
    if (!other) throw new Error('no ticket');
    expect(await verify(await signedQrText(t.database.db, { eventId: otherEventId, code: other.code, days: null }))).toMatchObject({ isValid: false, reason: 'wrong_event' });
  });
});

test('the offline upload and the door list take a signed text like its code', async () => {
  const code = await newTicket('Offline Olga');
  const text = await signedQrText(t.database.db, { eventId, code, days: null });
  const list = await t.app.inject({ method: 'GET', url: api(offlinePaths.doorList(eventId, DAY)), headers: bearer(staff) });
  const key = await doorListLookupKey(eventId, text);
  const found = DoorList.parse(list.json()).tickets.find((candidate) => candidate.lookupKey === key);
  if (!found) throw new Error('the signed text is not found in the door list');
  expect(await openHolderName(eventId, text, found.holderName)).toBe('Offline Olga');

  const scanId = randomUUID();
  const response = await t.app.inject({
    method: 'POST',
    url: api(offlinePaths.offlineScans(eventId, DAY)),
    headers: bearer(staff),
    payload: { scans: [{ scanId, code: text, scannedAt: new Date().toISOString(), deviceId: 'gate-s', verdict: 'approved' }] },
  });
  expect(OfflineScanBatchResponse.parse(response.json()).results[0]).toMatchObject({ scanId, status: 'recorded' });
  expect(await t.database.db.select({ code: scanLog.code, source: scanLog.source }).from(scanLog).where(eq(scanLog.scanId, scanId))).toEqual([{ code, source: 'offline' }]);
  expect(await verify(code)).toMatchObject({ isValid: false, reason: 'already_checked_in' });
});
