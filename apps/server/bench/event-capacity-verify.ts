/**
 * What an event's capacity (docs/decisions/147, 148) costs verify, in process:
 * `npx tsx bench/event-capacity-verify.ts` from apps/server (PGlite in memory), or with a
 * PostgreSQL: `npx tsx ../../scripts/with-postgres.ts -- npx tsx bench/event-capacity-verify.ts`.
 *
 * The real app (`createTestApp`, `app.inject`: routing, auth, verify, the database) on one
 * database with three live events, each with one check-in list and its own unused tickets:
 * - `plain`: an event without a capacity (verify's one-statement first entry, decision 070);
 * - `event`: an event with a capacity of CAPACITY places (never reached here);
 * - `event+list`: an event with that capacity whose list has a capacity of CAPACITY too;
 * - `list`: an event without a capacity whose list has CAPACITY places (decision 120's statement:
 *   `bench:verify`'s capacity list).
 * CAPACITY is 20,000, or `EVENT_CAPACITY_PLACES` (at most 100,000: a run's entries must fit);
 * `EVENT_CAPACITY_KINDS=plain,list` runs only those kinds (`plain` always, the reference).
 * ROUNDS rounds (`EVENT_CAPACITY_ROUNDS`, default 6), the kinds in turn (every other round
 * backwards), each of ENTRIES first entries of distinct tickets (`EVENT_CAPACITY_ENTRIES`, default
 * 1,500) sent by CONNECTIONS concurrent callers (`EVENT_CAPACITY_CONNECTIONS`, default 50).
 * Prints each round, then per kind the median entries/s, the median CPU time of this process per
 * entry (`process.cpuUsage`; on PGlite the database runs in it, so it is the whole cost; on
 * PostgreSQL only the server's side, and beside it the CPU of the PostgreSQL server's processes —
 * the postmaster's children, read from /proc, Linux only) and the ratios to `plain` (issue 26: ≥ 0.80).
 * CPU time is what this shared machine's load disturbs least (see bench/capacity-write.ts).
 * Timings never fail it; it exits 1 when an entry is not approved.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { apiPaths, CheckInList, checkInListsPath, ManagedEvent, managePaths, VerifyTicketResponse, wallClock } from '@gatecheck/contract';
import { rowsOf } from '../src/db/rows.ts';
import { DEMO_COLLEAGUE, DEMO_USER } from '../src/db/seed.ts';
import { insertTickets } from '../src/services/tickets.ts';
import { demoIds } from '../test/helpers/fixtures.ts';
import { api, bearer, createTestApp, login } from '../test/helpers/test-app.ts';
import { wholeNumberSetting } from './env-setting.ts';

const ROUNDS = wholeNumberSetting('EVENT_CAPACITY_ROUNDS', 6, { min: 1 });
const ENTRIES = wholeNumberSetting('EVENT_CAPACITY_ENTRIES', 1_500, { min: 1 });
const CONNECTIONS = wholeNumberSetting('EVENT_CAPACITY_CONNECTIONS', 50, { min: 1 });
/** The places of the venue (and of the limited list): more than a run's entries. */
const CAPACITY = wholeNumberSetting('EVENT_CAPACITY_PLACES', 20_000, { min: 1 });
const TIME_ZONE = 'Europe/Berlin';
const ALL_KINDS = ['plain', 'event', 'event+list', 'list'] as const;
type Kind = (typeof ALL_KINDS)[number];
const chosenKinds = process.env.EVENT_CAPACITY_KINDS?.split(',').filter(Boolean);
const KINDS: readonly Kind[] = chosenKinds ? ALL_KINDS.filter((kind) => kind === 'plain' || chosenKinds.includes(kind)) : ALL_KINDS;
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/**
 * CPU time (ms) used so far by the PostgreSQL server whose postmaster is `postmasterPid`: the
 * postmaster and its children (backends, WAL writer, checkpointer…), from /proc. A backend that
 * has exited is no longer counted, so read it around rounds that keep their connections.
 */
function postgresCpuMs(postmasterPid: number, ticksPerSecond: number): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command in parentheses: state, ppid, … utime (14th field), stime (15th).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(entry) === postmasterPid || Number(fields[1]) === postmasterPid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1000) / ticksPerSecond;
}

const t = await createTestApp();
let failures = 0;
try {
  const { organizationId } = await demoIds(t.database.db);
  const adminToken = await login(t.app, DEMO_USER.username, DEMO_USER.password);
  const staffToken = await login(t.app, DEMO_COLLEAGUE.username, DEMO_COLLEAGUE.password);
  const door = async (kind: Kind) => {
    const payload = {
      title: `Bench ${kind} ${randomUUID().slice(0, 8)}`,
      description: '',
      date: wallClock(TIME_ZONE, new Date()).date,
      location: 'Hall',
      status: 'live',
      timeZone: TIME_ZONE,
      dayCutoff: '04:00',
      allowsScanningOutsideDays: true,
      days: [],
      ...(kind === 'plain' || kind === 'list' ? {} : { capacity: CAPACITY }),
    };
    const created = await t.app.inject({ method: 'POST', url: api(managePaths.organizationEvents(organizationId)), headers: bearer(adminToken), payload });
    if (created.statusCode !== 201) throw new Error(`creating the event failed: ${created.body}`);
    const event = ManagedEvent.parse(created.json());
    const listBody = { name: `Door ${kind}`, ...(kind === 'event+list' || kind === 'list' ? { capacity: CAPACITY } : {}) };
    const listed = await t.app.inject({ method: 'POST', url: api(checkInListsPath(event.id)), headers: bearer(adminToken), payload: listBody });
    if (listed.statusCode !== 201) throw new Error(`creating the list failed: ${listed.body}`);
    const list = CheckInList.parse(listed.json());
    const codes = Array.from({ length: ROUNDS * ENTRIES }, (_, index) => `ECB-${kind}-${String(index).padStart(6, '0')}`);
    for (let start = 0; start < codes.length; start += 1_000) {
      await insertTickets(
        t.database.db,
        codes.slice(start, start + 1_000).map((code) => ({ code, eventId: event.id, holderName: `Holder ${code}`, ticketType: 'General Admission' })),
      );
    }
    let next = 0;
    return { eventId: event.id, listId: list.id, nextCode: () => codes[next++] ?? 'NO-TICKETS-LEFT' };
  };
  // On PostgreSQL: its postmaster, whose children's CPU is the database's share of each round.
  let databaseCpuMs: (() => number) | undefined;
  if (process.env.DATABASE_URL) {
    // A backend's parent is the postmaster (the data directory, where its pid is written, is for superusers only).
    const [backend] = rowsOf<{ pid: number }>(await t.database.db.execute(sql`select pg_backend_pid() as pid`));
    const stat = readFileSync(`/proc/${backend?.pid}/stat`, 'utf8');
    const postmasterPid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    databaseCpuMs = () => postgresCpuMs(postmasterPid, ticksPerSecond);
  }
  const doors: Partial<Record<Kind, Awaited<ReturnType<typeof door>>>> = {};
  for (const kind of KINDS) doors[kind] = await door(kind);

  const round = async (kind: Kind) => {
    const target = doors[kind];
    if (!target) throw new Error(`no door for ${kind}`);
    let sent = 0;
    const caller = async () => {
      while (sent < ENTRIES) {
        sent += 1;
        const response = await t.app.inject({
          method: 'POST',
          url: api(apiPaths.verifyTicket),
          headers: bearer(staffToken),
          payload: { eventId: target.eventId, qrCode: target.nextCode(), day: 1, checkInListId: target.listId, scanId: randomUUID() },
        });
        const verdict = response.statusCode === 200 ? VerifyTicketResponse.safeParse(response.json()) : undefined;
        if (!verdict?.success || !verdict.data.isValid) {
          failures += 1;
          if (failures === 1) console.error(`not approved: ${response.statusCode} ${response.body.slice(0, 200)}`);
        }
      }
    };
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const databaseBefore = databaseCpuMs?.();
    await Promise.all(Array.from({ length: CONNECTIONS }, caller));
    const used = process.cpuUsage(cpuBefore);
    const databaseUsed = databaseCpuMs && databaseBefore !== undefined ? databaseCpuMs() - databaseBefore : Number.NaN;
    const seconds = (performance.now() - started) / 1000;
    return { perSecond: ENTRIES / seconds, cpuMsPerEntry: (used.user + used.system) / 1000 / ENTRIES, databaseCpuMsPerEntry: databaseUsed / ENTRIES };
  };

  console.log(
    `event-capacity-verify: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite in memory'}, ${ROUNDS} rounds of ${ENTRIES} first entries per kind by ${CONNECTIONS} callers, ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}`,
  );
  const results: Record<Kind, { perSecond: number; cpuMsPerEntry: number; databaseCpuMsPerEntry: number }[]> = { plain: [], event: [], 'event+list': [], list: [] };
  for (let index = 0; index < ROUNDS; index++) {
    for (const kind of index % 2 === 0 ? KINDS : [...KINDS].reverse()) {
      const result = await round(kind);
      results[kind].push(result);
      const database = databaseCpuMs ? `, PostgreSQL CPU ${result.databaseCpuMsPerEntry.toFixed(2)} ms` : '';
      console.log(`  round ${index + 1} ${kind}: ${Math.round(result.perSecond)}/s, CPU ${result.cpuMsPerEntry.toFixed(2)} ms${database} per entry; load ${loadavg()[0]?.toFixed(1)}`);
    }
  }
  const plainRate = median(results.plain.map((result) => result.perSecond));
  const plainCpu = median(results.plain.map((result) => result.cpuMsPerEntry));
  const plainDatabaseCpu = median(results.plain.map((result) => result.databaseCpuMsPerEntry));
  console.table(
    KINDS.map((kind) => {
      const rate = median(results[kind].map((result) => result.perSecond));
      const cpu = median(results[kind].map((result) => result.cpuMsPerEntry));
      const databaseCpu = median(results[kind].map((result) => result.databaseCpuMsPerEntry));
      const database = databaseCpuMs ? { 'PostgreSQL CPU ms/entry': databaseCpu.toFixed(2), 'plain PostgreSQL CPU / PostgreSQL CPU': (plainDatabaseCpu / databaseCpu).toFixed(2) } : {};
      return { kind, 'entries/s': Math.round(rate), 'CPU ms/entry': cpu.toFixed(2), '/s vs plain': (rate / plainRate).toFixed(2), 'plain CPU / CPU': (plainCpu / cpu).toFixed(2), ...database };
    }),
  );
} finally {
  await t.close();
}
process.exitCode = failures > 0 ? 1 : 0;
