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
import crypto, { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, stat } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { eventSigningKeys, scanLog } from '../src/db/schema.ts';
import { DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { type PrintableTicket, withSignedQrTexts } from '../src/services/qr-export.ts';
import { createSession } from '../src/services/sessions.ts';
import { openPrivateKey, openSigningKeyVault, sealClearSigningKeys, SIGNING_KEY_SECRET_FILE, type SigningKeyVault } from '../src/services/signing-key-vault.ts';
import { activeSigningKey, generateSigningKey, revokeSigningKey, rotateSigningKey, signedQrText, signWith } from '../src/services/signing-keys.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { createOutsider, demoIds, userIdOf } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const DAY = DEMO_TODAY_DAY_NUMBER;
let t: TestApp;
let eventId: string;
let otherEventId: string;
let staff: string;
let outsider: string;
let vault: SigningKeyVault;

beforeAll(async () => {
  t = await createTestApp();
  vault = await openSigningKeyVault(t.config);
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
  // A code strong enough for the door list (docs/decisions/087).
  const code = `SIG-${randomUUID().toUpperCase()}`;
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
    const keys = await Promise.all([activeSigningKey(t.database.db, vault, otherEventId), activeSigningKey(t.database.db, vault, otherEventId)]);
    expect(keys[0]?.keyId).toBe(keys[1]?.keyId);
    expect(keys[0]?.keyId).toMatch(/^[A-Za-z0-9_-]{12}$/);
  });

  test('the public keys endpoint: members only, public halves only; a rotated key stays listed and verifying', async () => {
    expect((await keysOf(undefined)).statusCode).toBe(401);
    expect((await keysOf(outsider)).statusCode).toBe(404);
    const code = await newTicket();
    const oldText = await signedQrText(t.database.db, vault, { eventId, code, days: null });
    const oldKey = await activeSigningKey(t.database.db, vault, eventId);
    const newKey = await t.database.db.transaction((tx) => rotateSigningKey(tx, vault, eventId));
    expect(newKey.keyId).not.toBe(oldKey.keyId);

    const response = await keysOf(staff);
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain(oldKey.privateKey);
    const { keys } = EventSigningKeys.parse(response.json());
    expect(keys.map((key) => [key.keyId, key.retiredAt === null])).toEqual([
      [newKey.keyId, true],
      [oldKey.keyId, false],
    ]);
    const [oldRow] = await t.database.db.select().from(eventSigningKeys).where(eq(eventSigningKeys.keyId, oldKey.keyId));
    expect(keys[1]?.publicKey).toBe(oldRow?.publicKey);
    // A ticket printed before the rotation still scans.
    expect(await verify(oldText)).toMatchObject({ isValid: true, holderName: 'Signed Sam' });
    expect(parseSignedTicket(await signedQrText(t.database.db, vault, { eventId, code, days: null }))?.keyId).toBe(newKey.keyId);
  });
});

describe('verify takes both forms', () => {
  test('a signed text admits like its code; then the plain code is already checked in', async () => {
    const code = await newTicket();
    const text = await signedQrText(t.database.db, vault, { eventId, code, days: null });
    expect(text.startsWith('GC1.')).toBe(true);
    expect(await verify(text)).toMatchObject({ isValid: true, holderName: 'Signed Sam' });
    // The scan log shows the code, not the long signed text.
    expect(await t.database.db.select({ code: scanLog.code, verdict: scanLog.verdict }).from(scanLog).where(eq(scanLog.code, code))).toEqual([{ code, verdict: 'approved' }]);
    expect(await verify(code.toLowerCase())).toMatchObject({ isValid: false, reason: 'already_checked_in' });
    expect(await verify(text)).toMatchObject({ isValid: false, reason: 'already_checked_in' });
  });

  test('a forged text (days changed, signature kept; unknown key; another event) is an unknown code', async () => {
    const code = await newTicket('Forged Fay', [3]);
    const text = await signedQrText(t.database.db, vault, { eventId, code, days: [3] });
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
    expect(await verify(await signedQrText(t.database.db, vault, { eventId: otherEventId, code: other.code, days: null }))).toMatchObject({ isValid: false, reason: 'wrong_event' });
  });
});

test('the offline upload and the door list take a signed text like its code', async () => {
  const code = await newTicket('Offline Olga');
  const text = await signedQrText(t.database.db, vault, { eventId, code, days: null });
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

test("a print run parses the event's key once and signs in slices, so timers (a verify's deadline) run between them", async () => {
  const TICKETS = 3000;
  const list: PrintableTicket[] = Array.from({ length: TICKETS }, (_, index) => ({ code: `SLICE-${index}`, holderName: 'Sliced Sam', ticketType: 'Weekend', days: null }));
  await activeSigningKey(t.database.db, vault, eventId);
  // Counted where node:crypto is called (the spies call through), published to the ES module
  // bindings the services import.
  const parses = vi.spyOn(crypto, 'createPrivateKey');
  const signatures = vi.spyOn(crypto, 'sign');
  syncBuiltinESMExports();
  // How many signatures were made each time a timer ran: one that runs mid-way saw some, not all.
  const seenByTimer: number[] = [];
  const timer = setInterval(() => seenByTimer.push(signatures.mock.calls.length), 0);
  try {
    const signed = await withSignedQrTexts(t.database.db, vault, eventId, list);
    expect(signed.map((ticket) => parseSignedTicket(ticket.qrText ?? '')?.code)).toEqual(list.map((ticket) => ticket.code));
    expect(signatures).toHaveBeenCalledTimes(TICKETS);
    expect(parses).toHaveBeenCalledTimes(1);
    expect(seenByTimer.some((count) => count > 0 && count < TICKETS), 'a timer ran between two signatures').toBe(true);
  } finally {
    clearInterval(timer);
    vi.restoreAllMocks();
    syncBuiltinESMExports();
  }
});

describe('private keys at rest (docs/decisions/089)', () => {
  test(`a private key is stored encrypted and opens only with the secret it was sealed with (${TEST_DATABASE_KIND})`, async () => {
    const key = await activeSigningKey(t.database.db, vault, eventId);
    const [row] = await t.database.db.select().from(eventSigningKeys).where(eq(eventSigningKeys.keyId, key.keyId));
    if (!row) throw new Error('no key row');
    expect(row.privateKey.startsWith('enc1.')).toBe(true);
    expect(row.privateKey).not.toContain(key.privateKey);
    expect(openPrivateKey(vault, row, row.privateKey)).toBe(key.privateKey);
    expect(() => openPrivateKey({ secret: randomBytes(32) }, row, row.privateKey)).toThrow(/does not open/);
    // Moved to another key's row, it does not open either (the event and key id are authenticated).
    expect(() => openPrivateKey(vault, { ...row, keyId: 'AAAAAAAAAAAA' }, row.privateKey)).toThrow(/does not open/);
  });

  test('a key an older server stored in clear is encrypted at start and still signs the same texts', async () => {
    const clear = await generateSigningKey();
    await t.database.db.insert(eventSigningKeys).values({ eventId: otherEventId, ...clear, retiredAt: new Date() });
    const ticket = { eventId: otherEventId, code: 'OLD-KEY-TICKET', days: null };
    const before = signWith(clear, ticket);
    expect(await sealClearSigningKeys(t.database.db, vault)).toBeGreaterThanOrEqual(1);
    const [row] = await t.database.db.select().from(eventSigningKeys).where(eq(eventSigningKeys.keyId, clear.keyId));
    if (!row) throw new Error('no key row');
    expect(row.privateKey.startsWith('enc1.')).toBe(true);
    expect(signWith({ keyId: row.keyId, privateKey: openPrivateKey(vault, row, row.privateKey) }, ticket)).toBe(before);
    expect(await sealClearSigningKeys(t.database.db, vault)).toBe(0);
  });

  test('the secret: SIGNING_KEY_SECRET; else, on the embedded database, one generated once in DATA_DIR (0600); with DATABASE_URL and none, signing is refused', async () => {
    const given = randomBytes(32);
    expect(await openSigningKeyVault({ ...t.config, signingKeySecret: given })).toEqual({ secret: given });
    const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-vault-'));
    const first = await openSigningKeyVault({ dataDir, databaseUrl: undefined, signingKeySecret: undefined });
    const again = await openSigningKeyVault({ dataDir, databaseUrl: undefined, signingKeySecret: undefined });
    expect(again).toEqual(first);
    expect((await stat(path.join(dataDir, SIGNING_KEY_SECRET_FILE))).mode & 0o777).toBe(0o600);
    const none = await openSigningKeyVault({ dataDir, databaseUrl: 'postgres://db.example/gatecheck', signingKeySecret: undefined });
    await expect(activeSigningKey(t.database.db, none, randomUUID())).rejects.toThrow(/SIGNING_KEY_SECRET/);
  });
});

test('a revoked key vouches for nothing: its texts are unknown codes at verify and upload, it leaves the key list, door lists name it (docs/decisions/089)', async () => {
  const code = await newTicket('Revoked Rita');
  const text = await signedQrText(t.database.db, vault, { eventId, code, days: null });
  const keyId = parseSignedTicket(text)?.keyId ?? '';
  expect(await revokeSigningKey(t.database.db, eventId, keyId)).toMatchObject({ wasAlreadyRevoked: false });
  expect(await verify(text)).toMatchObject({ isValid: false, reason: 'not_found' });
  const upload = await t.app.inject({
    method: 'POST',
    url: api(offlinePaths.offlineScans(eventId, DAY)),
    headers: bearer(staff),
    payload: { scans: [{ scanId: randomUUID(), code: text, scannedAt: new Date().toISOString(), deviceId: 'gate-s', verdict: 'approved' }] },
  });
  expect(OfflineScanBatchResponse.parse(upload.json()).results[0]).toMatchObject({ status: 'rejected', reason: 'not_found' });
  expect(EventSigningKeys.parse((await keysOf(staff)).json()).keys.map((key) => key.keyId)).not.toContain(keyId);
  const list = DoorList.parse((await t.app.inject({ method: 'GET', url: api(offlinePaths.doorList(eventId, DAY)), headers: bearer(staff) })).json());
  expect(list.revokedKeyIds).toContain(keyId);
  const changes = DoorList.parse((await t.app.inject({ method: 'GET', url: api(`${offlinePaths.doorList(eventId, DAY)}?since=${list.cursor}`), headers: bearer(staff) })).json());
  expect(changes.revokedKeyIds).toContain(keyId);
  // The ticket itself is fine: printed again under the new key, it admits.
  const reprinted = await signedQrText(t.database.db, vault, { eventId, code, days: null });
  expect(parseSignedTicket(reprinted)?.keyId).not.toBe(keyId);
  expect(await verify(reprinted)).toMatchObject({ isValid: true, holderName: 'Revoked Rita' });
  expect(await revokeSigningKey(t.database.db, eventId, keyId)).toMatchObject({ wasAlreadyRevoked: true });
  await expect(revokeSigningKey(t.database.db, eventId, 'NOSUCHKEY000')).rejects.toThrow(/no signing key/);
});
