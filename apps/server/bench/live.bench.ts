/**
 * `npm run bench:live` (docs/decisions/117): what keeping a live door page up to date costs the
 * server while 50 gates scan, polled (each watcher asks GET …/live every LIVE_DOOR_POLL_MS) or
 * polled with the instance's shared reads (LIVE_DOOR_SHARE_MS 1000: asks within a second share one
 * read, what the server does), or pushed (server-sent events: the instance reads the figures once per
 * interval and writes the same text to every watcher's open stream — modelled here by reading and
 * serializing once and a write per watcher; a real SSE route also holds a connection per watcher).
 *
 * Each scenario runs BENCH_LIVE_SECONDS (default 10) with 50 gates, each sending one verify a second
 * (fresh tickets, 50 check-ins/s), in process through `app.inject` (the routes, hooks and database
 * as served; no sockets). Printed per scenario: the server process's CPU time per second (user +
 * system), the verify latency p50/p95 and the live read's latency p50/p95. The embedded PGlite by
 * default; PostgreSQL with DATABASE_URL (run under scripts/with-postgres.ts).
 */
import { performance } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import { apiPaths, LIVE_DOOR_POLL_MS, liveDoorPaths } from '@gatecheck/contract';
import { sql } from 'drizzle-orm';
import { findEvent } from '../src/services/events.ts';
import { readLiveDoor } from '../src/services/live-door.ts';
import { benchNames, benchTicketCode, bulkLoadTickets, createBenchEvent, createBenchOrganization } from '../test/helpers/bulk-load.ts';
import { api, bearer, createTestApp } from '../test/helpers/test-app.ts';

const GATES = 50;
const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 10);
const DAY = 1;
const SCENARIOS = [
  { mode: 'none', watchers: 0, shareMs: 0 },
  { mode: 'poll', watchers: 5, shareMs: 0 },
  { mode: 'poll', watchers: 5, shareMs: 1000 },
  { mode: 'push', watchers: 5, shareMs: 0 },
  { mode: 'poll', watchers: 50, shareMs: 0 },
  { mode: 'poll', watchers: 50, shareMs: 1000 },
  { mode: 'push', watchers: 50, shareMs: 0 },
] as const;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An app with its own database (LIVE_DOOR_SHARE_MS `shareMs`), a bench event of `tickets` fresh tickets and an admin's token. */
async function benchApp(shareMs: number, tickets: number) {
  const testApp = await createTestApp({ seed: false, env: { LIVE_DOOR_SHARE_MS: String(shareMs) } });
  const { database } = testApp;
  const organization = await createBenchOrganization(database);
  const eventId = await createBenchEvent(database, organization.organizationId, 'Live Bench');
  await bulkLoadTickets(database, { eventId, prefix: 'LB', count: tickets, names: benchNames() });
  await database.db.execute(sql`analyze`);
  return { testApp, eventId, event: await findEvent(database.db, eventId), headers: bearer(organization.token) };
}

async function main(): Promise<void> {
  console.log(`Database: ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite'}; ${GATES} gates at 1 verify/s each, ${SECONDS} s per scenario, poll/push every ${LIVE_DOOR_POLL_MS} ms`);
  console.log('scenario                    | CPU ms/s | verify p50 / p95 ms | live answer p50 / p95 ms | figures delivered');
  const cpuOf = new Map<string, number>();
  for (const scenario of SCENARIOS) {
    const { testApp, eventId, event, headers } = await benchApp(scenario.shareMs, GATES * SECONDS + 500);
    const { app, database } = testApp;
    try {
      let nextTicket = 0;
      const verifyMs: number[] = [];
      const liveMs: number[] = [];
      let answers = 0;
      const until = performance.now() + SECONDS * 1000;
      const gate = async (index: number) => {
        await sleep((index * 1000) / GATES);
        while (performance.now() < until) {
          const started = performance.now();
          const qrCode = benchTicketCode('LB', nextTicket++);
          const response = await app.inject({ method: 'POST', url: api(apiPaths.verifyTicket), headers, payload: { eventId, qrCode, day: DAY } });
          if (response.statusCode !== 200) throw new Error(`verify answered ${response.statusCode}: ${response.body}`);
          verifyMs.push(performance.now() - started);
          await sleep(Math.max(0, 1000 - (performance.now() - started)));
        }
      };
      const poller = async (index: number) => {
        await sleep((index * LIVE_DOOR_POLL_MS) / scenario.watchers);
        while (performance.now() < until) {
          const started = performance.now();
          const response = await app.inject({ method: 'GET', url: api(liveDoorPaths.live(eventId, DAY)), headers });
          if (response.statusCode !== 200) throw new Error(`live answered ${response.statusCode}: ${response.body}`);
          liveMs.push(performance.now() - started);
          answers += 1;
          await sleep(Math.max(0, LIVE_DOOR_POLL_MS - (performance.now() - started)));
        }
      };
      const pusher = async () => {
        const streams = Array.from({ length: scenario.watchers }, () => new PassThrough().resume());
        while (performance.now() < until) {
          const started = performance.now();
          const text = `data: ${JSON.stringify(await readLiveDoor(database.db, event, DAY, new Date()))}\n\n`;
          for (const stream of streams) stream.write(text);
          liveMs.push(performance.now() - started);
          answers += streams.length;
          await sleep(Math.max(0, LIVE_DOOR_POLL_MS - (performance.now() - started)));
        }
        for (const stream of streams) stream.end();
      };
      const cpuBefore = process.cpuUsage();
      const wallBefore = performance.now();
      await Promise.all([
        ...Array.from({ length: GATES }, (_, index) => gate(index)),
        ...(scenario.mode === 'poll' ? Array.from({ length: scenario.watchers }, (_, index) => poller(index)) : []),
        ...(scenario.mode === 'push' ? [pusher()] : []),
      ]);
      const cpu = process.cpuUsage(cpuBefore);
      const cpuMsPerSecond = (cpu.user + cpu.system) / 1000 / ((performance.now() - wallBefore) / 1000);
      const name = `${scenario.mode}${scenario.shareMs ? ' (shared reads)' : ''}${scenario.watchers ? `, ${scenario.watchers} watchers` : ''}`.padEnd(27);
      const live = liveMs.length ? `${percentile(liveMs, 50).toFixed(1)} / ${percentile(liveMs, 95).toFixed(1)}`.padStart(22) : '—'.padStart(22);
      cpuOf.set(`${scenario.mode}${scenario.shareMs ? '-shared' : ''}-${scenario.watchers}`, cpuMsPerSecond);
      console.log(`${name} | ${cpuMsPerSecond.toFixed(0).padStart(8)} | ${`${percentile(verifyMs, 50).toFixed(1)} / ${percentile(verifyMs, 95).toFixed(1)}`.padStart(19)} | ${live} | ${answers}`);
    } finally {
      await testApp.close();
    }
  }
  const cpu = (key: string) => (cpuOf.get(key) ?? 0).toFixed(0);
  const plain = cpuOf.get('poll-50') ?? 1;
  console.log(
    `BENCH_RESULT ${JSON.stringify({ name: 'bench:live', figure: `50 gates + 50 watchers, CPU ms/s: poll ${cpu('poll-50')}, shared poll ${cpu('poll-shared-50')}, push ${cpu('push-50')} (gates alone ${cpu('none-0')})`, ratio: `shared poll ${((cpuOf.get('poll-shared-50') ?? 0) / plain).toFixed(2)}x plain poll at 50 watchers` })}`,
  );
}

await main();
