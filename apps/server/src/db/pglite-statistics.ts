/**
 * Planner statistics for the embedded database (docs/decisions/072). PostgreSQL's autovacuum
 * re-ANALYZEs a table once enough of it changed; PGlite runs PostgreSQL in single-user mode, where
 * no autovacuum runs and the per-table change counters stay at 0. Its statistics stay what they
 * were at the last ANALYZE — for check_ins typically "empty" — while the table grows through an
 * event day, and the plans built on them (cached for the named statements of decision 071, but
 * planned afresh just the same) stop using the indexes: measured with 60,000 tickets, the scan read
 * took 3.5 ms with 30,000 check-ins on stale statistics and 0.16 ms after ANALYZE.
 *
 * `analyzeGrownTables` compares each table's size now with the size its statistics describe
 * (`pg_class.relpages`, written by ANALYZE) and ANALYZEs those grown by more than a fifth (and at
 * least 8 pages, 64 kB); ANALYZE also invalidates the cached plans that read the table.
 * `keepStatistics` does that at start and then every minute.
 */
import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { rowsOf } from './rows.ts';

/** A table is analyzed again when it has grown by more than this share of its analyzed pages... */
export const GROWTH_SHARE = 0.2;
/** ...and by more than this many pages (8 kB each). */
export const GROWTH_PAGES = 8;
/** How often `keepStatistics` looks (ms). */
export const STATISTICS_EVERY_MS = 60_000;

/**
 * ANALYZEs the tables of the `public` schema that grew past their statistics (see the module
 * comment), one statement each, in name order.
 * @returns the tables analyzed (as `regclass` text), none when all are current.
 * @throws the database's error when a statement fails.
 */
export async function analyzeGrownTables(db: Pick<Db, 'execute'>): Promise<string[]> {
  const result = await db.execute(sql`
    select c.oid::regclass::text as name
    from pg_class c
    where c.relkind = 'r' and c.relnamespace = 'public'::regnamespace
      and pg_relation_size(c.oid) / current_setting('block_size')::integer > greatest(c.relpages * (1 + ${GROWTH_SHARE}::float8), c.relpages + ${GROWTH_PAGES}::integer)
    order by c.relname`);
  const names = rowsOf<{ name: string }>(result).map((row) => row.name);
  // `regclass` text is the table's name quoted as an identifier where it needs to be.
  for (const name of names) await db.execute(sql.raw(`analyze ${name}`));
  return names;
}

/**
 * Runs `analyzeGrownTables` now and every `everyMs` (default `STATISTICS_EVERY_MS`), one run at a
 * time; the timer does not keep the process alive.
 * @param onError told about a failed run (the next run tries again).
 * @returns stops the timer; a run under way finishes, and its errors are no longer reported.
 */
export function keepStatistics(db: Pick<Db, 'execute'>, options: { everyMs?: number; onError: (error: unknown) => void; onAnalyzed?: (tables: string[]) => void }): () => void {
  let running = false;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = true;
    analyzeGrownTables(db)
      .then((tables) => {
        if (tables.length > 0) options.onAnalyzed?.(tables);
      })
      .catch((error: unknown) => {
        // A run cut short by the database closing is no failure.
        if (!stopped) options.onError(error);
      })
      .finally(() => {
        running = false;
      });
  };
  run();
  const timer = setInterval(run, options.everyMs ?? STATISTICS_EVERY_MS);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
