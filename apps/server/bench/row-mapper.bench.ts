/**
 * `npx tsx bench/row-mapper.bench.ts` (from apps/server): what mapping one row of a select shaped like the scan read
 * costs (db/row-mapper.ts against Drizzle's own `mapResultRow`), in µs of this process's CPU per
 * row (collections included). The statement is
 * prepared only (no database): the scan read's tables and joins — an event with its organization,
 * the ticket whole (left-joined, so null when no ticket matched), its event, type and check-in
 * with staff and movement — 50-odd columns. ROUNDS passes (`ROW_MAPPER_ROUNDS`, default 7) of
 * ROWS rows each (`ROW_MAPPER_ROWS`, default 200,000), the two in turn; prints the median of each.
 */
import { loadavg } from 'node:os';
import { and, eq, sql } from 'drizzle-orm';
import * as drizzleOrm from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { alias } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { rowMapper } from '../src/db/row-mapper.ts';
import { checkInMovements, checkIns, events, organizations, tickets, ticketTypes, users } from '../src/db/schema.ts';
import { wholeNumberSetting } from './env-setting.ts';

const ROUNDS = wholeNumberSetting('ROW_MAPPER_ROUNDS', 7, { min: 1 });
const ROWS = wholeNumberSetting('ROW_MAPPER_ROWS', 200_000, { min: 1 });
const { mapResultRow } = drizzleOrm as unknown as {
  mapResultRow(fields: readonly { path: string[]; field: unknown }[], row: readonly unknown[], joinsNotNullableMap: Record<string, boolean> | undefined): Record<string, unknown>;
};

const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:9/none' });
const db = drizzle(pool);
const ticketEvents = alias(events, 'ticket_events');
const staff = alias(users, 'check_in_staff');
const prepared = db
  .select({
    position: sql<number>`1`.mapWith(Number),
    id: events.id,
    title: events.title,
    date: events.date,
    location: events.location,
    status: events.status,
    organizationId: events.organizationId,
    organizationName: organizations.name,
    timeZone: events.timeZone,
    dayCutoff: events.dayCutoff,
    allowsScanningOutsideDays: events.allowsScanningOutsideDays,
    capacity: events.capacity,
    days: sql<unknown>`null`,
    lists: sql<unknown>`null`,
    isMember: sql<boolean>`true`,
    ticket: tickets,
    ticketOrganizationId: ticketEvents.organizationId,
    typeNote: ticketTypes.checkInNote,
    typeDays: ticketTypes.days,
    checkedInAt: checkIns.checkedInAt,
    checkInStaffName: staff.displayName,
    checkInLastEnteredAt: checkIns.lastEnteredAt,
    checkInExitedAt: checkIns.exitedAt,
    checkInScanId: checkIns.scanId,
    checkInStaffUserId: checkIns.staffUserId,
    retriedDirection: checkInMovements.direction,
    retriedAt: checkInMovements.at,
  })
  .from(events)
  .innerJoin(organizations, eq(organizations.id, events.organizationId))
  .leftJoin(tickets, eq(tickets.eventId, events.id))
  .leftJoin(ticketEvents, eq(ticketEvents.id, tickets.eventId))
  .leftJoin(ticketTypes, and(eq(ticketTypes.eventId, tickets.eventId), eq(ticketTypes.name, tickets.ticketType)))
  .leftJoin(checkIns, eq(checkIns.ticketId, tickets.id))
  .leftJoin(staff, eq(staff.id, checkIns.staffUserId))
  .leftJoin(checkInMovements, eq(checkInMovements.checkInId, checkIns.id))
  .prepare('row_mapper_bench') as unknown as { fields: { path: string[]; field: unknown }[]; joinsNotNullableMap: Record<string, boolean> };
await pool.end();

/** A first entry's row: the ticket found, no check-in yet (the approval's case). */
const row = prepared.fields.map(({ path, field }, index) => {
  if (path[0] === 'checkIn' || path[0]?.startsWith('checkIn') || path[0]?.startsWith('retried') || path[0] === 'checkedInAt') return null;
  const columnType = (field as { columnType?: string }).columnType ?? '';
  if (columnType === 'PgTimestamp') return '2026-11-28 10:00:00+00';
  if (columnType === 'PgInteger') return 40 + index;
  if (columnType === 'PgBigInt64') return String(9_000_000_000 + index);
  if (columnType === 'PgArray') return [1, 2];
  if (columnType === 'PgBoolean') return false;
  if (columnType === 'PgDateString') return '2026-11-28';
  return columnType === '' ? '1' : `value-${index}`;
});
const ours = rowMapper(prepared.fields, prepared.joinsNotNullableMap);
const mappers = {
  'Drizzle mapResultRow': (values: readonly unknown[]) => mapResultRow(prepared.fields, values, prepared.joinsNotNullableMap),
  'db/row-mapper.ts': ours,
};
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const results = new Map<string, number[]>(Object.keys(mappers).map((name) => [name, []]));
let sink = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, map] of round % 2 === 0 ? Object.entries(mappers) : Object.entries(mappers).reverse()) {
    const before = process.cpuUsage();
    for (let index = 0; index < ROWS; index++) sink += Object.keys(map(row)).length;
    const used = process.cpuUsage(before);
    results.get(name)?.push((used.user + used.system) / ROWS);
  }
}
console.log(`row-mapper: ${prepared.fields.length} columns, ${ROUNDS} passes of ${ROWS} rows each (${sink > 0 ? 'ok' : '?'}), load ${loadavg()[0]?.toFixed(1)}`);
console.table([...results].map(([name, us]) => ({ mapper: name, 'µs per row (median)': median(us).toFixed(2), 'min–max': `${Math.min(...us).toFixed(2)}–${Math.max(...us).toFixed(2)}` })));
