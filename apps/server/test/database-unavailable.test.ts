/**
 * A database that cannot serve (docs/decisions/103): requests get a fast 503 `not_ready` with
 * `Retry-After` and a message, never a 500 or a hang; the cause is logged once per outage; on
 * PostgreSQL the pool gives up on connections that never answer (the deadline of a verify, or a
 * statement's read timeout) and drops them, so it serves again once the database answers. The long
 * versions (a minute away, real server processes, the phones' queue) are `npm run test:faults`.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { apiPaths } from '@gatecheck/contract';
import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { DatabaseDeadlineError, withDatabaseDeadline } from '../src/db/pg-pool.ts';
import { inTransaction } from '../src/db/transactions.ts';
import { rowsOf } from '../src/db/rows.ts';
import { databaseTroubleOf, isWriteOutcomeUnknown, WriteUnconfirmedError } from '../src/db/unavailable.ts';
import { DATABASE_TROUBLE_ANSWERS } from '../src/plugins/errors.ts';
import { VERIFY_DATABASE_DEADLINE_MS } from '../src/routes/tickets/index.ts';
import { startBlackHoleProxy } from './faults/black-hole-proxy.ts';
import { PHONE_CUT_OVER_MS } from './faults/gates.ts';
import { createPostgresTestDatabase, withAdminClient } from './helpers/test-app.ts';

/** A port of 127.0.0.1 nobody listens on (a PostgreSQL that is stopped). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address !== 'object') throw new Error('no port');
  return address.port;
}

/** The `DatabaseDeadlineError` among `error` and its causes (Drizzle wraps the driver's errors). */
function deadlineErrorOf(error: unknown): DatabaseDeadlineError | undefined {
  for (let current = error; current instanceof Error; current = current.cause) if (current instanceof DatabaseDeadlineError) return current;
  return undefined;
}

test('verify against a stopped PostgreSQL is a fast 503 not_ready with Retry-After, never a 500; the cause is logged once', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-unavailable-'));
  const database = await openDatabase({ databaseUrl: `postgres://gatecheck:secret@127.0.0.1:${await closedPort()}/gatecheck`, poolSize: 2 }, { migrate: false });
  const stream = new PassThrough();
  const lines: { msg?: string; level?: number }[] = [];
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { msg?: string })));
  const config = loadConfig({ DATA_DIR: dataDir, WEB_DIST_DIR: path.join(dataDir, 'none'), LOG_LEVEL: 'info' });
  const app = await buildApp({ config, db: database.db, logStream: stream });
  try {
    for (let n = 0; n < 3; n++) {
      const started = performance.now();
      const response = await app.inject({
        method: 'POST',
        url: `/api${apiPaths.verifyTicket}`,
        headers: { authorization: `Bearer ${'a'.repeat(43)}` },
        payload: { eventId: randomUUID(), qrCode: 'GC-1', day: 1, scanId: randomUUID() },
      });
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe(String(DATABASE_TROUBLE_ANSWERS.unreachable.retryAfterSeconds));
      expect(response.json()).toEqual({ code: 'not_ready', message: DATABASE_TROUBLE_ANSWERS.unreachable.message });
    }
    expect(lines.filter((line) => line.msg?.startsWith('database unavailable (unreachable)'))).toHaveLength(1);
    expect(lines.filter((line) => line.msg === 'request failed')).toEqual([]);
  } finally {
    await app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('what counts as the database unable to serve: no connection, no answer in time, disk full, shutting down; not a broken rule', async () => {
  const refused = await new (await import('pg')).default.Client({ connectionString: `postgres://x:y@127.0.0.1:${await closedPort()}/x` }).connect().catch((error: unknown) => error);
  expect(databaseTroubleOf(refused)).toBe('unreachable');
  expect(databaseTroubleOf(new DatabaseDeadlineError())).toBe('unreachable');
  expect(databaseTroubleOf(new Error('Failed query', { cause: new Error('Query read timeout') }))).toBe('unreachable');
  // PostgreSQL's errors carry their SQLSTATE in `code` (pg's DatabaseError), Drizzle wraps them.
  const withState = (code: string, message: string) => new Error('Failed query', { cause: Object.assign(new Error(message), { code }) });
  expect(databaseTroubleOf(withState('53100', 'could not extend file "base/5/16384": No space left on device'))).toBe('disk_full');
  expect(databaseTroubleOf(withState('57P01', 'terminating connection due to administrator command'))).toBe('unreachable');
  expect(databaseTroubleOf(withState('25006', 'cannot execute INSERT in a read-only transaction'))).toBe('unreachable');
  expect(databaseTroubleOf(withState('23505', 'duplicate key value violates unique constraint'))).toBeUndefined();
  expect(databaseTroubleOf(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBeUndefined();
});

if (process.env.DATABASE_URL) {
  test('on PostgreSQL behind a black-holed network, a verify (its sign-in lookup included) answers 503 at its deadline, before the phone gives up', async () => {
    const created = await createPostgresTestDatabase();
    const direct = new URL(created.url);
    const proxy = await startBlackHoleProxy(Number(direct.port));
    direct.port = String(proxy.port);
    const database = await openDatabase({ databaseUrl: direct.toString(), poolSize: 2 });
    const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-unavailable-'));
    const app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir, WEB_DIST_DIR: path.join(dataDir, 'none'), LOG_LEVEL: 'silent' }), db: database.db });
    try {
      proxy.blackHole();
      const started = performance.now();
      const response = await app.inject({
        method: 'POST',
        url: `/api${apiPaths.verifyTicket}`,
        headers: { authorization: `Bearer ${'a'.repeat(43)}` },
        payload: { eventId: randomUUID(), qrCode: 'GC-1', day: 1, scanId: randomUUID() },
      });
      const elapsedMs = performance.now() - started;
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe(String(DATABASE_TROUBLE_ANSWERS.unreachable.retryAfterSeconds));
      expect(elapsedMs).toBeGreaterThanOrEqual(VERIFY_DATABASE_DEADLINE_MS - 50);
      expect(elapsedMs).toBeLessThan(PHONE_CUT_OVER_MS);
    } finally {
      await app.close();
      await proxy.close();
      await database.close();
      await created.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('on PostgreSQL, pooled connections that reached a standby (read-only, SQLSTATE 25006) answer as unreachable and are dropped: the pool reaches the primary again', async () => {
    const created = await createPostgresTestDatabase();
    const name = new URL(created.url).pathname.slice(1);
    // New connections to this database start read-only, as connections that reached a standby do.
    const serverUrl = process.env.DATABASE_URL ?? '';
    await withAdminClient(serverUrl, (client) => client.query(`ALTER DATABASE ${name} SET default_transaction_read_only = on`));
    const database = await openDatabase({ databaseUrl: created.url, poolSize: 2 }, { migrate: false });
    const { db } = database;
    const write = (n: number) => inTransaction(db, (tx) => tx.execute(sql.raw(`CREATE TABLE written_${n} (id int)`)));
    try {
      // Both connections of the pool open on the "standby", then the primary is reachable again.
      await Promise.all([inTransaction(db, (tx) => tx.execute(sql`SELECT pg_sleep(0.05)`)), inTransaction(db, (tx) => tx.execute(sql`SELECT pg_sleep(0.05)`))]);
      await withAdminClient(serverUrl, (client) => client.query(`ALTER DATABASE ${name} RESET default_transaction_read_only`));
      const failures = await Promise.all([write(1), write(2)].map((work) => work.then(() => undefined, (error: unknown) => error)));
      // Each stale connection fails its one transaction as a database that cannot serve (a 503)...
      expect(failures.map((failure) => databaseTroubleOf(failure))).toEqual(['unreachable', 'unreachable']);
      // ...and is dropped: every later transaction runs on a new, writable connection.
      for (let n = 3; n < 7; n++) await write(n);
      expect(database.poolStats?.().total).toBeLessThanOrEqual(2);
    } finally {
      await database.close();
      await created.drop();
    }
  });

  test('on PostgreSQL behind a black-holed network, statements give up at their deadline and the pool serves again once the network does', async () => {
    const created = await createPostgresTestDatabase();
    const direct = new URL(created.url);
    const proxy = await startBlackHoleProxy(Number(direct.port));
    direct.port = String(proxy.port);
    const database = await openDatabase({ databaseUrl: direct.toString(), poolSize: 3 }, { migrate: false });
    const { db } = database;
    try {
      // Two connections open and idle in the pool, then the network drops everything.
      await Promise.all([db.execute(sql`SELECT pg_sleep(0.05)`), inTransaction(db, (tx) => tx.execute(sql`SELECT 1`))]);
      proxy.blackHole();
      for (const work of [() => db.execute(sql`SELECT 1`), () => inTransaction(db, (tx) => tx.execute(sql`SELECT 1`)), () => db.execute(sql`SELECT 2`)]) {
        const started = performance.now();
        const failure = await withDatabaseDeadline(300, work).then(() => undefined, (error: unknown) => error);
        expect(performance.now() - started).toBeLessThan(1_000);
        expect(databaseTroubleOf(failure)).toBe('unreachable');
      }
      proxy.restore();
      // The held connections are never used again: new ones answer, with no connection leaked.
      await expect.poll(() => withDatabaseDeadline(1_000, () => db.execute(sql`SELECT 1 AS one`)).then(() => 'answers', () => 'fails'), { timeout: 10_000 }).toBe('answers');
      await inTransaction(db, (tx) => tx.execute(sql`SELECT 1`));
      expect(database.poolStats?.()).toMatchObject({ waiting: 0 });
      expect(database.poolStats?.().total).toBeLessThanOrEqual(3);
    } finally {
      // The proxy first: closing its sockets lets the pool's goodbyes and the DROP go through.
      await proxy.close();
      await database.close();
      await created.drop();
    }
  });

  test('on PostgreSQL, a statement still waiting for a free connection at its deadline is never sent: its caller was told nothing was saved (decision 134)', async () => {
    const created = await createPostgresTestDatabase();
    const database = await openDatabase({ databaseUrl: created.url, poolSize: 1 }, { migrate: false });
    const { db } = database;
    try {
      await db.execute(sql`CREATE TABLE written (id int)`);
      // The pool's one connection is busy for longer than the write's deadline.
      // (Drizzle's queries start when awaited or then'd.)
      const busy = db.execute(sql`SELECT pg_sleep(0.6)`).then(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const failure = await withDatabaseDeadline(200, () => db.execute(sql`INSERT INTO written VALUES (1)`)).then(() => undefined, (error: unknown) => error);
      await busy;
      // Long enough for a statement queued behind the busy one to have run.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(rowsOf(await db.execute(sql`SELECT count(*)::int AS n FROM written`))).toEqual([{ n: 0 }]);
      expect(databaseTroubleOf(failure)).toBe('unreachable');
      expect(deadlineErrorOf(failure)?.statement).toBeUndefined();
      expect(isWriteOutcomeUnknown(failure)).toBe(false);
      // A write that was sent and not answered in time leaves its outcome unknown; a read does not.
      const sent = await withDatabaseDeadline(200, () => db.execute(sql`INSERT INTO written SELECT 2 FROM pg_sleep(0.5)`)).then(() => undefined, (error: unknown) => error);
      expect(deadlineErrorOf(sent)?.statement).toContain('INSERT INTO written');
      expect(isWriteOutcomeUnknown(sent)).toBe(true);
      expect(databaseTroubleOf(new WriteUnconfirmedError(sent))).toBe('unconfirmed');
      const read = await withDatabaseDeadline(200, () => db.execute(sql`SELECT pg_sleep(0.5)`)).then(() => undefined, (error: unknown) => error);
      expect(isWriteOutcomeUnknown(read)).toBe(false);
      // The unanswered INSERT ran on inside PostgreSQL: its outcome was indeed not known at the deadline.
      await expect.poll(async () => rowsOf(await db.execute(sql`SELECT count(*)::int AS n FROM written`)), { timeout: 5_000 }).toEqual([{ n: 1 }]);
    } finally {
      await database.close();
      await created.drop();
    }
  });
}
