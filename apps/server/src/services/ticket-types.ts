/**
 * Ticket types, a resource of an event (docs/decisions/102, 114): the one service that lists,
 * creates, changes and deletes them, called by the routes (GET/PATCH /events/{eventId}/ticket-types,
 * the management area's /manage/events/{eventId}/ticket-types), the CLI (`ticket-type`) and the
 * ticket insert alike (SEAMS §6). Each change writes its audit entry in its transaction
 * (docs/decisions/106).
 *
 * A type is named by the text tickets carry in `ticket_type` (matched exactly). Inserting tickets of
 * a new name creates its type (`ensureTicketTypes`); a type may also be created ahead of its tickets
 * by setting its note. A type may admit only some of the event's days (docs/decisions/125): the door
 * rule then admits its tickets on the days both they and their type admit. A rename carries the
 * type's tickets and the check-in lists that name it to the new name in the same transaction.
 */
import {
  CreateTicketTypeRequest,
  type CreateTicketTypeDraft,
  type DoorListTicketType,
  type EditTicketTypeRequest,
  type TicketType,
  type TicketTypeSnapshot,
  UpdateTicketTypeRequest,
} from '@gatecheck/contract';
import { and, asc, count, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../db/client.ts';
import { inTransaction, sqlStateOf } from '../db/transactions.ts';
import { checkIns, checkInLists, tickets, ticketTypes } from '../db/schema.ts';
import { type Actor, cliActor, recordAudit } from './audit.ts';
import { ServiceError } from './errors.ts';
import { changeStamp } from './door-list.ts';
import { type EventDetails, findEvent } from './events.ts';

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
      days: ticketTypes.days,
      tickets: sql<number>`coalesce(${counts.tickets}, 0)`.mapWith(Number),
    })
    .from(ticketTypes)
    .leftJoin(counts, eq(counts.name, ticketTypes.name))
    .where(eq(ticketTypes.eventId, eventId))
    .orderBy(asc(ticketTypes.name));
  return rows;
}

/**
 * What `updateTicketType` changes: the event, the type's name, the fields to set, and `newName`
 * when the type is renamed (absent or equal: the name stays).
 */
export interface TicketTypeChange {
  eventId: string;
  name: string;
  change: UpdateTicketTypeRequest;
  newName?: string | undefined;
}

/** `name` as types are kept: white space runs folded. @throws ServiceError `bad_request` for an empty or too long name. */
function typeNameOf(name: string): string {
  const typeName = name.trim().replace(/\s+/g, ' ');
  if (typeName === '' || typeName.length > TICKET_TYPE_NAME_MAX_LENGTH) {
    throw new ServiceError('bad_request', `A ticket type name must be 1 to ${TICKET_TYPE_NAME_MAX_LENGTH} characters`, 'name');
  }
  return typeName;
}

/**
 * `days` as a type keeps them: the event's day numbers, sorted, without repeats; null stays null
 * (every day).
 * @throws ServiceError `bad_request` (field `days`) for an empty list or a day the event does not have.
 */
function typeDaysOf(event: EventDetails, days: readonly number[] | null): number[] | null {
  if (days === null) return null;
  if (days.length === 0) throw new ServiceError('bad_request', 'A ticket type must admit at least one day (or every day).', 'days');
  for (const day of days) {
    if (!event.days.some((entry) => entry.day === day)) {
      throw new ServiceError('bad_request', `"${event.title}" has no day ${day} (days: ${event.days.map((entry) => entry.day).join(', ')}).`, 'days');
    }
  }
  return [...new Set(days)].sort((a, b) => a - b);
}

/** The type row `name` of `eventId` as an audit entry records it, locked for this transaction's change; undefined when there is none. */
async function lockType(tx: Tx, eventId: string, name: string): Promise<TicketTypeSnapshot | undefined> {
  const [row] = await tx
    .select({ name: ticketTypes.name, checkInNote: ticketTypes.checkInNote, requiresAttention: ticketTypes.requiresAttention, days: ticketTypes.days })
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
 * Sets the check-in note, attention flag and/or days of ticket type `name` of event `eventId`,
 * creating the type when the event has none of that name, and renames it to `newName` when given
 * (docs/decisions/125): the type's tickets (their door-list change stamp set, so door lists fetch
 * them again) and the check-in lists that name it take the new name in the same transaction, so
 * nothing is left naming a type that is gone. `change` is checked against the contract's
 * `UpdateTicketTypeRequest` here too (the CLI passes raw text): a note over
 * CHECK_IN_NOTE_MAX_LENGTH characters or with control characters is refused, nothing written.
 * The change and its audit entry ('ticket-type.created' or '.updated', by `actor`; default the
 * admin CLI's; the type before and after) are one transaction.
 * @returns the type as it now is.
 * @throws ServiceError `not_found` for an unknown event, or a rename of a type that does not exist;
 *   `bad_request` for a bad name, change or day (field named); `conflict` (field `name`) when
 *   `newName` is another type's of the event.
 */
export async function updateTicketType(db: Db, { eventId, name, change, newName }: TicketTypeChange, actor: Actor = cliActor()): Promise<TicketType> {
  const event = await findEvent(db, eventId);
  const typeName = typeNameOf(name);
  const renamed = newName === undefined ? typeName : typeNameOf(newName);
  const parsed = UpdateTicketTypeRequest.safeParse(change);
  if (!parsed.success) throw new ServiceError('bad_request', describeIssue(parsed.error.issues[0]), parsed.error.issues[0]?.path.join('.'));
  const set = {
    ...(parsed.data.checkInNote !== undefined ? { checkInNote: parsed.data.checkInNote } : {}),
    ...(parsed.data.requiresAttention !== undefined ? { requiresAttention: parsed.data.requiresAttention } : {}),
    ...(parsed.data.days !== undefined ? { days: typeDaysOf(event, parsed.data.days) } : {}),
  };
  await inTransaction(db, async (tx) => {
    const before = await lockType(tx, event.id, typeName);
    if (before) await tx.update(ticketTypes).set(set).where(and(eq(ticketTypes.eventId, event.id), eq(ticketTypes.name, typeName)));
    else if (renamed !== typeName) throw new ServiceError('not_found', `This event has no ticket type "${typeName}"`);
    else await tx.insert(ticketTypes).values({ eventId: event.id, name: typeName, ...set }).onConflictDoNothing({ target: [ticketTypes.eventId, ticketTypes.name] });
    if (renamed !== typeName) await renameType(tx, event.id, typeName, renamed);
    const after = await lockType(tx, event.id, renamed);
    if (JSON.stringify(before) === JSON.stringify(after)) return;
    await recordAudit(tx, actor, { organizationId: event.organizationId, eventId: event.id, action: before ? 'ticket-type.updated' : 'ticket-type.created', before: before ?? null, after: after ?? null });
  });
  return typeNamed(db, event.id, renamed);
}

/**
 * Renames type `from` of event `eventId` to `to` on `tx`: the type row, its tickets (change stamp
 * set) and every check-in list that names it.
 * @throws ServiceError `conflict` (field `name`) when the event has a type `to` already.
 */
async function renameType(tx: Tx, eventId: string, from: string, to: string): Promise<void> {
  const nameTaken = () => new ServiceError('conflict', `This event already has a ticket type "${to}".`, 'name');
  const [taken] = await tx.select({ name: ticketTypes.name }).from(ticketTypes).where(and(eq(ticketTypes.eventId, eventId), eq(ticketTypes.name, to)));
  if (taken) throw nameTaken();
  // Another rename to `to`, or an import creating type `to`, may commit between that look and this
  // update: the unique index (ticket_types_event_name_key) then refuses it, the same conflict.
  await tx
    .update(ticketTypes)
    .set({ name: to })
    .where(and(eq(ticketTypes.eventId, eventId), eq(ticketTypes.name, from)))
    .catch((error: unknown) => {
      throw sqlStateOf(error) === '23505' ? nameTaken() : error;
    });
  await tx.update(tickets).set({ ticketType: to, changedXid: changeStamp() }).where(and(eq(tickets.eventId, eventId), eq(tickets.ticketType, from)));
  await tx
    .update(checkInLists)
    .set({ ticketTypes: sql`array_replace(${checkInLists.ticketTypes}, ${from}::text, ${to}::text)` })
    .where(and(eq(checkInLists.eventId, eventId), sql`${from}::text = any(${checkInLists.ticketTypes})`));
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
  const type = { ...parsed.data, days: typeDaysOf(event, parsed.data.days) };
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

/** The types of event `eventId` that carry a note or the flag or admit only some days, as a door list carries them. */
export async function doorListTicketTypes(db: DbOrTx, eventId: string): Promise<DoorListTicketType[]> {
  return db
    .select({ name: ticketTypes.name, checkInNote: ticketTypes.checkInNote, requiresAttention: ticketTypes.requiresAttention, days: ticketTypes.days })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.eventId, eventId), or(sql`${ticketTypes.checkInNote} <> ''`, eq(ticketTypes.requiresAttention, true), isNotNull(ticketTypes.days))))
    .orderBy(asc(ticketTypes.name));
}

/** 'checkInNote must be at most 300 characters' from a zod issue. */
export function describeIssue(issue: { path: PropertyKey[]; message: string } | undefined): string {
  if (!issue) return 'Invalid input';
  const field = issue.path.map(String).join('.');
  return field ? `${field} ${issue.message}` : issue.message;
}

/**
 * Changes the existing type `name` of `eventId` as the management area's form saves it
 * (`EditTicketTypeRequest`: note, flag, and a new name and days when given; unlike
 * `updateTicketType`, never creates one).
 * @throws ServiceError `not_found` (event or type); `bad_request` for a refused note or day;
 *   `conflict` (field `name`) for a new name another type has.
 */
export async function editTicketType(db: Db, { eventId, name, edit }: { eventId: string; name: string; edit: EditTicketTypeRequest }, actor: Actor): Promise<TicketType> {
  await typeNamed(db, eventId, typeNameOf(name));
  const { name: newName, ...change } = edit;
  return updateTicketType(db, { eventId, name, change, newName }, actor);
}
