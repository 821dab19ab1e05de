/**
 * Ticket verification (SPEC §7 POST /tickets/verify): the rule that a ticket is checked in exactly
 * once per event day. The database enforces it — `INSERT ... ON CONFLICT (ticket_id, day) DO NOTHING
 * RETURNING` on the check_ins unique key, never a read-then-write in JS — and the check-in and its
 * scan-log row are written in one transaction, so a crash leaves neither or both.
 *
 * A denial is a verdict (`isValid: false` with a `reason` and a plain-English `message`), not an
 * error; only "unknown event" (404) and "not a member of the event's organization" (403) throw.
 */
import type { DenialReason, VerifyTicketRequest, VerifyTicketResponse } from '@gatecheck/contract';
import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { checkIns, eventDays, events, scanLog, tickets, users } from '../db/schema.ts';
import { isId, ServiceError } from './errors.ts';
import { assertMember } from './organizations.ts';
import { ticketCodeMatches } from './ticket-codes.ts';

/** The staff member scanning. */
export interface Scanner {
  userId: string;
}

type EventRow = { id: string; title: string; organizationId: string };
type TicketRow = typeof tickets.$inferSelect;

/**
 * Verifies `request.qrCode` for `request.day` of event `request.eventId` and, when it is valid and
 * not yet used that day, records the check-in. Every call writes one scan_log row.
 *
 * Verdicts: approved `{ isValid: true, eventName, holderName, ticketType, checkedInAt }`; denied with
 * reason `not_found` (unknown code), `wrong_event` (ticket of another event), `revoked`,
 * `not_valid_today` (a day the ticket does not admit or the event does not have; an event without
 * configured days has only day 1), or `already_checked_in` (with the first check-in's `checkedInAt`
 * and `checkedInBy`, the staff member's display name). A retry with the `scanId` of the scan that
 * made the check-in, by the same staff member, answers the original approval again.
 *
 * @throws ServiceError `not_found` for an unknown event, `forbidden` when `scanner` is not a member of
 *   the event's organization.
 */
export async function verifyTicket(db: Db, scanner: Scanner, request: VerifyTicketRequest): Promise<VerifyTicketResponse> {
  const event = await findEvent(db, request.eventId);
  await assertMember(db, scanner.userId, event.organizationId);
  return db.transaction(async (tx) => {
    const verdict = await decide(tx, scanner, event, request);
    await tx.insert(scanLog).values({
      userId: scanner.userId,
      eventId: event.id,
      day: request.day,
      code: request.qrCode,
      verdict: verdict.isValid ? 'approved' : 'denied',
      reason: verdict.isValid ? null : (verdict.reason ?? null),
      scanId: request.scanId ?? null,
    });
    return verdict;
  });
}

async function findEvent(db: DbOrTx, eventId: string): Promise<EventRow> {
  const [event] = isId(eventId)
    ? await db
        .select({ id: events.id, title: events.title, organizationId: events.organizationId })
        .from(events)
        .where(eq(events.id, eventId))
        .limit(1)
    : [];
  if (!event) throw new ServiceError('not_found', 'Event not found');
  return event;
}

async function decide(tx: DbOrTx, scanner: Scanner, event: EventRow, request: VerifyTicketRequest): Promise<VerifyTicketResponse> {
  const [ticket] = await tx.select().from(tickets).where(ticketCodeMatches(request.qrCode)).limit(1);
  if (!ticket) return deny('not_found', 'No ticket with this code exists.');
  if (ticket.eventId !== event.id) return deny('wrong_event', 'This ticket is for a different event.');
  if (ticket.revokedAt) return deny('revoked', 'This ticket has been revoked.');
  if (!(await eventHasDay(tx, event.id, request.day))) {
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

/** Whether `day` is a day of the event: one of its configured days, or day 1 when none are configured. */
async function eventHasDay(tx: DbOrTx, eventId: string, day: number): Promise<boolean> {
  const days = await tx.select({ day: eventDays.day }).from(eventDays).where(eq(eventDays.eventId, eventId));
  return days.length === 0 ? day === 1 : days.some((entry) => entry.day === day);
}

function approve(event: EventRow, ticket: TicketRow, checkedInAt: Date): VerifyTicketResponse {
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
