/**
 * The server's CPU time per approval, A/B of server bundles in alternating rounds (issue 26's speed
 * rule, docs/performance.md "The server's JavaScript per approval"). From apps/server, against a
 * throwaway durable PostgreSQL (the database's work then runs outside the measured process):
 *
 *   npx tsx ../../scripts/with-postgres.ts --durable -- npx tsx bench/approval-cpu.ts dist-main/server.js dist/server.js
 *
 * Each bundle (a path from apps/server; build the other version and copy its dist/ beside this one,
 * as for bench:verify's BENCH_VERIFY_COMPARE_BUILD; node flags of its own may go before the path in
 * the same argument, e.g. "--max-semi-space-size=32 dist/server.js") runs as its own server process (default log
 * level, JSON lines into a file, as an operator runs it) on one shared database with the demo data
 * and unused tickets of its own. ROUNDS rounds (`APPROVAL_CPU_ROUNDS`, default 6), the bundles in
 * turn (every other round backwards), each of ENTRIES approvals of distinct tickets at the demo
 * event's default list (`APPROVAL_CPU_ENTRIES`, default 3,000) sent by CONNECTIONS connections
 * (`APPROVAL_CPU_CONNECTIONS`, default 50) with autocannon, after one unrecorded warm-up round each.
 * Per round: the server process's CPU time (user + system, from /proc/<pid>/stat, Linux only)
 * divided by the approvals (the cluster's is not read: its backends come and go), and its resident
 * memory after the round. Prints
 * each round, then each bundle's median and the ratios to the first bundle's.
 * `APPROVAL_CPU_NODE_ARGS` (space-separated) go to every server's node, e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof` or `--heap-prof --heap-prof-dir=/tmp/heap` (written when it stops).
 * Exits 1 when an answer is not an approval; timings never fail it.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { apiPaths, VerifyTicketResponse } from '@gatecheck/contract';
import { openDatabase } from '../src/db/client.ts';
import { DEMO_TODAY_DAY_NUMBER } from '../src/db/seed.ts';
import { prepareDoorDatabase } from '../test/helpers/door-database.ts';
import { wholeNumberSetting } from './env-setting.ts';
import { spawnLogged, stopper, waitForLine } from './server-process.ts';
import { codesOf } from './verify-references.ts';

const ROUNDS = wholeNumberSetting('APPROVAL_CPU_ROUNDS', 6, { min: 1 });
const ENTRIES = wholeNumberSetting('APPROVAL_CPU_ENTRIES', 3_000, { min: 1 });
const CONNECTIONS = wholeNumberSetting('APPROVAL_CPU_CONNECTIONS', 50, { min: 1 });
const NODE_ARGS = (process.env.APPROVAL_CPU_NODE_ARGS ?? '').split(' ').filter(Boolean);
const builds = process.argv.slice(2);
const databaseUrl = process.env.DATABASE_URL;
if (builds.length === 0 || !databaseUrl) throw new Error('usage: DATABASE_URL=… bench/approval-cpu.ts <bundle> [<bundle>…] (see the module comment)');
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Resident memory (MB) of process `pid` now, from /proc; 0 when it is gone. */
function processRssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** CPU time (ms, user + system) of process `pid` so far, from /proc; 0 when it is gone. */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

const prefixes = builds.map((_, index) => `B${index}-`);
const perBuild = (ROUNDS + 1) * ENTRIES;
const door = await prepareDoorDatabase(
  () => openDatabase({ databaseUrl }),
  prefixes.flatMap((prefix) => codesOf(prefix, perBuild)),
);
const servers = await Promise.all(
  builds.map(async (build, index) => {
    // A build may carry node flags of its own before the bundle ("--max-semi-space-size=64 dist/server.js").
    const { child, log, exited } = await spawnLogged(`approval-cpu-${index}`, [...NODE_ARGS, '--enable-source-maps', ...build.split(' ').filter(Boolean)], {
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
    });
    const url = await waitForLine(log, /running at (http:\/\/\S+)/, exited);
    return { build, url, pid: child.pid ?? 0, codes: codesOf(prefixes[index] ?? '', perBuild), next: 0, stop: stopper(child, exited, async () => undefined) };
  }),
);

let failures = 0;
/** One round of ENTRIES approvals against `server`: its CPU µs per approval and its approvals per second. */
async function round(server: (typeof servers)[number]): Promise<{ serverUs: number; perSecond: number; rssMb: number }> {
  let approved = 0;
  const before = processCpuMs(server.pid);
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    amount: ENTRIES,
    requests: [
      {
        method: 'POST',
        path: `/api${apiPaths.verifyTicket}`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${door.token}` },
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({ eventId: door.eventId, qrCode: server.codes[server.next++] ?? 'NO-TICKETS-LEFT', day: DEMO_TODAY_DAY_NUMBER, scanId: randomUUID() }),
        }),
        onResponse: (status, body) => {
          const verdict = status === 200 ? VerifyTicketResponse.safeParse(JSON.parse(body)) : undefined;
          if (verdict?.success && verdict.data.isValid) approved += 1;
          else if (++failures === 1) console.error(`not approved: ${status} ${body.slice(0, 200)}`);
        },
      },
    ],
  });
  const serverMs = processCpuMs(server.pid) - before;
  return { serverUs: (1000 * serverMs) / Math.max(1, approved), perSecond: approved / result.duration, rssMb: processRssMb(server.pid) };
}

try {
  console.log(`approval-cpu: ${builds.join(' vs ')}; ${ROUNDS} rounds of ${ENTRIES} approvals by ${CONNECTIONS} connections, ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}`);
  for (const server of servers) await round(server);
  const results = new Map(servers.map((server) => [server.build, [] as Awaited<ReturnType<typeof round>>[]]));
  for (let index = 0; index < ROUNDS; index++) {
    for (const server of index % 2 === 0 ? servers : [...servers].reverse()) {
      const result = await round(server);
      results.get(server.build)?.push(result);
      console.log(`  round ${index + 1} ${server.build}: server CPU ${result.serverUs.toFixed(0)} µs per approval, ${Math.round(result.perSecond)}/s, RSS ${result.rssMb.toFixed(0)} MB; load ${loadavg()[0]?.toFixed(1)}`);
    }
  }
  const first = results.get(builds[0] ?? '') ?? [];
  const firstServer = median(first.map((result) => result.serverUs));
  console.table(
    builds.map((build) => {
      const rows = results.get(build) ?? [];
      const serverUs = median(rows.map((result) => result.serverUs));
      return {
        build,
        'server CPU µs/approval (median)': serverUs.toFixed(0),
        'min–max': `${Math.min(...rows.map((result) => result.serverUs)).toFixed(0)}–${Math.max(...rows.map((result) => result.serverUs)).toFixed(0)}`,
        [`÷ ${builds[0]}`]: (serverUs / firstServer).toFixed(2),
        'approvals/s (median)': Math.round(median(rows.map((result) => result.perSecond))),
        'RSS MB (last round)': (rows.at(-1)?.rssMb ?? 0).toFixed(0),
      };
    }),
  );
  console.log(`load at the end ${loadavg()[0]?.toFixed(1)}`);
} finally {
  for (const server of servers) await server.stop();
}
process.exitCode = failures > 0 ? 1 : 0;
