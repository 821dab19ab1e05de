/**
 * Migration 0003 (issue 11) on a database that already has data, on PGlite and PostgreSQL: the old
 * `owner` role becomes `admin` (staff and admin stay), existing tickets get search terms (code and
 * word-start suffixes of the holder name, lower case), existing check-ins stay active and the new
 * partial unique index still allows one active check-in per ticket and day. Migrations 0006–0010
 * (issue 14 item 6) give the existing check-in its ticket's event id, now part of that index.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
import { createPostgresTestDatabase, TEST_DATABASE_KIND, type PostgresTestDatabase } from './helpers/test-app.ts';

let before0003: string;
beforeAll(async () => {
  // The migrations folder as it was before 0003: the first three SQL files and their journal entries.
  before0003 = await mkdtemp(path.join(tmpdir(), 'gatecheck-migrations-'));
  await cp(MIGRATIONS_FOLDER, before0003, { recursive: true });
  const journalFile = path.join(before0003, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  expect(journal.entries[3]?.tag).toBe('0003_supervisor_tools');
  journal.entries = journal.entries.slice(0, 3);
  await writeFile(journalFile, JSON.stringify(journal));
  await rm(path.join(before0003, '0003_supervisor_tools.sql'));
});
afterAll(async () => {
  await rm(before0003, { recursive: true, force: true });
});

/** The rows a 0002 database holds: three users with the old roles, a ticket, a check-in. */
const SEED_0002 = `
  insert into users (id, display_name, username, email, password_hash) values
    ('00000000-0000-4000-8000-000000000001', 'Olga Owner', 'olga', 'olga@example.com', 'x'),
    ('00000000-0000-4000-8000-000000000002', 'Adam Admin', 'adam', 'adam@example.com', 'x'),
    ('00000000-0000-4000-8000-000000000003', 'Stan Staff', 'stan', 'stan@example.com', 'x');
  insert into organizations (id, name) values ('00000000-0000-4000-8000-0000000000a1', 'Org');
  insert into memberships (user_id, organization_id, role) values
    ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000a1', 'owner'),
    ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-0000000000a1', 'admin'),
    ('00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-0000000000a1', 'staff');
  insert into events (id, organization_id, title, date, status) values
    ('00000000-0000-4000-8000-0000000000e1', '00000000-0000-4000-8000-0000000000a1', 'Fest', '2026-12-01', 'live');
  insert into tickets (id, code, event_id, holder_name, ticket_type) values
    ('00000000-0000-4000-8000-0000000000f1', 'AB-123', '00000000-0000-4000-8000-0000000000e1', '  Mary   Jane Watson ', 'VIP');
  insert into check_ins (ticket_id, day, staff_user_id) values
    ('00000000-0000-4000-8000-0000000000f1', 1, '00000000-0000-4000-8000-000000000003');
`;

type Query = (text: string) => Promise<Array<Record<string, unknown>>>;

async function expectMigratedData(query: Query): Promise<void> {
  expect(await query('select role::text as role from memberships order by user_id')).toEqual([{ role: 'admin' }, { role: 'admin' }, { role: 'staff' }]);
  expect((await query('select term from ticket_search_terms order by term')).map((row) => row.term)).toEqual([
    'ab-123',
    'jane watson',
    'mary jane watson',
    'watson',
  ]);
  // Migration 0007 gave the existing check-in its ticket's event (issue 14 item 6).
  expect(await query('select undone_at, event_id from check_ins')).toEqual([{ undone_at: null, event_id: '00000000-0000-4000-8000-0000000000e1' }]);
  // Migration 0016 put it on the event's 'All tickets' list, whose unique index now holds it.
  const secondCheckIn = `insert into check_ins (event_id, ticket_id, day, staff_user_id, check_in_list_id)
    select '00000000-0000-4000-8000-0000000000e1', '00000000-0000-4000-8000-0000000000f1', 1, '00000000-0000-4000-8000-000000000003', id
    from check_in_lists where event_id = '00000000-0000-4000-8000-0000000000e1'`;
  await expect(query(secondCheckIn)).rejects.toThrow(/check_ins_active_list_day_ticket_key/);
  await query(`update check_ins set undone_at = now(), undo_reason = 'test'`);
  await query(secondCheckIn);
  expect(await query('select count(*)::int as n from check_ins')).toEqual([{ n: 2 }]);
}

test(`0003 maps owner to admin, indexes existing tickets and keeps check-ins (${TEST_DATABASE_KIND})`, async () => {
  if (TEST_DATABASE_KIND === 'pglite') {
    const client = await PGlite.create();
    try {
      const db = drizzlePglite({ client });
      await migratePglite(db, { migrationsFolder: before0003 });
      await client.exec(SEED_0002);
      await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
      await expectMigratedData(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
    } finally {
      await client.close();
    }
    return;
  }
  const database: PostgresTestDatabase = await createPostgresTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  try {
    const db = drizzlePg({ client: pool });
    await migratePg(db, { migrationsFolder: before0003 });
    await pool.query(SEED_0002);
    await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
    await expectMigratedData(async (text) => (await pool.query<Record<string, unknown>>(text)).rows);
  } finally {
    await pool.end();
    await database.drop();
  }
});
