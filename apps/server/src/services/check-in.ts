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
import type { DenialReason, EventStatus, VerifyTicketRequest, VerifyTicketResponse } from '@gatecheck/contract';
import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { checkIns, events, scanLog, tickets, users } from '../db/schema.ts';
import { ServiceError } from './errors.ts';
import { type EventDetails, findEvent, isEventActive } from './events.ts';
import { isMember } from './organizations.ts';
import { ticketCodeMatches } from './ticket-codes.ts';

/** The staff member scanning. */
export interface Scanner {
  userId: string;
}

type TicketRow = typeof tickets.$inferSelect;

/** What the gate reads when the event admits no one, by status. */
const INACTIVE_EVENT_MESSAGES: Partial<Record<EventStatus, string>> = {
  draft: 'This event is not open yet: it is still a draft.',
  completed: 'This event has ended.',
  cancelled: 'This event was cancelled.',
};

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
 * Verdicts, checked in this order: denied with reason `not_found` (unknown code, or a ticket of
 * another organization's event — nothing leaks across organizations), `wrong_event` (a ticket of
 * another event of the same organization), `event_not_active` (the event is a draft, completed or
 * cancelled), `revoked`, `not_valid_today` (a day the ticket does not admit or the event does not
 * have; an event without configured days has only day 1), or `already_checked_in` (with the first
 * check-in's `checkedInAt` and `checkedInBy`, the staff member's display name); otherwise approved
 * `{ isValid: true, eventName, holderName, ticketType, checkedInAt }`. A retry with the `scanId` of
 * the scan that made the check-in, by the same staff member, answers the original approval again.
 *
 * @throws ServiceError `not_found` for an unknown event (not logged: there is no event to log it
 *   under), `forbidden` when `scanner` is not a member of the event's organization (logged as
 *   denied with reason `forbidden`).
 */
export async function verifyTicket(db: Db, scanner: Scanner, request: VerifyTicketRequest): Promise<VerifyTicketResponse> {
  const event = await findEvent(db, request.eventId);
  if (!(await isMember(db, scanner.userId, event.organizationId))) {
    await logAttempt(db, { scanner, event, request, reason: 'forbidden' });
    throw new ServiceError('forbidden', 'You are not a member of this organization');
  }
  return db.transaction(async (tx) => {
    const verdict = await decide(tx, scanner, event, request);
    await logAttempt(tx, { scanner, event, request, reason: verdict.isValid ? null : (verdict.reason ?? null) });
    return verdict;
  });
}

/** Writes one scan_log row: approved when `reason` is null, else denied with `reason`. */
async function logAttempt(
  db: DbOrTx,
  attempt: { scanner: Scanner; event: EventDetails; request: VerifyTicketRequest; reason: ScanLogReason | null },
): Promise<void> {
  await db.insert(scanLog).values({
    userId: attempt.scanner.userId,
    eventId: attempt.event.id,
    day: attempt.request.day,
    code: attempt.request.qrCode,
    verdict: attempt.reason === null ? 'approved' : 'denied',
    reason: attempt.reason,
    scanId: attempt.request.scanId ?? null,
  });
}

async function decide(tx: DbOrTx, scanner: Scanner, event: EventDetails, request: VerifyTicketRequest): Promise<VerifyTicketResponse> {
  const [found] = await tx
    .select({ ticket: tickets, organizationId: events.organizationId })
    .from(tickets)
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where(ticketCodeMatches(request.qrCode))
    .limit(1);
  // Another organization's ticket is "not found": its existence is none of this organization's business.
  if (!found || found.organizationId !== event.organizationId) return deny('not_found', 'No ticket with this code exists.');
  const { ticket } = found;
  if (ticket.eventId !== event.id) return deny('wrong_event', 'This ticket is for a different event.');
  if (!isEventActive(event.status)) return deny('event_not_active', INACTIVE_EVENT_MESSAGES[event.status] ?? 'This event is not open for check-in.');
  if (ticket.revokedAt) return deny('revoked', 'This ticket has been revoked.');
  if (!event.days.some((entry) => entry.day === request.day)) {
    return deny('not_valid_today', `This event has no day ${request.day}.`);
  }
  if (ticket.admittedDays && !ticket.admittedDays.includes(request.day)) {
    return deny('not_valid_today', `This ticket is not valid on day ${request.day}.`);
  }

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
  const isRetryOfFirstScan =
    request.scanId !== undefined && first.scanId === request.scanId && first.staffUserId === scanner.userId;
  if (isRetryOfFirstScan) return approve(event, ticket, first.checkedInAt);
  return {
    isValid: false,
    reason: 'already_checked_in',
    message: `This ticket was already checked in for day ${request.day} by ${first.staffName}.`,
    checkedInAt: first.checkedInAt.toISOString(),
    checkedInBy: first.staffName,
  };
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

function deny(reason: Exclude<DenialReason, 'already_checked_in'>, message: string): VerifyTicketResponse {
  return { isValid: false, reason, message };
}
