/**
 * `npm run bench:scale` (issue 13): what a 1,000,000-ticket event does to the door, on embedded
 * PGlite and on a throwaway PostgreSQL, each figure against the same measure at 1,000 in the same
 * run (the machine is shared: only ratios from one run compare).
 *
 * For each database, in a process of its own (PostgreSQL: a cluster started and stopped around it
 * by scripts/with-postgres.ts):
 * 1. Load: a small event of SMALL tickets and a large one of LARGE, with search terms, 4 ticket
 *    types and a door history over 3 days and 4 lists (CHECK_IN_PLAN: about 1,100,000 check-ins at
 *    1,000,000 tickets, with undos, exits and the scan log they leave), bulk-loaded set-wise
 *    (test/helpers/bulk-load.ts; on PostgreSQL through a connection of its own, without the
 *    server pool's read timeout; check-ins in slices of HISTORY_SLICE tickets), then VACUUM ANALYZE
 *    (as autovacuum would on PostgreSQL).
 * 2. Verify latency: `POST /api/tickets/verify` through the real app (`buildApp`, `app.inject`, one
 *    request at a time; PGlite durable at commit, as the server runs it), the small and the large
 *    event taking turns: approvals of distinct fresh tickets, repeated scans (already checked in)
 *    and unknown codes. Median, p95 and p99 (ms) per event; the large / small ratio of medians
 *    (goal ≤ 1.5). Also the live counts (`GET …/counts`), which the scanner refetches after every
 *    approval: two index lookups since docs/decisions/062 (docs/performance.md).
 * 3. Query plans: the statements the hot paths send (verify, counts, attendee search, the live door,
 *    door list and its cursor query), captured from real requests on the small event, EXPLAIN
 *    ANALYZEd on the large one (test/helpers/query-plans.ts): the scans, estimated and actual rows,
 *    time; every statement of the live door's read printed with its plan in full. A sequential
 *    scan of tickets, check_ins or scan_log in the live door's statements fails the run (issue 31).
 * 4. `tickets import`: the admin CLI in a child process importing a CSV of IMPORT_SMALL rows, then
 *    one of IMPORT_LARGE rows, into empty events: wall time, rows/s and the child's peak RSS
 *    (`process.resourceUsage().maxRSS`). A streaming import keeps the peak flat.
 *
 * Environment: BENCH_SCALE_TICKETS (default 1,000,000), BENCH_SCALE_IMPORT_ROWS (1,000,000),
 * BENCH_SCALE_DATABASES (`pglite,postgres`), BENCH_SCALE_ONLY (`counts`: the live counts and plans only), BENCH_SCALE_IMPORT_BATCH (the import's `--batch-size`;
 * default the CLI's 500). Prints one `BENCH_RESULT {json}` line for
 * scripts/bench.ts. Never fails on a timing; exits 1 when a part fails (a wrong verdict, an import
 * that did not import every row).
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { apiPaths, checkInCountsPath, liveDoorPaths, VerifyTicketResponse } from '@gatecheck/contract';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import * as schema from '../src/db/schema.ts';
import { listCheckInLists } from '../src/services/check-in-lists.ts';
import type { FastifyInstance } from 'fastify';
import {
  addBenchCheckInLists,
  addBenchEventDays,
  type BenchNames,
  benchNames,
  type BenchOrganization,
  benchTicketCode,
  bulkLoadCheckIns,
  bulkLoadScanLog,
  bulkLoadTickets,
  bulkMarkCheckIns,
  type BulkTarget,
  createBenchEvent,
  createBenchOrganization,
} from '../test/helpers/bulk-load.ts';
import {
  describeScans,
  distinctStatements,
  explainStatement,
  type PlanSummary,
  recordHotPaths,
  shortSql,
  StatementRecorder,
} from '../test/helpers/query-plans.ts';
import { api, bearer } from '../test/helpers/test-app.ts';

/**
 * The door history loaded into each event (the small and the large alike): 3 days, 4 check-in
 * lists (the event's first, 'All tickets', and EXTRA_LISTS, the last with re-entry), 4 ticket
 * types. Ticket n is checked in at a list on a day when n % CHECK_IN_EVERY is one of the list's
 * remainders that day: day 1 (the day measured) 70% of the tickets' check-ins (60% of the tickets,
 * the first list's also at the terrace), day 2 30%, day 3 10%: about 1,100,000 check-ins at
 * 1,000,000 tickets. At the first list on day 1 only n % 10 = 0, never undone (verify's fresh and
 * repeated tickets are chosen by that rule); elsewhere a share undone and, at the terrace, exited.
 */
const DAYS = 3;
const EXTRA_LISTS = [{ name: 'North gate' }, { name: 'South gate' }, { name: 'Terrace', reentry: true }] as const;
const TICKET_TYPES = [
  { name: 'General Admission', percent: 70 },
  { name: 'Weekend Pass', percent: 20 },
  { name: 'Student', percent: 7 },
  { name: 'VIP', percent: 3 },
];
/** Per day (index 0: day 1): the remainders of n % CHECK_IN_EVERY checked in at each list (index 0: the event's first). */
const CHECK_IN_PLAN: ReadonlyArray<ReadonlyArray<readonly number[]>> = [
  [[0], [1, 2], [3, 4], [0, 5]],
  [[0], [1], [2], []],
  [[], [0], [], []],
];
/** Check-ins marked after the load: undone at the North gate, exited at the terrace (n % every = remainder). */
/** Tickets per slice of the door history's writes (loadDoorHistory). */
const HISTORY_SLICE = 10_000;
const MARKS = [
  { day: 1, list: 1, every: 50, remainder: 1, as: 'undone' },
  { day: 2, list: 1, every: 50, remainder: 2, as: 'undone' },
  { day: 1, list: 3, every: 20, remainder: 5, as: 'exited' },
  { day: 2, list: 3, every: 20, remainder: 5, as: 'exited' },
] as const;
const LARGE = Number(process.env.BENCH_SCALE_TICKETS ?? 1_000_000);
const SMALL = 1_000;
/** The modulus of the door history's rule (CHECK_IN_PLAN); every CHECK_IN_EVERY-th ticket is checked in on day 1 at the first list. */
const CHECK_IN_EVERY = 10;
const IMPORT_LARGE = Number(process.env.BENCH_SCALE_IMPORT_ROWS ?? 1_000_000);
const IMPORT_SMALL = 1_000;
/** `--batch-size` of the import when BENCH_SCALE_IMPORT_BATCH is set (default: the CLI's own). */
const IMPORT_BATCH_ARGS = process.env.BENCH_SCALE_IMPORT_BATCH ? ['--batch-size', process.env.BENCH_SCALE_IMPORT_BATCH] : [];
const WARMUP = 30;
const RUNS = 300;
const DAY = 1;
/** Checked-in tickets scanned again, in turn. */
const REPEATED_TICKETS = 50;
/**
 * BENCH_SCALE_ONLY=counts: load, then measure only the live counts and the query plans (no verify
 * latency, no imports): a few minutes instead of about 20.
 */
const ONLY_COUNTS = process.env.BENCH_SCALE_ONLY === 'counts';
const DATABASES = (process.env.BENCH_SCALE_DATABASES ?? 'pglite,postgres').split(',').map((name) => name.trim());
const SERVER_DIR = path.resolve(import.meta.dirname, '..');
const REPO_ROOT = path.resolve(SERVER_DIR, '../..');

type DatabaseKind = 'pglite' | 'postgres';

/** Verify latency of one kind of scan on the small and the large event (ms). */
interface VerifyFigures {
  scan: string;
  small: { p50: number; p95: number; p99: number };
  large: { p50: number; p95: number; p99: number };
  /** large p50 / small p50. */
  ratio: number;
}

/** One import run. */
interface ImportFigures {
  rows: number;
  imported: number;
  seconds: number;
  rowsPerSecond: number;
  maxRssMb: number;
}

/** What one database's part measured. */
interface PartResult {
  kind: DatabaseKind;
  loadSeconds: number;
  /** The large event's check-ins (every day and list, undone ones included). */
  largeCheckIns: number;
  verify: VerifyFigures[];
  /** `GET …/counts` of day 1, which the scanner refetches after every approval. */
  counts: VerifyFigures;
  /** `GET …/days/1/live`, which the live door page asks every 2 s (docs/decisions/117). */
  live: VerifyFigures;
  plans: PlanSummary[];
  /** Every distinct statement of one `GET …/live`, EXPLAIN ANALYZEd at the large event. */
  livePlans: PlanSummary[];
  imports: ImportFigures[];
  problems: string[];
}

const load1 = () => (loadavg()[0] ?? 0).toFixed(1);

// ---------------------------------------------------------------------------------------------
// One database (a child process: `--part pglite|postgres`)
// ---------------------------------------------------------------------------------------------

async function runPart(kind: DatabaseKind): Promise<PartResult> {
  const workDir = await mkdtemp(path.join(tmpdir(), `gatecheck-bench-scale-${kind}-`));
  const recorder = new StatementRecorder();
  const databaseUrl = process.env.DATABASE_URL ?? '';
  if (kind === 'postgres' && !databaseUrl) throw new Error('the postgres part needs DATABASE_URL (run through scripts/with-postgres.ts)');
  const open = (isDurable: boolean) =>
    kind === 'postgres'
      ? openDatabase({ databaseUrl, poolSize: 4 }, { logger: recorder })
      : openDatabase({ pgliteDir: path.join(workDir, 'pgdata'), isDurable }, { logger: recorder });
  const problems: string[] = [];
  try {
    // 1. Load (PGlite without syncs: loading is not measured). On PostgreSQL through a connection of
    // its own without the pool's read timeout (a statement writing 100,000s of rows may outlast
    // DATABASE_QUERY_TIMEOUT_MS on a busy machine); the server's pool keeps its settings.
    let handle = await open(false);
    const loader = kind === 'postgres' ? await ownConnection(databaseUrl) : { db: handle.db, close: async () => undefined };
    let loadSeconds: number;
    let largeCheckIns = 0;
    let organization: BenchOrganization;
    let smallId: string;
    let largeId: string;
    let importIds: { small: string; large: string };
    const names = benchNames();
    try {
      organization = await createBenchOrganization(handle);
      smallId = await createBenchEvent(handle, organization.organizationId, 'Scale Small');
      largeId = await createBenchEvent(handle, organization.organizationId, 'Scale Large');
      importIds = {
        small: await createBenchEvent(handle, organization.organizationId, 'Import Small'),
        large: await createBenchEvent(handle, organization.organizationId, 'Import Large'),
      };
      const loadStarted = performance.now();
      for (const [eventId, prefix, count] of [[smallId, 'SM', SMALL], [largeId, 'LG', LARGE]] as const) {
        await bulkLoadTickets(loader, { eventId, prefix, count, names, ticketTypes: TICKET_TYPES, onProgress: (loaded) => process.stdout.write(`\r  ${prefix}: ${loaded.toLocaleString('en')} tickets`) });
        const history = await loadDoorHistory(loader, { eventId, prefix, count, staffUserId: organization.adminUserId });
        if (eventId === largeId) largeCheckIns = history.checkIns;
        process.stdout.write(`, ${history.checkIns.toLocaleString('en')} check-ins over ${DAYS} days and ${EXTRA_LISTS.length + 1} lists (${history.undone.toLocaleString('en')} undone, ${history.exited.toLocaleString('en')} exited), ${history.scanLogRows.toLocaleString('en')} scan log rows (load average ${load1()})\n`);
      }
      // As autovacuum would have after the load on PostgreSQL (PGlite has none): statistics, and the
      // visibility map that lets a count be read from an index alone (docs/decisions/062).
      await loader.db.execute(sql`vacuum analyze`);
      loadSeconds = (performance.now() - loadStarted) / 1000;
    } finally {
      await loader.close();
    }
    console.log(`  loaded in ${loadSeconds.toFixed(0)} s (load average ${load1()})`);
    if (kind === 'pglite') {
      // Measure as the server runs: durable at commit (docs/decisions/026).
      await handle.close();
      handle = await open(true);
    }

    // Every live door ask reads the database (no sharing between asks): the figures time the reads.
    const config = loadConfig({ DATA_DIR: workDir, WEB_DIST_DIR: path.join(workDir, 'no-web-build'), LOG_LEVEL: 'silent', LIVE_DOOR_SHARE_MS: '0' });
    const app = await buildApp({ config, db: handle.db });
    let verify: VerifyFigures[];
    let counts: VerifyFigures;
    let live: VerifyFigures;
    let plans: PlanSummary[];
    let livePlans: PlanSummary[];
    try {
      // 2. Verify latency.
      verify = ONLY_COUNTS ? [] : await measureVerify(app, organization.token, { small: smallId, large: largeId }, problems);
      counts = await measureCounts(app, organization.token, { small: smallId, large: largeId }, problems);
      live = await measureCounts(app, organization.token, { small: smallId, large: largeId }, problems, 'live');
      // 3. Query plans: captured on the small event, explained on the large one.
      await recordHotPaths(app, recorder, {
        token: organization.token,
        eventId: smallId,
        day: DAY,
        freshCode: benchTicketCode('SM', 999),
        codesAtOnce: [995, 996, 997, 998].map((n) => benchTicketCode('SM', n)),
        searchText: 'mar',
      });
      // The small event's ids become the large one's: the event and its check-in lists, in order
      // (the check-in writes name a list; another event's list would break their foreign key).
      const smallLists = await listCheckInLists(handle.db, smallId);
      const largeLists = await listCheckInLists(handle.db, largeId);
      const replace = new Map<unknown, unknown>([[smallId, largeId], ...smallLists.map((list, index) => [list.id, largeLists[index]?.id] as const)]);
      plans = [];
      for (const statement of distinctStatements(recorder.statements)) {
        plans.push(await explainStatement(handle.db, statement, { analyze: true, replace }));
      }
      // Every statement the live door sent, also those another request sent first (the event's
      // inside-now, its lists): the page's whole read.
      livePlans = [];
      for (const statement of distinctStatements(recorder.statements.filter((entry) => entry.label === 'live door'))) {
        livePlans.push(await explainStatement(handle.db, statement, { analyze: true, replace }));
      }
      for (const plan of livePlans.filter((entry) => entry.seqScannedTables.some((table) => LIVE_DOOR_INDEXED_TABLES.has(table)))) {
        problems.push(`live door statement reads ${plan.seqScannedTables.join(', ')} whole: ${shortSql(plan.sql, 200)}`);
      }
    } finally {
      await app.close();
      await handle.close();
    }

    // 4. tickets import through the CLI, in a child process each.
    const imports: ImportFigures[] = [];
    for (const [rows, eventId] of ONLY_COUNTS ? [] : ([[IMPORT_SMALL, importIds.small], [IMPORT_LARGE, importIds.large]] as const)) {
      const figures = await measureImport(kind, workDir, databaseUrl, eventId, rows, names);
      if (figures.imported !== rows) problems.push(`import of ${rows} rows imported ${figures.imported}`);
      imports.push(figures);
    }
    return { kind, loadSeconds, largeCheckIns, verify, counts, live, plans, livePlans, imports, problems };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * Loads the door history of DAYS, EXTRA_LISTS, CHECK_IN_PLAN and MARKS into `eventId` (its tickets
 * loaded): days dated from DAYS days ago, each day's check-ins spread over 08:00–14:00 UTC.
 * Then the scan log those check-ins would have left (bulkLoadScanLog: a row per check-in, 4%
 * more denied), so the live door's scan rate reads a log of realistic size and its denials by reason
 * (kept from the log by its triggers, docs/decisions/149) count a realistic day.
 * @returns how many check-ins were written, undone and exited, and the scan log's rows.
 */
async function loadDoorHistory(loader: BulkTarget, load: { eventId: string; prefix: string; count: number; staffUserId: string }): Promise<{ checkIns: number; undone: number; exited: number; scanLogRows: number }> {
  const { eventId, staffUserId } = load;
  const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  const firstDate = new Date(today.getTime() - DAYS * 86_400_000);
  await addBenchEventDays(loader, eventId, DAYS, firstDate);
  const [firstList] = await listCheckInLists(loader.db, eventId);
  if (!firstList) throw new Error('the bench event has no check-in list');
  const listIds = [firstList.id, ...(await addBenchCheckInLists(loader, eventId, EXTRA_LISTS))];
  let checkIns = 0;
  const marked = { undone: 0, exited: 0 };
  // In slices of HISTORY_SLICE tickets: a statement of 100,000s of check-ins took the check-in
  // triggers over 20 minutes on PostgreSQL (docs/performance.md); a slice is the size of a large
  // offline upload.
  for (let from = 1; from <= load.count; from += HISTORY_SLICE) {
    const range = { prefix: load.prefix, from, to: Math.min(load.count, from + HISTORY_SLICE - 1) };
    for (const [dayIndex, lists] of CHECK_IN_PLAN.entries()) {
      for (const [listIndex, remainders] of lists.entries()) {
        if (remainders.length === 0) continue;
        const at = { from: new Date(firstDate.getTime() + dayIndex * 86_400_000 + 8 * 3_600_000), hours: 6 };
        checkIns += await bulkLoadCheckIns(loader, { eventId, day: dayIndex + 1, staffUserId, every: CHECK_IN_EVERY, remainders, listId: listIds[listIndex], at, range });
      }
    }
    for (const mark of MARKS) {
      marked[mark.as] += await bulkMarkCheckIns(loader, { eventId, day: mark.day, listId: listIds[mark.list] ?? '', every: mark.every, remainder: mark.remainder, as: mark.as, byUserId: staffUserId, range });
    }
    process.stdout.write(`\r  ${load.prefix}: ${load.count.toLocaleString('en')} tickets, ${checkIns.toLocaleString('en')} check-ins (load average ${load1()})`);
  }
  const scanLogRows = await bulkLoadScanLog(loader, { eventId, deniedEvery: 25 });
  return { checkIns, ...marked, scanLogRows };
}

/** A Drizzle database over one PostgreSQL connection of its own (no pool, no read timeout), for the bulk load. */
async function ownConnection(databaseUrl: string): Promise<BulkTarget & { close(): Promise<void> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined);
  await client.connect();
  return { db: drizzlePg({ client, schema }), close: () => client.end().catch(() => undefined) };
}

/** The kinds of scan measured, and the verdict each must get. */
const SCANS = [
  { scan: 'approval (fresh ticket)', expect: (verdict: VerifyTicketResponse) => verdict.isValid },
  { scan: 'repeat (already checked in)', expect: (verdict: VerifyTicketResponse) => !verdict.isValid && verdict.reason === 'already_checked_in' },
  { scan: 'unknown code', expect: (verdict: VerifyTicketResponse) => !verdict.isValid && verdict.reason === 'not_found' },
] as const;

/**
 * Sends WARMUP + RUNS verifies of each kind to each event through `app`, one at a time, the events
 * taking turns (in alternating order). Wrong verdicts go to `problems`.
 */
async function measureVerify(app: FastifyInstance, token: string, eventIds: { small: string; large: string }, problems: string[]): Promise<VerifyFigures[]> {
  {
    // Ticket numbers: fresh ones are not multiples of CHECK_IN_EVERY, checked-in ones are. Spread
    // over the whole event (a stride through it), distinct.
    const pick = (count: number, size: number, isCheckedIn: boolean): number[] => {
      const perBlock = CHECK_IN_EVERY - 1;
      const eligible = isCheckedIn ? Math.floor(size / CHECK_IN_EVERY) : size - Math.floor(size / CHECK_IN_EVERY);
      if (eligible < count) throw new Error(`not enough tickets to pick ${count} from ${size}`);
      // The j-th (from 0) checked-in ticket number, or the j-th one that is not.
      const nth = (j: number) => (isCheckedIn ? (j + 1) * CHECK_IN_EVERY : Math.floor(j / perBlock) * CHECK_IN_EVERY + (j % perBlock) + 1);
      return Array.from({ length: count }, (_, k) => nth(Math.floor((k * eligible) / count)));
    };
    const total = WARMUP + RUNS;
    const codes = {
      small: {
        'approval (fresh ticket)': pick(total, SMALL - 1, false).map((n) => benchTicketCode('SM', n)),
        'repeat (already checked in)': pick(REPEATED_TICKETS, SMALL, true).map((n) => benchTicketCode('SM', n)),
      },
      large: {
        'approval (fresh ticket)': pick(total, LARGE - 1, false).map((n) => benchTicketCode('LG', n)),
        'repeat (already checked in)': pick(REPEATED_TICKETS, LARGE, true).map((n) => benchTicketCode('LG', n)),
      },
    };
    const figures: VerifyFigures[] = [];
    for (const kind of SCANS) {
      const times = { small: [] as number[], large: [] as number[] };
      for (let run = 0; run < total; run++) {
        const order = run % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const);
        for (const size of order) {
          const qrCode =
            kind.scan === 'unknown code'
              ? `NO-SUCH-${size}-${run}`
              : (codes[size][kind.scan][kind.scan === 'repeat (already checked in)' ? run % codes[size][kind.scan].length : run] ?? '');
          const started = performance.now();
          const response = await app.inject({
            method: 'POST',
            url: api(apiPaths.verifyTicket),
            headers: bearer(token),
            payload: { eventId: eventIds[size], qrCode, day: DAY },
          });
          const elapsed = performance.now() - started;
          const verdict = response.statusCode === 200 ? VerifyTicketResponse.safeParse(response.json()) : undefined;
          if (!verdict?.success || !kind.expect(verdict.data)) {
            problems.push(`verify ${kind.scan} on the ${size} event: ${response.statusCode} ${response.body.slice(0, 200)}`);
          }
          if (run >= WARMUP) times[size].push(elapsed);
        }
      }
      const stats = (values: number[]) => ({ p50: percentile(values, 0.5), p95: percentile(values, 0.95), p99: percentile(values, 0.99) });
      const small = stats(times.small);
      const large = stats(times.large);
      figures.push({ scan: kind.scan, small, large, ratio: large.p50 / small.p50 });
    }
    return figures;
  }
}

/** Runs of the counts measurement per event: a count at 1,000,000 tickets takes a good part of a second. */
const COUNTS_RUNS = 20;

/**
 * `GET /api/events/:id/days/1/counts` COUNTS_RUNS times per event (after 2 unrecorded), the events
 * taking turns; the scanner sends it after every approval and every 30 s. With `read` 'live', the
 * live door's `GET …/days/1/live` instead (docs/decisions/117), which a supervisor's page sends every
 * 2 s. Wrong answers go to `problems`.
 */
async function measureCounts(app: FastifyInstance, token: string, eventIds: { small: string; large: string }, problems: string[], read: 'counts' | 'live' = 'counts'): Promise<VerifyFigures> {
  const times = { small: [] as number[], large: [] as number[] };
  for (let run = 0; run < COUNTS_RUNS + 2; run++) {
    for (const size of run % 2 === 0 ? (['small', 'large'] as const) : (['large', 'small'] as const)) {
      const started = performance.now();
      const url = api(read === 'counts' ? checkInCountsPath(eventIds[size], DAY) : liveDoorPaths.live(eventIds[size], DAY));
      const response = await app.inject({ method: 'GET', url, headers: bearer(token) });
      const elapsed = performance.now() - started;
      if (response.statusCode !== 200) problems.push(`${read} on the ${size} event: ${response.statusCode} ${response.body.slice(0, 200)}`);
      if (run >= 2) times[size].push(elapsed);
    }
  }
  const stats = (values: number[]) => ({ p50: percentile(values, 0.5), p95: percentile(values, 0.95), p99: percentile(values, 0.99) });
  const small = stats(times.small);
  const large = stats(times.large);
  return { scan: read === 'counts' ? 'counts (GET, not a verify)' : 'live door (GET, not a verify)', small, large, ratio: large.p50 / small.p50 };
}

/**
 * Writes a CSV of `rows` tickets (streamed to disk), runs `tickets import` on it in a child process
 * (the admin CLI as `npm run admin` runs it) and reads its wall time, result line and peak RSS.
 */
async function measureImport(kind: DatabaseKind, workDir: string, databaseUrl: string, eventId: string, rows: number, names: BenchNames): Promise<ImportFigures> {
  const file = path.join(workDir, `import-${rows}.csv`);
  await writeCsv(file, rows, names);
  const rssFile = path.join(workDir, `import-${rows}.rss`);
  const started = performance.now();
  const output = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', './bench/report-max-rss.ts', 'src/cli/admin.ts', 'tickets', 'import', '--event', eventId, ...IMPORT_BATCH_ARGS, file],
      {
        cwd: SERVER_DIR,
        env: { ...process.env, DATA_DIR: workDir, DATABASE_URL: kind === 'postgres' ? databaseUrl : '', LOG_LEVEL: 'warn', BENCH_MAX_RSS_FILE: rssFile },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
  const seconds = (performance.now() - started) / 1000;
  const imported = Number(/Imported (\d+) of (\d+) rows/.exec(output.stdout)?.[1] ?? -1);
  if (output.code !== 0) console.error(`  tickets import of ${rows} rows exited ${output.code}:\n${output.stdout.slice(0, 2000)}${output.stderr.slice(0, 2000)}`);
  const maxRssKb = Number(await readFile(rssFile, 'utf8').catch(() => 'NaN'));
  await rm(file, { force: true });
  const figures = { rows, imported, seconds, rowsPerSecond: rows / seconds, maxRssMb: maxRssKb / 1024 };
  console.log(`  tickets import of ${rows.toLocaleString('en')} rows: ${seconds.toFixed(1)} s, peak RSS ${figures.maxRssMb.toFixed(0)} MB (load average ${load1()})`);
  return figures;
}

/** A tickets CSV of `rows` rows (codes IMP<rows>-<n>, every day), written through a stream with backpressure. */
async function writeCsv(file: string, rows: number, names: BenchNames): Promise<void> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('code,holder_name,ticket_type,days\n');
  let chunk = '';
  for (let n = 1; n <= rows; n++) {
    const first = names.firstNames[(n * 7919) % names.firstNames.length];
    const last = names.lastNames[(n * 104729) % names.lastNames.length];
    chunk += `IMP${rows}-${String(n).padStart(7, '0')},${first} ${last},General Admission,all\n`;
    if (chunk.length > 64_000) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  out.end();
  await once(out, 'finish');
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

function formatTable(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n');
}

const ms = (value: number) => value.toFixed(2);
const BIG_TABLES = new Set(['tickets', 'check_ins', 'ticket_search_terms', 'scan_log']);
/**
 * The tables the live door must never read whole at scale (issue 31): a statement that does is a
 * problem of the run. The scan log too: only the scan rate reads it, by (event, time), since the
 * denials by reason come from their kept counts (docs/decisions/149).
 */
const LIVE_DOOR_INDEXED_TABLES = new Set(['tickets', 'check_ins', 'scan_log']);

function printPart(result: PartResult): void {
  const title = result.kind === 'pglite' ? 'embedded PGlite (durable at commit)' : 'PostgreSQL (throwaway cluster)';
  console.log(`\n## ${title}: verify latency, ${SMALL.toLocaleString('en')} vs ${LARGE.toLocaleString('en')} tickets (ms, ${RUNS} runs each, app.inject, one at a time)`);
  console.log(
    formatTable([
      ['scan', 'small p50', 'small p95', 'small p99', 'large p50', 'large p95', 'large p99', 'large/small p50'],
      ...[...result.verify, result.counts, result.live].map((row) => [row.scan, ms(row.small.p50), ms(row.small.p95), ms(row.small.p99), ms(row.large.p50), ms(row.large.p95), ms(row.large.p99), `${row.ratio.toFixed(2)}x`]),
    ]),
  );
  console.log(`(counts: ${COUNTS_RUNS} runs each; the scanner refetches them after every approval)`);
  console.log(`\n## ${title}: query plans at ${LARGE.toLocaleString('en')} tickets, ${result.largeCheckIns.toLocaleString('en')} check-ins over ${DAYS} days and ${EXTRA_LISTS.length + 1} lists (EXPLAIN ANALYZE of the statements the requests sent, day ${DAY})`);
  console.log(
    formatTable([
      ['request', 'statement', 'scans', 'est. rows', 'rows', 'ms', 'big-table seq scan'],
      ...result.plans.map((plan) => [
        plan.label,
        shortSql(plan.sql, 70),
        describeScans(plan.scans),
        String(plan.estimatedRows),
        String(plan.actualRows ?? ''),
        ms(plan.executionMs ?? Number.NaN),
        plan.seqScannedTables.filter((table) => BIG_TABLES.has(table)).join(', ') || 'none',
      ]),
    ]),
  );
  const livePlans = result.livePlans;
  console.log(`\n## ${title}: the live door's statements at ${LARGE.toLocaleString('en')} tickets, day ${DAY} (EXPLAIN ANALYZE, each plan in full)`);
  for (const plan of livePlans) {
    console.log(`\n${shortSql(plan.sql, 400)}\n  execution ${ms(plan.executionMs ?? Number.NaN)} ms, ${plan.actualRows ?? ''} rows\n${plan.tree.map((line) => `  ${line}`).join('\n')}`);
  }
  const liveSeqScans = livePlans.filter((plan) => plan.seqScannedTables.some((table) => LIVE_DOOR_INDEXED_TABLES.has(table)));
  console.log(`\nlive door: ${livePlans.length} statements, ${liveSeqScans.length} with a sequential scan of ${[...LIVE_DOOR_INDEXED_TABLES].join(' or ')}`);
  console.log(`\n## ${title}: tickets import (admin CLI, child process)`);
  console.log(
    formatTable([
      ['rows', 'imported', 'wall s', 'rows/s', 'peak RSS MB'],
      ...result.imports.map((row) => [row.rows.toLocaleString('en'), row.imported.toLocaleString('en'), row.seconds.toFixed(1), Math.round(row.rowsPerSecond).toLocaleString('en'), row.maxRssMb.toFixed(0)]),
    ]),
  );
  for (const problem of result.problems.slice(0, 20)) console.error(`problem: ${problem}`);
}

// ---------------------------------------------------------------------------------------------
// Entry: `--part <kind>` measures one database; without it, every database of DATABASES in turn.
// ---------------------------------------------------------------------------------------------

async function runChild(kind: DatabaseKind, resultFile: string): Promise<number> {
  const self = ['--import', 'tsx', 'bench/scale.bench.ts', '--part', kind];
  const [command, args] =
    kind === 'postgres'
      ? [process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/with-postgres.ts'), '--', process.execPath, ...self]]
      : [process.execPath, self];
  const child = spawn(command, args, { cwd: SERVER_DIR, env: { ...process.env, BENCH_SCALE_RESULT_FILE: resultFile }, stdio: 'inherit' });
  const [code] = (await once(child, 'exit')) as [number | null];
  return code ?? 1;
}

async function main(): Promise<void> {
  const partIndex = process.argv.indexOf('--part');
  if (partIndex >= 0) {
    const kind = process.argv[partIndex + 1];
    if (kind !== 'pglite' && kind !== 'postgres') throw new Error(`unknown part ${kind}`);
    const result = await runPart(kind);
    printPart(result);
    const resultFile = process.env.BENCH_SCALE_RESULT_FILE;
    if (resultFile) await import('node:fs/promises').then((fs) => fs.writeFile(resultFile, JSON.stringify(result)));
    process.exitCode = result.problems.length > 0 ? 1 : 0;
    return;
  }

  console.log(`scale benchmark: ${cpus().length} cores, Node ${process.version}, load average ${load1()}; databases: ${DATABASES.join(', ')}`);
  const resultsDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-bench-scale-results-'));
  const results: PartResult[] = [];
  let failed = false;
  try {
    for (const kind of DATABASES) {
      if (kind !== 'pglite' && kind !== 'postgres') throw new Error(`BENCH_SCALE_DATABASES: unknown database ${kind}`);
      console.log(`\n=== ${kind} ===`);
      const resultFile = path.join(resultsDir, `${kind}.json`);
      const code = await runChild(kind, resultFile);
      if (code !== 0) failed = true;
      const text = await readFile(resultFile, 'utf8').catch(() => '');
      if (text) results.push(JSON.parse(text) as PartResult);
    }
  } finally {
    await rm(resultsDir, { recursive: true, force: true });
  }

  console.log(`\nSummary (load average ${load1()} on ${cpus().length} cores):`);
  const summary: string[][] = [
    ['database', 'verify p50 large/small (approval, repeat, unknown)', 'counts p50 large/small', 'import rows/s (1M)', 'import peak RSS small → large (MB)', 'big-table seq scans'],
  ];
  for (const result of results) {
    const large = result.imports.at(-1);
    const small = result.imports[0];
    summary.push([
      result.kind,
      result.verify.map((row) => `${row.ratio.toFixed(2)}x`).join(', '),
      `${result.counts.ratio.toFixed(0)}x (${ms(result.counts.large.p50)} ms)`,
      large ? Math.round(large.rowsPerSecond).toLocaleString('en') : '-',
      small && large ? `${small.maxRssMb.toFixed(0)} → ${large.maxRssMb.toFixed(0)}` : '-',
      String(result.plans.filter((plan) => plan.seqScannedTables.some((table) => BIG_TABLES.has(table))).length),
    ]);
  }
  console.log(formatTable(summary));
  const worst = Math.max(0, ...results.flatMap((result) => result.verify.map((row) => row.ratio)));
  const figure = results
    .map((result) => {
      const large = result.imports.at(-1);
      const small = result.imports[0];
      const approval = result.verify[0];
      return `${result.kind}: verify p50 ${approval ? ms(approval.large.p50) : '-'} ms at ${LARGE.toLocaleString('en')} (counts ${ms(result.counts.large.p50)} ms); import ${large ? Math.round(large.rowsPerSecond).toLocaleString('en') : '-'} rows/s, RSS ${small?.maxRssMb.toFixed(0)}→${large?.maxRssMb.toFixed(0)} MB`;
    })
    .join('; ');
  console.log(`BENCH_RESULT ${JSON.stringify({ name: 'bench:scale', figure, ratio: `worst verify large/small p50 ${worst.toFixed(2)}x (goal ≤ 1.5)` })}`);
  process.exitCode = failed || results.length !== DATABASES.length ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
