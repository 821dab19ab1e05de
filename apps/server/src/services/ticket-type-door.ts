/**
 * A ticket's type as the door reads it (docs/decisions/102, 125, 133): the one join from a ticket
 * (or from a per-type count) to its `ticket_types` row, the type's door fields — check-in note,
 * attention flag and days — selected from that row, and the days a ticket admits with its type's
 * (the contract's `ticketAndTypeDays`, the rule `decideCheckIn` applies). Verify, the manual
 * check-in, the offline upload, the info scan, attendee search, the live counts and the live door
 * read a type through this module only, so no path can read it differently from the door's verdict.
 *
 * A ticket whose type has no row (older data) admits every day of its own and has no type note:
 * every read is a left join, and a missing row reads as `{ type: undefined, typeDays: null }`.
 */
import { type CheckInNoteSource, ticketAndTypeDays } from '@gatecheck/contract';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';
import { tickets, ticketTypes } from '../db/schema.ts';

/** A ticket type's door fields (docs/decisions/102, 125). */
export interface TicketTypeDoor {
  /** Its check-in note and attention flag; undefined when the type has no row. */
  type: CheckInNoteSource | undefined;
  /** The days its tickets may admit (with each ticket's own); null: every day, or no row. */
  typeDays: readonly number[] | null;
}

/**
 * The join condition of the `ticket_types` row named by columns `eventId` and `typeName` of another
 * table (a ticket, a per-type count): one probe of `ticket_types_event_name_key`. Left-join it.
 */
export function ticketTypeRowOf(eventId: AnyPgColumn, typeName: AnyPgColumn): SQL {
  // The text `and(…)` writes, so verify's prepared statement reads as it did.
  return sql`(${eq(ticketTypes.eventId, eventId)} and ${eq(ticketTypes.name, typeName)})`;
}

/** The join condition of a ticket's type row: `.leftJoin(ticketTypes, typeOfTicket)` after `tickets`. */
export const typeOfTicket: SQL = ticketTypeRowOf(tickets.eventId, tickets.ticketType);

/**
 * The type's door fields as select columns (null each when the left-joined row is missing); a row
 * read with them gives its `TicketTypeDoor` to `ticketTypeDoorOf`.
 */
export const ticketTypeDoorColumns = {
  typeNote: ticketTypes.checkInNote,
  typeRequiresAttention: ticketTypes.requiresAttention,
  typeDays: ticketTypes.days,
};

/** What a row selected with `ticketTypeDoorColumns` carries. */
export interface TicketTypeDoorRow {
  typeNote: string | null;
  typeRequiresAttention: boolean | null;
  typeDays: number[] | null;
}

/** The door fields of the type read in `row` (see `ticketTypeDoorColumns`). */
export function ticketTypeDoorOf(row: TicketTypeDoorRow): TicketTypeDoor {
  const type = row.typeNote !== null && row.typeRequiresAttention !== null ? { note: row.typeNote, requiresAttention: row.typeRequiresAttention } : undefined;
  return { type, typeDays: row.typeDays };
}

/**
 * The days `ticket` admits with its type's (docs/decisions/125): both must admit a day. Null: every
 * day of the event; [] when the two admit no day together.
 */
export function ticketDaysOf(ticket: { admittedDays: readonly number[] | null }, door: Pick<TicketTypeDoor, 'typeDays'>): number[] | null {
  const days = ticketAndTypeDays(ticket.admittedDays, door.typeDays);
  return days === null ? null : [...days];
}

/**
 * SQL: the left-joined `ticket_types` row admits event day `day` (no row, or days null, or `day`
 * among its days): the type's half of `ticketDaysOf` for one day, for counts kept per ticket type
 * (`ticket_day_counts`, whose rows already hold each ticket's own days).
 */
export function typeAdmitsDaySql(day: number): SQL {
  return sql`(${ticketTypes.days} is null or ${day}::integer = any(${ticketTypes.days}))`;
}

/** A ticket row with its type's door fields. */
export interface TicketWithType extends TicketTypeDoor {
  ticket: typeof tickets.$inferSelect;
}

/**
 * The first ticket that matches `condition` (on `tickets`), with its type's door fields, in one
 * statement (the ticket and its type row by the type's key).
 * @returns undefined when no ticket matches.
 */
export async function findTicketWithType(db: DbOrTx, condition: SQL): Promise<TicketWithType | undefined> {
  const [row] = await db.select({ ticket: tickets, ...ticketTypeDoorColumns }).from(tickets).leftJoin(ticketTypes, typeOfTicket).where(condition).limit(1);
  return row ? { ticket: row.ticket, ...ticketTypeDoorOf(row) } : undefined;
}
