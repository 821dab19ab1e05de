/**
 * `npm run bench:verify`: throughput and latency of `POST /api/tickets/verify` approving distinct
 * tickets, measured with autocannon against real server processes, each target against its
 * reference in the same run (the machine is shared, so only ratios from one run compare).
 *
 * Today: the embedded database durable at commit (docs/decisions/026) against the same server with
 * PGlite's old non-durable defaults, at 1 and 50 connections. Targets and cases are data: a new
 * target (PostgreSQL, a bare Fastify route, raw SQL) is one more entry in TARGETS, a new load one
 * more entry in CASES, a new ratio one more entry in COMPARISONS.
 *
 * Every answer must be a 200 approval; anything else (a denial because the tickets ran out, an
 * error) is reported and the run exits 1, since it would not measure approvals.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { apiPaths, VerifyTicketResponse } from '@gatecheck/contract';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';
import { prepareDoorDatabase } from '../test/helpers/door-database.ts';
import { DEMO_TODAY_DAY_NUMBER } from '../src/db/seed.ts';

/**
 * Every target is started first; then each case runs ROUNDS times for ROUND_SECONDS, the targets
 * taking turns, so that load from elsewhere on the machine falls on all of them alike. Each case
 * has WARMUP_SECONDS of unrecorded load first.
 */
const ROUNDS = 3;
const ROUND_SECONDS = 2;
const WARMUP_SECONDS = 1;
/** Fresh tickets per target: enough for its cases and warm-ups at up to 1,000 approvals/s. */
const TICKETS_PER_TARGET = 12_000;

/** A server to measure, started fresh (own data folder, own process) for its cases. */
interface Target {
  name: string;
  description: string;
  /** Opens the target's database (in its fresh `dataDir`) to prepare it: demo data, tickets, a session. */
  openDatabase(dataDir: string): Promise<DatabaseHandle>;
  /** The entry and arguments run with `node --import tsx` from apps/server, with DATA_DIR = `dataDir`. */
  args: string[];
}

/** The embedded database of a target's data folder, opened without syncs: preparing it is not measured. */
const openPgliteOf = (dataDir: string) => openDatabase({ pgliteDir: path.join(dataDir, 'pgdata'), isDurable: false });

/** One measured load: a target at a number of concurrent connections. */
interface BenchCase {
  target: string;
  connections: number;
}

/** A ratio to print: `subject` over `reference`, both at the same connections. */
interface Comparison {
  name: string;
  subject: string;
  reference: string;
}

const TARGETS: Target[] = [
  {
    name: 'pglite-non-durable',
    description: 'embedded PGlite, fsync off (before decision 026)',
    openDatabase: openPgliteOf,
    args: ['bench/verify-server.ts', 'non-durable'],
  },
  {
    name: 'pglite-durable',
    description: 'embedded PGlite, WAL fsynced at commit (decision 026)',
    openDatabase: openPgliteOf,
    args: ['bench/verify-server.ts', 'durable'],
  },
];

const CASES: BenchCase[] = [1, 50].flatMap((connections) => TARGETS.map((target) => ({ target: target.name, connections })));

const COMPARISONS: Comparison[] = [{ name: 'durable / non-durable', subject: 'pglite-durable', reference: 'pglite-non-durable' }];

/** What one round of a case measured. */
interface RoundResult {
  approvals: number;
  /** Seconds the round lasted. */
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers that were not 200 approvals, and connection errors or timeouts. */
  failures: number;
  firstFailure: string;
}

/** What a case measured over its rounds: approvals per second overall, the median round's latencies. */
interface Measurement {
  target: string;
  connections: number;
  approvals: number;
  throughput: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
  firstFailure: string;
}

/** A started target: its URL, a bearer token and the codes it has not approved yet. */
interface RunningTarget {
  url: string;
  token: string;
  eventId: string;
  codes: string[];
  stop(): Promise<void>;
}

async function startTarget(target: Target): Promise<RunningTarget> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `gatecheck-bench-${target.name}-`));
  const codes = Array.from({ length: TICKETS_PER_TARGET }, (_, i) => `BENCH-${String(i).padStart(6, '0')}`);
  const door = await prepareDoorDatabase(() => target.openDatabase(dataDir), codes);
  const child = spawn(process.execPath, ['--import', 'tsx', ...target.args], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', SEED_DEMO: 'false' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await listeningUrl(child, exited);
  return {
    url,
    ...door,
    codes,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function listeningUrl(child: ChildProcess, exited: Promise<void>): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then(() => reject(new Error(`the target exited before listening:\n${output}`)));
  });
}

function isApproval(status: number, body: string): boolean {
  if (status !== 200) return false;
  try {
    const verdict = VerifyTicketResponse.safeParse(JSON.parse(body));
    return verdict.success && verdict.data.isValid;
  } catch {
    return false;
  }
}

/** Runs autocannon for `seconds` at `connections`, each request approving the next unused ticket. */
async function load(target: RunningTarget, connections: number, seconds: number): Promise<RoundResult> {
  let failures = 0;
  let firstFailure = '';
  let approvals = 0;
  const result = await autocannon({
    url: target.url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: `/api${apiPaths.verifyTicket}`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({ eventId: target.eventId, qrCode: target.codes.shift() ?? 'NO-TICKETS-LEFT', day: DEMO_TODAY_DAY_NUMBER, scanId: randomUUID() }),
        }),
        onResponse: (status, body) => {
          if (isApproval(status, body)) {
            approvals += 1;
          } else {
            failures += 1;
            firstFailure ||= `${status} ${body.slice(0, 200)}`;
          }
        },
      },
    ],
  });
  failures += result.errors;
  if (result.errors > 0) firstFailure ||= `${result.errors} connection errors (${result.timeouts} timeouts)`;
  return { approvals, seconds: result.duration, p50Ms: result.latency.p50, p99Ms: result.latency.p99, failures, firstFailure };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function summarize(benchCase: BenchCase, rounds: RoundResult[]): Measurement {
  const approvals = rounds.reduce((sum, round) => sum + round.approvals, 0);
  return {
    ...benchCase,
    approvals,
    throughput: approvals / rounds.reduce((sum, round) => sum + round.seconds, 0),
    p50Ms: median(rounds.map((round) => round.p50Ms)),
    p99Ms: median(rounds.map((round) => round.p99Ms)),
    failures: rounds.reduce((sum, round) => sum + round.failures, 0),
    firstFailure: rounds.find((round) => round.firstFailure)?.firstFailure ?? '',
  };
}

/** The machine's 1-minute load average, to judge how much the figures of this run can be trusted. */
const load1 = () => (loadavg()[0] ?? 0).toFixed(1);
console.log(`verify benchmark: ${ROUNDS} rounds of ${ROUND_SECONDS} s per case after ${WARMUP_SECONDS} s warm-up, ${cpus().length} cores, Node ${process.version}, load ${load1()}`);
const running = new Map<string, RunningTarget>();
let measurements: Measurement[];
try {
  for (const target of TARGETS) {
    console.log(`- ${target.name}: ${target.description}`);
    running.set(target.name, await startTarget(target));
  }
  const targetOf = (benchCase: BenchCase): RunningTarget => {
    const target = running.get(benchCase.target);
    if (!target) throw new Error(`no target ${benchCase.target}`);
    return target;
  };
  for (const benchCase of CASES) await load(targetOf(benchCase), benchCase.connections, WARMUP_SECONDS);
  const rounds = new Map<BenchCase, RoundResult[]>(CASES.map((benchCase) => [benchCase, []]));
  for (let round = 0; round < ROUNDS; round++) {
    // Every other round backwards, so that no target always runs right after another.
    for (const benchCase of round % 2 === 0 ? CASES : [...CASES].reverse()) {
      rounds.get(benchCase)?.push(await load(targetOf(benchCase), benchCase.connections, ROUND_SECONDS));
    }
  }
  measurements = CASES.map((benchCase) => summarize(benchCase, rounds.get(benchCase) ?? []));
} finally {
  for (const target of running.values()) await target.stop();
}

console.table(
  measurements.map((measurement) => ({
    target: measurement.target,
    connections: measurement.connections,
    approvals: measurement.approvals,
    'approvals/s': Math.round(measurement.throughput),
    'p50 ms': measurement.p50Ms,
    'p99 ms': measurement.p99Ms,
    failures: measurement.failures,
  })),
);

const ratios = COMPARISONS.flatMap((comparison) =>
  [...new Set(CASES.map((benchCase) => benchCase.connections))].flatMap((connections) => {
    const subject = measurements.find((measurement) => measurement.target === comparison.subject && measurement.connections === connections);
    const reference = measurements.find((measurement) => measurement.target === comparison.reference && measurement.connections === connections);
    if (!subject || !reference) return [];
    return [
      {
        ratio: comparison.name,
        connections,
        throughput: (subject.throughput / reference.throughput).toFixed(2),
        p50: (subject.p50Ms / reference.p50Ms).toFixed(2),
        p99: (subject.p99Ms / reference.p99Ms).toFixed(2),
      },
    ];
  }),
);
console.table(ratios);
console.log(`load average at the end: ${load1()} (on ${cpus().length} cores; a load far above the core count makes single figures noisy, the ratios less so)`);

const failed = measurements.filter((measurement) => measurement.failures > 0);
for (const measurement of failed) {
  console.error(`${measurement.target} at ${measurement.connections} connections: ${measurement.failures} answers were not approvals, e.g. ${measurement.firstFailure}`);
}
process.exitCode = failed.length > 0 ? 1 : 0;
