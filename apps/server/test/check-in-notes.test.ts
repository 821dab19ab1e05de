/**
 * Check-in notes and the attention flag (docs/decisions/102), end to end on the server: set by the
 * CSV import, the CLI and the API; carried by verify (APPROVED and DENIED 'already checked in'), the
 * manual check-in, the attendee search and the door list (where a device combines them exactly as
 * the server does); bad notes refused with { code, message } and nothing written.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ApiErrorBody,
  apiPaths,
  AttendeeSearchResponse,
  checkInAttention,
  DoorList,
  doorListAttention,
  doorListLookupKey,
  offlinePaths,
  supervisorPaths,
  TicketType,
  TicketTypesResponse,
  VerifyTicketResponse,
} from '@gatecheck/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { tickets, ticketTypes } from '../src/db/schema.ts';
import { createCliFixture, idIn, type CliFixture } from './cli/cli-harness.ts';
import { api, bearer, login } from './helpers/test-app.ts';

let cli: CliFixture;
let app: FastifyInstance;
let staffToken: string;
let supervisorToken: string;
let adminToken: string;
let eventId: string;

const PASSWORD = 'gate-staff-pass';
/** Codes strong enough for a door list (64 bits and more). */
const VIP_CODE = 'NOTE-VIP-7Q2MZK4D3XW5HJ6P';
const PLAIN_CODE = 'NOTE-GEN-8R3NAL5E4YX6JK7Q';
const WHEELCHAIR_CODE = 'NOTE-GEN-9S4PBM6F5ZY7KL8R';
const FLAGGED_CODE = 'NOTE-GEN-2T5QCN7G6AZ8LM9S';

beforeAll(async () => {
  cli = await createCliFixture();
  await cli.ok('org', 'create', '--name', 'Northwind Live');
  for (const [username, role] of [['gate', 'staff'], ['lead', 'supervisor'], ['boss', 'admin']] as const) {
    await cli.ok('user', 'create', '--email', `${username}@example.com`, '--username', username, '--name', `${username} person`, '--password', PASSWORD);
    await cli.ok('org', 'add-member', '--org', 'Northwind Live', '--user', username, '--role', role);
  }
  eventId = idIn(await cli.ok('event', 'create', '--org', 'Northwind Live', '--title', 'Harbour Lights', '--date', '2026-12-01', '--status', 'live'));
  app = await buildApp({ config: loadConfig(cli.env), db: cli.database.db, clock: () => new Date('2026-12-01T12:00:00Z') });
  staffToken = await login(app, 'gate', PASSWORD);
  supervisorToken = await login(app, 'lead', PASSWORD);
  adminToken = await login(app, 'boss', PASSWORD);

  const csv = [
    'code,holder_name,ticket_type,days,note,attention',
    `${VIP_CODE},Vera Vip,VIP,all,"Escort to the balcony",no`,
    `${PLAIN_CODE},Paul Plain,General,all,,`,
    `${WHEELCHAIR_CODE},Wanda Wheel,General,all,"Wheelchair access:\nopen the side gate",YES`,
    `${FLAGGED_CODE},Fred Flag,General,all,,1`,
    'NOTE-BAD-ATTENTION-0001,Mia Maybe,General,all,,maybe',
    `NOTE-BAD-CONTROL-00001,Cal Control,General,all,"bell\u0007",no`,
    `NOTE-BAD-LONG-0000001,Lon Long,General,all,${'x'.repeat(301)},no`,
  ];
  await writeFile(path.join(cli.dir, 'notes.csv'), `${csv.join('\n')}\n`);
  const imported = await cli.ok('tickets', 'import', '--event', eventId, 'notes.csv');
  expect(imported).toMatch(/Imported 4 of 7 rows/);
  expect(imported).toMatch(/line 7 \(NOTE-BAD-ATTENTION-0001\): attention "maybe" is not one of yes\/no, true\/false, 1\/0/);
  expect(imported).toMatch(/line 8 \(NOTE-BAD-CONTROL-00001\): note must not contain control characters/);
  expect(imported).toMatch(/line 9 \(NOTE-BAD-LONG-0000001\): note must be at most 300 characters/);
  expect(await cli.ok('ticket-type', 'set', '--event', eventId, 'VIP', '--note', 'Green wristband', '--attention', 'yes')).toMatch(
    /VIP \(1 ticket\): attention; note "Green wristband"/,
  );
});
afterAll(async () => {
  await app.close();
  await cli.close();
});

async function verify(code: string): Promise<VerifyTicketResponse> {
  const response = await app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(staffToken), payload: { eventId, qrCode: code, day: 1 } });
  expect(response.statusCode).toBe(200);
  return VerifyTicketResponse.parse(response.json());
}

test('the import keeps each row\'s own note and flag, and every ticket type becomes a type of the event', async () => {
  const rows = await cli.database.db
    .select({ code: tickets.code, note: tickets.checkInNote, requiresAttention: tickets.requiresAttention })
    .from(tickets)
    .where(eq(tickets.eventId, eventId));
  expect(rows.find((row) => row.code === WHEELCHAIR_CODE)).toEqual({ code: WHEELCHAIR_CODE, note: 'Wheelchair access:\nopen the side gate', requiresAttention: true });
  expect(rows.find((row) => row.code === PLAIN_CODE)).toEqual({ code: PLAIN_CODE, note: '', requiresAttention: false });
  expect(rows.find((row) => row.code === FLAGGED_CODE)?.requiresAttention).toBe(true);
  const types = await cli.database.db.select({ name: ticketTypes.name }).from(ticketTypes).where(eq(ticketTypes.eventId, eventId));
  expect(types.map((type) => type.name).sort()).toEqual(['General', 'VIP']);
  expect(await cli.ok('ticket-type', 'list', '--event', eventId)).toBe('General (3 tickets): no attention; no note; every day\nVIP (1 ticket): attention; note "Green wristband"; every day\n');
});

test('an approval carries the ticket\'s note above its type\'s and the attention flag; a ticket without either gets the answer of SPEC §7 unchanged', async () => {
  const vip = await verify(VIP_CODE);
  expect(vip).toMatchObject({ isValid: true, holderName: 'Vera Vip', checkInNote: 'Escort to the balcony\nGreen wristband', requiresAttention: true });
  const plain = await verify(PLAIN_CODE);
  expect(plain.isValid).toBe(true);
  expect(Object.keys(plain).sort()).toEqual(['checkedInAt', 'eventName', 'holderName', 'isValid', 'ticketType']);
  expect(await verify(FLAGGED_CODE)).toMatchObject({ isValid: true, requiresAttention: true });
  expect(await verify(FLAGGED_CODE)).not.toHaveProperty('checkInNote');
});

test('a second scan is denied "already checked in" with the note (staff settle it with the note in view); other denials carry none', async () => {
  await verify(WHEELCHAIR_CODE);
  const again = await verify(WHEELCHAIR_CODE);
  expect(again).toMatchObject({ isValid: false, reason: 'already_checked_in', checkInNote: 'Wheelchair access:\nopen the side gate', requiresAttention: true });
  await cli.ok('tickets', 'revoke', VIP_CODE.toLowerCase());
  const revoked = await verify(VIP_CODE);
  expect(revoked).toMatchObject({ isValid: false, reason: 'revoked' });
  expect(revoked).not.toHaveProperty('checkInNote');
  expect(revoked).not.toHaveProperty('requiresAttention');
});

test('the door list carries the type notes whole and each ticket\'s own note sealed; a device combines them as verify does', async () => {
  await cli.ok('tickets', 'note', PLAIN_CODE, '--note', 'Photographer: let through with camera bag');
  const response = await app.inject({ method: 'GET', url: api(offlinePaths.doorList(eventId, 1)), headers: bearer(staffToken) });
  expect(response.statusCode).toBe(200);
  const list = DoorList.parse(response.json());
  expect(list.ticketTypes).toEqual([{ name: 'VIP', checkInNote: 'Green wristband', requiresAttention: true, days: null }]);
  expect(JSON.stringify(list)).not.toContain('Wheelchair');
  const entryOf = async (code: string) => {
    const key = await doorListLookupKey(eventId, code);
    const entry = list.tickets.find((candidate) => candidate.lookupKey === key);
    if (!entry) throw new Error(`no entry for ${code}`);
    return entry;
  };
  expect(await doorListAttention(list, WHEELCHAIR_CODE, await entryOf(WHEELCHAIR_CODE))).toEqual({ note: 'Wheelchair access:\nopen the side gate', requiresAttention: true });
  expect(await doorListAttention(list, VIP_CODE, await entryOf(VIP_CODE))).toEqual(
    checkInAttention({ note: 'Escort to the balcony', requiresAttention: false }, { note: 'Green wristband', requiresAttention: true }),
  );
  // A code that is not the ticket's cannot open its note: the flag still counts.
  expect(await doorListAttention(list, FLAGGED_CODE, await entryOf(WHEELCHAIR_CODE))).toEqual({ note: '', requiresAttention: true });

  // A changed note reaches a device on its next "changes since" download.
  await cli.ok('tickets', 'note', PLAIN_CODE, '--note', 'Photographer: side entrance only', '--attention', 'yes');
  const changes = DoorList.parse(
    (await app.inject({ method: 'GET', url: `${api(offlinePaths.doorList(eventId, 1))}?since=${list.cursor}`, headers: bearer(staffToken) })).json(),
  );
  const plainKey = await doorListLookupKey(eventId, PLAIN_CODE);
  const changed = changes.tickets.find((candidate) => candidate.lookupKey === plainKey);
  expect(changes.tickets).toHaveLength(1);
  expect(changed && (await doorListAttention(changes, PLAIN_CODE, changed))).toEqual({ note: 'Photographer: side entrance only', requiresAttention: true });
});

test('search results and the manual check-in show the note where staff see the ticket', async () => {
  const search = await app.inject({ method: 'GET', url: `${api(supervisorPaths.attendeeSearch(eventId))}?q=wanda&day=1`, headers: bearer(supervisorToken) });
  expect(search.statusCode).toBe(200);
  const [wanda] = AttendeeSearchResponse.parse(search.json()).attendees;
  expect(wanda).toMatchObject({ holderName: 'Wanda Wheel', checkInNote: 'Wheelchair access:\nopen the side gate', requiresAttention: true });
  const fred = AttendeeSearchResponse.parse(
    (await app.inject({ method: 'GET', url: `${api(supervisorPaths.attendeeSearch(eventId))}?q=fred&day=1`, headers: bearer(supervisorToken) })).json(),
  ).attendees[0];
  const manual = await app.inject({
    method: 'POST',
    url: api(supervisorPaths.manualCheckIn(eventId, fred?.ticketId ?? '')),
    headers: bearer(supervisorToken),
    payload: { day: 1 },
  });
  expect(manual.statusCode).toBe(200);
  // Fred was scanned above: the manual check-in is denied with his flag, as a scan would be.
  expect(VerifyTicketResponse.parse(manual.json())).toMatchObject({ isValid: false, reason: 'already_checked_in', requiresAttention: true });
});

test('an admin sets a type\'s note through the API; a note too long or with control characters is a 400 { code, message } and nothing changes', async () => {
  const url = api(`/events/${eventId}/ticket-types/${encodeURIComponent('General')}`);
  const patch = (token: string, payload: unknown) => app.inject({ method: 'PATCH', url, headers: bearer(token), payload: payload as Record<string, unknown> });

  const set = await patch(adminToken, { checkInNote: '  Stamp the left hand\r\n(blue ink)  ' });
  expect(set.statusCode).toBe(200);
  expect(TicketType.parse(set.json())).toEqual({ name: 'General', checkInNote: 'Stamp the left hand\n(blue ink)', requiresAttention: false, days: null, tickets: 3 });

  for (const [payload, field] of [
    [{ checkInNote: 'x'.repeat(301) }, /checkInNote.*300 characters/],
    [{ checkInNote: 'ring \u0007 the bell' }, /checkInNote.*control characters/],
    [{ checkInNote: 'lone \udc4c surrogate' }, /checkInNote.*well-formed/],
    [{ requiresAttention: 'maybe' }, /requiresAttention/],
  ] as const) {
    const refused = await patch(adminToken, payload);
    expect(refused.statusCode).toBe(400);
    const body = ApiErrorBody.parse(refused.json());
    expect(body.message).toMatch(field);
  }
  const forbidden = await patch(supervisorToken, { checkInNote: 'no' });
  expect(forbidden.statusCode).toBe(403);
  expect(ApiErrorBody.parse(forbidden.json()).code).toBe('forbidden');

  const list = await app.inject({ method: 'GET', url: api(`/events/${eventId}/ticket-types`), headers: bearer(supervisorToken) });
  expect(list.statusCode).toBe(200);
  expect(TicketTypesResponse.parse(list.json()).ticketTypes.find((type) => type.name === 'General')?.checkInNote).toBe('Stamp the left hand\n(blue ink)');
  expect((await app.inject({ method: 'GET', url: api(`/events/${eventId}/ticket-types`), headers: bearer(staffToken) })).statusCode).toBe(403);
  expect((await verify(PLAIN_CODE)).checkInNote).toBe('Photographer: side entrance only\nStamp the left hand\n(blue ink)');
});

test('the CLI refuses a bad note with one line and writes nothing', async () => {
  const tooLong = await cli.run('ticket-type', 'set', '--event', eventId, 'VIP', '--note', 'y'.repeat(301));
  expect(tooLong.exitCode).toBe(1);
  expect(tooLong.stderr).toBe('error: checkInNote must be at most 300 characters\n');
  const control = await cli.run('tickets', 'note', FLAGGED_CODE, '--note', 'esc \u001b[31m red');
  expect(control.exitCode).toBe(1);
  expect(control.stderr).toMatch(/^error: checkInNote must not contain control characters/);
  const badFlag = await cli.run('tickets', 'note', FLAGGED_CODE, '--attention', 'perhaps');
  expect(badFlag.exitCode).toBe(1);
  expect(await cli.ok('ticket-type', 'list', '--event', eventId)).toMatch(/VIP \(1 ticket\): attention; note "Green wristband"/);
  const [fred] = await cli.database.db.select({ note: tickets.checkInNote }).from(tickets).where(eq(tickets.code, FLAGGED_CODE));
  expect(fred?.note).toBe('');
});
