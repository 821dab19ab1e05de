/**
 * Ticket verification (SPEC §7 POST /tickets/verify): the rule that a ticket is checked in exactly
 * once per event day. The database enforces it — `INSERT ... ON CONFLICT (ticket_id, day) DO NOTHING
 * RETURNING` on the check_ins unique key, never a read-then-write in JS — and the check-in and its
 * scan-log row are written in one transaction, so a crash leaves neither or both.
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
import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { checkIns, events, scanLog, tickets, users } from '../db/schema.ts';
import { ServiceError } from './errors.ts';
import { type EventDetails, findEvent } from './events.ts';
import { isMember } from './organizations.ts';
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

/**
 * Verifies `request.qrCode` (any letter case) for `request.day` of event `request.eventId` and, when
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
  return db.transaction(async (tx) => {
    const verdict = await decide(tx, { scanner, event, request, now });
    await logAttempt(tx, { scanner, event, request, reason: verdict.isValid ? null : (verdict.reason ?? null) });
    return verdict;
  });
}

/**
 * Writes one scan_log row: approved when `reason` is null, else denied with `reason`. A code that is
 * not storable text (a lone surrogate or NUL from a damaged scan) is logged as `renderTextSafely`
 * writes it (`\uDC4C`, `\u0000`).
 */
async function logAttempt(
  db: DbOrTx,
  attempt: { scanner: Scanner; event: EventDetails; request: VerifyTicketRequest; reason: ScanLogReason | null },
): Promise<void> {
  await db.insert(scanLog).values({
    userId: attempt.scanner.userId,
    eventId: attempt.event.id,
    day: attempt.request.day,
    code: renderTextSafely(attempt.request.qrCode),
    verdict: attempt.reason === null ? 'approved' : 'denied',
    reason: attempt.reason,
    scanId: attempt.request.scanId ?? null,
  });
}

/**
 * Feeds the pure rule (`decideCheckIn`, contract) the rows from SQL: the ticket, and, when the rule
 * says check in, the exactly-once INSERT; on a conflict the existing check-in goes back to the rule,
 * which answers `already_checked_in` or, for the same scan retried, the original approval.
 */
async function decide(tx: DbOrTx, context: { scanner: Scanner; event: EventDetails; request: VerifyTicketRequest; now: Date }): Promise<VerifyTicketResponse> {
  const { scanner, event, request, now } = context;
  // Ill-formed text (a lone surrogate, a NUL) is no ticket's code, and PostgreSQL cannot compare it:
  // the rule answers as for an unknown code, before any SQL.
  if (!isStorableText(request.qrCode)) {
    return toVerdict(decideCheckIn({ ticket: null, event, day: request.day, existingCheckIn: null, now }), event, undefined);
  }
  const [found] = await tx
    .select({ ticket: tickets, organizationId: events.organizationId })
    .from(tickets)
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where(ticketCodeMatches(request.qrCode))
    .limit(1);
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

  const [inserted] = await tx
    .insert(checkIns)
    .values({ ticketId: ticket.id, day: request.day, staffUserId: scanner.userId, scanId: request.scanId ?? null })
    .onConflictDoNothing({ target: [checkIns.ticketId, checkIns.day] })
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
    .where(and(eq(checkIns.ticketId, ticket.id), eq(checkIns.day, request.day)))
    .limit(1);
  if (!first) throw new Error('check-in conflict without a check-in row');
  const isSameScan = request.scanId !== undefined && first.scanId === request.scanId && first.staffUserId === scanner.userId;
  const existingCheckIn = { checkedInAt: first.checkedInAt, checkedInBy: first.staffName, isSameScan };
  return toVerdict(decideCheckIn({ ...input, existingCheckIn }), event, ticket);
}

/** The wire verdict for a decision that records nothing new. */
function toVerdict(decision: CheckInDecision, event: EventDetails, ticket: TicketRow | undefined): VerifyTicketResponse {
  if (decision.outcome === 'denied') {
    return {
      isValid: false,
      reason: decision.reason,
      message: decision.message,
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
