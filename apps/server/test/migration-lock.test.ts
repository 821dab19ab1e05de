/**
 * Migrations as a deliberate step (issue 14 item 2, docs/decisions/041): `npm run db:migrate`
 * (src/db/migrate-cli.ts) applies pending migrations and then finds nothing to do; on PostgreSQL two
 * copies started together both succeed and apply them once, and the migration lock is exclusive.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterEach, expect, test } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase, type DatabaseHandle } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { createPostgresTestDatabase, TEST_DATABASE_KIND } from './helpers/test-app.ts';

const MIGRATION_COUNT = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).length;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Runs the migrate CLI as `npm run db:migrate` does; resolves with its exit code and output. */
function runMigrate(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/db/migrate-cli.ts'], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: { ...process.env, DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

async function appliedRows(handle: DatabaseHandle): Promise<{ n: number; distinct: number }> {
  const result = await handle.db.execute(sql`SELECT count(*)::int AS n, count(DISTINCT hash)::int AS distinct FROM drizzle.__drizzle_migrations`);
  const [row] = rowsOf<{ n: number; distinct: number }>(result);
  return row ?? { n: -1, distinct: -1 };
}

test(`npm run db:migrate migrates an empty database, then finds it up to date (${TEST_DATABASE_KIND})`, async () => {
  let env: Record<string, string>;
  let open: () => Promise<DatabaseHandle>;
  if (process.env.DATABASE_URL) {
    const created = await createPostgresTestDatabase();
    cleanups.push(() => created.drop());
    env = { DATABASE_URL: created.url };
    open = () => openDatabase({ databaseUrl: created.url, poolSize: 2 }, { migrate: false });
  } else {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-migrate-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    env = { DATA_DIR: dataDir };
    open = () => openDatabase({ pgliteDir: path.join(dataDir, 'pgdata') }, { migrate: false });
  }
  // On PostgreSQL two copies at once (the second waits for the lock); PGlite allows one process.
  const first = process.env.DATABASE_URL ? await Promise.all([runMigrate(env), runMigrate(env)]) : [await runMigrate(env)];
  for (const run of first) expect(run.code, run.output).toBe(0);
  const outputs = first.map((run) => run.output).join('\n');
  expect(outputs.match(new RegExp(`applied ${MIGRATION_COUNT} migrations`, 'g'))).toHaveLength(1);
  if (first.length === 2) expect(outputs).toContain(': up to date');
  const again = await runMigrate(env);
  expect(again.code).toBe(0);
  expect(again.output).toMatch(/: up to date\n$/);
  const handle = await open();
  try {
    expect(await appliedRows(handle)).toEqual({ n: MIGRATION_COUNT, distinct: MIGRATION_COUNT });
  } finally {
    await handle.close();
  }
}, 120_000);

test('npm run db:migrate fails with one line and exit 1 when the database cannot be reached', async () => {
  const run = await runMigrate({ DATABASE_URL: 'postgres://nobody:wrong@127.0.0.1:1/none' });
  expect(run.code).toBe(1);
  expect(run.output).toMatch(/^Migrating failed: /);
}, 60_000);

const LOCK_TEST_NAME = process.env.DATABASE_URL
  ? 'the migration lock is exclusive: a second holder waits until the first is done, and a failing holder releases it (postgres)'
  : 'the migration lock on PGlite runs the work and passes on its result or its error (the folder lock keeps other processes out)';
test(LOCK_TEST_NAME, async () => {
  if (!process.env.DATABASE_URL) {
    // PGlite: one process per folder already; exclusively just runs the work and returns its result.
    const handle = await openDatabase({ inMemory: true });
    cleanups.push(() => handle.close());
    expect(await handle.exclusively(async () => 'done')).toBe('done');
    await expect(handle.exclusively(async () => Promise.reject(new Error('work failed')))).rejects.toThrow('work failed');
    return;
  }
  const created = await createPostgresTestDatabase();
  cleanups.push(() => created.drop());
  const one = await openDatabase({ databaseUrl: created.url, poolSize: 2 });
  const two = await openDatabase({ databaseUrl: created.url, poolSize: 2 });
  cleanups.push(() => one.close(), () => two.close());
  const events: string[] = [];
  let releaseFirst: () => void = () => undefined;
  const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
  let firstEntered: () => void = () => undefined;
  const entered = new Promise<void>((resolve) => (firstEntered = resolve));
  const first = one.exclusively(async () => {
    events.push('first in');
    firstEntered();
    await firstHolds;
    events.push('first out');
  });
  await entered;
  const second = two.exclusively(async () => {
    events.push('second in');
  });
  // Give the second every chance to get in while the first holds the lock.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(events).toEqual(['first in']);
  releaseFirst();
  await Promise.all([first, second]);
  expect(events).toEqual(['first in', 'first out', 'second in']);
  // A failing holder releases the lock too.
  await expect(one.exclusively(async () => Promise.reject(new Error('work failed')))).rejects.toThrow('work failed');
  expect(await two.exclusively(async () => 'after')).toBe('after');
}, 60_000);
