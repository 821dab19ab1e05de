/**
 * Ticket verification (SPEC §7 POST /tickets/verify): the rule that a ticket is checked in exactly
 * once per event day. The database enforces it — `INSERT ... ON CONFLICT (ticket_id, day) WHERE
 * undone_at IS NULL DO NOTHING RETURNING` on the partial unique index of the active check-ins, never
 * a read-then-write in JS — and the check-in and its scan-log row are written in one transaction, so
 * a crash leaves neither or both.
 *
 * Issue 11 (docs/decisions/039): a supervisor's manual check-in from a search result goes through
 * the same decision and the same INSERT (`manualCheckIn`, logged with source `manual`), and an undo
 * (`undoCheckIn`) marks the active check-in undone — who, when, why — so the ticket can be checked
 * in again; no row is ever deleted.
 *
 * A denial is a verdict (`isValid: false` with a `reason` and a plain-English `message`), not an
 * error; only "unknown event" and "not a member of the event's organization" throw, both answered
 * 404 alike. Every attempt of a member goes to the scan log (docs/decisions/015); a non-member's
 * request never does: it is nobody's scan at that organization's gate (docs/decisions/086).
 */
import {
  type CheckInDecision,
  type CheckInInput,
  decideCheckIn,
  type DenialReason,
  isStorableText,
  renderTextSafely,
  type VerifyTicketRequest,
  type VerifyTicketResponse,
} from '@gatecheck/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../db/client.ts';
import { type BatchSize, byPosition, coalescedStatement, type KeyColumn, keysTable } from '../db/coalesce.ts';
import { inTransaction, retrying } from '../db/transactions.ts';
import { checkIns, eventDays, events, memberships, organizations, scanLog, tickets, users } from '../db/schema.ts';
import { changeStamp } from './door-list.ts';
import { AccessRefusedError, isId, noSuchEventMessage, ServiceError } from './errors.ts';
import { daysOrDefault, type EventDayInfo, type EventDetails, eventDetailsColumns, toDayCutoff } from './events.ts';
import { codeOfScannedText } from './signing-keys.ts';

/** The staff member scanning. */
export interface Scanner {
  userId: string;
}

type TicketRow = typeof tickets.$inferSelect;

/**
 * Why an attempt was refused, as the scan log records it: a denial reason. (Rows written before
 * docs/decisions/086 may say `forbidden`: a non-member's attempt, no longer logged there.)
 */
type ScanLogReason = DenialReason;

/** The active check-in of a ticket on a day (not undone): the partial unique index's predicate. */
const isActiveCheckIn = isNull(checkIns.undoneAt);

/**
 * Verifies `request.qrCode` (any letter case; or a signed ticket's QR text, docs/decisions/043) for `request.day` of event `request.eventId` and, when
 * it is valid and not yet used that day, records the check-in. Every call of a member of the event's
 * organization writes one scan_log row.
 *
 * Verdicts, checked in this order: denied with reason `not_found` (unknown code, a code that is not storable text, or a ticket of
 * another organization's event — nothing leaks across organizations), `wrong_event` (a ticket of
 * another event of the same organization), `event_not_active` (the event is a draft, completed or
 * cancelled), `revoked`, `not_valid_today` (a day the ticket does not admit or the event does not
 * have; an event without configured days has only day 1), `not_event_day` (the chosen day is not
 * open at `now` on the event's calendar — its time zone and cut-off — unless the event allows
 * scanning outside its days; docs/decisions/021), or `already_checked_in` (with the first
 * check-in's `checkedInAt` and `checkedInBy`, the staff member's display name); otherwise approved
 * `{ isValid: true, eventName, holderName, ticketType, checkedInAt }`. A retry with the `scanId` of
 * the scan that made the check-in, by the same staff member, answers the original approval again.
 * The order is the contract's `decideCheckIn`; `now` is the clock (the app's, injectable in tests).
 *
 * @throws ServiceError `not_found` for an unknown event; AccessRefusedError (the same 404, not in
 *   the scan log) when `scanner` is not a member of the event's organization (docs/decisions/086).
 */
export async function verifyTicket(db: Db, scanner: Scanner, request: VerifyTicketRequest, now: Date): Promise<VerifyTicketResponse> {
  // A genuine signed QR text is decided and logged as its code (docs/decisions/043); ill-formed text
  // (a lone surrogate, a NUL) is no ticket's code and PostgreSQL cannot compare it: no look-up.
  const code = isStorableText(request.qrCode) ? await codeOfScannedText(db, request.qrCode) : null;
  const scanned = code !== null && code !== request.qrCode ? { ...request, qrCode: code } : request;
  const read = await readScan(db, scanner, request, code);
  const { event } = read;
  // Not written into that organization's scan log: the caller is nobody at its gate (decision 086).
  if (!read.isMember) throw new AccessRefusedError(scanner.userId, { eventId: event.id });
  const context = { scanner, event, request: scanned, now };
  const decision = decideCheckIn({ ...checkInInput(context, read.found), existingCheckIn: read.existingCheckIn });
  const ticket = read.found?.ticket;
  if (decision.outcome !== 'check_in' || !ticket) {
    const verdict = toVerdict(decision, event, ticket);
    await logAttempt(db, { scanner, event, request: scanned, reason: verdict.isValid ? null : (verdict.reason ?? null), source: 'scan' });
    return verdict;
  }
  const checkedInAt = await insertCheckInAndLog(db, { scanner, event, request: scanned, ticketId: ticket.id });
  if (checkedInAt) return approve(event, ticket, checkedInAt);
  // Another scan of this ticket committed its check-in between the read and the INSERT (or an undo
  // and a new check-in did): decide again from the row that won, in one transaction as a manual
  // check-in does (rare: concurrent scans of one ticket).
  return inTransaction(db, async (tx) => {
    const verdict = await decideFor(tx, context, read.found);
    await logAttempt(tx, { scanner, event, request: scanned, reason: verdict.isValid ? null : (verdict.reason ?? null), source: 'scan' });
    return verdict;
  });
}

/** A ticket as the rule needs it, with its event's organization. */
interface FoundTicket {
  ticket: TicketRow;
  organizationId: string;
}

/** What one scan needs to know, from one read (`readScan`). */
interface ScanRead {
  event: EventDetails;
  isMember: boolean;
  /** The ticket with the scanned code (any event, any organization), if any. */
  found: FoundTicket | undefined;
  /** The ticket's active check-in on the scanned day, as the rule takes it. */
  existingCheckIn: CheckInInput['existingCheckIn'];
}

/** The tickets' own event, joined a second time (a ticket may belong to another event than the scanned one). */
const ticketEvents = alias(events, 'ticket_events');
/** The staff member of the active check-in. */
const checkInStaff = alias(users, 'check_in_staff');

/** What one scan reads by (`readScan`): the event, the scanner, the code (empty: none) and the day. */
interface ScanKey {
  eventId: string;
  userId: string;
  code: string;
  day: number;
}

const SCAN_KEY: readonly KeyColumn<ScanKey>[] = [
  ['event_id', 'uuid', 'eventId'],
  ['user_id', 'uuid', 'userId'],
  ['code', 'text', 'code'],
  ['day', 'integer', 'day'],
];

/**
 * The one read of a scan (docs/decisions/057), for one scan or a batch (docs/decisions/070; the keys
 * as the table `r`, db/coalesce.ts `keysTable`): one row per scan of a known event, with its key's
 * 1-based position: the event with its organization and days, whether the scanner is a member, the
 * ticket by code (case-insensitive, tickets_code_upper_key) with its event's organization, and its
 * active check-in of the day with the staff member's name. Prepared once per database and size (a
 * named prepared statement on PostgreSQL).
 */
function prepareScanRead(db: Db, size: BatchSize) {
  return db
    .select({
      position: sql<number>`r.position`.mapWith(Number),
      ...eventDetailsColumns,
      days: sql<EventDayInfo[]>`(select coalesce(json_agg(json_build_object('day', ${eventDays.day}, 'name', ${eventDays.name}, 'date', ${eventDays.date}) order by ${eventDays.day}), '[]'::json) from ${eventDays} where ${eventDays.eventId} = ${events.id})`,
      isMember: sql<boolean>`exists (select 1 from ${memberships} where ${memberships.userId} = r.user_id and ${memberships.organizationId} = ${events.organizationId})`,
      ticket: tickets,
      ticketOrganizationId: ticketEvents.organizationId,
      checkedInAt: checkIns.checkedInAt,
      checkInScanId: checkIns.scanId,
      checkInStaffUserId: checkIns.staffUserId,
      checkInStaffName: checkInStaff.displayName,
    })
    .from(keysTable(SCAN_KEY, size))
    .innerJoin(events, sql`${events.id} = r.event_id`)
    .innerJoin(organizations, eq(organizations.id, events.organizationId))
    .leftJoin(tickets, sql`upper(${tickets.code}) = upper(r.code)`)
    .leftJoin(ticketEvents, eq(ticketEvents.id, tickets.eventId))
    .leftJoin(checkIns, and(eq(checkIns.eventId, tickets.eventId), eq(checkIns.ticketId, tickets.id), sql`${checkIns.day} = r.day`, isActiveCheckIn))
    .leftJoin(checkInStaff, eq(checkInStaff.id, checkIns.staffUserId))
    .prepare(`gatecheck_scan_read_${size}`);
}

/** The reads of concurrent scans, coalesced into one statement under load (db/coalesce.ts). */
const scanRead = coalescedStatement(SCAN_KEY, prepareScanRead, async (keys, read) => byPosition(await read(keys), keys.length));

/**
 * Reads what a scan of `code` (null: no ticket can have it) needs, in one round trip (shared with
 * the scans read at the same moment).
 * @throws ServiceError `not_found` for an unknown event (or an id that is not a UUID).
 */
async function readScan(db: Db, scanner: Scanner, request: VerifyTicketRequest, code: string | null): Promise<ScanRead> {
  if (!isId(request.eventId)) throw new ServiceError('not_found', noSuchEventMessage(request.eventId));
  // An empty code matches no ticket: codes are 1–128 characters (ticket-codes.ts).
  const row = await scanRead(db)({ eventId: request.eventId, userId: scanner.userId, code: code ?? '', day: request.day });
  if (!row) throw new ServiceError('not_found', noSuchEventMessage(request.eventId));
  const event: EventDetails = {
    id: row.id,
    title: row.title,
    date: row.date,
    location: row.location,
    status: row.status,
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    timeZone: row.timeZone,
    dayCutoff: toDayCutoff(row.dayCutoff),
    allowsScanningOutsideDays: row.allowsScanningOutsideDays,
    days: daysOrDefault(row.days.map((entry) => ({ day: entry.day, name: entry.name, date: String(entry.date).slice(0, 10) })), row.date),
  };
  const found = code !== null && row.ticket && row.ticketOrganizationId ? { ticket: row.ticket, organizationId: row.ticketOrganizationId } : undefined;
  const existingCheckIn =
    found && row.checkedInAt
      ? {
          checkedInAt: row.checkedInAt,
          checkedInBy: row.checkInStaffName ?? '',
          isSameScan: request.scanId !== undefined && row.checkInScanId === request.scanId && row.checkInStaffUserId === scanner.userId,
        }
      : null;
  return { event, isMember: row.isMember, found, existingCheckIn };
}

/** One check-in to write (`insertCheckInAndLog`), with the code its scan-log row records. */
interface CheckInKey {
  eventId: string;
  ticketId: string;
  day: number;
  userId: string;
  scanId: string | null;
  code: string;
}

const CHECK_IN_KEY: readonly KeyColumn<CheckInKey>[] = [
  ['event_id', 'uuid', 'eventId'],
  ['ticket_id', 'uuid', 'ticketId'],
  ['day', 'integer', 'day'],
  ['user_id', 'uuid', 'userId'],
  ['scan_id', 'uuid', 'scanId'],
  ['code', 'text', 'code'],
];

/**
 * The exactly-once write of scans (docs/decisions/057, 070), for one check-in or a batch: the INSERT
 * of the check-ins (ON CONFLICT on the active check-in's unique key (event_id, ticket_id, day) DO
 * NOTHING; in key order, so that two batches overlapping on another instance lock in the same order)
 * and, for each it inserted, its scan-log row (approved), in one statement — one implicit
 * transaction, so a crash leaves neither or both. The keys of a batch are distinct (event, ticket,
 * day). Prepared once per database and size; answers `{ position, checkedInAt }` for each key
 * (1-based position) that inserted.
 */
function prepareCheckInWrite(db: Db, size: BatchSize) {
  const input = db
    .$with('input', { eventId: checkIns.eventId, ticketId: checkIns.ticketId, day: checkIns.day })
    .as(sql`select * from ${keysTable(CHECK_IN_KEY, size)}`);
  const inserted = db.$with('inserted', { eventId: checkIns.eventId, ticketId: checkIns.ticketId, day: checkIns.day, checkedInAt: checkIns.checkedInAt }).as(sql`
    insert into ${checkIns} (event_id, ticket_id, day, staff_user_id, scan_id)
    select event_id, ticket_id, day, user_id, scan_id from input order by event_id, ticket_id, day
    on conflict (event_id, ticket_id, day) where undone_at is null do nothing
    returning ${checkIns.eventId}, ${checkIns.ticketId}, ${checkIns.day}, ${checkIns.checkedInAt}`);
  const logged = db.$with('logged', {}).as(sql`
    insert into ${scanLog} (user_id, event_id, day, code, verdict, reason, scan_id, source)
    select input.user_id, input.event_id, input.day, input.code, 'approved'::scan_verdict, null, input.scan_id, 'scan'::scan_source
    from input join inserted using (event_id, ticket_id, day) order by input.position`);
  return db
    .with(input, inserted, logged)
    .select({ position: sql<number>`input.position`.mapWith(Number), checkedInAt: inserted.checkedInAt })
    .from(input)
    .innerJoin(inserted, sql`(input.event_id, input.ticket_id, input.day) = (${inserted.eventId}, ${inserted.ticketId}, ${inserted.day})`)
    .prepare(`gatecheck_check_in_write_${size}`);
}

/** The check-in writes of concurrent scans, coalesced into one statement under load (db/coalesce.ts). */
const checkInWrite = coalescedStatement(CHECK_IN_KEY, prepareCheckInWrite, async (keys, write) => {
  // Two scans of one ticket and day in one batch: the first is written; the other answers "not
  // inserted" and is decided again from the row that won (verifyTicket), as if it had come later.
  const seen = new Set<string>();
  const isFirst = keys.map((key) => {
    const identity = `${key.eventId} ${key.ticketId} ${key.day}`;
    const first = !seen.has(identity);
    seen.add(identity);
    return first;
  });
  const batch = keys.filter((_, index) => isFirst[index]);
  const written = byPosition(await retrying(() => write(batch)), batch.length);
  let next = 0;
  // Drizzle maps the timestamp to a Date on both drivers; text from a driver is parsed here.
  return keys.map((_, index) => {
    const row = isFirst[index] ? written[next++] : undefined;
    return row ? new Date(row.checkedInAt) : null;
  });
});

/**
 * Writes the check-in of `attempt.ticketId` and its approved scan-log row in one statement with the
 * check-ins of the scans written at the same moment (`prepareCheckInWrite`), retried on
 * 40001/40P01 (`retrying`).
 * @returns when the check-in was made, or null when an active one already existed.
 */
async function insertCheckInAndLog(
  db: Db,
  attempt: { scanner: Scanner; event: EventDetails; request: VerifyTicketRequest; ticketId: string },
): Promise<Date | null> {
  const { scanner, event, request, ticketId } = attempt;
  return checkInWrite(db)({
    eventId: event.id,
    ticketId,
    day: request.day,
    userId: scanner.userId,
    scanId: request.scanId ?? null,
    code: renderTextSafely(request.qrCode),
  });
}

/** The rule's input for a scan of `found` (undefined: no ticket has the code), without the existing check-in. */
function checkInInput(context: { event: EventDetails; request: VerifyTicketRequest; now: Date }, found: FoundTicket | undefined): CheckInInput {
  const { event, request, now } = context;
  return {
    ticket: found
      ? { eventId: found.ticket.eventId, organizationId: found.organizationId, isRevoked: found.ticket.revokedAt !== null, admittedDays: found.ticket.admittedDays }
      : null,
    event,
    day: request.day,
    existingCheckIn: null,
    now,
  };
}

/**
 * A supervisor's check-in of ticket `ticketId` of `event` from a search result (issue 11): the same
 * decision as a scan (`decideCheckIn`) and the same exactly-once INSERT, logged with source
 * `manual` and the ticket's code. The caller's role has been checked (routes/require-role.ts).
 * @returns the verdict, as verify answers it.
 * @throws ServiceError `not_found` when the ticket is not one of `event`'s (another event's or
 *   organization's ticket is not found either: nothing leaks).
 */
export async function manualCheckIn(
  db: Db,
  scanner: Scanner,
  event: EventDetails,
  request: { ticketId: string; day: number; scanId?: string | undefined },
  now: Date,
): Promise<VerifyTicketResponse> {
  const ticket = await findEventTicket(db, event, request.ticketId);
  const verifyRequest: VerifyTicketRequest = { eventId: event.id, qrCode: ticket.code, day: request.day, scanId: request.scanId };
  return inTransaction(db, async (tx) => {
    const verdict = await decideFor(tx, { scanner, event, request: verifyRequest, now }, { ticket, organizationId: event.organizationId });
    await logAttempt(tx, { scanner, event, request: verifyRequest, reason: verdict.isValid ? null : (verdict.reason ?? null), source: 'manual' });
    return verdict;
  });
}

/** What an undo recorded (UndoCheckInResponse on the wire). */
export interface UndoneCheckIn {
  ticketId: string;
  day: number;
  checkedInAt: Date;
  undoneAt: Date;
  /** Display name of the supervisor who undid it. */
  undoneBy: string;
  reason: string;
}

/**
 * Undoes the active check-in of ticket `ticketId` of `event` on `day` (issue 11): sets
 * `undone_at` (the database clock), `undone_by` and `undo_reason` on it in one UPDATE guarded by
 * `undone_at IS NULL`, and logs the undo (verdict `undone`, source `undo`, the reason) in the same
 * transaction. The row stays; the ticket can be checked in again on that day. Of two concurrent
 * undos one wins, the other gets the 409. With `scanId` (an undo from the scanner's recent scans)
 * only the check-in that scan made is undone: a scan admitted offline whose ticket another gate had
 * checked in first, or a recent scan whose check-in was undone and made again since, must not undo
 * the check-in that stands, or the ticket could get in once more.
 * @throws ServiceError `not_found` when the ticket is not one of `event`'s; `conflict` when it has
 *   no active check-in on `day`; `check_in_changed` when its active check-in is not `scanId`'s.
 */
export async function undoCheckIn(
  db: Db,
  supervisor: Scanner,
  event: EventDetails,
  request: { ticketId: string; day: number; reason: string; scanId?: string | undefined },
): Promise<UndoneCheckIn> {
  const ticket = await findEventTicket(db, event, request.ticketId);
  return inTransaction(db, async (tx) => {
    const activeCheckIn = and(eq(checkIns.eventId, event.id), eq(checkIns.ticketId, ticket.id), eq(checkIns.day, request.day), isActiveCheckIn);
    const [undone] = await tx
      .update(checkIns)
      .set({ undoneAt: sql`now()`, undoneBy: supervisor.userId, undoReason: request.reason, changedXid: changeStamp() })
      .where(request.scanId === undefined ? activeCheckIn : and(activeCheckIn, eq(checkIns.scanId, request.scanId)))
      .returning({ checkedInAt: checkIns.checkedInAt, undoneAt: checkIns.undoneAt });
    if (!undone?.undoneAt) {
      const [standing] = request.scanId === undefined ? [] : await tx.select({ id: checkIns.id }).from(checkIns).where(activeCheckIn).limit(1);
      if (standing) {
        throw new ServiceError(
          'check_in_changed',
          "This ticket's check-in was made by another scan (another gate's, or a later one), so nothing was undone. Find attendee shows the check-in that stands.",
        );
      }
      throw new ServiceError('conflict', `This ticket is not checked in on day ${request.day}, so there is nothing to undo.`);
    }
    await tx.insert(scanLog).values({
      userId: supervisor.userId,
      eventId: event.id,
      day: request.day,
      code: ticket.code,
      verdict: 'undone',
      reason: request.reason,
      source: 'undo',
      scannedAt: undone.undoneAt,
    });
    const [user] = await tx.select({ name: users.displayName }).from(users).where(eq(users.id, supervisor.userId));
    return {
      ticketId: ticket.id,
      day: request.day,
      checkedInAt: undone.checkedInAt,
      undoneAt: undone.undoneAt,
      undoneBy: user?.name ?? '',
      reason: request.reason,
    };
  });
}

/**
 * The ticket `ticketId` when it belongs to `event`.
 * @throws ServiceError `not_found` otherwise (an unknown id, not a UUID, another event's ticket).
 */
async function findEventTicket(db: DbOrTx, event: EventDetails, ticketId: string): Promise<TicketRow> {
  const [ticket] = isId(ticketId)
    ? await db.select().from(tickets).where(and(eq(tickets.id, ticketId), eq(tickets.eventId, event.id))).limit(1)
    : [];
  if (!ticket) throw new ServiceError('not_found', 'No ticket with this id in this event.');
  return ticket;
}

/** One scan-log row as `logAttempt` writes it. */
interface ScanLogKey {
  userId: string;
  eventId: string;
  day: number;
  code: string;
  verdict: 'approved' | 'denied';
  reason: ScanLogReason | null;
  scanId: string | null;
  source: 'scan' | 'manual';
}

/**
 * Writes one scan_log row: approved when `reason` is null, else denied with `reason`, in one
 * statement with the rows of the scans logged at the same moment (docs/decisions/070). A code that
 * is not storable text (a lone surrogate or NUL from a damaged scan) is logged as
 * `renderTextSafely` writes it (`\uDC4C`, `\u0000`).
 */
async function logAttempt(
  db: DbOrTx,
  attempt: { scanner: Scanner; event: EventDetails; request: VerifyTicketRequest; reason: ScanLogReason | null; source?: 'scan' | 'manual' },
): Promise<void> {
  await scanLogWrite(db)({
    userId: attempt.scanner.userId,
    eventId: attempt.event.id,
    day: attempt.request.day,
    code: renderTextSafely(attempt.request.qrCode),
    verdict: attempt.reason === null ? 'approved' : 'denied',
    reason: attempt.reason,
    scanId: attempt.request.scanId ?? null,
    source: attempt.source ?? 'scan',
  });
}

const SCAN_LOG_KEY: readonly KeyColumn<ScanLogKey>[] = [
  ['user_id', 'uuid', 'userId'],
  ['event_id', 'uuid', 'eventId'],
  ['day', 'integer', 'day'],
  ['code', 'text', 'code'],
  // Verdicts and sources travel as text and are cast per row: PGlite cannot serialize an array of
  // an enum type as a parameter (it sends the bare element: "malformed array literal").
  ['verdict', 'text', 'verdict'],
  ['reason', 'text', 'reason'],
  ['scan_id', 'uuid', 'scanId'],
  ['source', 'text', 'source'],
];

/**
 * The scan-log INSERT of `logAttempt` for one row or a batch (in the batch's order); answers how
 * many rows it wrote. Built once per database or transaction and size (a named prepared statement
 * on PostgreSQL).
 */
function prepareScanLogWrite(db: DbOrTx, size: BatchSize) {
  const logged = db.$with('logged', { id: scanLog.id }).as(sql`
    insert into ${scanLog} (user_id, event_id, day, code, verdict, reason, scan_id, source)
    select user_id, event_id, day, code, verdict::scan_verdict, reason, scan_id, source::scan_source
    from ${keysTable(SCAN_LOG_KEY, size)}
    order by position
    returning ${scanLog.id}`);
  return db
    .with(logged)
    .select({ written: sql<number>`count(*)`.mapWith(Number) })
    .from(logged)
    .prepare(`gatecheck_scan_log_write_${size}`);
}

/** The scan-log rows of concurrent scans, coalesced into one statement under load (db/coalesce.ts). */
const scanLogWrite = coalescedStatement(SCAN_LOG_KEY, prepareScanLogWrite, async (keys, write) => {
  const [result] = await write(keys);
  if (result?.written !== keys.length) throw new Error(`the scan log took ${result?.written ?? 0} of ${keys.length} rows`);
  return keys.map(() => undefined);
});

/**
 * The decision for the ticket `found` (undefined: no ticket has the code), and, when the rule says
 * check in, the exactly-once INSERT. Shared by verify and the manual check-in.
 */
async function decideFor(
  tx: DbOrTx,
  context: { scanner: Scanner; event: EventDetails; request: VerifyTicketRequest; now: Date },
  found: FoundTicket | undefined,
): Promise<VerifyTicketResponse> {
  const { scanner, event, request } = context;
  const ticket = found?.ticket;
  const input = checkInInput(context, found);
  const decision = decideCheckIn(input);
  if (decision.outcome !== 'check_in' || !ticket) return toVerdict(decision, event, ticket);

  // An undo committing between the conflict and the read of the active check-in leaves none to read
  // (READ COMMITTED): then the INSERT is tried again, so the ticket is admitted as if scanned later.
  for (let attempt = 0; attempt < MAX_CHECK_IN_ATTEMPTS; attempt++) {
    const [inserted] = await tx
      .insert(checkIns)
      .values({ eventId: ticket.eventId, ticketId: ticket.id, day: request.day, staffUserId: scanner.userId, scanId: request.scanId ?? null })
      .onConflictDoNothing({ target: [checkIns.eventId, checkIns.ticketId, checkIns.day], where: isActiveCheckIn })
      .returning({ checkedInAt: checkIns.checkedInAt });
    if (inserted) return approve(event, ticket, inserted.checkedInAt);

    const [first] = await tx
      .select({
        checkedInAt: checkIns.checkedInAt,
        scanId: checkIns.scanId,
        staffUserId: checkIns.staffUserId,
        staffName: users.displayName,
      })
      .from(checkIns)
      .innerJoin(users, eq(users.id, checkIns.staffUserId))
      .where(and(eq(checkIns.eventId, ticket.eventId), eq(checkIns.ticketId, ticket.id), eq(checkIns.day, request.day), isActiveCheckIn))
      .limit(1);
    if (!first) continue;
    const isSameScan = request.scanId !== undefined && first.scanId === request.scanId && first.staffUserId === scanner.userId;
    const existingCheckIn = { checkedInAt: first.checkedInAt, checkedInBy: first.staffName, isSameScan };
    return toVerdict(decideCheckIn({ ...input, existingCheckIn }), event, ticket);
  }
  throw new Error('check-in conflict without an active check-in row');
}

/** How often the check-in INSERT is tried when undos keep removing the conflicting row. */
const MAX_CHECK_IN_ATTEMPTS = 3;

/** The wire verdict for a decision that records nothing new. */
function toVerdict(decision: CheckInDecision, event: EventDetails, ticket: TicketRow | undefined): VerifyTicketResponse {
  if (decision.outcome === 'denied') {
    return {
      isValid: false,
      reason: decision.reason,
      message: decision.message,
      ...(decision.dayDenial ? { dayDenial: decision.dayDenial } : {}),
      ...(decision.checkedInAt ? { checkedInAt: decision.checkedInAt.toISOString() } : {}),
      ...(decision.checkedInBy ? { checkedInBy: decision.checkedInBy } : {}),
    };
  }
  if (!ticket) throw new Error('an approval without a ticket');
  if (decision.outcome === 'checked_in_by_this_scan') return approve(event, ticket, decision.checkedInAt);
  throw new Error('check_in must go through the INSERT');
}

function approve(event: EventDetails, ticket: TicketRow, checkedInAt: Date): VerifyTicketResponse {
  return {
    isValid: true,
    eventName: event.title,
    holderName: ticket.holderName,
    ticketType: ticket.ticketType,
    checkedInAt: checkedInAt.toISOString(),
  };
}
