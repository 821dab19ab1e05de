/**
 * `list create/edit/delete/list` in the admin CLI (docs/decisions/100), on a real database: an event
 * made by `event create` has 'All tickets'; lists take ticket types (as imported, any letter case)
 * and days; a list that names no type, an unknown type, a day the event lacks, a name taken, are
 * clear errors (a type set up with `ticket-type set` before any ticket has it is known); a list with
 * check-ins, or an event's only list, is not deleted.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkIns, tickets, users } from '../../src/db/schema.ts';
import { listCheckInLists } from '../../src/services/check-in-lists.ts';
import { verifyTicket } from '../../src/services/check-ins/verify.ts';
import { createCliFixture, idIn, type CliFixture } from './cli-harness.ts';

let cli: CliFixture;
let eventId: string;
const NOON_ON_DAY_ONE = new Date('2026-12-01T12:00:00Z');

beforeAll(async () => {
  cli = await createCliFixture();
  await cli.ok('user', 'create', '--email', 'gate@example.com', '--username', 'gate', '--name', 'Gale Gate', '--password', 'gate-staff-pass');
  await cli.ok('org', 'create', '--name', 'Northwind Live');
  await cli.ok('org', 'add-member', '--org', 'Northwind Live', '--user', 'gate', '--role', 'staff');
  eventId = idIn(
    await cli.ok('event', 'create', '--org', 'Northwind Live', '--title', 'Harbour Lights', '--date', '2026-12-01', '--status', 'live', '--days', 'Opening:2026-12-01,Main:2026-12-02'),
  );
  await writeFile(path.join(cli.dir, 'tickets.csv'), 'code,holder_name,ticket_type,days\nHL-1,Zoë Ångström,VIP,all\nHL-2,Renée Jr,General,all\nHL-3,Sam Lee,Press,all\n');
  await cli.ok('tickets', 'import', '--event', eventId, 'tickets.csv');
});
afterAll(async () => {
  await cli.close();
});

test("an event made by the CLI has 'All tickets'; list create adds lists with types and days, list list shows them in order", async () => {
  expect(await cli.ok('list', 'list', '--event', eventId)).toMatch(/1 +[0-9a-f-]{36} +All tickets +all +all/);
  expect(await cli.ok('list', 'create', '--event', eventId, '--name', 'VIP Gate', '--types', 'vip, Press')).toMatch(
    /^Created check-in list "VIP Gate" of "Harbour Lights": ticket types VIP, Press; every day \(id [0-9a-f-]{36}\)\n$/,
  );
  expect(await cli.ok('list', 'create', '--event', eventId, '--name', 'Merch desk', '--days', '2')).toMatch(/every ticket type; days 2 \(id/);
  const json = JSON.parse(await cli.ok('list', 'list', '--event', eventId, '--json')) as { lists: Array<{ name: string; ticketTypes: string[] | null; days: number[] | null; position: number }> };
  expect(json.lists.map(({ name, ticketTypes, days, position }) => ({ name, ticketTypes, days, position }))).toEqual([
    { name: 'All tickets', ticketTypes: null, days: null, position: 1 },
    { name: 'VIP Gate', ticketTypes: ['VIP', 'Press'], days: null, position: 2 },
    { name: 'Merch desk', ticketTypes: null, days: [2], position: 3 },
  ]);
});

test('bad lists are clear errors and change nothing', async () => {
  const before = await listCheckInLists(cli.database.db, eventId);
  const cases: Array<[string[], RegExp]> = [
    [['list', 'create', '--event', eventId, '--name', 'Nobody', '--types', ' , '], /Expected ticket types separated by commas/],
    [['list', 'create', '--event', eventId, '--name', 'Backstage', '--types', 'Crew'], /^error: "Harbour Lights" has no tickets of type "Crew" \(its ticket types: General, Press, VIP\)\.\n$/],
    [['list', 'create', '--event', eventId, '--name', 'Day three', '--days', '3'], /^error: "Harbour Lights" has no day 3 \(days: 1, 2\)\.\n$/],
    [['list', 'create', '--event', eventId, '--name', 'vip gate'], /already has a check-in list named "vip gate"/],
    [['list', 'create', '--event', eventId, '--name', '   '], /A check-in list needs a name/],
    [['list', 'edit', '--event', eventId, '--list', 'VIP Gate', '--types', 'VIP', '--all-types'], /either --types or --all-types/],
    [['list', 'edit', '--event', eventId, '--list', 'Nowhere', '--name', 'X'], /has no check-in list "Nowhere" \(lists: All tickets, VIP Gate, Merch desk\)/],
    [['list', 'edit', '--event', eventId, '--list', 'VIP Gate'], /Nothing to change/],
  ];
  for (const [argv, message] of cases) {
    const result = await cli.run(...argv);
    expect(result.exitCode, argv.join(' ')).toBe(1);
    expect(result.stderr, argv.join(' ')).toMatch(message);
  }
  expect(await listCheckInLists(cli.database.db, eventId)).toEqual(before);
});

test('list edit changes types, days and name; the check-ins made stay on the list', async () => {
  expect(await cli.ok('list', 'edit', '--event', eventId, '--list', 'Merch desk', '--types', 'General', '--all-days', '--name', 'Merch')).toBe(
    'Updated check-in list "Merch" of "Harbour Lights": ticket types General; every day\n',
  );
  const [gate] = await cli.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'gate'));
  const merch = (await listCheckInLists(cli.database.db, eventId)).find((list) => list.name === 'Merch');
  const scan = (qrCode: string) => verifyTicket(cli.database.db, { userId: gate?.id ?? '' }, { eventId, qrCode, day: 1, checkInListId: merch?.id }, NOON_ON_DAY_ONE);
  expect(await scan('HL-1')).toMatchObject({ isValid: false, reason: 'not_on_list', message: 'Not valid at this entrance — valid at All tickets and VIP Gate' });
  expect(await scan('HL-2')).toMatchObject({ isValid: true });
  await cli.ok('list', 'edit', '--event', eventId, '--list', 'merch', '--all-types');
  expect(await scan('HL-2')).toMatchObject({ isValid: false, reason: 'already_checked_in' });
});

test('--position moves a list among the others: position 1 makes it the first, where a scanner naming no list checks in', async () => {
  await cli.ok('list', 'create', '--event', eventId, '--name', 'Side door', '--position', '1');
  expect((await listCheckInLists(cli.database.db, eventId)).map((list) => [list.position, list.name])).toEqual([
    [1, 'Side door'],
    [2, 'All tickets'],
    [3, 'VIP Gate'],
    [4, 'Merch'],
  ]);
  const [gate] = await cli.database.db.select({ id: users.id }).from(users).where(eq(users.username, 'gate'));
  const checkIn = await verifyTicket(cli.database.db, { userId: gate?.id ?? '' }, { eventId, qrCode: 'HL-3', day: 2 }, new Date('2026-12-02T12:00:00Z'));
  expect(checkIn).toMatchObject({ isValid: true });
  const [row] = await cli.database.db.select({ listId: checkIns.checkInListId }).from(checkIns).innerJoin(tickets, eq(tickets.id, checkIns.ticketId)).where(eq(tickets.code, 'HL-3'));
  expect(row?.listId).toBe((await listCheckInLists(cli.database.db, eventId))[0]?.id);
  await cli.ok('list', 'edit', '--event', eventId, '--list', 'Side door', '--position', '9');
  expect((await listCheckInLists(cli.database.db, eventId)).map((list) => [list.position, list.name])).toEqual([
    [1, 'All tickets'],
    [2, 'VIP Gate'],
    [3, 'Merch'],
    [4, 'Side door'],
  ]);
});

test('a list with check-ins is not deleted; one without is; the last list of an event never is', async () => {
  const withCheckIns = await cli.run('list', 'delete', '--event', eventId, '--list', 'Merch');
  expect(withCheckIns.exitCode).toBe(1);
  expect(withCheckIns.stderr).toBe('error: "Merch" has 1 check-in(s) and cannot be deleted; edit it instead (its check-ins stay on it).\n');
  expect(await cli.ok('list', 'delete', '--event', eventId, '--list', 'VIP Gate')).toBe('Deleted check-in list "VIP Gate" of "Harbour Lights"\n');
  const withOne = await cli.run('list', 'delete', '--event', eventId, '--list', 'Side door');
  expect(withOne.stderr).toMatch(/"Side door" has 1 check-in\(s\) and cannot be deleted/);
  const lone = idIn(await cli.ok('event', 'create', '--org', 'Northwind Live', '--title', 'Lone Night', '--date', '2026-12-05'));
  const last = await cli.run('list', 'delete', '--event', lone, '--list', 'All tickets');
  expect(last.exitCode).toBe(1);
  expect(last.stderr).toBe('error: "All tickets" is the only check-in list of "Lone Night": an event needs one.\n');
  expect((await listCheckInLists(cli.database.db, eventId)).map((list) => list.name)).toEqual(['All tickets', 'Merch', 'Side door']);
});

test('a list may name a ticket type set up ahead of its tickets (ticket-type set); an event without types says how to get one', async () => {
  const early = idIn(await cli.ok('event', 'create', '--org', 'Northwind Live', '--title', 'Early Bird', '--date', '2026-12-06'));
  const none = await cli.run('list', 'create', '--event', early, '--name', 'Crew door', '--types', 'Crew');
  expect(none.exitCode).toBe(1);
  expect(none.stderr).toBe('error: "Early Bird" has no tickets of type "Crew" (it has no ticket types yet: import its tickets first, or name a type with ticket-type set).\n');
  await cli.ok('ticket-type', 'set', '--event', early, 'Crew', '--note', 'Hi-vis vest');
  expect(await cli.ok('list', 'create', '--event', early, '--name', 'Crew door', '--types', 'crew')).toMatch(/^Created check-in list "Crew door" of "Early Bird": ticket types Crew; every day/);
  expect((await listCheckInLists(cli.database.db, early)).map((list) => [list.name, list.ticketTypes])).toEqual([
    ['All tickets', null],
    ['Crew door', ['Crew']],
  ]);
});

test('list create/edit take re-entry, a capacity and a daily checkout; a capacity of 0 or a time that is none is a clear error and changes nothing', async () => {
  expect(await cli.ok('list', 'create', '--event', eventId, '--name', 'Hall', '--reentry', '--capacity', '500', '--daily-checkout', '04:00')).toMatch(
    /: every ticket type; every day; re-entry; capacity 500; daily checkout 04:00 \(id /,
  );
  const before = await listCheckInLists(cli.database.db, eventId);
  for (const [argv, message] of [
    [['list', 'create', '--event', eventId, '--name', 'Zero', '--capacity', '0'], /Expected a capacity of at least 1 guest/],
    [['list', 'edit', '--event', eventId, '--list', 'Hall', '--capacity', '-3'], /Expected a capacity of at least 1 guest/],
    [['list', 'edit', '--event', eventId, '--list', 'Hall', '--daily-checkout', '24:00'], /Expected a time HH:MM/],
  ] as Array<[string[], RegExp]>) {
    const result = await cli.run(...argv);
    expect(result.exitCode, argv.join(' ')).toBe(1);
    expect(result.stderr, argv.join(' ')).toMatch(message);
  }
  expect(await listCheckInLists(cli.database.db, eventId)).toEqual(before);
  expect(await cli.ok('list', 'edit', '--event', eventId, '--list', 'Hall', '--no-reentry', '--capacity', 'none', '--daily-checkout', 'none')).toMatch(/"Hall" of "Harbour Lights": every ticket type; every day\n$/);
  expect((await listCheckInLists(cli.database.db, eventId)).find((list) => list.name === 'Hall')).toMatchObject({ allowsReentry: false, capacity: null, dailyCheckoutTime: null });
});
