/**
 * The check-in arrivals migration (docs/decisions/127) on a database that already has check-ins, on
 * PGlite and PostgreSQL: the new table starts with the existing active check-ins counted per event,
 * day, check-in list and 5-minute slot (undone ones not), and the triggers keep it from there.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MIGRATIONS_FOLDER } from '../src/db/client.ts';
import { createPostgresTestDatabase, TEST_DATABASE_KIND } from './helpers/test-app.ts';

/** The migrations folder up to the one before the arrivals table (found by name: numbers change at merges). */
let beforeArrivals: string;
beforeAll(async () => {
  beforeArrivals = await mkdtemp(path.join(tmpdir(), 'gatecheck-migrations-'));
  await cp(MIGRATIONS_FOLDER, beforeArrivals, { recursive: true });
  const journalFile = path.join(beforeArrivals, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  const index = journal.entries.findIndex((entry) => entry.tag.endsWith('_check_in_arrivals'));
  expect(index).toBeGreaterThan(0);
  const dropped = journal.entries.slice(index).map((entry) => entry.tag);
  journal.entries = journal.entries.slice(0, index);
  await writeFile(journalFile, JSON.stringify(journal));
  for (const file of await readdir(beforeArrivals)) if (dropped.includes(file.replace(/\.sql$/, ''))) await rm(path.join(beforeArrivals, file));
});
afterAll(async () => {
  await rm(beforeArrivals, { recursive: true, force: true });
});

const ORG = '00000000-0000-4000-8000-0000000000a1';
const FEST = '00000000-0000-4000-8000-0000000000e1';
const NORTH = '00000000-0000-4000-8000-0000000000c1';
const SOUTH = '00000000-0000-4000-8000-0000000000c2';
const SEED = `
  insert into organizations (id, name) values ('${ORG}', 'Org');
  insert into users (id, display_name, username, email, password_hash) values ('00000000-0000-4000-8000-0000000000b1', 'Staff', 'staff', 'staff@example.com', 'x');
  insert into events (id, organization_id, title, date, status) values ('${FEST}', '${ORG}', 'Fest', '2026-12-01', 'live');
  insert into check_in_lists (id, event_id, name, position) values ('${NORTH}', '${FEST}', 'North', 10), ('${SOUTH}', '${FEST}', 'South', 11);
  insert into tickets (id, code, event_id, holder_name, ticket_type)
    select ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'AR-' || n, '${FEST}', 'Holder ' || n, 'General' from generate_series(1, 6) as n;
  insert into check_ins (event_id, ticket_id, day, check_in_list_id, staff_user_id, checked_in_at, undone_at) values
    ('${FEST}', '00000000-0000-4000-8000-000000000001', 1, '${NORTH}', '00000000-0000-4000-8000-0000000000b1', '2026-12-01T19:00:00Z', null),
    ('${FEST}', '00000000-0000-4000-8000-000000000002', 1, '${NORTH}', '00000000-0000-4000-8000-0000000000b1', '2026-12-01T19:04:59Z', null),
    ('${FEST}', '00000000-0000-4000-8000-000000000003', 1, '${NORTH}', '00000000-0000-4000-8000-0000000000b1', '2026-12-01T19:05:00Z', null),
    ('${FEST}', '00000000-0000-4000-8000-000000000004', 1, '${NORTH}', '00000000-0000-4000-8000-0000000000b1', '2026-12-01T19:06:00Z', '2026-12-01T19:07:00Z'),
    ('${FEST}', '00000000-0000-4000-8000-000000000005', 1, '${SOUTH}', '00000000-0000-4000-8000-0000000000b1', '2026-12-01T19:01:00Z', null),
    ('${FEST}', '00000000-0000-4000-8000-000000000001', 2, '${NORTH}', '00000000-0000-4000-8000-0000000000b1', '2026-12-02T19:01:00Z', null);
`;

type Query = (text: string) => Promise<Array<Record<string, unknown>>>;

const ROWS = `select day, check_in_list_id, to_char(slot_start at time zone 'UTC', 'HH24:MI') as slot, arrivals from check_in_arrivals order by day, check_in_list_id, slot_start`;

async function expectBackfilledAndKept(query: Query): Promise<void> {
  expect(await query(ROWS)).toEqual([
    { day: 1, check_in_list_id: NORTH, slot: '19:00', arrivals: 2 },
    { day: 1, check_in_list_id: NORTH, slot: '19:05', arrivals: 1 },
    { day: 1, check_in_list_id: SOUTH, slot: '19:00', arrivals: 1 },
    { day: 2, check_in_list_id: NORTH, slot: '19:00', arrivals: 1 },
  ]);
  // From here the triggers: a new check-in adds to its slot, an undo takes from it.
  await query(`insert into check_ins (event_id, ticket_id, day, check_in_list_id, staff_user_id, checked_in_at) values ('${FEST}', '00000000-0000-4000-8000-000000000006', 1, '${SOUTH}', '00000000-0000-4000-8000-0000000000b1', '2026-12-01T19:02:00Z')`);
  await query(`update check_ins set undone_at = now() where ticket_id = '00000000-0000-4000-8000-000000000003'`);
  expect((await query(ROWS)).filter((row) => row.day === 1)).toEqual([
    { day: 1, check_in_list_id: NORTH, slot: '19:00', arrivals: 2 },
    { day: 1, check_in_list_id: NORTH, slot: '19:05', arrivals: 0 },
    { day: 1, check_in_list_id: SOUTH, slot: '19:00', arrivals: 2 },
  ]);
}

test(`the arrivals migration counts the check-ins already stored, then its triggers keep the counts (${TEST_DATABASE_KIND})`, async () => {
  if (TEST_DATABASE_KIND === 'pglite') {
    const client = await PGlite.create();
    try {
      const db = drizzlePglite({ client });
      await migratePglite(db, { migrationsFolder: beforeArrivals });
      await client.exec(SEED);
      await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
      await expectBackfilledAndKept(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
    } finally {
      await client.close();
    }
    return;
  }
  const database = await createPostgresTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  try {
    const db = drizzlePg({ client: pool });
    await migratePg(db, { migrationsFolder: beforeArrivals });
    await pool.query(SEED);
    await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
    await expectBackfilledAndKept(async (text) => (await pool.query<Record<string, unknown>>(text)).rows);
  } finally {
    await pool.end();
    await database.drop();
  }
});
