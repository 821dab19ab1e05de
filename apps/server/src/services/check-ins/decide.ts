/**
 * What verify and the manual check-in share: the rule's input for a ticket (`ruleInput`), the
 * decision followed by the one check-in write (`decideAndRecord`), the wire verdict (`toVerdict`,
 * `approve`) and the scan-log row of an attempt (`logAttempt`, coalesced under load,
 * docs/decisions/070).
 */
import {
  type ApprovedVerdict,
  type CheckInDirection,
  type CheckInListRule,
  exitNotRecordedMessage,
  attentionFields,
  checkInAttention,
  type CheckInDecision,
  type CheckInInput,
  decideCheckIn,
  type DenialReason,
  renderTextSafely,
  type VerifyTicketRequest,
  type VerifyTicketResponse,
} from '@gatecheck/contract';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { type BatchSize, coalescedStatement, type KeyColumn, keysTable } from '../../db/coalesce.ts';
import { scanLog, type tickets } from '../../db/schema.ts';
import type { ChosenCheckInList } from '../check-in-lists.ts';
import type { EventDetails } from '../events.ts';
import type { TicketWithType } from '../ticket-type-door.ts';
import { ServiceError } from '../errors.ts';
import { type RecordedAttempt, recordAttempt } from './record.ts';
import { ticketForRule } from './write.ts';

/** The staff member scanning; `deviceEventId`: a door device's one event, which it scans instead of by membership (docs/decisions/107). */
export interface Scanner {
  userId: string;
  deviceEventId?: string | undefined;
}

export type TicketRow = typeof tickets.$inferSelect;

/**
 * A ticket as the rule needs it, with its event's organization and its type's door fields (its
 * check-in note and flag, docs/decisions/102, and days, 125), read as ../ticket-type-door.ts reads
 * them.
 */
export interface FoundTicket extends TicketWithType {
  organizationId: string;
}

/**
 * The verdict fields that show `found`'s check-in notes and attention flag (`checkInAttention`:
 * the ticket's own and its type's), none when it has neither.
 */
export function ticketAttentionFields(found: FoundTicket): ReturnType<typeof attentionFields> {
  return attentionFields(checkInAttention({ note: found.ticket.checkInNote, requiresAttention: found.ticket.requiresAttention }, found.type));
}

/** One attempt to check a ticket in: who, at which event and check-in list, what was sent, and the clock. */
export interface Attempt {
  scanner: Scanner;
  event: EventDetails;
  /** The list scanned at (the request's, or the event's first), with the event's lists. */
  checkInList: ChosenCheckInList;
  request: VerifyTicketRequest;
  now: Date;
}

/** The rule's input for a scan of `found` (undefined: no ticket has the code), without an existing check-in. */
export function ruleInput(attempt: Attempt, found: FoundTicket | undefined): CheckInInput {
  return {
    ticket: found ? ticketForRule(found.ticket, found.organizationId, found) : null,
    event: attempt.event,
    day: attempt.request.day,
    existingCheckIn: null,
    now: attempt.now,
    checkInList: attempt.checkInList,
    direction: attempt.request.direction,
  };
}

/**
 * Refuses an exit at a list that does not record exits (docs/decisions/111), before anything is
 * written or logged.
 * @throws ServiceError `bad_request` ('VIP Gate does not allow re-entry: exits are not recorded there.').
 */
export function refuseExitWithoutReentry(list: CheckInListRule, direction: CheckInDirection | undefined): void {
  if (direction === 'exit' && !list.allowsReentry) throw new ServiceError('bad_request', exitNotRecordedMessage(list.name));
}

/** `verdict` of an exit attempt marked as one (`direction: 'exit'`), denied ones too; an entry's as it is. */
export function withDirection(verdict: VerifyTicketResponse, direction: CheckInDirection | undefined): VerifyTicketResponse {
  return direction === 'exit' ? { ...verdict, direction: 'exit' } : verdict;
}

/** The approval of an exit of `found`'s guest at `exitedAt` ('Exit recorded'). */
function approveExit(event: EventDetails, found: FoundTicket, exitedAt: Date): ApprovedVerdict {
  return { ...approve(event, found, exitedAt), direction: 'exit', exitedAt: exitedAt.toISOString() };
}

/**
 * The decision for the ticket `found` (undefined: no ticket has the code) and, when the rule says
 * check in or out, the one write (./record.ts `recordAttempt`) on `tx`, at the attempt's clock.
 * @returns the wire verdict (nothing logged: the caller logs the attempt).
 */
export async function decideAndRecord(tx: DbOrTx, attempt: Attempt, found: FoundTicket | undefined): Promise<VerifyTicketResponse> {
  const { scanner, event, request, now } = attempt;
  if (!found) return withDirection(toVerdict(decideCheckIn(ruleInput(attempt, found)), event, found), request.direction);
  const recorded = await recordAttempt(tx, {
    event,
    checkInList: attempt.checkInList,
    day: request.day,
    ticket: found.ticket,
    organizationId: found.organizationId,
    typeDays: found.typeDays,
    direction: request.direction,
    staffUserId: scanner.userId,
    scanId: request.scanId ?? null,
    at: now,
    now,
  });
  return withDirection(toAttemptVerdict(recorded, event, found), request.direction);
}

/** The wire verdict of what `recordAttempt` did for `found` at `event` (online: never a conflict). */
function toAttemptVerdict(recorded: RecordedAttempt, event: EventDetails, found: FoundTicket): VerifyTicketResponse {
  switch (recorded.outcome) {
    case 'denied':
      return toVerdict(recorded.denial, event, found);
    case 'same_scan':
      return recorded.direction === 'exit' ? approveExit(event, found, recorded.at) : approve(event, found, recorded.at);
    case 'entered':
      return { ...approve(event, found, recorded.enteredAt), ...recorded.occupancy };
    case 'exited':
      return { ...approveExit(event, found, recorded.exitedAt), ...recorded.occupancy };
    case 'conflict':
    case 'late':
      throw new Error(`an online attempt answered as ${recorded.outcome}`);
  }
}

/**
 * The wire verdict for a decision that records nothing new. A denial `already_checked_in` carries
 * the ticket's check-in note and flag (docs/decisions/102): the guest holds a real ticket of this
 * event, and staff settling it (a wristband given at the first entry, a companion) need the note.
 */
export function toVerdict(decision: CheckInDecision, event: EventDetails, found: FoundTicket | undefined): VerifyTicketResponse {
  if (decision.outcome === 'denied') {
    return {
      isValid: false,
      reason: decision.reason,
      message: decision.message,
      ...(decision.dayDenial ? { dayDenial: decision.dayDenial } : {}),
      ...(decision.listDenial ? { listDenial: decision.listDenial } : {}),
      ...(decision.capacityDenial ? { capacityDenial: decision.capacityDenial, insideNow: decision.capacityDenial.insideNow, capacity: decision.capacityDenial.capacity } : {}),
      ...(decision.checkedInAt ? { checkedInAt: decision.checkedInAt.toISOString() } : {}),
      ...(decision.checkedInBy ? { checkedInBy: decision.checkedInBy } : {}),
      ...(decision.reason === 'already_checked_in' && found ? ticketAttentionFields(found) : {}),
    };
  }
  if (!found) throw new Error('an approval without a ticket');
  if (decision.outcome === 'checked_in_by_this_scan') return approve(event, found, decision.checkedInAt);
  if (decision.outcome === 'checked_out_by_this_scan') return approveExit(event, found, decision.exitedAt);
  throw new Error('check_in must go through the INSERT');
}

/** The approval of `found`'s ticket at `event`, checked in at `checkedInAt`, with its check-in note and flag if any. */
export function approve(event: EventDetails, found: FoundTicket, checkedInAt: Date): ApprovedVerdict {
  const { ticket } = found;
  return {
    isValid: true,
    eventName: event.title,
    holderName: ticket.holderName,
    ticketType: ticket.ticketType,
    checkedInAt: checkedInAt.toISOString(),
    ...ticketAttentionFields(found),
  };
}

/**
 * Why an attempt was refused, as the scan log records it: a denial reason. (Rows written before
 * docs/decisions/086 may say `forbidden`: a non-member's attempt, no longer logged there.)
 */
type ScanLogReason = DenialReason;

/** One scan-log row as `logAttempt` writes it. */
interface ScanLogKey {
  userId: string;
  eventId: string;
  day: number;
  code: string;
  verdict: 'approved' | 'denied' | 'exited';
  reason: ScanLogReason | null;
  scanId: string | null;
  source: 'scan' | 'manual';
  /** The check-in list of the attempt (docs/decisions/121). */
  checkInListId: string;
}

/**
 * Writes one scan_log row for `attempt`'s `verdict` at its check-in list: approved, or denied with its reason, in one
 * statement with the rows of the scans logged at the same moment (docs/decisions/070). A code that
 * is not storable text (a lone surrogate or NUL from a damaged scan) is logged as
 * `renderTextSafely` writes it (`\uDC4C`, `\u0000`).
 */
export async function logAttempt(
  db: DbOrTx,
  attempt: { scanner: Scanner; event: EventDetails; checkInList: ChosenCheckInList; request: VerifyTicketRequest; verdict: VerifyTicketResponse; source: 'scan' | 'manual' },
): Promise<void> {
  const reason = attempt.verdict.isValid ? null : (attempt.verdict.reason ?? null);
  const isExit = attempt.verdict.isValid && attempt.verdict.direction === 'exit';
  await scanLogWrite(db)({
    userId: attempt.scanner.userId,
    eventId: attempt.event.id,
    day: attempt.request.day,
    code: renderTextSafely(attempt.request.qrCode),
    verdict: reason === null ? (isExit ? 'exited' : 'approved') : 'denied',
    reason,
    scanId: attempt.request.scanId ?? null,
    source: attempt.source,
    checkInListId: attempt.checkInList.list.id,
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
  ['check_in_list_id', 'uuid', 'checkInListId'],
];

/**
 * The scan-log INSERT of `logAttempt` for one row or a batch (in the batch's order); answers how
 * many rows it wrote. Built once per database or transaction and size (a named prepared statement
 * on PostgreSQL).
 */
function prepareScanLogWrite(db: DbOrTx, size: BatchSize) {
  const logged = db.$with('logged', { id: scanLog.id }).as(sql`
    insert into ${scanLog} (user_id, event_id, day, code, verdict, reason, scan_id, source, check_in_list_id)
    select user_id, event_id, day, code, verdict::scan_verdict, reason, scan_id, source::scan_source, check_in_list_id
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
