/**
 * Ticket verification (SPEC §7 POST /tickets/verify), the hot path: one read (`readScan`,
 * docs/decisions/057), the contract's `decideCheckIn`, and the one check-in write (./write.ts) in its
 * one-statement form with its scan-log row, coalesced with the scans that arrive together
 * (docs/decisions/070). A ticket is checked in exactly once per check-in list and event day
 * (docs/decisions/100): the database's unique index decides, never a read-then-write in JS.
 *
 * A denial is a verdict (`isValid: false` with a `reason` and a plain-English `message`), not an
 * error; only "unknown event" and "not a member of the event's organization" throw, both answered
 * 404 alike. Every attempt of a member goes to the scan log (docs/decisions/015); a non-member's
 * request never does: it is nobody's scan at that organization's gate (docs/decisions/086).
 */
import { type CheckInDecision, type CheckInDirection, type CheckInInput, decideCheckIn, isCheckInInside, lastDailyCheckout, isStorableText, renderTextSafely, type VerifyTicketRequest, type VerifyTicketResponse } from '@gatecheck/contract';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { type BatchSize, byPosition, coalescedStatement, type KeyColumn, keysTable } from '../../db/coalesce.ts';
import { withSettleGrace } from '../../db/pg-pool.ts';
import { inTransaction } from '../../db/transactions.ts';
import { isWriteOutcomeUnknown, WriteUnconfirmedError } from '../../db/unavailable.ts';
import { checkInLists, checkInMovements, checkIns, eventDays, events, memberships, organizations, tickets, ticketTypes, users } from '../../db/schema.ts';
import { ticketTypeDoorColumns, ticketTypeDoorOf, typeOfTicket } from '../ticket-type-door.ts';
import { type ChosenCheckInList, chooseCheckInList, type CheckInListRow } from '../check-in-lists.ts';
import { AccessRefusedError, isId, noSuchEventMessage, ServiceError } from '../errors.ts';
import { daysOrDefault, type EventDayInfo, type EventDetails, eventDetailsColumns, toDayCutoff } from '../events.ts';
import { codeOfScannedText } from '../signing-keys.ts';
import { approve, type Attempt, decideAndRecord, type FoundTicket, withDirection, logAttempt, refuseExitWithoutReentry, ruleInput, type Scanner, toVerdict } from './decide.ts';
import { countsInside, isDoorAttempt } from './record.ts';
import { countInside, existingForRule, isActiveCheckIn, isFirstEntryOf, recordScannedCheckIn, recordScannedEntryAtEvent, recordScannedEntryWithPlace, type RetriedMovement, type ScanMaker } from './write.ts';

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
 * scanning outside its days; docs/decisions/021), `not_on_list` (the check-in list scanned at —
 * `request.checkInListId`, default the event's first — does not admit the ticket's type on the day;
 * docs/decisions/100), or `already_checked_in` at that list (with the first check-in's `checkedInAt`
 * and `checkedInBy`, the staff member's display name); otherwise approved
 * `{ isValid: true, eventName, holderName, ticketType, checkedInAt }`. A retry with the `scanId` of
 * a scan that recorded one of the check-in's movements (an entry, a re-entry or an exit), by the
 * same staff member, answers that movement's approval again (docs/decisions/138).
 * The order is the contract's `decideCheckIn`; `now` is the clock (the app's, injectable in tests).
 *
 * @throws ServiceError `not_found` for an unknown event; AccessRefusedError (the same 404, not in
 *   the scan log) when `scanner` is not a member of the event's organization (docs/decisions/086);
 *   ServiceError `bad_request` (nothing written or logged) when `request.checkInListId` is not one
 *   of the event's lists.
 *   WriteUnconfirmedError (a 503 that says the scan may have been saved, docs/decisions/134) when
 *   a write of the scan was sent and got no answer by the deadline and `VERIFY_WRITE_SETTLE_MS`.
 *   A failure of the informational inside-now count after the check-in has committed is not
 *   thrown: it is logged once at warn on `log` and the approval goes without `insideNow`/`capacity`.
 */
export async function verifyTicket(db: Db, scanner: Scanner, request: VerifyTicketRequest, now: Date, log?: WarningLog): Promise<VerifyTicketResponse> {
  // A genuine signed QR text is decided and logged as its code (docs/decisions/043); ill-formed text
  // (a lone surrogate, a NUL) is no ticket's code and PostgreSQL cannot compare it: no look-up.
  const code = isStorableText(request.qrCode) ? await codeOfScannedText(db, request.qrCode) : null;
  const scanned = code !== null && code !== request.qrCode ? { ...request, qrCode: code } : request;
  const read = await readScan(db, scanner, request, code);
  const { event } = read;
  // Not written into that organization's scan log: the caller is nobody at its gate (decision 086).
  const mayScan = scanner.deviceEventId === undefined ? read.isMember : scanner.deviceEventId === event.id;
  if (!mayScan) throw new AccessRefusedError(scanner.userId, { eventId: event.id });
  // Another event's list (or none at all): a 400 before anything is written or logged.
  const checkInList: ChosenCheckInList = chooseCheckInList(read.lists, request.checkInListId);
  // An exit where exits are not recorded: a 400 before anything is written or logged (decision 111).
  refuseExitWithoutReentry(checkInList.list, request.direction);
  const attempt = { scanner, event, checkInList, request: scanned, now };
  const existingCheckIn = read.existingCheckIn && read.door ? { ...read.existingCheckIn, isInside: isCheckInInside(read.door, checkInList.list, event, now) } : read.existingCheckIn;
  const decision = decideCheckIn({ ...ruleInput(attempt, read.found), existingCheckIn });
  // Every write of the scan (its check-in, its scan-log row) may answer a little after the deadline;
  // one that stays unanswered is a 503 that says the scan may have been saved (decision 134).
  try {
    return await withSettleGrace(VERIFY_WRITE_SETTLE_MS, () => recordScan(db, attempt, read, decision, log));
  } catch (error) {
    if (!isWriteOutcomeUnknown(error)) throw error;
    log?.warn({ err: error, scanId: scanned.scanId, eventId: event.id }, 'the database did not confirm a scan in time: it may have been saved (answered 503)');
    throw new WriteUnconfirmedError(error);
  }
}

/**
 * Records the scan `decision` was made for: the check-in (first entry in one statement, at a list
 * with a capacity or at an event with one claiming the places; an exit or re-entry in the door
 * transaction), or for a denial its scan-log row; returns the verdict. See `verifyTicket`.
 */
async function recordScan(db: Db, attempt: Attempt, read: ScanRead, decision: CheckInDecision, log: WarningLog | undefined): Promise<VerifyTicketResponse> {
  const { scanner, event, checkInList, request: scanned, now } = attempt;
  const found = read.found;
  if (decision.outcome !== 'denied' && found && isDoorAttempt(checkInList.list, scanned.direction) && !isFirstEntry(decision)) {
    // An exit or a re-entry: the door write, in a transaction (it locks the guest's check-in and
    // claims the list's place and the event's; docs/decisions/111, 147).
    return inTransaction(db, async (tx) => {
      const verdict = await decideAndRecord(tx, attempt, found);
      await logAttempt(tx, { ...attempt, verdict, source: 'scan' });
      return verdict;
    });
  }
  if (decision.outcome !== 'check_in' || !found) {
    const verdict = withDirection(toVerdict(decision, event, found), scanned.direction);
    await logAttempt(db, { ...attempt, verdict, source: 'scan' });
    return verdict;
  }
  const entry = {
    eventId: event.id,
    ticketId: found.ticket.id,
    day: scanned.day,
    checkInListId: checkInList.list.id,
    userId: scanner.userId,
    scanId: scanned.scanId ?? null,
    code: renderTextSafely(scanned.qrCode),
  };
  const list = checkInList.list;
  const capacity = list.capacity ?? null;
  const checkout = lastDailyCheckout(event.timeZone, list.dailyCheckoutTime, now);
  const eventCapacity = event.capacity ?? null;
  if (eventCapacity !== null) {
    // The same statement claims the list's place (where it has a capacity) and the event's, and
    // counts the list's guests inside where it counts them (docs/decisions/148).
    const written = await recordScannedEntryAtEvent(db, {
      ...entry,
      listStart: capacity === null ? null : 1 + Math.floor(Math.random() * capacity),
      eventStart: 1 + Math.floor(Math.random() * eventCapacity),
      checkout,
      countsInside: countsInside(list),
      now,
      timeZone: event.timeZone,
      checkoutTime: list.dailyCheckoutTime ?? null,
    });
    if (written) return written.insideNow === undefined ? approve(event, found, written.checkedInAt) : { ...approve(event, found, written.checkedInAt), insideNow: written.insideNow, capacity };
  } else if (capacity !== null) {
    // The same statement claims a free place and counts the guests inside (docs/decisions/120).
    const written = await recordScannedEntryWithPlace(db, { ...entry, start: 1 + Math.floor(Math.random() * capacity), checkout });
    if (written) return { ...approve(event, found, written.checkedInAt), insideNow: written.insideNow, capacity };
  } else {
    const checkedInAt = await recordScannedCheckIn(db, entry);
    if (checkedInAt && countsInside(list)) {
      // A list that records exits counts its guests inside: the approval says how many (decision
      // 120). The check-in has committed by now, so a count that fails (the deadline, a lost
      // connection) must not turn the stored approval into a 500/503: the count is only
      // informational and the contract lets the approval go without it.
      const insideNow = await countInside(db, { eventId: event.id, checkInListId: list.id, day: scanned.day, checkout }).catch((error: unknown) => {
        log?.warn({ err: error, eventId: event.id, checkInListId: list.id }, 'counting the guests inside after a check-in failed; approved without the count');
        return undefined;
      });
      return insideNow === undefined ? approve(event, found, checkedInAt) : { ...approve(event, found, checkedInAt), insideNow, capacity };
    }
    if (checkedInAt) return approve(event, found, checkedInAt);
  }
  // Another scan of this ticket committed its check-in between the read and the INSERT (or an undo
  // and a new check-in did), or no place was free without waiting, or the ticket holds a place of
  // the event already: decide again from the rows that stand, in one transaction as a manual
  // check-in does (rare, but every entry at a full list or venue).
  return inTransaction(db, async (tx) => {
    const verdict = await decideAndRecord(tx, attempt, read.found);
    await logAttempt(tx, { ...attempt, verdict, source: 'scan' });
    return verdict;
  });
}

/**
 * How long after verify's database deadline a write sent before it may still answer (ms,
 * docs/decisions/134): a check-in that commits in that time answers APPROVED instead of a 503. With
 * the deadline (2.25 s, routes/tickets) the answer leaves by 2.5 s, half a second inside the phone's 3 s.
 */
export const VERIFY_WRITE_SETTLE_MS = 250;

/** Where verify reports a failure it answers through (the request's logger, pino's `warn` shape). */
export interface WarningLog {
  warn(details: Record<string, unknown>, message: string): void;
}

/** What one scan needs to know, from one read (`readScan`). */
interface ScanRead {
  event: EventDetails;
  isMember: boolean;
  /** The event's check-in lists, first list first. */
  lists: CheckInListRow[];
  /** The ticket with the scanned code (any event, any organization), if any. */
  found: FoundTicket | undefined;
  /** The ticket's active check-in on the scanned list and day, as the rule takes it. */
  existingCheckIn: CheckInInput['existingCheckIn'];
  /** That check-in's last entry and exit (docs/decisions/111), when there is one. */
  door: { lastEnteredAt: Date; exitedAt: Date | null } | undefined;
}

/**
 * Whether `decision` admits a first entry: the hot path's one-statement INSERT records it at any
 * list (claiming a place at a list with a capacity); a conflict or no free place falls back to the
 * door write.
 */
function isFirstEntry(decision: CheckInDecision): boolean {
  return decision.outcome === 'check_in' && !decision.isReentry;
}

/** The tickets' own event, joined a second time (a ticket may belong to another event than the scanned one). */
const ticketEvents = alias(events, 'ticket_events');
/** The staff member of the active check-in. */
const checkInStaff = alias(users, 'check_in_staff');

/**
 * What one scan reads by (`readScan`): the event, the scanner, the code (empty: none), the day and
 * the check-in list asked for (null: the event's first).
 */
interface ScanKey {
  eventId: string;
  userId: string;
  code: string;
  day: number;
  checkInListId: string | null;
  /** The client's id of the scan (null: none sent): a movement it recorded is its retry. */
  scanId: string | null;
}

const SCAN_KEY: readonly KeyColumn<ScanKey>[] = [
  ['event_id', 'uuid', 'eventId'],
  ['user_id', 'uuid', 'userId'],
  ['code', 'text', 'code'],
  ['day', 'integer', 'day'],
  ['check_in_list_id', 'uuid', 'checkInListId'],
  ['scan_id', 'uuid', 'scanId'],
];

/**
 * The one read of a scan (docs/decisions/057), for one scan or a batch (docs/decisions/070; the keys
 * as the table `r`, db/coalesce.ts `keysTable`): one row per scan of a known event, with its key's
 * 1-based position: the event with its organization and days, whether the scanner is a member, the
 * ticket by code (case-insensitive, tickets_code_upper_key) with its event's organization, the
 * event's check-in lists (docs/decisions/100), and the ticket's active check-in on the list asked for
 * (the first list when none was) and the day, with the staff member's name. Prepared once per database and size (a
 * named prepared statement on PostgreSQL).
 */
function prepareScanRead(db: Db, size: BatchSize) {
  // The batch's first row of each event (by key position): the one that carries its days and lists.
  const firstOfEvent = sql`row_number() over (partition by ${events.id} order by r.position) = 1`;
  return db
    .select({
      position: sql<number>`r.position`.mapWith(Number),
      ...eventDetailsColumns,
      // The event's days and lists in the first row of each event only (null in the others, which
      // take them from it: `withEventParts`): a batch of a busy door is one event's scans, and the
      // same JSON built, sent and parsed once per scan was a good part of the read's work.
      days: sql<EventDayInfo[] | null>`case when ${firstOfEvent} then (select coalesce(json_agg(json_build_object('day', ${eventDays.day}, 'name', ${eventDays.name}, 'date', ${eventDays.date}) order by ${eventDays.day}), '[]'::json) from ${eventDays} where ${eventDays.eventId} = ${events.id}) end`,
      lists: sql<CheckInListRow[] | null>`case when ${firstOfEvent} then (select coalesce(json_agg(json_build_object('id', ${checkInLists.id}, 'name', ${checkInLists.name}, 'position', ${checkInLists.position}, 'ticketTypes', ${checkInLists.ticketTypes}, 'days', ${checkInLists.days}, 'allowsReentry', ${checkInLists.allowsReentry}, 'capacity', ${checkInLists.capacity}, 'dailyCheckoutTime', ${checkInLists.dailyCheckoutTime}) order by ${checkInLists.position}, ${checkInLists.createdAt}, ${checkInLists.id}), '[]'::json) from ${checkInLists} where ${checkInLists.eventId} = ${events.id}) end`,
      isMember: sql<boolean>`exists (select 1 from ${memberships} where ${memberships.userId} = r.user_id and ${memberships.organizationId} = ${events.organizationId})`,
      ticket: tickets,
      ticketOrganizationId: ticketEvents.organizationId,
      ...ticketTypeDoorColumns,
      checkedInAt: checkIns.checkedInAt,
      checkInStaffName: checkInStaff.displayName,
      checkInLastEnteredAt: checkIns.lastEnteredAt,
      checkInExitedAt: checkIns.exitedAt,
      checkInScanId: checkIns.scanId,
      checkInStaffUserId: checkIns.staffUserId,
      retriedDirection: checkInMovements.direction,
      retriedAt: checkInMovements.at,
    })
    .from(keysTable(SCAN_KEY, size))
    .innerJoin(events, sql`${events.id} = r.event_id`)
    .innerJoin(organizations, eq(organizations.id, events.organizationId))
    .leftJoin(tickets, sql`upper(${tickets.code}) = upper(r.code)`)
    .leftJoin(ticketEvents, eq(ticketEvents.id, tickets.eventId))
    // The type's check-in note (docs/decisions/102) and days (125): one index probe on (event_id, name).
    .leftJoin(ticketTypes, typeOfTicket)
    .leftJoin(
      checkIns,
      and(
        eq(checkIns.eventId, tickets.eventId),
        sql`${checkIns.checkInListId} = coalesce(r.check_in_list_id, (select ${checkInLists.id} from ${checkInLists} where ${checkInLists.eventId} = ${events.id} order by ${checkInLists.position}, ${checkInLists.createdAt}, ${checkInLists.id} limit 1))`,
        sql`${checkIns.day} = r.day`,
        eq(checkIns.ticketId, tickets.id),
        isActiveCheckIn,
      ),
    )
    .leftJoin(checkInStaff, eq(checkInStaff.id, checkIns.staffUserId))
    // The re-entry or exit of that check-in this very scan recorded, if it is a retry
    // (docs/decisions/138; a retried first entry is the check-in's own scan, `retriedOf`): one
    // probe of the unique index of movements by scan, only when a scanId was sent.
    .leftJoin(
      checkInMovements,
      and(
        eq(checkInMovements.eventId, checkIns.eventId),
        sql`${checkInMovements.scanId} = r.scan_id`,
        sql`${checkInMovements.staffUserId} = r.user_id`,
        eq(checkInMovements.checkInId, checkIns.id),
        isNull(checkInMovements.undoneAt),
      ),
    )
    .prepare(`gatecheck_scan_read_${size}`);
}

/**
 * The movement of the read's check-in that this scan retries, if any (docs/decisions/138): its first
 * entry (the check-in row's own scan and staff member), else the re-entry or exit the read joined.
 */
function retriedOf(
  row: { checkedInAt: Date | null; checkInScanId: string | null; checkInStaffUserId: string | null; retriedDirection: CheckInDirection | null; retriedAt: Date | null },
  maker: ScanMaker,
): RetriedMovement | null {
  if (row.checkedInAt && row.checkInStaffUserId !== null && isFirstEntryOf({ scanId: row.checkInScanId, staffUserId: row.checkInStaffUserId }, maker)) {
    return { direction: 'entry', at: row.checkedInAt };
  }
  return row.retriedDirection && row.retriedAt ? { direction: row.retriedDirection, at: row.retriedAt } : null;
}

/** The reads of concurrent scans, coalesced into one statement under load (db/coalesce.ts). */
const scanRead = coalescedStatement(SCAN_KEY, prepareScanRead, async (keys, read) => byPosition(withEventParts(await read(keys)), keys.length));

/**
 * The rows of one read with every row's event days and lists: the statement sends them in the
 * first row of each event only (`prepareScanRead`), and the others of that event, read in the same
 * statement and so from the same snapshot, share them.
 * @throws Error when a row's event has no row that carries them (the statement broke its promise).
 */
function withEventParts<Row extends { id: string; days: EventDayInfo[] | null; lists: CheckInListRow[] | null }>(rows: readonly Row[]): (Row & { days: EventDayInfo[]; lists: CheckInListRow[] })[] {
  const parts = new Map<string, { days: EventDayInfo[]; lists: CheckInListRow[] }>();
  for (const row of rows) if (row.days !== null && row.lists !== null) parts.set(row.id, { days: row.days, lists: row.lists });
  return rows.map((row) => {
    const own = parts.get(row.id);
    if (!own) throw new Error(`the scan read sent no days and lists for event ${row.id}`);
    // In place: the rows are this read's own, and a copy per scan is what this saves.
    return Object.assign(row, own);
  });
}

/**
 * Reads what a scan of `code` (null: no ticket can have it) needs, in one round trip (shared with
 * the scans read at the same moment).
 * @throws ServiceError `not_found` for an unknown event (or an id that is not a UUID).
 */
async function readScan(db: Db, scanner: Scanner, request: VerifyTicketRequest, code: string | null): Promise<ScanRead> {
  if (!isId(request.eventId)) throw new ServiceError('not_found', noSuchEventMessage(request.eventId));
  // An empty code matches no ticket: codes are 1–128 characters (ticket-codes.ts).
  // A list id that is no UUID names no list: chooseCheckInList refuses it after the read.
  const checkInListId = request.checkInListId !== undefined && isId(request.checkInListId) ? request.checkInListId : null;
  const row = await scanRead(db)({ eventId: request.eventId, userId: scanner.userId, code: code ?? '', day: request.day, checkInListId, scanId: request.scanId ?? null });
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
    capacity: row.capacity,
    days: daysOrDefault(row.days.map((entry) => ({ day: entry.day, name: entry.name, date: String(entry.date).slice(0, 10) })), row.date),
  };
  const found = code !== null && row.ticket && row.ticketOrganizationId ? { ticket: row.ticket, organizationId: row.ticketOrganizationId, ...ticketTypeDoorOf(row) } : undefined;
  const existingCheckIn =
    found && row.checkedInAt
      ? existingForRule(
          { checkedInAt: row.checkedInAt, staffName: row.checkInStaffName ?? '' },
          retriedOf(row, { scanId: request.scanId ?? null, staffUserId: scanner.userId }),
        )
      : null;
  const door = found && row.checkedInAt ? { lastEnteredAt: row.checkInLastEnteredAt ?? row.checkedInAt, exitedAt: row.checkInExitedAt } : undefined;
  return { event, isMember: row.isMember, lists: row.lists, found, existingCheckIn, door };
}

