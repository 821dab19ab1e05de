/**
 * The ticket import streams (issue 13, docs/decisions/059): a large CSV is read as the batches go,
 * never whole, and repeated codes are still named with the line they first appeared on. Asserts on
 * rows read ahead of the inserts and on batch counts, never on time or memory figures.
 */
import { Readable } from 'node:stream';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { DatabaseHandle } from '../src/db/client.ts';
import { auditEntries, events, organizations, tickets, ticketSearchTerms } from '../src/db/schema.ts';
import { CSV_SLICE_BYTES, importTicketsCsv, inspectTicketsCsv, openCsv, type TicketImportProgress } from '../src/services/tickets-import.ts';
import { createTestDatabase } from './helpers/test-app.ts';

let database: DatabaseHandle;
let eventId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const [organization] = await database.db.insert(organizations).values({ name: 'Streaming Org' }).returning();
  if (!organization) throw new Error('no organization');
  const [event] = await database.db.insert(events).values({ organizationId: organization.id, title: 'Big Import', date: '2026-12-01', status: 'live' }).returning();
  if (!event) throw new Error('no event');
  eventId = event.id;
});
afterAll(async () => {
  await database.close();
});

/**
 * A CSV of `rows` data rows produced one line at a time, counting the lines handed to the reader
 * since it was last opened (the import inspects the file before it imports it).
 */
function countingCsv(rows: number, lineOf: (index: number) => string): { open: () => Readable; produced: () => number; opened: () => number } {
  let produced = 0;
  let opened = 0;
  return {
    produced: () => produced,
    opened: () => opened,
    open: () => {
      produced = 0;
      opened += 1;
      return Readable.from(
        (function* () {
          yield 'code,holder_name,ticket_type,days\n';
          for (let index = 1; index <= rows; index++) {
            produced += 1;
            yield `${lineOf(index)}\n`;
          }
        })(),
        { objectMode: false },
      );
    },
  };
}

test('a large CSV is inserted batch by batch while it is read, never read whole ahead of the inserts', async () => {
  const ROWS = 12_000;
  const BATCH = 500;
  const csv = countingCsv(ROWS, (index) => `BIG-${String(index).padStart(6, '0')},Holder ${index},General Admission,all`);
  const seen: TicketImportProgress[] = [];
  let mostReadAhead = 0;
  const summary = await importTicketsCsv(database.db, {
    eventId,
    csv: csv.open,
    batchSize: BATCH,
    onProgress: (progress) => {
      seen.push(progress);
      mostReadAhead = Math.max(mostReadAhead, csv.produced() - progress.rows);
    },
  });
  expect(summary).toMatchObject({ rows: ROWS, imported: ROWS, generatedCodes: 0, rejected: [] });
  // Opened three times: its header (the separator), the whole file inspected (misplaced quotes,
  // encoding), then imported.
  expect(csv.opened()).toBe(3);
  const batchReports = seen.filter((progress, index) => index < seen.length - 1);
  expect(batchReports).toHaveLength(ROWS / BATCH);
  expect(batchReports.map((progress) => progress.batches)).toEqual(Array.from({ length: ROWS / BATCH }, (_, index) => index + 1));
  expect(batchReports.map((progress) => progress.rows)).toEqual(Array.from({ length: ROWS / BATCH }, (_, index) => (index + 1) * BATCH));
  // When a batch commits, the reader is at most the batch plus the stream buffers (a few 16 kB
  // byte buffers, 16 parsed records) past it: about 1,500 of these lines here, far below the
  // 11,500 rows a read of the whole file before the first insert would show.
  expect(mostReadAhead).toBeLessThan(4_000);
  expect(mostReadAhead).toBeGreaterThan(0);
  // Bytes grow with the batches and end at the file's size.
  const bytes = seen.map((progress) => progress.bytes);
  expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
  const [{ stored } = { stored: 0 }] = await database.db.select({ stored: count() }).from(tickets).where(eq(tickets.eventId, eventId));
  expect(stored).toBe(ROWS);
  // Each ticket got its search terms in its batch: the code, 'holder n', 'n'.
  const [{ terms } = { terms: 0 }] = await database.db.select({ terms: count() }).from(ticketSearchTerms).where(eq(ticketSearchTerms.eventId, eventId));
  expect(terms).toBe(ROWS * 3);
});

test('an upload given whole is handed to the parser a slice at a time (it parses each chunk without a turn of the event loop), and a character cut by a slice comes out whole', async () => {
  // 'ë' is two bytes in UTF-8: the first slice ends between them (rows of filler, then one padded to the byte).
  let head = 'code,holder_name,ticket_type,days\n';
  for (let index = 0; head.length < CSV_SLICE_BYTES - 150; index++) head += `FILL-${String(index).padStart(5, '0')},Filler ${index},General,all\n`;
  const lead = 'SLICE-0002,Zo';
  head += `SLICE-0001,${'x'.repeat(CSV_SLICE_BYTES - 1 - head.length - 'SLICE-0001,'.length - ',General,all\n'.length - lead.length)},General,all\n`;
  const upload = Buffer.from(`${head}${lead}ë van Dijk,General,all\n${Array.from({ length: 2_000 }, (_, index) => `SLICE-${index + 3},Holder ${index},General,all`).join('\n')}\n`, 'utf8');
  const dataRows = upload.toString('utf8').trim().split('\n').length - 1;
  expect(upload.subarray(CSV_SLICE_BYTES - 1, CSV_SLICE_BYTES + 1).toString('utf8')).toBe('ë');

  const chunks: Buffer[] = [];
  for await (const chunk of openCsv(upload)) chunks.push(chunk as Buffer);
  expect(chunks.length).toBe(Math.ceil(upload.length / CSV_SLICE_BYTES));
  expect(Math.max(...chunks.map((chunk) => chunk.length))).toBe(CSV_SLICE_BYTES);
  expect(Buffer.concat(chunks).equals(upload)).toBe(true);

  const [organization] = await database.db.insert(organizations).values({ name: 'Slices Org' }).returning();
  const [event] = await database.db.insert(events).values({ organizationId: organization?.id ?? '', title: 'Slices', date: '2026-12-01', status: 'live' }).returning();
  const summary = await importTicketsCsv(database.db, { eventId: event?.id ?? '', csv: upload });
  expect(summary).toMatchObject({ rows: dataRows, imported: dataRows, rejected: [] });
  const [zoe] = await database.db.select({ holderName: tickets.holderName }).from(tickets).where(eq(tickets.code, 'SLICE-0002'));
  expect(zoe?.holderName).toBe('Zoë van Dijk');
});

test('a file inspected first (the web upload) is read once more to import it, not inspected again', async () => {
  const csv = countingCsv(1_200, (index) => `ONCE-${String(index).padStart(6, '0')},Holder ${index},General Admission,all`);
  const inspected = await inspectTicketsCsv(database.db, { eventId, csv: csv.open });
  const openedToInspect = csv.opened();
  const summary = await importTicketsCsv(database.db, { eventId, csv: csv.open, inspected });
  expect(summary).toMatchObject({ rows: 1_200, imported: 1_200, rejected: [] });
  expect(csv.opened() - openedToInspect).toBe(1);
});

test('a code repeated in a later batch is named with its first line; a code taken before the import says so', async () => {
  // Batches of 3: line 2 and line 9 share a code (different batches), lines 5 and 6 too (one batch),
  // line 7 repeats a code imported by the test above, and line 8 repeats it again.
  const lines = [
    'code,holder_name,ticket_type,days',
    'REP-1,Ann One,GA,all',
    'REP-2,Bo Two,GA,all',
    'REP-3,Cy Three,GA,all',
    'REP-4,Di Four,GA,all',
    'rep-4,Ed Four Again,GA,all',
    'BIG-000001,Fay Taken,GA,all',
    'big-000001,Gil Taken Again,GA,all',
    'Rep-1,Hal One Again,GA,all',
    'REP-9,,GA,all',
    'REP-9,Ivy Nine,GA,all',
  ];
  const summary = await importTicketsCsv(database.db, { eventId, csv: Buffer.from(`${lines.join('\n')}\n`), batchSize: 3 });
  expect(summary.rows).toBe(10);
  expect(summary.imported).toBe(5);
  expect(summary.rejected).toEqual([
    { line: 6, code: 'rep-4', reason: 'duplicate code: already on line 5' },
    { line: 7, code: 'BIG-000001', reason: 'duplicate code: a ticket with this code already exists' },
    { line: 8, code: 'big-000001', reason: 'duplicate code: already on line 7' },
    { line: 9, code: 'Rep-1', reason: 'duplicate code: already on line 2' },
    { line: 10, code: 'REP-9', reason: 'empty holder_name' },
  ]);
  const stored = await database.db.select({ code: tickets.code, holderName: tickets.holderName }).from(tickets).where(eq(tickets.eventId, eventId));
  expect(stored.filter((ticket) => ticket.code.toUpperCase().startsWith('REP-')).map((ticket) => ticket.holderName).sort()).toEqual([
    'Ann One',
    'Bo Two',
    'Cy Three',
    'Di Four',
    'Ivy Nine',
  ]);
});

test("an import stopped after its first batch leaves its audit entry counting each code repeated within that batch once among the skipped", async () => {
  const [event] = await database.db.select({ organizationId: events.organizationId }).from(events).where(eq(events.id, eventId));
  if (!event) throw new Error('no event');
  const [stopped] = await database.db.insert(events).values({ organizationId: event.organizationId, title: 'Stopped Import', date: '2026-12-01', status: 'live' }).returning();
  if (!stopped) throw new Error('no event');
  const lines = ['code,holder_name,ticket_type,days', 'STOP-1,Ann,GA,all', 'stop-1,Ann Again,GA,all', 'STOP-2,Bo,GA,all', 'STOP-3,Cy,GA,all', 'STOP-4,Di,GA,all'];
  const crash = new Error('the import process stops here');
  const run = importTicketsCsv(database.db, {
    eventId: stopped.id,
    csv: Buffer.from(`${lines.join('\n')}\n`),
    batchSize: 4,
    onProgress: () => {
      throw crash;
    },
  });
  await expect(run).rejects.toBe(crash);
  const entries = await database.db.select({ after: auditEntries.after }).from(auditEntries).where(and(eq(auditEntries.eventId, stopped.id), eq(auditEntries.action, 'tickets.imported')));
  expect(entries).toEqual([{ after: { rows: 4, added: 3, skipped: 1, rejected: 0, isFinished: false } }]);
});
