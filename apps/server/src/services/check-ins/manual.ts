/**
 * A supervisor's tools on one ticket (docs/decisions/039): a manual check-in from a search result,
 * decided and written as a scan's door write is (./record.ts `recordAttempt`, through ./decide.ts
 * `decideAndRecord`) and logged with source `manual`; and an undo, which marks the active check-in undone — who, when,
 * why — so the ticket can be checked in again; no row is ever deleted. The caller's role has been
 * checked (routes/require-role.ts).
 */
import type { CheckInDirection, VerifyTicketRequest, VerifyTicketResponse } from '@gatecheck/contract';
import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { scanLog, tickets, users } from '../../db/schema.ts';
import { inTransaction } from '../../db/transactions.ts';
import { resolveCheckInList } from '../check-in-lists.ts';
import { isId, ServiceError } from '../errors.ts';
import type { EventDetails } from '../events.ts';
import { findTicketWithType, type TicketWithType } from '../ticket-type-door.ts';
import { decideAndRecord, logAttempt, refuseExitWithoutReentry, type Scanner } from './decide.ts';
import { releaseEventPlace } from './event-places.ts';
import { undoActiveCheckIn } from './write.ts';

/**
 * A supervisor's check-in of ticket `ticketId` of `event` from a search result: the same decision
 * as a scan (`decideCheckIn`) and the same decide-and-write (./record.ts `recordAttempt`), logged
 * with source `manual` and the ticket's code, in one transaction.
 * At check-in list `checkInListId` (default: the event's first, docs/decisions/100).
 * @returns the verdict, as verify answers it.
 * @throws ServiceError `not_found` when the ticket is not one of `event`'s (another event's or
 *   organization's ticket is not found either: nothing leaks); `bad_request` for a list that is not
 *   one of the event's.
 */
export async function manualCheckIn(
  db: Db,
  scanner: Scanner,
  event: EventDetails,
  request: { ticketId: string; day: number; scanId?: string | undefined; checkInListId?: string | undefined; direction?: CheckInDirection | undefined },
  now: Date,
): Promise<VerifyTicketResponse> {
  const found = await findEventTicket(db, event, request.ticketId);
  const checkInList = await resolveCheckInList(db, event.id, request.checkInListId);
  refuseExitWithoutReentry(checkInList.list, request.direction);
  const verifyRequest: VerifyTicketRequest = { eventId: event.id, qrCode: found.ticket.code, day: request.day, scanId: request.scanId, direction: request.direction };
  return inTransaction(db, async (tx) => {
    const attempt = { scanner, event, checkInList, request: verifyRequest, now };
    const verdict = await decideAndRecord(tx, attempt, { ...found, organizationId: event.organizationId });
    await logAttempt(tx, { ...attempt, verdict, source: 'manual' });
    return verdict;
  });
}

/** What an undo recorded (UndoCheckInResponse on the wire). */
export interface UndoneCheckIn {
  ticketId: string;
  day: number;
  checkedInAt: Date;
  /** The exit undone with it (null: the guest was inside, and no longer counts as inside). */
  exitedAt: Date | null;
  undoneAt: Date;
  /** Display name of the supervisor who undid it. */
  undoneBy: string;
  reason: string;
}

/**
 * Undoes the active check-in of ticket `ticketId` of `event` on `day` (`undoActiveCheckIn`: one
 * UPDATE guarded by `undone_at IS NULL`, the database clock, who and why), and logs the undo (verdict `undone`, source `undo`, the reason) in the same
 * transaction. The row stays; the ticket can be checked in again on that day. Of two concurrent
 * undos one wins, the other gets the 409. With `scanId` (an undo from the scanner's recent scans)
 * only what that scan made is undone: the check-in when it was its first entry, or that re-entry
 * and the movements since (the guest out since the exit before it; docs/decisions/138). A scan
 * admitted offline whose ticket another gate had checked in first, or a recent scan whose check-in
 * was undone and made again since, must not undo the check-in that stands, or the ticket could get
 * in once more. The check-in is the one at list
 * `checkInListId`; without it, at the event's first list, or with `scanId` at whichever list that
 * scan checked in at (docs/decisions/100).
 * @throws ServiceError `not_found` when the ticket is not one of `event`'s; `conflict` when it has
 *   no active check-in on `day`; `check_in_changed` when its active check-in is not `scanId`'s;
 *   `bad_request` for a list that is not one of the event's.
 */
export async function undoCheckIn(
  db: Db,
  supervisor: Scanner,
  event: EventDetails,
  request: { ticketId: string; day: number; reason: string; scanId?: string | undefined; checkInListId?: string | undefined },
): Promise<UndoneCheckIn> {
  const { ticket } = await findEventTicket(db, event, request.ticketId);
  const checkInListId =
    request.checkInListId !== undefined || request.scanId === undefined ? (await resolveCheckInList(db, event.id, request.checkInListId)).list.id : undefined;
  return inTransaction(db, async (tx) => {
    const undone = await undoActiveCheckIn(tx, {
      eventId: event.id,
      ticketId: ticket.id,
      day: request.day,
      checkInListId,
      scanId: request.scanId,
      undoneBy: supervisor.userId,
      reason: request.reason,
    });
    // The event's place too, unless the guest is still inside through another list (docs/decisions/147).
    if (undone.isUndone && (event.capacity ?? null) !== null) await releaseEventPlace(tx, { eventId: event.id, ticketId: ticket.id, day: request.day, now: new Date() });
    if (!undone.isUndone) {
      if (undone.standing === 'another') {
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
      checkInListId: undone.checkInListId,
    });
    const [user] = await tx.select({ name: users.displayName }).from(users).where(eq(users.id, supervisor.userId));
    return {
      ticketId: ticket.id,
      day: request.day,
      checkedInAt: undone.checkedInAt,
      exitedAt: undone.exitedAt,
      undoneAt: undone.undoneAt,
      undoneBy: user?.name ?? '',
      reason: request.reason,
    };
  });
}

/**
 * The ticket `ticketId` when it belongs to `event`, with its type's door fields (../ticket-type-door.ts).
 * @throws ServiceError `not_found` otherwise (an unknown id, not a UUID, another event's ticket).
 */
async function findEventTicket(db: DbOrTx, event: EventDetails, ticketId: string): Promise<TicketWithType> {
  const found = isId(ticketId) ? await findTicketWithType(db, sql`${eq(tickets.id, ticketId)} and ${eq(tickets.eventId, event.id)}`) : undefined;
  if (!found) throw new ServiceError('not_found', 'No ticket with this id in this event.');
  return found;
}
