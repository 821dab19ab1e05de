/**
 * Migration tests on a database that already has data, on PGlite or PostgreSQL (whichever the suite
 * runs on, `TEST_DATABASE_KIND`): migrate up to just before a migration, store rows as they were
 * then, migrate the rest, and look at what the migration made of them.
 *
 * Migrations are found by the end of their journal tag (`_check_in_movements`), never by number:
 * numbers change when branches are merged.
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
import { MIGRATIONS_FOLDER } from '../../src/db/client.ts';
import { createPostgresTestDatabase, TEST_DATABASE_KIND } from './test-app.ts';

/** Runs one SQL statement on the test's database; resolves with its rows (column name → value). */
export type Query = (text: string) => Promise<Array<Record<string, unknown>>>;

/** A copy of the migrations folder that stops before a migration; `remove()` deletes the copy. */
export interface MigrationsFolder {
  /** The copy's path, for drizzle's `migrate({ migrationsFolder })`. */
  path: string;
  remove(): Promise<void>;
}

/**
 * A copy of `MIGRATIONS_FOLDER` (in a new temporary folder) holding only the migrations before the
 * first one whose journal tag ends with `tagSuffix`: the journal is cut there and the later SQL files
 * are deleted.
 * @throws Error when no tag ends with `tagSuffix`, or only the first migration's does (nothing would
 *   come before it).
 */
export async function migrationsBefore(tagSuffix: string): Promise<MigrationsFolder> {
  const folder = await mkdtemp(path.join(tmpdir(), 'gatecheck-migrations-'));
  try {
    await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
    const journalFile = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
    const index = journal.entries.findIndex((entry) => entry.tag.endsWith(tagSuffix));
    if (index < 1) throw new Error(`no migration after the first has a journal tag ending with '${tagSuffix}'`);
    const dropped = journal.entries.slice(index).map((entry) => entry.tag);
    journal.entries = journal.entries.slice(0, index);
    await writeFile(journalFile, JSON.stringify(journal));
    for (const file of await readdir(folder)) if (dropped.includes(file.replace(/\.sql$/, ''))) await rm(path.join(folder, file));
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  return { path: folder, remove: () => rm(folder, { recursive: true, force: true }) };
}

/** What `migrateAcross` does, in its order. */
export interface MigrateAcross {
  /** The end of the journal tag of the first migration to run after `seed` (see `migrationsBefore`). */
  before: string;
  /** SQL run (as one multi-statement script) on the database migrated up to just before `before`. */
  seed: string;
  /** Run once every migration has been applied; its assertions are the test's. */
  check: (query: Query) => Promise<void>;
}

/**
 * On a fresh database of the suite's kind (PGlite in memory, or a database of its own on the server
 * at DATABASE_URL, dropped afterwards): applies the migrations before `before`, runs `seed`, applies
 * the rest and calls `check` with a query function on that database (one connection). The database
 * and the folder copy are gone when it settles, whether `check` passed or threw.
 * @throws whatever a migration, the seed or `check` throws (an assertion error from `check` too).
 */
export async function migrateAcross({ before, seed, check }: MigrateAcross): Promise<void> {
  const earlier = await migrationsBefore(before);
  try {
    const database = await emptyDatabase();
    try {
      await database.migrate(earlier.path);
      await database.exec(seed);
      await database.migrate(MIGRATIONS_FOLDER);
      await check(database.query);
    } finally {
      await database.close();
    }
  } finally {
    await earlier.remove();
  }
}

/** A database with nothing in it, on one connection, and what a migration test does with it. */
interface EmptyDatabase {
  /** Applies the migrations of `folder` not applied yet (drizzle's migrator). */
  migrate(folder: string): Promise<void>;
  /** Runs a multi-statement SQL script. */
  exec(script: string): Promise<void>;
  query: Query;
  /** Closes it; on PostgreSQL also drops it. */
  close(): Promise<void>;
}

/** PGlite in memory, or a database of its own on the server at DATABASE_URL (`TEST_DATABASE_KIND`). */
async function emptyDatabase(): Promise<EmptyDatabase> {
  if (TEST_DATABASE_KIND === 'pglite') {
    const client = await PGlite.create();
    const db = drizzlePglite({ client });
    return {
      migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
      exec: async (script) => {
        await client.exec(script);
      },
      query: async (text) => (await client.query<Record<string, unknown>>(text)).rows,
      close: () => client.close(),
    };
  }
  const database = await createPostgresTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  const db = drizzlePg({ client: pool });
  return {
    migrate: (folder) => migratePg(db, { migrationsFolder: folder }),
    exec: async (script) => {
      await pool.query(script);
    },
    query: async (text) => (await pool.query<Record<string, unknown>>(text)).rows,
    close: async () => {
      await pool.end();
      await database.drop();
    },
  };
}
