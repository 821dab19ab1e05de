/**
 * The check-in notes migration (docs/decisions/102) on a database that already has tickets, on
 * PGlite and PostgreSQL: every (event, ticket type) the tickets name becomes a ticket type without
 * a note, tickets get an empty note and no attention flag, so every verdict reads as before.
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

/** The migrations folder up to the one before the check-in notes (found by name: numbers change at merges). */
let beforeNotes: string;
beforeAll(async () => {
  beforeNotes = await mkdtemp(path.join(tmpdir(), 'gatecheck-migrations-'));
  await cp(MIGRATIONS_FOLDER, beforeNotes, { recursive: true });
  const journalFile = path.join(beforeNotes, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  const index = journal.entries.findIndex((entry) => entry.tag.endsWith('_check_in_notes'));
  expect(index).toBeGreaterThan(0);
  const dropped = journal.entries.slice(index).map((entry) => entry.tag);
  journal.entries = journal.entries.slice(0, index);
  await writeFile(journalFile, JSON.stringify(journal));
  for (const file of await readdir(beforeNotes)) if (dropped.includes(file.replace(/\.sql$/, ''))) await rm(path.join(beforeNotes, file));
});
afterAll(async () => {
  await rm(beforeNotes, { recursive: true, force: true });
});

const SEED = `
  insert into organizations (id, name) values ('00000000-0000-4000-8000-0000000000a1', 'Org');
  insert into events (id, organization_id, title, date, status) values
    ('00000000-0000-4000-8000-0000000000e1', '00000000-0000-4000-8000-0000000000a1', 'Fest', '2026-12-01', 'live'),
    ('00000000-0000-4000-8000-0000000000e2', '00000000-0000-4000-8000-0000000000a1', 'Expo', '2026-12-02', 'live');
  insert into tickets (code, event_id, holder_name, ticket_type) values
    ('AB-1', '00000000-0000-4000-8000-0000000000e1', 'Ann', 'VIP'),
    ('AB-2', '00000000-0000-4000-8000-0000000000e1', 'Ben', 'VIP'),
    ('AB-3', '00000000-0000-4000-8000-0000000000e1', 'Cat', 'General'),
    ('AB-4', '00000000-0000-4000-8000-0000000000e2', 'Dan', 'VIP');
`;

type Query = (text: string) => Promise<Array<Record<string, unknown>>>;

async function expectMigrated(query: Query): Promise<void> {
  expect(await query(`select event_id, name, check_in_note, requires_attention from ticket_types order by event_id, name`)).toEqual([
    { event_id: '00000000-0000-4000-8000-0000000000e1', name: 'General', check_in_note: '', requires_attention: false },
    { event_id: '00000000-0000-4000-8000-0000000000e1', name: 'VIP', check_in_note: '', requires_attention: false },
    { event_id: '00000000-0000-4000-8000-0000000000e2', name: 'VIP', check_in_note: '', requires_attention: false },
  ]);
  expect(await query(`select distinct check_in_note, requires_attention from tickets`)).toEqual([{ check_in_note: '', requires_attention: false }]);
}

test(`the check-in notes migration gives existing tickets their types, without notes (${TEST_DATABASE_KIND})`, async () => {
  if (TEST_DATABASE_KIND === 'pglite') {
    const client = await PGlite.create();
    try {
      const db = drizzlePglite({ client });
      await migratePglite(db, { migrationsFolder: beforeNotes });
      await client.exec(SEED);
      await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
      await expectMigrated(async (text) => (await client.query<Record<string, unknown>>(text)).rows);
    } finally {
      await client.close();
    }
    return;
  }
  const database = await createPostgresTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  try {
    const db = drizzlePg({ client: pool });
    await migratePg(db, { migrationsFolder: beforeNotes });
    await pool.query(SEED);
    await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
    await expectMigrated(async (text) => (await pool.query<Record<string, unknown>>(text)).rows);
  } finally {
    await pool.end();
    await database.drop();
  }
});
