/**
 * The scan log as supervisors read it (issue 11): every verify (approved or denied), every manual
 * check-in and every undo of an event, newest first, filterable by day and verdict, a page at a
 * time with a keyset cursor (scanned_at, id) so a page costs the same at any depth. The admin CLI
 * exports the same rows as CSV (`scanlog export`).
 */
import type { ScanLogEntry, ScanLogPage, ScanLogVerdict } from '@gatecheck/contract';
import { and, desc, eq, lt, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { alias } from 'drizzle-orm/pg-core';
import { offlineScans, scanLog, users } from '../db/schema.ts';
import { isId, ServiceError } from './errors.ts';

/** Columns of the scan log CSV (`sent_by`: who sent a colleague's offline scan, decision 077; else empty). */
export const SCAN_LOG_CSV_COLUMNS = ['at', 'day', 'user', 'code', 'verdict', 'reason', 'source', 'sent_by', 'received_at'] as const;

/** One scan log entry as a row under SCAN_LOG_CSV_COLUMNS. */
export function scanLogCsvRow(entry: ScanLogEntry): string[] {
  return [entry.at, String(entry.day), entry.userName, entry.code, entry.verdict, entry.reason ?? '', entry.source, entry.sentBy ?? '', entry.receivedAt ?? entry.at];
}

/** Which entries to read. */
export interface ScanLogFilter {
  day?: number | undefined;
  verdict?: ScanLogVerdict | undefined;
}

/** Where a page ended: the last entry's time (ISO 8601, microseconds kept as text) and id. */
interface Cursor {
  at: string;
  id: string;
}

/**
 * One page of `eventId`'s scan log: at most `limit` entries, newest first, after `cursor` (the
 * previous page's `nextCursor`).
 * @throws ServiceError `bad_request` for a cursor this server did not write.
 */
export async function readScanLog(
  db: DbOrTx,
  eventId: string,
  filter: ScanLogFilter,
  page: { limit: number; cursor?: string | undefined },
): Promise<ScanLogPage> {
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
  const rows = await selectEntries(db, eventId, filter, after, page.limit + 1);
  const entries = rows.slice(0, page.limit);
  const last = rows.length > page.limit ? entries.at(-1) : undefined;
  return {
    entries: entries.map(toEntry),
    nextCursor: last ? encodeCursor({ at: last.atText, id: last.id }) : null,
  };
}

/**
 * Every entry of `eventId`'s scan log matching `filter`, oldest first, in pages of `batchSize`,
 * for an export that does not hold the whole log in memory.
 */
export async function* allScanLogEntries(db: DbOrTx, eventId: string, filter: ScanLogFilter, batchSize = 5_000): AsyncGenerator<ScanLogEntry> {
  const newestFirst: ScanLogEntry[] = [];
  let after: Cursor | undefined;
  // Newest-first keyset pages, reversed at the end: the log of one event fits in memory as rows of
  // text; the database reads it by index either way.
  for (;;) {
    const rows = await selectEntries(db, eventId, filter, after, batchSize);
    newestFirst.push(...rows.map(toEntry));
    const last = rows.at(-1);
    if (!last || rows.length < batchSize) break;
    after = { at: last.atText, id: last.id };
  }
  for (let index = newestFirst.length - 1; index >= 0; index--) {
    const entry = newestFirst[index];
    if (entry) yield entry;
  }
}

/** The staff member who sent an offline scan made by a colleague. */
const senders = alias(users, 'senders');

async function selectEntries(db: DbOrTx, eventId: string, filter: ScanLogFilter, after: Cursor | undefined, limit: number) {
  const conditions: Array<SQL | undefined> = [eq(scanLog.eventId, eventId)];
  if (filter.day !== undefined) conditions.push(eq(scanLog.day, filter.day));
  if (filter.verdict !== undefined) conditions.push(eq(scanLog.verdict, filter.verdict));
  if (after) {
    // Compared as timestamptz from the cursor's full-precision text (a JS Date would drop microseconds).
    const at = sqlTimestamp(after.at);
    conditions.push(or(lt(scanLog.scannedAt, at), and(eq(scanLog.scannedAt, at), lt(scanLog.id, after.id))));
  }
  return db
    .select({
      id: scanLog.id,
      scannedAt: scanLog.scannedAt,
      atText: sqlText,
      day: scanLog.day,
      userName: users.displayName,
      code: scanLog.code,
      verdict: scanLog.verdict,
      reason: scanLog.reason,
      source: scanLog.source,
      userId: scanLog.userId,
      sentById: offlineScans.sentBy,
      sentByName: senders.displayName,
      receivedAt: offlineScans.receivedAt,
      checkInListId: scanLog.checkInListId,
    })
    .from(scanLog)
    .innerJoin(users, eq(users.id, scanLog.userId))
    // An offline scan's upload (its primary key: event and scan id), for who sent it (decision 077).
    .leftJoin(offlineScans, and(eq(scanLog.source, 'offline'), eq(offlineScans.eventId, scanLog.eventId), eq(offlineScans.scanId, scanLog.scanId)))
    .leftJoin(senders, eq(senders.id, offlineScans.sentBy))
    .where(and(...conditions))
    .orderBy(desc(scanLog.scannedAt), desc(scanLog.id))
    .limit(limit);
}

/** scanned_at as text with microseconds, UTC (the cursor keeps it exactly). */
const sqlText = sql<string>`to_char(${scanLog.scannedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

function sqlTimestamp(text: string): SQL<Date> {
  return sql<Date>`${text}::timestamptz`;
}

function toEntry(row: Awaited<ReturnType<typeof selectEntries>>[number]): ScanLogEntry {
  return {
    id: row.id,
    at: row.scannedAt.toISOString(),
    day: row.day,
    userName: row.userName,
    code: row.code,
    verdict: row.verdict,
    reason: row.reason,
    source: row.source,
    sentBy: row.sentById !== null && row.sentById !== row.userId ? row.sentByName : null,
    // An offline scan's `at` is the device's claim; the server's own time is its upload's (decision 088).
    receivedAt: (row.receivedAt ?? row.scannedAt).toISOString(),
    // The list of the attempt (docs/decisions/121); null for rows written before, and info scans.
    checkInListId: row.checkInListId,
    // An exit recorded, or one refused because the guest was not inside (docs/decisions/111).
    ...(row.verdict === 'exited' || row.reason === 'not_inside' ? { direction: 'exit' as const } : {}),
  };
}

const CURSOR_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.at}|${cursor.id}`, 'utf8').toString('base64url');
}

function decodeCursor(text: string): Cursor {
  const [at, id, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !at || !id || !CURSOR_PATTERN.test(at) || !isId(id)) {
    throw new ServiceError('bad_request', 'This page cursor is not valid; start from the first page.');
  }
  return { at, id };
}
