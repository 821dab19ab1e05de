/**
 * Ticket types, a resource of an event (docs/decisions/102, 114): the one service that lists,
 * creates, changes and deletes them, called by the routes (GET/PATCH /events/{eventId}/ticket-types,
 * the management area's /manage/events/{eventId}/ticket-types), the CLI (`ticket-type`) and the
 * ticket insert alike (SEAMS §6). Each change writes its audit entry in its transaction
 * (docs/decisions/106).
 *
 * A type is named by the text tickets carry in `ticket_type` (matched exactly). Inserting tickets of
 * a new name creates its type (`ensureTicketTypes`); a type may also be created ahead of its tickets
 * by setting its note.
 */
import {
  CreateTicketTypeRequest,
  type CreateTicketTypeDraft,
  type DoorListTicketType,
  type TicketType,
  type TicketTypeSnapshot,
  UpdateTicketTypeRequest,
} from '@gatecheck/contract';
import { and, asc, count, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../db/client.ts';
import { inTransaction } from '../db/transactions.ts';
import { checkIns, checkInLists, tickets, ticketTypes } from '../db/schema.ts';
import { type Actor, cliActor, recordAudit } from './audit.ts';
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

/** `name` as types are kept: white space runs folded. @throws ServiceError `bad_request` for an empty or too long name. */
function typeNameOf(name: string): string {
  const typeName = name.trim().replace(/\s+/g, ' ');
  if (typeName === '' || typeName.length > TICKET_TYPE_NAME_MAX_LENGTH) {
    throw new ServiceError('bad_request', `A ticket type name must be 1 to ${TICKET_TYPE_NAME_MAX_LENGTH} characters`, 'name');
  }
  return typeName;
}

/** The type row `name` of `eventId` as an audit entry records it, locked for this transaction's change; undefined when there is none. */
async function lockType(tx: Tx, eventId: string, name: string): Promise<TicketTypeSnapshot | undefined> {
  const [row] = await tx
    .select({ name: ticketTypes.name, checkInNote: ticketTypes.checkInNote, requiresAttention: ticketTypes.requiresAttention })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.eventId, eventId), eq(ticketTypes.name, name)))
    .for('update');
  return row;
}

/** The type `name` of `eventId` as it now is (with its ticket count). */
async function typeNamed(db: DbOrTx, eventId: string, name: string): Promise<TicketType> {
  const type = (await listTicketTypes(db, eventId)).find((candidate) => candidate.name === name);
  if (!type) throw new ServiceError('not_found', `This event has no ticket type "${name}"`);
  return type;
}

/**
 * Sets the check-in note and/or attention flag of ticket type `name` of event `eventId`, creating
 * the type when the event has none of that name. `change` is checked against the contract's
 * `UpdateTicketTypeRequest` here too (the CLI passes raw text): a note over
 * CHECK_IN_NOTE_MAX_LENGTH characters or with control characters is refused, nothing written.
 * The change and its audit entry ('ticket-type.created' or '.updated', by `actor`; default the
 * admin CLI's) are one transaction.
 * @returns the type as it now is.
 * @throws ServiceError `not_found` for an unknown event; `bad_request` for a bad name or change.
 */
export async function updateTicketType(db: Db, { eventId, name, change }: TicketTypeChange, actor: Actor = cliActor()): Promise<TicketType> {
  const event = await findEvent(db, eventId);
  const typeName = typeNameOf(name);
  const parsed = UpdateTicketTypeRequest.safeParse(change);
  if (!parsed.success) throw new ServiceError('bad_request', describeIssue(parsed.error.issues[0]), parsed.error.issues[0]?.path.join('.'));
  const set = {
    ...(parsed.data.checkInNote !== undefined ? { checkInNote: parsed.data.checkInNote } : {}),
    ...(parsed.data.requiresAttention !== undefined ? { requiresAttention: parsed.data.requiresAttention } : {}),
  };
  await inTransaction(db, async (tx) => {
    const before = await lockType(tx, event.id, typeName);
    if (before) await tx.update(ticketTypes).set(set).where(and(eq(ticketTypes.eventId, event.id), eq(ticketTypes.name, typeName)));
    else await tx.insert(ticketTypes).values({ eventId: event.id, name: typeName, ...set }).onConflictDoNothing({ target: [ticketTypes.eventId, ticketTypes.name] });
    const after = await lockType(tx, event.id, typeName);
    if (JSON.stringify(before) === JSON.stringify(after)) return;
    await recordAudit(tx, actor, { organizationId: event.organizationId, eventId: event.id, action: before ? 'ticket-type.updated' : 'ticket-type.created', before: before ?? null, after: after ?? null });
  });
  return typeNamed(db, event.id, typeName);
}

/**
 * Creates ticket type `draft.name` of event `eventId` with its note and flag (the contract's
 * `CreateTicketTypeRequest`), with its audit entry in the same transaction.
 * @returns the new type.
 * @throws ServiceError `not_found` (event); `validation_failed` (field named); `conflict` (field
 *   `name`) when the event has a type of that name.
 */
export async function createTicketType(db: Db, eventId: string, draft: CreateTicketTypeDraft, actor: Actor): Promise<TicketType> {
  const event = await findEvent(db, eventId);
  const parsed = CreateTicketTypeRequest.safeParse(draft);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw new ServiceError('validation_failed', describeIssue(issue), issue?.path.join('.') || undefined);
  }
  const type = parsed.data;
  await inTransaction(db, async (tx) => {
    const [created] = await tx
      .insert(ticketTypes)
      .values({ eventId: event.id, ...type })
      .onConflictDoNothing({ target: [ticketTypes.eventId, ticketTypes.name] })
      .returning({ name: ticketTypes.name });
    if (!created) throw new ServiceError('conflict', `This event already has a ticket type "${type.name}".`, 'name');
    await recordAudit(tx, actor, { organizationId: event.organizationId, eventId: event.id, action: 'ticket-type.created', before: null, after: type });
  });
  return typeNamed(db, event.id, type.name);
}

/**
 * Deletes ticket type `name` of event `eventId`, with its audit entry in the same transaction.
 * Refused (nothing changed) while anything points at it, so no check-in, ticket or door is left
 * pointing at nothing: a ticket of the type with an active check-in, any ticket of the type (change
 * their type or import them elsewhere first), or a check-in list that names it.
 * @throws ServiceError `not_found` (event or type); `conflict` with field `name` for those refusals.
 */
export async function deleteTicketType(db: Db, eventId: string, name: string, actor: Actor): Promise<void> {
  const event = await findEvent(db, eventId);
  const typeName = typeNameOf(name);
  await inTransaction(db, async (tx) => {
    const before = await lockType(tx, event.id, typeName);
    if (!before) throw new ServiceError('not_found', `This event has no ticket type "${typeName}"`);
    const [held] = await tx
      .select({ value: count() })
      .from(checkIns)
      .innerJoin(tickets, eq(tickets.id, checkIns.ticketId))
      .where(and(eq(checkIns.eventId, event.id), eq(tickets.ticketType, typeName), isNull(checkIns.undoneAt)));
    if (held && held.value > 0) {
      throw new ServiceError('conflict', `Tickets of "${typeName}" have ${held.value} check-in${held.value === 1 ? '' : 's'}: a ticket type with check-ins cannot be deleted.`, 'name');
    }
    const [carried] = await tx.select({ value: count() }).from(tickets).where(and(eq(tickets.eventId, event.id), eq(tickets.ticketType, typeName)));
    if (carried && carried.value > 0) {
      throw new ServiceError('conflict', `${carried.value} ticket${carried.value === 1 ? ' has' : 's have'} the type "${typeName}": give them another type before deleting it.`, 'name');
    }
    const lists = await tx
      .select({ name: checkInLists.name })
      .from(checkInLists)
      .where(and(eq(checkInLists.eventId, event.id), sql`${typeName} = any(${checkInLists.ticketTypes})`));
    if (lists.length > 0) {
      throw new ServiceError('conflict', `The check-in list "${lists[0]?.name ?? ''}" admits "${typeName}": take the type off the list before deleting it.`, 'name');
    }
    await tx.delete(ticketTypes).where(and(eq(ticketTypes.eventId, event.id), eq(ticketTypes.name, typeName)));
    await recordAudit(tx, actor, { organizationId: event.organizationId, eventId: event.id, action: 'ticket-type.deleted', before, after: null });
  });
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

/**
 * Changes the check-in note and attention flag of the existing type `name` of `eventId` (the
 * management area's edit: unlike `updateTicketType`, never creates one).
 * @throws ServiceError `not_found` (event or type); `bad_request` for a refused note.
 */
export async function editTicketType(db: Db, { eventId, name, change }: TicketTypeChange, actor: Actor): Promise<TicketType> {
  await typeNamed(db, eventId, typeNameOf(name));
  return updateTicketType(db, { eventId, name, change }, actor);
}
