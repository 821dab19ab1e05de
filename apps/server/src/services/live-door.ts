/**
 * The live door of one event day (docs/decisions/117, 127): what a supervisor watches at a glance.
 * Read-only, nine or ten statements whatever the number of check-in lists (test/query-plans.test.ts,
 * `npm run bench:scale`): the arrivals from the trigger-kept `check_in_arrivals`, the checked-in
 * tickets per type from the trigger-kept `check_in_type_counts` (docs/decisions/132), so neither
 * grows with the check-ins, and the denials by reason from the trigger-kept `denial_counts`
 * (docs/decisions/149), which does not grow with the denied scans (docs/performance.md). Nothing is
 * kept in the process, so every server instance on the database answers the same and a scan on one
 * instance shows to a watcher on another at the next ask.
 *
 * Figures are exact against `check_ins` in the reading snapshot: a check-in counts from its write
 * (online, manual or an offline upload, at the device's scan time), an undo takes it away. The
 * denials are exact against `scan_log` alike (its denied rows, by reason).
 */
import { ARRIVALS_SLOT_MINUTES, type ArrivalSlot, type LiveDoor, SCAN_RATE_WINDOW_SECONDS } from '@gatecheck/contract';
import { and, count, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { checkInArrivals, checkInTypeCounts, denialCounts, scanLog, ticketDayCounts, ticketTypes } from '../db/schema.ts';
import { inTransaction } from '../db/transactions.ts';
import { countEventInside, countInsideByList } from './check-in-counts.ts';
import { listCheckInLists } from './check-in-lists.ts';
import { listDevices } from './devices.ts';
import type { EventDetails } from './events.ts';
import { ticketTypeRowOf, typeAdmitsDaySql } from './ticket-type-door.ts';

/**
 * A slot's start as the wire has it (ISO 8601, UTC, seconds). The trigger floors `checked_in_at`
 * with date_bin to 5-minute slots aligned on 2000-01-01 UTC (ARRIVALS_SLOT_MINUTES, migration
 * `*_check_in_type_counts_triggers.sql`).
 */
const slotStart = sql<string>`to_char(${checkInArrivals.slotStart} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/**
 * The live figures of `event` (whose role check passed) on `day`, at `now` (the server's clock:
 * the scan rate's window ends there). A day the event does not have answers zeros expected.
 */
export async function readLiveDoor(db: Db, event: EventDetails, day: number, now: Date): Promise<LiveDoor> {
  // One snapshot for every figure, so a list's line and the ticket types agree even while scans land.
  return inTransaction(db, async (tx) => {
    await tx.execute(sql`set transaction isolation level repeatable read, read only`);
    return readFigures(tx, event, day, now);
  });
}

async function readFigures(db: DbOrTx, event: EventDetails, day: number, now: Date): Promise<LiveDoor> {
  const hasDay = event.days.some((entry) => entry.day === day);
  // One after another: the statements share the transaction's one connection.
  const lists = await listCheckInLists(db, event.id);
  // M per ticket type: the trigger-kept rows of days 0 (every day) and `day` (docs/decisions/101)
  // of the types that admit the day (docs/decisions/125; a type of other days is not expected).
  const expectedByType = hasDay
      ? await db
          .select({ ticketType: ticketDayCounts.ticketType, validTickets: sql<string>`sum(${ticketDayCounts.validTickets})` })
          .from(ticketDayCounts)
          .leftJoin(ticketTypes, ticketTypeRowOf(ticketDayCounts.eventId, ticketDayCounts.ticketType))
          .where(and(eq(ticketDayCounts.eventId, event.id), inArray(ticketDayCounts.day, [0, day]), typeAdmitsDaySql(day)))
          .groupBy(ticketDayCounts.ticketType)
      : [];
  // Arrivals per list and slot: the trigger-kept counts (docs/decisions/127), by their primary key's
  // prefix (event, day) — a row per list and 5-minute slot, not a row per check-in.
  const arrivalRows = await db
      .select({ checkInListId: checkInArrivals.checkInListId, at: slotStart, count: checkInArrivals.arrivals })
      .from(checkInArrivals)
      .where(and(eq(checkInArrivals.eventId, event.id), eq(checkInArrivals.day, day), gt(checkInArrivals.arrivals, 0)))
      .orderBy(checkInArrivals.slotStart);
  // Distinct tickets per type (a ticket checked in at two lists is one person, docs/decisions/101):
  // the trigger-kept counts (docs/decisions/132) by their primary key's prefix, a row per list and type.
  const checkedInByType = await db
      .select({ ticketType: checkInTypeCounts.ticketType, checkedIn: sql<number>`sum(${checkInTypeCounts.checkedIn})`.mapWith(Number) })
      .from(checkInTypeCounts)
      .where(and(eq(checkInTypeCounts.eventId, event.id), eq(checkInTypeCounts.day, day)))
      .groupBy(checkInTypeCounts.ticketType)
      .having(sql`sum(${checkInTypeCounts.checkedIn}) > 0`);
  const [rateRow] = await db
      .select({ scans: count() })
      .from(scanLog)
      .where(and(eq(scanLog.eventId, event.id), gt(scanLog.scannedAt, new Date(now.getTime() - SCAN_RATE_WINDOW_SECONDS * 1000)), inArray(scanLog.verdict, ['approved', 'denied', 'exited'])));
  // Denials by reason: the trigger-kept counts (docs/decisions/149) by their primary key's prefix, a
  // row per reason and shard summed, not a row per denied scan.
  const denialRows = await db
      .select({ reason: denialCounts.reason, count: sql<number>`sum(${denialCounts.denials})`.mapWith(Number) })
      .from(denialCounts)
      .where(and(eq(denialCounts.eventId, event.id), eq(denialCounts.day, day)))
      .groupBy(denialCounts.reason)
      .having(sql`sum(${denialCounts.denials}) > 0`)
      .orderBy(sql`2 desc`, denialCounts.reason);
  const devices = await listDevices(db, event.organizationId, { eventId: event.id, now });
  // Inside now: every list at once (two statements at most, not one per list), and distinct guests
  // for the event; without daily checkouts from the arrivals less the exited check-ins (docs/decisions/140).
  const insideByList = await countInsideByList(db, event, lists, day, now);
  const insideEvent = await countEventInside(db, event.id, day, now);

  const expected = new Map(expectedByType.map((row) => [row.ticketType, Number(row.validTickets)]));
  const checkedIn = new Map(checkedInByType.map((row) => [row.ticketType, row.checkedIn]));
  const typeNames = [...new Set([...expected.keys(), ...checkedIn.keys()])].sort((a, b) => a.localeCompare(b));
  const arrivalsByList = new Map<string, ArrivalSlot[]>();
  for (const row of arrivalRows) {
    const slots = arrivalsByList.get(row.checkInListId) ?? [];
    slots.push({ at: row.at, count: row.count });
    arrivalsByList.set(row.checkInListId, slots);
  }
  const sumExpected = (types: readonly string[] | null) =>
    (types ?? [...expected.keys()]).reduce((total, type) => total + (expected.get(type) ?? 0), 0);

  return {
    eventId: event.id,
    day,
    generatedAt: now.toISOString(),
    slotMinutes: ARRIVALS_SLOT_MINUTES,
    checkedIn: [...checkedIn.values()].reduce((total, n) => total + n, 0),
    validTickets: sumExpected(null),
    ticketTypes: typeNames.map((name) => ({ name, checkedIn: checkedIn.get(name) ?? 0, validTickets: expected.get(name) ?? 0 })),
    lists: lists.map((list) => {
      const arrivals = arrivalsByList.get(list.id) ?? [];
      const isOpen = hasDay && (list.days === null || list.days.includes(day));
      return {
        id: list.id,
        name: list.name,
        checkedIn: arrivals.reduce((total, slot) => total + slot.count, 0),
        validTickets: isOpen ? sumExpected(list.ticketTypes) : 0,
        insideNow: insideByList.get(list.id) ?? 0,
        capacity: list.capacity ?? null,
        arrivals,
      };
    }),
    scansLastMinute: rateRow?.scans ?? 0,
    denials: denialRows,
    devices: devices.filter((device) => device.revokedAt === null),
    // The venue's capacity across its lists (docs/decisions/147); null: none.
    occupancy: { inside: insideEvent, capacity: event.capacity },
  };
}

/**
 * The arrivals CSV rows of a live figure set: per list, every slot from the day's first arrival to
 * its last (empty slots as 0, so a spreadsheet charts the gaps), as [list, start, end, arrivals].
 */
export function arrivalsCsvRows(live: Pick<LiveDoor, 'lists' | 'slotMinutes'>): Array<[string, string, string, number]> {
  const slotMs = live.slotMinutes * 60_000;
  const times = live.lists.flatMap((list) => list.arrivals.map((slot) => Date.parse(slot.at)));
  if (times.length === 0) return [];
  const first = Math.min(...times);
  const last = Math.max(...times);
  const rows: Array<[string, string, string, number]> = [];
  for (const list of live.lists) {
    const counts = new Map(list.arrivals.map((slot) => [Date.parse(slot.at), slot.count]));
    for (let at = first; at <= last; at += slotMs) {
      rows.push([list.name, new Date(at).toISOString(), new Date(at + slotMs).toISOString(), counts.get(at) ?? 0]);
    }
  }
  return rows;
}
