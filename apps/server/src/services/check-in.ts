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
 * error; only "unknown event" (404) and "not a member of the event's organization" (403) throw.
 * Every attempt on a known event goes to the scan log, the 403 too (docs/decisions/015).
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
import type { Db, DbOrTx } from '../db/client.ts';
import { inTransaction } from '../db/transactions.ts';
import { checkIns, events, scanLog, tickets, users } from '../db/schema.ts';
import { changeStamp } from './door-list.ts';
import { isId, ServiceError } from './errors.ts';
import { type EventDetails, findEvent } from './events.ts';
import { isMember } from './organizations.ts';
import { codeOfScannedText } from './signing-keys.ts';
import { ticketCodeMatches } from './ticket-codes.ts';

/** The staff member scanning. */
export interface Scanner {
  userId: string;
}

type TicketRow = typeof tickets.$inferSelect;

/**
 * Why an attempt was refused, as the scan log records it: a denial reason, or `forbidden` for a
 * caller who is not a member of the event's organization (answered 403, not with a verdict).
 */
type ScanLogReason = DenialReason | 'forbidden';

/** The active check-in of a ticket on a day (not undone): the partial unique index's predicate. */
const isActiveCheckIn = isNull(checkIns.undoneAt);

/**
 * Verifies `request.qrCode` (any letter case; or a signed ticket's QR text, docs/decisions/043) for `request.day` of event `request.eventId` and, when
 * it is valid and not yet used that day, records the check-in. Every call on a known event writes one
 * scan_log row.
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
 * @throws ServiceError `not_found` for an unknown event (not logged: there is no event to log it
 *   under), `forbidden` when `scanner` is not a member of the event's organization (logged as
 *   denied with reason `forbidden`).
 */
export async function verifyTicket(db: Db, scanner: Scanner, request: VerifyTicketRequest, now: Date): Promise<VerifyTicketResponse> {
  const event = await findEvent(db, request.eventId);
  if (!(await isMember(db, scanner.userId, event.organizationId))) {
    await logAttempt(db, { scanner, event, request, reason: 'forbidden' });
    throw new ServiceError('forbidden', 'You are not a member of this organization');
  }
  return inTransaction(db, async (tx) => {
    // A genuine signed QR text is decided and logged as its code (docs/decisions/043).
    const code = isStorableText(request.qrCode) ? await codeOfScannedText(tx, request.qrCode) : null;
    const scanned = code !== null && code !== request.qrCode ? { ...request, qrCode: code } : request;
    const verdict = await decide(tx, { scanner, event, request: scanned, now });
    await logAttempt(tx, { scanner, event, request: scanned, reason: verdict.isValid ? null : (verdict.reason ?? null), source: 'scan' });
    return verdict;
  });
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
 * undos one wins, the other gets the 409.
 * @throws ServiceError `not_found` when the ticket is not one of `event`'s; `conflict` when it has
 *   no active check-in on `day`.
 */
export async function undoCheckIn(
  db: Db,
  supervisor: Scanner,
  event: EventDetails,
  request: { ticketId: string; day: number; reason: string },
): Promise<UndoneCheckIn> {
  const ticket = await findEventTicket(db, event, request.ticketId);
  return inTransaction(db, async (tx) => {
    const [undone] = await tx
      .update(checkIns)
      .set({ undoneAt: sql`now()`, undoneBy: supervisor.userId, undoReason: request.reason, changedXid: changeStamp() })
      .where(and(eq(checkIns.ticketId, ticket.id), eq(checkIns.day, request.day), isActiveCheckIn))
      .returning({ checkedInAt: checkIns.checkedInAt, undoneAt: checkIns.undoneAt });
    if (!undone?.undoneAt) {
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

/**
 * Writes one scan_log row: approved when `reason` is null, else denied with `reason`. A code that is
 * not storable text (a lone surrogate or NUL from a damaged scan) is logged as `renderTextSafely`
 * writes it (`\uDC4C`, `\u0000`).
 */
async function logAttempt(
  db: DbOrTx,
  attempt: { scanner: Scanner; event: EventDetails; request: VerifyTicketRequest; reason: ScanLogReason | null; source?: 'scan' | 'manual' },
): Promise<void> {
  await db.insert(scanLog).values({
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

/**
 * Feeds the pure rule (`decideCheckIn`, contract) the rows from SQL: the ticket, and, when the rule
 * says check in, the exactly-once INSERT; on a conflict the existing check-in goes back to the rule,
 * which answers `already_checked_in` or, for the same scan retried, the original approval.
 */
async function decide(tx: DbOrTx, context: { scanner: Scanner; event: EventDetails; request: VerifyTicketRequest; now: Date }): Promise<VerifyTicketResponse> {
  const { event, request, now } = context;
  // Ill-formed text (a lone surrogate, a NUL) is no ticket's code, and PostgreSQL cannot compare it:
  // the rule answers as for an unknown code, before any SQL. So does a signed QR text whose
  // signature does not verify (issue 12, docs/decisions/043); a genuine one stands for its code.
  const code = isStorableText(request.qrCode) ? await codeOfScannedText(tx, request.qrCode) : null;
  if (code === null) {
    return toVerdict(decideCheckIn({ ticket: null, event, day: request.day, existingCheckIn: null, now }), event, undefined);
  }
  const [found] = await tx
    .select({ ticket: tickets, organizationId: events.organizationId })
    .from(tickets)
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where(ticketCodeMatches(code))
    .limit(1);
  return decideFor(tx, context, found);
}

/**
 * The decision for the ticket `found` (undefined: no ticket has the code), and, when the rule says
 * check in, the exactly-once INSERT. Shared by verify and the manual check-in.
 */
async function decideFor(
  tx: DbOrTx,
  context: { scanner: Scanner; event: EventDetails; request: VerifyTicketRequest; now: Date },
  found: { ticket: TicketRow; organizationId: string } | undefined,
): Promise<VerifyTicketResponse> {
  const { scanner, event, request, now } = context;
  const ticket = found?.ticket;
  const input: CheckInInput = {
    ticket: found
      ? { eventId: found.ticket.eventId, organizationId: found.organizationId, isRevoked: found.ticket.revokedAt !== null, admittedDays: found.ticket.admittedDays }
      : null,
    event,
    day: request.day,
    existingCheckIn: null,
    now,
  };
  const decision = decideCheckIn(input);
  if (decision.outcome !== 'check_in' || !ticket) return toVerdict(decision, event, ticket);

  // An undo committing between the conflict and the read of the active check-in leaves none to read
  // (READ COMMITTED): then the INSERT is tried again, so the ticket is admitted as if scanned later.
  for (let attempt = 0; attempt < MAX_CHECK_IN_ATTEMPTS; attempt++) {
    const [inserted] = await tx
      .insert(checkIns)
      .values({ ticketId: ticket.id, day: request.day, staffUserId: scanner.userId, scanId: request.scanId ?? null })
      .onConflictDoNothing({ target: [checkIns.ticketId, checkIns.day], where: isActiveCheckIn })
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
      .where(and(eq(checkIns.ticketId, ticket.id), eq(checkIns.day, request.day), isActiveCheckIn))
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
