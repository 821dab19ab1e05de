/**
 * Importing an event's tickets from CSV (issue 4, admin CLI `tickets import`).
 *
 * Header: `code,holder_name,ticket_type,days`, in any order; `code` may be left out or empty (an
 * unguessable code is generated), and an `event_title` column is accepted so the demo seed's
 * tickets.csv (`code,event_title,holder_name,ticket_type,days`) can be imported: rows whose
 * event_title is not this event's title are rejected. `days` is `all` or day numbers joined by `|`
 * (e.g. `1|3`), each a day of the event (an event without configured days has only day 1).
 * Optional `note` and `attention` give the ticket its own check-in note (at most 300 characters, no
 * control characters but line breaks) and attention flag (yes/no, true/false, 1/0; empty = no),
 * shown at the door with its type's (docs/decisions/102). Each new `ticket_type` becomes a type of
 * the event.
 *
 * Every row is checked on its own: a rejected row (with its line number and why) never blocks the
 * others. Two faults of the whole file refuse it before anything is imported (`inspectCsv`): a
 * quote where CSV allows none, such as one never closed (past it the parser cannot tell where rows
 * start, and rows would be lost), and text that is not UTF-8 (Excel's legacy "CSV": names would be
 * stored with � in them). A quote inside an unquoted field is kept as text, as Excel reads it. A
 * header separated by semicolons (Excel's "CSV" in much of Europe) makes `;` the file's separator.
 * Valid rows are inserted in batches, one transaction per batch; a code that already exists
 * (in the database or earlier in the file, ignoring case: `abc-12` and `ABC-12` are one ticket code)
 * is rejected as a duplicate.
 *
 * A code too weak to keep secret on a device (under 64 bits by `ticketCodeStrengthBits`, e.g. an
 * 8-digit barcode) is imported — organizers bring such codes from other systems — but its ticket is
 * left off every door list; the summary names each one (`offlineOnly`, docs/decisions/087).
 *
 * The file is streamed (issue 13: a 1,000,000-row file must not sit in memory): parsed as it is
 * read, checked row by row, inserted a batch at a time; repeated codes are found by the database's
 * unique index, not by a set of every code (docs/decisions/059).
 */
import { checkInNoteText, isDoorListCode, parseAttentionFlag, ticketCodeStrengthBits, type TicketImportSnapshot } from '@gatecheck/contract';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { type Options, Parser } from 'csv-parse';
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { inTransaction } from '../db/transactions.ts';
import { tickets } from '../db/schema.ts';
import { type Actor, cliActor, recordAuditReturningId, updateAuditAfter } from './audit.ts';
import { findEvent, type EventDetails } from './events.ts';
import { ServiceError } from './errors.ts';
import { generateTicketCode, ticketCodeKey, ticketCodeProblem } from './ticket-codes.ts';
import { insertTickets } from './tickets.ts';

/** The `note` column's rule (the contract's), built once: a million-row file checks a million notes. */
const CHECK_IN_NOTE = checkInNoteText();

/** Rows per insert transaction. */
export const DEFAULT_IMPORT_BATCH_SIZE = 500;
/**
 * Rows per insert transaction of an import beside the doors (the management API's upload,
 * docs/decisions/136). On the embedded database a batch's transaction holds its one connection, and
 * its INSERT runs on the JavaScript thread, until it commits: a door's verify waits for the batch
 * in progress. 100 rows held it about a fifth as long as 500 for about the same import time.
 */
export const BESIDE_DOORS_BATCH_SIZE = 100;
/** Longest holder name and ticket type accepted, in characters. */
const HOLDER_NAME_MAX_LENGTH = 200;
const TICKET_TYPE_MAX_LENGTH = 100;

const REQUIRED_COLUMNS = ['holder_name', 'ticket_type', 'days'] as const;
const OPTIONAL_COLUMNS = ['code', 'event_title', 'note', 'attention'] as const;
type Column = (typeof REQUIRED_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];
const KNOWN_COLUMNS: readonly Column[] = [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS];

function isColumn(name: string): name is Column {
  return KNOWN_COLUMNS.some((column) => column === name);
}

/** A row that was not imported: its line in the file (1 = header), its code when it had one, and why. */
interface RejectedRow {
  line: number;
  code?: string;
  reason: string;
}

/** The outcome of an import. */
export interface TicketImportSummary {
  eventTitle: string;
  /** Data rows read (not counting the header and blank lines). */
  rows: number;
  imported: number;
  /** How many of the imported tickets got a generated code. */
  generatedCodes: number;
  /** Rejected rows by line number. */
  rejected: RejectedRow[];
  /**
   * Imported tickets whose codes are too weak for a door list (`isDoorListCode`, docs/decisions/087):
   * valid at verify, left off every door list. `count` of them all; `rows`, the first
   * OFFLINE_ONLY_ROWS_KEPT by line, with each code's estimated strength in bits.
   */
  offlineOnly: { count: number; rows: { line: number; code: string; bits: number }[] };
}

/** How many of the imported tickets kept off the door list a summary names one by one. */
export const OFFLINE_ONLY_ROWS_KEPT = 200;

/** Where the CSV comes from: its content, or a function that opens it (again) as a byte stream. */
export type TicketCsvSource = string | Buffer | (() => Readable);

/** How far an import has got (`onProgress`). */
export interface TicketImportProgress {
  /** Data rows handled so far (imported or rejected). */
  rows: number;
  /** Bytes of the file parsed so far (compare with its size for a percentage). */
  bytes: number;
  /** Insert batches committed so far. */
  batches: number;
}

/** Options of importTicketsCsv. */
export interface TicketImportOptions {
  eventId: string;
  /**
   * The CSV file (UTF-8; a byte-order mark is ignored): its content, or a function opening it as a
   * stream (a file: `() => createReadStream(file)`). A stream is read as the batches go, never
   * whole; it is opened to inspect the file (`inspectCsv`: its header, then the whole file), to
   * import it, and once more only when some code was refused as taken (to name the line a repeated
   * code first appeared on).
   */
  csv: TicketCsvSource;
  /** Rows per transaction (default 500). */
  batchSize?: number;
  /** Called after each committed batch, and once at the end. */
  onProgress?: (progress: TicketImportProgress) => void;
  /**
   * After each batch, wait this many times as long as the batch took (default 0: at once). A server
   * importing beside its doors uses 1: the import then gets about half of the process's time and a
   * verify waits at most about one batch (a batch's parsing, checks and insert all share the one
   * JavaScript thread with verify, and on the embedded database the database too).
   */
  pauseFactor?: number;
  /**
   * Who imports. An import is one audit entry ('tickets.imported', `TicketImportSnapshot`,
   * docs/decisions/126), written in the transaction of the first batch that adds a ticket and brought
   * up to date in the transaction of each later one, so no committed batch is ever off the record;
   * at the end it is marked finished with the rows skipped and rejected. Default: the admin CLI's
   * actor.
   */
  actor?: Actor;
  /** What inspectTicketsCsv answered for this same `csv`: the file is then not inspected again. */
  inspected?: InspectedCsv;
}

/** What inspecting a file found (`inspectTicketsCsv`): its field separator. */
export interface InspectedCsv {
  delimiter: Delimiter;
}

interface ValidRow {
  line: number;
  code: string;
  isGenerated: boolean;
  holderName: string;
  ticketType: string;
  /** null = every day of the event. */
  days: number[] | null;
  /** The ticket's own check-in note ('' = none) and attention flag (docs/decisions/102). */
  checkInNote: string;
  requiresAttention: boolean;
}

/**
 * Imports the tickets of `csv` into event `eventId` (rules in the module comment), streaming: rows
 * are parsed as they are read and inserted `batchSize` at a time, so memory holds one batch, the
 * rejected rows and the codes refused as taken, whatever the file's size. A repeated code is found
 * by the database (ON CONFLICT on the upper(code) index) rather than by a set of every code read;
 * to tell "already on line N" from "a ticket with this code already exists", a file with refused
 * codes is read once more at the end.
 * @throws ServiceError `not_found` for an unknown event; `bad_request` when the file cannot be
 *   imported at all (empty, header without holder_name/ticket_type/days, unknown or repeated column,
 *   a quote never closed, not UTF-8), and then nothing is imported.
 */
export async function importTicketsCsv(db: Db, options: TicketImportOptions): Promise<TicketImportSummary> {
  const audit: ImportAudit = { actor: options.actor ?? cliActor(), id: null, added: 0 };
  const summary = await readCsvInto(db, options, (event, rows, counts) => insertBatch(db, { event, batch: rows, audit, counts }));
  if (audit.id !== null) {
    const skipped = summary.rejected.filter((row) => row.reason.startsWith('duplicate code:')).length;
    const finished: TicketImportSnapshot = { rows: summary.rows, added: summary.imported, skipped, rejected: summary.rejected.length - skipped, isFinished: true };
    const id = audit.id;
    await inTransaction(db, (tx) => updateAuditAfter(tx, id, finished));
  }
  return summary;
}

/** A running import's one audit entry (docs/decisions/126): who, its id once written, tickets added so far. */
interface ImportAudit {
  actor: Actor;
  id: string | null;
  added: number;
}

/** What an import has read so far when a batch is written: data rows, rows rejected, codes refused as taken. */
interface ImportCounts {
  rows: number;
  rejected: number;
  skipped: number;
}

/**
 * What importing `csv` into event `eventId` would do, without writing anything: the same reading,
 * inspection and row checks as `importTicketsCsv` (a file refused whole is refused here too), and
 * the codes that are taken — by a ticket in the database or by an earlier row of the file — named
 * as the import would name them. Holds the file's code keys in memory (a web upload, bounded by
 * TICKET_CSV_UPLOAD_MAX_BYTES). A concurrent import may still take a code between the preview and
 * the import; the import then rejects that row.
 * @throws ServiceError as importTicketsCsv, before anything is read past the fault.
 */
export async function previewTicketsCsv(db: Db, options: Pick<TicketImportOptions, 'eventId' | 'csv' | 'batchSize'>): Promise<TicketImportSummary> {
  const seen = new Set<string>();
  return readCsvInto(db, options, async (_event, rows) => {
    const keys = rows.map((row) => ticketCodeKey(row.code));
    const taken = new Set(
      keys.length === 0
        ? []
        : (await db.select({ key: sql<string>`upper(${tickets.code})` }).from(tickets).where(inArray(sql`upper(${tickets.code})`, keys))).map((row) => row.key),
    );
    const accepted = new Set<string>();
    for (const row of rows) {
      const key = ticketCodeKey(row.code);
      if (taken.has(key) || seen.has(key)) continue;
      seen.add(key);
      accepted.add(row.code);
    }
    return accepted;
  });
}

/**
 * The first checks of a file to import into `eventId`, without reading its rows: the event exists,
 * the whole-file faults of `inspectCsv`, and a usable header. For a caller that must answer a
 * refused file before it starts reporting progress (the management API's import).
 * @returns what importTicketsCsv's `inspected` takes, so that the import does not read the whole file again to check it.
 * @throws ServiceError `not_found` (event), `bad_request` (as importTicketsCsv).
 */
export async function inspectTicketsCsv(db: Db, options: Pick<TicketImportOptions, 'eventId' | 'csv'>): Promise<InspectedCsv> {
  await findEvent(db, options.eventId);
  const inspected = await inspectCsv(options.csv);
  for await (const { record } of readRecords(options.csv, [], inspected.delimiter)) {
    readHeader(record.fields);
    return inspected;
  }
  throw new ServiceError('bad_request', 'The CSV file is empty: expected the header code,holder_name,ticket_type,days');
}

/**
 * Reads `options.csv` for event `options.eventId`, checks each row and hands valid rows to `write`
 * a batch at a time; `write` answers the codes it took (the others count as taken).
 */
async function readCsvInto(
  db: Db,
  options: Pick<TicketImportOptions, 'eventId' | 'csv' | 'batchSize' | 'onProgress' | 'pauseFactor' | 'inspected'>,
  write: (event: EventDetails, rows: ValidRow[], counts: ImportCounts) => Promise<Set<string>>,
): Promise<TicketImportSummary> {
  const event = await findEvent(db, options.eventId);
  // Inspected already (inspectTicketsCsv): the whole file is not read once more for the same answer.
  const { delimiter } = options.inspected ?? (await inspectCsv(options.csv));
  const batchSize = options.batchSize ?? DEFAULT_IMPORT_BATCH_SIZE;
  const rejected: RejectedRow[] = [];
  /** Valid rows whose code the database refused (taken), by code key: resolved after the last batch. */
  const refused = new Map<string, ValidRow[]>();
  const progress: TicketImportProgress = { rows: 0, bytes: 0, batches: 0 };
  let imported = 0;
  let generatedCodes = 0;
  const offlineOnly: TicketImportSummary['offlineOnly'] = { count: 0, rows: [] };
  let columns: Map<Column, number> | undefined;
  let batch: ValidRow[] = [];
  /** When the current batch began to be read (ms, performance.now()): its parsing counts to its time. */
  let batchStarted = performance.now();

  const flush = async () => {
    if (batch.length === 0) return;
    const rows = batch;
    batch = [];
    // A code twice in one batch: the first goes in, the others count as refused (like a taken code).
    const firstInBatch = new Map<string, ValidRow>();
    const toInsert: ValidRow[] = [];
    for (const row of rows) {
      const key = ticketCodeKey(row.code);
      if (firstInBatch.has(key)) addRefused(refused, key, row);
      else {
        firstInBatch.set(key, row);
        toInsert.push(row);
      }
    }
    // `refused` already holds this batch's repeats (just above): counted once; the codes the
    // database refuses as taken are added by the write itself (inserted fewer than given).
    const skipped = [...refused.values()].reduce((sum, refusedRows) => sum + refusedRows.length, 0);
    const inserted = await write(event, toInsert, { rows: progress.rows + rows.length, rejected: rejected.length, skipped });
    for (const row of toInsert) {
      if (inserted.has(row.code)) {
        imported += 1;
        if (row.isGenerated) generatedCodes += 1;
        if (!isDoorListCode(row.code)) {
          offlineOnly.count += 1;
          if (offlineOnly.rows.length < OFFLINE_ONLY_ROWS_KEPT) offlineOnly.rows.push({ line: row.line, code: row.code, bits: ticketCodeStrengthBits(row.code) });
        }
      } else {
        addRefused(refused, ticketCodeKey(row.code), row);
      }
    }
    progress.rows += rows.length;
    progress.batches += 1;
    options.onProgress?.({ ...progress });
    // Let the event loop take other requests between batches: on the embedded database a batch and
    // the parsing after it resolve through promises alone, which would hold back a door's verify
    // (and every other request) until the whole file is in.
    const pauseMs = (performance.now() - batchStarted) * (options.pauseFactor ?? 0);
    await new Promise<void>((resolve) => (pauseMs >= 1 ? setTimeout(resolve, pauseMs) : setImmediate(resolve)));
    batchStarted = performance.now();
  };

  for await (const item of readRecords(options.csv, rejected, delimiter)) {
    progress.bytes = item.bytes;
    if (!columns) {
      columns = readHeader(item.record.fields);
      continue;
    }
    const outcome = checkRow(item.record, columns, event);
    if ('reason' in outcome) {
      rejected.push(outcome);
      progress.rows += 1;
      continue;
    }
    batch.push(outcome);
    if (batch.length >= batchSize) await flush();
  }
  if (!columns) throw new ServiceError('bad_request', 'The CSV file is empty: expected the header code,holder_name,ticket_type,days');
  await flush();

  if (refused.size > 0) {
    const firstLines = await firstValidLines(options.csv, event, new Set(refused.keys()), delimiter);
    for (const [key, rows] of refused) {
      const firstLine = firstLines.get(key);
      for (const row of rows) {
        const reason =
          firstLine !== undefined && firstLine < row.line
            ? `duplicate code: already on line ${firstLine}`
            : 'duplicate code: a ticket with this code already exists';
        rejected.push({ line: row.line, code: row.code, reason });
      }
    }
  }
  // Rows the parser skipped (malformed CSV) are rows too; they were counted in `rejected` only.
  const parseRejections = rejected.filter((row) => row.reason.startsWith('malformed CSV:')).length;
  progress.rows += parseRejections;
  options.onProgress?.({ ...progress });

  rejected.sort((a, b) => a.line - b.line);
  offlineOnly.rows.sort((a, b) => a.line - b.line);
  return { eventTitle: event.title, rows: progress.rows, imported, generatedCodes, rejected, offlineOnly };
}

function addRefused(refused: Map<string, ValidRow[]>, key: string, row: ValidRow): void {
  const rows = refused.get(key);
  if (rows) rows.push(row);
  else refused.set(key, [row]);
}

/**
 * Reads the file again and tells, for each code key of `keys`, the first line where a row with
 * that code passes the row checks (what "already on line N" names).
 */
async function firstValidLines(csv: TicketCsvSource, event: EventDetails, keys: Set<string>, delimiter: Delimiter): Promise<Map<string, number>> {
  const firstLines = new Map<string, number>();
  let columns: Map<Column, number> | undefined;
  for await (const { record } of readRecords(csv, [], delimiter)) {
    if (!columns) {
      columns = readHeader(record.fields);
      continue;
    }
    const outcome = checkRow(record, columns, event);
    if ('reason' in outcome || outcome.isGenerated) continue;
    const key = ticketCodeKey(outcome.code);
    if (keys.has(key) && !firstLines.has(key)) firstLines.set(key, outcome.line);
  }
  return firstLines;
}

interface CsvRecord {
  /** Line where the record starts (1-based). */
  line: number;
  fields: string[];
}

/** A parsed record, the bytes of the file parsed up to it and the line it ends on. */
interface ParsedRecord {
  record: CsvRecord;
  bytes: number;
  endLine: number;
}

/** The field separator of a file: a comma, or a semicolon when its header uses one (`inspectCsv`). */
type Delimiter = ',' | ';';

/** Records read between two turns of the event loop (`readRecords`). */
const RECORDS_PER_EVENT_LOOP_TURN = 1_000;

/** What the parser turns bytes it cannot read as UTF-8 into. */
const REPLACEMENT_CHARACTER = '\uFFFD';

/**
 * The first read of a file, before anything is imported: its separator (`;` when the header has
 * semicolons and no commas), and the faults that refuse the whole file, since the rows after them
 * cannot be read as they were meant: a misplaced quote (`throwOnParseError`), text that is not
 * UTF-8. Reads the file once more (streaming; about 1 % of an import's time, decision 079).
 * @throws ServiceError `bad_request` for those faults, naming the line.
 */
async function inspectCsv(csv: TicketCsvSource): Promise<InspectedCsv> {
  const delimiter = separatorOf(await headerLineOf(csv));
  const parseErrors: RejectedRow[] = [];
  /** Where the last record read ended: an unclosed quote opens on the record after it. */
  let lastLine = 0;
  // Read to the end even past a parse error: records the parser had buffered before it still come,
  // and the line named for a quote never closed is the one after the last of them.
  for await (const { record, endLine } of readRecords(csv, parseErrors, delimiter)) {
    checkUtf8(record);
    lastLine = endLine;
  }
  throwOnParseError(parseErrors, lastLine);
  return { delimiter };
}

/**
 * Bytes of a file given whole (an upload) handed to the parser at a time. csv-parse reads each
 * chunk it is given in one go, without a turn of the event loop: an upload of 100,000 rows given
 * as one chunk held every other request for over a second, once per read of the file. 16 KiB is
 * about 300 rows, a few milliseconds of parsing.
 */
export const CSV_SLICE_BYTES = 16 * 1024;

/**
 * `csv` as a byte stream, opened anew: a file's read stream (its own chunks, 64 KiB), or its
 * content in slices of CSV_SLICE_BYTES (a slice may end inside a character: the parser joins a
 * field's bytes before decoding them).
 */
export function openCsv(csv: TicketCsvSource): Readable {
  if (typeof csv === 'function') return csv();
  const bytes = typeof csv === 'string' ? Buffer.from(csv, 'utf8') : csv;
  return Readable.from(
    (function* slices() {
      for (let start = 0; start < bytes.length; start += CSV_SLICE_BYTES) yield bytes.subarray(start, start + CSV_SLICE_BYTES);
    })(),
  );
}

/** Longest header line looked at for its separator, in characters. */
const HEADER_LINE_MAX = 4_096;

/** The file's first line with text (its byte-order mark left out), read as bytes come; '' if none. */
async function headerLineOf(csv: TicketCsvSource): Promise<string> {
  const source = openCsv(csv);
  // A chunk may end inside a character: the decoder keeps its first bytes for the next chunk.
  const decoder = new StringDecoder('utf8');
  let text = '';
  try {
    for await (const chunk of source) {
      text += Buffer.isBuffer(chunk) ? decoder.write(chunk) : String(chunk);
      const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
      // A line is whole once a line break follows it.
      const whole = lines.slice(0, -1).find((line) => line.trim() !== '');
      if (whole !== undefined) return whole;
      if (text.length > HEADER_LINE_MAX) break;
    }
  } finally {
    source.destroy();
  }
  return text.replace(/^\uFEFF/, '').trim();
}

/**
 * `;` when a header line has semicolons and no commas outside its quoted names (Excel's "CSV" where
 * the decimal separator is a comma; LibreOffice may quote every name: `"code";"holder_name";…`),
 * else `,`.
 */
function separatorOf(headerLine: string): Delimiter {
  const unquoted = headerLine.replace(/"(?:[^"]|"")*"/g, '');
  return unquoted.includes(';') && !unquoted.includes(',') ? ';' : ',';
}

/** @throws ServiceError `bad_request` when `record` holds bytes that were not UTF-8. */
function checkUtf8(record: CsvRecord): void {
  if (!record.fields.some((field) => field.includes(REPLACEMENT_CHARACTER))) return;
  throw new ServiceError(
    'bad_request',
    `Line ${record.line} is not UTF-8 text (the file was saved in another encoding, e.g. Excel's "CSV" instead of "CSV UTF-8"). Nothing was imported: save the file as CSV UTF-8 and import it again.`,
  );
}

/**
 * @throws ServiceError `bad_request` when the parser met a quote where CSV allows none: past such
 *   a fault it cannot tell where the next row starts, and rows after it can vanish without an error
 *   of their own (csv-parse, adaltas/node-csv#214), so no part of the file is taken.
 */
function throwOnParseError(parseErrors: readonly RejectedRow[], lastLine: number): void {
  const first = parseErrors[0];
  if (!first) return;
  if (first.reason.includes('Quote Not Closed')) {
    throw new ServiceError(
      'bad_request',
      `A quote opens on line ${lastLine + 1} (or the first line with text after it) and is never closed, so every row after it would be read as part of one field. Nothing was imported: close the quote and import the file again.`,
    );
  }
  throw new ServiceError(
    'bad_request',
    `Line ${first.line} has a quote where CSV allows none (${first.reason.replace(/^malformed CSV: /, '')}), so the rows after it cannot be read reliably. Nothing was imported: fix that line (a quoted field ends with its closing quote, then a comma) and import the file again.`,
  );
}

/**
 * The records of `csv` as the parser (csv-parse's stream) reads them, each with the bytes parsed so
 * far and the line it ends on; records the parser must skip (e.g. a stray quote) become rejections
 * in `rejected`. `delimiter` separates fields.
 */
async function* readRecords(csv: TicketCsvSource, rejected: RejectedRow[], delimiter: Delimiter): AsyncGenerator<ParsedRecord> {
  const source = openCsv(csv);
  const parserOptions: Options<ParsedRecord, string[]> = {
    delimiter,
    bom: true,
    trim: true,
    skip_empty_lines: true,
    relax_column_count: true,
    // A quote inside an unquoted field (`Dwayne "The Rock" Johnson`) is part of the text, as Excel
    // reads it; a quoted field must still be closed.
    relax_quotes: true,
    skip_records_with_error: true,
    on_skip: (error) => {
      const line = typeof error?.lines === 'number' ? error.lines : 0;
      // The parser may report one record more than once (one error per fault in it): one rejection.
      const last = rejected.at(-1);
      if (last?.line === line && last.reason.startsWith('malformed CSV:')) return undefined;
      rejected.push({ line, reason: `malformed CSV: ${error?.message ?? 'unreadable record'}` });
      return undefined;
    },
    on_record: (record: string[], info) => {
      // info.lines is where the record ends; quoted fields may span lines.
      const extraLines = record.reduce((sum, field) => sum + (field.match(/\n/g)?.length ?? 0), 0);
      return { record: { line: info.lines - extraLines, fields: record }, bytes: info.bytes, endLine: info.lines };
    },
  };
  // The typings tie a callback-less parser to string[] records; on_record above makes them ParsedRecord.
  const parser = new Parser(parserOptions as unknown as Options);
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);
  try {
    let sinceYield = 0;
    for await (const item of parser as AsyncIterable<ParsedRecord>) {
      yield item;
      // A file given whole (an upload) is parsed from one chunk through promises alone: without a
      // turn of the event loop now and then, reading it would hold back every other request.
      sinceYield += 1;
      if (sinceYield >= RECORDS_PER_EVENT_LOOP_TURN) {
        sinceYield = 0;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
  } finally {
    source.destroy();
  }
}

/** Column positions by name. @throws ServiceError `bad_request` for a header that cannot be used. */
function readHeader(fields: string[]): Map<Column, number> {
  const names = fields.map((field) => field.trim().toLowerCase());
  const unknown = names.filter((name) => !isColumn(name));
  if (unknown.length > 0) {
    throw new ServiceError(
      'bad_request',
      `Unknown CSV column(s) ${unknown.map((name) => `"${name}"`).join(', ')}: expected code,holder_name,ticket_type,days (code optional; event_title, note, attention allowed)`,
    );
  }
  const repeated = names.filter((name, index) => names.indexOf(name) !== index);
  if (repeated.length > 0) throw new ServiceError('bad_request', `CSV column "${repeated[0]}" appears more than once`);
  const missing = REQUIRED_COLUMNS.filter((name) => !names.includes(name));
  if (missing.length > 0) {
    throw new ServiceError('bad_request', `The CSV header lacks ${missing.join(', ')}: expected code,holder_name,ticket_type,days`);
  }
  const positions = new Map<Column, number>();
  names.forEach((name, index) => {
    if (isColumn(name)) positions.set(name, index);
  });
  return positions;
}

function checkRow(record: CsvRecord, columns: Map<Column, number>, event: EventDetails): ValidRow | RejectedRow {
  const field = (column: Column) => {
    const index = columns.get(column);
    return index === undefined ? '' : (record.fields[index] ?? '').trim();
  };
  const line = record.line;
  const givenCode = field('code');
  const reject = (reason: string): RejectedRow => ({ line, ...(givenCode ? { code: givenCode } : {}), reason });

  if (record.fields.length !== columns.size) {
    return reject(`expected ${columns.size} fields, found ${record.fields.length}`);
  }
  if (givenCode) {
    const problem = ticketCodeProblem(givenCode);
    if (problem) return reject(problem);
  }
  const eventTitle = field('event_title');
  if (eventTitle && eventTitle.toLowerCase() !== event.title.toLowerCase()) {
    return reject(`event_title "${eventTitle}" is not this event ("${event.title}")`);
  }
  // A quoted field may hold line breaks or runs of spaces; a printed ticket shows one line.
  const holderName = field('holder_name').replace(/\s+/g, ' ');
  if (!holderName) return reject('empty holder_name');
  if (holderName.length > HOLDER_NAME_MAX_LENGTH) return reject(`holder_name is longer than ${HOLDER_NAME_MAX_LENGTH} characters`);
  const ticketType = field('ticket_type').replace(/\s+/g, ' ');
  if (!ticketType) return reject('empty ticket_type');
  if (ticketType.length > TICKET_TYPE_MAX_LENGTH) return reject(`ticket_type is longer than ${TICKET_TYPE_MAX_LENGTH} characters`);
  const days = parseDays(field('days'), event);
  if (typeof days === 'string') return reject(days);
  const note = CHECK_IN_NOTE.safeParse(field('note'));
  if (!note.success) return reject(`note ${note.error.issues[0]?.message ?? 'is not valid'}`);
  const requiresAttention = parseAttentionFlag(field('attention'));
  if (requiresAttention === null) return reject(`attention "${field('attention')}" is not one of yes/no, true/false, 1/0`);
  return {
    line,
    code: givenCode || generateTicketCode(),
    isGenerated: !givenCode,
    holderName,
    ticketType,
    days,
    checkInNote: note.data,
    requiresAttention,
  };
}

/** `all` → null; `1|3` → [1, 3] (sorted, without repeats); otherwise why not, as a string. */
function parseDays(text: string, event: EventDetails): number[] | null | string {
  if (!text) return 'empty days: use all or day numbers joined by | (e.g. 1|3)';
  if (text.toLowerCase() === 'all') return null;
  const parts = text.split('|').map((part) => part.trim());
  if (!parts.every((part) => /^\d{1,3}$/.test(part))) {
    return `malformed days "${text}": use all or day numbers joined by | (e.g. 1|3)`;
  }
  const eventDayNumbers = event.days.map((day) => day.day);
  const days = [...new Set(parts.map(Number))].sort((a, b) => a - b);
  const unknown = days.filter((day) => !eventDayNumbers.includes(day));
  if (unknown.length > 0) {
    return `unknown day ${unknown.join(', ')} for this event (its days: ${eventDayNumbers.join(', ')})`;
  }
  return days;
}

/**
 * Inserts one batch in one transaction, with the import's audit entry written (the first batch that
 * adds a ticket) or brought up to date (`audit`, docs/decisions/126) when it added any. A code that
 * is taken, ignoring case (an earlier import, a concurrent one, or a clash of generated codes), is
 * skipped by ON CONFLICT on the upper(code) index instead of failing the batch.
 * @returns the codes inserted.
 */
async function insertBatch(
  db: Db,
  { event, batch, audit, counts }: { event: EventDetails; batch: ValidRow[]; audit: ImportAudit; counts: ImportCounts },
): Promise<Set<string>> {
  if (batch.length === 0) return new Set();
  const written = await inTransaction(db, async (tx) => {
    const inserted = await insertTickets(
      tx,
      batch.map((row) => ({
        code: row.code,
        eventId: event.id,
        holderName: row.holderName,
        ticketType: row.ticketType,
        admittedDays: row.days,
        checkInNote: row.checkInNote,
        requiresAttention: row.requiresAttention,
      })),
      { skipTakenCodes: true },
    );
    if (inserted.length === 0) return { inserted, auditId: audit.id };
    const after: TicketImportSnapshot = {
      rows: counts.rows,
      added: audit.added + inserted.length,
      skipped: counts.skipped + batch.length - inserted.length,
      rejected: counts.rejected,
      isFinished: false,
    };
    if (audit.id !== null) {
      await updateAuditAfter(tx, audit.id, after);
      return { inserted, auditId: audit.id };
    }
    const auditId = await recordAuditReturningId(tx, audit.actor, { organizationId: event.organizationId, eventId: event.id, action: 'tickets.imported', before: null, after });
    return { inserted, auditId };
  });
  // Counted once the batch has committed: a batch rolled back leaves the entry as it was.
  audit.id = written.auditId;
  audit.added += written.inserted.length;
  return new Set(written.inserted.map((row) => row.code));
}
