/**
 * Storing tickets: the one way every writer (the demo seed, the CLI import, test fixtures) inserts
 * them, so each ticket gets its attendee-search terms in the same transaction (issue 11,
 * docs/decisions/038).
 */
import type { DbOrTx } from '../db/client.ts';
import { tickets, ticketSearchTerms } from '../db/schema.ts';
import { searchTermsOf } from './attendee-search.ts';

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
