/**
 * Upkeep of the database (the admin CLI's `db vacuum`). The embedded database (PGlite) has no
 * autovacuum (docs/decisions/072): the server keeps its planner statistics, but nothing reclaims
 * the rows that updates and deletes leave behind (undone check-ins, edited tickets, revoked sessions,
 * expired rate-limit counters). On PostgreSQL autovacuum does this on its own.
 */
import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { rowsOf } from './rows.ts';

/** What `vacuumDatabase` did: the mode, the database's size before and after (bytes), and how long it took (ms). */
export interface VacuumReport {
  isFull: boolean;
  bytesBefore: number;
  bytesAfter: number;
  milliseconds: number;
}

/** The size of the current database on disk, in bytes (`pg_database_size`). */
async function databaseBytes(db: Db): Promise<number> {
  const [row] = rowsOf<{ bytes: string }>(await db.execute(sql`select pg_database_size(current_database())::text as bytes`));
  return Number(row?.bytes ?? Number.NaN);
}

/**
 * VACUUM (ANALYZE) of the tables of the database (on PostgreSQL, those the role owns; the others
 * are skipped with a warning): the space of dead rows becomes reusable and the planner statistics
 * are taken again. `isFull`: VACUUM (FULL, ANALYZE), which writes a new copy of each table and its
 * indexes and drops the old one, so the space goes back to the disk; it needs free disk space for
 * the copy and holds each table's exclusive lock while it is rewritten (on PostgreSQL, scans of
 * that table wait meanwhile).
 * @throws the database's error (e.g. inside a transaction, where VACUUM cannot run).
 */
export async function vacuumDatabase(db: Db, options: { isFull: boolean }): Promise<VacuumReport> {
  const bytesBefore = await databaseBytes(db);
  const startedAt = performance.now();
  await db.execute(options.isFull ? sql`vacuum (full, analyze)` : sql`vacuum (analyze)`);
  const milliseconds = performance.now() - startedAt;
  return { isFull: options.isFull, bytesBefore, bytesAfter: await databaseBytes(db), milliseconds };
}
