/**
 * What the live door's counter triggers on `check_ins` cost a write (docs/decisions/127, 132):
 * the same writes with the triggers swapped in the database, the variants taking turns so that the
 * shared machine's load falls on each alike.
 *
 * - `none`: no counter trigger on check_ins (the check-in alone);
 * - `arrivals-row`: decision 127's row triggers keeping the arrivals alone (main before 132), their
 *   function and triggers as `*_check_in_arrivals_triggers.sql` made them;
 * - `arrivals-row+types-statement`: those row triggers for the arrivals, and decision 132's
 *   statement function with its arrivals part cut out for the checked-in tickets per type;
 * - `counts-statement`: decision 132's statement triggers keeping the arrivals and the checked-in
 *   tickets per type in one call (`*_check_in_type_counts_triggers.sql`), what the server runs now.
 *
 * Per variant and round: a bulk load of `BENCH_TRIGGERS_TICKETS` check-ins on each of three days (three
 * INSERT … SELECT statements, as test/pglite-statistics.test.ts), then 1,000 single-row check-ins
 * and 1,000 undos, one autocommitted statement each (as verify's write). check_ins is emptied
 * (TRUNCATE, which the triggers follow) between runs. Embedded PGlite (not durable at commit, so
 * the triggers' work is not hidden behind the disk) unless DATABASE_URL names a PostgreSQL.
 *
 * Run: `npx tsx bench/count-triggers.bench.ts` in apps/server, or under
 * `npx tsx ../../scripts/with-postgres.ts -- …` for PostgreSQL. BENCH_TRIGGERS_ROUNDS (default 2),
 * BENCH_TRIGGERS_TICKETS (default 10,000), BENCH_TRIGGERS_VARIANTS (default all, comma-separated).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { type DatabaseHandle, MIGRATIONS_FOLDER, openDatabase } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows.ts';
import { bulkLoadCheckIns, bulkLoadTickets, benchNames, createBenchEvent, createBenchOrganization } from '../test/helpers/bulk-load.ts';

const TICKETS = Number(process.env.BENCH_TRIGGERS_TICKETS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_TRIGGERS_ROUNDS ?? 2);
const SINGLES = 1_000;

const ALL_VARIANTS = ['none', 'arrivals-row', 'arrivals-row+types-statement', 'counts-statement'] as const;
type Variant = (typeof ALL_VARIANTS)[number];
/** The variants of BENCH_TRIGGERS_VARIANTS (comma-separated), default all. */
const VARIANTS = ALL_VARIANTS.filter((variant) => (process.env.BENCH_TRIGGERS_VARIANTS?.split(',') ?? ALL_VARIANTS).includes(variant));

/** A migration's statements by the name of the trigger or function they create. */
async function migrationStatements(suffix: string): Promise<Map<string, string>> {
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
  const tag = journal.entries.find((entry) => entry.tag.endsWith(suffix))?.tag;
  if (!tag) throw new Error(`no migration *${suffix}.sql`);
  const statements = new Map<string, string>();
  for (const statement of (await readFile(path.join(MIGRATIONS_FOLDER, `${tag}.sql`), 'utf8')).split('--> statement-breakpoint')) {
    const trigger = /CREATE TRIGGER (\w+) AFTER (INSERT|UPDATE|DELETE) ON check_ins[\s\S]*?;/.exec(statement);
    if (trigger?.[1]) statements.set(trigger[1], trigger[0]);
    const fn = /CREATE FUNCTION (\w+)\(\) RETURNS trigger[\s\S]*\$\$;/.exec(statement);
    if (fn?.[1]) statements.set(fn[1], fn[0].replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'));
  }
  return statements;
}

async function useVariant(handle: DatabaseHandle, variant: Variant, rowTriggers: Map<string, string>, statementTriggers: Map<string, string>): Promise<void> {
  const names = ['check_in_arrivals_insert', 'check_in_arrivals_update', 'check_in_arrivals_delete', 'check_in_counts_insert', 'check_in_counts_update', 'check_in_counts_delete'];
  for (const name of names) await handle.db.execute(sql.raw(`DROP TRIGGER IF EXISTS ${name} ON check_ins`));
  const run = async (statements: Map<string, string>, prefix: string, rename?: (text: string) => string) => {
    for (const [name, statement] of statements) {
      if (name.startsWith(prefix) && name !== 'check_in_arrivals_truncate') await handle.db.execute(sql.raw(rename ? rename(statement) : statement));
    }
  };
  if (variant === 'arrivals-row' || variant === 'arrivals-row+types-statement') await run(rowTriggers, 'check_in_arrivals_');
  if (variant === 'counts-statement') await run(statementTriggers, 'check_in_counts_');
  if (variant === 'arrivals-row+types-statement') {
    // The statement function without its arrivals part, under a name of its own.
    const cut = (text: string) =>
      text.replace(/ {2}-- Arrivals \(check_in_arrivals[\s\S]*?(?= {2}-- Checked in per ticket type)/, '').replaceAll('check_in_counts_apply', 'bench_check_in_type_counts_apply');
    const source = statementTriggers.get('check_in_counts_apply') ?? '';
    if (!cut(source).includes('bench_check_in_type_counts_apply') || cut(source).includes('INTO check_in_arrivals')) throw new Error('the statement function changed: cannot cut its arrivals part');
    await handle.db.execute(sql.raw(cut(source)));
    await run(statementTriggers, 'check_in_counts_', (text) => text.replaceAll('check_in_counts_apply', 'bench_check_in_type_counts_apply'));
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
    const rowTriggers = await migrationStatements('_check_in_arrivals_triggers');
    const statementTriggers = await migrationStatements('_check_in_type_counts_triggers');
    const organization = await createBenchOrganization(handle);
    const eventId = await createBenchEvent(handle, organization.organizationId, 'Trigger Bench');
    await bulkLoadTickets(handle, { eventId, prefix: 'TB', count: TICKETS, names: benchNames() });
    const ticketIds = rowsOf<{ id: string }>(await handle.db.execute(sql`select id from tickets where event_id = ${eventId}::uuid order by code limit ${SINGLES}`)).map((row) => row.id);
    const [list] = rowsOf<{ id: string }>(await handle.db.execute(sql`select id from check_in_lists where event_id = ${eventId}::uuid order by position limit 1`));
    const listId = list?.id ?? '';
    await handle.db.execute(sql`analyze`);
    console.log(`${databaseUrl ? 'PostgreSQL' : 'PGlite (not durable)'}, ${TICKETS.toLocaleString('en')} tickets, ${ROUNDS} rounds, load average ${load1()}`);
    console.log('| round | variant | bulk 3 × ' + TICKETS.toLocaleString('en') + ' s | µs/row | single insert µs p50 / mean | single undo µs p50 / mean | load |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const variant of VARIANTS) {
        await handle.db.execute(sql`truncate check_ins cascade`);
        await useVariant(handle, variant, rowTriggers, statementTriggers);
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
