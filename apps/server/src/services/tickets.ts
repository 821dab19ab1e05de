/**
 * Tickets: storing them — the one way every writer (the demo seed, the CLI import, test fixtures)
 * inserts them, so each ticket gets its attendee-search terms in the same transaction
 * (docs/decisions/038) — and revoking one by its code.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { events, tickets, ticketSearchTerms } from '../db/schema.ts';
import { searchTermsOf } from './attendee-search.ts';
import { changeStamp } from './door-list.ts';
import { ServiceError } from './errors.ts';
import { ticketCodeMatches } from './ticket-codes.ts';

/** A ticket to insert (the `tickets` row without the generated columns). */
export type NewTicket = typeof tickets.$inferInsert;

/**
 * Inserts `rows` and their search terms. With `skipTakenCodes`, a code already taken ignoring case
 * is skipped (ON CONFLICT DO NOTHING on the upper(code) index) instead of failing the insert.
 * Run it in a transaction so tickets and terms land together.
 * @returns the inserted tickets' ids and codes.
 * @throws the database's unique violation for a taken code without `skipTakenCodes`.
 */
export async function insertTickets(
  tx: DbOrTx,
  rows: NewTicket[],
  options: { skipTakenCodes?: boolean } = {},
): Promise<Array<{ id: string; code: string }>> {
  if (rows.length === 0) return [];
  const insert = tx.insert(tickets).values(rows);
  // No target: Drizzle takes only columns there; the one unique key besides the random id is upper(code).
  const inserted = await (options.skipTakenCodes ? insert.onConflictDoNothing() : insert).returning({
    id: tickets.id,
    code: tickets.code,
    eventId: tickets.eventId,
    holderName: tickets.holderName,
  });
  const terms = inserted.flatMap((ticket) => searchTermsOf(ticket).map((term) => ({ ticketId: ticket.id, eventId: ticket.eventId, term })));
  // PostgreSQL takes at most 65,535 parameters per statement: 3 per term row.
  for (let start = 0; start < terms.length; start += TERM_ROWS_PER_INSERT) {
    await tx.insert(ticketSearchTerms).values(terms.slice(start, start + TERM_ROWS_PER_INSERT));
  }
  return inserted.map(({ id, code }) => ({ id, code }));
}

const TERM_ROWS_PER_INSERT = 10_000;

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
