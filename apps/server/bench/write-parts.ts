/**
 * What each part of verify's plain first-entry write costs: `npx tsx bench/write-parts.ts` from
 * apps/server, in process on PGlite, or on PostgreSQL with `DATABASE_URL` set (one connection)
 * (docs/performance.md, 'Where an approval's time goes, before issue 26 and now', and 'The counters'
 * short path for first entries').
 *
 * On bench:verify's door (its demo data, durable PGlite or the database at `DATABASE_URL`), ROUNDS
 * rounds (`WRITE_PARTS_ROUNDS`, default 120) in which each variant writes one batch of BATCH first
 * entries (`WRITE_PARTS_BATCH`, default 32) through services/check-ins' own `recordScannedCheckIn`
 * (coalesced into one statement, as a busy door sends them), the variants taking turns (the order
 * turned round every other round) so that the shared machine's load falls on each alike:
 * - `as is`: the write as the server runs it;
 * - each name in `WRITE_PARTS_OFF` (comma-separated; default `counts,denials`): the same with one
 *   statement trigger disabled for that batch — `counts`: check_ins' `check_in_counts_insert`
 *   (arrivals and per-type counts, decisions 127/132), `denials`: scan_log's `denial_counts_insert`
 *   (decision 149) — or `index:<name>`, that index dropped for the batch and made again after it.
 *   Not a rule change: a measure of what the part costs, re-enabled at once. Both are DDL, which
 *   makes the next statements be planned afresh, in whichever variant comes next;
 * - `b`, with `WRITE_PARTS_B_SQL` naming a SQL file (statements separated by `--> statement-breakpoint`)
 *   that installs a candidate behind the setting `bench.variant` (e.g. a second trigger `WHEN
 *   (current_setting('bench.variant', true) = 'b')`, the first one made `IS DISTINCT FROM 'b'`):
 *   the variant sets it for its batch, no DDL between batches.
 * `WRITE_PARTS_SQL` names a SQL file run once before the rounds (a candidate for all variants).
 * Per variant: the medians of CPU time of the process (PGlite runs in it; what the load disturbs
 * least), wall time and WAL bytes per batch, each variant's CPU against `as is`, and on PostgreSQL
 * the median CPU time of the PostgreSQL server's processes per batch (/proc/<pid>/schedstat).
 * It prints the rounds' WAL positions for `pg_waldump --stats=record`.
 * Statistics are refreshed every 25 rounds (`analyzeGrownTables`). Timings never fail it; it exits
 * 1 when a batch records fewer check-ins than it was given.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.ts';
import { analyzeGrownTables } from '../src/db/pglite-statistics.ts';
import { rowsOf } from '../src/db/rows.ts';
import { tickets } from '../src/db/schema.ts';
import { DEMO_TODAY_DAY_NUMBER } from '../src/db/seed.ts';
import { recordScannedCheckIn, type ScannedCheckIn } from '../src/services/check-ins/write.ts';
import { prepareDoorDatabase } from '../test/helpers/door-database.ts';
import { firstCheckInListId } from '../test/helpers/fixtures.ts';
import { codesOf } from './verify-references.ts';
import { wholeNumberSetting } from './env-setting.ts';

const BATCH = wholeNumberSetting('WRITE_PARTS_BATCH', 32);
const ROUNDS = wholeNumberSetting('WRITE_PARTS_ROUNDS', 120);
/** The triggers a variant switches off: its name, the table and the trigger. */
const PARTS: Record<string, { table: string; trigger: string }> = {
  counts: { table: 'check_ins', trigger: 'check_in_counts_insert' },
  denials: { table: 'scan_log', trigger: 'denial_counts_insert' },
};
const OFF = (process.env.WRITE_PARTS_OFF ?? 'counts,denials').split(',').filter(Boolean);
for (const name of OFF) if (!PARTS[name] && !name.startsWith('index:')) throw new Error(`WRITE_PARTS_OFF: no part "${name}" (known: ${Object.keys(PARTS).join(', ')}, index:<name>)`);
const DATABASE_URL = process.env.DATABASE_URL;

/**
 * CPU time (ms) used so far by the PostgreSQL server whose postmaster is `postmasterPid`: the
 * postmaster and its children, from /proc/<pid>/schedstat (time on a CPU in ns; /proc/<pid>/stat's
 * 10 ms ticks are too coarse for one batch). A backend that has exited is no longer counted: the
 * pool keeps its connections through the rounds.
 */
function postgresCpuMs(postmasterPid: number): number {
  let nanoseconds = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (Number(entry) === postmasterPid || parent === postmasterPid) nanoseconds += Number(readFileSync(`/proc/${entry}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      continue;
    }
  }
  return nanoseconds / 1e6;
}
// A candidate to measure against the code as it is, in the same rounds: WRITE_PARTS_B_SQL names a SQL
// file that installs it behind the setting `bench.variant` (e.g. a second statement trigger `WHEN
// (current_setting('bench.variant', true) = 'b')` and the first one made `<> 'b'`); variant `b` sets
// it for its batch. A setting, not DDL: no variant invalidates the other's plans.
const B_SQL = process.env.WRITE_PARTS_B_SQL;
const VARIANTS = ['as is', ...OFF.map((name) => `no ${name}`), ...(B_SQL ? ['b'] : [])];
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-write-parts-'));
const pgliteDir = path.join(dataDir, 'pgdata');
// One connection on PostgreSQL, so that variant b's setting is the writes' (PGlite has one).
const open = () => (DATABASE_URL ? openDatabase({ databaseUrl: DATABASE_URL, poolSize: 1 }) : openDatabase({ pgliteDir, isDurable: true }));
const door = await prepareDoorDatabase(open, codesOf('WP-', BATCH * ROUNDS * VARIANTS.length));
const handle = await open();
let failed = false;
try {
  const { db } = handle;
  // A candidate change to measure against the schema as migrated (a run each, alternately).
  // Its statements separated as in a migration (`--> statement-breakpoint`): PGlite runs one at a time.
  const runFile = async (file: string) => {
    for (const statement of (await readFile(file, 'utf8')).split('--> statement-breakpoint')) if (statement.trim()) await db.execute(sql.raw(statement));
  };
  if (process.env.WRITE_PARTS_SQL) await runFile(process.env.WRITE_PARTS_SQL);
  const unused = await db.select({ id: tickets.id, code: tickets.code }).from(tickets).where(sql`${tickets.code} like 'WP-%'`).orderBy(tickets.code);
  const listId = await firstCheckInListId(db, door.eventId);
  let next = 0;
  const entry = (): ScannedCheckIn => {
    const ticket = unused[next++];
    if (!ticket) throw new Error('out of tickets');
    return { eventId: door.eventId, ticketId: ticket.id, day: DEMO_TODAY_DAY_NUMBER, checkInListId: listId, userId: door.userId, scanId: randomUUID(), code: ticket.code };
  };
  // An index switched off is dropped before its variant's batch and made again after it (the tables
  // are small: bench:verify's door plus the batches written).
  const indexDefinitions = new Map<string, string>();
  for (const name of OFF.filter((name) => name.startsWith('index:'))) {
    const [row] = rowsOf<{ definition: string | null }>(await db.execute(sql`select pg_get_indexdef(to_regclass(${name.slice('index:'.length)})) as definition`));
    if (!row?.definition) throw new Error(`WRITE_PARTS_OFF: no index "${name}"`);
    indexDefinitions.set(name, row.definition);
  }
  if (B_SQL) await runFile(B_SQL);
  const toggle = async (variant: string, isEnabled: boolean) => {
    if (variant === 'b') await db.execute(sql.raw(isEnabled ? 'reset bench.variant' : "set bench.variant = 'b'"));
    const name = variant.replace(/^no /, '');
    const part = PARTS[name];
    if (part) await db.execute(sql.raw(`alter table ${part.table} ${isEnabled ? 'enable' : 'disable'} trigger ${part.trigger}`));
    const definition = indexDefinitions.get(name);
    if (definition) await db.execute(sql.raw(isEnabled ? definition : `drop index ${name.slice('index:'.length)}`));
  };
  // On PostgreSQL: the server's CPU (its postmaster's children) and WAL records beside this process's.
  let databaseCpuMs = () => 0;
  if (DATABASE_URL) {
    const [backend] = rowsOf<{ pid: number }>(await db.execute(sql`select pg_backend_pid() as pid`));
    const stat = readFileSync(`/proc/${backend?.pid}/stat`, 'utf8');
    const postmasterPid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    databaseCpuMs = () => postgresCpuMs(postmasterPid);
  }
  const dbCpu = new Map<string, number[]>(VARIANTS.map((variant) => [variant, []]));

  const walPosition = async () => Number(rowsOf<{ lsn: string }>(await db.execute(sql`select (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::text as lsn`))[0]?.lsn);
  const cpu = new Map<string, number[]>(VARIANTS.map((variant) => [variant, []]));
  const wall = new Map<string, number[]>(VARIANTS.map((variant) => [variant, []]));
  const wal = new Map<string, number[]>(VARIANTS.map((variant) => [variant, []]));
  console.log(`write-parts: ${ROUNDS} rounds of a batch of ${BATCH} first entries per variant (${VARIANTS.join(', ')}), ${DATABASE_URL ? 'PostgreSQL' : 'PGlite durable'}, load ${loadavg()[0]?.toFixed(1)}`);
  const lsnText = async () => rowsOf<{ lsn: string }>(await db.execute(sql`select pg_current_wal_insert_lsn()::text as lsn`))[0]?.lsn;
  // The rounds' WAL, for pg_waldump --start/--end (what its records are).
  const roundsStart = await lsnText();
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 25 === 0) await analyzeGrownTables(db);
    for (const variant of round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse()) {
      await toggle(variant, false);
      const keys = Array.from({ length: BATCH }, entry);
      const walBefore = await walPosition();
      const dbCpuBefore = databaseCpuMs();
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const recorded = (await Promise.all(keys.map((key) => recordScannedCheckIn(db, key)))).filter((at) => at !== null).length;
      const used = process.cpuUsage(cpuBefore);
      dbCpu.get(variant)?.push(databaseCpuMs() - dbCpuBefore);
      wall.get(variant)?.push(performance.now() - started);
      cpu.get(variant)?.push((used.user + used.system) / 1000);
      wal.get(variant)?.push((await walPosition()) - walBefore);
      await toggle(variant, true);
      if (recorded !== BATCH) {
        failed = true;
        console.error(`round ${round}: ${variant} recorded ${recorded} of ${BATCH}`);
      }
    }
  }
  console.log(`the rounds' WAL: ${roundsStart} to ${await lsnText()}`);
  const base = median(cpu.get('as is') ?? []);
  console.table(
    VARIANTS.map((variant) => ({
      variant,
      'CPU ms per batch': median(cpu.get(variant) ?? []).toFixed(2),
      'CPU / as is': (median(cpu.get(variant) ?? []) / base).toFixed(2),
      'wall ms per batch': median(wall.get(variant) ?? []).toFixed(2),
      'WAL bytes per batch': Math.round(median(wal.get(variant) ?? [])),
      ...(DATABASE_URL
        ? {
            'PostgreSQL CPU ms per batch': median(dbCpu.get(variant) ?? []).toFixed(2),
            'PostgreSQL CPU / as is': (median(dbCpu.get(variant) ?? []) / median(dbCpu.get('as is') ?? [])).toFixed(2),
          }
        : {}),
    })),
  );
  console.log(`load at the end ${loadavg()[0]?.toFixed(1)}`);
} finally {
  await handle.close();
  await rm(dataDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
