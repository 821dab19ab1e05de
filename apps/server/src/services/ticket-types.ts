/**
 * Ticket types, a resource of an event (docs/decisions/102): the one service that lists them and
 * sets their check-in note and attention flag, called by the routes (GET/PATCH
 * /events/{eventId}/ticket-types), the CLI (`ticket-type`) and the ticket insert alike (SEAMS §6).
 *
 * A type is named by the text tickets carry in `ticket_type` (matched exactly). Inserting tickets of
 * a new name creates its type (`ensureTicketTypes`); a type may also be created ahead of its tickets
 * by setting its note.
 */
import { type DoorListTicketType, type TicketType, UpdateTicketTypeRequest } from '@gatecheck/contract';
import { and, asc, count, eq, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { tickets, ticketTypes } from '../db/schema.ts';
import { ServiceError } from './errors.ts';
import { findEvent } from './events.ts';

/** Longest ticket type name, in characters (as the CSV import takes it). */
export const TICKET_TYPE_NAME_MAX_LENGTH = 100;

/**
 * Makes sure event `eventId` has a ticket type for each of `names` (new ones without a note); run
 * in the transaction that inserts the tickets.
 */
export async function ensureTicketTypes(tx: DbOrTx, eventId: string, names: Iterable<string>): Promise<void> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return;
  await tx
    .insert(ticketTypes)
    .values(unique.map((name) => ({ eventId, name })))
    .onConflictDoNothing({ target: [ticketTypes.eventId, ticketTypes.name] });
}

/**
 * The ticket types of event `eventId`, by name, each with how many of the event's tickets have it.
 * @throws ServiceError `not_found` for an unknown event.
 */
export async function listTicketTypes(db: DbOrTx, eventId: string): Promise<TicketType[]> {
  await findEvent(db, eventId);
  const counts = db
    .select({ name: tickets.ticketType, tickets: count().as('tickets') })
    .from(tickets)
    .where(eq(tickets.eventId, eventId))
    .groupBy(tickets.ticketType)
    .as('counts');
  const rows = await db
    .select({
      name: ticketTypes.name,
      checkInNote: ticketTypes.checkInNote,
      requiresAttention: ticketTypes.requiresAttention,
      tickets: sql<number>`coalesce(${counts.tickets}, 0)`.mapWith(Number),
    })
    .from(ticketTypes)
    .leftJoin(counts, eq(counts.name, ticketTypes.name))
    .where(eq(ticketTypes.eventId, eventId))
    .orderBy(asc(ticketTypes.name));
  return rows;
}

/** What `updateTicketType` changes: the event, the type's name, and the fields to set. */
export interface TicketTypeChange {
  eventId: string;
  name: string;
  change: UpdateTicketTypeRequest;
}

/**
 * Sets the check-in note and/or attention flag of ticket type `name` of event `eventId`, creating
 * the type when the event has none of that name. `change` is checked against the contract's
 * `UpdateTicketTypeRequest` here too (the CLI passes raw text): a note over
 * CHECK_IN_NOTE_MAX_LENGTH characters or with control characters is refused, nothing written.
 * @returns the type as it now is.
 * @throws ServiceError `not_found` for an unknown event; `bad_request` for a bad name or change.
 */
export async function updateTicketType(db: DbOrTx, { eventId, name, change }: TicketTypeChange): Promise<TicketType> {
  await findEvent(db, eventId);
  const typeName = name.trim().replace(/\s+/g, ' ');
  if (typeName === '' || typeName.length > TICKET_TYPE_NAME_MAX_LENGTH) {
    throw new ServiceError('bad_request', `A ticket type name must be 1 to ${TICKET_TYPE_NAME_MAX_LENGTH} characters`);
  }
  const parsed = UpdateTicketTypeRequest.safeParse(change);
  if (!parsed.success) throw new ServiceError('bad_request', describeIssue(parsed.error.issues[0]));
  const set = {
    ...(parsed.data.checkInNote !== undefined ? { checkInNote: parsed.data.checkInNote } : {}),
    ...(parsed.data.requiresAttention !== undefined ? { requiresAttention: parsed.data.requiresAttention } : {}),
  };
  const insert = db.insert(ticketTypes).values({ eventId, name: typeName, ...set });
  const [row] = await (Object.keys(set).length === 0
    ? insert.onConflictDoNothing({ target: [ticketTypes.eventId, ticketTypes.name] })
    : insert.onConflictDoUpdate({ target: [ticketTypes.eventId, ticketTypes.name], set })
  ).returning({ name: ticketTypes.name });
  const types = await listTicketTypes(db, eventId);
  const type = types.find((candidate) => candidate.name === (row?.name ?? typeName));
  if (!type) throw new Error(`ticket type "${typeName}" missing after its upsert`);
  return type;
}

/** The types of event `eventId` that carry a note or the flag, as a door list carries them. */
export async function doorListTicketTypes(db: DbOrTx, eventId: string): Promise<DoorListTicketType[]> {
  return db
    .select({ name: ticketTypes.name, checkInNote: ticketTypes.checkInNote, requiresAttention: ticketTypes.requiresAttention })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.eventId, eventId), or(sql`${ticketTypes.checkInNote} <> ''`, eq(ticketTypes.requiresAttention, true))))
    .orderBy(asc(ticketTypes.name));
}

/** 'checkInNote must be at most 300 characters' from a zod issue. */
export function describeIssue(issue: { path: PropertyKey[]; message: string } | undefined): string {
  if (!issue) return 'Invalid input';
  const field = issue.path.map(String).join('.');
  return field ? `${field} ${issue.message}` : issue.message;
}
