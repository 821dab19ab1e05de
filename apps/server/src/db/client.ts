/**
 * Opening the database: embedded PGlite (in a folder, or in memory) or a real PostgreSQL server via
 * `pg`, with the same Drizzle schema and queries on both. Migrations from `apps/server/drizzle/` are
 * applied on open unless the caller says otherwise, so a fresh data folder or an empty PostgreSQL
 * database is ready to use. On PostgreSQL they are applied while holding a session-level advisory
 * lock (`exclusively`), so N instances starting together migrate once (docs/decisions/041).
 */
import { mkdir, open, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { type Logger, sql } from 'drizzle-orm';
import pg from 'pg';
import { createGuardedPool, DATABASE_CONNECT_TIMEOUT_MS, withDatabaseDeadline } from './pg-pool.ts';
import { openPgliteDir } from './pglite-durable.ts';
import { reopeningAfterPanic } from './pglite-reopen.ts';
import { withNamedStatements } from './pglite-named-statements.ts';
import { keepStatistics } from './pglite-statistics.ts';
import { rowsOf } from './rows.ts';
import * as schema from './schema.ts';

/** The Drizzle database both drivers provide; services take this type. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** An open transaction (the callback's argument of `db.transaction`; see ./transactions.ts). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** A transaction or the database itself: anything queries can run on. */
export type DbOrTx = Tx | Db;

/**
 * What a readiness probe learns (GET /api/ready): `ready`, `unreachable` (no answer within
 * `READY_TIMEOUT_MS`, or a connection error), `read_only` (the connection reached a standby in
 * recovery, which cannot record a check-in: a failover under way) or `not_migrated` (a migration of
 * this build is not applied yet: `MIGRATE_ON_START=false` before the release step ran).
 */
export type DatabaseReadiness = 'ready' | 'unreachable' | 'read_only' | 'not_migrated';

/** An open database and how to close it. */
export interface DatabaseHandle {
  db: Db;
  /** `pglite` (embedded) or `postgres` (a server reached through `DATABASE_URL`). */
  kind: 'pglite' | 'postgres';
  /** Closes the connection pool or the embedded database. Safe to call twice. */
  close(): Promise<void>;
  /**
   * Applies the pending migrations of `MIGRATIONS_FOLDER` (without the lock: call it inside
   * `exclusively`, as `openDatabase` does).
   * @returns how many were applied (0: the database was up to date).
   */
  migrate(): Promise<number>;
  /**
   * Runs `work` while holding the migration lock: on PostgreSQL `pg_advisory_lock(MIGRATION_LOCK_KEY)`
   * on a connection of its own (not from the pool, so a pool of 1 cannot deadlock), released when
   * `work` settles or the process dies (the session ends). PGlite: runs `work` directly (its folder
   * lock already keeps other processes out). Used around migrate + demo seed at start.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  /** The `pg` pool's connections (PostgreSQL), for the metrics; undefined on PGlite. */
  poolStats: (() => { total: number; idle: number; waiting: number }) | undefined;
  /**
   * PGlite: keeps the planner's statistics current (./pglite-statistics.ts `keepStatistics`: now and
   * every minute; stopped by `close`), since no autovacuum runs in it. Undefined on PostgreSQL,
   * whose autovacuum does this.
   */
  keepStatistics: ((options: { onError: (error: unknown) => void; onAnalyzed?: (tables: string[]) => void }) => void) | undefined;
  /**
   * A PGlite folder: tells `listener` each time the database was opened again after a PANIC, or
   * failed to (`error`), so the server can log it (./pglite-reopen.ts). Undefined otherwise.
   */
  onReopened: ((listener: (outcome: { error?: unknown }) => void) => void) | undefined;
}

/** Options of `openDatabase`. */
export interface OpenOptions {
  /** Apply pending migrations under the lock before returning (default true). */
  migrate?: boolean;
  /**
   * Drizzle's query logger: sees every statement Drizzle sends (SQL text with `$n` placeholders and
   * its parameters). None by default; the query-plan review (test/helpers/query-plans.ts) uses it to
   * EXPLAIN the statements the services really issue.
   */
  logger?: Logger;
}

/**
 * The fixed key of the migration advisory lock (a bigint; any other user of advisory locks on the
 * database must avoid it). Arbitrary: "gatecheck" in a phone keypad's digits.
 */
export const MIGRATION_LOCK_KEY = '428322435';

/** How long a readiness query may take before the database counts as unreachable (ms). */
export const READY_TIMEOUT_MS = 2000;

/**
 * Where the database lives: a PostgreSQL connection string, a PGlite folder, or PGlite in memory.
 * `poolSize` is the maximum number of `pg` connections (default 10). `loadDataDir` starts an
 * in-memory PGlite from a `dumpDataDir()` tarball (the tests' migrated template) instead of initdb.
 * A PGlite folder is durable at commit (docs/decisions/026); `isDurable: false` gives PGlite's
 * defaults (fsync off: a power cut can lose committed check-ins), only as `npm run bench:verify`'s
 * reference.
 */
export type DatabaseLocation =
  | { databaseUrl: string; poolSize?: number }
  | { pgliteDir: string; isDurable?: boolean }
  | { inMemory: true; loadDataDir?: Blob };

/** The SQL migrations generated by drizzle-kit (apps/server/drizzle). */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** When the newest migration of this build was generated (drizzle's `created_at`, ms since 1970). */
const LATEST_MIGRATION_MILLIS = Math.max(0, ...readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((migration) => migration.folderMillis));

/**
 * Opens the database at `location` and (unless `options.migrate` is false) applies pending migrations
 * while holding the migration lock.
 * @throws when the database cannot be reached or a migration fails (the handle is closed first).
 */
export async function openDatabase(location: DatabaseLocation, options: OpenOptions = {}): Promise<DatabaseHandle> {
  const handle = await connect(location, options.logger);
  if (options.migrate !== false) {
    try {
      await handle.exclusively(() => handle.migrate());
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
  return handle;
}

async function connect(location: DatabaseLocation, logger: Logger | undefined): Promise<DatabaseHandle> {
  if ('databaseUrl' in location) {
    // Timeouts, keepalive and dropping failed connections: ./pg-pool.ts (docs/decisions/103).
    const pool = createGuardedPool(location.databaseUrl, location.poolSize ?? 10);
    // An idle connection the server ends (a restart, pg_terminate_backend, an administrator's
    // DROP … FORCE) makes the pool emit 'error'; without a listener Node would crash the process.
    // The pool has already dropped that client and the next query opens a new connection, so there
    // is nothing to do here; a query that was running gets its own error.
    pool.on('error', () => undefined);
    const connected = new Set<pg.PoolClient>();
    pool.on('connect', (client) => connected.add(client));
    pool.on('remove', (client) => connected.delete(client));
    const db = drizzlePg({ client: pool, schema, ...(logger ? { logger } : {}) });
    batchSlots.set(db, Math.max(1, Math.floor((location.poolSize ?? 10) / POOL_SHARE_PER_BATCHED_STATEMENT)));
    return {
      db,
      kind: 'postgres',
      close: once(() => endPoolFully(pool, connected)),
      // On a connection of its own, without the pool's statement timeouts: a migration may take long.
      migrate: () => withOwnConnection(location.databaseUrl, (ownDb) => countingApplied(ownDb, () => migratePg(ownDb, { migrationsFolder: MIGRATIONS_FOLDER }))),
      exclusively: (work) => withAdvisoryLock(location.databaseUrl, work),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      keepStatistics: undefined,
      onReopened: undefined,
    };
  }
  // Named prepared statements for the statements Drizzle repeats (docs/decisions/071).
  let client: { client: PGlite; close(): Promise<void> };
  let unlock = async () => {};
  const reopenListeners: ((outcome: { error?: unknown }) => void)[] = [];
  if ('pgliteDir' in location) {
    const { pgliteDir, isDurable } = location;
    await mkdir(pgliteDir, { recursive: true });
    unlock = await lockPgliteDir(pgliteDir);
    try {
      // A folder is opened again after a PANIC (a WAL file it could not write): ./pglite-reopen.ts.
      const open = async () => withNamedStatements(await openPgliteDir(pgliteDir, { isDurable }));
      client = reopeningAfterPanic(await open(), open, (outcome) => {
        for (const listener of reopenListeners) listener(outcome);
      });
    } catch (error) {
      await unlock();
      throw error;
    }
  } else {
    const inMemory = withNamedStatements(await PGlite.create(location.loadDataDir ? { loadDataDir: location.loadDataDir } : {}));
    client = { client: inMemory, close: () => inMemory.close() };
  }
  const db = drizzlePglite({ client: client.client, schema, ...(logger ? { logger } : {}) });
  let stopStatistics = () => {};
  return {
    db,
    kind: 'pglite',
    close: once(async () => {
      stopStatistics();
      try {
        await client.close();
      } finally {
        await unlock();
      }
    }),
    onReopened: (listener) => reopenListeners.push(listener),
    migrate: () => countingApplied(db, () => migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER })),
    exclusively: (work) => work(),
    poolStats: undefined,
    keepStatistics: (options) => {
      stopStatistics();
      stopStatistics = keepStatistics(db, options);
    },
  };
}

/**
 * On PostgreSQL each coalesced statement of the hot path (./coalesce.ts) may have one batch in
 * flight per this many of the pool's connections (a pool of 10: one batch of each kind). Measured
 * with bench:verify at 50 connections (docs/performance.md, 24 Nov 2026): one batch per kind gave
 * 4,427 approvals/s (p99 11 ms), two 3,045 (p99 16 ms), five 3,714 (p99 16 ms): fewer, bigger batches
 * mean fewer transactions taking the same foreign-key locks on the event's and the staff member's
 * rows at once.
 */
const POOL_SHARE_PER_BATCHED_STATEMENT = 10;

const batchSlots = new WeakMap<object, number>();

/**
 * How many batches of one coalesced statement (./coalesce.ts) may run at once on `db`: a part of
 * the pool on PostgreSQL, 1 on PGlite (it runs one statement at a time) and on any other handle.
 */
export function batchSlotsOf(db: DbOrTx): number {
  return batchSlots.get(db) ?? 1;
}

/** Runs `work` on a Drizzle database over one connection of its own (no pool, no timeouts), closed afterwards. */
async function withOwnConnection<T>(databaseUrl: string, work: (db: NodePgDatabase<typeof schema>) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(drizzlePg({ client, schema }));
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Runs `work` holding `pg_advisory_lock(MIGRATION_LOCK_KEY)` on a connection of its own. */
async function withAdvisoryLock<T>(databaseUrl: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The newest applied migration's `created_at`, or null when drizzle's table does not exist yet. */
async function latestAppliedMillis(db: Db): Promise<number | null> {
  const exists = rowsOf<{ present: boolean }>(await db.execute(sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`));
  if (!exists[0]?.present) return null;
  const latest = rowsOf<{ millis: string | null }>(await db.execute(sql`SELECT max(created_at)::text AS millis FROM drizzle.__drizzle_migrations`));
  const millis = latest[0]?.millis;
  return millis === null || millis === undefined ? null : Number(millis);
}

/** Runs drizzle's migrator and tells how many migrations it applied (by the newest `created_at`). */
async function countingApplied(db: Db, migrate: () => Promise<void>): Promise<number> {
  const before = (await latestAppliedMillis(db)) ?? -1;
  await migrate();
  return readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).filter((migration) => migration.folderMillis > before).length;
}

/**
 * Whether `db` answers (within `READY_TIMEOUT_MS`), can write (not a standby in recovery) and has
 * every migration of this build applied: small queries on drizzle's migrations table and
 * `pg_is_in_recovery()`. Never throws.
 */
export async function checkDatabaseReadiness(db: Db): Promise<DatabaseReadiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'unreachable'>((resolve) => {
    timer = setTimeout(() => resolve('unreachable'), READY_TIMEOUT_MS);
  });
  // The deadline also drops a connection whose probe never answers (./pg-pool.ts).
  const probe = withDatabaseDeadline(READY_TIMEOUT_MS, async (): Promise<DatabaseReadiness> => {
    // A standby answers reads (the migrations table is there) but refuses every check-in.
    const [recovery] = rowsOf<{ inRecovery: boolean }>(await db.execute(sql`SELECT pg_is_in_recovery() AS "inRecovery"`));
    if (recovery?.inRecovery) return 'read_only';
    const latest = await latestAppliedMillis(db);
    return latest !== null && latest >= LATEST_MIGRATION_MILLIS ? 'ready' : 'not_migrated';
  }).catch((): DatabaseReadiness => 'unreachable');
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ends the pool and waits until every connection it opened has closed its socket. `pool.end()`
 * resolves as soon as it has asked each client to end, before the goodbyes are through; a caller that
 * then drops the database (the tests) would race them, and the server would kill connections the pool
 * no longer listens to.
 */
function endPoolFully(pool: pg.Pool, connected: Set<pg.PoolClient>): Promise<void> {
  const allClosed = new Promise<void>((resolve) => {
    if (connected.size === 0) return resolve();
    pool.on('remove', () => {
      if (connected.size === 0) resolve();
    });
  });
  // A connection whose peer stopped answering (a black-holed network) never closes cleanly: wait no
  // longer than a connection attempt may take.
  const atMost = new Promise<void>((resolve) => setTimeout(resolve, DATABASE_CONNECT_TIMEOUT_MS).unref());
  return pool.end().then(() => Promise.race([allClosed, atMost]));
}

/** Lock files this process holds. */
const heldLocks = new Set<string>();

/**
 * PGlite keeps no lock of its own, and two processes writing one folder would corrupt it: take
 * `<dir>.lock` (holding our pid) exclusively, taking over a lock whose process is gone.
 * @returns a function that releases the lock.
 * @throws Error naming the process that holds the folder.
 */
async function lockPgliteDir(dir: string): Promise<() => Promise<void>> {
  const lockFile = `${path.resolve(dir)}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const file = await open(lockFile, 'wx');
      await file.writeFile(String(process.pid));
      await file.close();
      heldLocks.add(lockFile);
      return async () => {
        heldLocks.delete(lockFile);
        await unlink(lockFile).catch(() => undefined);
      };
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
      const holder = Number.parseInt(await readFile(lockFile, 'utf8').catch(() => ''), 10);
      // Our own pid in the file is stale (a restarted container often gets the same pid) unless
      // this very process holds the lock.
      const isHeld = holder === process.pid ? heldLocks.has(lockFile) : Number.isInteger(holder) && holder > 0 && isProcessAlive(holder);
      if (isHeld) {
        throw new Error(
          `The embedded database in ${dir} is in use by process ${holder}${holder === process.pid ? ' (this one)' : ''}. ` +
            'Stop that process first, or use PostgreSQL through DATABASE_URL to share one database.',
        );
      }
      await unlink(lockFile).catch(() => undefined);
    }
  }
  throw new Error(`Could not lock the embedded database in ${dir} (${lockFile}).`);
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

/** `close` made safe to call twice: later calls share the first one's promise. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}
