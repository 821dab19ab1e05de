/**
 * What the live door's counter triggers on `check_ins` cost a write (docs/decisions/127, 132):
 * the same writes with the triggers swapped in the database, the variants taking turns so that the
 * shared machine's load falls on each alike.
 *
 * - `none`: no counter trigger on check_ins (the check-in alone);
 * - `arrivals-row`: the arrivals row triggers of decision 127 alone (main before 132);
 * - `arrivals-row+types`: those and the statement triggers of the per-type counts;
 * - `arrivals-statement+types`: arrivals by a statement trigger with transition tables (one grouped
 *   upsert per statement) and the per-type counts.
 *
 * Per variant and round: a bulk load of `BENCH_TRIGGERS_TICKETS` check-ins on each of three days (three
 * INSERT … SELECT statements, as test/pglite-statistics.test.ts), then 1,000 single-row check-ins
 * and 1,000 undos, one autocommitted statement each (as verify's write). check_ins is emptied
 * (TRUNCATE, which the triggers follow) between rounds. Embedded PGlite (not durable at commit, so
 * the trigger's work is not hidden behind the disk) unless DATABASE_URL names a PostgreSQL.
 *
 * Run: `npx tsx bench/count-triggers.bench.ts` in apps/server, or under
 * `npx tsx ../../scripts/with-postgres.ts -- …` for PostgreSQL. BENCH_TRIGGERS_ROUNDS (default 2).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { type DatabaseHandle, MIGRATIONS_FOLDER, openDatabase } from '../src/db/client.ts';
import { bulkLoadCheckIns, bulkLoadTickets, benchNames, createBenchEvent, createBenchOrganization } from '../test/helpers/bulk-load.ts';

const TICKETS = Number(process.env.BENCH_TRIGGERS_TICKETS ?? 40_000);
const ROUNDS = Number(process.env.BENCH_TRIGGERS_ROUNDS ?? 2);
const SINGLES = 1_000;

const VARIANTS = ['none', 'arrivals-row', 'arrivals-row+types', 'arrivals-statement+types'] as const;
type Variant = (typeof VARIANTS)[number];

/** Arrivals kept by statement triggers with transition tables: one grouped upsert per statement. */
const ARRIVALS_STATEMENT_FUNCTION = `
CREATE OR REPLACE FUNCTION bench_check_in_arrivals_statement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO check_in_arrivals AS a (event_id, day, check_in_list_id, slot_start, arrivals)
    SELECT event_id, day, check_in_list_id, date_bin('5 minutes'::interval, checked_in_at, timestamptz '2000-01-01T00:00:00Z'), count(*)::integer
    FROM new_rows WHERE undone_at IS NULL GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (event_id, day, check_in_list_id, slot_start) DO UPDATE SET arrivals = a.arrivals + excluded.arrivals;
  ELSIF TG_OP = 'UPDATE' THEN
    WITH changes AS (
      SELECT event_id, day, check_in_list_id, slot_start, sum(delta)::integer AS delta FROM (
        SELECT event_id, day, check_in_list_id, date_bin('5 minutes'::interval, checked_in_at, timestamptz '2000-01-01T00:00:00Z') AS slot_start, 1 AS delta FROM new_rows WHERE undone_at IS NULL
        UNION ALL
        SELECT event_id, day, check_in_list_id, date_bin('5 minutes'::interval, checked_in_at, timestamptz '2000-01-01T00:00:00Z'), -1 FROM old_rows WHERE undone_at IS NULL
      ) AS counted GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0
    ), added AS (
      INSERT INTO check_in_arrivals AS a (event_id, day, check_in_list_id, slot_start, arrivals)
      SELECT event_id, day, check_in_list_id, slot_start, delta FROM changes WHERE delta > 0 ORDER BY 1, 2, 3, 4
      ON CONFLICT (event_id, day, check_in_list_id, slot_start) DO UPDATE SET arrivals = a.arrivals + excluded.arrivals
    )
    UPDATE check_in_arrivals AS a SET arrivals = a.arrivals + changes.delta FROM changes
    WHERE changes.delta < 0 AND a.event_id = changes.event_id AND a.day = changes.day AND a.check_in_list_id = changes.check_in_list_id AND a.slot_start = changes.slot_start;
  ELSE
    UPDATE check_in_arrivals AS a SET arrivals = a.arrivals - gone.n
    FROM (SELECT event_id, day, check_in_list_id, date_bin('5 minutes'::interval, checked_in_at, timestamptz '2000-01-01T00:00:00Z') AS slot_start, count(*)::integer AS n
          FROM old_rows WHERE undone_at IS NULL GROUP BY 1, 2, 3, 4) AS gone
    WHERE a.event_id = gone.event_id AND a.day = gone.day AND a.check_in_list_id = gone.check_in_list_id AND a.slot_start = gone.slot_start;
  END IF;
  RETURN NULL;
END
$$`;

/** The CREATE TRIGGER statements of the migrations, by trigger name, to put them back. */
async function migrationTriggers(): Promise<Map<string, string>> {
  const triggers = new Map<string, string>();
  for (const file of ['_check_in_arrivals_triggers.sql', '_check_in_type_counts_triggers.sql']) {
    const journal = JSON.parse(await readFile(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
    const tag = journal.entries.find((entry) => `${entry.tag}.sql`.endsWith(file))?.tag;
    if (!tag) throw new Error(`no migration *${file}`);
    const text = await readFile(path.join(MIGRATIONS_FOLDER, `${tag}.sql`), 'utf8');
    for (const statement of text.split('--> statement-breakpoint')) {
      const match = /CREATE TRIGGER (\w+) AFTER (INSERT|UPDATE|DELETE) ON check_ins[\s\S]*?;/.exec(statement);
      if (match?.[1]) triggers.set(match[1], match[0]);
    }
  }
  return triggers;
}

async function useVariant(handle: DatabaseHandle, variant: Variant, triggers: Map<string, string>): Promise<void> {
  for (const name of [...triggers.keys(), 'bench_arrivals_insert', 'bench_arrivals_update', 'bench_arrivals_delete']) {
    await handle.db.execute(sql.raw(`DROP TRIGGER IF EXISTS ${name} ON check_ins`));
  }
  const wanted = [...triggers.entries()].filter(([name]) =>
    variant === 'arrivals-row' ? name.startsWith('check_in_arrivals_') : variant === 'arrivals-row+types' ? true : variant === 'arrivals-statement+types' ? name.startsWith('check_in_type_counts_') : false,
  );
  for (const [, statement] of wanted) await handle.db.execute(sql.raw(statement));
  if (variant === 'arrivals-statement+types') {
    await handle.db.execute(sql.raw(ARRIVALS_STATEMENT_FUNCTION));
    await handle.db.execute(sql.raw(`CREATE TRIGGER bench_arrivals_insert AFTER INSERT ON check_ins REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bench_check_in_arrivals_statement()`));
    await handle.db.execute(sql.raw(`CREATE TRIGGER bench_arrivals_update AFTER UPDATE ON check_ins REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bench_check_in_arrivals_statement()`));
    await handle.db.execute(sql.raw(`CREATE TRIGGER bench_arrivals_delete AFTER DELETE ON check_ins REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bench_check_in_arrivals_statement()`));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const mean = (values: number[]) => values.reduce((total, value) => total + value, 0) / Math.max(1, values.length);
const load1 = () => loadavg()[0]?.toFixed(1) ?? '?';

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const dataDir = databaseUrl ? undefined : await mkdtemp(path.join(tmpdir(), 'gatecheck-count-triggers-'));
  const handle = databaseUrl ? await openDatabase({ databaseUrl, poolSize: 1 }) : await openDatabase({ pgliteDir: path.join(dataDir ?? '', 'pgdata'), isDurable: false });
  try {
    const triggers = await migrationTriggers();
    const organization = await createBenchOrganization(handle);
    const eventId = await createBenchEvent(handle, organization.organizationId, 'Trigger Bench');
    await bulkLoadTickets(handle, { eventId, prefix: 'TB', count: TICKETS, names: benchNames() });
    const ticketIds = (await handle.db.execute(sql`select id from tickets where event_id = ${eventId}::uuid order by code limit ${SINGLES}`)).rows.map((row) => String(row.id));
    const [list] = (await handle.db.execute(sql`select id from check_in_lists where event_id = ${eventId}::uuid order by position limit 1`)).rows;
    const listId = String(list?.id);
    await handle.db.execute(sql`analyze`);
    console.log(`${databaseUrl ? 'PostgreSQL' : 'PGlite (not durable)'}, ${TICKETS.toLocaleString('en')} tickets, ${ROUNDS} rounds, load average ${load1()}`);
    console.log('| round | variant | bulk 3 × ' + TICKETS.toLocaleString('en') + ' s | µs/row | single insert µs p50 / mean | single undo µs p50 / mean | load |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const variant of VARIANTS) {
        await handle.db.execute(sql`truncate check_ins cascade`);
        await useVariant(handle, variant, triggers);
        const bulkStart = performance.now();
        for (const day of [5, 6, 7]) await bulkLoadCheckIns(handle, { eventId, day, staffUserId: organization.adminUserId, every: 1 });
        const bulkMs = performance.now() - bulkStart;
        const insertTimes: number[] = [];
        for (const ticketId of ticketIds) {
          const start = performance.now();
          await handle.db.execute(sql`insert into check_ins (event_id, ticket_id, day, check_in_list_id, staff_user_id) values (${eventId}::uuid, ${ticketId}::uuid, 1, ${listId}::uuid, ${organization.adminUserId}::uuid)`);
          insertTimes.push(performance.now() - start);
        }
        const undoTimes: number[] = [];
        for (const ticketId of ticketIds) {
          const start = performance.now();
          await handle.db.execute(sql`update check_ins set undone_at = now() where event_id = ${eventId}::uuid and ticket_id = ${ticketId}::uuid and day = 1 and undone_at is null`);
          undoTimes.push(performance.now() - start);
        }
        const insertUs = `${(median(insertTimes) * 1000).toFixed(0)} / ${(mean(insertTimes) * 1000).toFixed(0)}`;
        const undoUs = `${(median(undoTimes) * 1000).toFixed(0)} / ${(mean(undoTimes) * 1000).toFixed(0)}`;
        console.log(`| ${round} | ${variant} | ${(bulkMs / 1000).toFixed(1)} | ${((bulkMs * 1000) / (3 * TICKETS)).toFixed(0)} | ${insertUs} | ${undoUs} | ${load1()} |`);
      }
    }
  } finally {
    await handle.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
