/**
 * Attendee search (issue 11, docs/decisions/038): a supervisor finds a ticket of the selected event
 * by holder name (the start of any word of it) or by the start of its code, ignoring letter case and
 * accents, and sees its status for the selected day.
 *
 * Each ticket has search terms (table `ticket_search_terms`): its code and every word-start suffix of
 * its holder name, folded by `searchTerm`. A search folds the text the same way and reads the terms
 * in the prefix range [text, text + U+10FFFF) with the text_pattern_ops operators `~>=~`/`~<~`, which
 * compare bytes and use the (event_id, term text_pattern_ops) index: no LIKE, so `%`, `_` and `\`
 * are ordinary characters, and no extension (unaccent, pg_trgm) is needed on PGlite or PostgreSQL.
 */
import type { Attendee, AttendeeSearchResponse } from '@gatecheck/contract';
import { ATTENDEE_SEARCH_LIMIT, attentionFields, checkInAttention, isCheckInInside } from '@gatecheck/contract';
import transliterate from '@sindresorhus/transliterate';
import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { inTransaction } from '../db/transactions.ts';
import { checkIns, tickets, ticketSearchTerms, ticketTypes, users } from '../db/schema.ts';
import { resolveCheckInList } from './check-in-lists.ts';
import type { EventDetails } from './events.ts';
import { ticketDaysOf, ticketTypeDoorColumns, ticketTypeDoorOf, typeOfTicket } from './ticket-type-door.ts';

/** Term rows one search reads at most (see searchAttendees). */
const TERM_ROWS_READ = 4 * (ATTENDEE_SEARCH_LIMIT + 1);

/** The highest code point: every text starting with a prefix sorts below prefix + this (bytewise, UTF-8). */
const HIGHEST_CHARACTER = String.fromCodePoint(0x10ffff);

/**
 * `text` folded for search: combining marks dropped after canonical decomposition (é → e, ü → u),
 * the rest transliterated to Latin by @sindresorhus/transliterate (ß → ss, ø → o, Æ → AE),
 * lower case, runs of white space as one space, trimmed. 'ZOË  van Dijk' → 'zoe van dijk'.
 */
export function searchTerm(text: string): string {
  const withoutMarks = text.normalize('NFKD').replace(/\p{M}/gu, '');
  return transliterate(withoutMarks).toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * The search terms of a ticket: its folded code, and the folded holder name from each word on
 * ('Zoë van Dijk' → 'zoe van dijk', 'van dijk', 'dijk'). Empty terms and repeats are dropped.
 */
export function searchTermsOf(ticket: { code: string; holderName: string }): string[] {
  const words = searchTerm(ticket.holderName).split(' ').filter(Boolean);
  const terms = [searchTerm(ticket.code), ...words.map((_, index) => words.slice(index).join(' '))];
  return [...new Set(terms.filter(Boolean))];
}

/**
 * The tickets of `event` whose holder name has a word starting with `query`, or whose code starts
 * with it (case and accents ignored; `query` is plain text, already at least 3 characters — the
 * contract's AttendeeSearchQuery): the first ATTENDEE_SEARCH_LIMIT by matching term, shown by holder
 * name then code, each with its active check-in on `at.day` at check-in list `at.checkInListId`
 * (default the event's first, docs/decisions/100; when and by whom), whether it is revoked, and the
 * days it admits with its type's (`admittedDays`, docs/decisions/125).
 * `hasMore` when more may match (type more letters).
 * @throws ServiceError `bad_request` for a list that is not one of the event's.
 */
export async function searchAttendees(
  db: Db,
  event: EventDetails,
  query: string,
  at: { day: number; checkInListId?: string | undefined },
  now: Date = new Date(),
): Promise<AttendeeSearchResponse> {
  const { day } = at;
  const { list } = await resolveCheckInList(db, event.id, at.checkInListId);
  const folded = searchTerm(query);
  if (folded === '') return { attendees: [], hasMore: false };
  // The first matching terms in index order (no sort of every match: a 3-letter start can match
  // tens of thousands of terms at 1,000,000 tickets), then one entry per ticket. A ticket has one
  // term per word of its name plus its code, so TERM_ROWS_READ rows hold more than LIMIT tickets
  // unless names repeat a word start many times; then fewer come back, with hasMore.
  const matches = await db
    .select({ ticketId: ticketSearchTerms.ticketId })
    .from(ticketSearchTerms)
    .where(
      and(
        eq(ticketSearchTerms.eventId, event.id),
        sql`${ticketSearchTerms.term} ~>=~ ${folded}`,
        sql`${ticketSearchTerms.term} ~<~ ${folded + HIGHEST_CHARACTER}`,
      ),
    )
    .orderBy(sql`${ticketSearchTerms.term} using ~<~`)
    .limit(TERM_ROWS_READ);
  const distinct = [...new Set(matches.map((row) => row.ticketId))];
  const hasMore = distinct.length > ATTENDEE_SEARCH_LIMIT || matches.length === TERM_ROWS_READ;
  const ids = distinct.slice(0, ATTENDEE_SEARCH_LIMIT);
  if (ids.length === 0) return { attendees: [], hasMore: false };
  const rows = await db
    .select({
      ticket: tickets,
      checkedInAt: checkIns.checkedInAt,
      lastEnteredAt: checkIns.lastEnteredAt,
      exitedAt: checkIns.exitedAt,
      checkedInBy: users.displayName,
      ...ticketTypeDoorColumns,
    })
    .from(tickets)
    .leftJoin(ticketTypes, typeOfTicket)
    .leftJoin(checkIns, and(eq(checkIns.eventId, tickets.eventId), eq(checkIns.checkInListId, list.id), eq(checkIns.day, day), eq(checkIns.ticketId, tickets.id), isNull(checkIns.undoneAt)))
    .leftJoin(users, eq(users.id, checkIns.staffUserId))
    .where(inArray(tickets.id, ids))
    .orderBy(asc(tickets.holderName), asc(tickets.code));
  return {
    attendees: rows.map((row): Attendee => {
      const door = ticketTypeDoorOf(row);
      return {
        ticketId: row.ticket.id,
        code: row.ticket.code,
        holderName: row.ticket.holderName,
        ticketType: row.ticket.ticketType,
        // The days it admits with its type's (docs/decisions/125), as the door decides: the web
        // says 'Not valid on Day 2' from them.
        admittedDays: ticketDaysOf(row.ticket, door),
        revokedAt: row.ticket.revokedAt?.toISOString() ?? null,
        day,
        checkIn: row.checkedInAt
          ? {
              checkedInAt: row.checkedInAt.toISOString(),
              checkedInBy: row.checkedInBy ?? '',
              // Inside or left, at a list that records exits (docs/decisions/111).
              ...(list.allowsReentry || list.dailyCheckoutTime
                ? {
                    isInside: isCheckInInside({ lastEnteredAt: row.lastEnteredAt ?? row.checkedInAt, exitedAt: row.exitedAt }, list, event, now),
                    exitedAt: row.exitedAt?.toISOString() ?? null,
                    lastEnteredAt: (row.lastEnteredAt ?? row.checkedInAt).toISOString(),
                  }
                : {}),
            }
          : null,
        ...attentionFields(checkInAttention({ note: row.ticket.checkInNote, requiresAttention: row.ticket.requiresAttention }, door.type)),
      };
    }),
    hasMore,
  };
}

/**
 * Rewrites the search terms of every ticket with `searchTerm` (after migration 0003, whose SQL
 * could only lower-case the names of existing tickets), in batches of `batchSize` tickets by id.
 * @returns how many tickets were reindexed.
 */
export async function reindexSearchTerms(db: Db, batchSize = 2_000): Promise<number> {
  let done = 0;
  let after: string | undefined;
  for (;;) {
    const batch: Array<{ id: string; eventId: string; code: string; holderName: string }> = await db
      .select({ id: tickets.id, eventId: tickets.eventId, code: tickets.code, holderName: tickets.holderName })
      .from(tickets)
      .where(after ? gt(tickets.id, after) : undefined)
      .orderBy(asc(tickets.id))
      .limit(batchSize);
    if (batch.length === 0) return done;
    await inTransaction(db, async (tx) => {
      await tx.delete(ticketSearchTerms).where(inArray(ticketSearchTerms.ticketId, batch.map((ticket) => ticket.id)));
      const rows = batch.flatMap((ticket) => searchTermsOf(ticket).map((term) => ({ ticketId: ticket.id, eventId: ticket.eventId, term })));
      if (rows.length > 0) await tx.insert(ticketSearchTerms).values(rows);
    });
    done += batch.length;
    after = batch.at(-1)?.id;
  }
}
