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
 * runs ROUNDS times for ROUND_SECONDS, the targets taking turns (every other round backwards) so
 * that load from elsewhere on the shared machine falls on all alike, after WARMUP_SECONDS of
 * unrecorded load. Prints a table, the verify/reference ratios at each connection count, issue 13's
 * goals as docs/decisions/073 reads them (verify's best throughput against the database's
 * limit, the SQL reference's best; p99 at 50 connections on PostgreSQL; PGlite's approvals/s) and a
 * `BENCH_RESULT {json}` line (scripts/bench.ts). Without DATABASE_URL the PostgreSQL targets are skipped (said so).
 *
 * Every answer must be the expected one (an approval; an `already_checked_in` denial); anything
 * else is reported and the run exits 1. Timings never fail it.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { apiPaths, VerifyTicketResponse } from '@gatecheck/contract';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';
import { DEMO_TODAY_DAY_NUMBER } from '../src/db/seed.ts';
import { type DoorSetup, prepareDoorDatabase } from '../test/helpers/door-database.ts';
import { SERVER_DIR, spawnLogged, stopper, waitForLine } from './server-process.ts';
import { codesOf, type SqlLoad, type SqlLoadResult, type SqlSetup } from './verify-references.ts';

const ROUNDS = 2;
const ROUND_SECONDS = 2;
const WARMUP_SECONDS = 1;
/**
 * Concurrent connections of each case: 1, 50 and 200, or those of `BENCH_VERIFY_CONNECTIONS`
 * (comma-separated positive integers, e.g. `1` while profiling).
 * @throws Error naming the setting when it is set but holds no such number, or anything else.
 */
function connectionCounts(setting: string | undefined): readonly number[] {
  if (setting === undefined || setting.trim() === '') return [1, 50, 200];
  const counts = setting.split(',').map((part) => Number(part.trim()));
  if (!counts.every((count) => Number.isInteger(count) && count > 0)) {
    throw new Error(`BENCH_VERIFY_CONNECTIONS must be positive whole numbers separated by commas, e.g. 1,50; got "${setting}"`);
  }
  return [...new Set(counts)];
}
const CONNECTIONS = connectionCounts(process.env.BENCH_VERIFY_CONNECTIONS);
/**
 * Unused tickets per target for approvals: enough for its cases and warm-ups (15 s of approvals
 * in all) at up to 10,000 approvals/s on average (PostgreSQL reached 11,700/s at 200 connections
 * and used 109,000 tickets in a run). A target that runs out answers `not_found`, which fails the run.
 */
const APPROVE_TICKETS = 160_000;
/** Tickets checked in before the run, scanned again and again for the denial cases. */
const DENY_TICKETS = 1_000;
/** The server's `pg` pool (DATABASE_POOL_SIZE's default); the SQL reference uses as many connections. */
const POOL_SIZE = 10;

/**
 * `capacity`: approvals of distinct tickets at a check-in list with a capacity (CAPACITY places,
 * never reached in a run), beside `approve` at the event's first list without one: what claiming a
 * place costs (issue 26, docs/decisions/111; goal: within 20 % of `approve` at 50 connections).
 */
type Kind = 'approve' | 'deny' | 'http' | 'capacity';
/** The capacity of the bench's capacity-limited list: more than a run's capacity approvals. */
const CAPACITY = 100_000;

/**
 * `BENCH_VERIFY_CPU_PROF_DIR=<dir>`: the server targets run with V8's CPU profiler and write a
 * `.cpuprofile` there when they stop (open it in Chrome DevTools, or `bench/profile-summary.ts`).
 */
const PROFILE_ARGS = process.env.BENCH_VERIFY_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_VERIFY_CPU_PROF_DIR)}`] : [];

/** What one round of a case measured: `count` expected answers (approvals, already-checked-in denials; any 200 for the bare route). */
type RoundResult = SqlLoadResult;

/** A started target: runs one round of a kind of load at a number of connections. */
interface Running {
  run(kind: Kind, connections: number, seconds: number): Promise<RoundResult>;
  stop(): Promise<void>;
}

interface Target {
  name: string;
  description: string;
  kinds: Kind[];
  start(): Promise<Running>;
}

const denyCodes = codesOf('DENY-', DENY_TICKETS);

/** A fresh database with the demo data, APPROVE_TICKETS unused tickets per prefix and the checked-in DENY tickets. */
function prepare(open: () => Promise<DatabaseHandle>, approvePrefixes: string[]): Promise<DoorSetup> {
  const codes = [...approvePrefixes.flatMap((prefix) => codesOf(prefix, APPROVE_TICKETS)), ...denyCodes];
  return prepareDoorDatabase(open, codes, { checkedInCodes: denyCodes, capacity: CAPACITY });
}

function isExpected(kind: Kind, status: number, body: string): boolean {
  if (status !== 200) return false;
  if (kind === 'http') return true;
  try {
    const verdict = VerifyTicketResponse.safeParse(JSON.parse(body));
    if (!verdict.success) return false;
    return kind === 'approve' || kind === 'capacity' ? verdict.data.isValid : !verdict.data.isValid && verdict.data.reason === 'already_checked_in';
  } catch {
    return false;
  }
}

/** autocannon against `url`: each request scans the next unused code (approve) or the next checked-in one (deny). */
function httpRunning(url: string, door: DoorSetup, approveCodes: string[], stop: () => Promise<void>): Running {
  let denyIndex = 0;
  // A cursor, not `shift()`: shifting a 60,000-element array copies it (about 40 µs a call here),
  // load-generator work that would be counted against the server.
  let approveIndex = 0;
  return {
    stop,
    async run(kind, connections, seconds) {
      let failures = 0;
      let firstFailure = '';
      let count = 0;
      const result = await autocannon({
        url,
        connections,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            path: `/api${apiPaths.verifyTicket}`,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${door.token}` },
            setupRequest: (request) => {
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
      });
      failures += result.errors;
      if (result.errors > 0) firstFailure ||= `${result.errors} connection errors (${result.timeouts} timeouts)`;
      return { count, seconds: result.duration, p50Ms: result.latency.p50, p99Ms: result.latency.p99, failures, firstFailure };
    },
  };
}

/** Prepares a target's database: PGlite in `dataDir`, or the shared PostgreSQL (prepared once for both of its targets). */
type Preparer = (dataDir: string) => Promise<DoorSetup>;

const pglitePreparer =
  (prefix: string): Preparer =>
  (dataDir) =>
    prepare(() => openDatabase({ pgliteDir: path.join(dataDir, 'pgdata'), isDurable: false }), [prefix]);

function postgresPreparer(databaseUrl: string): Preparer {
  let prepared: Promise<DoorSetup> | undefined;
  return () => (prepared ??= prepare(() => openDatabase({ databaseUrl }), ['SRV-', 'REF-']));
}

/** A fresh temp folder for target `name`, and its database prepared by `preparer`. */
async function preparedDataDir(name: string, preparer: Preparer): Promise<{ dataDir: string; door: DoorSetup }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `gatecheck-bench-${name}-`));
  return { dataDir, door: await preparer(dataDir) };
}

/** The compiled server on a fresh database: PGlite in its own data folder, or the PostgreSQL at `databaseUrl`. */
function serverTarget(name: string, description: string, databaseUrl: string | undefined, preparer: Preparer): Target {
  return {
    name,
    description,
    kinds: ['approve', 'deny', 'capacity'],
    async start() {
      const { dataDir, door } = await preparedDataDir(name, preparer);
      // The server as a user starts it (default log level, JSON lines into a file), minus the demo seed.
      const { child, log, exited } = await spawnLogged(name, [...PROFILE_ARGS, '--enable-source-maps', 'dist/server.js'], {
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        SEED_DEMO: 'false',
      });
      const url = await waitForLine(log, /running at (http:\/\/\S+)/, exited);
      return httpRunning(url, door, codesOf('SRV-', APPROVE_TICKETS), stopper(child, exited, () => rm(dataDir, { recursive: true, force: true })));
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
    return httpRunning(url, door, [], stopper(child, exited, async () => undefined));
  },
};

const databaseUrl = process.env.DATABASE_URL || undefined;
const postgresDoor = databaseUrl ? postgresPreparer(databaseUrl) : undefined;
const ALL_TARGETS: Target[] = [
  serverTarget('verify-pglite', 'the compiled server on PGlite (durable at commit, decision 026)', undefined, pglitePreparer('SRV-')),
  sqlTarget('sql-pglite', 'the SQL one check-in needs, straight through PGlite (durable)', undefined, pglitePreparer('REF-')),
  ...(databaseUrl && postgresDoor
    ? [
        serverTarget('verify-postgres', 'the compiled server on PostgreSQL (pool of 10)', databaseUrl, postgresDoor),
        sqlTarget('sql-postgres', 'the SQL one check-in needs, straight through pg (pool of 10, prepared)', databaseUrl, postgresDoor),
      ]
    : []),
  bareTarget,
];
/** `BENCH_VERIFY_TARGETS=verify-postgres,sql-postgres` runs only those targets (e.g. while profiling). */
const chosenTargets = process.env.BENCH_VERIFY_TARGETS?.split(',').filter(Boolean);
const TARGETS = chosenTargets ? ALL_TARGETS.filter((target) => chosenTargets.includes(target.name)) : ALL_TARGETS;

interface BenchCase {
  target: Target;
  kind: Kind;
  connections: number;
}

const CASES: BenchCase[] = CONNECTIONS.flatMap((connections) => TARGETS.flatMap((target) => target.kinds.map((kind) => ({ target, kind, connections }))));

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
const capacityRatios = CONNECTIONS.flatMap((connections) =>
  (['pglite', 'postgres'] as const).flatMap((database) => {
    const plain = find(`verify-${database}`, 'approve', connections);
    const limited = find(`verify-${database}`, 'capacity', connections);
    if (!plain || !limited) return [];
    return [{ database, connections, 'approve/s': Math.round(plain.throughput), 'capacity/s': Math.round(limited.throughput), 'capacity / approve': fixed(limited.throughput / plain.throughput, 2) }];
  }),
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
