import { describe, expect, test } from 'vitest';
import { decideCheckIn } from './check-in-rules.ts';
import {
  type DoorList,
  type DoorListEntry,
  doorListCheckInInput,
  doorListLookupKey,
  isDoorListCode,
  mergeDoorList,
  openHolderName,
  sealHolderName,
  ticketCodeStrengthBits,
} from './door-list.ts';
import { SIGNED_TICKET_VECTOR } from './signed-ticket-vectors.ts';
import { fromBase64Url, fromUtf8, toBase64Url, utf8 } from './bytes.ts';

const list: Pick<DoorList, 'event'> = {
  event: {
    id: 'event-1',
    organizationId: 'org-1',
    name: 'Harbour Lights',
    status: 'live',
    timeZone: 'Europe/London',
    dayCutoff: '06:00',
    allowsScanningOutsideDays: false,
    days: [
      { day: 1, name: 'Opening Night', date: '2026-11-23' },
      { day: 2, name: 'Main Day', date: '2026-11-24' },
      { day: 3, name: 'Closing Day', date: '2026-11-25' },
    ],
  },
};
const entry: DoorListEntry = {
  lookupKey: 'k',
  ticketType: 'Weekend',
  admittedDays: null,
  isRevoked: false,
  holderName: { iv: '', data: '' },
  checkIn: null,
  requiresAttention: false,
};
/** Tuesday 24 Nov 2026, 15:00 in London: day 2 is open. */
const duringDay2 = new Date('2026-11-24T15:00:00Z');
const earlier = new Date('2026-11-24T14:00:00Z');

describe('decideCheckIn fed from a door list (one rule, two callers)', () => {
  test.each<[string, DoorListEntry | null, number, Date, { checkedInAt: Date; checkedInBy: string } | null, string]>([
    ['no entry under the lookup key', null, 2, duringDay2, null, 'not_found'],
    ['a revoked ticket', { ...entry, isRevoked: true }, 2, duringDay2, null, 'revoked'],
    ['a day the ticket does not admit', { ...entry, admittedDays: [3] }, 2, duringDay2, null, 'not_valid_today'],
    ['a day the event does not have', entry, 4, duringDay2, null, 'not_valid_today'],
    ["a day that is not today on the event's calendar", entry, 3, duringDay2, null, 'not_event_day'],
    ['checked in in the downloaded list', { ...entry, checkIn: { checkedInAt: earlier.toISOString(), checkedInBy: 'Gate 2' } }, 2, duringDay2, null, 'already_checked_in'],
    ['checked in on this device since the download', entry, 2, duringDay2, { checkedInAt: earlier, checkedInBy: 'Me' }, 'already_checked_in'],
  ])('%s → denied %s', (_name, found, day, now, local, reason) => {
    expect(decideCheckIn(doorListCheckInInput(list, day, found, now, local))).toMatchObject({ outcome: 'denied', reason });
  });

  test('a listed, unused ticket on its day is checked in', () => {
    expect(decideCheckIn(doorListCheckInInput(list, 2, { ...entry, admittedDays: [2] }, duringDay2))).toEqual({ outcome: 'check_in' });
  });

  test('a draft event admits no one offline either', () => {
    const draft = { event: { ...list.event, status: 'draft' as const } };
    expect(decideCheckIn(doorListCheckInInput(draft, 2, entry, duringDay2))).toMatchObject({ outcome: 'denied', reason: 'event_not_active' });
  });

  test("the device's own check-in wins over the list's, and says who and when", () => {
    const listed = { ...entry, checkIn: { checkedInAt: earlier.toISOString(), checkedInBy: 'Gate 2' } };
    const decision = decideCheckIn(doorListCheckInInput(list, 2, listed, duringDay2, { checkedInAt: duringDay2, checkedInBy: 'Me' }));
    expect(decision).toMatchObject({ reason: 'already_checked_in', checkedInBy: 'Me', checkedInAt: duringDay2 });
  });
});

describe('lookup keys', () => {
  test('any letter case and surrounding spaces give the same key, as the server matches codes', async () => {
    const key = await doorListLookupKey('event-1', 'GC-ABCD');
    expect(await doorListLookupKey('event-1', ' gc-abcd ')).toBe(key);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test('another code or another event gives another key', async () => {
    const key = await doorListLookupKey('event-1', 'GC-ABCD');
    expect(await doorListLookupKey('event-1', 'GC-ABCE')).not.toBe(key);
    expect(await doorListLookupKey('event-2', 'GC-ABCD')).not.toBe(key);
  });

  test('a fixed vector a device implementation can check against', async () => {
    // base64url(SHA-256("gatecheck-door-list-v1\nevent-1\nGC-ABCD")), computed independently with
    // `printf 'gatecheck-door-list-v1\nevent-1\nGC-ABCD' | openssl dgst -sha256 -binary | basenc --base64url`.
    expect(await doorListLookupKey('event-1', 'gc-abcd')).toBe(LOOKUP_VECTOR);
  });
});

describe('holder names sealed with the code', () => {
  test('the scanned code (any case) opens it; the text never appears in the sealed form', async () => {
    const sealed = await sealHolderName('event-1', 'GC-ABCD', 'Zoë Ångström');
    const ciphertext = fromBase64Url(sealed.data);
    // AES-GCM: as many bytes as the name's UTF-8 plus a 16-byte tag, and not the name's bytes.
    expect(ciphertext.length).toBe(utf8('Zoë Ångström').length + 16);
    expect(fromUtf8(ciphertext)).not.toContain('Ångström');
    expect(fromBase64Url(sealed.iv).length).toBe(12);
    expect(await openHolderName('event-1', 'gc-abcd', sealed)).toBe('Zoë Ångström');
  });

  test('another code, another event or altered text cannot open it', async () => {
    const sealed = await sealHolderName('event-1', 'GC-ABCD', 'Zoë');
    await expect(openHolderName('event-1', 'GC-ABCE', sealed)).rejects.toThrow();
    await expect(openHolderName('event-2', 'GC-ABCD', sealed)).rejects.toThrow();
    const bytes = fromBase64Url(sealed.data);
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    await expect(openHolderName('event-1', 'GC-ABCD', { ...sealed, data: toBase64Url(bytes) })).rejects.toThrow();
  });

  test('two seals of one name differ (a fresh IV each time)', async () => {
    const a = await sealHolderName('event-1', 'GC-ABCD', 'Zoë');
    const b = await sealHolderName('event-1', 'GC-ABCD', 'Zoë');
    expect(a.iv).not.toBe(b.iv);
  });
});

describe('base64url', () => {
  test.each([
    ['', ''],
    ['f', 'Zg'],
    ['fo', 'Zm8'],
    ['foo', 'Zm9v'],
    ['foob', 'Zm9vYg'],
  ])('%j ↔ %j (RFC 4648 §10, unpadded)', (plain, encoded) => {
    const bytes = Uint8Array.from(plain, (char) => char.charCodeAt(0));
    expect(toBase64Url(bytes)).toBe(encoded);
    expect(fromBase64Url(encoded)).toEqual(bytes);
  });

  test('the URL-safe characters, and refusals', () => {
    expect(toBase64Url(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
    expect(() => fromBase64Url('a+b')).toThrow(/bad character/);
    expect(() => fromBase64Url('abcde')).toThrow(/impossible length/);
  });
});

const LOOKUP_VECTOR = '5KTt_aLqdJGs1ndk-cxgufQNFqtaiSJZtxkasYvKMvM';

describe('mergeDoorList: applying a download', () => {
  const full: DoorList = { ...list, day: 2, isComplete: true, cursor: '100', generatedAt: '2026-11-24T15:00:00.000Z', hasUnlistedCodes: false, revokedKeyIds: [], checkInLists: [], format: 2, ticketTypes: [], tickets: [
    { ...entry, lookupKey: 'a' },
    { ...entry, lookupKey: 'b' },
  ] };
  const changes: DoorList = { ...full, isComplete: false, cursor: '120', generatedAt: '2026-11-24T15:01:00.000Z', tickets: [
    { ...entry, lookupKey: 'b', isRevoked: true },
    { ...entry, lookupKey: 'c' },
  ] };

  test('changes replace entries by lookup key, add new ones, and move the cursor', () => {
    const merged = mergeDoorList(full, changes);
    expect(merged.cursor).toBe('120');
    expect(merged.isComplete).toBe(true);
    expect(merged.tickets.map((e) => [e.lookupKey, e.isRevoked])).toEqual([['a', false], ['b', true], ['c', false]]);
  });

  test('once some codes were left out, a change list that carries none of them does not forget it; revoked keys come whole each time', () => {
    const withUnlisted = { ...full, hasUnlistedCodes: true };
    const merged = mergeDoorList(withUnlisted, { ...changes, hasUnlistedCodes: false, revokedKeyIds: ['k1'] });
    expect(merged.hasUnlistedCodes).toBe(true);
    expect(merged.revokedKeyIds).toEqual(['k1']);
    expect(mergeDoorList(full, { ...changes, hasUnlistedCodes: true }).hasUnlistedCodes).toBe(true);
  });

  test('changes in another format are refused: the kept list may hold entries the new rules leave out', () => {
    expect(() => mergeDoorList({ ...full, format: 1 }, changes)).toThrow(/format/);
  });

  test('a change that arrives twice changes nothing the second time', () => {
    const once = mergeDoorList(full, changes);
    expect(mergeDoorList(once, changes)).toEqual(once);
  });

  test('an undone check-in comes as the entry without it', () => {
    const checkedIn = mergeDoorList(full, { ...changes, tickets: [{ ...entry, lookupKey: 'a', checkIn: { checkedInAt: '2026-11-24T14:00:00.000Z', checkedInBy: 'Gate 2' } }] });
    const undone = mergeDoorList(checkedIn, { ...changes, cursor: '130', tickets: [{ ...entry, lookupKey: 'a', checkIn: null }] });
    expect(undone.tickets.find((e) => e.lookupKey === 'a')?.checkIn).toBeNull();
  });

  test('a full list replaces everything; changes without a list, or for another day, are refused', () => {
    expect(mergeDoorList(mergeDoorList(full, changes), full)).toEqual(full);
    expect(() => mergeDoorList(null, changes)).toThrow(/full list/);
    expect(() => mergeDoorList(full, { ...changes, day: 3 })).toThrow(/another event or day/);
  });
});

describe('ticketCodeStrengthBits / isDoorListCode (docs/decisions/087)', () => {
  test('each digit counts log2(10), each letter log2(26) whatever its case, anything else log2(3)', () => {
    expect(ticketCodeStrengthBits('123456')).toBeCloseTo(6 * Math.log2(10));
    expect(ticketCodeStrengthBits('ab-1')).toBeCloseTo(2 * Math.log2(26) + Math.log2(3) + Math.log2(10));
    expect(ticketCodeStrengthBits('  GC-1  ')).toBe(ticketCodeStrengthBits('gc-1'));
  });

  test('a signed text is judged by the code it carries', () => {
    expect(ticketCodeStrengthBits(SIGNED_TICKET_VECTOR.qrText)).toBe(ticketCodeStrengthBits(SIGNED_TICKET_VECTOR.code));
  });

  test('64 bits is the line: 19 digits are under it, 20 over; every generated code is over', () => {
    expect(isDoorListCode('1'.repeat(19))).toBe(false);
    expect(isDoorListCode('1'.repeat(20))).toBe(true);
    expect(isDoorListCode('GC-2222222222222222')).toBe(true);
    expect(isDoorListCode('12345678')).toBe(false);
  });
});

describe('a door list with check-in lists (docs/decisions/100)', () => {
  const lists = [
    { id: 'main', name: 'Main entrance', position: 1, ticketTypes: null, days: null },
    { id: 'vip', name: 'VIP Gate', position: 2, ticketTypes: ['VIP'], days: null },
  ];
  const base: DoorList = { ...list, day: 2, isComplete: true, cursor: '100', generatedAt: '2026-11-24T15:00:00.000Z', hasUnlistedCodes: false, revokedKeyIds: [], format: 2, ticketTypes: [], tickets: [], checkInLists: lists };

  test("the device decides at the list's list: a ticket of another type is denied naming where it is valid", () => {
    const atGate = { ...base, checkInListId: 'vip' };
    expect(decideCheckIn(doorListCheckInInput(atGate, 2, entry, duringDay2))).toMatchObject({
      outcome: 'denied',
      reason: 'not_on_list',
      message: 'Not valid at this entrance — valid at Main entrance',
    });
    expect(decideCheckIn(doorListCheckInInput(atGate, 2, { ...entry, ticketType: 'VIP' }, duringDay2))).toEqual({ outcome: 'check_in' });
    // Without a list named: the first; a list from an older server (no lists): as before lists.
    expect(decideCheckIn(doorListCheckInInput(base, 2, entry, duringDay2))).toEqual({ outcome: 'check_in' });
    expect(decideCheckIn(doorListCheckInInput({ ...base, checkInLists: [] }, 2, entry, duringDay2))).toEqual({ outcome: 'check_in' });
  });

  test('changes for another check-in list are refused: the kept check-ins are of its own list', () => {
    expect(() => mergeDoorList({ ...base, checkInListId: 'main' }, { ...base, isComplete: false, checkInListId: 'vip' })).toThrow(/check-in list/);
    expect(mergeDoorList({ ...base, checkInListId: 'vip' }, { ...base, isComplete: false, checkInListId: 'vip' }).checkInListId).toBe('vip');
  });
});
