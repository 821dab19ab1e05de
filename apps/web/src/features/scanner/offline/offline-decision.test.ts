import { SIGNED_TICKET_VECTOR, formatSignedTicket, parseSignedTicket, signedTicketPayloadBytes, type CheckInEvent, type CheckInList, type DoorList } from '@gatecheck/contract';
import { signAsync } from '@noble/ed25519';
import { describe, expect, test } from 'vitest';
import { doorListEvent, makeDoorList } from '@/test/door-list-fixtures.ts';
import { decideOffline, isListNewerThan, rememberOnlineCheckIn, rememberOnlineVerdict, type OfflineDecisionInput } from './offline-decision.ts';
import { syncDoorList } from './door-list-store.ts';
import { openOfflineDb, takeSyncSeq } from './offline-db.ts';
import { hasWebCryptoEd25519, verifyTicketSignature } from './signed-tickets.ts';

const NOW = new Date('2026-07-11T12:00:00Z');

async function input(code: string, overrides: Partial<OfflineDecisionInput> = {}): Promise<OfflineDecisionInput> {
  const doorList = await makeDoorList([
    { code: 'GOOD-1', holderName: 'Ada Lovelace', ticketType: 'VIP' },
    { code: 'REVOKED-1', holderName: 'Rex', isRevoked: true },
    { code: 'DAY1-ONLY', holderName: 'Dee', admittedDays: [1] },
    { code: 'GATE-B-1', holderName: 'Bea', checkIn: { checkedInAt: '2026-07-11T09:00:00.000Z', checkedInBy: 'Gate B' } },
  ]);
  return { eventId: 'event-1', day: 2, code, now: NOW, staffName: 'Dana Demo', doorList, signingKeys: [], event: { ...doorListEvent }, ...overrides };
}

describe('deciding from the door list (the server rule, decideCheckIn)', () => {
  test('a valid ticket is approved with its holder opened from the sealed name; the same again is denied as checked in on this device', async () => {
    const db = await openOfflineDb();
    expect(await decideOffline(db, await input('good-1'))).toEqual({ isValid: true, details: { eventName: 'Harbour Sound 2026', holderName: 'Ada Lovelace', ticketType: 'VIP' } });
    expect(await decideOffline(db, await input('GOOD-1', { now: new Date('2026-07-11T12:01:00Z') }))).toEqual({
      isValid: false,
      denial: { reason: 'already_checked_in', checkedInAt: NOW.toISOString(), checkedInBy: 'Dana Demo' },
    });
  });

  test('unknown, revoked, not valid on this day and checked in at another gate are denied with the server reasons', async () => {
    const db = await openOfflineDb();
    const reasons = [];
    for (const code of ['NOPE-404', 'REVOKED-1', 'DAY1-ONLY', 'GATE-B-1']) {
      const verdict = await decideOffline(db, await input(code));
      reasons.push(verdict?.isValid === false ? verdict.denial.reason : 'approved');
    }
    expect(reasons).toEqual(['not_found', 'revoked', 'not_valid_today', 'already_checked_in']);
  });

  test('a day the event calendar does not open is denied not_event_day, as on the server', async () => {
    const db = await openOfflineDb();
    const closedCalendar = await makeDoorList([{ code: 'GOOD-1', holderName: 'Ada' }], { event: { ...doorListEvent, allowsScanningOutsideDays: false } });
    const verdict = await decideOffline(db, await input('GOOD-1', { doorList: closedCalendar, now: new Date('2026-07-20T12:00:00Z') }));
    expect(verdict).toMatchObject({ isValid: false, denial: { reason: 'not_event_day' } });
  });

  test('without a door list a plain code cannot be decided (the caller shows Verification Error)', async () => {
    const db = await openOfflineDb();
    expect(await decideOffline(db, await input('GOOD-1', { doorList: null }))).toBeNull();
  });

  test("an online approval remembered on the device denies the same ticket offline until a newer list knows better", async () => {
    const db = await openOfflineDb();
    const before = await takeSyncSeq(db);
    await rememberOnlineCheckIn(db, { eventId: 'event-1', day: 2, code: 'GOOD-1' }, { checkedInAt: new Date('2026-07-11T10:30:00Z'), checkedInBy: 'Dana Demo' });
    expect(await decideOffline(db, await input('GOOD-1'))).toMatchObject({ isValid: false, denial: { reason: 'already_checked_in' } });
    // A list whose sync began after that check-in (and showing none: undone by a supervisor) wins.
    const newer = { ...(await makeDoorList([{ code: 'GOOD-1', holderName: 'Ada' }])), generatedAt: '2026-07-11T11:00:00.000Z' };
    expect(await decideOffline(db, await input('GOOD-1', { doorList: newer, doorListSyncedAt: '2026-07-11T10:29:00.000Z', doorListSyncSeq: before }))).toMatchObject({ isValid: false });
    expect(await decideOffline(db, await input('GOOD-1', { doorList: newer, doorListSyncedAt: '2026-07-11T11:00:00.000Z', doorListSyncSeq: await takeSyncSeq(db) }))).toMatchObject({ isValid: true });
  });
});

describe('online verdicts kept on the device (docs/decisions/111, 113)', () => {
  const bar: CheckInList = { id: '44444444-4444-4444-8444-444444444444', name: 'Bar', position: 1, ticketTypes: null, days: null, allowsReentry: true, capacity: null, dailyCheckoutTime: null };
  const scope = { eventId: 'event-1', day: 2, checkInListId: bar.id, code: 'GOOD-1' };
  async function barList(checkIn: NonNullable<Parameters<typeof makeDoorList>[0][number]['checkIn']>, generatedAt = '2026-07-11T10:00:00.000Z'): Promise<DoorList> {
    const list = await makeDoorList([{ code: 'GOOD-1', holderName: 'Ada Lovelace', checkIn }]);
    return { ...list, generatedAt, checkInListId: bar.id, checkInLists: [bar] };
  }
  /** Decided at the bar with `doorList`, whose sync began at `syncedAt` (the device clock; default: its `generatedAt`) and took number `syncSeq`. */
  const decideAtBar = async (doorList: DoorList, direction?: 'exit', syncedAt = doorList.generatedAt, syncSeq?: number) =>
    decideOffline(await openOfflineDb(), await input('GOOD-1', { doorList, doorListSyncedAt: syncedAt, doorListSyncSeq: syncSeq, checkInListId: bar.id, direction }));

  test("a denial 'Not inside' marks a guest the list holds inside as out: the next entry is a re-entry, the next exit 'Not inside'", async () => {
    const db = await openOfflineDb();
    const inside = await barList({ checkedInAt: '2026-07-11T09:00:00.000Z', checkedInBy: 'Gate B' });
    await rememberOnlineVerdict(db, scope, { verdict: { isValid: false, denial: { reason: 'not_inside' } }, staffName: 'Dana Demo', now: new Date('2026-07-11T10:30:00Z'), doorList: inside });
    expect(await decideAtBar(inside, 'exit')).toMatchObject({ isValid: false, denial: { reason: 'not_inside' } });
    expect(await decideAtBar(inside)).toMatchObject({ isValid: true });
  });

  test("'Already checked in' at 09:00 learned at 10:30 outlives a list generated at 10:00 (the guest came back in since), not one generated after 10:30", async () => {
    const db = await openOfflineDb();
    const left = await barList({ checkedInAt: '2026-07-11T09:00:00.000Z', checkedInBy: 'Gate B', lastEnteredAt: '2026-07-11T09:00:00.000Z', exitedAt: '2026-07-11T09:30:00.000Z' });
    const verdict = { isValid: false as const, denial: { reason: 'already_checked_in' as const, checkedInAt: '2026-07-11T09:00:00.000Z', checkedInBy: 'Gate B' } };
    await rememberOnlineVerdict(db, scope, { verdict, staffName: 'Dana Demo', now: new Date('2026-07-11T10:30:00Z'), doorList: left });
    expect(await decideAtBar(left)).toMatchObject({ isValid: false, denial: { reason: 'already_checked_in', checkedInBy: 'Gate B' } });
    expect(await decideAtBar({ ...left, generatedAt: '2026-07-11T10:31:00.000Z' }, undefined, '2026-07-11T10:31:00.000Z', await takeSyncSeq(db))).toMatchObject({ isValid: true });
  });

  // The phone's clock is not the server's (docs/decisions/130): the device compares when it learned
  // a verdict with when it began the list's sync, both on its own clock, never with `generatedAt`.
  const minutes = (count: number) => count * 60_000;
  const at = (serverTime: string, phoneOffsetMs: number) => new Date(Date.parse(serverTime) + phoneOffsetMs);

  test.each([
    ['5 minutes behind', -minutes(5)],
    ['on time', 0],
    ['7 minutes ahead', minutes(7)],
  ])("phone clock %s: 'Already checked in' outlives a list made before the answer, and yields to one synced after it", async (_clock, offset) => {
    const db = await openOfflineDb();
    // Server 10:28: the list is made, the guest out since 09:30. Server 10:29: the guest comes back
    // in at another gate. Server 10:30: this phone's verify is DENIED 'Already checked in'.
    const made = await barList({ checkedInAt: '2026-07-11T09:00:00.000Z', checkedInBy: 'Gate B', lastEnteredAt: '2026-07-11T09:00:00.000Z', exitedAt: '2026-07-11T09:30:00.000Z' }, '2026-07-11T10:28:00.000Z');
    const madeSyncedAt = at('2026-07-11T10:27:59Z', offset).toISOString();
    const madeSeq = await takeSyncSeq(db);
    const verdict = { isValid: false as const, denial: { reason: 'already_checked_in' as const, checkedInAt: '2026-07-11T09:00:00.000Z', checkedInBy: 'Gate B' } };
    await rememberOnlineVerdict(db, scope, { verdict, staffName: 'Dana Demo', now: at('2026-07-11T10:30:00Z', offset), doorList: made, doorListSyncedAt: madeSyncedAt, doorListSyncSeq: madeSeq });
    // The network fails: the guest is inside, whatever the phone's clock says.
    expect(await decideAtBar(made, undefined, madeSyncedAt, madeSeq)).toMatchObject({ isValid: false, denial: { reason: 'already_checked_in', checkedInBy: 'Gate B' } });
    // Server 10:31 a supervisor undoes the check-in at another phone; server 10:32 this phone syncs
    // again: that list knows (no check-in), and its word wins.
    const after = { ...(await makeDoorList([{ code: 'GOOD-1', holderName: 'Ada Lovelace' }])), generatedAt: '2026-07-11T10:32:00.000Z', checkInListId: bar.id, checkInLists: [bar] };
    expect(await decideAtBar(after, undefined, at('2026-07-11T10:31:59Z', offset).toISOString(), await takeSyncSeq(db))).toMatchObject({ isValid: true });
  });

  // The phone's clock set back or forward while it scans (by hand, or an automatic correction,
  // docs/decisions/130): the device orders its syncs and answers by its sync numbers, not its clock.
  const phone = (time: string) => new Date(`2026-07-11T${time}:00Z`);
  /** A sync at the bar beginning at `time` on the phone's clock; the list made then shows the guest not checked in. */
  async function syncAtBar(time: string) {
    const db = await openOfflineDb();
    const list = { ...(await makeDoorList([{ code: 'GOOD-1', holderName: 'Ada Lovelace' }])), checkInListId: bar.id, checkInLists: [bar] };
    const outcome = await syncDoorList(db, { eventId: 'event-1', day: 2, checkInListId: bar.id }, async () => list, phone(time));
    if (outcome.status !== 'synced') throw new Error('the sync did not store the list');
    return outcome.stored;
  }
  /** This phone's own online admission of the guest, answered at `time` on its clock. */
  async function admittedOnlineAt(time: string, kept: Awaited<ReturnType<typeof syncAtBar>>) {
    await rememberOnlineVerdict(await openOfflineDb(), scope, { verdict: { isValid: true, details: {} }, staffName: 'Dana Demo', now: phone(time), doorList: kept.list, doorListSyncedAt: kept.syncedAt, doorListSyncSeq: kept.syncSeq });
  }
  /** The same guest scanned offline at `time` on the phone's clock, with the kept list. */
  const scanOfflineAt = async (time: string, kept: Awaited<ReturnType<typeof syncAtBar>>) =>
    decideOffline(await openOfflineDb(), await input('GOOD-1', { doorList: kept.list, doorListSyncedAt: kept.syncedAt, doorListSyncSeq: kept.syncSeq, checkInListId: bar.id, now: phone(time) }));

  test('phone clock set back after a sync: its own online admission is not forgotten for the older list, and a list synced after it still wins', async () => {
    const old = await syncAtBar('10:30');
    // The clock is set back 10 minutes; the guest is admitted online at 10:21 by this clock.
    await admittedOnlineAt('10:21', old);
    // The network fails: the list from before the admission does not know it.
    expect(await scanOfflineAt('10:22', old)).toMatchObject({ isValid: false, denial: { reason: 'already_checked_in', checkedInBy: 'Dana Demo' } });
    // A supervisor undoes it at another phone; this phone's next sync (10:23 by its clock) knows.
    expect(await scanOfflineAt('10:24', await syncAtBar('10:23'))).toMatchObject({ isValid: true });
  });

  test('a list and a record kept before the sync numbers: the older side loses, and a time later than now is never the newer', () => {
    const now = phone('10:30');
    // A record from before the numbers yields to a list synced since; a list from before them to a record learned since.
    expect(isListNewerThan({ syncedAt: '2026-07-11T10:00:00.000Z', syncSeq: 1, now }, { knownAt: '2026-07-11T10:20:00.000Z' })).toBe(true);
    expect(isListNewerThan({ syncedAt: '2026-07-11T10:20:00.000Z', now }, { knownAt: '2026-07-11T10:00:00.000Z', knownSeq: 0 })).toBe(false);
    // Both from before: the clock, a list 'synced' after now is not newer; a record 'learned' after now is not.
    expect(isListNewerThan({ syncedAt: '2026-07-11T10:20:00.000Z', now }, { knownAt: '2026-07-11T10:00:00.000Z' })).toBe(true);
    expect(isListNewerThan({ syncedAt: '2026-07-11T12:00:00.000Z', now }, { knownAt: '2026-07-11T10:00:00.000Z' })).toBe(false);
    expect(isListNewerThan({ syncedAt: '2026-07-11T10:20:00.000Z', now }, { knownAt: '2026-07-11T12:00:00.000Z' })).toBe(true);
  });

  test('phone clock set forward then back: an answer learned at the wrong time neither loses to an older list nor outlives a newer one', async () => {
    // The clock runs 2 hours ahead for a while: a sync then, and the clock comes back.
    const early = await syncAtBar('12:30');
    await admittedOnlineAt('10:35', early);
    expect(await scanOfflineAt('10:36', early)).toMatchObject({ isValid: false, denial: { reason: 'already_checked_in' } });
    // Ahead again when the next admission's answer comes, back before the sync that follows it: the
    // list made after the answer (showing the check-in undone) wins.
    await admittedOnlineAt('12:40', early);
    expect(await scanOfflineAt('10:50', await syncAtBar('10:45'))).toMatchObject({ isValid: true });
  });

  test('a denial for another reason (not valid today) changes nothing the device knows', async () => {
    const db = await openOfflineDb();
    const left = await barList({ checkedInAt: '2026-07-11T09:00:00.000Z', checkedInBy: 'Gate B', lastEnteredAt: '2026-07-11T09:00:00.000Z', exitedAt: '2026-07-11T09:30:00.000Z' });
    await rememberOnlineVerdict(db, scope, { verdict: { isValid: false, denial: { reason: 'not_valid_today' } }, staffName: 'Dana Demo', now: new Date('2026-07-11T10:30:00Z'), doorList: left });
    expect(await decideAtBar(left)).toMatchObject({ isValid: true });
  });
});

describe('check-in notes offline (docs/decisions/102)', () => {
  test("an offline verdict shows the ticket's own note and its type's, as the server combines them, on approval and on 'Already checked in'", async () => {
    const db = await openOfflineDb();
    const doorList = await makeDoorList(
      [
        { code: 'NOTE-VIP-1', holderName: 'Vera Vip', ticketType: 'VIP', checkInNote: 'Wheelchair access' },
        { code: 'NOTE-GEN-1', holderName: 'Gus Gen', ticketType: 'General', requiresAttention: true },
        { code: 'NOTE-GEN-2', holderName: 'Gil Gen', ticketType: 'General' },
      ],
      { ticketTypes: [{ name: 'VIP', checkInNote: 'Green wristband', requiresAttention: true, days: null }] },
    );
    const decide = async (code: string) => decideOffline(db, { ...(await input(code)), doorList });
    expect(await decide('NOTE-VIP-1')).toMatchObject({ isValid: true, attention: { note: 'Wheelchair access\nGreen wristband', requiresAttention: true } });
    expect(await decide('NOTE-VIP-1')).toMatchObject({ isValid: false, denial: { reason: 'already_checked_in' }, attention: { note: 'Wheelchair access\nGreen wristband', requiresAttention: true } });
    expect(await decide('NOTE-GEN-1')).toMatchObject({ isValid: true, attention: { note: '', requiresAttention: true } });
    expect(await decide('NOTE-GEN-2')).not.toHaveProperty('attention');
  });
});

describe('codes too weak for the door list (docs/decisions/087)', () => {
  test('a weak code the list leaves out is not decided on the device (it may be a valid ticket: it needs the server)', async () => {
    const db = await openOfflineDb();
    const list = await makeDoorList([{ code: 'GOOD-1', holderName: 'Ada' }], { hasUnlistedCodes: true });
    // An 8-digit barcode: the list cannot hold it without giving it away.
    expect(await decideOffline(db, await input('12345678', { doorList: list }))).toBeNull();
    // A code strong enough to be listed, and not listed, is no ticket of this event.
    expect(await decideOffline(db, await input('NO-SUCH-TICKET-0000', { doorList: list }))).toMatchObject({ isValid: false, denial: { reason: 'not_found' } });
    // Listed codes are decided as before, weak or not (an older server listed every code).
    expect(await decideOffline(db, await input('GOOD-1', { doorList: list }))).toMatchObject({ isValid: true });
  });

  test("a weak code this device admitted is denied 'Already checked in', not left to the server, even after a newer list", async () => {
    const db = await openOfflineDb();
    const list = await makeDoorList([{ code: 'GOOD-1', holderName: 'Ada' }], { hasUnlistedCodes: true });
    await rememberOnlineCheckIn(db, { eventId: 'event-1', day: 2, code: '12345678' }, { checkedInAt: new Date('2026-07-11T10:30:00Z'), checkedInBy: 'Dana Demo' });
    const denied = { isValid: false, denial: { reason: 'already_checked_in', checkedInAt: '2026-07-11T10:30:00.000Z', checkedInBy: 'Dana Demo' } };
    expect(await decideOffline(db, await input('12345678', { doorList: list }))).toEqual(denied);
    // A list generated after it cannot know better: weak codes are never on it.
    const newer = { ...list, generatedAt: '2026-07-11T11:00:00.000Z' };
    expect(await decideOffline(db, await input('12345678', { doorList: newer }))).toEqual(denied);
    // Admitted offline under a list of an older server (which listed weak codes), then the new list arrives.
    const older = await makeDoorList([{ code: '000042', holderName: 'Nina' }]);
    expect(await decideOffline(db, await input('000042', { doorList: older }))).toMatchObject({ isValid: true });
    expect(await decideOffline(db, await input('000042', { doorList: list, now: new Date('2026-07-11T12:05:00Z') }))).toMatchObject({
      isValid: false,
      denial: { reason: 'already_checked_in', checkedInAt: NOW.toISOString(), checkedInBy: 'Dana Demo' },
    });
  });

  test('a signed ticket of a weak code the list leaves out is not decided from its signature: it may be revoked or checked in at another gate', async () => {
    const db = await openOfflineDb();
    const vector = SIGNED_TICKET_VECTOR;
    const listEvent = { ...doorListEvent, id: vector.eventId };
    const keys = [{ keyId: vector.keyId, publicKey: vector.publicKey }];
    const secretKey = Uint8Array.from(vector.secretKeyHex.match(/../g) ?? [], (hex) => Number.parseInt(hex, 16));
    const sign = async (code: string) => {
      const payload = signedTicketPayloadBytes({ keyId: vector.keyId, eventId: vector.eventId, code, days: null });
      return formatSignedTicket(payload, await signAsync(payload, secretKey));
    };
    const decide = async (code: string, doorList: Awaited<ReturnType<typeof makeDoorList>>) =>
      decideOffline(db, { eventId: vector.eventId, day: 2, code, now: NOW, staffName: 'Dana Demo', doorList, signingKeys: keys, event: listEvent });
    // On the server this ticket is revoked, or checked in at gate B: the list, which leaves it out, cannot say so.
    const list = await makeDoorList([], { event: listEvent, hasUnlistedCodes: true });
    expect(await decide(await sign('12345678'), list)).toBeNull();
    // Admitted by this device (here online): denied as checked in, signed or typed.
    await rememberOnlineCheckIn(db, { eventId: vector.eventId, day: 2, code: '12345678' }, { checkedInAt: new Date('2026-07-11T10:30:00Z'), checkedInBy: 'Dana Demo' });
    expect(await decide(await sign('12345678'), list)).toMatchObject({ isValid: false, denial: { reason: 'already_checked_in', checkedInBy: 'Dana Demo' } });
    // A forged text is still an unknown code; a strong signed code the list does not hold is decided from its signature (a ticket newer than the list).
    const genuine = await sign('12345678');
    const forged = `${genuine.slice(0, -3)}${genuine.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    expect(await decide(forged, list)).toMatchObject({ isValid: false, denial: { reason: 'not_found' } });
    expect(await decide(await sign('GC-ABCDEFGHJKMNPQRS'), list)).toMatchObject({ isValid: true });
    // A list of an older server (no hasUnlistedCodes): decided from the signature as before.
    expect(await decide(await sign('000042'), await makeDoorList([], { event: listEvent }))).toMatchObject({ isValid: true });
  });

  test('without unlisted codes in the event, an unknown weak code is denied not_found as before', async () => {
    const db = await openOfflineDb();
    expect(await decideOffline(db, await input('12345678'))).toMatchObject({ isValid: false, denial: { reason: 'not_found' } });
  });
});

describe('signed tickets without a door list (issue 12 item 6)', () => {
  const vector = SIGNED_TICKET_VECTOR;
  const signedEvent: CheckInEvent & { name: string } = { ...doorListEvent, id: vector.eventId };
  const keys = [{ keyId: vector.keyId, publicKey: vector.publicKey }];
  const signedInput = (overrides: Partial<OfflineDecisionInput>): OfflineDecisionInput => ({
    eventId: vector.eventId,
    day: 1,
    code: vector.qrText,
    now: NOW,
    staffName: 'Dana Demo',
    doorList: null,
    signingKeys: keys,
    event: signedEvent,
    ...overrides,
  });

  test('a genuine signed ticket of this event and day is approved, and the same again denied', async () => {
    const db = await openOfflineDb();
    expect(await decideOffline(db, signedInput({}))).toMatchObject({ isValid: true });
    expect(await decideOffline(db, signedInput({}))).toMatchObject({ isValid: false, denial: { reason: 'already_checked_in' } });
  });

  test('a day its payload does not admit is denied, a forged signature is an unknown code, an unknown key too', async () => {
    const db = await openOfflineDb();
    expect(await decideOffline(db, signedInput({ day: 2 }))).toMatchObject({ isValid: false, denial: { reason: 'not_valid_today' } });
    const forged = `${vector.qrText.slice(0, -3)}${vector.qrText.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    expect(await decideOffline(db, signedInput({ code: forged }))).toMatchObject({ isValid: false, denial: { reason: 'not_found' } });
    expect(await decideOffline(db, signedInput({ signingKeys: [] }))).toMatchObject({ isValid: false, denial: { reason: 'not_found' } });
  });

  test('a ticket signed by a key the door list names as revoked is an unknown code, whatever keys the device kept (docs/decisions/089)', async () => {
    const db = await openOfflineDb();
    const listEvent = { ...doorListEvent, id: vector.eventId };
    const revoking = await makeDoorList([], { event: listEvent, day: 1, revokedKeyIds: [vector.keyId] });
    expect(await decideOffline(db, signedInput({ doorList: revoking }))).toMatchObject({ isValid: false, denial: { reason: 'not_found' } });
    // Even when its code is on the list: the server refuses the text, so does the device.
    const listed = await makeDoorList([{ code: parseSignedTicket(vector.qrText)?.code ?? '', holderName: 'Vera Vector' }], { event: listEvent, day: 1, revokedKeyIds: [vector.keyId] });
    expect(await decideOffline(db, signedInput({ doorList: listed }))).toMatchObject({ isValid: false, denial: { reason: 'not_found' } });
    // Another key revoked: this one still admits.
    const other = await makeDoorList([], { event: listEvent, day: 1, revokedKeyIds: ['AAAAAAAAAAAA'] });
    expect(await decideOffline(db, signedInput({ doorList: other }))).toMatchObject({ isValid: true });
  });

  test("a genuine ticket of another event is denied wrong_event", async () => {
    const db = await openOfflineDb();
    const otherEvent = { ...signedEvent, id: '11111111-2222-4333-8444-555555555555' };
    expect(await decideOffline(db, signedInput({ eventId: otherEvent.id, event: otherEvent }))).toMatchObject({ isValid: false, denial: { reason: 'wrong_event' } });
  });

  test('WebCrypto and the @noble/ed25519 fallback agree on the RFC 8032 test vector', async () => {
    const parsed = parseSignedTicket(vector.qrText);
    if (!parsed) throw new Error('the vector does not parse');
    expect(await hasWebCryptoEd25519()).toBe(true);
    expect(await verifyTicketSignature(parsed, keys)).toBe(true);
    expect(await verifyTicketSignature(parsed, keys, { engine: 'noble' })).toBe(true);
    const tampered = { ...parsed, signedBytes: new Uint8Array([...parsed.signedBytes.slice(0, -1), 0x32]) };
    expect(await verifyTicketSignature(tampered, keys)).toBe(false);
    expect(await verifyTicketSignature(tampered, keys, { engine: 'noble' })).toBe(false);
  });
});

describe('entry and exit on the device (docs/decisions/113): the same pure rule as the server', () => {
  const reentry: CheckInList = { id: 'list-bar', name: 'Bar', position: 1, ticketTypes: null, days: null, allowsReentry: true, capacity: null, dailyCheckoutTime: null };
  const at = (minute: number) => new Date(`2026-07-11T12:${String(minute).padStart(2, '0')}:00Z`);
  async function atList(code: string, list: typeof reentry, overrides: Partial<OfflineDecisionInput> = {}) {
    const doorList = { ...(await makeDoorList([{ code: 'GOOD-1', holderName: 'Ada Lovelace', ticketType: 'VIP' }])), checkInListId: list.id, checkInLists: [list] };
    return input(code, { doorList, checkInListId: list.id, ...overrides });
  }

  test("a guest enters, exits ('Exit recorded'), enters again; an exit of someone not inside is DENIED 'Not inside'", async () => {
    const db = await openOfflineDb();
    expect(await decideOffline(db, await atList('GOOD-1', reentry, { direction: 'exit', now: at(0) }))).toEqual({ isValid: false, denial: { reason: 'not_inside' } });
    expect(await decideOffline(db, await atList('GOOD-1', reentry, { now: at(1) }))).toMatchObject({ isValid: true });
    expect(await decideOffline(db, await atList('GOOD-1', reentry, { now: at(2) }))).toMatchObject({ isValid: false, denial: { reason: 'already_checked_in' } });
    const exit = await decideOffline(db, await atList('GOOD-1', reentry, { direction: 'exit', now: at(3) }));
    expect(exit).toMatchObject({ isValid: true, isExit: true, details: { holderName: 'Ada Lovelace' } });
    expect(await decideOffline(db, await atList('GOOD-1', reentry, { direction: 'exit', now: at(4) }))).toMatchObject({ isValid: false, denial: { reason: 'not_inside' } });
    const again = await decideOffline(db, await atList('GOOD-1', reentry, { now: at(5) }));
    expect(again).toMatchObject({ isValid: true });
    expect(again).not.toHaveProperty('isExit');
  });

  test("at a list with a capacity the device admits without counting and says so ('capacity not checked offline')", async () => {
    const db = await openOfflineDb();
    const verdict = await decideOffline(db, await atList('GOOD-1', { ...reentry, capacity: 2 }));
    expect(verdict).toMatchObject({ isValid: true, isCapacityUnchecked: true });
    // Without a capacity nothing is said.
    const other = await decideOffline(await openOfflineDb(), await atList('GOOD-1', { ...reentry, id: 'list-other' }));
    expect(other).not.toHaveProperty('isCapacityUnchecked');
  });

  test("at an event with a capacity (docs/decisions/147) every offline entry says 'capacity not checked offline', at a list without one too", async () => {
    const made = await makeDoorList([{ code: 'GOOD-1', holderName: 'Ada Lovelace', ticketType: 'VIP' }]);
    const doorList = { ...made, event: { ...made.event, capacity: 800 }, checkInListId: reentry.id, checkInLists: [reentry] };
    expect(await decideOffline(await openOfflineDb(), await input('GOOD-1', { doorList, checkInListId: reentry.id }))).toMatchObject({ isValid: true, isCapacityUnchecked: true });
  });
});
