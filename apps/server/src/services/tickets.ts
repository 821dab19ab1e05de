/**
 * Tickets: storing them — the one way every writer (the demo seed, the CLI import, test fixtures)
 * inserts them, so each ticket gets its attendee-search terms in the same transaction
 * (docs/decisions/038) — and revoking one by its code.
 */
import { type CheckInAttention, checkInNoteText } from '@gatecheck/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client.ts';
import { events, tickets, ticketSearchTerms } from '../db/schema.ts';
import { searchTermsOf } from './attendee-search.ts';
import { changeStamp } from './door-list.ts';
import { ServiceError } from './errors.ts';
import { ticketCodeMatches } from './ticket-codes.ts';
import { describeIssue, ensureTicketTypes } from './ticket-types.ts';

/** A ticket to insert (the `tickets` row without the generated columns). */
export type NewTicket = typeof tickets.$inferInsert;

/**
 * Inserts `rows`, their search terms and the ticket types they name (`ensureTicketTypes`). With `skipTakenCodes`, a code already taken ignoring case
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
  for (const eventId of new Set(rows.map((row) => row.eventId))) {
    await ensureTicketTypes(tx, eventId, rows.filter((row) => row.eventId === eventId).map((row) => row.ticketType));
  }
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

/** What `updateTicketNote` sets on a ticket: its own note and/or attention flag (a field left out keeps its value). */
export const TicketNoteChange = z.object({
  checkInNote: checkInNoteText().optional(),
  requiresAttention: z.boolean().optional(),
});
export type TicketNoteChange = z.input<typeof TicketNoteChange>;

/**
 * Sets the own check-in note and/or attention flag of the ticket `code` (case-insensitive) and
 * stamps it as changed, so the next door-list download carries it (docs/decisions/102). The note is
 * checked as the contract's `checkInNoteText` (at most CHECK_IN_NOTE_MAX_LENGTH characters, no
 * control characters); nothing is written when it is refused.
 * @returns the ticket's code, event title and own note and flag as they now are.
 * @throws ServiceError `bad_request` for a refused note; `not_found` for an unknown code.
 */
export async function updateTicketNote(db: DbOrTx, code: string, change: TicketNoteChange): Promise<{ code: string; eventTitle: string } & CheckInAttention> {
  const parsed = TicketNoteChange.safeParse(change);
  if (!parsed.success) throw new ServiceError('bad_request', describeIssue(parsed.error.issues[0]));
  const set = {
    ...(parsed.data.checkInNote !== undefined ? { checkInNote: parsed.data.checkInNote } : {}),
    ...(parsed.data.requiresAttention !== undefined ? { requiresAttention: parsed.data.requiresAttention } : {}),
  };
  if (Object.keys(set).length > 0) {
    await db.update(tickets).set({ ...set, changedXid: changeStamp() }).where(ticketCodeMatches(code));
  }
  const [ticket] = await db
    .select({ code: tickets.code, eventTitle: events.title, note: tickets.checkInNote, requiresAttention: tickets.requiresAttention })
    .from(tickets)
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where(ticketCodeMatches(code));
  if (!ticket) throw new ServiceError('not_found', `No ticket with code "${code}"`);
  return ticket;
}
