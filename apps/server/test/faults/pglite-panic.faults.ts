/**
 * The embedded database after a PANIC (docs/decisions/104): on a full disk PostgreSQL cannot create
 * the next WAL segment and PANICs; PGlite, which runs that one backend in our process, then refuses
 * every statement. The handle opens the folder again once that can succeed (crash recovery from the
 * WAL) and every commit answered before is there. A tmpfs the test mounts (root), filled to the
 * last byte; `pg_switch_wal()` asks for the next segment at once.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, open, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, expect, test } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { REOPEN_RETRY_MS } from '../../src/db/pglite-reopen.ts';
import { databaseTroubleOf } from '../../src/db/unavailable.ts';

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

test('a PANIC of the embedded database on a full disk: statements refused as unavailable, then it opens again by itself once space is freed, with every commit kept', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'gatecheck-panic-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    await rmdir(dir);
    throw new Error(`This test mounts a small tmpfs and needs root (CAP_SYS_ADMIN); mount refused: ${error instanceof Error && 'stderr' in error ? String(error.stderr) : String(error)}`);
  }
  cleanups.push(async () => {
    execFileSync('umount', ['-l', dir]);
    await rmdir(dir);
  });
  const database = await openDatabase({ pgliteDir: path.join(dir, 'pgdata') }, { migrate: false });
  cleanups.push(() => database.close());
  const reopened: { error?: unknown }[] = [];
  database.onReopened?.((outcome) => reopened.push(outcome));
  const { db } = database;
  await db.execute(sql`CREATE TABLE door (code text PRIMARY KEY)`);
  await db.execute(sql`INSERT INTO door VALUES ('before-1'), ('before-2')`);

  const filler = path.join(dir, 'filler');
  const handle = await open(filler, 'w');
  for (let size = 1024 * 1024; size >= 1; ) {
    await handle.write(Buffer.alloc(size)).catch(() => (size = Math.floor(size / 2)));
  }
  await handle.close();
  const failures: unknown[] = [];
  // Each round writes a WAL record (a row fits the table's first page) and then asks for a new segment.
  for (let n = 0; n < 3; n++) {
    for (const statement of [sql`INSERT INTO door VALUES (${`full-${n}`})`, sql`SELECT pg_switch_wal()`]) {
      failures.push(await db.execute(statement).then(() => undefined, (error: unknown) => error));
    }
  }
  expect(failures.some((failure) => failure !== undefined)).toBe(true);
  for (const failure of failures.filter(Boolean)) expect(databaseTroubleOf(failure)).toBeDefined();
  // Still broken while the disk is full.
  const whileFull = await db.execute(sql`SELECT count(*) FROM door`).then(() => undefined, (error: unknown) => error);
  expect(databaseTroubleOf(whileFull)).toBeDefined();

  await rm(filler);
  await new Promise((resolve) => setTimeout(resolve, REOPEN_RETRY_MS));
  await expect.poll(() => db.execute(sql`SELECT count(*)::int AS n FROM door`).then((result) => rowsOf<{ n: number }>(result)[0]?.n, () => 'refused'), { timeout: 20_000, interval: 500 }).toBeGreaterThanOrEqual(2);
  await db.execute(sql`INSERT INTO door VALUES ('after')`);
  // Whatever committed before the PANIC is there (the rows of the rounds that did not fail), and nothing else.
  const codes = rowsOf<{ code: string }>(await db.execute(sql`SELECT code FROM door ORDER BY code`)).map((row) => row.code);
  expect(codes.filter((code) => !code.startsWith('full-'))).toEqual(['after', 'before-1', 'before-2']);
  const committed = failures.flatMap((failure, index) => (index % 2 === 0 && failure === undefined ? [`full-${index / 2}`] : []));
  expect(codes.filter((code) => code.startsWith('full-'))).toEqual(committed);
  expect(reopened.filter((outcome) => outcome.error === undefined)).toHaveLength(1);
}, 120_000);
