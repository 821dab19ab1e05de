import * as drizzleOrm from 'drizzle-orm';
import { and, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { alias } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, expect, test } from 'vitest';
import { rowMapper, withRowMapper } from './row-mapper.ts';
import { checkIns, events, organizations, tickets, users } from './schema.ts';

/** Drizzle's own row mapping (exported by drizzle-orm, not in its types): what `rowMapper` must match. */
const { mapResultRow } = drizzleOrm as unknown as {
  mapResultRow(fields: readonly { path: string[]; field: unknown }[], row: readonly unknown[], joinsNotNullableMap: Record<string, boolean> | undefined): Record<string, unknown>;
};

// Prepared only, never run: a pool that is never asked for a connection opens none.
const pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:9/none' });
afterAll(() => pool.end());
const db = drizzle(pool);
const staff = alias(users, 'staff');

/** A select shaped like the hot path's reads: flat columns, SQL fields, a left-joined table whole, nested objects of one or two tables. */
const prepared = db
  .select({
    position: sql<number>`1`.mapWith(Number),
    id: events.id,
    title: events.title,
    capacity: events.capacity,
    archivedAt: events.archivedAt,
    organizationName: organizations.name,
    isMember: sql<boolean>`true`,
    ticket: tickets,
    checkIn: { at: checkIns.checkedInAt, day: checkIns.day, staffName: staff.displayName },
    mixed: { ticketId: tickets.id, eventId: events.id },
    staffOnly: { name: staff.displayName },
  })
  .from(events)
  .innerJoin(organizations, eq(organizations.id, events.organizationId))
  .leftJoin(tickets, eq(tickets.eventId, events.id))
  .leftJoin(checkIns, and(eq(checkIns.ticketId, tickets.id), eq(checkIns.eventId, events.id)))
  .leftJoin(staff, eq(staff.id, checkIns.staffUserId))
  .prepare('row_mapper_test') as unknown as {
  fields: { path: string[]; field: unknown }[];
  joinsNotNullableMap: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
};

/** A driver's raw value for each column kind (timestamps as text, as Drizzle asks pg for them). */
function rawValueOf(field: unknown, index: number): unknown {
  const columnType = (field as { columnType?: string }).columnType ?? '';
  if (columnType === 'PgTimestamp') return `2026-11-2${index % 10} 10:0${index % 10}:00+00`;
  if (columnType === 'PgInteger') return 40 + index;
  if (columnType === 'PgBigInt64') return String(9_000_000_000 + index);
  if (columnType === 'PgArray') return [1, 2];
  if (columnType === 'PgBoolean') return index % 2 === 0;
  if (columnType === 'PgDateString') return '2026-11-28';
  if (columnType === '') return String(index);
  return `value-${index}`;
}

const fields = prepared.fields;
const fullRow = fields.map(({ field }, index) => rawValueOf(field, index));
/** `fullRow` with the columns whose path passes `select` null. */
const withNulls = (select: (path: string[]) => boolean) => fields.map(({ path }, index) => (select(path) ? null : fullRow[index]));
const rows: Record<string, unknown[]> = {
  'every value': fullRow,
  'no ticket (a left-joined table whole)': withNulls((path) => path[0] === 'ticket'),
  "only the ticket's first column null": withNulls((path) => path[0] === 'ticket' && path[1] === 'id'),
  "the ticket's first column there, others null": withNulls((path) => path[0] === 'ticket' && path[1] !== 'id'),
  'no check-in, no staff': withNulls((path) => path[0] === 'checkIn' || path[0] === 'staffOnly'),
  'the object of two tables, its first column null': withNulls((path) => path[0] === 'mixed' && path[1] === 'ticketId'),
  'the inner-joined and flat columns null': withNulls((path) => path.length === 1),
  'every value null': fields.map(() => null),
};

/** The keys of `value` in their order, and of its plain objects', at every level. */
function keysOf(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return typeof value;
  return Object.entries(value).map(([key, inner]) => [key, keysOf(inner)]);
}

test.each(Object.keys(rows))("rowMapper maps a row as Drizzle's mapResultRow does: %s", (name) => {
  const row = rows[name] ?? [];
  const ours = rowMapper(fields, prepared.joinsNotNullableMap)(row);
  const drizzles = mapResultRow(fields, row, prepared.joinsNotNullableMap);
  expect(ours).toEqual(drizzles);
  // The same keys in the same order, at every level.
  expect(keysOf(ours)).toEqual(keysOf(drizzles));
});

test('rows mapped one after another do not share objects or values', () => {
  const mapRow = rowMapper(fields, prepared.joinsNotNullableMap);
  const first = mapRow(rows['no ticket (a left-joined table whole)'] ?? []);
  const second = mapRow(fullRow);
  expect(first.ticket).toBeNull();
  expect(second.ticket).not.toBeNull();
  expect(second.checkIn).not.toBe(first.checkIn);
});

test("withRowMapper gives the prepared statement the mapping as its customResultMapper, and leaves a statement's own mapper alone", () => {
  expect(prepared.customResultMapper).toBeUndefined();
  withRowMapper(prepared);
  expect(prepared.customResultMapper?.([fullRow, rows['every value null'] ?? []])).toEqual([
    mapResultRow(fields, fullRow, prepared.joinsNotNullableMap),
    mapResultRow(fields, rows['every value null'] ?? [], prepared.joinsNotNullableMap),
  ]);
  const own = () => 'own';
  const other = { fields, customResultMapper: own };
  withRowMapper(other);
  expect(other.customResultMapper).toBe(own);
});
