/**
 * A supervisor's info scan (issue 26 item 6, docs/decisions/111): the state of a scanned ticket on
 * every check-in list of the event on a day — whether the list admits it that day (its type, and the
 * days the ticket admits with its type's, docs/decisions/125, as the door decides), its check-in there (when,
 * by whom), whether the guest is inside now or left — without admitting anyone. Nothing is checked
 * in; the scan log records the scan with verdict `info`. The caller's role (supervisor or higher)
 * has been checked (routes/require-role.ts).
 */
import {
  attentionFields,
  checkInAttention,
  type InfoScanRequest,
  type InfoScanResponse,
  isCheckInInside,
  isStorableText,
  listAdmits,
  ticketAdmitsDay,
  renderTextSafely,
  TICKET_NOT_FOUND_MESSAGE,
  WRONG_EVENT_MESSAGE,
} from '@gatecheck/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { checkIns, events, scanLog, tickets, users } from '../../db/schema.ts';
import { listCheckInLists } from '../check-in-lists.ts';
import type { EventDetails } from '../events.ts';
import { findTicketWithType, ticketDaysOf } from '../ticket-type-door.ts';
import { codeOfScannedText } from '../signing-keys.ts';
import type { Scanner } from './decide.ts';
import { isActiveCheckIn } from './write.ts';

/**
 * The info scan of `request.qrCode` (a code in any letter case, or a signed ticket's QR text) on
 * `request.day` at `event`, at `now`.
 * @returns the ticket and its state on each list; `ticket` null with a `message` for a code that is
 *   no ticket of this event (another event's ticket is told apart as verify does within an
 *   organization; another organization's is not found).
 */
export async function infoScan(db: Db, supervisor: Scanner, event: EventDetails, request: InfoScanRequest, now: Date): Promise<InfoScanResponse> {
  const code = isStorableText(request.qrCode) ? await codeOfScannedText(db, request.qrCode) : null;
  const found = code === null ? undefined : await findTicketWithType(db, sql`upper(${tickets.code}) = upper(${code})`);
  await db.insert(scanLog).values({
    userId: supervisor.userId,
    eventId: event.id,
    day: request.day,
    code: renderTextSafely(code ?? request.qrCode),
    verdict: 'info',
    reason: null,
    scanId: request.scanId ?? null,
    source: 'scan',
  });
  const lists = await listCheckInLists(db, event.id);
  if (!found || found.ticket.eventId !== event.id) {
    const [other] = found ? await db.select({ organizationId: events.organizationId }).from(events).where(eq(events.id, found.ticket.eventId)) : [];
    const message = other?.organizationId === event.organizationId ? WRONG_EVENT_MESSAGE : TICKET_NOT_FOUND_MESSAGE;
    return { day: request.day, ticket: null, message, lists: lists.map((list) => ({ id: list.id, name: list.name, admitsTicket: false, allowsReentry: list.allowsReentry ?? false, checkIn: null })) };
  }
  const { ticket } = found;
  const made = await db
    .select({
      checkInListId: checkIns.checkInListId,
      checkedInAt: checkIns.checkedInAt,
      checkedInBy: users.displayName,
      lastEnteredAt: checkIns.lastEnteredAt,
      exitedAt: checkIns.exitedAt,
    })
    .from(checkIns)
    .innerJoin(users, eq(users.id, checkIns.staffUserId))
    .where(and(eq(checkIns.eventId, event.id), eq(checkIns.ticketId, ticket.id), eq(checkIns.day, request.day), isActiveCheckIn));
  // The days it admits with its type's (docs/decisions/125): on another day every list's door denies it.
  const admittedDays = ticketDaysOf(ticket, found);
  const isValidToday = ticketAdmitsDay(admittedDays, request.day);
  return {
    day: request.day,
    ticket: {
      ticketId: ticket.id,
      code: ticket.code,
      holderName: ticket.holderName,
      ticketType: ticket.ticketType,
      admittedDays,
      revokedAt: ticket.revokedAt?.toISOString() ?? null,
      ...attentionFields(checkInAttention({ note: ticket.checkInNote, requiresAttention: ticket.requiresAttention }, found.type)),
    },
    lists: lists.map((list) => {
      const checkIn = made.find((row) => row.checkInListId === list.id);
      const lastEnteredAt = checkIn ? (checkIn.lastEnteredAt ?? checkIn.checkedInAt) : null;
      return {
        id: list.id,
        name: list.name,
        admitsTicket: isValidToday && listAdmits(list, ticket.ticketType, request.day),
        allowsReentry: list.allowsReentry ?? false,
        checkIn:
          checkIn && lastEnteredAt
            ? {
                checkedInAt: checkIn.checkedInAt.toISOString(),
                checkedInBy: checkIn.checkedInBy,
                lastEnteredAt: lastEnteredAt.toISOString(),
                exitedAt: checkIn.exitedAt?.toISOString() ?? null,
                isInside: isCheckInInside({ lastEnteredAt, exitedAt: checkIn.exitedAt }, list, event, now),
              }
            : null,
      };
    }),
  };
}
