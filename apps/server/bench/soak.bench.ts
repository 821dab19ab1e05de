/**
 * `npm run bench:soak` (issue 27 item 4, docs/decisions/124): a long night at one door against the
 * real compiled server (`node dist/server.js`, built by build.ts), on the embedded PGlite and on a
 * PostgreSQL (`DATABASE_URL`; the npm script starts a throwaway durable one with
 * `scripts/with-postgres.ts --durable`), both at once, each server a process of its own on a
 * database of its own (PGlite: its folder; PostgreSQL: a database per run of this script).
 *
 * The door, per target, for `--minutes` (default 30; `SOAK_MINUTES`):
 * - 20 gates (each its own session of the demo admin, as each phone signs in), each scanning once a
 *   second on a fixed cadence (20 scans/s): 6 in 10 a fresh ticket (an approval), 2 a ticket
 *   checked in before the run (denied `already_checked_in`), 1 an unknown code (`not_found`), and 1
 *   decided on the phone and queued, uploaded with its session proof (docs/decisions/088) every
 *   OUTBOX_SEND_MS as POST …/offline-scans (must be `recorded`). A verify answered 503 (the
 *   database did not answer within verify's deadline, docs/decisions/052) is counted apart, not as
 *   a wrong answer: the phone decides offline, and an approval (an entry, a re-entry or an exit)
 *   joins its queue under the same scanId, its upload `recorded` or `duplicate` (the verify wrote it
 *   after all, docs/decisions/134);
 * - 1 gate in 5 (gates 5, 10, 15, 20) scans instead at a second check-in list, 'Re-entry door',
 *   which records exits and has a capacity (docs/decisions/111, 120), sending `checkInListId` and,
 *   for an exit, `direction: 'exit'` as the web app does (an entry sends none): of 10 scans, 3 a
 *   fresh ticket (an entry: approved with the list's insideNow and capacity), 2 an exit of a guest
 *   this gate let in (approved, direction exit), 2 a re-entry of a guest who left (approved), 1 a
 *   guest inside scanned in again (denied `already_checked_in`), 1 an unknown code, and 1 decided on
 *   the phone and queued: 1 in OFFLINE_EXIT_EVERY of them an exit of a guest inside (`direction:
 *   'exit'`), else a fresh entry, uploaded with the list's `checkInListId` (must be `recorded`). A
 *   scan that needs a guest inside (or out) when the gate has none is a fresh entry instead. Each exit and re-entry
 *   is a row of check_in_movements (docs/decisions/138; a first entry is the check-in itself), each
 *   entry claims a place of the list (check_in_list_slots) and each exit frees it;
 * - the event has a venue capacity (docs/decisions/147), so every entry at either list claims an
 *   event place (event_slots). Both capacities are the run's fresh and pre-checked-in tickets
 *   (at most CHECK_IN_LIST_MAX_CAPACITY), so that neither ever denies;
 * - each gate downloads its full door list before the run (unmeasured, as a phone does when its
 *   scanner opens), then syncs `since` its cursor every DOOR_LIST_SYNC_MS, and asks for the day's
 *   counts every COUNTS_REFRESH_MS (the web app's cadences);
 * - 2 supervisors search attendees every SEARCH_EVERY_MS; 2 live door pages poll GET …/live every
 *   LIVE_DOOR_POLL_MS.
 *
 * After a warm-up (`--warmup-minutes`, default 5; `SOAK_WARMUP_MINUTES`), printed as its own row and
 * left out of the comparison, every `--window-minutes` (default 5; `SOAK_WINDOW_MINUTES`) it prints one row per target: the
 * server process's resident set, V8 heap in use and external memory (PGlite's WebAssembly memory is
 * there), its active handles and open file descriptors
 * (all from the server's own GET /metrics, prom-client's process metrics, scraped every
 * SAMPLE_EVERY_MS with METRICS_TOKEN: the median of the window's samples); V8's used heap right
 * after a full collection (the server runs with bench/heap-after-gc.ts preloaded, asked
 * HEAP_SAMPLES_PER_WINDOW times a window over its IPC channel: the median of those, and the longest
 * of those collections' pauses; docs/decisions/152); the database connections
 * (PostgreSQL: pg_stat_activity on the server's database, this script's own connection left out;
 * the server's pool total from /metrics beside it; PGlite: one, in process), verify's p50/p99 and
 * the p99 of every other call (each p99 with its 95 % order-statistic interval), the requests
 * answered, verify's 503s and any unexpected answers, and the machine's
 * 1-minute load average (the median of the window's samples; the machine is shared, and a slower
 * window under a higher load is the load, not a leak). At the end, a table per target of each
 * window against the first by bench/soak-flatness.ts's rule: `!` marks an upward drift beyond 10 %
 * (for a latency, one its interval shows), "lower" / "faster" a reading below 0.9 ×, which is no
 * regression; the sampled heap is printed but not judged (it follows the collector's saw-tooth).
 *
 * Every answer must be the expected one; anything else is counted, its first shown, and the run
 * exits 1. Timings and growth never fail it (a benchmark, never part of npm test). At the end, per
 * target, the re-entry door's approved entries, exits and re-entries, the offline exits recorded,
 * the list's and the venue's inside now from the gates' last counts, and the rows of
 * check_in_movements, check_in_list_slots and event_slots held once the server stopped.
 * `SOAK_TARGETS=pglite` (or `postgres`) runs one.
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  API_PREFIX,
  apiPaths,
  CHECK_IN_LIST_MAX_CAPACITY,
  CheckInCounts,
  checkInCountsPath,
  DoorList,
  LIVE_DOOR_POLL_MS,
  liveDoorPaths,
  offlinePaths,
  offlineScanProof,
  type OfflineScan,
  OfflineScanBatchResponse,
  type OfflineScanStatus,
  supervisorPaths,
  VerifyTicketResponse,
} from '@gatecheck/contract';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../src/db/client.ts';
import { DEMO_TODAY_DAY_NUMBER } from '../src/db/seed.ts';
import { cliActor } from '../src/services/audit.ts';
import { createCheckInList } from '../src/services/check-in-lists.ts';
import { findEvent, updateEvent } from '../src/services/events.ts';
import { createSession } from '../src/services/sessions.ts';
import { prepareDoorDatabase } from '../test/helpers/door-database.ts';
import { SERVER_DIR, spawnLogged, stopper, waitForLine } from './server-process.ts';
import { FLAT_WITHIN, judgeLevel, judgeQuantile, type Judged, type QuantileEstimate, quantileWithInterval, QUANTILE_CONFIDENCE } from './soak-flatness.ts';
import { codesOf } from './verify-references.ts';

const { values: flags } = parseArgs({
  options: { minutes: { type: 'string' }, 'window-minutes': { type: 'string' }, 'warmup-minutes': { type: 'string' } },
});
/** A positive number from a flag or the environment, or `fallback`. @throws Error naming the setting otherwise. */
function positive(name: string, setting: string | undefined, fallback: number, { zeroAllowed = false } = {}): number {
  if (setting === undefined || setting.trim() === '') return fallback;
  const value = Number(setting);
  if (!(Number.isFinite(value) && (value > 0 || (zeroAllowed && value === 0)))) throw new Error(`${name} must be a ${zeroAllowed ? 'non-negative' : 'positive'} number of minutes; got "${setting}"`);
  return value;
}
const MINUTES = positive('--minutes / SOAK_MINUTES', flags.minutes ?? process.env.SOAK_MINUTES, 30);
const WINDOW_MINUTES = positive('--window-minutes / SOAK_WINDOW_MINUTES', flags['window-minutes'] ?? process.env.SOAK_WINDOW_MINUTES, 5);
const WINDOW_MS = WINDOW_MINUTES * 60_000;
const WINDOWS = Math.max(1, Math.round(MINUTES / WINDOW_MINUTES));
/**
 * The door runs this long before the first window (default 5; `SOAK_WARMUP_MINUTES`; 0 for none),
 * reported as its own row and left out of the comparison: PostgreSQL's shared buffers (inside the
 * server's process on PGlite), V8's heap and the pool fill once in the first minutes, and a soak
 * asks whether anything grows after that, not whether a cold server warms up.
 */
const WARMUP_MINUTES = positive('--warmup-minutes / SOAK_WARMUP_MINUTES', flags['warmup-minutes'] ?? process.env.SOAK_WARMUP_MINUTES, 5, { zeroAllowed: true });
const WARMUP_MS = WARMUP_MINUTES * 60_000;

const GATES = 20;
/** Each gate's scan cadence: 20 gates × 1/s = 20 scans/s. */
const SCAN_EVERY_MS = 1_000;
/** apps/web DOOR_LIST_SYNC_MS, CHECK_IN_COUNTS_REFRESH_MS, OUTBOX_SEND_INTERVAL_MS (the web app is not imported here). */
const DOOR_LIST_SYNC_MS = 60_000;
const COUNTS_REFRESH_MS = 30_000;
const OUTBOX_SEND_MS = 30_000;
const SUPERVISORS = 2;
const SEARCH_EVERY_MS = 10_000;
const LIVE_WATCHERS = 2;
const SAMPLE_EVERY_MS = 10_000;
/**
 * Full collections a window, each to read the live heap (bench/heap-after-gc.ts): few, since each
 * stops the server for its pause (printed per window: 0.5–0.8 s on this shared machine at load 11)
 * and delays the requests arriving meanwhile, which then sit in the latency tail.
 */
const HEAP_SAMPLES_PER_WINDOW = 3;
const HEAP_AFTER_GC_EVERY_MS = WINDOW_MS / HEAP_SAMPLES_PER_WINDOW;
/** A request with no answer in this long counts as unexpected (the phone gave up long before). */
const REQUEST_TIMEOUT_MS = 15_000;
/** Fresh tickets: 7 scans in 10 need one (approvals and offline scans), with room to spare. */
const FRESH_TICKETS = Math.ceil(GATES * (((MINUTES + WARMUP_MINUTES) * 60_000) / SCAN_EVERY_MS) * 0.7 * 1.1) + 1_000;
const DENY_TICKETS = 1_000;
/**
 * The re-entry door's and the venue's capacity: every ticket of the run could be inside at once
 * (the first list keeps its guests inside for the day), so neither capacity ever denies.
 */
const CAPACITY = FRESH_TICKETS + DENY_TICKETS;
if (CAPACITY > CHECK_IN_LIST_MAX_CAPACITY) throw new Error(`a soak of ${WARMUP_MINUTES + MINUTES} minutes needs a capacity of ${CAPACITY} guests, above the most a list or an event may have (${CHECK_IN_LIST_MAX_CAPACITY}): run a shorter soak`);
/** Every REENTRY_GATE_EVERY-th gate scans at the re-entry door (gates 5, 10, 15, 20). */
const REENTRY_GATE_EVERY = 5;
const isReentryGate = (gateIndex: number) => gateIndex % REENTRY_GATE_EVERY === REENTRY_GATE_EVERY - 1;
/** Of a re-entry gate's offline scans, every OFFLINE_EXIT_EVERY-th is an exit. */
const OFFLINE_EXIT_EVERY = 3;
const METRICS_TOKEN = randomUUID();
const DAY = DEMO_TODAY_DAY_NUMBER;

type Kind = 'verify' | 'offline' | 'doorList' | 'counts' | 'search' | 'live';

/** One window's measurements of one target. */
interface WindowRow {
  /** 0 is the warm-up; 1… the measured windows. */
  window: number;
  load1: number;
  rssMb: number;
  /** The median of /metrics' samples of V8's used heap: follows the collector's saw-tooth, printed, not judged. */
  heapMb: number;
  /** The median of the window's readings of V8's used heap right after a full collection: the live heap. */
  heapAfterGcMb: number;
  /** The longest of those collections' pauses (ms): what the reading cost the server's answers. */
  gcPauseMaxMs: number;
  /** V8's external memory: buffers outside the heap, PGlite's WebAssembly memory among them. */
  externalMb: number;
  handles: number;
  openFds: number;
  /** Database connections (pg_stat_activity), or 1 for PGlite. */
  connections: number;
  /** The pool's open connections from /metrics (PostgreSQL), undefined on PGlite. */
  poolTotal: number | undefined;
  verifyP50: QuantileEstimate;
  verifyP99: QuantileEstimate;
  otherP99: QuantileEstimate;
  requests: number;
  unexpected: number;
  /** Verifies answered 503 (not in time): decided offline by the phone, approvals queued and uploaded. */
  unavailable: number;
}

interface Sample {
  load1: number;
  rss: number;
  heap: number;
  external: number;
  handles: number;
  openFds: number;
  connections: number;
  poolTotal: number | undefined;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
const median = (values: number[]) => percentile(values, 50);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The value of metric `name` (with `labels`, e.g. `{state="total"}`) in Prometheus text, or undefined. */
function metricValue(text: string, name: string, labels = ''): number | undefined {
  const escaped = `${name}${labels}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^${escaped} ([0-9.e+-]+)$`, 'm').exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** A target: a server on a database of its own, and how to count its database connections. */
interface Target {
  name: 'pglite' | 'postgres';
  baseUrl: string;
  eventId: string;
  /** The second check-in list: re-entry allowed, capacity CAPACITY. */
  reentryListId: string;
  tokens: string[];
  log: string;
  connections(): Promise<number>;
  /** Runs a full collection in the server's process and reads its used heap right after (bench/heap-after-gc.ts). */
  heapAfterGc(): Promise<HeapAfterGc>;
  /** Stops the server; then reads `rowsAtEnd` from its database (PGlite's folder is then free to open) and removes what the run made. */
  stop(): Promise<void>;
  rowsAtEnd?: RowsAtEnd;
}

/** The rows of the door's movement and place writes in a target's database once its server stopped: that the soak grew them. */
interface RowsAtEnd {
  movements: number;
  exits: number;
  listPlacesHeld: number;
  eventPlacesHeld: number;
}

/** Counts the RowsAtEnd in the database `open` opens; undefined (and the reason logged) when it cannot. */
async function rowsAtEnd(open: () => ReturnType<typeof openDatabase>): Promise<RowsAtEnd | undefined> {
  try {
    const handle = await open();
    try {
      const result = (await handle.db.execute(sql`
        select (select count(*) from check_in_movements)::int as movements,
          (select count(*) from check_in_movements where direction = 'exit')::int as exits,
          (select count(*) from check_in_list_slots where check_in_id is not null)::int as "listPlacesHeld",
          (select count(*) from event_slots where ticket_id is not null)::int as "eventPlacesHeld"`)) as unknown as { rows: RowsAtEnd[] };
      return result.rows[0];
    } finally {
      await handle.close();
    }
  } catch (error) {
    console.error(`counting the rows at the end failed: ${String(error)}`);
    return undefined;
  }
}

/** Seeds a door into the database `open` opens and makes one session per gate and supervisor (tokens). */
async function prepareSoakDoor(open: () => ReturnType<typeof openDatabase>) {
  const freshCodes = codesOf('SOAK-', FRESH_TICKETS);
  const denyCodes = codesOf('DENY-', DENY_TICKETS);
  const door = await prepareDoorDatabase(open, [...freshCodes, ...denyCodes], { checkedInCodes: denyCodes });
  const handle = await open();
  try {
    const tokens: string[] = [];
    // Sessions outlive the run (plus seeding) so that no gate is signed out half-way.
    for (let index = 0; index < GATES + SUPERVISORS + LIVE_WATCHERS; index++) tokens.push((await createSession(handle.db, door.userId, (WARMUP_MINUTES + MINUTES + 60) * 60_000)).token);
    const reentryList = await createCheckInList(handle.db, await findEvent(handle.db, door.eventId), { name: 'Re-entry door', ticketTypes: null, days: null, allowsReentry: true, capacity: CAPACITY }, cliActor());
    // Set after the pre-checked-in tickets are in: they hold the venue's first places, as guests inside do.
    await updateEvent(handle.db, door.eventId, { capacity: CAPACITY }, cliActor());
    await handle.db.execute(sql`analyze`);
    return { eventId: door.eventId, reentryListId: reentryList.id, tokens, freshCodes, denyCodes };
  } finally {
    await handle.close();
  }
}

/** bench/heap-after-gc.ts's answer: V8's used heap right after a full collection (bytes) and that collection's pause (ms). */
interface HeapAfterGc {
  usedHeapBytes: number;
  pauseMs: number;
}

/**
 * Asks the server `child` (started with bench/heap-after-gc.ts preloaded) for a full collection and
 * its used heap right after.
 * @throws Error when no answer comes within REQUEST_TIMEOUT_MS or the channel is closed.
 */
function askHeapAfterGc(child: ChildProcess): Promise<HeapAfterGc> {
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (typeof message !== 'object' || message === null) return;
      const answer = message as Partial<Record<'type' | 'id' | 'usedHeapBytes' | 'pauseMs', unknown>>;
      if (answer.type !== 'heap-after-gc' || answer.id !== id || typeof answer.usedHeapBytes !== 'number' || typeof answer.pauseMs !== 'number') return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve({ usedHeapBytes: answer.usedHeapBytes, pauseMs: answer.pauseMs });
    };
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error(`no heap-after-gc answer within ${REQUEST_TIMEOUT_MS} ms`));
    }, REQUEST_TIMEOUT_MS);
    child.on('message', onMessage);
    child.send({ type: 'heap-after-gc', id }, (error) => {
      if (!error) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      reject(error);
    });
  });
}

/** The preload that answers askHeapAfterGc in the server's process. */
const HEAP_AFTER_GC_PRELOAD = pathToFileURL(path.join(SERVER_DIR, 'bench', 'heap-after-gc.ts')).href;

async function startServer(name: Target['name'], env: Record<string, string>): Promise<{ baseUrl: string; log: string; heapAfterGc: () => Promise<HeapAfterGc>; stop: () => Promise<void> }> {
  const { child, log, exited } = await spawnLogged(`soak-${name}`, ['--enable-source-maps', '--expose-gc', '--import', HEAP_AFTER_GC_PRELOAD, 'dist/server.js'], {
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: 'false',
    METRICS_TOKEN,
    ...env,
  });
  const baseUrl = await waitForLine(log, /running at (http:\/\/\S+)/, exited);
  return { baseUrl: baseUrl.replace(/\/$/, ''), log, heapAfterGc: () => askHeapAfterGc(child), stop: stopper(child, exited, async () => undefined) };
}

async function pgliteTarget(): Promise<Target & { freshCodes: string[]; denyCodes: string[] }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gatecheck-bench-soak-pglite-'));
  const door = await prepareSoakDoor(() => openDatabase({ pgliteDir: path.join(dataDir, 'pgdata'), isDurable: false }));
  const server = await startServer('pglite', { DATA_DIR: dataDir, DATABASE_URL: '' });
  const target: Target & { freshCodes: string[]; denyCodes: string[] } = {
    name: 'pglite',
    ...door,
    ...server,
    connections: async () => 1,
    stop: async () => {
      await server.stop();
      target.rowsAtEnd = await rowsAtEnd(() => openDatabase({ pgliteDir: path.join(dataDir, 'pgdata'), isDurable: false }));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return target;
}

async function postgresTarget(databaseUrl: string): Promise<Target & { freshCodes: string[]; denyCodes: string[] }> {
  // A database of this run's own on the cluster, so that pg_stat_activity counts the server's alone.
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  const databaseName = `soak_${Date.now()}`;
  await admin.query(`create database ${databaseName}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.pathname = `/${databaseName}`;
  const soakUrl = url.toString();
  const door = await prepareSoakDoor(() => openDatabase({ databaseUrl: soakUrl }));
  const server = await startServer('postgres', { DATABASE_URL: soakUrl });
  const observer = new pg.Client({ connectionString: soakUrl });
  await observer.connect();
  const target: Target & { freshCodes: string[]; denyCodes: string[] } = {
    name: 'postgres',
    ...door,
    ...server,
    async connections() {
      const result = await observer.query<{ count: string }>('select count(*) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
      return Number(result.rows[0]?.count ?? Number.NaN);
    },
    stop: async () => {
      await server.stop();
      await observer.end();
      target.rowsAtEnd = await rowsAtEnd(() => openDatabase({ databaseUrl: soakUrl }));
    },
  };
  return target;
}

/** What the door saw in one window of one target. */
class WindowRecord {
  latencies = new Map<Kind, number[]>();
  requests = 0;
  unexpected = 0;
  /** Verifies answered 503 (the database did not answer within verify's deadline): the phone decided offline. */
  unavailable = 0;
  /** The window's first unexpected answer, printed under its row. */
  firstUnexpected = '';
  samples: Sample[] = [];
  /** V8's used heap right after each full collection asked in the window (bytes), and those collections' pauses (ms). */
  heapsAfterGc: number[] = [];
  gcPauses: number[] = [];
  record(kind: Kind, ms: number) {
    const list = this.latencies.get(kind) ?? [];
    list.push(ms);
    this.latencies.set(kind, list);
    this.requests += 1;
  }
}

/** `?checkInListId=…` for a gate at the re-entry door (its door list and counts are that list's, as the web app asks), else ''. */
function gateQuery(target: Target, gateIndex: number, more: Record<string, string> = {}): string {
  const query = new URLSearchParams({ ...(isReentryGate(gateIndex) ? { checkInListId: target.reentryListId } : {}), ...more }).toString();
  return query ? `?${query}` : '';
}

/** What the re-entry door did in one target's run, printed at the end: the new traffic did happen. */
interface ReentryTally {
  entries: number;
  exits: number;
  reentries: number;
  offlineExits: number;
  /** From the re-entry gates' latest counts answer: the list's and the venue's inside now. */
  listInside: number | undefined;
  venueInside: number | undefined;
}

/**
 * Each gate's first door list (the full list), as a phone downloads it when its scanner opens,
 * before the doors do: not measured. Resolves to each gate's cursor.
 * @throws Error when a download fails.
 */
async function openGates(target: Target): Promise<string[]> {
  const cursors: string[] = [];
  for (let index = 0; index < GATES; index++) {
    const response = await fetch(`${target.baseUrl}${API_PREFIX}${offlinePaths.doorList(target.eventId, DAY)}${gateQuery(target, index)}`, { headers: { authorization: `Bearer ${target.tokens[index] ?? ''}` } });
    const list = DoorList.parse(await response.json());
    cursors.push(list.cursor);
  }
  return cursors;
}

async function soak(
  target: Target & { freshCodes: string[]; denyCodes: string[] },
  cursors: string[],
  startedAt: number,
  onWindow: (row: WindowRow) => void,
): Promise<{ rows: WindowRow[]; firstUnexpected: string; tally: ReentryTally }> {
  const measuredFrom = startedAt + WARMUP_MS;
  const until = measuredFrom + WINDOWS * WINDOW_MS;
  // records[0] is the warm-up (empty when there is none), records[w] the w-th measured window.
  const records = Array.from({ length: WINDOWS + 1 }, () => new WindowRecord());
  const recordOf = (at: number) => records[at < measuredFrom ? 0 : Math.min(WINDOWS, 1 + Math.floor((at - measuredFrom) / WINDOW_MS))] as WindowRecord;
  let firstUnexpected = '';
  const tally: ReentryTally = { entries: 0, exits: 0, reentries: 0, offlineExits: 0, listInside: undefined, venueInside: undefined };
  let nextFresh = 0;
  let nextDeny = 0;
  let nextUnknown = 0;
  const freshCode = () => target.freshCodes[nextFresh++] ?? 'NO-TICKETS-LEFT';

  /**
   * Sends one call; records its latency in the window it started in; `check` says whether the answer
   * is the expected one. With `onUnavailable`, a 503 (verify's fast answer when the database did not
   * answer in time, docs/decisions/052) is what a phone meets on a slow night, not a wrong answer:
   * counted apart and handed to `onUnavailable` (the phone decides offline and queues the scan).
   */
  async function call(
    kind: Kind,
    token: string,
    method: 'GET' | 'POST',
    url: string,
    body: unknown,
    check: (status: number, json: unknown) => boolean,
    onUnavailable?: () => Promise<void>,
  ): Promise<unknown> {
    const sentAt = performance.now();
    const record = recordOf(sentAt);
    let json: unknown;
    try {
      const response = await fetch(`${target.baseUrl}${API_PREFIX}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? null : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await response.text();
      record.record(kind, performance.now() - sentAt);
      json = text ? JSON.parse(text) : undefined;
      if (response.status === 503 && onUnavailable) {
        record.unavailable += 1;
        await onUnavailable();
        return undefined;
      }
      if (!check(response.status, json)) {
        record.unexpected += 1;
        record.firstUnexpected ||= `${kind} ${method} ${url}: ${response.status} ${text.slice(0, 300)}`;
        firstUnexpected ||= record.firstUnexpected;
        return undefined;
      }
      return json;
    } catch (error) {
      record.unexpected += 1;
      record.firstUnexpected ||= `${kind} ${method} ${url} after ${fixed(performance.now() - sentAt, 0)} ms: ${String(error)}`;
      firstUnexpected ||= record.firstUnexpected;
      return undefined;
    }
  }

  /** `also`: what else the verdict must say (an exit's direction, the list's occupancy). */
  const verdictIs = (expected: { isValid: boolean; reason?: string }, also: (verdict: VerifyTicketResponse) => boolean = () => true) => (status: number, json: unknown) => {
    const verdict = VerifyTicketResponse.safeParse(json);
    return status === 200 && verdict.success && verdict.data.isValid === expected.isValid && (expected.reason === undefined || ('reason' in verdict.data && verdict.data.reason === expected.reason)) && also(verdict.data);
  };
  /** An approval at the re-entry door carries its occupancy (a list that counts its guests), and an exit says so. */
  const atReentryDoor = (direction: 'entry' | 'exit') => (verdict: VerifyTicketResponse) =>
    verdict.insideNow !== undefined && verdict.capacity === CAPACITY && (direction === 'exit') === (verdict.direction === 'exit');

  /** Runs `tick` every `everyMs` from `offsetMs` on a fixed cadence (not after the previous answer) until the end. */
  async function every(everyMs: number, offsetMs: number, tick: (index: number) => Promise<unknown>) {
    const inFlight: Promise<unknown>[] = [];
    for (let index = 0; ; index++) {
      const due = startedAt + offsetMs + index * everyMs;
      if (due >= until) break;
      await sleep(Math.max(0, due - performance.now()));
      const pending = tick(index);
      inFlight.push(pending);
      // A slow answer does not hold the next scan back (a queue does not wait for the server), but the gate keeps at most 4 in flight.
      if (inFlight.length >= 4) await inFlight.shift();
    }
    await Promise.all(inFlight);
  }

  const gate = (gateIndex: number) => {
    const token = target.tokens[gateIndex] as string;
    const deviceId = `soak-gate-${gateIndex + 1}`;
    const atReentry = isReentryGate(gateIndex);
    /** The list this gate scans at, as the web app sends it: the re-entry door's id, or none (the event's first list). */
    const list = atReentry ? { checkInListId: target.reentryListId } : {};
    /** Queued scans with the upload answers each may get: a scan queued after a 503 may have been written by that verify (decision 134), and its upload then answers `duplicate`. */
    const queued: { scan: OfflineScan; accepts: readonly OfflineScanStatus[] }[] = [];
    let cursor = cursors[gateIndex];
    // The re-entry door's guests: inside through this gate's list, or left (each ticket in at most one, and in neither while a scan of it is in flight).
    const inside: string[] = [];
    const left: string[] = [];
    let offlineScans = 0;
    /** A scan decided on the phone (approved: an entry, or an exit of a guest it knows is inside) and queued under `scanId`. */
    const queueOffline = async (code: string, scanId: string, { direction = 'entry', accepts = ['recorded'] }: { direction?: 'entry' | 'exit'; accepts?: readonly OfflineScanStatus[] } = {}) => {
      const scan = { scanId, code, scannedAt: new Date().toISOString(), deviceId };
      queued.push({ scan: { ...scan, verdict: 'approved', sessionProof: await offlineScanProof(token, scan), ...(direction === 'exit' ? { direction: 'exit' as const } : {}) }, accepts });
    };
    /** After a 503 the phone decides offline: the approval (entry or exit) is queued under the same scanId; the ticket is not scanned again. */
    const queueAfter503 = (code: string, scanId: string, direction: 'entry' | 'exit' = 'entry') => () => queueOffline(code, scanId, { direction, accepts: ['recorded', 'duplicate'] });
    /** The day's other scans the phone decides offline after a 503 are denials; only its approvals matter for the record. */
    const noQueue = async () => undefined;
    const verify = (body: { qrCode: string; direction?: 'exit' }, check: (status: number, json: unknown) => boolean, onUnavailable: () => Promise<void>, scanId = randomUUID()) =>
      call('verify', token, 'POST', apiPaths.verifyTicket, { eventId: target.eventId, day: DAY, scanId, ...list, ...body }, check, onUnavailable);
    /** A fresh ticket's entry (approved); at the re-entry door the guest is then inside. */
    const freshEntry = async () => {
      const qrCode = freshCode();
      const scanId = randomUUID();
      const answer = await verify({ qrCode }, verdictIs({ isValid: true }, atReentry ? atReentryDoor('entry') : undefined), queueAfter503(qrCode, scanId), scanId);
      if (atReentry && answer !== undefined) {
        tally.entries += 1;
        inside.push(qrCode);
      }
    };
    const unknown = () => verify({ qrCode: `UNKNOWN-${nextUnknown++}` }, verdictIs({ isValid: false, reason: 'not_found' }), noQueue);
    /** A re-entry gate's scan `slot` of 10 (see the module comment). */
    const reentryScan = async (slot: number) => {
      if (slot === 3 || slot === 5) {
        const qrCode = inside.shift();
        if (qrCode === undefined) return freshEntry();
        const scanId = randomUUID();
        const answer = await verify({ qrCode, direction: 'exit' }, verdictIs({ isValid: true }, atReentryDoor('exit')), queueAfter503(qrCode, scanId, 'exit'), scanId);
        if (answer !== undefined) {
          tally.exits += 1;
          left.push(qrCode);
        }
        return undefined;
      }
      if (slot === 4 || slot === 8) {
        const qrCode = left.shift();
        if (qrCode === undefined) return freshEntry();
        const scanId = randomUUID();
        const answer = await verify({ qrCode }, verdictIs({ isValid: true }, atReentryDoor('entry')), queueAfter503(qrCode, scanId), scanId);
        if (answer !== undefined) {
          tally.reentries += 1;
          inside.push(qrCode);
        }
        return undefined;
      }
      if (slot === 6) {
        const qrCode = inside.shift();
        if (qrCode === undefined) return freshEntry();
        const answer = await verify({ qrCode }, verdictIs({ isValid: false, reason: 'already_checked_in' }), noQueue);
        // Still inside whatever the answer (a denial writes nothing).
        inside.push(qrCode);
        return answer;
      }
      if (slot === 7) return unknown();
      if (slot === 9) {
        const exiting = offlineScans++ % OFFLINE_EXIT_EVERY === OFFLINE_EXIT_EVERY - 1 ? inside.shift() : undefined;
        return exiting === undefined ? queueOffline(freshCode(), randomUUID()) : queueOffline(exiting, randomUUID(), { direction: 'exit' });
      }
      return freshEntry();
    };
    // Each gate's phase in each cadence is spread over the interval, as phones that opened their
    // scanners at different moments are: 20 door lists within one second every minute would be a
    // burst no door makes.
    const phase = (intervalMs: number) => (gateIndex * intervalMs) / GATES;
    return Promise.all([
      every(SCAN_EVERY_MS, phase(SCAN_EVERY_MS), async (index) => {
        const slot = index % 10;
        if (atReentry) return reentryScan(slot);
        if (slot < 6) return freshEntry();
        if (slot < 8) {
          const qrCode = target.denyCodes[nextDeny++ % target.denyCodes.length] as string;
          return verify({ qrCode }, verdictIs({ isValid: false, reason: 'already_checked_in' }), noQueue);
        }
        if (slot < 9) return unknown();
        return queueOffline(freshCode(), randomUUID());
      }),
      every(OUTBOX_SEND_MS, phase(OUTBOX_SEND_MS), async () => {
        const batch = queued.splice(0);
        if (batch.length === 0) return undefined;
        const answer = await call('offline', token, 'POST', offlinePaths.offlineScans(target.eventId, DAY), { ...list, scans: batch.map((item) => item.scan) }, (status, json) => {
          const parsed = OfflineScanBatchResponse.safeParse(json);
          return status === 200 && parsed.success && parsed.data.results.length === batch.length && parsed.data.results.every((result, index) => batch[index]?.accepts.includes(result.status) === true);
        });
        if (answer !== undefined) tally.offlineExits += batch.filter((item) => item.scan.direction === 'exit').length;
        return undefined;
      }),
      every(DOOR_LIST_SYNC_MS, phase(DOOR_LIST_SYNC_MS), async () => {
        const since: Record<string, string> = cursor === undefined ? {} : { since: cursor };
        // A failed delta keeps the old cursor, as the phone does.
        const answer = await call('doorList', token, 'GET', `${offlinePaths.doorList(target.eventId, DAY)}${gateQuery(target, gateIndex, since)}`, undefined, (status, json) => status === 200 && DoorList.safeParse(json).success);
        const parsed = DoorList.safeParse(answer);
        if (parsed.success) cursor = parsed.data.cursor;
      }),
      every(COUNTS_REFRESH_MS, phase(COUNTS_REFRESH_MS), async () => {
        // At the re-entry door the counts name its list; both carry their capacity.
        const answer = await call('counts', token, 'GET', `${checkInCountsPath(target.eventId, DAY)}${gateQuery(target, gateIndex)}`, undefined, (status, json) => {
          const counts = CheckInCounts.safeParse(json);
          return status === 200 && counts.success && counts.data.capacity === CAPACITY && (!atReentry || counts.data.checkInList?.capacity === CAPACITY);
        });
        const counts = CheckInCounts.safeParse(answer);
        if (atReentry && counts.success) {
          tally.listInside = counts.data.checkInList?.insideNow;
          tally.venueInside = counts.data.insideNow;
        }
      }),
    ]);
  };

  const supervisor = (index: number) => {
    const token = target.tokens[GATES + index] as string;
    // Codes are "SOAK-001234" (holders "Holder SOAK-001234"): the first 10 characters of one, 10 tickets, as a supervisor types part of it.
    return every(SEARCH_EVERY_MS, (index * SEARCH_EVERY_MS) / SUPERVISORS, (tick) =>
      call('search', token, 'GET', `${supervisorPaths.attendeeSearch(target.eventId)}?day=${DAY}&q=${encodeURIComponent(`SOAK-0${String((tick * 37 + index * 101) % 2000).padStart(4, '0')}`)}`, undefined, (status) => status === 200),
    );
  };

  const watcher = (index: number) => {
    const token = target.tokens[GATES + SUPERVISORS + index] as string;
    return every(LIVE_DOOR_POLL_MS, (index * LIVE_DOOR_POLL_MS) / LIVE_WATCHERS, () => call('live', token, 'GET', liveDoorPaths.live(target.eventId, DAY), undefined, (status) => status === 200));
  };

  const sampler = async () => {
    const metricsUrl = `${target.baseUrl}/metrics`;
    await every(SAMPLE_EVERY_MS, SAMPLE_EVERY_MS / 2, async () => {
      const record = recordOf(performance.now());
      try {
        const response = await fetch(metricsUrl, { headers: { authorization: `Bearer ${METRICS_TOKEN}` }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        const text = await response.text();
        const read = (name: string, labels = '') => metricValue(text, `gatecheck_${name}`, labels) ?? Number.NaN;
        record.samples.push({
          load1: loadavg()[0] ?? Number.NaN,
          rss: read('process_resident_memory_bytes'),
          heap: read('nodejs_heap_size_used_bytes'),
          external: read('nodejs_external_memory_bytes'),
          handles: read('nodejs_active_handles_total'),
          openFds: read('process_open_fds'),
          connections: await target.connections(),
          poolTotal: target.name === 'postgres' ? read('db_pool_connections', '{state="total"}') : undefined,
        });
      } catch (error) {
        firstUnexpected ||= `metrics: ${String(error)}`;
        record.unexpected += 1;
      }
    });
  };

  // The two servers' collections a half-interval apart, so that one's pause does not fall on the other's.
  const heapProbe = () =>
    every(HEAP_AFTER_GC_EVERY_MS, HEAP_AFTER_GC_EVERY_MS * (target.name === 'pglite' ? 0.25 : 0.75), async () => {
      const record = recordOf(performance.now());
      try {
        const reading = await target.heapAfterGc();
        record.heapsAfterGc.push(reading.usedHeapBytes);
        record.gcPauses.push(reading.pauseMs);
      } catch (error) {
        firstUnexpected ||= `heap after GC: ${String(error)}`;
        record.unexpected += 1;
      }
    });

  const rows: WindowRow[] = [];
  const reporter = async () => {
    for (let window = WARMUP_MS > 0 ? 0 : 1; window <= WINDOWS; window++) {
      // Each window is reported once the calls sent in it have answered (up to the request timeout).
      await sleep(Math.max(0, measuredFrom + window * WINDOW_MS + REQUEST_TIMEOUT_MS - performance.now()));
      const record = records[window] as WindowRecord;
      const of = (pick: (sample: Sample) => number | undefined) => median(record.samples.map(pick).filter((value): value is number => value !== undefined));
      const others = [...record.latencies.entries()].filter(([kind]) => kind !== 'verify').flatMap(([, values]) => values);
      const row: WindowRow = {
        window,
        load1: of((sample) => sample.load1),
        rssMb: of((sample) => sample.rss) / 2 ** 20,
        heapMb: of((sample) => sample.heap) / 2 ** 20,
        heapAfterGcMb: median(record.heapsAfterGc) / 2 ** 20,
        gcPauseMaxMs: record.gcPauses.length ? Math.max(...record.gcPauses) : Number.NaN,
        externalMb: of((sample) => sample.external) / 2 ** 20,
        handles: of((sample) => sample.handles),
        openFds: of((sample) => sample.openFds),
        connections: of((sample) => sample.connections),
        poolTotal: target.name === 'postgres' ? of((sample) => sample.poolTotal) : undefined,
        verifyP50: quantileWithInterval(record.latencies.get('verify') ?? [], 0.5),
        verifyP99: quantileWithInterval(record.latencies.get('verify') ?? [], 0.99),
        otherP99: quantileWithInterval(others, 0.99),
        requests: record.requests,
        unexpected: record.unexpected,
        unavailable: record.unavailable,
      };
      rows.push(row);
      onWindow(row);
      if (record.firstUnexpected) console.log(`  ${target.name} ${windowLabel(window)}: ${record.unexpected} unexpected, the first: ${record.firstUnexpected}`);
    }
  };

  await Promise.all([
    ...Array.from({ length: GATES }, (_, index) => gate(index)),
    ...Array.from({ length: SUPERVISORS }, (_, index) => supervisor(index)),
    ...Array.from({ length: LIVE_WATCHERS }, (_, index) => watcher(index)),
    sampler(),
    heapProbe(),
    reporter(),
  ]);
  return { rows, firstUnexpected, tally };
}

const fixed = (value: number | undefined, digits = 1) => (value !== undefined && Number.isFinite(value) ? value.toFixed(digits) : '-');
/** 'warm-up (5 min)' for window 0; then minutes counted from the end of the warm-up. */
const windowLabel = (window: number) => (window === 0 ? `warm-up (${fixed(WARMUP_MINUTES, 0)} min)` : `${fixed((window - 1) * WINDOW_MINUTES, 0)}–${fixed(window * WINDOW_MINUTES, 0)} min`);

/** A Markdown table (pastes into docs/performance.md as printed). */
function markdownTable(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
}

/** An interval's end: '∞' where a window cannot bound it. */
const bound = (value: number, digits = 1) => (value === Number.POSITIVE_INFINITY ? '∞' : value === Number.NEGATIVE_INFINITY ? '−∞' : fixed(value, digits));
/** '19.7 [18.9–21.0]': a quantile (ms) and its interval. */
const withInterval = (estimate: QuantileEstimate) => (Number.isFinite(estimate.value) ? `${fixed(estimate.value)} [${bound(estimate.low)}–${bound(estimate.high)}]` : '-');
const CONFIDENCE_LABEL = `${QUANTILE_CONFIDENCE * 100} %`;

const HEADER = [
  'target',
  'window',
  'load 1m',
  'RSS MB',
  'heap MB (sampled)',
  'heap after GC MB',
  'full GC pause ms (max)',
  'external MB',
  'handles',
  'open fds',
  'DB conns (pool)',
  'verify p50 ms',
  `verify p99 ms [${CONFIDENCE_LABEL}]`,
  `others p99 ms [${CONFIDENCE_LABEL}]`,
  'requests',
  'verify 503',
  'unexpected',
];
const rowCells = (name: string, row: WindowRow) => [
  name,
  windowLabel(row.window),
  fixed(row.load1),
  fixed(row.rssMb),
  fixed(row.heapMb),
  fixed(row.heapAfterGcMb),
  fixed(row.gcPauseMaxMs),
  fixed(row.externalMb),
  fixed(row.handles, 0),
  fixed(row.openFds, 0),
  `${fixed(row.connections, 0)}${row.poolTotal === undefined ? '' : ` (${fixed(row.poolTotal, 0)})`}`,
  fixed(row.verifyP50.value),
  withInterval(row.verifyP99),
  withInterval(row.otherP99),
  String(row.requests),
  String(row.unavailable),
  String(row.unexpected),
];

/** One judged measure of the flatness table: a level read by judgeLevel, or a latency quantile by judgeQuantile. */
interface Measure {
  name: string;
  /** Its word for a reading below 0.9 ×. */
  below: 'lower' | 'faster';
  judge(first: WindowRow, row: WindowRow): Judged | undefined;
}
const level = (name: string, pick: (row: WindowRow) => number | undefined): Measure => ({
  name,
  below: 'lower',
  judge(first, row) {
    const base = pick(first);
    const value = pick(row);
    return base !== undefined && value !== undefined && Number.isFinite(base) && Number.isFinite(value) ? judgeLevel(base, value) : undefined;
  },
});
const latency = (name: string, pick: (row: WindowRow) => QuantileEstimate): Measure => ({
  name,
  below: 'faster',
  judge(first, row) {
    return Number.isFinite(pick(first).value) && Number.isFinite(pick(row).value) ? judgeQuantile(pick(first), pick(row)) : undefined;
  },
});
/** The sampled heap is printed in the window rows but not judged: it follows the collector's saw-tooth (docs/decisions/152). */
const MEASURES: Measure[] = [
  level('RSS', (row) => row.rssMb),
  level('heap after GC', (row) => row.heapAfterGcMb),
  level('external', (row) => row.externalMb),
  level('handles', (row) => row.handles),
  level('open fds', (row) => row.openFds),
  level('DB conns', (row) => row.connections),
  latency('verify p50', (row) => row.verifyP50),
  latency('verify p99', (row) => row.verifyP99),
  latency('others p99', (row) => row.otherP99),
];

/**
 * Each later window against the first (bench/soak-flatness.ts): per measure the ratio, for a latency
 * with the ratio's interval in brackets; ` !` marks an upward drift beyond FLAT_WITHIN, ` lower` /
 * ` faster` a reading below 1 − FLAT_WITHIN (printed, not a regression). `drifts` and `belows` list
 * them for the verdict lines.
 */
function flatness(allRows: WindowRow[]): { table: string; drifts: string[]; belows: string[] } {
  const rows = allRows.filter((row) => row.window > 0);
  const first = rows[0];
  if (!first) return { table: '(no windows)', drifts: [], belows: [] };
  const drifts: string[] = [];
  const belows: string[] = [];
  const table = markdownTable(
    ['window', 'load 1m', ...MEASURES.map((measure) => `${measure.name} ÷ first`)],
    rows.slice(1).map((row) => [
      windowLabel(row.window),
      `${fixed(row.load1)} (first ${fixed(first.load1)})`,
      ...MEASURES.map((measure) => {
        const judged = measure.judge(first, row);
        if (judged === undefined || Number.isNaN(judged.ratio)) return '-';
        const interval = measure.below === 'faster' ? ` [${bound(judged.low, 2)}–${bound(judged.high, 2)}]` : '';
        const reading = `${fixed(judged.ratio, 2)}${interval}`;
        const text = `${measure.name} ${windowLabel(row.window)} ×${reading}`;
        if (judged.reading === 'up') drifts.push(text);
        if (judged.reading === 'down') belows.push(text);
        return `${reading}${judged.reading === 'up' ? ' !' : judged.reading === 'down' ? ` ${measure.below}` : ''}`;
      }),
    ]),
  );
  return { table, drifts, belows };
}

const databaseUrl = process.env.DATABASE_URL || undefined;
const chosen = (process.env.SOAK_TARGETS ?? 'pglite,postgres').split(',').filter(Boolean);
console.log(
  `soak: ${WARMUP_MINUTES} min warm-up, then ${MINUTES} min in ${WINDOWS} windows of ${WINDOW_MINUTES} min; ${GATES} gates × 1 scan/s (6/10 approvals, 2/10 already checked in, 1/10 unknown, 1/10 offline, uploaded every ${OUTBOX_SEND_MS / 1000} s; 1 gate in ${REENTRY_GATE_EVERY} at a re-entry list: 3/10 entries, 2/10 exits, 2/10 re-entries, 1/10 already inside, 1/10 unknown, 1/10 offline, 1 in ${OFFLINE_EXIT_EVERY} of them an exit), list and venue capacity ${CAPACITY}, door list every ${DOOR_LIST_SYNC_MS / 1000} s and counts every ${COUNTS_REFRESH_MS / 1000} s per gate, ${SUPERVISORS} supervisors searching every ${SEARCH_EVERY_MS / 1000} s, ${LIVE_WATCHERS} live door pages every ${LIVE_DOOR_POLL_MS / 1000} s; ${cpus().length} cores, Node ${process.version}, load ${fixed(loadavg()[0])}`,
);
if (chosen.includes('postgres') && !databaseUrl) console.log('DATABASE_URL is not set: PostgreSQL is skipped (npm run bench:soak starts a throwaway PostgreSQL).');
const build = spawnSync(process.execPath, ['build.ts'], { cwd: SERVER_DIR, stdio: 'inherit' });
if (build.status !== 0) throw new Error('building the server failed');

const targets: (Target & { freshCodes: string[]; denyCodes: string[] })[] = [];
let results: { target: Target; rows: WindowRow[]; firstUnexpected: string; tally: ReentryTally }[] = [];
try {
  if (chosen.includes('pglite')) targets.push(await pgliteTarget());
  if (chosen.includes('postgres') && databaseUrl) targets.push(await postgresTarget(databaseUrl));
  for (const target of targets) console.log(`- ${target.name}: ${target.baseUrl}, ${target.freshCodes.length} fresh tickets, server log ${target.log}`);
  const cursors = await Promise.all(targets.map((target) => openGates(target)));
  console.log(markdownTable(HEADER, []));
  const startedAt = performance.now();
  results = await Promise.all(targets.map(async (target, index) => ({ target, ...(await soak(target, cursors[index] ?? [], startedAt, (row) => console.log(`| ${rowCells(target.name, row).join(' | ')} |`))) })));
} finally {
  for (const target of targets) await target.stop();
}

const driftsAll: string[] = [];
for (const { target, rows, firstUnexpected, tally } of results) {
  console.log(
    `\n${target.name}: re-entry door (${GATES / REENTRY_GATE_EVERY} gates): ${tally.entries} first entries, ${tally.exits} exits and ${tally.reentries} re-entries approved online, ${tally.offlineExits} exits uploaded offline; inside now ${fixed(tally.listInside, 0)} / ${CAPACITY} at the list, ${fixed(tally.venueInside, 0)} / ${CAPACITY} at the venue (the last counts)`,
  );
  const end = target.rowsAtEnd;
  if (end) console.log(`${target.name}: at the end ${end.movements} check_in_movements (${end.exits} exits), ${end.listPlacesHeld} check_in_list_slots and ${end.eventPlacesHeld} event_slots held`);
  console.log(
    `${target.name}: every window against the first: the ratio, for a latency [its interval: the window's ${CONFIDENCE_LABEL} interval against the first's]; ! = upward drift beyond ${FLAT_WITHIN * 100} % (a latency: its whole interval above ${fixed(1 + FLAT_WITHIN, 2)}); lower / faster = below ${fixed(1 - FLAT_WITHIN, 2)} × (a latency: its whole interval), not a regression`,
  );
  const { table, drifts, belows } = flatness(rows);
  console.log(table);
  console.log(drifts.length ? `upward drift beyond ${FLAT_WITHIN * 100} %: ${drifts.join('; ')}` : `flat: no upward drift beyond ${FLAT_WITHIN * 100} % of the first window (a latency: beyond what its interval resolves)`);
  if (belows.length) console.log(`below the first window by more than ${FLAT_WITHIN * 100} % (less memory or faster: no regression): ${belows.join('; ')}`);
  driftsAll.push(...drifts.map((text) => `${target.name} ${text}`));
  if (firstUnexpected) console.error(`${target.name}: unexpected answers, the first: ${firstUnexpected}`);
}
const unexpected = results.reduce((sum, result) => sum + result.rows.reduce((total, row) => total + row.unexpected, 0), 0);
console.log(
  `BENCH_RESULT ${JSON.stringify({
    name: 'bench:soak',
    figure: results
      .map(({ target, rows: allRows }) => ({ target, rows: allRows.filter((row) => row.window > 0) }))
      .map(({ target, rows }) => `${target.name}: RSS ${fixed(rows[0]?.rssMb, 0)}→${fixed(rows.at(-1)?.rssMb, 0)} MB, heap after GC ${fixed(rows[0]?.heapAfterGcMb, 0)}→${fixed(rows.at(-1)?.heapAfterGcMb, 0)} MB, verify p99 ${fixed(rows[0]?.verifyP99.value)}→${fixed(rows.at(-1)?.verifyP99.value)} ms`)
      .join('; '),
    ratio: driftsAll.length ? `upward drift: ${driftsAll.length} (see above)` : `no upward drift beyond ${FLAT_WITHIN * 100} %`,
  })}`,
);
process.exitCode = unexpected > 0 ? 1 : 0;
