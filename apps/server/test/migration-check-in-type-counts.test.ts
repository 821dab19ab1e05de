/**
 * The checked-in-per-ticket-type migration (docs/decisions/132) on a database that already has
 * check-ins, on PGlite and PostgreSQL: the new table starts with the distinct tickets of each type
 * with an active check-in per event and day (a ticket in at two lists once, at the first list in id
 * order; undone check-ins not), and the triggers keep it from there.
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

/** The migrations folder up to the one before the type counts table (found by name: numbers change at merges). */
let beforeTypeCounts: string;
beforeAll(async () => {
  beforeTypeCounts = await mkdtemp(path.join(tmpdir(), 'gatecheck-migrations-'));
  await cp(MIGRATIONS_FOLDER, beforeTypeCounts, { recursive: true });
  const journalFile = path.join(beforeTypeCounts, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  const index = journal.entries.findIndex((entry) => entry.tag.endsWith('_check_in_type_counts'));
  expect(index).toBeGreaterThan(0);
  const dropped = journal.entries.slice(index).map((entry) => entry.tag);
  journal.entries = journal.entries.slice(0, index);
  await writeFile(journalFile, JSON.stringify(journal));
  for (const file of await readdir(beforeTypeCounts)) if (dropped.includes(file.replace(/\.sql$/, ''))) await rm(path.join(beforeTypeCounts, file));
});
afterAll(async () => {
  await rm(beforeTypeCounts, { recursive: true, force: true });
});

const ORG = '00000000-0000-4000-8000-0000000000a1';
const FEST = '00000000-0000-4000-8000-0000000000e1';
const NORTH = '00000000-0000-4000-8000-0000000000c1';
const SOUTH = '00000000-0000-4000-8000-0000000000c2';
const STAFF = '00000000-0000-4000-8000-0000000000b1';
const ticket = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const SEED = `
  insert into organizations (id, name) values ('${ORG}', 'Org');
  insert into users (id, display_name, username, email, password_hash) values ('${STAFF}', 'Staff', 'staff', 'staff@example.com', 'x');
  insert into events (id, organization_id, title, date, status) values ('${FEST}', '${ORG}', 'Fest', '2026-12-01', 'live');
  insert into check_in_lists (id, event_id, name, position) values ('${NORTH}', '${FEST}', 'North', 10), ('${SOUTH}', '${FEST}', 'South', 11);
  insert into tickets (id, code, event_id, holder_name, ticket_type)
    select ('00000000-0000-4000-8000-' || lpad(n::text, 12, '0'))::uuid, 'TC-' || n, '${FEST}', 'Holder ' || n, case when n <= 4 then 'General' else 'VIP' end from generate_series(1, 6) as n;
  insert into check_ins (event_id, ticket_id, day, check_in_list_id, staff_user_id, undone_at) values
    ('${FEST}', '${ticket(1)}', 1, '${NORTH}', '${STAFF}', null),
    ('${FEST}', '${ticket(1)}', 1, '${SOUTH}', '${STAFF}', null),
    ('${FEST}', '${ticket(2)}', 1, '${SOUTH}', '${STAFF}', null),
    ('${FEST}', '${ticket(3)}', 1, '${NORTH}', '${STAFF}', now()),
    ('${FEST}', '${ticket(5)}', 1, '${SOUTH}', '${STAFF}', null),
    ('${FEST}', '${ticket(1)}', 2, '${NORTH}', '${STAFF}', null);
`;

type Query = (text: string) => Promise<Array<Record<string, unknown>>>;

const ROWS = `select day, check_in_list_id, ticket_type, checked_in from check_in_type_counts where checked_in <> 0 order by day, check_in_list_id, ticket_type`;

async function expectBackfilledAndKept(query: Query): Promise<void> {
  // Ticket 1 at North and South on day 1 counts once, at North (the first list in id order).
  expect(await query(ROWS)).toEqual([
    { day: 1, check_in_list_id: NORTH, ticket_type: 'General', checked_in: 1 },
    { day: 1, check_in_list_id: SOUTH, ticket_type: 'General', checked_in: 1 },
    { day: 1, check_in_list_id: SOUTH, ticket_type: 'VIP', checked_in: 1 },
    { day: 2, check_in_list_id: NORTH, ticket_type: 'General', checked_in: 1 },
  ]);
  // From here the triggers: ticket 1's North check-in undone moves its count to South, ticket 6
  // comes in, ticket 2 becomes VIP.
  await query(`update check_ins set undone_at = now() where ticket_id = '${ticket(1)}' and day = 1 and check_in_list_id = '${NORTH}'`);
  await query(`insert into check_ins (event_id, ticket_id, day, check_in_list_id, staff_user_id) values ('${FEST}', '${ticket(6)}', 1, '${NORTH}', '${STAFF}')`);
  await query(`update tickets set ticket_type = 'VIP' where id = '${ticket(2)}'`);
  expect((await query(ROWS)).filter((row) => row.day === 1)).toEqual([
    { day: 1, check_in_list_id: NORTH, ticket_type: 'VIP', checked_in: 1 },
    { day: 1, check_in_list_id: SOUTH, ticket_type: 'General', checked_in: 1 },
    { day: 1, check_in_list_id: SOUTH, ticket_type: 'VIP', checked_in: 2 },
  ]);
}

// Two runs of every migration on PGlite: about 15 s alone, past the 30 s default beside other test files on a loaded machine.
test(`the type counts migration counts the check-ins already stored, then its triggers keep the counts (${TEST_DATABASE_KIND})`, { timeout: 90_000 }, async () => {
  if (TEST_DATABASE_KIND === 'pglite') {
    const client = await PGlite.create();
    try {
      const db = drizzlePglite({ client });
      await migratePglite(db, { migrationsFolder: beforeTypeCounts });
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
    await migratePg(db, { migrationsFolder: beforeTypeCounts });
    await pool.query(SEED);
    await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
    await expectBackfilledAndKept(async (text) => (await pool.query<Record<string, unknown>>(text)).rows);
  } finally {
    await pool.end();
    await database.drop();
  }
});
