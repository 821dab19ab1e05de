/**
 * Tickets for the admin CLI (issue 4): revoking one by its code (any letter case). No CLI or HTTP types in here; failures the operator can fix throw
 * ServiceError (`not_found`, `conflict`, `bad_request`).
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { events, tickets } from '../../db/schema.ts';
import { changeStamp } from '../door-list.ts';
import { ServiceError } from '../errors.ts';
import { ticketCodeMatches } from '../ticket-codes.ts';

/** The outcome of revokeTicket. */
export interface RevokedTicket {
  code: string;
  holderName: string;
  eventTitle: string;
  revokedAt: Date;
  /** True when the ticket had been revoked before this call (nothing changed). */
  wasAlreadyRevoked: boolean;
}

/**
 * Revokes the ticket `code` (case-insensitive, as verify looks codes up): later scans are denied with reason `revoked`.
 * Existing check-ins stay. Revoking twice keeps the first time.
 * @throws ServiceError `not_found`.
 */
export async function revokeTicket(db: DbOrTx, code: string): Promise<RevokedTicket> {
  const [updated] = await db
    .update(tickets)
    .set({ revokedAt: new Date(), changedXid: changeStamp() })
    .where(and(ticketCodeMatches(code), isNull(tickets.revokedAt)))
    .returning({ revokedAt: tickets.revokedAt });
  const [ticket] = await db
    .select({ code: tickets.code, holderName: tickets.holderName, eventTitle: events.title, revokedAt: tickets.revokedAt })
    .from(tickets)
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where(ticketCodeMatches(code));
  if (!ticket || !ticket.revokedAt) throw new ServiceError('not_found', `No ticket with code "${code}"`);
  return { ...ticket, revokedAt: ticket.revokedAt, wasAlreadyRevoked: !updated };
}
