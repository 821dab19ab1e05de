/**
 * `npm run bench:verify` (issue 13 item 1): throughput and p50/p99 latency of `POST
 * /api/tickets/verify` — approvals of distinct tickets, and repeated denials (tickets already
 * checked in, scanned again) — at 1, 50 and 200 concurrent connections, with autocannon, against
 * the real compiled server (`node dist/server.js`, built by build.ts) on the embedded PGlite
 * database and on a throwaway PostgreSQL (`DATABASE_URL`; the npm script starts and stops one with
 * `scripts/with-postgres.ts --durable`: fsync on, as in production). Two references measured in the
 * same run:
 *
 * - `http-bare`: a bare Fastify route (bench/verify-references.ts `http`): the HTTP stack's limit.
 * - `sql-pglite`, `sql-postgres`: the SQL one check-in needs (verify-references.ts `CHECK_IN_SQL`)
 *   straight through the driver at the same concurrency (PostgreSQL: through a pool as large as the
 *   server's, DATABASE_POOL_SIZE's default 10): the database's limit.
 *
 * Every target runs in a process of its own, started once; each case (target, kind, connections)
 * runs ROUNDS times (2, or `BENCH_VERIFY_ROUNDS`) for ROUND_SECONDS, the targets taking turns (every
 * other round backwards) so that load from elsewhere on the shared machine falls on all alike, after
 * WARMUP_SECONDS of unrecorded load. Prints a table, the verify/reference ratios at each connection
 * count, the capacity-limited list's approvals (and the venue's, an event with a capacity) against the first list's per server target (issue 26;
 * with a compared build, each build's first-list approvals against the other's), issue 13's
 * goals as docs/decisions/073 reads them (verify's best throughput against the database's
 * limit, the SQL reference's best; p99 at 50 connections on PostgreSQL; PGlite's approvals/s) and a
 * `BENCH_RESULT {json}` line (scripts/bench.ts). Without DATABASE_URL the PostgreSQL targets are skipped (said so).
 *
 * Every answer must be the expected one (an approval; an `already_checked_in` denial); anything
 * else is reported and the run exits 1. Timings never fail it.
 *
 * Import mode (`BENCH_VERIFY_DURING_IMPORT=1 npm run bench:verify`, or `--during-import` when run
 * with tsx directly): what a large CSV upload costs the doors (issue 30 item 3). Only the server
 * targets run, with approvals at 50 connections (`BENCH_VERIFY_CONNECTIONS` to change): per target,
 * IMPORT_ROUNDS rounds (`BENCH_VERIFY_IMPORT_ROUNDS`, default 2) of 10 s of verify alone and of
 * verify while a 100,000-row upload (`BENCH_VERIFY_IMPORT_ROWS`) goes through the same server's
 * import endpoint (`POST /api/manage/events/{id}/ticket-imports`, as the demo admin, into the event
 * verify scans) from sending the file to its summary; alone first in odd rounds, second in even
 * ones, the targets in turn. Prints each round, throughput and p50/p99 of both, the during/alone
 * ratios and the import's time, and its own `BENCH_RESULT` line. An import that fails exits 1.
 *
 * Export mode (`BENCH_VERIFY_DURING_EXPORT=1 npm run bench:verify`, or `--during-export`): what
 * drawing every ticket's QR PDF costs the doors (issue 30 item 3, docs/decisions/142). As the import
 * mode, but during each 'during' phase an admin downloads `GET /api/manage/events/{id}/tickets.pdf`
 * of another event of the same database holding EXPORT_TICKETS tickets
 * (`BENCH_VERIFY_EXPORT_TICKETS`, default 3,000), reading the PDF as it comes, from the request to
 * its last byte. Prints the export's time and its tickets per second. A download that fails exits 1.
 * `BENCH_VERIFY_COMPARE_BUILD=dist-main/server.js` adds a twin of each server target running that
 * other bundle, for an A/B of two versions in the same minutes (in any mode).
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { apiPaths, manageTicketPaths, TicketImportEvent, VerifyTicketResponse } from '@gatecheck/contract';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';
import { count, eq } from 'drizzle-orm';
import { tickets } from '../src/db/schema.ts';
import { DEMO_TODAY_DAY_NUMBER } from '../src/db/seed.ts';
import { type DoorSetup, prepareDoorDatabase } from '../test/helpers/door-database.ts';
import { demoIds } from '../test/helpers/fixtures.ts';
import { SERVER_DIR, spawnLogged, stopper, waitForLine } from './server-process.ts';
import { codesOf, type SqlLoad, type SqlLoadResult, type SqlSetup } from './verify-references.ts';

/** Rounds of each case: 2, or `BENCH_VERIFY_ROUNDS` (more on a busy machine, for an A/B). */
const ROUNDS = positiveWhole('BENCH_VERIFY_ROUNDS', 2);
const ROUND_SECONDS = 2;
const WARMUP_SECONDS = 1;
/**
 * Concurrent connections of each case: 1, 50 and 200, or those of `BENCH_VERIFY_CONNECTIONS`
 * (comma-separated positive integers, e.g. `1` while profiling).
 * @throws Error naming the setting when it is set but holds no such number, or anything else.
 */
function connectionCounts(setting: string | undefined, defaults: readonly number[]): readonly number[] {
  if (setting === undefined || setting.trim() === '') return defaults;
  const counts = setting.split(',').map((part) => Number(part.trim()));
  if (!counts.every((count) => Number.isInteger(count) && count > 0)) {
    throw new Error(`BENCH_VERIFY_CONNECTIONS must be positive whole numbers separated by commas, e.g. 1,50; got "${setting}"`);
  }
  return [...new Set(counts)];
}
/**
 * The import mode (`npm run bench:verify -- --during-import`, or `BENCH_VERIFY_DURING_IMPORT=1`):
 * what a large CSV upload costs the doors. See the module comment.
 */
const DURING_IMPORT_ONLY = process.argv.includes('--during-import') || process.env.BENCH_VERIFY_DURING_IMPORT === '1';
/**
 * The export mode (`--during-export`, or `BENCH_VERIFY_DURING_EXPORT=1`): what a large tickets PDF
 * costs the doors. See the module comment. It runs as the import mode does, with a download for an upload.
 */
const DURING_EXPORT = process.argv.includes('--during-export') || process.env.BENCH_VERIFY_DURING_EXPORT === '1';
/** Either background mode: verify alone and verify during a long job of the same server. */
const DURING_IMPORT = DURING_IMPORT_ONLY || DURING_EXPORT;
/**
 * The positive whole number in environment variable `name`, or `fallback` when it is unset.
 * @throws Error naming the setting when it holds anything else.
 */
function positiveWhole(name: string, fallback: number): number {
  const setting = process.env[name];
  if (setting === undefined || setting.trim() === '') return fallback;
  const value = Number(setting);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number; got "${setting}"`);
  return value;
}
/** Rows of each upload in the import mode: 100,000 (issue 30's large upload), or `BENCH_VERIFY_IMPORT_ROWS`. */
const IMPORT_ROWS = positiveWhole('BENCH_VERIFY_IMPORT_ROWS', 100_000);
/** Tickets of the event whose PDF the export mode downloads: 3,000 (250 pages), or `BENCH_VERIFY_EXPORT_TICKETS`. */
const EXPORT_TICKETS = positiveWhole('BENCH_VERIFY_EXPORT_TICKETS', 3_000);
/**
 * Import mode: rounds of (verify alone, verify during an import) per target, the order turned round
 * every other round: 2, or `BENCH_VERIFY_IMPORT_ROUNDS`.
 */
const IMPORT_ROUNDS = positiveWhole('BENCH_VERIFY_IMPORT_ROUNDS', 2);
/** Import mode: how long verify runs alone in a round, in seconds (during the import it runs as long as the import). */
const ALONE_SECONDS = 10;
/**
 * `BENCH_VERIFY_COMPARE_BUILD=dist-main/server.js`: each server target gets a twin (`compare-pglite`,
 * `compare-postgres`) running that bundle instead of dist/server.js, taking turns with it: an A/B of
 * two versions of the server in the same minutes. A path from apps/server; build the other version
 * there and copy its dist/ beside this one (e.g. to dist-main/), so its imports resolve as dist/'s do.
 */
const COMPARE_BUILD = process.env.BENCH_VERIFY_COMPARE_BUILD || undefined;
const CONNECTIONS = connectionCounts(process.env.BENCH_VERIFY_CONNECTIONS, DURING_IMPORT ? [50] : [1, 50, 200]);
/**
 * Unused tickets per target for approvals: enough for its cases and warm-ups (15 s of approvals
 * in all) at up to 10,000 approvals/s on average (PostgreSQL reached 11,700/s at 200 connections
 * and used 109,000 tickets in a run); in the import mode, for two rounds of 10 s alone and an
 * import of a minute or more at a few thousand approvals/s. A target that runs out answers
 * `not_found`, which fails the run.
 */
const APPROVE_TICKETS = DURING_IMPORT ? 300_000 : 160_000;
/** Tickets checked in before the run, scanned again and again for the denial cases. */
const DENY_TICKETS = 1_000;
/** The server's `pg` pool (DATABASE_POOL_SIZE's default); the SQL reference uses as many connections. */
const POOL_SIZE = 10;

/**
 * `capacity`: approvals of distinct tickets at a check-in list with a capacity (CAPACITY places,
 * never reached in a run), beside `approve` at the event's first list without one: what claiming a
 * place costs (issue 26, docs/decisions/111; goal: within 20 % of `approve` at 50 connections).
 */
type Kind = 'approve' | 'deny' | 'http' | 'capacity' | 'venue';
/** The capacity of the bench's capacity-limited list: more than a run's capacity approvals. */
const CAPACITY = 100_000;
/**
 * `venue`: approvals of distinct tickets at the first list of live events (the demo event's days)
 * with a capacity of CAPACITY places each, the contract's most (docs/decisions/147, 148): what
 * claiming the event's place costs (issue 26: within 20 % of `approve`). Each server target gets
 * VENUE_TICKETS unused tickets, spread over as many venues as their places need (every ticket
 * has a place: a full venue would deny), enough for the venue cases' seconds (warm-ups and
 * rounds) at VENUE_MOST_PER_SECOND on average. A target that runs out fails the run, saying so.
 */
const VENUE_MOST_PER_SECOND = 12_000;
/** Seconds of `venue` load per server target: a warm-up and ROUNDS rounds at each connection count (none in the import mode). */
const VENUE_SECONDS = DURING_IMPORT ? 0 : CONNECTIONS.length * (WARMUP_SECONDS + ROUNDS * ROUND_SECONDS);
const VENUE_TICKETS = VENUE_SECONDS * VENUE_MOST_PER_SECOND;
/** The venue's tickets of the server target whose approvals scan `approvePrefix`'s codes. */
const venueCodesOf = (approvePrefix: string) => codesOf(`V${approvePrefix}`, VENUE_TICKETS);
/** The codes of a target's venues: CAPACITY codes for each venue but the last. */
const venueChunksOf = (approvePrefix: string): string[][] => {
  const codes = venueCodesOf(approvePrefix);
  return Array.from({ length: Math.ceil(codes.length / CAPACITY) }, (_, index) => codes.slice(index * CAPACITY, (index + 1) * CAPACITY));
};

/**
 * `BENCH_VERIFY_CPU_PROF_DIR=<dir>`: the server targets run with V8's CPU profiler and write a
 * `.cpuprofile` there when they stop (open it in Chrome DevTools, or `bench/profile-summary.ts`).
 */
const PROFILE_ARGS = process.env.BENCH_VERIFY_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_VERIFY_CPU_PROF_DIR)}`] : [];

/** What one round of a case measured: `count` expected answers (approvals, already-checked-in denials; any 200 for the bare route). */
type RoundResult = SqlLoadResult;

/** A started target: runs one round of a kind of load at a number of connections. */
interface Running {
  /** A server target only: uploads `csv` to its ticket import endpoint as an admin, resolving when the import ends. */
  importCsv?: (csv: string) => Promise<ImportOutcome>;
  /** A server target only: downloads the export event's tickets PDF as an admin, resolving at its last byte. */
  exportPdf?: () => Promise<ImportOutcome>;
  /** One round: for `duration` seconds, or until the promise `duration` settles (the import mode). */
  run(kind: Kind, connections: number, duration: number | Promise<unknown>): Promise<RoundResult>;
  stop(): Promise<void>;
}

interface Target {
  name: string;
  description: string;
  kinds: Kind[];
  start(): Promise<Running>;
}

const denyCodes = codesOf('DENY-', DENY_TICKETS);

/** A door's database, and in the export mode the event whose PDF is downloaded. */
interface PreparedDoor extends DoorSetup {
  /** Export mode: the demo's single-day event with EXPORT_TICKETS more tickets. */
  exportEventId?: string;
  /** Export mode: how many tickets its PDF shows (the demo's and EXPORT_TICKETS). */
  exportTickets?: number;
  /** Per approval prefix, its venues' event ids (the i-th of its venue codes is a ticket of the event at i / CAPACITY). */
  venuesOf: Map<string, string[]>;
}

/**
 * A fresh database with the demo data, APPROVE_TICKETS unused tickets per prefix and the
 * checked-in DENY tickets; in the export mode also EXPORT_TICKETS tickets of the demo's
 * single-day event (not the event verify scans, whose PDF would hold every approval ticket).
 */
async function prepare(open: () => Promise<DatabaseHandle>, approvePrefixes: string[]): Promise<PreparedDoor> {
  const codes = [...approvePrefixes.flatMap((prefix) => codesOf(prefix, APPROVE_TICKETS)), ...denyCodes];
  // The SQL reference (REF-) scans no venue.
  const venuePrefixes = approvePrefixes.filter((prefix) => prefix !== 'REF-');
  const venues = venuePrefixes.flatMap((prefix) => venueChunksOf(prefix).map((chunk) => ({ capacity: CAPACITY, codes: chunk })));
  const setup = await prepareDoorDatabase(open, codes, { checkedInCodes: denyCodes, capacity: CAPACITY, venues });
  const venueEventIds = [...(setup.venueEventIds ?? [])];
  const door: PreparedDoor = { ...setup, venuesOf: new Map(venuePrefixes.map((prefix) => [prefix, venueEventIds.splice(0, venueChunksOf(prefix).length)])) };
  if (!DURING_EXPORT) return door;
  const handle = await open();
  try {
    const { singleDayEventId } = await demoIds(handle.db);
    const exportCodes = codesOf('PDF-', EXPORT_TICKETS);
    for (let start = 0; start < exportCodes.length; start += 1_000) {
      await handle.db
        .insert(tickets)
        .values(exportCodes.slice(start, start + 1_000).map((code, index) => ({ code, eventId: singleDayEventId, holderName: `Print Holder ${start + index}`, ticketType: 'General Admission' })));
    }
    const [row] = await handle.db.select({ total: count() }).from(tickets).where(eq(tickets.eventId, singleDayEventId));
    return { ...door, exportEventId: singleDayEventId, exportTickets: row?.total ?? EXPORT_TICKETS };
  } finally {
    await handle.close();
  }
}

function isExpected(kind: Kind, status: number, body: string): boolean {
  if (status !== 200) return false;
  if (kind === 'http') return true;
  try {
    const verdict = VerifyTicketResponse.safeParse(JSON.parse(body));
    if (!verdict.success) return false;
    return kind === 'approve' || kind === 'capacity' || kind === 'venue' ? verdict.data.isValid : !verdict.data.isValid && verdict.data.reason === 'already_checked_in';
  } catch {
    return false;
  }
}

/** autocannon against `url`: each request scans the next unused code (approve) or the next checked-in one (deny). */
function httpRunning(url: string, door: DoorSetup, approveCodes: string[], venue: { codes: string[]; eventIds: string[] }, stop: () => Promise<void>): Running {
  let denyIndex = 0;
  // A cursor, not `shift()`: shifting a 60,000-element array copies it (about 40 µs a call here),
  // load-generator work that would be counted against the server.
  let approveIndex = 0;
  let venueIndex = 0;
  return {
    stop,
    async run(kind, connections, duration) {
      let failures = 0;
      let firstFailure = '';
      let count = 0;
      const options: autocannon.Options = {
        url,
        connections,
        // Until `duration` settles: far longer than any import; stopped when it settles.
        duration: typeof duration === 'number' ? duration : 3_600,
        requests: [
          {
            method: 'POST',
            path: `/api${apiPaths.verifyTicket}`,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${door.token}` },
            setupRequest: (request) => {
              if (kind === 'venue') {
                const index = venueIndex++;
                const qrCode = venue.codes[index] ?? 'NO-TICKETS-LEFT';
                if (index >= venue.codes.length) firstFailure ||= `the venues ran out of tickets: ${venue.codes.length} (VENUE_TICKETS, sized for ${VENUE_MOST_PER_SECOND}/s over ${VENUE_SECONDS} s) were used up`;
                const eventId = venue.eventIds[Math.min(Math.floor(index / CAPACITY), venue.eventIds.length - 1)];
                return { ...request, body: JSON.stringify({ eventId, qrCode, day: DEMO_TODAY_DAY_NUMBER, scanId: randomUUID() }) };
              }
              const qrCode = kind === 'deny' ? denyCodes[denyIndex++ % denyCodes.length] : (approveCodes[approveIndex++] ?? 'NO-TICKETS-LEFT');
              const atList = kind === 'capacity' ? { checkInListId: door.capacityListId } : {};
              return { ...request, body: JSON.stringify({ eventId: door.eventId, qrCode, day: DEMO_TODAY_DAY_NUMBER, scanId: randomUUID(), ...atList }) };
            },
            onResponse: (status, body) => {
              if (isExpected(kind, status, body)) count += 1;
              else {
                failures += 1;
                firstFailure ||= `${status} ${body.slice(0, 200)}`;
              }
            },
          },
        ],
      };
      const result = await new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon(options, (error: unknown, done: autocannon.Result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(done)));
        if (typeof duration !== 'number') void duration.finally(() => instance.stop()).catch(() => undefined);
      });
      failures += result.errors;
      if (result.errors > 0) firstFailure ||= `${result.errors} connection errors (${result.timeouts} timeouts)`;
      return { count, seconds: result.duration, p50Ms: result.latency.p50, p99Ms: result.latency.p99, failures, firstFailure };
    },
  };
}

/** Prepares a target's database: PGlite in `dataDir`, or the shared PostgreSQL (prepared once for both of its targets). */
type Preparer = (dataDir: string) => Promise<PreparedDoor>;

const pglitePreparer =
  (prefix: string): Preparer =>
  (dataDir) =>
    prepare(() => openDatabase({ pgliteDir: path.join(dataDir, 'pgdata'), isDurable: false }), [prefix]);

function postgresPreparer(databaseUrl: string): Preparer {
  let prepared: Promise<PreparedDoor> | undefined;
  // The compared build (BENCH_VERIFY_COMPARE_BUILD) approves tickets of its own on the shared database.
  // The import mode runs no SQL reference (REF-).
  const prefixes = ['SRV-', ...(DURING_IMPORT ? [] : ['REF-']), ...(COMPARE_BUILD ? ['CMP-'] : [])];
  return () => (prepared ??= prepare(() => openDatabase({ databaseUrl }), prefixes));
}

/** A fresh temp folder for target `name`, and its database prepared by `preparer`. */
async function preparedDataDir(name: string, preparer: Preparer): Promise<{ dataDir: string; door: PreparedDoor }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `gatecheck-bench-${name}-`));
  return { dataDir, door: await preparer(dataDir) };
}

/**
 * The compiled server on a fresh database: PGlite in its own data folder, or the PostgreSQL at
 * `databaseUrl`; `build` is its bundle (default dist/server.js), its approvals scan `approvePrefix`'s codes.
 */
function serverTarget(
  name: string,
  description: string,
  databaseUrl: string | undefined,
  preparer: Preparer,
  { build = 'dist/server.js', approvePrefix = 'SRV-' }: { build?: string; approvePrefix?: string } = {},
): Target {
  return {
    name,
    description,
    kinds: ['approve', 'deny', 'capacity', 'venue'],
    async start() {
      const { dataDir, door } = await preparedDataDir(name, preparer);
      // The server as a user starts it (default log level, JSON lines into a file), minus the demo seed.
      const { child, log, exited } = await spawnLogged(name, [...PROFILE_ARGS, '--enable-source-maps', build], {
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        SEED_DEMO: 'false',
      });
      const url = await waitForLine(log, /running at (http:\/\/\S+)/, exited);
      return {
        ...httpRunning(url, door, codesOf(approvePrefix, APPROVE_TICKETS), { codes: venueCodesOf(approvePrefix), eventIds: door.venuesOf.get(approvePrefix) ?? [] }, stopper(child, exited, () => rm(dataDir, { recursive: true, force: true }))),
        importCsv: (csv) => importThroughHttp(url, door, csv),
        exportPdf: () => exportThroughHttp(url, door),
      };
    },
  };
}

/** The SQL reference on PGlite (its own data folder, prepared like the server's) or on the PostgreSQL at `databaseUrl`. */
function sqlTarget(name: string, description: string, databaseUrl: string | undefined, preparer: Preparer): Target {
  return {
    name,
    description,
    kinds: ['approve', 'deny'],
    async start() {
      const { dataDir, door } = await preparedDataDir(name, preparer);
      const pgliteDir = path.join(dataDir, 'pgdata');
      const setup: SqlSetup = { token: door.token, eventId: door.eventId, day: DEMO_TODAY_DAY_NUMBER, approve: { prefix: 'REF-', count: APPROVE_TICKETS }, deny: { prefix: 'DENY-', count: DENY_TICKETS } };
      const { child, log, exited } = await spawnLogged(name, ['--import', 'tsx', 'bench/verify-references.ts', 'sql'], {
        BENCH_SETUP: JSON.stringify(setup),
        ...(databaseUrl ? { DATABASE_URL: databaseUrl, POOL_SIZE: String(POOL_SIZE) } : { DATABASE_URL: '', PGLITE_DIR: pgliteDir }),
      });
      const reply = <T>() =>
        new Promise<T>((resolve, reject) => {
          child.once('message', (message) => resolve(message as T));
          void exited.then(() => reject(new Error(`${name} exited:\n${readFileSync(log, 'utf8').slice(-2000)}`)));
        });
      await reply<{ ready: true }>();
      return {
        stop: stopper(child, exited, () => rm(dataDir, { recursive: true, force: true })),
        async run(kind, connections, seconds) {
          // The SQL reference runs for a number of seconds only (the import mode does not start it).
          if (typeof seconds !== 'number') throw new Error(`${name} runs for a number of seconds only`);
          const answer = reply<SqlLoadResult>();
          child.send({ kind: kind === 'deny' ? 'deny' : 'approve', connections, seconds } satisfies SqlLoad);
          return answer;
        },
      };
    },
  };
}

const bareTarget: Target = {
  name: 'http-bare',
  description: 'a bare Fastify POST route, no database (the HTTP stack limit)',
  kinds: ['http'],
  async start() {
    const { child, log, exited } = await spawnLogged('http-bare', ['--import', 'tsx', 'bench/verify-references.ts', 'http'], {});
    const url = await waitForLine(log, /listening at (http:\/\/\S+)/, exited);
    const door: DoorSetup = { token: 'none', eventId: randomUUID(), userId: randomUUID() };
    return httpRunning(url, door, [], { codes: [], eventIds: [] }, stopper(child, exited, async () => undefined));
  },
};

const databaseUrl = process.env.DATABASE_URL || undefined;
const postgresDoor = databaseUrl ? postgresPreparer(databaseUrl) : undefined;
const compareBuild = COMPARE_BUILD ? { build: COMPARE_BUILD, approvePrefix: 'CMP-' } : undefined;
const ALL_TARGETS: Target[] = [
  serverTarget('verify-pglite', 'the compiled server on PGlite (durable at commit, decision 026)', undefined, pglitePreparer('SRV-')),
  ...(compareBuild ? [serverTarget('compare-pglite', `${compareBuild.build} on PGlite (durable at commit)`, undefined, pglitePreparer('CMP-'), compareBuild)] : []),
  ...(DURING_IMPORT ? [] : [sqlTarget('sql-pglite', 'the SQL one check-in needs, straight through PGlite (durable)', undefined, pglitePreparer('REF-'))]),
  ...(databaseUrl && postgresDoor
    ? [
        serverTarget('verify-postgres', 'the compiled server on PostgreSQL (pool of 10)', databaseUrl, postgresDoor),
        ...(compareBuild ? [serverTarget('compare-postgres', `${compareBuild.build} on PostgreSQL (pool of 10)`, databaseUrl, postgresDoor, compareBuild)] : []),
        ...(DURING_IMPORT ? [] : [sqlTarget('sql-postgres', 'the SQL one check-in needs, straight through pg (pool of 10, prepared)', databaseUrl, postgresDoor)]),
      ]
    : []),
  ...(DURING_IMPORT ? [] : [bareTarget]),
];
/** `BENCH_VERIFY_TARGETS=verify-postgres,sql-postgres` runs only those targets (e.g. while profiling). */
const chosenTargets = process.env.BENCH_VERIFY_TARGETS?.split(',').filter(Boolean);
const TARGETS = chosenTargets ? ALL_TARGETS.filter((target) => chosenTargets.includes(target.name)) : ALL_TARGETS;

interface BenchCase {
  target: Target;
  kind: Kind;
  connections: number;
}

/** `BENCH_VERIFY_KINDS=approve` runs only those kinds of load (e.g. approvals alone, for `pg_stat_statements` per approval). */
const chosenKinds = process.env.BENCH_VERIFY_KINDS?.split(',').filter(Boolean);
const CASES: BenchCase[] = CONNECTIONS.flatMap((connections) =>
  TARGETS.flatMap((target) => target.kinds.filter((kind) => !chosenKinds || chosenKinds.includes(kind)).map((kind) => ({ target, kind, connections }))),
);

/** A case over its rounds: expected answers per second overall, the median round's latencies. */
interface Measurement {
  target: string;
  kind: Kind;
  connections: number;
  count: number;
  throughput: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
  firstFailure: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function summarize(benchCase: BenchCase, rounds: RoundResult[]): Measurement {
  const count = rounds.reduce((sum, round) => sum + round.count, 0);
  return {
    target: benchCase.target.name,
    kind: benchCase.kind,
    connections: benchCase.connections,
    count,
    throughput: count / rounds.reduce((sum, round) => sum + round.seconds, 0),
    p50Ms: median(rounds.map((round) => round.p50Ms)),
    p99Ms: median(rounds.map((round) => round.p99Ms)),
    failures: rounds.reduce((sum, round) => sum + round.failures, 0),
    firstFailure: rounds.find((round) => round.firstFailure)?.firstFailure ?? '',
  };
}

const load1 = () => (loadavg()[0] ?? 0).toFixed(1);
if (DURING_IMPORT) {
  // The import mode measures something else and prints its own tables (runDuringImports).
  process.exitCode = await runDuringImports();
  process.exit();
}
console.log(
  `verify benchmark: ${ROUNDS} rounds of ${ROUND_SECONDS} s per case after ${WARMUP_SECONDS} s warm-up, connections ${CONNECTIONS.join('/')}, ${cpus().length} cores, Node ${process.version}, load ${load1()}`,
);
if (!databaseUrl) console.log('DATABASE_URL is not set: the PostgreSQL targets are skipped (npm run bench:verify starts a throwaway PostgreSQL).');
const build = spawnSync(process.execPath, ['build.ts'], { cwd: SERVER_DIR, stdio: 'inherit' });
if (build.status !== 0) throw new Error('building the server failed');

const running = new Map<Target, Running>();
let measurements: Measurement[];
try {
  for (const target of TARGETS) {
    console.log(`- ${target.name}: ${target.description}`);
    running.set(target, await target.start());
  }
  const runOf = (benchCase: BenchCase, seconds: number) => {
    const target = running.get(benchCase.target);
    if (!target) throw new Error(`${benchCase.target.name} is not running`);
    return target.run(benchCase.kind, benchCase.connections, seconds);
  };
  for (const benchCase of CASES) await runOf(benchCase, WARMUP_SECONDS);
  const rounds = new Map<BenchCase, RoundResult[]>(CASES.map((benchCase) => [benchCase, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const benchCase of round % 2 === 0 ? CASES : [...CASES].reverse()) rounds.get(benchCase)?.push(await runOf(benchCase, ROUND_SECONDS));
  }
  measurements = CASES.map((benchCase) => summarize(benchCase, rounds.get(benchCase) ?? []));
} finally {
  for (const target of running.values()) await target.stop();
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
console.table(
  measurements.map((m) => ({
    target: m.target,
    kind: m.kind,
    connections: m.connections,
    answers: m.count,
    'per s': Math.round(m.throughput),
    'p50 ms': fixed(m.p50Ms),
    'p99 ms': fixed(m.p99Ms),
    failures: m.failures,
  })),
);

const find = (target: string, kind: Kind, connections: number) => measurements.find((m) => m.target === target && m.kind === kind && m.connections === connections);
const ratios = CONNECTIONS.flatMap((connections) =>
  (['pglite', 'postgres'] as const).flatMap((database) =>
    (['approve', 'deny'] as const).flatMap((kind) => {
      const verify = find(`verify-${database}`, kind, connections);
      const sqlReference = find(`sql-${database}`, kind, connections);
      const bare = find('http-bare', 'http', connections);
      if (!verify || !sqlReference) return [];
      return [
        {
          database,
          kind,
          connections,
          'verify/s': Math.round(verify.throughput),
          'verify / SQL (throughput)': fixed(verify.throughput / sqlReference.throughput, 2),
          'verify / SQL (p99)': fixed(verify.p99Ms / sqlReference.p99Ms, 2),
          'verify / bare HTTP (throughput)': bare ? fixed(verify.throughput / bare.throughput, 2) : '-',
        },
      ];
    }),
  ),
);
console.table(ratios);
// Issue 26: what a capacity costs — approvals at the capacity-limited list against approvals at the
// event's first list, same target and connections (goal: at least 0.80 at 50 connections).
// With BENCH_VERIFY_COMPARE_BUILD the compared build's twin gets its row too (`compare-*`), and each
// build's first-list approvals are set against the other's (issue 26: the default list within 10 %).
const capacityRatios = CONNECTIONS.flatMap((connections) =>
  (['pglite', 'postgres'] as const).flatMap((database) =>
    (['verify', 'compare'] as const).flatMap((build) => {
      const plain = find(`${build}-${database}`, 'approve', connections);
      const limited = find(`${build}-${database}`, 'capacity', connections);
      const venue = find(`${build}-${database}`, 'venue', connections);
      if (!plain || !limited) return [];
      const other = find(`${build === 'verify' ? 'compare' : 'verify'}-${database}`, 'approve', connections);
      return [
        {
          target: `${build}-${database}`,
          connections,
          'approve/s': Math.round(plain.throughput),
          'capacity/s': Math.round(limited.throughput),
          'capacity / approve': fixed(limited.throughput / plain.throughput, 2),
          ...(venue ? { 'venue/s': Math.round(venue.throughput), 'venue / approve': fixed(venue.throughput / plain.throughput, 2) } : {}),
          ...(other ? { 'approve / other build': fixed(plain.throughput / other.throughput, 2) } : {}),
        },
      ];
    }),
  ),
);
console.table(capacityRatios);
console.log(`load average at the end: ${load1()} (on ${cpus().length} cores; a load far above the core count makes single figures noisy, the ratios less so)`);

/**
 * The case of `target` and `kind` with the most expected answers per second over the connection
 * counts run: its limit here (docs/decisions/073).
 */
const best = (target: string, kind: Kind) =>
  measurements.filter((m) => m.target === target && m.kind === kind).reduce<Measurement | undefined>((top, m) => (!top || m.throughput > top.throughput ? m : top), undefined);
const perSecond = (m: Measurement | undefined) => (m ? `${Math.round(m.throughput)} (${m.connections} conn.)` : '-');

// Issue 13's goals, as decision 073 reads them: verify's limit (its best throughput over
// the connection counts) against the database's limit (the SQL reference's best); p99 at 50
// connections on PostgreSQL; throughput on PGlite. Printed, never enforced: timings do not fail a benchmark.
const limits = (['pglite', 'postgres'] as const).flatMap((database) =>
  (['approve', 'deny'] as const).flatMap((kind) => {
    const verify = best(`verify-${database}`, kind);
    const sqlReference = best(`sql-${database}`, kind);
    if (!verify || !sqlReference) return [];
    const ratio = verify.throughput / sqlReference.throughput;
    return [{ database, kind, 'verify limit /s': perSecond(verify), 'SQL limit /s': perSecond(sqlReference), 'verify / SQL': fixed(ratio, 2), 'goal ≥ 0.70': ratio >= 0.7 ? 'met' : 'not met' }];
  }),
);
console.log("Issue 13's goals as docs/decisions/073 reads them: verify's best throughput against the database's limit, the SQL reference's best (the per-connection ratios are above)");
console.table(limits);
if (limits.length === 0) console.log('(not measured: a verify target and its SQL reference must both run)');
const pg50 = find('verify-postgres', 'approve', 50);
const pg50Deny = find('verify-postgres', 'deny', 50);
if (pg50 && pg50Deny) {
  const p99 = Math.max(pg50.p99Ms, pg50Deny.p99Ms);
  console.log(`p99 at 50 connections on PostgreSQL: ${fixed(pg50.p99Ms)} ms (approvals), ${fixed(pg50Deny.p99Ms)} ms (denials); goal ≤ 25 ms: ${p99 <= 25 ? 'met' : 'not met'}`);
} else console.log('p99 at 50 connections on PostgreSQL: not measured in this run');
const pgliteBest = best('verify-pglite', 'approve');
console.log(
  pgliteBest ? `approvals on PGlite: ${perSecond(pgliteBest)} /s at best; goal ≥ 1,000/s: ${pgliteBest.throughput >= 1000 ? 'met' : 'not met'}` : 'approvals on PGlite: not measured in this run',
);

// The headline: each database's approvals at best, and verify / SQL where both ran.
const headlineParts = (['pglite', 'postgres'] as const).flatMap((database) => {
  const name = database === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const verify = best(`verify-${database}`, 'approve');
  const limit = limits.find((row) => row.database === database && row.kind === 'approve');
  return verify ? [{ figure: `${name} ${perSecond(verify)}`, ratio: limit ? `${name} ${limit['verify / SQL']}` : undefined }] : [];
});
// The one-connection ratios stay in the headline (decision 073: not met there, kept in view).
const oneConnection = (['pglite', 'postgres'] as const).flatMap((database) =>
  (['approve', 'deny'] as const).flatMap((kind) => {
    const verify = find(`verify-${database}`, kind, 1);
    const sqlReference = find(`sql-${database}`, kind, 1);
    return verify && sqlReference ? [verify.throughput / sqlReference.throughput] : [];
  }),
);
const oneConnectionText =
  oneConnection.length > 0 ? `; 1 conn. ${fixed(Math.min(...oneConnection), 2)}–${fixed(Math.max(...oneConnection), 2)}` : '';
const headline = {
  name: 'bench:verify',
  figure: [`approvals/s at best: ${headlineParts.map((part) => part.figure).join(', ') || '-'}`, ...(pg50 ? [`PostgreSQL p99 ${fixed(pg50.p99Ms)} ms at 50 conn.`] : [])].join('; '),
  ratio: `verify / SQL limit: ${headlineParts.flatMap((part) => (part.ratio ? [part.ratio] : [])).join(', ') || '-'}${oneConnectionText}`,
};
console.log(`BENCH_RESULT ${JSON.stringify(headline)}`);

const failed = measurements.filter((m) => m.failures > 0);
for (const m of failed) console.error(`${m.target} ${m.kind} at ${m.connections} connections: ${m.failures} unexpected answers, e.g. ${m.firstFailure}`);
process.exitCode = failed.length > 0 ? 1 : 0;

/** How an upload through the import endpoint ended (the import mode). */
interface ImportOutcome {
  /** From sending the file to the summary, in seconds. */
  seconds: number;
  imported: number;
  /** Why the import failed ('' when it ended with its summary). */
  failure: string;
  /** The export mode: the PDF's size in bytes. */
  bytes?: number;
}

/**
 * Uploads `csv` to the server at `url` as the demo admin (`door.token`) through
 * `POST /api/manage/events/{eventId}/ticket-imports`, as the management area does, into the event
 * verify scans; resolves when the last NDJSON line (summary or error) has come.
 */
async function importThroughHttp(url: string, door: DoorSetup, csv: string): Promise<ImportOutcome> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const response = await fetch(`${url}/api${manageTicketPaths.importTickets(door.eventId)}`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${door.token}` },
      body: csv,
    });
    const text = await response.text();
    if (!response.ok) return { seconds: seconds(), imported: 0, failure: `${response.status} ${text.slice(0, 200)}` };
    const last = TicketImportEvent.parse(JSON.parse(text.trim().split('\n').at(-1) ?? '{}'));
    if (last.type === 'done') return { seconds: seconds(), imported: last.summary.imported, failure: '' };
    return { seconds: seconds(), imported: 0, failure: last.type === 'error' ? `${last.code}: ${last.message}` : 'the answer ended without a summary' };
  } catch (error) {
    return { seconds: seconds(), imported: 0, failure: String(error) };
  }
}

/**
 * Downloads the tickets PDF of `door.exportEventId` from the server at `url` as the demo admin
 * (`GET /api/manage/events/{id}/tickets.pdf`, as the management area does), reading it as it comes;
 * resolves at its last byte. `imported` is the tickets it shows; a file that does not end as a PDF
 * does is a failure.
 */
async function exportThroughHttp(url: string, door: PreparedDoor): Promise<ImportOutcome> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  if (!door.exportEventId) return { seconds: 0, imported: 0, failure: 'no export event prepared' };
  try {
    const response = await fetch(`${url}/api${manageTicketPaths.ticketsPdf(door.exportEventId)}`, { headers: { authorization: `Bearer ${door.token}` } });
    if (!response.ok || !response.body) return { seconds: seconds(), imported: 0, failure: `${response.status} ${(await response.text()).slice(0, 200)}` };
    let bytes = 0;
    let tail = Buffer.alloc(0);
    for await (const chunk of response.body) {
      bytes += chunk.byteLength;
      tail = Buffer.concat([tail, Buffer.from(chunk)]).subarray(-16);
    }
    if (!tail.toString('latin1').includes('%%EOF')) return { seconds: seconds(), imported: 0, failure: `the PDF ended without %%EOF after ${bytes} bytes` };
    return { seconds: seconds(), imported: door.exportTickets ?? 0, failure: '', bytes };
  } catch (error) {
    return { seconds: seconds(), imported: 0, failure: String(error) };
  }
}

/** A CSV of IMPORT_ROWS new tickets with codes of their own (`tag` keeps each upload's codes apart). */
function importCsvText(tag: string): string {
  const rows = Array.from({ length: IMPORT_ROWS }, (_, index) => `IMP-${tag}-${String(index).padStart(6, '0')},Import Holder ${index},General Admission,all`);
  return `code,holder_name,ticket_type,days\n${rows.join('\n')}\n`;
}

/** One round of the import mode: verify alone, or verify while an upload imports. */
interface ImportRound {
  target: string;
  connections: number;
  phase: 'alone' | 'during import' | 'during export';
  verify: RoundResult;
  upload?: ImportOutcome;
}

/**
 * The import mode: for each server target and connection count, IMPORT_ROUNDS rounds of verify
 * approvals alone (ALONE_SECONDS) and verify approvals while an IMPORT_ROWS-row upload goes through
 * the import endpoint of the same server (from sending the file until its summary), alone first in
 * even rounds and second in odd ones, the targets in turn (reversed every other round). Prints each
 * round, a table over the rounds and the during/alone ratios, and a `BENCH_RESULT` line.
 * @returns the exit code: 1 when an answer was unexpected or an import failed.
 */
async function runDuringImports(): Promise<number> {
  const toFixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
  const targets = TARGETS.filter((target) => target.kinds.includes('approve') && !target.name.startsWith('sql-'));
  const during = DURING_EXPORT ? 'during export' : 'during import';
  const job = DURING_EXPORT ? 'export' : 'import';
  const jobText = DURING_EXPORT ? `a tickets PDF download of ${EXPORT_TICKETS.toLocaleString('en')}+ tickets` : `a ${IMPORT_ROWS.toLocaleString('en')}-row upload through the import endpoint`;
  console.log(
    `verify during an ${job}: ${IMPORT_ROUNDS} rounds per target of ${ALONE_SECONDS} s of verify alone and verify during ${jobText}, connections ${CONNECTIONS.join('/')}, ${cpus().length} cores, Node ${process.version}, load ${load1()}`,
  );
  if (!databaseUrl) console.log('DATABASE_URL is not set: the PostgreSQL targets are skipped (npm run bench:verify starts a throwaway PostgreSQL).');
  const built = spawnSync(process.execPath, ['build.ts'], { cwd: SERVER_DIR, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building the server failed');
  const started = new Map<Target, Running>();
  const rounds: ImportRound[] = [];
  try {
    for (const target of targets) {
      console.log(`- ${target.name}: ${target.description}`);
      started.set(target, await target.start());
    }
    for (const target of targets) await started.get(target)?.run('approve', CONNECTIONS[0] ?? 50, WARMUP_SECONDS);
    for (let round = 0; round < IMPORT_ROUNDS; round++) {
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
        const server = started.get(target);
        const { importCsv, exportPdf } = server ?? {};
        if (!server || !importCsv || !exportPdf) throw new Error(`${target.name} cannot import or export`);
        for (const connections of CONNECTIONS) {
          for (const phase of round % 2 === 0 ? (['alone', during] as const) : ([during, 'alone'] as const)) {
            let done: ImportRound;
            if (phase === 'alone') done = { target: target.name, connections, phase, verify: await server.run('approve', connections, ALONE_SECONDS) };
            else {
              const upload = DURING_EXPORT ? exportPdf() : importCsv(importCsvText(`${round}${target.name.slice(0, 1)}${connections}-${randomUUID().slice(0, 8)}`));
              const verify = await server.run('approve', connections, upload);
              done = { target: target.name, connections, phase, verify, upload: await upload };
            }
            rounds.push(done);
            const { verify, upload } = done;
            console.log(
              `  round ${round + 1} ${target.name} ${connections} conn. ${phase}: ${Math.round(verify.count / verify.seconds)} verify/s, p50 ${toFixed(verify.p50Ms)} ms, p99 ${toFixed(verify.p99Ms)} ms` +
                (upload ? `; ${job} ${toFixed(upload.seconds)} s, ${upload.imported} tickets${upload.bytes ? `, ${(upload.bytes / 1e6).toFixed(1)} MB` : ''}${upload.failure ? `, FAILED ${upload.failure}` : ''}` : '') +
                `; load ${load1()}`,
            );
          }
        }
      }
    }
  } finally {
    for (const target of started.values()) await target.stop();
  }

  const summaries = targets.flatMap((target) =>
    CONNECTIONS.flatMap((connections) =>
      (['alone', during] as const).map((phase) => {
        const own = rounds.filter((round) => round.target === target.name && round.connections === connections && round.phase === phase);
        const count = own.reduce((sum, round) => sum + round.verify.count, 0);
        const uploads = own.flatMap((round) => (round.upload ? [round.upload] : []));
        const importSeconds = uploads.reduce((sum, upload) => sum + upload.seconds, 0);
        return {
          target: target.name,
          connections,
          phase,
          answers: count,
          perSecond: count / own.reduce((sum, round) => sum + round.verify.seconds, 0),
          p50Ms: median(own.map((round) => round.verify.p50Ms)),
          p99Ms: median(own.map((round) => round.verify.p99Ms)),
          worstP99Ms: Math.max(...own.map((round) => round.verify.p99Ms)),
          failures: own.reduce((sum, round) => sum + round.verify.failures, 0),
          firstFailure: own.find((round) => round.verify.firstFailure)?.verify.firstFailure ?? '',
          importSeconds: uploads.length > 0 ? importSeconds / uploads.length : Number.NaN,
          importRowsPerSecond: uploads.length > 0 ? uploads.reduce((sum, upload) => sum + upload.imported, 0) / importSeconds : Number.NaN,
          importFailures: uploads.filter((upload) => upload.failure).map((upload) => upload.failure),
        };
      }),
    ),
  );
  console.table(
    summaries.map((m) => ({
      target: m.target,
      connections: m.connections,
      phase: m.phase,
      answers: m.answers,
      'verify/s': Math.round(m.perSecond),
      'p50 ms': toFixed(m.p50Ms),
      'p99 ms': toFixed(m.p99Ms),
      'worst p99 ms': toFixed(m.worstP99Ms),
      failures: m.failures,
      [`${job} s`]: toFixed(m.importSeconds),
      [`${job} tickets/s`]: Number.isFinite(m.importRowsPerSecond) ? Math.round(m.importRowsPerSecond) : '-',
    })),
  );
  const ratios = targets.flatMap((target) =>
    CONNECTIONS.flatMap((connections) => {
      const alone = summaries.find((m) => m.target === target.name && m.connections === connections && m.phase === 'alone');
      const busy = summaries.find((m) => m.target === target.name && m.connections === connections && m.phase === during);
      if (!alone || !busy) return [];
      return [
        {
          target: target.name,
          connections,
          'verify/s during / alone': toFixed(busy.perSecond / alone.perSecond, 2),
          'p50 during / alone': toFixed(busy.p50Ms / alone.p50Ms, 2),
          'p99 during / alone': toFixed(busy.p99Ms / alone.p99Ms, 2),
          [`${job} s`]: toFixed(busy.importSeconds),
        },
      ];
    }),
  );
  console.log(`What ${jobText} costs verify (during / alone, same server, same minutes):`);
  console.table(ratios);
  console.log(`load average at the end: ${load1()} (on ${cpus().length} cores; the ratios matter more than the single figures on a busy machine)`);
  const headline = {
    name: `bench:verify (${during})`,
    figure: ratios.map((row) => `${row.target} ${row.connections} conn.: ${job} ${row[`${job} s`]} s`).join('; '),
    ratio: ratios.map((row) => `${row.target} verify/s ×${row['verify/s during / alone']}, p99 ×${row['p99 during / alone']}`).join('; '),
  };
  console.log(`BENCH_RESULT ${JSON.stringify(headline)}`);
  let isFailed = false;
  for (const m of summaries) {
    if (m.failures > 0) console.error(`${m.target} ${m.phase} at ${m.connections} connections: ${m.failures} unexpected answers, e.g. ${m.firstFailure}`);
    for (const failure of m.importFailures) console.error(`${m.target} ${job} at ${m.connections} connections failed: ${failure}`);
    isFailed ||= m.failures > 0 || m.importFailures.length > 0;
  }
  return isFailed ? 1 : 0;
}
