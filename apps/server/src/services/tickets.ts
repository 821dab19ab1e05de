/**
 * Tickets: storing them — the one way every writer (the demo seed, the CLI import, test fixtures)
 * inserts them, so each ticket gets its attendee-search terms in the same transaction
 * (docs/decisions/038) — and the one way they are changed, by the management area and the CLI
 * alike (SEAMS §6, docs/decisions/114): found by name or code, holder and type changed, revoked
 * and reinstated, each change with its audit entry in its transaction (docs/decisions/106).
 */
import {
  type CheckInAttention,
  checkInNoteText,
  EditTicketRequest,
  type EditTicketDraft,
  type ManagedTicket,
  MANAGED_TICKET_SEARCH_LIMIT,
  type TicketSnapshot,
} from '@gatecheck/contract';
import { and, asc, count, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx, Tx } from '../db/client.ts';
import { inTransaction } from '../db/transactions.ts';
import { checkIns, events, tickets, ticketSearchTerms } from '../db/schema.ts';
import { searchTerm, searchTermsOf } from './attendee-search.ts';
import { type Actor, cliActor, recordAudit } from './audit.ts';
import { findEvent } from './events.ts';
import { changeStamp } from './door-list.ts';
import { isId, ServiceError } from './errors.ts';
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
 * Existing check-ins stay. Revoking twice keeps the first time (and records nothing the second).
 * The change and its audit entry ('ticket.revoked', by `actor`; default the admin CLI's) are one transaction.
 * @throws ServiceError `not_found`.
 */
export async function revokeTicket(db: Db, code: string, actor: Actor = cliActor()): Promise<RevokedTicket> {
  const changed = await setRevoked(db, ticketCodeMatches(code), { isRevoked: true, actor, notFound: `No ticket with code "${code}"` });
  const [ticket] = await db
    .select({ code: tickets.code, holderName: tickets.holderName, eventTitle: events.title, revokedAt: tickets.revokedAt })
    .from(tickets)
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where(ticketCodeMatches(code));
  if (!ticket || !ticket.revokedAt) throw new ServiceError('not_found', `No ticket with code "${code}"`);
  return { ...ticket, revokedAt: ticket.revokedAt, wasAlreadyRevoked: !changed };
}

/** A ticket row as an audit entry records it. */
function snapshotOf(row: typeof tickets.$inferSelect): TicketSnapshot {
  return {
    code: row.code,
    holderName: row.holderName,
    ticketType: row.ticketType,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    checkInNote: row.checkInNote,
    requiresAttention: row.requiresAttention,
  };
}

/** The ticket matching `where` (one: an id, or a code), locked for this transaction's change. */
async function lockTicket(tx: Tx, where: SQL) {
  const [row] = await tx.select().from(tickets).where(where).for('update');
  return row;
}

/**
 * Revokes or reinstates the ticket matching `where`, stamping it changed for the door lists, with
 * its audit entry in the same transaction. Nothing is done (or recorded) when it already is so.
 * @returns whether it changed.
 * @throws ServiceError `not_found` when no ticket matches.
 */
async function setRevoked(db: Db, where: SQL, change: { isRevoked: boolean; actor: Actor; notFound?: string }): Promise<boolean> {
  return inTransaction(db, async (tx) => {
    const row = await lockTicket(tx, where);
    if (!row) throw new ServiceError('not_found', change.notFound ?? 'No such ticket');
    if ((row.revokedAt !== null) === change.isRevoked) return false;
    const [after] = await tx
      .update(tickets)
      .set({ revokedAt: change.isRevoked ? new Date() : null, changedXid: changeStamp() })
      .where(eq(tickets.id, row.id))
      .returning();
    if (!after) throw new Error('ticket vanished under its lock');
    const [event] = await tx.select({ organizationId: events.organizationId }).from(events).where(eq(events.id, row.eventId));
    await recordAudit(tx, change.actor, {
      organizationId: event?.organizationId ?? '',
      eventId: row.eventId,
      action: change.isRevoked ? 'ticket.revoked' : 'ticket.reinstated',
      before: snapshotOf(row),
      after: snapshotOf(after),
    });
    return true;
  });
}

/** The condition "ticket `ticketId` of event `eventId`" (an id that is not a UUID matches nothing). */
function ticketOfEvent(eventId: string, ticketId: string): SQL {
  return isId(ticketId) ? (and(eq(tickets.eventId, eventId), eq(tickets.id, ticketId)) as SQL) : sql`false`;
}

/**
 * Revokes (`isRevoked`) or reinstates ticket `ticketId` of event `eventId`: a reinstated ticket is
 * admitted again from its next scan (its earlier check-ins stayed). Audited ('ticket.revoked',
 * 'ticket.reinstated'); doing what is already so changes and records nothing.
 * @returns the ticket as it now is.
 * @throws ServiceError `not_found` for an unknown event or a ticket not of it.
 */
export async function setTicketRevoked(db: Db, target: { eventId: string; ticketId: string }, change: { isRevoked: boolean; actor: Actor }): Promise<ManagedTicket> {
  const event = await findEvent(db, target.eventId);
  await setRevoked(db, ticketOfEvent(event.id, target.ticketId), change);
  return findManagedTicket(db, event.id, target.ticketId);
}

/**
 * Changes the holder name and type of ticket `ticketId` of event `eventId` (the contract's
 * `EditTicketRequest`): its search terms are rewritten, a new type is added to the event's types,
 * and the ticket is stamped changed for the door lists; its audit entry ('ticket.updated') is in
 * the same transaction. Nothing is recorded when nothing changes.
 * @returns the ticket as it now is.
 * @throws ServiceError `not_found`; `validation_failed` naming the field.
 */
export async function updateTicket(db: Db, target: { eventId: string; ticketId: string }, draft: EditTicketDraft, actor: Actor): Promise<ManagedTicket> {
  const event = await findEvent(db, target.eventId);
  const parsed = EditTicketRequest.safeParse(draft);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw new ServiceError('validation_failed', describeIssue(issue), issue?.path.join('.') || undefined);
  }
  const change = parsed.data;
  await inTransaction(db, async (tx) => {
    const row = await lockTicket(tx, ticketOfEvent(event.id, target.ticketId));
    if (!row) throw new ServiceError('not_found', 'No such ticket');
    if (row.holderName === change.holderName && row.ticketType === change.ticketType) return;
    await ensureTicketTypes(tx, event.id, [change.ticketType]);
    const [after] = await tx.update(tickets).set({ ...change, changedXid: changeStamp() }).where(eq(tickets.id, row.id)).returning();
    if (!after) throw new Error('ticket vanished under its lock');
    await tx.delete(ticketSearchTerms).where(eq(ticketSearchTerms.ticketId, row.id));
    await tx.insert(ticketSearchTerms).values(searchTermsOf(after).map((term) => ({ ticketId: row.id, eventId: event.id, term })));
    await recordAudit(tx, actor, { organizationId: event.organizationId, eventId: event.id, action: 'ticket.updated', before: snapshotOf(row), after: snapshotOf(after) });
  });
  return findManagedTicket(db, event.id, target.ticketId);
}

/** The highest code point: every text starting with a prefix sorts below prefix + this. */
const HIGHEST_CHARACTER = String.fromCodePoint(0x10ffff);

/**
 * The tickets of event `eventId` whose holder name has a word starting with `query`, or whose code
 * starts with it (case and accents ignored, through the attendee-search terms); an empty `query`:
 * the first tickets by holder name. At most MANAGED_TICKET_SEARCH_LIMIT, by holder name then code,
 * revoked ones too; `hasMore` when more match.
 * @throws ServiceError `not_found` for an unknown event.
 */
export async function searchManagedTickets(db: DbOrTx, eventId: string, query: string): Promise<{ tickets: ManagedTicket[]; hasMore: boolean }> {
  const event = await findEvent(db, eventId);
  const folded = searchTerm(query);
  let ids: string[];
  if (folded === '') {
    const rows = await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.eventId, event.id)).orderBy(asc(tickets.holderName), asc(tickets.code)).limit(MANAGED_TICKET_SEARCH_LIMIT + 1);
    ids = rows.map((row) => row.id);
  } else {
    const rows = await db
      .selectDistinct({ id: ticketSearchTerms.ticketId })
      .from(ticketSearchTerms)
      .where(and(eq(ticketSearchTerms.eventId, event.id), sql`${ticketSearchTerms.term} ~>=~ ${folded}`, sql`${ticketSearchTerms.term} ~<~ ${folded + HIGHEST_CHARACTER}`))
      .limit(MANAGED_TICKET_SEARCH_LIMIT + 1);
    ids = rows.map((row) => row.id);
  }
  const hasMore = ids.length > MANAGED_TICKET_SEARCH_LIMIT;
  return { tickets: await managedTickets(db, ids.slice(0, MANAGED_TICKET_SEARCH_LIMIT)), hasMore };
}

/**
 * Ticket `ticketId` of event `eventId` as the management area shows it.
 * @throws ServiceError `not_found`.
 */
export async function findManagedTicket(db: DbOrTx, eventId: string, ticketId: string): Promise<ManagedTicket> {
  const [row] = isId(eventId) ? await db.select({ id: tickets.id }).from(tickets).where(ticketOfEvent(eventId, ticketId)) : [];
  const [ticket] = row ? await managedTickets(db, [row.id]) : [];
  if (!ticket) throw new ServiceError('not_found', 'No such ticket');
  return ticket;
}

/** The tickets `ids` with their active check-in counts, by holder name then code. */
async function managedTickets(db: DbOrTx, ids: string[]): Promise<ManagedTicket[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(tickets).where(inArray(tickets.id, ids)).orderBy(asc(tickets.holderName), asc(tickets.code));
  const counts = await db
    .select({ ticketId: checkIns.ticketId, value: count() })
    .from(checkIns)
    .where(and(inArray(checkIns.ticketId, ids), isNull(checkIns.undoneAt)))
    .groupBy(checkIns.ticketId);
  return rows.map((row) => ({
    id: row.id,
    code: row.code,
    holderName: row.holderName,
    ticketType: row.ticketType,
    days: row.admittedDays,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    checkIns: counts.find((entry) => entry.ticketId === row.id)?.value ?? 0,
  }));
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
 * control characters); nothing is written when it is refused. The change and its audit entry
 * ('ticket.updated', by `actor`; default the admin CLI's) are one transaction.
 * @returns the ticket's code, event title and own note and flag as they now are.
 * @throws ServiceError `bad_request` for a refused note; `not_found` for an unknown code.
 */
export async function updateTicketNote(
  db: Db,
  code: string,
  change: TicketNoteChange,
  actor: Actor = cliActor(),
): Promise<{ code: string; eventTitle: string } & CheckInAttention> {
  const parsed = TicketNoteChange.safeParse(change);
  if (!parsed.success) throw new ServiceError('bad_request', describeIssue(parsed.error.issues[0]));
  const set = {
    ...(parsed.data.checkInNote !== undefined ? { checkInNote: parsed.data.checkInNote } : {}),
    ...(parsed.data.requiresAttention !== undefined ? { requiresAttention: parsed.data.requiresAttention } : {}),
  };
  if (Object.keys(set).length > 0) {
    await inTransaction(db, async (tx) => {
      const row = await lockTicket(tx, ticketCodeMatches(code));
      if (!row) return;
      const [after] = await tx.update(tickets).set({ ...set, changedXid: changeStamp() }).where(eq(tickets.id, row.id)).returning();
      if (!after || (after.checkInNote === row.checkInNote && after.requiresAttention === row.requiresAttention)) return;
      const [event] = await tx.select({ organizationId: events.organizationId }).from(events).where(eq(events.id, row.eventId));
      await recordAudit(tx, actor, { organizationId: event?.organizationId ?? '', eventId: row.eventId, action: 'ticket.updated', before: snapshotOf(row), after: snapshotOf(after) });
    });
  }
  const [ticket] = await db
    .select({ code: tickets.code, eventTitle: events.title, note: tickets.checkInNote, requiresAttention: tickets.requiresAttention })
    .from(tickets)
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where(ticketCodeMatches(code));
  if (!ticket) throw new ServiceError('not_found', `No ticket with code "${code}"`);
  return ticket;
}
