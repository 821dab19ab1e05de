/**
 * The door list of an event day (issue 12 item 2, docs/decisions/044): every ticket of the event as
 * a device needs it to decide offline with `decideCheckIn` — lookup key (hash of the code), type,
 * admitted days, revoked, the holder name sealed with a key derived from the code, and the active
 * check-in of the day — and a cursor for "changes since".
 *
 * The cursor is a transaction-id watermark: every row a door list shows carries `changed_xid`, the
 * id of the transaction that last wrote it. A download first reads `pg_snapshot_xmin` of the current
 * snapshot — every transaction with a smaller id has finished — then the rows; the next download
 * with `since` = that xmin returns every ticket whose row or day check-in has `changed_xid >= since`.
 * A write that commits after the first download began has an id >= that xmin (it was running, or
 * had not started), so it is never skipped, whatever the commit order; a change can come twice,
 * which is harmless because an entry is the ticket's whole state.
 *
 * Tickets whose codes are too weak to keep secret (`isDoorListCode`, docs/decisions/087) are left
 * off, and the list says the event has such tickets (`hasUnlistedCodes`); the ids of the event's
 * revoked signing keys come with every list (`revokedKeyIds`, docs/decisions/089), and so do the
 * ticket types with a check-in note or attention flag (`ticketTypes`, docs/decisions/102); a
 * ticket's own note is sealed like its holder name.
 */
import {
  DOOR_LIST_FORMAT,
  type DoorList,
  type DoorListEntry,
  doorListLookupKey,
  isDoorListCode,
  sealCheckInNote,
  sealHolderName,
} from '@gatecheck/contract';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { checkIns, events, tickets, users } from '../db/schema.ts';
import { chooseCheckInList, listCheckInLists } from './check-in-lists.ts';
import type { EventDetails } from './events.ts';
import { revokedSigningKeyIds } from './signing-keys.ts';
import { doorListTicketTypes } from './ticket-types.ts';
import { countListInside } from './check-in-counts.ts';

/**
 * The SQL value that stamps a row as changed by the current transaction: `SET changed_xid =
 * changeStamp()` in every UPDATE of tickets or check-ins that a door list shows (revoke, undo).
 */
export function changeStamp(): SQL {
  return sql`(pg_current_xact_id()::text)::bigint`;
}

/**
 * The door list of `event` for `at.day` at check-in list `at.checkInListId` (default the event's
 * first; docs/decisions/100): all tickets (`at.since` undefined, `isComplete: true`) or only those
 * changed since the cursor `at.since` (a previous answer's `cursor`), each with its check-in at that
 * list, and the event's lists. `now` is the server clock (`generatedAt`). The caller has checked the
 * caller's membership (requireRole).
 * @throws ServiceError `bad_request` for a list that is not one of the event's.
 */
export async function readDoorList(
  db: DbOrTx,
  event: EventDetails,
  at: { day: number; since?: string | undefined; checkInListId?: string | undefined },
  now: Date,
): Promise<DoorList> {
  const { day, since } = at;
  const lists = await listCheckInLists(db, event.id);
  const chosen = chooseCheckInList(lists, at.checkInListId).list;
  const listId = chosen.id;
  // The watermark first, the rows after: see the module comment.
  const [watermark] = await db
    .select({ xmin: sql<string>`pg_snapshot_xmin(pg_current_snapshot())::text` })
    .from(events)
    .where(eq(events.id, event.id));
  const cursor = watermark?.xmin;
  if (!cursor) throw new Error('no snapshot xmin');

  const dayCheckIn = and(eq(checkIns.eventId, tickets.eventId), eq(checkIns.checkInListId, listId), eq(checkIns.day, day), eq(checkIns.ticketId, tickets.id), isNull(checkIns.undoneAt));
  // Changed since the cursor: the ids come from the two (…, changed_xid) indexes, so a cursor
  // download reads what changed, not every ticket of the event (issue 13 item 4, docs/decisions/060).
  // As an array (`= any(array(…))`), so the tickets are then read by their key, one look-up per
  // changed id: as `in (subquery)` the planner joined the ids to a scan of every ticket of the event
  // (docs/decisions/140).
  const changedSince =
    since === undefined
      ? undefined
      : sql`${tickets.id} = any(array(
          select ${tickets.id} from ${tickets} where ${tickets.eventId} = ${event.id} and ${tickets.changedXid} >= ${since}::bigint
          union
          select ${checkIns.ticketId} from ${checkIns} where ${checkIns.day} = ${day} and ${checkIns.changedXid} >= ${since}::bigint and ${checkIns.checkInListId} = ${listId}))`;
  const rows = await db
    .select({
      code: tickets.code,
      holderName: tickets.holderName,
      ticketType: tickets.ticketType,
      admittedDays: tickets.admittedDays,
      revokedAt: tickets.revokedAt,
      checkInNote: tickets.checkInNote,
      requiresAttention: tickets.requiresAttention,
      checkedInAt: checkIns.checkedInAt,
      checkedInBy: users.displayName,
      lastEnteredAt: checkIns.lastEnteredAt,
      exitedAt: checkIns.exitedAt,
    })
    .from(tickets)
    .leftJoin(checkIns, dayCheckIn)
    .leftJoin(users, eq(users.id, checkIns.staffUserId))
    .where(changedSince ? and(eq(tickets.eventId, event.id), changedSince) : eq(tickets.eventId, event.id))
    .orderBy(tickets.id);

  const entries: DoorListEntry[] = [];
  let hasUnlistedCodes = false;
  for (const row of rows) {
    // A weak code would be recovered from its lookup key, with its holder's name, by anyone holding
    // the list (docs/decisions/087): its ticket is left off and decided online only.
    if (!isDoorListCode(row.code)) {
      hasUnlistedCodes = true;
      continue;
    }
    entries.push({
      lookupKey: await doorListLookupKey(event.id, row.code),
      ticketType: row.ticketType,
      admittedDays: row.admittedDays,
      isRevoked: row.revokedAt !== null,
      holderName: await sealHolderName(event.id, row.code, row.holderName),
      checkIn: row.checkedInAt
        ? {
            checkedInAt: row.checkedInAt.toISOString(),
            checkedInBy: row.checkedInBy ?? '',
            // Entries and exits at a list with re-entry (format 5, docs/decisions/111).
            ...(row.lastEnteredAt ? { lastEnteredAt: row.lastEnteredAt.toISOString() } : {}),
            exitedAt: row.exitedAt?.toISOString() ?? null,
          }
        : null,
      // Sealed like the name (docs/decisions/102); only tickets with a note pay for it.
      ...(row.checkInNote !== '' ? { checkInNote: await sealCheckInNote(event.id, row.code, row.checkInNote) } : {}),
      requiresAttention: row.requiresAttention,
    });
  }
  return {
    event: {
      id: event.id,
      organizationId: event.organizationId,
      name: event.title,
      status: event.status,
      timeZone: event.timeZone,
      dayCutoff: event.dayCutoff,
      allowsScanningOutsideDays: event.allowsScanningOutsideDays,
      days: event.days.map((entry) => ({ day: entry.day, name: entry.name, date: entry.date })),
      // Only when set, so a list without one is as before (docs/decisions/147).
      ...(event.capacity === null ? {} : { capacity: event.capacity }),
    },
    day,
    isComplete: since === undefined,
    cursor,
    generatedAt: now.toISOString(),
    tickets: entries,
    checkInListId: listId,
    checkInLists: lists,
    hasUnlistedCodes,
    revokedKeyIds: await revokedSigningKeyIds(db, event.id),
    format: DOOR_LIST_FORMAT,
    ticketTypes: await doorListTicketTypes(db, event.id),
    // What the device starts from; it cannot know the other gates' entries after this (docs/decisions/111).
    insideNow: await countListInside(db, event, chosen, day, now),
  };
}
