/**
 * The door list keeps codes and names secret only as far as the codes resist guessing
 * (docs/decisions/087): an imported code under DOOR_LIST_MIN_CODE_BITS is imported and valid at
 * verify, but its ticket is on no door list — full or changes — and the import names it. Proven the
 * attacker's way: every code of the weak codes' whole space hashed against the downloaded list finds
 * nothing. PGlite or PostgreSQL.
 */
import { apiPaths, DOOR_LIST_FORMAT, DoorList, doorListLookupKey, isDoorListCode, offlinePaths, openHolderName, ticketCodeStrengthBits, VerifyTicketResponse } from '@gatecheck/contract';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO_TODAY_DAY_NUMBER, DEMO_USER } from '../src/db/seed.ts';
import { createSession } from '../src/services/sessions.ts';
import { importTicketsCsv } from '../src/services/tickets-import.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { demoIds, userIdOf } from './helpers/fixtures.ts';
import { api, bearer, createTestApp, TEST_DATABASE_KIND, type TestApp } from './helpers/test-app.ts';

const DAY = DEMO_TODAY_DAY_NUMBER;
let t: TestApp;
let eventId: string;
let staff: string;

beforeAll(async () => {
  t = await createTestApp();
  const ids = await demoIds(t.database.db);
  eventId = ids.liveEventId;
  staff = (await createSession(t.database.db, await userIdOf(t.database.db, DEMO_USER.username), 600_000)).token;
});
afterAll(async () => {
  await t.close();
});

async function readList(since?: string): Promise<DoorList> {
  const query = since === undefined ? '' : `?since=${since}`;
  const response = await t.app.inject({ method: 'GET', url: api(`${offlinePaths.doorList(eventId, DAY)}${query}`), headers: bearer(staff) });
  expect(response.statusCode).toBe(200);
  return DoorList.parse(response.json());
}

/** Every lookup key of `list` found by hashing each 4-digit code (0000–9999), as a staff member with the list would. */
async function recoveredFourDigitCodes(list: DoorList): Promise<string[]> {
  const keys = new Set(list.tickets.map((entry) => entry.lookupKey));
  const found: string[] = [];
  for (let n = 0; n < 10_000; n++) {
    const guess = String(n).padStart(4, '0');
    if (keys.has(await doorListLookupKey(eventId, guess))) found.push(guess);
  }
  return found;
}

test('the strength estimate: short numeric codes and mixed codes under 64 bits are weak; generated-shape and long codes are not', () => {
  expect(isDoorListCode('4711')).toBe(false);
  expect(isDoorListCode('12345678')).toBe(false); // an 8-digit barcode: about 26.6 bits
  expect(isDoorListCode('AB12CD34EF56')).toBe(false); // 12 letters and digits: under 53 bits
  expect(isDoorListCode('12345678901234567890')).toBe(true); // 20 digits: 66.4 bits
  expect(isDoorListCode('GC-2222222222222222')).toBe(true); // the weakest a generated code can be: 64.1 bits
  expect(ticketCodeStrengthBits('ab12')).toBe(ticketCodeStrengthBits('AB12'));
});

test(`imported weak codes are valid at verify but on no door list, full or changes; the import names each (${TEST_DATABASE_KIND})`, async () => {
  const strong = `VIP-${randomUUID().toUpperCase()}`;
  const csv = ['code,holder_name,ticket_type,days', '4711,Wanda Weak,GA,all', '0815,Otto Short,GA,all', `${strong},Stella Strong,VIP,all`].join('\n');
  const summary = await importTicketsCsv(t.database.db, { eventId, csv });
  expect(summary.imported).toBe(3);
  expect(summary.offlineOnly).toEqual({
    count: 2,
    rows: [
      { line: 2, code: '4711', bits: ticketCodeStrengthBits('4711') },
      { line: 3, code: '0815', bits: ticketCodeStrengthBits('0815') },
    ],
  });

  const full = await readList();
  expect(full.hasUnlistedCodes).toBe(true);
  // Built by the rules that leave weak codes out: a device holding an older list downloads it whole again.
  expect(full.format).toBe(DOOR_LIST_FORMAT);
  expect(await recoveredFourDigitCodes(full)).toEqual([]);
  // The strong ticket is there, its name opened with its code.
  const key = await doorListLookupKey(eventId, strong);
  const entry = full.tickets.find((candidate) => candidate.lookupKey === key);
  if (!entry) throw new Error('the strong code is not on the list');
  expect(await openHolderName(eventId, strong, entry.holderName)).toBe('Stella Strong');

  // A weak ticket added after the download is not in the changes either, which still say some are left out.
  await insertTickets(t.database.db, [{ code: '2024', eventId, holderName: 'Late Larry', ticketType: 'GA' }]);
  const changes = await readList(full.cursor);
  expect(changes.hasUnlistedCodes).toBe(true);
  expect(await recoveredFourDigitCodes(changes)).toEqual([]);

  // Valid tickets at the server all the same.
  const response = await t.app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(staff), payload: { eventId, qrCode: '4711', day: DAY } });
  expect(VerifyTicketResponse.parse(response.json())).toMatchObject({ isValid: true, holderName: 'Wanda Weak' });
});

test('an event with only strong codes says none are left out', async () => {
  // The demo's single-day event: generated codes only.
  const ids = await demoIds(t.database.db);
  const response = await t.app.inject({ method: 'GET', url: api(offlinePaths.doorList(ids.singleDayEventId, 1)), headers: bearer(staff) });
  const list = DoorList.parse(response.json());
  expect(list.tickets.length).toBeGreaterThan(0);
  expect(list.hasUnlistedCodes).toBe(false);
});
