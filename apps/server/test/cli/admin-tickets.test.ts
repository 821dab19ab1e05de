import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { apiPaths, parseSignedTicket, VerifyTicketResponse } from '@gatecheck/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { tickets } from '../../src/db/schema.ts';
import { TICKETS_CSV_COLUMNS } from '../../src/db/seed.ts';
import { api, bearer, login } from '../helpers/test-app.ts';
import { createCliFixture, idIn, type CliFixture } from './cli-harness.ts';

let cli: CliFixture;
let app: FastifyInstance;
let token: string;
let festivalId: string;
let oneDayId: string;
/** The door's clock: each scan happens at noon (UTC, the events' zone) on the day scanned. */
let now = new Date();

const PASSWORD = 'gate-staff-pass';

beforeAll(async () => {
  cli = await createCliFixture();
  await cli.ok('user', 'create', '--email', 'gate@example.com', '--username', 'gate', '--name', 'Gale Gate', '--password', PASSWORD);
  await cli.ok('org', 'create', '--name', 'Northwind Live');
  await cli.ok('org', 'add-member', '--org', 'Northwind Live', '--user', 'gate', '--role', 'staff');
  festivalId = idIn(
    await cli.ok('event', 'create', '--org', 'Northwind Live', '--title', 'Harbour Lights', '--date', '2026-12-01', '--status', 'live',
      '--days', 'Opening Night:2026-12-01,Main Day:2026-12-02,Closing Day:2026-12-03'),
  );
  oneDayId = idIn(await cli.ok('event', 'create', '--org', 'Northwind Live', '--title', 'Tech Summit', '--date', '2026-12-10', '--status', 'live'));
  // The real app on the same database, to check that what the CLI wrote verifies at the gate.
  app = await buildApp({ config: loadConfig(cli.env), db: cli.database.db, clock: () => now });
  token = await login(app, 'gate', PASSWORD);
});
afterAll(async () => {
  await app.close();
  await cli.close();
});

let importChecks = 0;
/** A fresh two-day event for the import checks below, so the counts of Harbour Lights stay as they are. */
async function importChecksEvent(): Promise<string> {
  importChecks += 1;
  return idIn(
    await cli.ok('event', 'create', '--org', 'Northwind Live', '--title', `Import Checks ${importChecks}`, '--date', '2026-12-20', '--status', 'live',
      '--days', 'One:2026-12-20,Two:2026-12-21'),
  );
}

async function writeCsv(name: string, lines: string[]): Promise<string> {
  await writeFile(path.join(cli.dir, name), `${lines.join('\n')}\n`);
  return name;
}

/** Verifies at the door on `day`'s date (see the events created above), as staff would. */
async function verify(eventId: string, qrCode: string, day: number) {
  const date = eventId === festivalId ? `2026-12-0${day}` : '2026-12-10';
  now = new Date(`${date}T12:00:00Z`);
  const response = await app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers: bearer(token), payload: { eventId, qrCode, day } });
  expect(response.statusCode).toBe(200);
  return VerifyTicketResponse.parse(response.json());
}

const FESTIVAL_CSV = [
  'code,holder_name,ticket_type,days',
  'HL-0001,Ann Able,Weekend Pass,all',
  'HL-0002,Ben Baker,Day Pass,2',
  ',Cara Cole,Student,1|3',
  'HL-0001,Dan Dupe,Weekend Pass,all',
  'HL-0005,,Day Pass,1',
  'HL-0006,Eve Early,Day Pass,4',
  'HL-0007,Finn Field,Day Pass,1;2',
  'HL-0008,Gus Gap,Day Pass,',
  'HL 0009,Hal Space,Day Pass,1',
  'HL-0010,Ida Extra,VIP,all,surplus',
  'HL-0011,"Jo\nJones",VIP,all',
  'HL-0012,Kit Keen,,all',
];

test('tickets import inserts the good rows and lists every rejected row with its line and reason', async () => {
  const file = await writeCsv('festival.csv', FESTIVAL_CSV);
  const result = await cli.run('tickets', 'import', '--event', festivalId, file);
  expect(result.exitCode).toBe(0);
  expect(result.stderr).toBe('');
  expect(result.stdout).toMatch(/Imported 4 of 12 rows into "Harbour Lights" \(1 with generated codes\)/);
  expect(result.stdout).toMatch(/Rejected 8 rows\./);
  // Short codes like these are imported but kept off the door list, listed after the rejections (decision 087).
  const [rejectedPart = '', keptOffPart = ''] = result.stdout.split('Kept off the door list');
  expect(keptOffPart.split('\n').filter((line) => line.startsWith('  line '))).toEqual(['  line 2 (HL-0001): about 24 bits', '  line 3 (HL-0002): about 24 bits', '  line 12 (HL-0011): about 24 bits']);
  const rejectedLines = rejectedPart.split('\n').filter((line) => line.startsWith('  line '));
  expect(rejectedLines).toEqual([
    '  line 5 (HL-0001): duplicate code: already on line 2',
    '  line 6 (HL-0005): empty holder_name',
    '  line 7 (HL-0006): unknown day 4 for this event (its days: 1, 2, 3)',
    '  line 8 (HL-0007): malformed days "1;2": use all or day numbers joined by | (e.g. 1|3)',
    '  line 9 (HL-0008): empty days: use all or day numbers joined by | (e.g. 1|3)',
    expect.stringMatching(/^ {2}line 10 \(HL 0009\): code "HL 0009" may contain only letters, digits/),
    '  line 11 (HL-0010): expected 4 fields, found 5',
    '  line 14 (HL-0012): empty ticket_type',
  ]);
  const stored = await cli.database.db.select().from(tickets).where(eq(tickets.eventId, festivalId)).orderBy(tickets.holderName);
  expect(stored.map((ticket) => [ticket.holderName, ticket.ticketType, ticket.admittedDays])).toEqual([
    ['Ann Able', 'Weekend Pass', null],
    ['Ben Baker', 'Day Pass', [2]],
    ['Cara Cole', 'Student', [1, 3]],
    ['Jo Jones', 'VIP', null],
  ]);
  expect(stored.find((ticket) => ticket.holderName === 'Cara Cole')?.code).toMatch(/^GC-[A-Z2-7]{16}$/);
});

test('importing the same file again imports only the row without a code and rejects the others as duplicates', async () => {
  const result = await cli.run('tickets', 'import', '--event', festivalId, 'festival.csv');
  expect(result.stdout).toMatch(/Imported 1 of 12 rows/);
  expect(result.stdout).toMatch(/line 2 \(HL-0001\): duplicate code: a ticket with this code already exists/);
  expect(result.stdout).toMatch(/line 3 \(HL-0002\): duplicate code: a ticket with this code already exists/);
});

test('tickets imported with the CLI verify through the API: APPROVED, then DENIED the second time', async () => {
  const first = await verify(festivalId, 'HL-0001', 2);
  expect(first).toMatchObject({ isValid: true, eventName: 'Harbour Lights', holderName: 'Ann Able', ticketType: 'Weekend Pass' });
  const second = await verify(festivalId, 'HL-0001', 2);
  expect(second).toMatchObject({ isValid: false, reason: 'already_checked_in', checkedInBy: 'Gale Gate' });
  expect(await verify(festivalId, 'HL-0002', 1)).toMatchObject({ isValid: false, reason: 'not_valid_today' });
  expect(await verify(festivalId, 'HL-0002', 2)).toMatchObject({ isValid: true, holderName: 'Ben Baker' });
  expect(await verify(festivalId, 'HL-0006', 1)).toMatchObject({ isValid: false, reason: 'not_found' });
});

test("the demo seed's tickets.csv header is accepted; rows of another event are rejected", async () => {
  const file = await writeCsv('demo-format.csv', [
    TICKETS_CSV_COLUMNS.join(','),
    'TS-1,Tech Summit,Lena Long,General Admission,all',
    'TS-2,Harbour Lights,Mo Misplaced,General Admission,all',
    'TS-3,tech summit,Nia North,VIP,1',
    'TS-4,Tech Summit,Oz Over,VIP,2',
  ]);
  const result = await cli.run('tickets', 'import', '--event', oneDayId, file);
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toMatch(/Imported 2 of 4 rows into "Tech Summit"/);
  expect(result.stdout).toMatch(/line 3 \(TS-2\): event_title "Harbour Lights" is not this event \("Tech Summit"\)/);
  expect(result.stdout).toMatch(/line 5 \(TS-4\): unknown day 2 for this event \(its days: 1\)/);
  expect(await verify(oneDayId, 'TS-1', 1)).toMatchObject({ isValid: true, holderName: 'Lena Long' });
});

test('rows are inserted in batches, and a rejected row in a batch does not block the rest', async () => {
  const lines = ['holder_name,ticket_type,days,code'];
  for (let i = 1; i <= 9; i++) lines.push(`Holder ${i},General Admission,all,BATCH-${i}`);
  lines.splice(5, 0, 'Taken Code,General Admission,all,HL-0002');
  const file = await writeCsv('batches.csv', lines);
  const result = await cli.run('tickets', 'import', '--event', festivalId, '--batch-size', '2', file);
  expect(result.stdout).toMatch(/Imported 9 of 10 rows/);
  expect(result.stdout).toMatch(/^Rejected 1 row\.$/m);
  expect(result.stdout).toMatch(/line 6 \(HL-0002\): duplicate code/);
  const stored = await cli.database.db.select({ code: tickets.code }).from(tickets).where(eq(tickets.eventId, festivalId));
  expect(stored.filter((ticket) => ticket.code.startsWith('BATCH-'))).toHaveLength(9);
});

test('a misplaced quote refuses the whole file, naming its line: nothing is imported (the rows after it could be lost)', async () => {
  const cases: Array<[string[], RegExp]> = [
    // Never closed: every row after it would be one field.
    [['code,holder_name,ticket_type,days', 'Q-1,Quinn,GA,all', 'Q-2,"Rae,GA,all', 'Q-3,Sol,GA,all', 'Q-4,Tam,GA,all'], /A quote opens on line 3 .* never closed.* Nothing was imported/],
    // The same after 40 good rows (more than the parser hands over at once): still its own line.
    [['code,holder_name,ticket_type,days', ...Array.from({ length: 40 }, (_, index) => `Q-1${index},Row ${index},GA,all`), 'Q-2,"Rae,GA,all', 'Q-3,Sol,GA,all'], /A quote opens on line 42 .* never closed/],
    // Text after a closing quote: csv-parse loses the rows after it without an error of their own.
    [['code,holder_name,ticket_type,days', 'Q-1,Quinn,GA,all', 'Q-2,Ray,GA,all', 'Q-3,"Sun" "and" "Moon",GA,all', 'Q-4,Tam,GA,all', 'Q-5,Uma,GA,all'], /Line 4 has a quote where CSV allows none .* Nothing was imported: fix that line/],
  ];
  for (const [lines, message] of cases) {
    const file = await writeCsv('broken.csv', lines);
    const result = await cli.run('tickets', 'import', '--event', festivalId, file);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  }
  const stored = await cli.database.db.select({ code: tickets.code }).from(tickets).where(eq(tickets.eventId, festivalId));
  expect(stored.filter((ticket) => ticket.code.startsWith('Q-'))).toEqual([]);
});

test('a quote inside an unquoted field is part of the name, as Excel reads it', async () => {
  const file = await writeCsv('inner-quotes.csv', ['code,holder_name,ticket_type,days', 'S-1,Sky,GA,all', 'S-2,Dwayne "The Rock" Johnson,GA,all', 'S-3,Star,GA,all']);
  const eventId = await importChecksEvent();
  const result = await cli.run('tickets', 'import', '--event', eventId, file);
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toMatch(/Imported 3 of 3 rows/);
  const stored = await cli.database.db.select({ code: tickets.code, holderName: tickets.holderName }).from(tickets).where(eq(tickets.eventId, eventId));
  expect(stored.find((ticket) => ticket.code === 'S-2')?.holderName).toBe('Dwayne "The Rock" Johnson');
});

test("a file that is not UTF-8 (Excel's legacy CSV) is refused with its first such line: no name is stored with � in it", async () => {
  const latin1 = Buffer.from('code,holder_name,ticket_type,days\nL-1,Ada,GA,all\nL-2,Jos\xe9 Garc\xeda,GA,all\n', 'latin1');
  await writeFile(path.join(cli.dir, 'latin1.csv'), latin1);
  const eventId = await importChecksEvent();
  const result = await cli.run('tickets', 'import', '--event', eventId, 'latin1.csv');
  expect(result.exitCode).toBe(1);
  expect(result.stderr).toMatch(/Line 3 is not UTF-8 text .* Nothing was imported: save the file as CSV UTF-8/);
  const stored = await cli.database.db.select({ code: tickets.code }).from(tickets).where(eq(tickets.eventId, eventId));
  expect(stored.filter((ticket) => ticket.code.startsWith('L-'))).toEqual([]);
});

test("a file separated by semicolons (Excel's CSV in much of Europe) is imported, its names' commas kept", async () => {
  const file = await writeCsv('semicolons.csv', ['code;holder_name;ticket_type;days', 'SC-1;Müller, Anna;VIP;1|2', 'SC-2;"Dupont; Jean";GA;all']);
  const eventId = await importChecksEvent();
  const result = await cli.run('tickets', 'import', '--event', eventId, file);
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toMatch(/Imported 2 of 2 rows/);
  const stored = await cli.database.db
    .select({ code: tickets.code, holderName: tickets.holderName, admittedDays: tickets.admittedDays })
    .from(tickets)
    .where(eq(tickets.eventId, eventId));
  expect(stored.filter((ticket) => ticket.code.startsWith('SC-')).sort((a, b) => a.code.localeCompare(b.code))).toEqual([
    { code: 'SC-1', holderName: 'Müller, Anna', admittedDays: [1, 2] },
    { code: 'SC-2', holderName: 'Dupont; Jean', admittedDays: null },
  ]);
});

test('a semicolon file whose names are all quoted, with a byte-order mark and a blank first line (LibreOffice), is read by its header', async () => {
  const file = 'quoted-semicolons.csv';
  await writeFile(path.join(cli.dir, file), '\uFEFF\n"code";"holder_name";"ticket_type";"days"\n"QS-1";"Anna, B";"VIP";"1|2"\n"QS-2";"Ben";"GA";"all"\n');
  const eventId = await importChecksEvent();
  const result = await cli.run('tickets', 'import', '--event', eventId, file);
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toMatch(/Imported 2 of 2 rows/);
  const stored = await cli.database.db.select({ code: tickets.code, holderName: tickets.holderName }).from(tickets).where(eq(tickets.eventId, eventId));
  expect(stored.sort((a, b) => a.code.localeCompare(b.code))).toEqual([
    { code: 'QS-1', holderName: 'Anna, B' },
    { code: 'QS-2', holderName: 'Ben' },
  ]);
});

test('a file that cannot be imported at all is refused with one line and exit code 1', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['--event', festivalId, await writeCsv('typo.csv', ['code,holder,ticket_type,days', 'X-1,A,B,all'])], /Unknown CSV column\(s\) "holder"/],
    [['--event', festivalId, await writeCsv('missing.csv', ['code,holder_name,days', 'X-1,A,all'])], /lacks ticket_type/],
    [['--event', festivalId, await writeCsv('empty.csv', [])], /The CSV file is empty/],
    [['--event', festivalId, 'no-such-file.csv'], /File not found: .*no-such-file\.csv/],
    [['--event', '00000000-0000-4000-8000-000000000000', 'festival.csv'], /No event with id "00000000-0000-4000-8000-000000000000"/],
    [['--event', 'not-an-id', 'festival.csv'], /No event with id "not-an-id"/],
    [['festival.csv'], /required option '--event <id>' not specified/],
  ];
  for (const [args, pattern] of cases) {
    const result = await cli.run('tickets', 'import', ...args);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(pattern);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  }
});

test('a revoked ticket is denied as revoked; revoking again or an unknown code says so', async () => {
  const revoked = await cli.run('tickets', 'revoke', 'HL-0011');
  expect(revoked).toMatchObject({ exitCode: 0, stdout: expect.stringMatching(/Revoked ticket HL-0011 \(Jo Jones, "Harbour Lights"\)/) });
  expect(await verify(festivalId, 'HL-0011', 1)).toMatchObject({ isValid: false, reason: 'revoked' });
  expect((await cli.run('tickets', 'revoke', 'HL-0011')).stdout).toMatch(/was already revoked at \d{4}-/);
  const unknown = await cli.run('tickets', 'revoke', 'NOPE-1');
  expect(unknown.exitCode).toBe(1);
  expect(unknown.stderr).toBe('error: No ticket with code "NOPE-1"\n');
});

test('checkins count shows checked-in and admitted tickets per day, or for one day', async () => {
  // Checked in so far: HL-0001 on day 2 (an all-days ticket), HL-0002 on day 2 (day 2 only).
  expect(await verify(festivalId, 'BATCH-1', 3)).toMatchObject({ isValid: true });
  const counts = JSON.parse(await cli.ok('checkins', 'count', '--event', festivalId, '--json'));
  // Admitted: 10 all-day tickets not revoked (HL-0001, 9 BATCH; Jo Jones is revoked), Cara's two
  // copies on days 1 and 3, Ben on day 2.
  expect(counts.days).toEqual([
    { day: 1, name: 'Opening Night', date: '2026-12-01', checkedIn: 0, admitted: 12 },
    { day: 2, name: 'Main Day', date: '2026-12-02', checkedIn: 2, admitted: 11 },
    { day: 3, name: 'Closing Day', date: '2026-12-03', checkedIn: 1, admitted: 12 },
  ]);
  const table = await cli.ok('checkins', 'count', '--event', festivalId, '--day', '2');
  expect(table).toMatch(/^2\s+Main Day\s+2026-12-02\s+2\s+11\s+18\.2%$/m);
  expect(table).not.toMatch(/Opening Night/);
  const noDay = await cli.run('checkins', 'count', '--event', festivalId, '--day', '4');
  expect(noDay).toMatchObject({ exitCode: 1, stderr: 'error: Event "Harbour Lights" has no day 4 (days: 1, 2, 3)\n' });
  const badDay = await cli.run('checkins', 'count', '--event', festivalId, '--day', 'two');
  expect(badDay.exitCode).toBe(1);
  expect(badDay.stderr).toMatch(/option '--day <n>' argument 'two' is invalid/);
});

test('export-qr writes one PNG per ticket that decodes to its code, and a printable PDF', async () => {
  const result = await cli.run('tickets', 'export-qr', '--event', festivalId, '--out', 'qr', '--pdf', 'print/tickets.pdf');
  expect(result.exitCode).toBe(0);
  const stored = await cli.database.db.select().from(tickets).where(eq(tickets.eventId, festivalId));
  const printable = stored.filter((ticket) => !ticket.revokedAt).map((ticket) => `${ticket.code}.png`).sort();
  expect(printable).toHaveLength(13);
  expect((await readdir(path.join(cli.dir, 'qr'))).sort()).toEqual(printable);
  expect(result.stdout).toMatch(/Wrote 13 QR code PNGs for "Harbour Lights"/);
  expect(result.stdout).toMatch(/Wrote 2 A4 pages to .*print\/tickets\.pdf/);

  const png = await readFile(path.join(cli.dir, 'qr', 'HL-0002.png'));
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const image = PNG.sync.read(png);
  expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe('HL-0002');

  const pdf = await readFile(path.join(cli.dir, 'print', 'tickets.pdf'));
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdf.subarray(-6).toString('latin1')).toMatch(/%%EOF/);
  const pageCount = pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length;
  expect(pageCount).toBe(2);
});

test('export-qr --signed prints signed QR texts (issue 12) that verify at the gate like the code', async () => {
  await cli.ok('tickets', 'import', await writeCsv('signed.csv', ['code,holder_name,ticket_type,days', 'SIGNED-1,Sig Nedda,General Admission,all']), '--event', oneDayId);
  const result = await cli.run('tickets', 'export-qr', '--event', oneDayId, '--out', 'qr-signed', '--signed');
  expect(result.exitCode).toBe(0);
  const [ticket] = await cli.database.db.select().from(tickets).where(eq(tickets.code, 'SIGNED-1'));
  if (!ticket) throw new Error('not imported');
  const image = PNG.sync.read(await readFile(path.join(cli.dir, 'qr-signed', `${ticket.code}.png`)));
  const text = jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? '';
  expect(parseSignedTicket(text)).toMatchObject({ eventId: oneDayId, code: ticket.code });
  expect(await verify(oneDayId, text, 1)).toMatchObject({ isValid: true, holderName: ticket.holderName });
  expect(await verify(oneDayId, ticket.code, 1)).toMatchObject({ isValid: false, reason: 'already_checked_in' });

  // Revoking the key (docs/decisions/089): its texts are unknown codes from now on.
  const keyId = parseSignedTicket(text)?.keyId ?? '';
  expect(await cli.ok('tickets', 'revoke-signing-key', '--event', oneDayId, keyId)).toMatch(new RegExp(`Revoked the signing key ${keyId}: tickets it signed are denied`));
  expect(await verify(oneDayId, text, 1)).toMatchObject({ isValid: false, reason: 'not_found' });
  expect(await cli.ok('tickets', 'revoke-signing-key', '--event', oneDayId, keyId)).toMatch(/was already revoked at/);
  const unknown = await cli.run('tickets', 'revoke-signing-key', '--event', oneDayId, 'NOSUCHKEY000');
  expect(unknown.exitCode).toBe(1);
  expect(unknown.stderr).toMatch(/has no signing key NOSUCHKEY000/);
});

test('tickets import keeps codes too easy to guess off the door list and names each (docs/decisions/087)', async () => {
  const eventId = await importChecksEvent();
  const file = await writeCsv('weak.csv', ['code,holder_name,ticket_type,days', '12345678,Bea Barcode,GA,all', 'GC-2222222222222222,Sam Strong,GA,all', '000042,Nina Number,GA,all']);
  const output = await cli.ok('tickets', 'import', file, '--event', eventId);
  expect(output).toMatch(/Imported 3 of 3 rows/);
  expect(output).toMatch(/Kept off the door list: 2 tickets whose code is too easy to guess \(under 64 bits\)\. They are valid, but a phone without the server cannot check them/);
  expect(output).toContain('signed or not');
  expect(output).not.toContain('export-qr --signed');
  expect(output).toMatch(/ {2}line 2 \(12345678\): about 26 bits\n {2}line 4 \(000042\): about 19 bits/);
  expect(output).not.toContain('GC-2222222222222222');
});

test('export-qr of an event without tickets says so and writes nothing (no empty PDF)', async () => {
  const eventId = await importChecksEvent();
  const result = await cli.run('tickets', 'export-qr', '--event', eventId, '--out', 'qr-empty', '--pdf', 'empty.pdf');
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toMatch(/has no tickets to print .* nothing written/);
  await expect(readdir(path.join(cli.dir, 'qr-empty'))).rejects.toThrow();
  await expect(readFile(path.join(cli.dir, 'empty.pdf'))).rejects.toThrow();
});

test('export-qr names an unknown event and a missing font', async () => {
  const unknown = await cli.run('tickets', 'export-qr', '--event', '00000000-0000-4000-8000-000000000000', '--out', 'qr2');
  expect(unknown).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/^error: No event with id/) });
  const font = await cli.run('tickets', 'export-qr', '--event', oneDayId, '--out', 'qr3', '--pdf', 'x.pdf', '--font', 'missing.ttf');
  expect(font).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/^error: File not found: .*missing\.ttf\n$/) });
});

test('ticket codes are case-insensitive: import rejects a code differing only in case, verify and revoke find any case', async () => {
  const file = await writeCsv('cases.csv', [
    'code,holder_name,ticket_type,days',
    'abc-12,Pat Lower,General Admission,all',
    'ABC-12,Pat Upper,General Admission,all',
    'ts-1,Lena Again,General Admission,all',
    'rev-7,Rae Revoked,General Admission,all',
  ]);
  const result = await cli.run('tickets', 'import', '--event', oneDayId, file);
  expect(result.stdout).toMatch(/Imported 2 of 4 rows/);
  expect(result.stdout).toMatch(/line 3 \(ABC-12\): duplicate code: already on line 2/);
  expect(result.stdout).toMatch(/line 4 \(ts-1\): duplicate code: a ticket with this code already exists/);
  const stored = await cli.database.db.select({ code: tickets.code }).from(tickets).where(eq(tickets.eventId, oneDayId));
  expect(stored.map((ticket) => ticket.code)).toContain('abc-12');

  expect(await verify(oneDayId, 'ABC-12', 1)).toMatchObject({ isValid: true, holderName: 'Pat Lower' });
  expect(await verify(oneDayId, 'abc-12', 1)).toMatchObject({ isValid: false, reason: 'already_checked_in' });
  const revoked = await cli.run('tickets', 'revoke', 'REV-7');
  expect(revoked).toMatchObject({ exitCode: 0, stdout: expect.stringMatching(/Revoked ticket rev-7 \(Rae Revoked/) });
  expect(await verify(oneDayId, 'Rev-7', 1)).toMatchObject({ isValid: false, reason: 'revoked' });
});
